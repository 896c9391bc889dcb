"""The chains the engine finds by search: bivalue-chains, z-chains, t-whips, their typed variants,
typed whips and g-bivalue-chains (SPEC §4.3, §4.5; the families with a ``search`` in the registry).

A seek rule per family and length (rules/seek.clp), at the family's place in the simplest-first order
(SPEC §5.3), asks the driver for one chain of that length in the current state; :func:`find_chain`
answers.  It tries the targets whose trial propagation contradicts within that many rounds (every
such chain on Z is such a propagation, see the compiled search in generator/trial.c), soonest first,
and asks the compiled search ``State.chain`` for a chain of the family on each until one is found.
Then it computes all the targets of that chain when the family is blocked (SPEC §7.4): every
candidate that the same chain eliminates, as SudoRules' "apply to more targets" rules do.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..resolution.families import Search
from .labels import G_LABELS, G_LINKS, LINKS, is_glabel, label_variables
from .trial import State, depths

#: nodes of one compiled chain search before it gives up on a target (it has never been reached on
#: the puzzles measured: docs/engine.md); a target it gives up on is counted, never eliminated
CHAIN_SEARCH_BUDGET = 2_000_000

_KINDS = {1: "rc", 2: "rn", 3: "cn", 4: "bn"}


class SeekStats:
    """What the searches did in one run (the driver's ``seek_stats``): searches, targets tried,
    targets a search gave up on."""

    def __init__(self) -> None:
        self.searches = 0
        self.tried = 0
        self.gave_up = 0


def find_chain(state: State, labels: set[int], never: set[int], search: Search, length: int,
               stats: Optional[SeekStats] = None,
               deadline: Optional[float] = None) -> Optional[tuple[str, list[int], list[int]]]:
    """A chain of ``search``'s family and exactly ``length`` cells in the state of the current
    candidates ``labels`` (``state``: the same, compiled), on a target not in ``never`` (the labels of
    the known solution: no sound rule eliminates them): ``(rule, targets, cells)``, the printed rule
    name (``biv-chain``, ``z-chain-rc``...), its targets (the first one searched, then the others of a
    blocked family) and its cells as the flat (variable, left-linking, right-linking) list of
    :meth:`State.chain`; None if there is none.  ``deadline`` (``time.time()``'s clock): past it the
    search raises TimeoutError."""
    if stats is not None:
        stats.searches += 1
    targets = sorted(labels - never)
    if not targets:
        return None
    rounds = depths(labels, targets, search.g, length)
    for _, z in sorted((d, z) for d, z in zip(rounds, targets) if d):
        if stats is not None:
            stats.tried += 1
        cells = state.chain(z, search.mode, length, search.typed, CHAIN_SEARCH_BUDGET, deadline or 0)
        if cells == -1:
            if stats is not None:
                stats.gave_up += 1
            continue
        if cells:
            cells = list(cells)
            rule = search.rule + (f"-{_KINDS[cells[0] // 100]}" if search.typed else "")
            found = [z] + (sorted(more_targets(labels, search.mode, cells) - {z}) if search.blocked else [])
            return rule, found, cells
    return None


def _links(x: int) -> frozenset[int]:
    return G_LINKS[x] if is_glabel(x) else LINKS[x]


def more_targets(labels: Iterable[int], mode: str, cells: list[int]) -> set[int]:
    """Every current candidate that a chain (the flat cells of :meth:`State.chain`) of mode ``biv``,
    ``z``, ``t`` or ``whip`` eliminates, as SudoRules' blocked rules find them: linked to L1, outside
    the chain's candidates and variables, compatible with R1..R(n-1), and

    * biv: linked to Rn;
    * z: linked to every candidate of V_k other than L_k and R_k (k < n), and of V_n other than L_n;
    * t: linked to every candidate of V_1 other than L_1, R_1, and to the one candidate of V_n other
      than L_n linked to no rlc;
    * whip: (a typed whip is one step per target; this is for tests) linked to every candidate of
      V_n other than L_n linked to no rlc, and of each V_k other than L_k, R_k linked to no earlier rlc.
    """
    labels = set(labels)
    n = len(cells) // 3
    vs, ls, rs = cells[0::3], cells[1::3], cells[2::3]
    members = {v: [x for x in labels if v in label_variables(x)] for v in vs}
    used = set(ls) | {r for r in rs if r}
    rlcs = [r for r in rs[:n - 1]]
    must: set[int] = {ls[0]}
    if mode == "biv":
        must.add(rs[-1])
    elif mode == "z":
        for k in range(n):
            must |= {x for x in members[vs[k]] if x not in (ls[k], rs[k])}
    elif mode == "t":
        must |= {x for x in members[vs[0]] if x not in (ls[0], rs[0])}
        must |= {x for x in members[vs[-1]] if x != ls[-1] and not any(x in LINKS[r] for r in rlcs)}
    else:
        for k in range(n):
            must |= {x for x in members[vs[k]] if x not in (ls[k], rs[k])
                     and not any(x in LINKS[r] for r in rlcs[:k])}
    found = set()
    for z in labels:
        if z in used or any(v in label_variables(z) for v in vs):
            continue
        if any(z in _links(r) for r in rlcs):
            continue
        if all(z in LINKS[x] for x in must):
            found.add(z)
    return found


def reference_chain(labels: Iterable[int], target: int, mode: str, length: int, typed: bool = False) -> bool:
    """Does a chain of ``mode`` (``whip``, ``z``, ``t``, ``biv``, ``g-biv``) and exactly ``length``
    cells exist on ``target`` among the current candidates ``labels``?  The reference of the compiled
    search (``State.chain``, generator/trial.c), written plainly from the same definitions, without its
    pruning; tests compare the two."""
    labels = frozenset(labels)
    members: dict[int, list[int]] = {}
    for x in labels:
        for v in label_variables(x):
            members.setdefault(v, []).append(x)
    z = target
    zvars = set(label_variables(z))

    def links(x: int) -> frozenset[int]:
        return (G_LINKS[x] if is_glabel(x) else LINKS[x]) & labels

    def g_candidates(v: int) -> list[int]:
        return [g for g in range(10 * v + 1, 10 * v + 7) if g in G_LABELS
                and sum(1 for x in G_LABELS[g] if x in labels) >= 2]

    def extend(cells: list[tuple[int, int, int]], used: set[int], vars_: set[int]) -> bool:
        k = len(cells)
        last = cells[-1][2] if cells else z
        rlcs = [c[2] for c in cells]
        closing = k + 1 == length
        for left in sorted(links(last) - used):
            for v in label_variables(left):
                if v in vars_ or v in zvars or (typed and cells and v // 100 != cells[0][0] // 100):
                    continue
                if cells and not is_glabel(last) and v in label_variables(last):
                    continue
                if cells and is_glabel(last) and v == last // 10:
                    continue
                if mode == "g-biv" and cells and cells[-1][0] in label_variables(left):
                    continue
                rest = [x for x in members[v] if x != left]
                options: list[tuple[int, bool]] = []  # (right-linking object or 0, closes)
                if mode == "whip":
                    inc = set(links(z)).union(*(links(r) for r in rlcs))
                    free = [x for x in rest if x not in inc]
                    if closing:
                        options = [(0, True)] if not free and rest else []
                    elif len(free) == 1:
                        options = [(free[0], False)]
                elif mode == "z":
                    free = [x for x in rest if x not in links(z)]
                    if closing:
                        options = [(0, True)] if not free and rest else []
                    elif len(free) == 1:
                        options = [(free[0], False)]
                elif mode == "t":
                    inc = links(z) if not cells else set().union(*(links(r) for r in rlcs))
                    free = [x for x in rest if x not in inc]
                    if len(free) == 1:
                        if closing:
                            options = [(0, True)] if cells and free[0] in links(z) else []
                        elif free[0] not in links(z):
                            options = [(free[0], False)]
                elif mode == "biv":
                    if len(rest) == 1:
                        r = rest[0]
                        if closing:
                            options = [(r, True)] if r in links(z) else []
                        elif r not in links(z):
                            options = [(r, False)]
                else:  # g-biv
                    loose = [x for x in rest if x not in links(last)]
                    objects = [r for r in rest if not set(loose) - {r}]
                    objects += [g for g in g_candidates(v) if left not in G_LABELS[g]
                                and set(loose) <= set(G_LABELS[g]) and not set(G_LABELS[g]) & used
                                and g not in rlcs]
                    for r in objects:
                        hits = z in links(r)
                        if closing and hits:
                            options.append((r, True))
                        elif not closing and not hits:
                            options.append((r, False))
                for r, closes in options:
                    if r and not is_glabel(r) and r in used:
                        continue
                    if closes:
                        return True
                    more = {left} | ({r} if not is_glabel(r) else set())
                    if extend(cells + [(v, left, r)], used | more, vars_ | {v}):
                        return True
        return False

    return extend([], {z}, set())
