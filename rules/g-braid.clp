;;; g-braid[{n}] (SPEC §4.5: the braid analogue of a g-whip), extending the partial g-braids of
;;; length {m} (pgb{m} facts: partial braids with at least one g-rlc, see partial-g-braid1.clp).  A
;;; g-braid whose rlcs are all candidates is a braid, found by braid[{n}] at a higher salience; so
;;; g-braid[n] only extends pgb facts.
;;; Template: the g-braid family's entry (sudorules/resolution/families.py) fills the {{...}} fields
;;; for every length n >= 3 and every anchor {j} of the last left-linking candidate (the target z or
;;; one rlc s1..s{m}): one rule per anchor, as braid.clp.
;;; A pgb{m} fact holds the target z and its set of rlcs, sorted (labels and g-labels are integers:
;;; labels 111..999, g-labels 2111..4996), the inc list (neighbour lists of z and of the rlcs in
;;; sorted order; a g-rlc's list is the candidates g-linked to it), their lengths and gv: the
;;; variables of its g-rlcs.  The tv facts of a g-label anchor G (the driver's "g-touches" hand-over)
;;; are the variables other than G's own with a candidate g-linked to G.
;;; The last variable V is not the variable of a g-rlc (all the variables of a chain differ; a
;;; variable of a candidate rlc cannot qualify: that rlc is in it and not in inc).

(defrule g-braid-{n}-{j}
   (declare (salience {s_gbraid}))
   (pgb{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens) (gv $?gv))
   (tv (a ?{j}) (v ?v&:(not (member$ ?v ?gv))))
   (not (cv (v ?v) (l ?x&:(not (member$ ?x ?inc)))))
   ?f <- (cand (l ?z))
   =>
   (sr-g-braid {n} ?z ?v {list_s})
   (retract ?f)
   (assert (dirty)))
