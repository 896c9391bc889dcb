"""Trial propagation: how fast assuming a candidate leads to a contradiction.

Assume a target Z true, remove every candidate linked to it, then propagate by rounds: in each round
every CSP variable left with exactly one candidate compatible with everything assumed so far forces
it (all of that round's forced candidates together).  The **contradiction depth** of Z is the round
in which some CSP variable (other than Z's own) is left with no compatible candidate, or None if the
propagation stops first.

A braid[n] on Z (SPEC §4.4) is such a propagation: its rlcs are forced one by one and its last
variable is emptied, so the depth of Z is at most n.  (By induction on k: the rlc R_k is the only
candidate of V_k compatible with Z and R_1..R_(k-1), which are assumed by round k - 1, so V_k is forced
by round k; V_n is emptied once R_(n-1) is processed, by round n.  More assumptions only remove more
candidates, so the round can only come sooner.)

With ``g`` (g-braids, SPEC §4.5), a variable whose compatible candidates, two or more, all lie in one
of its g-labels assumes that g-label: every candidate g-linked to it is removed in the next round.
A g-braid[n] on Z is such a propagation (a g-rlc G_k holds every compatible candidate of V_k), so its
g-depth is at most n.

The schedule of the B and gB theories (:mod:`.schedule`) tries the targets whose propagation
contradicts soonest first, and at level n skips the targets whose depth is above n or None: no braid
(g-braid) of length n can exist on them.  Nothing is eliminated on a trial's account.
"""

from __future__ import annotations

from typing import Iterable, Optional

from .. import _trial
from .labels import G_LABELS, G_LINKS, glabel_variable, is_glabel, label_variables

#: the g-labels of each rn, cn and bn variable
_G_OF_VARIABLE: dict[int, list[int]] = {}
for _g in G_LABELS:
    _G_OF_VARIABLE.setdefault(glabel_variable(_g), []).append(_g)


class TrialState:
    """The current candidates, indexed for repeated trials (one per target)."""

    def __init__(self, labels: Iterable[int], links: dict[int, frozenset[int]]):
        self.labels = frozenset(labels)
        self.links = {lab: links[lab] & self.labels for lab in self.labels}
        self.members: dict[int, list[int]] = {}
        for lab in self.labels:
            for v in label_variables(lab):
                self.members.setdefault(v, []).append(lab)

    def contradiction_depth(self, target: int, g: bool = False, limit: Optional[int] = None) -> Optional[int]:
        """The round in which assuming ``target`` empties a CSP variable, or None (see the module);
        with ``g``, g-labels holding all the compatible candidates of a variable are assumed too.
        ``limit``: None too when there is no contradiction within that many rounds."""
        return self.depth([target], g, limit)

    def depth(self, assumed: Iterable[int], g: bool = False, limit: Optional[int] = None) -> Optional[int]:
        """The same from several assumptions at once, labels and g-labels (a target and the rlcs of
        a partial braid or g-braid): a braid[m] extending a partial braid of length k on Z with rlc
        set S is a propagation from Z and S that contradicts within m - k rounds (the argument of
        the module's docstring, started from round k)."""
        assumed = set(assumed)
        g_assumed = {x for x in assumed if is_glabel(x)}
        assumed -= g_assumed
        frontier = sorted(assumed)
        g_frontier = sorted(g_assumed)
        compatible = {v: len(ls) for v, ls in self.members.items()}
        decided = {v for lab in assumed for v in label_variables(lab)}  # variables holding an assumed candidate
        removed: set[int] = set()
        depth = 0
        while frontier or g_frontier:
            depth += 1
            if limit is not None and depth > limit:
                return None
            touched: set[int] = set()
            newly = set(frontier)
            for links in [self.links[lab] for lab in frontier] + [G_LINKS[gl] & self.labels for gl in g_frontier]:
                for x in links:
                    if x in newly:  # two candidates forced together are linked: contradiction
                        return depth
                    if x in removed or x in assumed:
                        continue
                    removed.add(x)
                    for v in label_variables(x):
                        compatible[v] -= 1
                        touched.add(v)
            forced = []
            g_frontier = []
            for v in touched - decided:
                if compatible[v] == 0:
                    return depth
                if compatible[v] == 1:
                    forced.append(next(x for x in self.members[v] if x not in removed))
                elif g and compatible[v] <= 3 and v in _G_OF_VARIABLE:
                    left = {x for x in self.members[v] if x not in removed}
                    g_frontier += [gl for gl in _G_OF_VARIABLE[v]
                                   if gl not in g_assumed and left <= set(G_LABELS[gl])]
            g_assumed.update(g_frontier)
            frontier = []
            for lab in dict.fromkeys(forced):
                if lab not in assumed:
                    assumed.add(lab)
                    frontier.append(lab)
                    decided.update(label_variables(lab))
        return None


    def whip(self, target: int, g: bool = False, limit: int = 36, need_g: bool = False,
             loopless: bool = False) -> bool:
        """Is there a whip (with ``g``: a whip or g-whip, SPEC §4.2, §4.5) of length at most
        ``limit`` on ``target``?  With ``need_g`` (and ``g``), only a g-whip proper counts: one with
        at least one g-rlc, what the g-whip[n] rules find.  The reference of the compiled searches
        (``State.whip``, ``State.g_whip``), which the engine uses to focus only the targets that carry
        one (driver.py): a plain depth-first search over partial whips built as the rules build them
        (rules/partial-whip*.clp, partial-g-whip*.clp), except that a left-linking candidate may
        repeat an earlier one (the rules refuse it).  That only widens the search, so "no" here means
        the rules find none either; and it makes a partial chain's extensions depend on its set of
        rlcs and its last one only, which the compiled search uses to explore each such pair once.
        With ``loopless``, a left-linking candidate may not repeat, as in the rules: the reference of
        ``State.whip_chain(..., strict=True)``."""
        present = self.labels
        g_of = {gl: G_LABELS[gl] for v in _G_OF_VARIABLE for gl in _G_OF_VARIABLE[v]} if g else {}

        def closes(rlcs: frozenset[int]) -> bool:
            return not need_g or any(is_glabel(r) for r in rlcs)

        def extend(last: int, k: int, rlcs: frozenset[int], used: frozenset[int], inc: frozenset[int],
                   llcs: frozenset[int] = frozenset()) -> bool:
            if is_glabel(last):
                lefts, via = G_LINKS[last] & present, {glabel_variable(last)}
            else:
                lefts, via = self.links[last], set(label_variables(last))
            for left in sorted(lefts):
                if loopless and left in llcs:
                    continue
                llcs_after = llcs | {left} if loopless else llcs
                for v in label_variables(left):
                    if v in used or v in via:
                        continue
                    free = [x for x in self.members[v] if x != left and x not in inc]
                    if not free:
                        if closes(rlcs):
                            return True
                        continue
                    if k + 1 >= limit:
                        continue
                    if len(free) == 1:
                        r = free[0]
                        if r not in rlcs and extend(r, k + 1, rlcs | {r}, used | {v}, inc | self.links[r], llcs_after):
                            return True
                    elif g and len(free) <= 3:
                        for gl in _G_OF_VARIABLE.get(v, ()):
                            labels = set(g_of[gl])
                            if (set(free) <= labels and left not in labels and gl not in rlcs
                                    and not labels & rlcs
                                    and extend(gl, k + 1, rlcs | {gl}, used | {v}, inc | (G_LINKS[gl] & present),
                                               llcs_after)):
                                return True
            return False

        return extend(target, 0, frozenset([target]), frozenset(), frozenset(self.links[target]))

    def braid(self, target: int, g: bool = False, limit: int = 36) -> bool:
        """May there be a braid (with ``g``: a braid or g-braid, SPEC §4.4, §4.5) of length at most
        ``limit`` on ``target``?  The reference of the compiled search (``State.braid``), which the
        engine asks before a lean stage builds a target's partial braids in CLIPS (driver.py): a plain
        depth-first search over sets of rlcs built as the rules build them (rules/partial-braid*.clp,
        partial-g-braid*.clp), each set passing the lean stages' test (:meth:`depth` from the target and
        the rlcs within the cells left).  A variable with a candidate linked to the target or an rlc
        (g-linked to a g-rlc) and none other closes a braid; one other candidate, not the target nor an
        rlc, is the next rlc; with ``g`` two or three lying in one g-label of the variable, holding
        neither the target nor an rlc, make it the next g-rlc; a g-rlc's variable gives no next rlc.
        The rules are stricter in places (they never close on a g-rlc's variable, want a left-linking
        candidate outside a new g-rlc), so "no" here means the rules find none either."""
        present = self.labels

        def viable(rlcs: frozenset[int], rounds: int) -> bool:
            return rounds >= 1 and self.depth(rlcs, g, rounds) is not None

        def extend(k: int, rlcs: frozenset[int], g_vars: frozenset[int], inc: frozenset[int]) -> bool:
            for v in sorted(self.members):
                members = self.members[v]
                free = [x for x in members if x not in inc]
                if len(free) == len(members):
                    continue  # no left-linking candidate
                if not free:
                    return True
                if k + 1 >= limit or v in g_vars:
                    continue
                if len(free) == 1:
                    r = free[0]
                    if r not in rlcs and viable(rlcs | {r}, limit - k - 1) and \
                            extend(k + 1, rlcs | {r}, g_vars, inc | self.links[r]):
                        return True
                elif g and len(free) <= 3:
                    for gl in _G_OF_VARIABLE.get(v, ()):
                        labels = set(G_LABELS[gl])
                        if (set(free) <= labels and gl not in rlcs and not labels & rlcs
                                and viable(rlcs | {gl}, limit - k - 1)
                                and extend(k + 1, rlcs | {gl}, g_vars | {v}, inc | (G_LINKS[gl] & present))):
                            return True
            return False

        start = frozenset([target])
        return viable(start, limit) and extend(0, start, frozenset(), frozenset(self.links[target]))


#: ``State(labels)``: a state of candidates for repeated propagations, ``.depth(assumed, g, limit)``:
#: :meth:`TrialState.depth` if it is at most ``limit``, else 0 (compiled: generator/trial.c)
State = _trial.State


def depths(labels: Iterable[int], targets: Iterable[int], g: bool = False, limit: int = 36) -> list[int]:
    """For each target, its contradiction depth if it is at most ``limit``, else 0 (compiled:
    generator/trial.c; :class:`TrialState` is the reference, a test compares them)."""
    return _trial.depths(labels, targets, g, limit)

