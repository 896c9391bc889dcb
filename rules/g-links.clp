;;; g-candidates and g-links (SPEC §4.5), made when level 2 (the first chains) starts.
;;; The driver hands over, for every g-label with at least two current candidates, a glabel fact
;;; (its variable and three labels), its neighbour list (nb, keyed by the g-label's integer: the
;;; current candidates linked to all three labels) and one gl fact per g-linked candidate.
;;;
;;; gcand: the g-label is a g-candidate, supported by every pair of its current candidates, so it
;;; goes when fewer than two are left.  g-links are asserted as link facts from the g-label to the
;;; candidate, via the g-label's variable, so every chain rule that extends "a candidate linked to the
;;; last rlc" extends a g-rlc unchanged (g-whip.clp, partial-g-whip.clp).

(defrule g-candidate
   (declare (salience ?*s-top*))
   (logical
      (active (level 2))
      (glabel (g ?g) (v ?v) (ls $?gls))
      (cv (v ?v) (l ?a&:(member$ ?a ?gls)))
      (cv (v ?v) (l ?b&:(> ?b ?a)&:(member$ ?b ?gls))))
   =>
   (assert (gcand (g ?g) (v ?v) (ls ?gls))))

(defrule g-link
   (declare (salience ?*s-top*))
   (logical
      (gcand (g ?g) (v ?vg))
      (gl (g ?g) (l ?l))
      (cand (l ?l)))
   =>
   (assert (link (a ?g) (b ?l) (via ?vg))))

;;; How many of the labels of a g-label are not in an inc list (not linked to Z nor to an rlc).
(deffunction g-free (?gls ?inc)
   (bind ?k 0)
   (foreach ?x ?gls (if (not (member$ ?x ?inc)) then (bind ?k (+ ?k 1))))
   ?k)
