;;; Blocked completion of a Subset of size {p} (subset.clp, SPEC §7.4): the other targets of the
;;; same pattern, before anything else.  Template filled with the same fields as subset.clp.

(defrule {family}-subsets-{p}-more
   (declare (salience ?*s-blocked*))
   (blocked (rule subset-{p}) (pattern ?u {indices} {coords}))
   (subset-unit (u ?u) (family {family}))
   (sp (u ?u) (i ?t&{not_indices}) (k {any_coord}) (l ?z))
   ?f <- (cand (l ?z))
   =>
   (sr-more ?z)
   (retract ?f))
