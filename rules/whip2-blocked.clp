;;; whip[2] is blockable (SPEC §7.4): once it fires, every other target of the same pattern
;;; V1{L1 R1} - V2{L2 .} is eliminated in the same step, before anything else.

(defrule whip-2-more
   (declare (salience ?*s-blocked*))
   (blocked (rule whip-2) (pattern ?v1 ?l1 ?r1 ?v2 ?l2))
   (link (a ?l1) (b ?z&~?r1&~?l2))
   ?f <- (cand (l ?z))
   (not (link (a ?z) (b ?r1)))
   (not (and (cv (v ?v1) (l ?x&~?r1)) (not (link (a ?x) (b ?z)))))
   (not (and (cv (v ?v2) (l ?x&~?l2)) (not (link (a ?x) (b ?z))) (not (link (a ?x) (b ?r1)))))
   =>
   (sr-more ?z)
   (retract ?f))
