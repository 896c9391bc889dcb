;;; {name}: the targets with {chains} of length {k} or less in a state that a chain or Subset step
;;; made, focused once nothing that comes first is left to fire (whip-focus.clp says why).
;;; Template: the whip and g-whip families' entries (sudorules/resolution/families.py) fill the
;;; {{...}} fields for every length k >= 2 and the engine loads the rule when level k+1 starts (at
;;; level k itself the driver searches length k when the level is quiescent).  An engine that has
;;; loaded it for an earlier puzzle must not search at length k before level k+1: (active ...).
(defrule {name}
   (declare (salience {s_focus}))
   (active (level {level}))
   (whip-search)
   =>
   (foreach ?z (sr-whip-targets {k} {g}) (assert (focus (z ?z) (level {focus_level}) (pass {focus_pass})))))
