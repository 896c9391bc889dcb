;;; whip[{n}] (SPEC §4.2), extending the partial whips of length {m} (partial-whip.clp, SPEC §7.2).
;;; Template: the whip family's entry (sudorules/resolution/families.py) fills the {{...}} fields for
;;; every length n >= 2 (m = n - 1, k = n + 1) and the engine loads the result when level n starts.  A pw{m} fact holds the target z and,
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
   (retract ?f)
   (assert (dirty)){whip_block})
