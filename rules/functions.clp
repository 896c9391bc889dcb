;;; Functions the Python driver (sudorules/engine/driver.py) calls: load a puzzle, switch a level
;;; on, hand over precomputed neighbour and reach lists, focus braid targets, read the candidates,
;;; clean up between puzzles.  Loaded after templates.clp, whose templates they assert.
;;;
;;; Functions called from Python return TRUE, never a fact: a fact handed back to clipspy stays in
;;; CLIPS's garbage after it is retracted, and every later puzzle gets slower (measured: W2 puzzles
;;; 19 -> 29 ms per puzzle over 300 puzzles, and memory growing).

;;; A puzzle: its candidates, the CSP variables its givens decide, and the 324 CSP variables (ids
;;; 100*type + 10*first + second).
(deffunction sr-init (?cands ?done)
   (foreach ?v ?done (assert (done (v ?v))))
   (foreach ?l ?cands
      (bind ?n (div ?l 100)) (bind ?r (mod (div ?l 10) 10)) (bind ?c (mod ?l 10))
      (assert (cand (l ?l) (n ?n) (r ?r) (c ?c)
                    (b (+ (* 3 (div (- ?r 1) 3)) (div (- ?c 1) 3) 1)))))
   (loop-for-count (?t 1 4)
      (loop-for-count (?a 1 9)
         (loop-for-count (?b 1 9)
            (assert (csp-var (v (+ (* 100 ?t) (* 10 ?a) ?b)))))))
   TRUE)

(deffunction sr-activate (?level) (assert (active (level ?level))) TRUE)

(deffunction sr-neighbours (?l $?ls) (assert (nb (l ?l) (ls ?ls))) TRUE)

(deffunction sr-focus (?pass ?level $?zs)
   (foreach ?z ?zs (assert (focus (z ?z) (level ?level) (pass ?pass))))
   TRUE)

(deffunction sr-focus-range (?z ?from ?to $?passes)
   (loop-for-count (?level ?from ?to)
      (foreach ?pass ?passes (assert (focus (z ?z) (level ?level) (pass ?pass)))))
   TRUE)

(deffunction sr-unfocus (?z ?from ?pass)
   (do-for-all-facts ((?f focus)) (and (eq ?f:z ?z) (>= ?f:level ?from) (eq ?f:pass ?pass)) (retract ?f))
   TRUE)

;;; The target a lean stage of the braid schedule tries (0: none).  The partial (g-)braid rules ask
;;; the driver (sr-viable) before they build one of its partial chains (partial-braid.clp).
(defglobal ?*lean-z* = 0)

(deffunction sr-lean (?z) (bind ?*lean-z* ?z) TRUE)

;;; A braid or g-braid the driver's compiled search found on target ?z in a lean stage (driver.py,
;;; Engine._lean_braid), already recorded: its conclusion, as braid.clp's rules draw it.
(deffunction sr-eliminate (?z)
   (do-for-fact ((?f cand)) (eq ?f:l ?z) (retract ?f))
   (assert (dirty))
   TRUE)

;;; Lean whips (driver.py, Engine._lean_whip): a whip[2] the driver found is blockable as whip-2's are
;;; (whip2-blocked.clp), and when lean whips start no target keeps partial whips (they depend
;;; logically on these focus facts; a braid root's, level 1, stay).
(deffunction sr-block-whip2 (?v1 ?l1 ?r1 ?v2 ?l2)
   (assert (blocked (rule whip-2) (pattern ?v1 ?l1 ?r1 ?v2 ?l2)))
   TRUE)

(deffunction sr-unfocus-whips ()
   (do-for-all-facts ((?f focus)) (and (eq ?f:pass 0) (>= ?f:level 2)) (retract ?f))
   TRUE)

(deffunction sr-touches (?a $?vs) (foreach ?v ?vs (assert (tv (a ?a) (v ?v)))) TRUE)

;;; The labels of the current candidates, as a multifield: iterating clipspy Fact objects instead
;;; keeps retracted facts alive in CLIPS and makes every later puzzle slower.
(deffunction sr-labels ()
   (bind ?out (create$))
   (do-for-all-facts ((?f cand)) TRUE (bind ?out (create$ ?out ?f:l)))
   ?out)

(deffunction sr-clean ()
   (bind ?*lean-z* 0)
   (do-for-all-facts ((?f csp-var)) TRUE (retract ?f))
   (do-for-all-facts ((?f cand)) TRUE (retract ?f))
   (do-for-all-facts ((?f done)) TRUE (retract ?f))
   (do-for-all-facts ((?f active)) TRUE (retract ?f))
   (do-for-all-facts ((?f blocked)) TRUE (retract ?f))
   (do-for-all-facts ((?f nb)) TRUE (retract ?f))
   (do-for-all-facts ((?f tv)) TRUE (retract ?f))
   (do-for-all-facts ((?f focus)) TRUE (retract ?f))
   (do-for-all-facts ((?f dirty)) TRUE (retract ?f))
   (do-for-all-facts ((?f whip-search)) TRUE (retract ?f))
   (do-for-all-facts ((?f glabel)) TRUE (retract ?f))
   (do-for-all-facts ((?f gl)) TRUE (retract ?f)))

;;; g-chains: one g-label with >= 2 current candidates when chains start (level 2): its variable,
;;; its three labels and the current candidates g-linked to it (its neighbour list, as for a label).
(deffunction sr-glabel (?g ?v ?a ?b ?c $?ls)
   (assert (glabel (g ?g) (v ?v) (ls ?a ?b ?c)))
   (assert (nb (l ?g) (ls ?ls)))
   (foreach ?l ?ls (assert (gl (g ?g) (l ?l))))
   TRUE)
