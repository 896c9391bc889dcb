;;; partial-g-braid[1] = partial-g-whip[1] seen as a set of one g-rlc (built at level 3, where
;;; braids and g-braids start: gB2 = gW2, SPEC §5.1); gv: the g-rlc's variable.

(defrule partial-g-braid-1
   (declare (salience ?*s-partial-g-braid-1*))
   (logical (pgw1 (z ?z) (v1 ?v1) (r1 ?r1) (inc $?inc)) (active (level 3)))
   (nb (l ?z) (ls $?nz))
   =>
   (assert (pgb1 (z ?z) (s1 ?r1) (inc ?inc) (lens (length$ ?nz) (- (length$ ?inc) (length$ ?nz)))
                 (gv ?v1))))
