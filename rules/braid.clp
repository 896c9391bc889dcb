;;; braid[{n}] (SPEC §4.4) and the partial braids of length {m} it extends.
;;; Template: the braid family's entry (sudorules/resolution/families.py) fills the {{...}} fields
;;; for every length n >= 3 and every possible anchor {j} of the new left-linking candidate (the
;;; target z or one rlc s1..s{m}): one rule per anchor.
;;; A pb{m} fact holds the target z and its set of rlcs, sorted (s1 < s2 < ...): braids are
;;; deduplicated on the set of rlcs; the order of a braid is rebuilt when it is recorded.
;;; A (tv (a A) (v V)) fact (braid-touch.clp) says that V has a candidate linked to A and does not
;;; contain A: the variables a braid can reach from the anchor A.  Joining on it rather than on the
;;; link facts keeps one partial match per (partial braid, anchor, variable) instead of one per
;;; (partial braid, anchor, left-linking candidate, variable), and braid[n] and partial-braid[n]
;;; share that join (same first two patterns).

;;; braid[n]: a variable V reached from Z or an rlc whose every candidate is linked to Z or to some
;;; rlc (is in the inc list).  Then Z is eliminated.  V is alive (tv facts go when V is decided), so
;;; it has candidates, all linked to Z or an rlc: any of them is a left-linking candidate.
(defrule braid-{n}-{j}
   (declare (salience {s_braid}))
   (pb{m} (z ?z) {bind_s} (inc $?inc) (lens $?lens))
   (tv (a ?{j}) (v ?v))
   (not (cv (v ?v) (l ?x&:(not (member$ ?x ?inc)))))
   ?f <- (cand (l ?z))
   =>
   (sr-braid {n} ?z ?v {list_s})
   (retract ?f)
   (assert (dirty)))
