"""Trial propagation: how fast assuming a candidate leads to a contradiction.

Assume a target Z true, remove every candidate linked to it, then propagate by rounds: in each round
every CSP variable left with exactly one candidate compatible with everything assumed so far forces
it (all of that round's forced candidates together).  The **contradiction depth** of Z is the round
in which some CSP variable (other than Z's own) is left with no compatible candidate, or None if the
propagation stops first.

A braid[n] on Z (SPEC §4.4) is such a propagation: its rlcs are forced one by one and its last
variable is emptied, so the depth of Z is at most n.  The driver of the B theory uses the depth only
to choose which targets to search for braids first (``engine.Engine``); nothing is eliminated on its
account.
"""

from __future__ import annotations

from typing import Iterable, Optional

from .labels import label_variables


class TrialState:
    """The current candidates, indexed for repeated trials (one per target)."""

    def __init__(self, labels: Iterable[int], links: dict[int, frozenset[int]]):
        self.labels = frozenset(labels)
        self.links = {lab: links[lab] & self.labels for lab in self.labels}
        self.members: dict[int, list[int]] = {}
        for lab in self.labels:
            for v in label_variables(lab):
                self.members.setdefault(v, []).append(lab)

    def contradiction_depth(self, target: int) -> Optional[int]:
        """The round in which assuming ``target`` empties a CSP variable, or None (see the module)."""
        compatible = {v: len(ls) for v, ls in self.members.items()}
        decided = set(label_variables(target))  # variables that hold an assumed candidate
        removed: set[int] = set()
        assumed = {target}
        frontier = [target]
        depth = 0
        while frontier:
            depth += 1
            touched: set[int] = set()
            newly = set(frontier)
            for lab in frontier:
                for x in self.links[lab]:
                    if x in newly:  # two candidates forced together are linked: contradiction
                        return depth
                    if x in removed or x in assumed:
                        continue
                    removed.add(x)
                    for v in label_variables(x):
                        compatible[v] -= 1
                        touched.add(v)
            forced = []
            for v in touched - decided:
                if compatible[v] == 0:
                    return depth
                if compatible[v] == 1:
                    forced.append(next(x for x in self.members[v] if x not in removed))
            frontier = []
            for lab in dict.fromkeys(forced):
                if lab not in assumed:
                    assumed.add(lab)
                    frontier.append(lab)
                    decided.update(label_variables(lab))
        return None
