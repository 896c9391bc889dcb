;;; braid[{n}] (SPEC §4.4) and the partial braids of length {m} it extends.
;;; Template text: sudorules/rulegen.py fills the {{...}} fields for every length n >= 3 and
;;; every possible anchor {j} of the new left-linking candidate (the target z or one rlc s1..s{m}).
;;; A pb{m} fact holds the target z and its set of rlcs, sorted (s1 < s2 < ...): braids are
;;; deduplicated on the set of rlcs; the order of a braid is rebuilt when it is recorded.
;;; A (tv (a A) (v V)) fact (braid-touch.clp) says that V has a candidate linked to A and does not
;;; contain A: the variables a braid can reach from the anchor A.  Joining on it rather than on the
;;; link facts keeps one partial match per (partial braid, anchor, variable) instead of one per
;;; (partial braid, anchor, left-linking candidate, variable), and braid[n] and partial-braid[n]
;;; share that join (same first two patterns).

;;; braid[n]: a variable V reached from Z or an rlc whose every candidate is linked to Z or to some
;;; rlc (is in the inc list).  Then Z is eliminated.  V is alive (tv facts go when V is decided), so
;;; it has candidates, all linked to Z or an rlc: any of them is a left-linking candidate.
(defrule braid-{n}-{j}
   (declare (salience {s_braid}))
   (pb{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens))
   (tv (a ?{j}) (v ?v))
   (not (cv (v ?v) (l ?x&:(not (member$ ?x ?inc)))))
   ?f <- (cand (l ?z))
   =>
   (sr-braid {n} ?z ?v {list_s})
   (retract ?f))

;;; partial-braid[n], built at level n+1 just below braid[n+1], target by target: the driver
;;; asserts (focus (z Z) (level n+1)) for one target at a time once the level's other rules are
;;; quiet (whips first), so a puzzle that level n+1 solves early never builds the other targets'
;;; partial braids.  V keeps exactly one candidate R
;;; unlinked to Z and to the rlcs (not in the inc list).  The fact is keyed by the set of rlcs, and
;;; its inc list is the neighbour lists of Z and of the rlcs in sorted order (lens: their lengths,
;;; to insert R's list at its rank), so it depends on the set only and re-deriving it only adds
;;; logical support: it lives as long as one of its derivations does.
(defrule partial-braid-{n}-{j}
   (declare (salience {s_partial_braid}))
   (logical
      (pb{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens))
      (tv (a ?{j}) (v ?v))
      (focus (z ?z) (level {k}))
      (cv (v ?v) (l ?r&~?z&{not_s}&:(not (member$ ?r ?inc)))))
   (not (cv (v ?v) (l ?x&~?r&:(not (member$ ?x ?inc)))))
   (nb (l ?r) (ls $?nr))
   =>
   (bind ?s (sort > (create$ {list_s} ?r)))
   (bind ?i (member$ ?r ?s))                              ; R's rank in the new set
   (bind ?at (+ 1 0 0 (expand$ (subseq$ ?lens 1 ?i))))   ; where R's block goes in inc
   (assert (pb{n} (z ?z) {assert_s} (inc (insert$ ?inc ?at ?nr))
                  (lens (insert$ ?lens (+ ?i 1) (length$ ?nr))))))
