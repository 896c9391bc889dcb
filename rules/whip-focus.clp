;;; Which targets get partial whips (and partial g-whips): the trial filter (issue 13).
;;;
;;; A whip[k] or g-whip[k] on Z is a trial propagation from Z that contradicts within k rounds
;;; (sudorules/engine/trial.py), so at level n a target whose propagation does not contradict
;;; within n rounds can carry no chain of any active length, and its partial chains would never be
;;; used at this level.  partial-whip[1] and partial-g-whip[1] therefore start only from a target
;;; with a (focus (z Z) (level 2) (pass 0)) fact, and every longer partial chain extends one of
;;; them.  The driver focuses the targets whose propagation contradicts within n rounds when level
;;; n starts (n >= 2); a focused target stays focused.
;;;
;;; Candidates going can bring a target's contradiction sooner, so every chain or Subset step
;;; asserts (dirty), and this rule, below the Singles / whip[1] cascade that follows the step and
;;; above every rule of level 2 and more, asks the driver for the targets that may now carry a chain
;;; of the level's length or less and focuses them.  So when any chain of length >= 2 fires, every
;;; target that may carry one is focused and has its partial chains: the order of SPEC §5.3 is kept
;;; exactly (a test replays paths and checks that no shorter chain was available at each step).
;;;
;;; Measured (docs/engine.md): at level 5 of cb-001 line 299 (W6) 22 of 102 targets are focused, at
;;; level 2 of line 40 (W6) 2 of 114.

(defrule whip-focus
   (declare (salience ?*s-whip-focus*))
   ?d <- (dirty)
   =>
   (retract ?d)
   (foreach ?z (sr-whip-targets) (assert (focus (z ?z) (level 2) (pass 0)))))
