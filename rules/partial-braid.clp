;;; partial-braid[{n}] (see braid.clp for the fact model): the partial braids braid[{k}] extends.
;;; Template: the braid family's entry (sudorules/resolution/families.py) fills the {{...}} fields
;;; for every length n >= 2 and every anchor {j} of the new left-linking candidate.

;;; partial-braid[n], built at level n+1 just below braid[n+1], target by target: the driver
;;; asserts (focus (z Z) (level n+1)) for one target at a time once the level's other rules are
;;; quiet (whips first), so a puzzle that level n+1 solves early never builds the other targets'
;;; partial braids.  V keeps exactly one candidate R
;;; unlinked to Z and to the rlcs (not in the inc list).  The fact is keyed by the set of rlcs, and
;;; its inc list is the neighbour lists of Z and of the rlcs in sorted order (lens: their lengths,
;;; to insert R's list at its rank), so it depends on the set only and re-deriving it only adds
;;; logical support: it lives as long as one of its derivations does.
;;;
;;; In a lean stage (the driver tries one target with braids up to a length m, schedule.py), a
;;; partial braid of length n on Z with rlc set S can only grow into a braid of length <= m if the
;;; trial propagation from Z and S together contradicts within m - n rounds (sudorules/engine/
;;; trial.py): its remaining rlcs would be forced one per round and its last variable emptied.  So
;;; before building one of the lean target's partial braids the rule asks the driver (sr-viable,
;;; compiled propagation), which answers yes at once for the lengths kept below the lean level (those
;;; live across changes of state).  Measured on cb-001 line 1747 (B6): of 159,189 partial braids of
;;; length 4 the lean stages were about to build, 2 passed.
(defrule partial-braid-{n}-{j}
   (declare (salience {s_partial_braid}))
   (logical
      (pb{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens))
      (focus (z ?z) (level {k}) (pass {focus_pass}))
      (tv (a ?{j}) (v ?v))
      (cv (v ?v) (l ?r&~?z&{not_s}&:(not (member$ ?r ?inc)))))
   (not (cv (v ?v) (l ?x&~?r&:(not (member$ ?x ?inc)))))
   (nb (l ?r) (ls $?nr))
   =>
   (bind ?s (sort > (create$ {list_s} ?r)))
   (if (or (neq ?z ?*lean-z*) (sr-viable {focus_pass} {n} ?z ?s)) then  ; lean stages: can it complete?
      (bind ?i (member$ ?r ?s))                              ; R's rank in the new set
      (bind ?at (+ 1 0 0 (expand$ (subseq$ ?lens 1 ?i))))   ; where R's block goes in inc
      (assert (pb{n} (z ?z) {assert_s} (inc (insert$ ?inc ?at ?nr))
                     (lens (insert$ ?lens (+ ?i 1) (length$ ?nr)))))))
