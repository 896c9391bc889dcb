;;; Links between current candidates (SPEC §1.3, §7.1): two candidates are linked iff they are two
;;; labels of a common CSP variable.  Made once, when level 2 (the first chains) starts, in both
;;; directions; each link is logically supported by its two candidates' variable facts, so it vanishes
;;; with them.  A pair linked through two variables (same row and block) gets one fact.

(deffunction shared-variables (?a ?b)
   (bind ?na (div ?a 100)) (bind ?ra (mod (div ?a 10) 10)) (bind ?ca (mod ?a 10))
   (bind ?nb (div ?b 100)) (bind ?rb (mod (div ?b 10) 10)) (bind ?cb (mod ?b 10))
   (bind ?out (create$))
   (if (and (= ?ra ?rb) (= ?ca ?cb)) then (bind ?out (create$ (+ 100 (* 10 ?ra) ?ca))))
   (if (= ?na ?nb) then
      (if (= ?ra ?rb) then (bind ?out (create$ ?out (+ 200 (* 10 ?ra) ?na))))
      (if (= ?ca ?cb) then (bind ?out (create$ ?out (+ 300 (* 10 ?ca) ?na))))
      (bind ?ba (+ (* 3 (div (- ?ra 1) 3)) (div (- ?ca 1) 3) 1))
      (bind ?bb (+ (* 3 (div (- ?rb 1) 3)) (div (- ?cb 1) 3) 1))
      (if (= ?ba ?bb) then (bind ?out (create$ ?out (+ 400 (* 10 ?ba) ?na)))))
   ?out)

(defrule current-links
   (declare (salience ?*s-top*))
   (logical (active (level 2)) (cv (v ?v) (l ?a)) (cv (v ?v) (l ?b&~?a)))
   =>
   (assert (link (a ?a) (b ?b) (via (shared-variables ?a ?b)))))

;;; The neighbour table (nb facts, templates.clp) is asserted by the driver when level 2 starts: for
;;; each current candidate, the current candidates linked to it.  Partial whips and braids carry the
;;; concatenated neighbour lists of their target and rlcs (slot inc), so "x is linked to z or to an
;;; rlc" is one member$ test instead of a join with the link facts.
