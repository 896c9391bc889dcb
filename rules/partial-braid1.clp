;;; partial-braid[1] = partial-whip[1] seen as a set of one rlc (built at level 3, where braids start).

(defrule partial-braid-1
   (declare (salience ?*s-partial-braid-1*))
   (logical (pw1 (z ?z) (r1 ?r1) (inc $?inc)) (active (level 3)))
   (nb (l ?z) (ls $?nz))
   =>
   (assert (pb1 (z ?z) (s1 ?r1) (inc ?inc) (lens (length$ ?nz) (- (length$ ?inc) (length$ ?nz))))))
