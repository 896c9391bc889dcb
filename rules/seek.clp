;;; {family}[{n}] (SPEC §4.3, §5.3): a chain of this family and length, found by the driver's compiled
;;; search (sudorules/engine/seek.py) at this rule's place in the simplest-first order.
;;; Template: the entries of the searched families (sudorules/resolution/families.py, Search) fill the
;;; {{...}} fields for every length n from 2 to the family's longest; the engine loads the rule when
;;; level n starts.
;;;
;;; It fires once per state: the (whip-search) fact is made afresh after every chain or Subset step
;;; (whip-focus.clp) and by the driver when a level starts, so each seek rule of an active level runs
;;; once in each state, in salience order, until one finds a chain.  The driver records the step and
;;; returns its targets, all eliminated here at once (a blocked chain, SPEC §7.4: before ECP and the
;;; Singles that follow), or none.
(defrule seek-{family}-{n}
   (declare (salience {salience}))
   (active (level {n}))
   (whip-search)
   =>
   (bind ?targets (sr-seek {family} {n}))
   (if (> (length$ ?targets) 0) then
      (foreach ?z ?targets (do-for-fact ((?f cand)) (eq ?f:l ?z) (retract ?f)))
      (assert (dirty))))
