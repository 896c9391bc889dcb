;;; partial-g-braid[{n}] with a candidate as new rlc, extending a partial g-braid of length {m} (a
;;; pgb{m}, which already has a g-rlc; see g-braid.clp for the fact model), anchor {j}.  Built at
;;; level {k} just below g-braid[{k}], target by target (the focus facts of partial-braid.clp).
;;; As partial-braid.clp, plus: V is not the variable of a g-rlc (gv).  Keyed by the set of rlcs,
;;; so re-deriving the same set only adds logical support.
(defrule partial-g-braid-{n}-{j}
   (declare (salience {s_partial_gbraid}))
   (logical
      (pgb{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens) (gv $?gv))
      (focus (z ?z) (level {k}) (pass {focus_pass}))
      (tv (a ?{j}) (v ?v&:(not (member$ ?v ?gv))))
      (cv (v ?v) (l ?r&~?z&{not_s}&:(not (member$ ?r ?inc)))))
   (not (cv (v ?v) (l ?x&~?r&:(not (member$ ?x ?inc)))))
   (nb (l ?r) (ls $?nr))
   =>
   (bind ?s (sort > (create$ {list_s} ?r)))
   (if (or (neq ?z ?*lean-z*) (sr-viable {focus_pass} {n} ?z ?s)) then  ; lean stages: can it complete?
      (bind ?i (member$ ?r ?s))                              ; R's rank in the new set
      (bind ?at (+ 1 0 0 (expand$ (subseq$ ?lens 1 ?i))))   ; where R's block goes in inc
      (assert (pgb{n} (z ?z) {assert_s} (inc (insert$ ?inc ?at ?nr))
                      (lens (insert$ ?lens (+ ?i 1) (length$ ?nr))) (gv ?gv)))))
