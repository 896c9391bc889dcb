;;; The searched families (rules/seek.clp) when a level starts: the (whip-search) fact their rules wait
;;; for, if no step made one yet (asserting it again would change nothing).  Loaded with the base
;;; program of a theory with searched families.
(deffunction sr-seek-state () (assert (whip-search)) TRUE)
