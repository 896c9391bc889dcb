;;; Links between current candidates (SPEC §1.3, §7.1): two candidates are linked iff they are two
;;; labels of a common CSP variable.  Made once, when level 2 (the first chains) starts, in both
;;; directions; each link is logically supported by its two candidates' variable facts, so it vanishes
;;; with them.  A pair linked through two variables (same row and block) gets one fact.

(defrule current-links
   (declare (salience ?*s-top*))
   (logical (active (level 2)) (cv (v ?v) (l ?a)) (cv (v ?v) (l ?b&~?a)))
   =>
   (assert (link (a ?a) (b ?b))))
