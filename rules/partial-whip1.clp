;;; partial-whip[1] (SPEC §7.2), built at level 2 just below whip[2]: Z linked to L1, V1 a
;;; variable of L1 with another candidate R1 not linked to Z, every other candidate linked to Z
;;; (in Z's neighbour list).  The new fact's inc list: the neighbours of Z, then of R1.
;;; Only for a focused target (whip-focus.clp; focus level 2 for whips, 3 for whips and g-whips, 1 for
;;; a braid root): one whose trial propagation contradicts within the active level's number of rounds,
;;; and on which the driver's whip search finds a chain.  When the driver knows the solution it never focuses one of its
;;; labels: no whip can eliminate them (same eliminations, less work).
;;;
;;; Join order (issue 13): every pattern after the first multiplies the partial matches CLIPS keeps
;;; (and later retracts), so the cheap 1:1 joins come where there are fewest matches:
;;; * Z's neighbour list is joined once per target, before the links (it was joined once per
;;;   (Z, L1, V1) match);
;;; * no (active (level 2)) pattern: link and nb facts exist only from level 2 on, so it only
;;;   copied every (Z, L1, V1) match;
;;; * V1 is not a variable L1 shares with Z (via): such a V1 contains Z, which is neither L1 nor
;;;   linked to Z, so it can never pass; dropping it there saves 30 % of the (Z, L1, V1) matches.
;;; Measured (this 2-core machine, two engines reading the old and the new rule files solving the
;;; same puzzles alternately, best of 4 CPU, 10 cb-001 puzzles per level, two samples): partial
;;; matches of this rule at the level-3 switch of line 2140 21,913 -> 12,486; CPU W3 -6 to -8 %,
;;; W4 -4 to -5 %, W5 unchanged.  partial-g-whip1.clp starts with the same patterns, so gW shares
;;; these joins.

(defrule partial-whip-1
   (declare (salience ?*s-partial-whip-1*))
   (logical
      (focus (z ?z) (level 1|2|3) (pass 0))
      (cand (l ?z))
      (nb (l ?z) (ls $?nz))
      (link (a ?z) (b ?l1) (via $?w))
      (cv (v ?v1&:(not (member$ ?v1 ?w))) (l ?l1))
      (cv (v ?v1) (l ?r1&~?l1&~?z&:(not (member$ ?r1 ?nz)))))
   (not (cv (v ?v1) (l ?x&~?r1&~?l1&:(not (member$ ?x ?nz)))))
   (not (pw1 (z ?z) (r1 ?r1)))
   (nb (l ?r1) (ls $?n1))
   =>
   (assert (pw1 (z ?z) (v1 ?v1) (l1 ?l1) (r1 ?r1) (inc ?nz ?n1))))
