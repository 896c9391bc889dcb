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

(deftemplate focus           ; the driver lets partial chains of target z grow: pass 0, level 2:
   (slot z) (slot level)     ; partial (g-)whips (whip-focus.clp); pass 1 (braids), 2 (g-braids):
   (slot pass (default 1)))  ; to the length needed at level n (partial-braid.clp, schedule.py)

(deftemplate dirty)          ; a chain or Subset changed the state (whip-focus.clp)
(deftemplate whip-search)    ; the state whose shorter chains whip-focus-k look for (whip-focus.clp)




;;; g-chains (SPEC §4.5; see g-links.clp).  A g-label is the integer 10v+s (v its rn, cn or bn
;;; variable, s its segment: sudorules/engine/labels.py), from 2111 to 4996, so a chain's
;;; right-linking slot can hold a label or a g-label.

(deftemplate glabel          ; a g-label with >= 2 candidates when chains start (driver snapshot):
   (slot g) (slot v)         ; its variable v and its three labels
   (multislot ls))

(deftemplate gcand           ; g-label g is a g-candidate now (>= 2 of its labels are candidates);
   (slot g) (slot v)         ; logically supported by those candidates (g-links.clp)
   (multislot ls))

(deftemplate gl              ; candidate l is g-linked to g-label g (linked to its three labels):
   (slot g) (slot l))        ; a driver snapshot when chains start
