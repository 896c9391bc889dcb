;;; partial-g-whip[1] (SPEC §4.5, §7.2), built at level 2 just below g-whip[2]: Z linked to L1, V1 a
;;; variable of L1 with a g-candidate G (not containing L1 nor Z) holding at least two candidates
;;; compatible with Z, every candidate of V1 other than L1 and G's labels linked to Z.  A pgw fact
;;; is a partial whip with at least one g-rlc (a slot ri holding a g-label); its inc list is the
;;; neighbours of Z, then of each rlc (a g-rlc's: the candidates g-linked to it).
;;; A g-candidate with fewer than two compatible candidates gives nothing new: with one, the plain
;;; partial whip with that candidate as rlc extends wherever it does (linked to all of G implies
;;; linked to it); with none, a (g-)whip ends there and fires first.  The test is made when the fact
;;; is built, on G's three labels (g-free: a label no longer a candidate may be counted, which only
;;; lets through a dominated g-rlc), as partial-whip.clp tests its rlc.
;;; Only for a target focused for g-whips (level 3) or a braid root (level 1), not for one focused
;;; for whips only (level 2: the driver's search found a whip on it and no g-whip; whip-focus.clp).
;;; The first five patterns are those of partial-whip1.clp (same order, same tests), so CLIPS shares
;;; their joins; V1 not shared by L1 and Z is sound here too (such a V1 holds Z, which is not in G,
;;; not L1 and not linked to Z); gcand facts exist only from level 2 on, so no active pattern.

(defrule partial-g-whip-1
   (declare (salience ?*s-partial-g-whip-1*))
   (logical
      (focus (z ?z) (level 1|3) (pass 0))
      (cand (l ?z))
      (nb (l ?z) (ls $?nz))
      (link (a ?z) (b ?l1) (via $?w))
      (cv (v ?v1&:(not (member$ ?v1 ?w))) (l ?l1))
      (gcand (g ?g) (v ?v1)
             (ls $?gls&:(not (member$ ?l1 ?gls))&:(not (member$ ?z ?gls))&:(> (g-free ?gls ?nz) 1))))
   (not (cv (v ?v1) (l ?x&~?l1&:(not (member$ ?x ?gls))&:(not (member$ ?x ?nz)))))
   (not (pgw1 (z ?z) (r1 ?g)))
   (nb (l ?g) (ls $?ng))
   =>
   (assert (pgw1 (z ?z) (v1 ?v1) (l1 ?l1) (r1 ?g) (inc ?nz ?ng))))
