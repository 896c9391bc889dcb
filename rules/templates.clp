;;; Fact model of the resolution state (SPEC §1).
;;; Labels are integers 100n+10r+c.  CSP variables are integers too:
;;;   rc r?c? = 100+10r+c,  rn r?n? = 200+10r+n,  cn c?n? = 300+10c+n,  bn b?n? = 400+10b+n.

(deftemplate cand            ; a current candidate (label l = digit n in cell r c, block b)
   (slot l) (slot n) (slot r) (slot c) (slot b))

(deftemplate cv              ; candidate l is a value of CSP variable v (4 per candidate,
   (slot v) (slot l))        ; logically supported by the cand fact: they vanish with it)

(deftemplate done            ; CSP variable v has a value (it has no candidate any more)
   (slot v))

(deftemplate csp-var         ; static: one of the 324 CSP variables
   (slot v))

(deftemplate link            ; current candidates a and b are linked (both directions are stored;
   (slot a) (slot b)         ; made when chains start, logically supported by the two candidates)
   (multislot via))          ; the CSP variables they share

(deftemplate active          ; resolution level n has been switched on by the driver
   (slot level))

(deftemplate blocked         ; a blockable multi-target pattern being completed (SPEC §7.4)
   (slot rule) (multislot pattern))

(deftemplate nb              ; the candidates linked to candidate l when chains start (level 2);
   (slot l) (multislot ls))  ; a snapshot: candidates only disappear, so it stays a superset

(deftemplate tv              ; braids: variable v has a candidate linked to candidate a and does
   (slot a) (slot v))        ; not contain a (a snapshot when braids start; see braid-touch.clp)

(deftemplate focus           ; braids: the driver lets partial braids of target z grow to the
   (slot z) (slot level))    ; length needed at level n (see braid.clp, partial-braid.clp)

(deftemplate true-label      ; optional: a label of the known solution (never a whip target)
   (slot l))


