"""What a chain found without its printed form needs before it is recorded: the order of a braid's
(g-braid's) right-linking candidates, and the left-linking candidates of a whip (g-whip).

Partial braids are keyed by their set of rlcs (rules/braid.clp), so when a braid fires its rlcs come
without an order; :func:`order_braid` puts them in one that the checker accepts (SPEC §4.4), from the
current candidates.  The bridge (:mod:`.bridge`) calls it when it records a braid step, whether the
rules or the compiled search found it.  The compiled whip search gives each cell's variable and rlc
only; :func:`whip_lefts` chooses loopless left-linking candidates (the driver's lean whips).
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from .labels import G_LABELS, G_LINKS, LINKS, glabel_variable, is_glabel, label_variables


def _by_variable(current: Iterable[int]) -> dict[int, list[int]]:
    """The current candidates of each CSP variable."""
    by_variable: dict[int, list[int]] = {}
    for lab in current:
        for v in label_variables(lab):
            by_variable.setdefault(v, []).append(lab)
    return by_variable


def order_braid(current: Iterable[int], target: int, rlcs: list[int], vid: int) -> list[int]:
    """Put the rlcs of a braid or g-braid found as a set into a valid order, with left-linking
    candidates.

    Greedy: repeatedly take an rlc R (a candidate, or a g-label of a g-braid) such that, in
    one unused variable V of R's, every candidate outside R is incompatible with the target
    and the rlcs already placed (linked, or g-linked to a g-rlc) and one of them is left for
    the left-linking candidate.  A valid order exists, and placing more rlcs never un-forces
    a variable.  Returns the flat (v, l, r) list ending (v, l, 0).
    """
    by_variable = _by_variable(current)
    placed: list[int] = []
    used_labels = {target}
    used_vars: set[int] = set()
    out: list[int] = []
    remaining = list(rlcs)

    def links(r: int) -> frozenset[int]:
        return G_LINKS[r] if is_glabel(r) else LINKS[r]

    def variables(r: int) -> tuple[int, ...]:  # those an rlc can be the right-linking object of
        return (glabel_variable(r),) if is_glabel(r) else label_variables(r)

    def incompatible(x: int) -> bool:
        return x in LINKS[target] or any(x in links(r) for r in placed)

    def places(r: int) -> Optional[tuple[int, int]]:
        """(variable, left-linking candidate) where rlc r can be placed next, if any."""
        inside = set(G_LABELS[r]) if is_glabel(r) else {r}
        for v in variables(r):
            if v in used_vars:
                continue
            others = [x for x in by_variable.get(v, []) if x not in inside]
            if others and all(incompatible(x) for x in others):
                lefts = [x for x in others if x not in used_labels] or others
                return v, lefts[0]
        return None

    while remaining:
        for r in remaining:
            choice = places(r)
            if choice:
                v, lft = choice
                out += [v, lft, r]
                placed.append(r)
                used_vars.add(v)
                used_labels.add(lft)
                if not is_glabel(r):
                    used_labels.add(r)
                remaining.remove(r)
                break
        else:  # no valid order: keep the set as given (the checker will say so)
            for r in remaining:
                out += [variables(r)[0], G_LABELS[r][0] if is_glabel(r) else r, r]
            remaining = []
    lefts = [x for x in by_variable.get(vid, []) if incompatible(x)]
    fresh = [x for x in lefts if x not in used_labels]
    out += [vid, (fresh or lefts)[0], 0]
    return out


def whip_lefts(current: Iterable[int], target: int, cells: Sequence[int]) -> Optional[list[int]]:
    """Left-linking candidates for a whip or g-whip found by the compiled search (``State.whip_chain``:
    each cell's variable and right-linking object, 0 for the last), which does not choose them.

    Cell k's is a current candidate of its variable other than its rlc (outside it, for a g-rlc),
    linked to the previous rlc (g-linked to a g-rlc; Z for the first cell); no two cells may share one
    (loopless whips, SPEC §4.2), which the search does not check.  Returns the flat (v, l, r) list
    the rules record (ending (v, l, 0)), or None if no such choice exists."""
    by_variable = _by_variable(current)
    variables, rights = list(cells[0::2]), list(cells[1::2])
    options = []
    for k, (v, r) in enumerate(zip(variables, rights)):
        prev = rights[k - 1] if k else target
        linked = G_LINKS[prev] if is_glabel(prev) else LINKS[prev]
        inside = set(G_LABELS[r]) if r and is_glabel(r) else {r}
        options.append([x for x in by_variable.get(v, []) if x not in inside and x in linked])
    chosen: list[int] = []

    def choose(k: int) -> bool:  # backtracking; the options are few and nearly always distinct
        if k == len(options):
            return True
        for x in options[k]:
            if x not in chosen:
                chosen.append(x)
                if choose(k + 1):
                    return True
                chosen.pop()
        return False

    if not choose(0):
        return None
    return [x for k in range(len(variables)) for x in (variables[k], chosen[k], rights[k])]
