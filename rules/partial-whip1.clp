;;; partial-whip[1] (SPEC §7.2), built at level 2 just below whip[2]: Z linked to L1, V1 a
;;; variable of L1 with another candidate R1 not linked to Z, every other candidate linked to Z
;;; (in Z's neighbour list).  The new fact's inc list: the neighbours of Z, then of R1.
;;; When the driver knows the solution it asserts (true-label ?l) for its labels: no whip can
;;; ever eliminate them, so no partial whip is built on them (same eliminations, less work).

(defrule partial-whip-1
   (declare (salience ?*s-partial-whip-1*))
   (logical
      (cand (l ?z))
      (not (true-label (l ?z)))
      (link (a ?z) (b ?l1))
      (cv (v ?v1) (l ?l1))
      (active (level 2))
      (nb (l ?z) (ls $?nz))
      (cv (v ?v1) (l ?r1&~?l1&~?z&:(not (member$ ?r1 ?nz)))))
   (not (cv (v ?v1) (l ?x&~?r1&~?l1&:(not (member$ ?x ?nz)))))
   (not (pw1 (z ?z) (r1 ?r1)))
   (nb (l ?r1) (ls $?n1))
   =>
   (assert (pw1 (z ?z) (v1 ?v1) (l1 ?l1) (r1 ?r1) (inc ?nz ?n1))))
