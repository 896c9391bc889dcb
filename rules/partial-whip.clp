;;; partial-whip[{n}] (SPEC §7.2), the partial whips whip[{k}] extends.
;;; Template: the whip family's entry (sudorules/resolution/families.py) fills the {{...}} fields for
;;; every length n >= 2 below the longest whip tried (m = n - 1, k = n + 1).  A pw{m} fact holds
;;; the target z and, for each cell i, its CSP variable vi, left-linking li and right-linking ri
;;; candidate.

;;; partial-whip[n], built at level n+1 just below whip[n+1]: same as above, except that V keeps
;;; exactly one candidate R (not L) unlinked to Z and to the rlcs (SPEC §7.2).  "Linked to Z or
;;; to an rlc" is membership in the inc list (neighbours of Z and of every rlc, links.clp), one
;;; test per candidate instead of a join.  Deduplicated on (target, sequence of rlcs).
(defrule partial-whip-{n}
   (declare (salience {s_partial_whip}))
   (logical
      (pw{m} (z ?z) {bind_m} (inc $?inc)){whip_focus}
      (link (a ?r{m}) (b ?l&{not_llcs_m}) (via $?w))
      (cv (v ?v&:(not (member$ ?v ?w))) (l ?l))
      (active (level {k}))
      (cv (v ?v) (l ?r&~?l&{not_labels_m}&:(not (member$ ?r ?inc)))))
   (not (cv (v ?v) (l ?x&~?l&~?r&:(not (member$ ?x ?inc)))))
   (not (pw{n} (z ?z) {rlc_key_m} (r{n} ?r)))
   (nb (l ?r) (ls $?nr))
   =>
   (assert (pw{n} (z ?z) {bind_m} (v{n} ?v) (l{n} ?l) (r{n} ?r) (inc ?inc ?nr))))
