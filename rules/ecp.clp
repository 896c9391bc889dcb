;;; Elementary constraint propagation, contradiction detection (SPEC §2).

;;; Every candidate carries its four CSP variables.
(defrule candidate-variables
   (declare (salience ?*s-top*))
   (logical (cand (l ?l) (n ?n) (r ?r) (c ?c) (b ?b)))
   =>
   (assert (cv (v (+ 100 (* 10 ?r) ?c)) (l ?l))
           (cv (v (+ 200 (* 10 ?r) ?n)) (l ?l))
           (cv (v (+ 300 (* 10 ?c) ?n)) (l ?l))
           (cv (v (+ 400 (* 10 ?b) ?n)) (l ?l))))

;;; ECP: a CSP variable that has a value keeps no candidate (they are all linked to the value).
(defrule ecp
   (declare (salience ?*s-ecp*))
   (done (v ?v))
   (cv (v ?v) (l ?x))
   ?f <- (cand (l ?x))
   =>
   (retract ?f))

;;; CD: a CSP variable with neither a value nor a candidate.
(defrule contradiction
   (declare (salience ?*s-cd*))
   (csp-var (v ?v))
   (not (done (v ?v)))
   (not (cv (v ?v)))
   =>
   (sr-contradiction ?v)
   (halt))
