;;; partial-g-whip[{n}] with a candidate as new rlc, extending a partial g-whip of length {m} (a
;;; pgw{m}, which already has a g-rlc); built at level {k} just below g-whip[{k}].  As partial-whip.clp,
;;; plus an unused variable (see g-whip.clp).  Deduplicated on (target, sequence of rlcs).
(defrule partial-g-whip-{n}
   (declare (salience {s_partial_gwhip}))
   (logical
      (pgw{m} (z ?z) {bind_m} (inc $?inc)){whip_focus}
      (link (a ?r{m}) (b ?l&{not_llcs_m}) (via $?w))
      (cv (v ?v&{not_vars_m}&:(not (member$ ?v ?w))) (l ?l))
      (active (level {k}))
      (cv (v ?v) (l ?r&~?l&{not_labels_m}&:(not (member$ ?r ?inc)))))
   (not (cv (v ?v) (l ?x&~?l&~?r&:(not (member$ ?x ?inc)))))
   (not (pgw{n} (z ?z) {rlc_key_m} (r{n} ?r)))
   (nb (l ?r) (ls $?nr))
   =>
   (assert (pgw{n} (z ?z) {bind_m} (v{n} ?v) (l{n} ?l) (r{n} ?r) (inc ?inc ?nr))))
