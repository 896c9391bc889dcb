;;; Finned jellyfish (SPEC §3.2), SudoRules' FinnedFish of size 4, at level 4 just below the Subsets.
;;;
;;; In rows: digit n in rows r1, r2, r3 only in columns c1..c4 (r1 in c1 and c2, r2 in c2 and c3, r3
;;; in c3 and c4); in row r4 in column c1 and otherwise only in columns c1..c3 or the block B of
;;; (r4, c4), at least once in B; the targets: the cells of B in c1..c4 outside the four rows.  As in
;;; SudoRules, B must differ from the blocks of (r1, c4), (r2, c4), (r3, c4), (r4, c1), (r4, c2), where
;;; r1..r4 and c1..c4 are the rows and columns named so in both orientations (in columns, the base
;;; lines are columns c1..c4 and the cover lines rows r1..r4: those five blocks are not the
;;; transposed ones; S/SUBSETS/FSH4-finned-jellyfish.clp is written that way).

(defrule finned-jellyfish-in-rows
   (declare (salience ?*s-finned-fish-4*))
   (active (level 4))
   (cand (n ?n) (r ?r1) (c ?c1))
   (cand (n ?n) (r ?r1) (c ?c2&~?c1))
   (cand (n ?n) (r ?r2&~?r1) (c ?c2))
   (cand (n ?n) (r ?r2) (c ?c3&~?c1&~?c2))
   (cand (n ?n) (r ?r3&~?r1&~?r2) (c ?c3))
   (cand (n ?n) (r ?r3) (c ?c4&~?c1&~?c2&~?c3))
   (not (cand (n ?n) (r ?r1) (c ~?c1&~?c2&~?c3&~?c4)))
   (not (cand (n ?n) (r ?r2) (c ~?c1&~?c2&~?c3&~?c4)))
   (not (cand (n ?n) (r ?r3) (c ~?c1&~?c2&~?c3&~?c4)))
   (cand (n ?n) (r ?r4&~?r1&~?r2&~?r3) (c ?c1))
   (exists (cand (n ?n) (r ?r4) (b ?bf&:(= ?bf (sr-block ?r4 ?c4))&:(<> ?bf (sr-block ?r1 ?c4))&:(<> ?bf (sr-block ?r2 ?c4))&:(<> ?bf (sr-block ?r3 ?c4))&:(<> ?bf (sr-block ?r4 ?c1))&:(<> ?bf (sr-block ?r4 ?c2)))))
   (not (cand (n ?n) (r ?r4) (c ~?c1&~?c2&~?c3) (b ?bx&:(<> ?bx (sr-block ?r4 ?c4)))))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r4 ?c4))) (c ?c1|?c2|?c3|?c4) (r ~?r1&~?r2&~?r3&~?r4))
   =>
   (sr-finned 4 7 ?n ?r1 ?r2 ?r3 ?r4 ?c1 ?c2 ?c3 ?c4 ?z)
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule finned-jellyfish-in-rows) (pattern ?n ?r1 ?r2 ?r3 ?r4 ?c1 ?c2 ?c3 ?c4))))

(defrule finned-jellyfish-in-rows-more
   (declare (salience ?*s-blocked*))
   (blocked (rule finned-jellyfish-in-rows) (pattern ?n ?r1 ?r2 ?r3 ?r4 ?c1 ?c2 ?c3 ?c4))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r4 ?c4))) (c ?c1|?c2|?c3|?c4) (r ~?r1&~?r2&~?r3&~?r4))
   =>
   (sr-more ?z)
   (retract ?f))

(defrule finned-jellyfish-in-columns
   (declare (salience ?*s-finned-fish-4*))
   (active (level 4))
   (cand (n ?n) (c ?c1) (r ?r1))
   (cand (n ?n) (c ?c1) (r ?r2&~?r1))
   (cand (n ?n) (c ?c2&~?c1) (r ?r2))
   (cand (n ?n) (c ?c2) (r ?r3&~?r1&~?r2))
   (cand (n ?n) (c ?c3&~?c1&~?c2) (r ?r3))
   (cand (n ?n) (c ?c3) (r ?r4&~?r1&~?r2&~?r3))
   (not (cand (n ?n) (c ?c1) (r ~?r1&~?r2&~?r3&~?r4)))
   (not (cand (n ?n) (c ?c2) (r ~?r1&~?r2&~?r3&~?r4)))
   (not (cand (n ?n) (c ?c3) (r ~?r1&~?r2&~?r3&~?r4)))
   (cand (n ?n) (c ?c4&~?c1&~?c2&~?c3) (r ?r1))
   (exists (cand (n ?n) (c ?c4) (b ?bf&:(= ?bf (sr-block ?r4 ?c4))&:(<> ?bf (sr-block ?r1 ?c4))&:(<> ?bf (sr-block ?r2 ?c4))&:(<> ?bf (sr-block ?r3 ?c4))&:(<> ?bf (sr-block ?r4 ?c1))&:(<> ?bf (sr-block ?r4 ?c2)))))
   (not (cand (n ?n) (c ?c4) (r ~?r1&~?r2&~?r3) (b ?bx&:(<> ?bx (sr-block ?r4 ?c4)))))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r4 ?c4))) (r ?r1|?r2|?r3|?r4) (c ~?c1&~?c2&~?c3&~?c4))
   =>
   (sr-finned 4 8 ?n ?c1 ?c2 ?c3 ?c4 ?r1 ?r2 ?r3 ?r4 ?z)
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule finned-jellyfish-in-columns) (pattern ?n ?c1 ?c2 ?c3 ?c4 ?r1 ?r2 ?r3 ?r4))))

(defrule finned-jellyfish-in-columns-more
   (declare (salience ?*s-blocked*))
   (blocked (rule finned-jellyfish-in-columns) (pattern ?n ?c1 ?c2 ?c3 ?c4 ?r1 ?r2 ?r3 ?r4))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r4 ?c4))) (r ?r1|?r2|?r3|?r4) (c ~?c1&~?c2&~?c3&~?c4))
   =>
   (sr-more ?z)
   (retract ?f))
