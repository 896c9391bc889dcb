;;; Singles (SPEC §2): a CSP variable with exactly one candidate gets it as its value.
;;; rc variables give naked singles; rn, cn, bn variables give hidden singles (in a row, column, block).

(deffunction assert-value (?f ?l ?n ?r ?c ?b)
   (retract ?f)
   (assert (done (v (+ 100 (* 10 ?r) ?c)))
           (done (v (+ 200 (* 10 ?r) ?n)))
           (done (v (+ 300 (* 10 ?c) ?n)))
           (done (v (+ 400 (* 10 ?b) ?n)))))

(defrule naked-single
   (declare (salience ?*s-naked-single*))
   (cv (v ?v&:(< ?v 200)) (l ?l))
   (not (cv (v ?v) (l ~?l)))
   ?f <- (cand (l ?l) (n ?n) (r ?r) (c ?c) (b ?b))
   =>
   (sr-single ?v ?l)
   (assert-value ?f ?l ?n ?r ?c ?b))

(defrule hidden-single
   (declare (salience ?*s-hidden-single*))
   (cv (v ?v&:(>= ?v 200)) (l ?l))
   (not (cv (v ?v) (l ~?l)))
   ?f <- (cand (l ?l) (n ?n) (r ?r) (c ?c) (b ?b))
   =>
   (sr-single ?v ?l)
   (assert-value ?f ?l ?n ?r ?c ?b))
