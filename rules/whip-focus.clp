;;; Which targets get partial whips (and partial g-whips): the trial filter and the whip search
;;; (issue 13), by increasing length in the salience order (issue 12).
;;;
;;; partial-whip[1] and partial-g-whip[1] start only from a target with a (focus (z Z) (level L)
;;; (pass 0)) fact (L = 2: partial whips only; 3: partial whips and g-whips; 1: a braid root, length
;;; 1 only), and every longer partial chain extends one of them.  The
;;; driver focuses a target only when a chain of the lengths in play exists on it: its trial
;;; propagation must contradict within that many rounds (sudorules/engine/trial.py; a whip[k] or
;;; g-whip[k] on Z is such a propagation), then a compiled search over its partial chains must find
;;; one (generator/trial.c, State.whip).  A focused target stays focused.
;;;
;;; * When level n starts (n >= 2), and whenever it is quiescent, the targets with a chain of length
;;;   n or less are focused (and the level goes on if there were any).
;;; * Candidates going can bring a chain where there was none, so every chain or Subset step asserts
;;;   (dirty), and this rule, below the Singles / whip[1] cascade that follows the step and above
;;;   every rule of level 2 and more, turns it into a fresh (whip-search) fact.  Then, for each length
;;;   k = 2 .. n-1, the rule whip-focus-{k} (whip-search.clp, loaded at level k+1) fires just above
;;;   whip[k] in the salience order: once nothing shorter than k is left to fire, it focuses the
;;;   targets that now have a chain of length k or less.  A step retracts the fact, and with it the
;;;   searches of longer lengths that have not fired yet: a search at length k runs only in a state
;;;   where no chain shorter than k fires, so a step's searches stop at the length of the next chain.
;;; So when any chain of length k >= 2 fires, every target that has a shorter one is focused and has
;;; its partial chains: the order of SPEC §5.3 is kept exactly (a test replays paths and checks that
;;; no shorter chain was available at each step); chains of the level's own length, which may fire
;;; in any order among themselves, are searched for once the level is quiescent, which spares a
;;; search after every step.
;;;
;;; Measured (docs/engine.md): at level 4 of W4 puzzles 40-70 targets pass the trial filter and 2-8
;;; carry a whip[4].  Searching every length below the level after each step, rather than by length
;;; here, cost line 12301 of cb-001 (gB10) most of its time: after its one whip[10], 50 steps of
;;; lengths 1-8 each searched ~30 targets at length 9 (0.2-0.3 s a step).

(defrule whip-focus
   (declare (salience ?*s-whip-focus*))
   ?d <- (dirty)
   =>
   (retract ?d)
   (do-for-all-facts ((?f whip-search)) TRUE (retract ?f))
   (assert (whip-search)))
