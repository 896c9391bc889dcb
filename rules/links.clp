;;; Links between current candidates (SPEC §1.3, §7.1): two candidates are linked iff they are two
;;; labels of a common CSP variable.  Made once, when level 2 (the first chains) starts, in both
;;; directions; each link is logically supported by its two candidates' variable facts, so it vanishes
;;; with them.  A pair linked through two variables (same row, or column, and block) gets one fact,
;;; whose via lists both (rc < rn < cn < bn, the order of the variable ids).
;;;
;;; One firing per ordered pair (issue 13): current-links matches the pairs of an rc, rn or cn
;;; variable and adds the block variable when an rn / cn pair also shares its block;
;;; current-links-box matches the pairs of a bn variable that share neither row nor column (the
;;; others were made through their rn / cn variable).  Before, one rule fired once per shared
;;; variable (twice for a row-and-block pair) and computed via in a deffunction for each firing (11 %
;;; of level 2 in the profile).  Same link facts (checked on every ordered pair of linked labels and
;;; on the facts of 57 puzzles); measured: level 2 (hand-over to quiescence) 17.0 -> 15.2 ms per W3 / W4
;;; puzzle (12 puzzles, best of 5).

(defrule current-links
   (declare (salience ?*s-top*))
   (logical (active (level 2)) (cv (v ?v&:(< ?v 400)) (l ?a)) (cv (v ?v) (l ?b&~?a)))
   =>
   (if (< ?v 200)
    then (assert (link (a ?a) (b ?b) (via ?v)))
    else (if (= ?v (+ 200 (* 10 (mod (div ?a 10) 10)) (div ?a 100)))
          then (bind ?same-box (= (div (- (mod ?a 10) 1) 3) (div (- (mod ?b 10) 1) 3)))
          else (bind ?same-box (= (div (- (mod (div ?a 10) 10) 1) 3) (div (- (mod (div ?b 10) 10) 1) 3))))
         (if ?same-box
          then (bind ?r (mod (div ?a 10) 10)) (bind ?c (mod ?a 10))
               (assert (link (a ?a) (b ?b)
                             (via ?v (+ 400 (* 10 (+ (* 3 (div (- ?r 1) 3)) (div (- ?c 1) 3) 1)) (div ?a 100)))))
          else (assert (link (a ?a) (b ?b) (via ?v))))))

(defrule current-links-box
   (declare (salience ?*s-top*))
   (logical (active (level 2)) (cv (v ?v&:(>= ?v 400)) (l ?a))
            (cv (v ?v) (l ?b&~?a&:(<> (mod ?a 10) (mod ?b 10))&:(<> (div ?a 10) (div ?b 10)))))
   =>
   (assert (link (a ?a) (b ?b) (via ?v))))

;;; The neighbour table (nb facts, templates.clp) is asserted by the driver when level 2 starts: for
;;; each current candidate, the current candidates linked to it.  Partial whips and braids carry the
;;; concatenated neighbour lists of their target and rlcs (slot inc), so "x is linked to z or to an
;;; rlc" is one member$ test instead of a join with the link facts.
