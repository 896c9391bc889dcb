;;; g-braids (g-braid.clp): the variables of the g-rlcs of a set of rlcs (the gv slot of a pgb
;;; fact).  A g-label is the integer 10v + s (sudorules/engine/labels.py): its variable is v.

(deffunction g-braid-vars ($?s)
   (bind ?out (create$))
   (foreach ?x ?s (if (> ?x 1000) then (bind ?out (create$ ?out (div ?x 10)))))
   ?out)
