;;; The variables a braid can reach from a candidate (braid.clp): (tv (a A) (v V)) when V has a
;;; candidate linked to A and does not contain A.  Asserted by the driver with the neighbour lists
;;; when chains start (a snapshot, so a superset of the current reach), and retracted as soon as V
;;; is decided: braid[n] reads "every candidate of V is linked to Z or an rlc" on live variables only.

(defrule touch-decided
   (declare (salience ?*s-top*))
   (done (v ?v))
   ?f <- (tv (v ?v))
   =>
   (retract ?f))
