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

;;; ?*cand-facts*: at position L, the cand fact of label L (111..999; FALSE where there was none
;;; when chains started), made by sr-cand-index when the driver hands the g-labels over (level 2).
;;; A retracted fact stays addressable (fact-existp says FALSE) until the next puzzle's index.
(deffunction sr-falses (?n)
   (bind ?out (create$))
   (loop-for-count ?n (bind ?out (create$ ?out FALSE)))
   ?out)

(defglobal ?*no-cand-facts* = (sr-falses 999))
(defglobal ?*cand-facts* = (create$))

(deffunction sr-cand-index ()
   (bind ?m ?*no-cand-facts*)
   (do-for-all-facts ((?f cand)) TRUE (bind ?m (replace$ ?m ?f:l ?f:l ?f)))
   (bind ?*cand-facts* ?m)
   TRUE)

;;; How many of the labels of a g-label are current candidates not in an inc list (not linked to Z
;;; nor to an rlc): with fewer than two, the g-rlc gives nothing new (partial-g-whip1.clp).  Whether
;;; a label is still a candidate is read from ?*cand-facts* (below) in constant time.  Counting the
;;; labels that are no longer candidates too let dominated g-rlcs through: on cb-001 line 5387 (gB
;;; 5), 17,062 partial g-braids of length 3 and 4,192 partial g-whips of length 3 at the end of
;;; level 4, against 12,756 and 3,098 when only current candidates are counted.
(deffunction g-free (?gls ?inc)
   (bind ?k 0)
   (foreach ?x ?gls
      (if (not (member$ ?x ?inc)) then
         (bind ?f (nth$ ?x ?*cand-facts*))
         (if (and (fact-addressp ?f) (fact-existp ?f)) then (bind ?k (+ ?k 1)))))
   ?k)
