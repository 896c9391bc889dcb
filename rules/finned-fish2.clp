;;; Finned x-wings (SPEC §3.2), SudoRules' FinnedFish of size 2, at level 2 just below the Subsets
;;; (the finned family's entry, sudorules/resolution/families.py, loads this file when level 2 starts).
;;;
;;; In rows (columns: the same with rows and columns exchanged): digit n in row r1 exactly in columns
;;; c1 and c2 of different blocks; in row r2 in column c1 and otherwise only in the block B of (r2, c2),
;;; at least once there (the fin).  If n is in r1c2, n is in column c2; if in r1c1, row r2 has it in B:
;;; either way it goes from the cells of column c2 in B outside rows r1, r2.  Printed
;;; finned-x-wing-in-rows: n{r1 r2}{c1 c2} (the fin's line and cover line last); blocked, as the
;;; Subsets (SPEC §7.4).  These are the conditions of SudoRules' rules (S/SUBSETS/FSH2-4), written
;;; again on our cand facts: the same patterns, so the same eliminations in the same order of levels.

;;; The block of row ?r, column ?c.
(deffunction sr-block (?r ?c) (+ (* 3 (div (- ?r 1) 3)) (div (- ?c 1) 3) 1))

(defrule finned-x-wing-in-rows
   (declare (salience ?*s-finned-fish-2*))
   (active (level 2))
   (cand (n ?n) (r ?r1) (c ?c1) (b ?b11))
   (cand (n ?n) (r ?r1) (c ?c2&~?c1) (b ?b12&~?b11))
   (not (cand (n ?n) (r ?r1) (c ~?c1&~?c2)))
   (cand (n ?n) (c ?c1) (r ?r2&~?r1))
   (exists (cand (n ?n) (r ?r2) (b ?bf&:(= ?bf (sr-block ?r2 ?c2)))))
   (not (cand (n ?n) (r ?r2) (c ~?c1) (b ?bx&:(<> ?bx (sr-block ?r2 ?c2)))))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r2 ?c2))) (c ?c2) (r ~?r1&~?r2))
   =>
   (sr-finned 2 7 ?n ?r1 ?r2 ?c1 ?c2 ?z)
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule finned-x-wing-in-rows) (pattern ?n ?r1 ?r2 ?c1 ?c2))))

(defrule finned-x-wing-in-rows-more
   (declare (salience ?*s-blocked*))
   (blocked (rule finned-x-wing-in-rows) (pattern ?n ?r1 ?r2 ?c1 ?c2))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r2 ?c2))) (c ?c2) (r ~?r1&~?r2))
   =>
   (sr-more ?z)
   (retract ?f))

(defrule finned-x-wing-in-columns
   (declare (salience ?*s-finned-fish-2*))
   (active (level 2))
   (cand (n ?n) (c ?c1) (r ?r1) (b ?b11))
   (cand (n ?n) (c ?c1) (r ?r2&~?r1) (b ?b12&~?b11))
   (not (cand (n ?n) (c ?c1) (r ~?r1&~?r2)))
   (cand (n ?n) (r ?r1) (c ?c2&~?c1))
   (exists (cand (n ?n) (c ?c2) (b ?bf&:(= ?bf (sr-block ?r2 ?c2)))))
   (not (cand (n ?n) (c ?c2) (r ~?r1) (b ?bx&:(<> ?bx (sr-block ?r2 ?c2)))))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r2 ?c2))) (r ?r2) (c ~?c1&~?c2))
   =>
   (sr-finned 2 8 ?n ?c1 ?c2 ?r1 ?r2 ?z)
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule finned-x-wing-in-columns) (pattern ?n ?c1 ?c2 ?r1 ?r2))))

(defrule finned-x-wing-in-columns-more
   (declare (salience ?*s-blocked*))
   (blocked (rule finned-x-wing-in-columns) (pattern ?n ?c1 ?c2 ?r1 ?r2))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r2 ?c2))) (r ?r2) (c ~?c1&~?c2))
   =>
   (sr-more ?z)
   (retract ?f))
