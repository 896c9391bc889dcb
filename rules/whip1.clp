;;; whip[1] (SPEC §4.2): V1{L1 .} where every candidate of V1 is linked to the target Z.
;;; In Sudoku these are the intersections: an rn (cn) variable confined to one block eliminates
;;; its digit from the rest of the block; a bn variable confined to one row (column) eliminates
;;; its digit from the rest of the line.  Blocked: all targets of one V1 on one step (SPEC §7.4).

(defrule whip1-rn
   (declare (salience ?*s-whip1*))
   (active (level 1))
   (cand (l ?l1) (n ?n) (r ?r) (b ?b))
   (not (cand (n ?n) (r ?r) (b ~?b)))
   ?f <- (cand (l ?z) (n ?n) (r ~?r) (b ?b))
   =>
   (sr-chain whip 1 ?z (create$ (+ 200 (* 10 ?r) ?n) ?l1 0))
   (retract ?f)
   (assert (blocked (rule whip1-rn) (pattern ?n ?r ?b))))

(defrule whip1-cn
   (declare (salience ?*s-whip1*))
   (active (level 1))
   (cand (l ?l1) (n ?n) (c ?c) (b ?b))
   (not (cand (n ?n) (c ?c) (b ~?b)))
   ?f <- (cand (l ?z) (n ?n) (c ~?c) (b ?b))
   =>
   (sr-chain whip 1 ?z (create$ (+ 300 (* 10 ?c) ?n) ?l1 0))
   (retract ?f)
   (assert (blocked (rule whip1-cn) (pattern ?n ?c ?b))))

(defrule whip1-bn-row
   (declare (salience ?*s-whip1*))
   (active (level 1))
   (cand (l ?l1) (n ?n) (r ?r) (b ?b))
   (not (cand (n ?n) (b ?b) (r ~?r)))
   ?f <- (cand (l ?z) (n ?n) (r ?r) (b ~?b))
   =>
   (sr-chain whip 1 ?z (create$ (+ 400 (* 10 ?b) ?n) ?l1 0))
   (retract ?f)
   (assert (blocked (rule whip1-bn-row) (pattern ?n ?r ?b))))

(defrule whip1-bn-column
   (declare (salience ?*s-whip1*))
   (active (level 1))
   (cand (l ?l1) (n ?n) (c ?c) (b ?b))
   (not (cand (n ?n) (b ?b) (c ~?c)))
   ?f <- (cand (l ?z) (n ?n) (c ?c) (b ~?b))
   =>
   (sr-chain whip 1 ?z (create$ (+ 400 (* 10 ?b) ?n) ?l1 0))
   (retract ?f)
   (assert (blocked (rule whip1-bn-column) (pattern ?n ?c ?b))))

;;; Blocked completion: the other targets of the same V1, before anything else.
(defrule whip1-rn-more
   (declare (salience ?*s-blocked*))
   (blocked (rule whip1-rn) (pattern ?n ?r ?b))
   ?f <- (cand (l ?z) (n ?n) (r ~?r) (b ?b))
   =>
   (sr-more ?z)
   (retract ?f))

(defrule whip1-cn-more
   (declare (salience ?*s-blocked*))
   (blocked (rule whip1-cn) (pattern ?n ?c ?b))
   ?f <- (cand (l ?z) (n ?n) (c ~?c) (b ?b))
   =>
   (sr-more ?z)
   (retract ?f))

(defrule whip1-bn-row-more
   (declare (salience ?*s-blocked*))
   (blocked (rule whip1-bn-row) (pattern ?n ?r ?b))
   ?f <- (cand (l ?z) (n ?n) (r ?r) (b ~?b))
   =>
   (sr-more ?z)
   (retract ?f))

(defrule whip1-bn-column-more
   (declare (salience ?*s-blocked*))
   (blocked (rule whip1-bn-column) (pattern ?n ?c ?b))
   ?f <- (cand (l ?z) (n ?n) (c ?c) (b ~?b))
   =>
   (sr-more ?z)
   (retract ?f))

;;; End of a blocked application (just below the completion rules).
(defrule end-blocked
   (declare (salience ?*s-blocked-end*))
   ?f <- (blocked)
   =>
   (retract ?f))
