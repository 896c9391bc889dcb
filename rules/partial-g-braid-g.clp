;;; partial-g-braid[{n}] with a g-candidate as new rlc, extending a {src}{m} fact (a partial braid,
;;; or a partial g-braid), anchor {j}; built at level {k} just below g-braid[{k}], target by target.
;;; The new variable V (not a g-rlc's variable) has a g-candidate G not containing z nor an rlc, with
;;; at least two labels compatible with z and the rlcs (g-free, counted on G's three labels as in
;;; partial-g-whip-g.clp: with one, the plain partial braid on that candidate extends wherever this
;;; one does; with none, a (g-)braid ends here and fires first), every candidate of V outside G is
;;; linked to z or an rlc (in inc), and one of them is left (the left-linking candidate: tv facts
;;; are a snapshot, so V reached from the anchor once may have lost it).  z not in G and no rlc in G
;;; also exclude a V that contains z or a candidate rlc (that candidate is not in inc).
(defrule partial-g-braid-{n}-{j}-g-{src}
   (declare (salience {s_partial_gbraid}))
   (logical
      ({src}{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens){bind_gv})
      (focus (z ?z) (level {k}) (pass {focus_pass}))
      (tv (a ?{j}) (v ?v{test_gv}))
      (gcand (g ?g) (v ?v)
             (ls $?gls{not_in_g_s}&:(> (g-free ?gls ?inc) 1))))
   (not (cv (v ?v) (l ?x&:(not (member$ ?x ?gls))&:(not (member$ ?x ?inc)))))
   (exists (cv (v ?v) (l ?y&:(member$ ?y ?inc)&:(not (member$ ?y ?gls)))))
   (nb (l ?g) (ls $?ng))
   =>
   (bind ?s (sort > (create$ {list_s} ?g)))
   (if (or (neq ?z ?*lean-z*) (sr-viable {focus_pass} {n} ?z ?s)) then  ; lean stages: can it complete?
      (bind ?i (member$ ?g ?s))                              ; G's rank in the new set
      (bind ?at (+ 1 0 0 (expand$ (subseq$ ?lens 1 ?i))))   ; where G's block goes in inc
      (assert (pgb{n} (z ?z) {assert_s} (inc (insert$ ?inc ?at ?ng))
                      (lens (insert$ ?lens (+ ?i 1) (length$ ?ng))) (gv (g-braid-vars ?s))))))
