;;; g-whip[{n}] (SPEC §4.5), extending the partial g-whips of length {m} (pgw{m} facts: partial
;;; whips with at least one g-rlc, see partial-g-whip1.clp).  A g-whip whose rlcs are all candidates
;;; is a whip, found by whip[{n}] at a higher salience; so g-whip[n] only extends pgw facts.
;;; Template: the g-whip family's entry (sudorules/resolution/families.py) fills the {{...}} fields.
;;; Continuity with a g-rlc reads the g-link facts (link (a G) (b L) (via VG), g-links.clp).  The
;;; variable must be unused: a g-rlc's variable can lose every compatible candidate to later rlcs
;;; (each linked to one of its labels), so, unlike whip.clp, "holds a compatible rlc" does not
;;; exclude it.
(defrule g-whip-{n}
   (declare (salience {s_gwhip}))
   (pgw{m} (z ?z) {bind_m} (inc $?inc))
   (link (a ?r{m}) (b ?l&{not_llcs_m}) (via $?w))
   (cv (v ?v&{not_vars_m}&:(not (member$ ?v ?w))) (l ?l))
   (not (cv (v ?v) (l ?x&~?l&:(not (member$ ?x ?inc)))))
   ?f <- (cand (l ?z))
   =>
   (sr-chain g-whip {n} ?z (create$ {chain_m} ?v ?l 0))
   (retract ?f)
   (assert (dirty)))
