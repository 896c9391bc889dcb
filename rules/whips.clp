;;; whip[{n}] (SPEC §4.2) and the partial whips of length {m} it extends (SPEC §7.2).
;;; Template text: sudorules/rulegen.py fills the {{...}} fields for every length n >= 2
;;; (m = n - 1, k = n + 1) and loads the result.  A pw{m} fact holds the target z and,
;;; for each cell i, its CSP variable vi, left-linking li and right-linking ri candidate.

;;; whip[n]: a variable V (not yet used) with a candidate L linked to the last rlc, whose
;;; every candidate other than L is linked to Z or to some rlc (is in the inc list).  Then Z is eliminated.
;;; Only "L is no earlier llc" is tested: Z and the rlcs are compatible with the last rlc, so
;;; L (linked to it) is none of them; a used variable, or one sharing the last rlc (via), holds
;;; a compatible rlc other than L, so it can never pass the test.
(defrule whip-{n}
   (declare (salience {s_whip}))
   (pw{m} (z ?z) {bind_m} (inc $?inc))
   (link (a ?r{m}) (b ?l&{not_llcs_m}) (via $?w))
   (cv (v ?v&:(not (member$ ?v ?w))) (l ?l))
   (not (cv (v ?v) (l ?x&~?l&:(not (member$ ?x ?inc)))))
   ?f <- (cand (l ?z))
   =>
   (sr-chain whip {n} ?z (create$ {chain_m} ?v ?l 0))
   (retract ?f){whip_block})

;;; partial-whip[n], built at level n+1 just below whip[n+1]: same as above, except that V keeps
;;; exactly one candidate R (not L) unlinked to Z and to the rlcs (SPEC §7.2).  "Linked to Z or
;;; to an rlc" is membership in the inc list (neighbours of Z and of every rlc, links.clp), one
;;; test per candidate instead of a join.  Deduplicated on (target, sequence of rlcs).
(defrule partial-whip-{n}
   (declare (salience {s_partial_whip}))
   (logical
      (pw{m} (z ?z) {bind_m} (inc $?inc))
      (link (a ?r{m}) (b ?l&{not_llcs_m}) (via $?w))
      (cv (v ?v&:(not (member$ ?v ?w))) (l ?l))
      (active (level {k}))
      (cv (v ?v) (l ?r&~?l&{not_labels_m}&:(not (member$ ?r ?inc)))))
   (not (cv (v ?v) (l ?x&~?l&~?r&:(not (member$ ?x ?inc)))))
   (not (pw{n} (z ?z) {rlc_key_m} (r{n} ?r)))
   (nb (l ?r) (ls $?nr))
   =>
   (assert (pw{n} (z ?z) {bind_m} (v{n} ?v) (l{n} ?l) (r{n} ?r) (inc ?inc ?nr))))
