;;; Subsets of size {p} (SPEC §3): naked, hidden and super-hidden (fish) in one generic form.
;;; Template: the subset family's entry (sudorules/resolution/families.py) fills the {{...}} fields
;;; for p = 2, 3, 4 and the three kinds (naked, hidden, fish); subset-more.clp completes each one.
;;;
;;; Every candidate appears in 8 "unit spaces" (sp facts): a unit u = 10*family + number, an
;;; index i (the CSP variable inside the unit) and a coordinate k (its value there):
;;;   family 1 naked in row r      (i = column, k = digit)    5 hidden in column c (i = digit, k = row)
;;;   family 2 naked in column c   (i = row,    k = digit)    6 hidden in block b  (i = digit, k = square)
;;;   family 3 naked in block b    (i = square, k = digit)    7 fish in rows, digit n    (i = row, k = column)
;;;   family 4 hidden in row r     (i = digit,  k = column)   8 fish in columns, digit n (i = column, k = row)
;;; A Subset of size p: p indices whose candidates all lie within p coordinates K (each index having
;;; at least two of them).  Targets: the candidates of the other indices of the unit with a
;;; coordinate in K.  This plain form accepts every cyclic and special Subset of SudoRules; the
;;; extra patterns it accepts contain a smaller Subset, done first by simplest-first (SPEC §3.2).

(defrule {family}-subsets-{p}
   (declare (salience {salience}))
   (active (level {p}))
   (subset-unit (u ?u) (family {family}))
   (comb{p} {coords})
   {coords_present}
   {variables}
   (sp (u ?u) (i ?t&{not_indices}) (k {any_coord}) (l ?z))
   ?f <- (cand (l ?z))
   =>
   (sr-subset {p} ?u ?z {indices} {coords})
   (retract ?f)
   (assert (dirty))
   (assert (blocked (rule subset-{p}) (pattern ?u {indices} {coords}))))
