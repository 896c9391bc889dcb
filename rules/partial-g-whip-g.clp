;;; partial-g-whip[{n}] with a g-candidate as new rlc, extending a {src}{m} fact (a partial whip, or
;;; a partial g-whip); built at level {k} just below g-whip[{k}].  The new variable V (unused) has a
;;; g-candidate G (not containing L, Z or an rlc) with at least two candidates compatible with Z and
;;; the rlcs (see partial-g-whip1.clp), and every candidate of V other than L and G's labels is
;;; linked to Z or an rlc (in inc).  Deduplicated on (target, sequence of rlcs).
;;; "At least two compatible candidates" is counted on G's three labels (g-free, g-links.clp), a test
;;; without a join: a label no longer a candidate may be counted, which only lets through a g-rlc
;;; that a plain rlc (or a whip found first) dominates.  The first three patterns are those of
;;; whip.clp (from pw) or g-whip.clp (from pgw), so CLIPS shares their joins; from a pw fact the
;;; unused-variable test is implied (a used variable holds a compatible rlc, which is not in G).
(defrule partial-g-whip-{n}-g-{src}
   (declare (salience {s_partial_gwhip}))
   (logical
      ({src}{m} (z ?z) {bind_m} (inc $?inc)){whip_focus}
      (link (a ?r{m}) (b ?l&{not_llcs_m}) (via $?w))
      (cv (v {v_constraint}) (l ?l))
      (active (level {k}))
      (gcand (g ?g) (v ?v)
             (ls $?gls&:(not (member$ ?l ?gls)){not_in_g_m}&:(> (g-free ?gls ?inc) 1))))
   (not (cv (v ?v) (l ?x&~?l&:(not (member$ ?x ?gls))&:(not (member$ ?x ?inc)))))
   (not (pgw{n} (z ?z) {rlc_key_m} (r{n} ?g)))
   (nb (l ?g) (ls $?ng))
   =>
   (assert (pgw{n} (z ?z) {bind_m} (v{n} ?v) (l{n} ?l) (r{n} ?g) (inc ?inc ?ng))))
