;;; Finned swordfish (SPEC §3.2), SudoRules' FinnedFish of size 3, at level 3 just below the Subsets.
;;;
;;; In rows: digit n in rows r1 and r2 only in columns c1, c2, c3 (r1 in c1 and c2, r2 in c2 and c3);
;;; in row r3 in column c1 and otherwise only in columns c1, c2 or the block B of (r3, c3), at least
;;; once in B.  Either r3 has n in B, or the three rows make a swordfish on c1, c2, c3: n goes from the
;;; cells of B in those columns outside the three rows.  Printed finned-swordfish-in-rows:
;;; n{r1 r2 r3}{c1 c2 c3}; blocked.  sr-block: finned-fish2.clp (level 2 comes first).

(defrule finned-swordfish-in-rows
   (declare (salience ?*s-finned-fish-3*))
   (active (level 3))
   (cand (n ?n) (r ?r1) (c ?c1))
   (cand (n ?n) (r ?r1) (c ?c2&~?c1))
   (cand (n ?n) (r ?r2&~?r1) (c ?c2))
   (cand (n ?n) (r ?r2) (c ?c3&~?c1&~?c2))
   (not (cand (n ?n) (r ?r1) (c ~?c1&~?c2&~?c3)))
   (not (cand (n ?n) (r ?r2) (c ~?c1&~?c2&~?c3)))
   (cand (n ?n) (r ?r3&~?r1&~?r2) (c ?c1))
   (exists (cand (n ?n) (r ?r3) (b ?bf&:(= ?bf (sr-block ?r3 ?c3)))))
   (not (cand (n ?n) (r ?r3) (c ~?c1&~?c2) (b ?bx&:(<> ?bx (sr-block ?r3 ?c3)))))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r3 ?c3))) (c ?c1|?c2|?c3) (r ~?r1&~?r2&~?r3))
   =>
   (sr-finned 3 7 ?n ?r1 ?r2 ?r3 ?c1 ?c2 ?c3 ?z)
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule finned-swordfish-in-rows) (pattern ?n ?r1 ?r2 ?r3 ?c1 ?c2 ?c3))))

(defrule finned-swordfish-in-rows-more
   (declare (salience ?*s-blocked*))
   (blocked (rule finned-swordfish-in-rows) (pattern ?n ?r1 ?r2 ?r3 ?c1 ?c2 ?c3))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r3 ?c3))) (c ?c1|?c2|?c3) (r ~?r1&~?r2&~?r3))
   =>
   (sr-more ?z)
   (retract ?f))

(defrule finned-swordfish-in-columns
   (declare (salience ?*s-finned-fish-3*))
   (active (level 3))
   (cand (n ?n) (c ?c1) (r ?r1))
   (cand (n ?n) (c ?c1) (r ?r2&~?r1))
   (cand (n ?n) (c ?c2&~?c1) (r ?r2))
   (cand (n ?n) (c ?c2) (r ?r3&~?r1&~?r2))
   (not (cand (n ?n) (c ?c1) (r ~?r1&~?r2&~?r3)))
   (not (cand (n ?n) (c ?c2) (r ~?r1&~?r2&~?r3)))
   (cand (n ?n) (c ?c3&~?c1&~?c2) (r ?r1))
   (exists (cand (n ?n) (c ?c3) (b ?bf&:(= ?bf (sr-block ?r3 ?c3)))))
   (not (cand (n ?n) (c ?c3) (r ~?r1&~?r2) (b ?bx&:(<> ?bx (sr-block ?r3 ?c3)))))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r3 ?c3))) (r ?r1|?r2|?r3) (c ~?c1&~?c2&~?c3))
   =>
   (sr-finned 3 8 ?n ?c1 ?c2 ?c3 ?r1 ?r2 ?r3 ?z)
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule finned-swordfish-in-columns) (pattern ?n ?c1 ?c2 ?c3 ?r1 ?r2 ?r3))))

(defrule finned-swordfish-in-columns-more
   (declare (salience ?*s-blocked*))
   (blocked (rule finned-swordfish-in-columns) (pattern ?n ?c1 ?c2 ?c3 ?r1 ?r2 ?r3))
   ?f <- (cand (l ?z) (n ?n) (b ?bz&:(= ?bz (sr-block ?r3 ?c3))) (r ?r1|?r2|?r3) (c ~?c1&~?c2&~?c3))
   =>
   (sr-more ?z)
   (retract ?f))
