"""Subsets of size 3 and 4 printed in SudoRules' cycle order (SPEC §3.2, §6).

The engine finds Subsets in their plain form (rules/subset.clp: p variables whose candidates lie
within p values), so it knows them as sorted sets.  SudoRules' rules find the cyclic forms and print
the values in the order of the cycle: a triplet's variables X1 < X2 < X3 with X1 holding v1 and v2,
X2 holding v2 and v3 and X3 holding v3 and v1 is printed ``{X1 X2 X3}{v1 v2 v3}``; a quad's cycle
X1 X2 X3 X4 (X1 the least, the others in the cycle's order) likewise.  A sorted print such as
``c2{r1 r3 r4}{n2 n6 n8}`` where r4c2 = {2, 6} is no cycle SudoRules can print (helper-46).  Where
several cycles fit (a variable holding all the values), which one SudoRules prints depends on its
agenda; ours is the first in numeric order.  A quad with no 4-cycle (SudoRules' "special quads")
stays sorted.  Pairs, X-wings and finned fish are printed as found.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from typing import Callable, Optional, Sequence

from ..puzzle import Candidate, Puzzle, column_of, row_of
from .state import ResolutionState
from .steps import Step, SubsetPattern


def in_cycle_order(steps: Sequence[Step], puzzle: Puzzle) -> list[Step]:
    """``steps`` with each Subset of size 3 or 4 in cycle order, read from the candidates before it."""
    if not any(_reorderable(step.subset) for step in steps):
        return list(steps)
    state = ResolutionState(puzzle)
    ordered = []
    for step in steps:
        if _reorderable(step.subset):
            step = replace(step, subset=_cycled(step.subset, state))
        ordered.append(step)
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)
    return ordered


def _reorderable(pattern: Optional[SubsetPattern]) -> bool:
    return pattern is not None and pattern.family != "finned" and pattern.size >= 3


def _cycled(pattern: SubsetPattern, state: ResolutionState) -> SubsetPattern:
    holds = _membership(pattern, state)
    if pattern.family == "fish":
        variables, values = pattern.bases, pattern.covers
    elif pattern.family == "naked":
        variables, values = pattern.cells, pattern.digits
    else:
        variables, values = pattern.digits, pattern.cells
    cycle = _first_cycle(tuple(sorted(variables)), tuple(sorted(values)), holds)
    if cycle is None:
        return pattern
    xs, vs = cycle
    if pattern.family == "fish":
        return replace(pattern, bases=xs, covers=vs)
    if pattern.family == "naked":
        return replace(pattern, cells=xs, digits=vs)
    return replace(pattern, digits=xs, cells=vs)


def _first_cycle(variables: tuple, values: tuple, holds: Callable[[int, int], bool]) -> Optional[tuple[tuple, tuple]]:
    """The first (variables, values) in numeric order with variable i holding values i and i + 1
    (cyclically): triplets keep their variables sorted, quads their least one first."""
    first, rest = variables[0], variables[1:]
    orders = [variables] if len(variables) == 3 else [(first, *others) for others in permutations(rest)]
    for xs in orders:
        for vs in permutations(values):
            if all(holds(x, vs[i]) and holds(x, vs[(i + 1) % len(vs)]) for i, x in enumerate(xs)):
                return xs, vs
    return None


def _membership(pattern: SubsetPattern, state: ResolutionState) -> Callable[[int, int], bool]:
    """Does variable x hold value v, in the pattern's terms (naked: cell x, digit v; hidden: digit x,
    cell v; fish: base line x, cover line v)?"""
    digit = pattern.unit
    if pattern.family == "fish":
        if pattern.unit_kind == "rows":
            return lambda x, v: state.is_candidate(Candidate(digit, x, v))
        return lambda x, v: state.is_candidate(Candidate(digit, v, x))
    if pattern.family == "naked":
        return lambda x, v: state.is_candidate(Candidate(v, row_of(x), column_of(x)))
    return lambda x, v: state.is_candidate(Candidate(x, row_of(v), column_of(v)))
