"""A plain-Python T&E(BRT, n), written from SPEC §10.1 for the tests: slow (a BRT is milliseconds),
independent of generator/te.c (it shares nothing with it but the resolution state of the checker).

BRT: every CSP variable left with one candidate asserts it, until none does or some variable has
neither a value nor a candidate (a contradiction).  T&E(n): BRT; then passes over the candidates Z,
each asserted in a copy to which T&E(n - 1) is applied; a contradiction eliminates Z (then BRT);
passes until one changes nothing.
"""

from __future__ import annotations

from sudorules.puzzle import Puzzle
from sudorules.resolution.state import ResolutionState
from sudorules.resolution.steps import VARIABLE_KINDS, CspVariable

VARIABLES = [CspVariable(kind, a, b) for kind in VARIABLE_KINDS for a in range(1, 10) for b in range(1, 10)]


def brt(state: ResolutionState) -> str:
    """BRT to its fixpoint: ``contradiction``, ``solved`` or ``quiet``."""
    changed = True
    while changed:
        changed = False
        for variable in VARIABLES:
            if state.has_value(variable):
                continue
            candidates = state.candidates_of(variable)
            if not candidates:
                return "contradiction"
            if len(candidates) == 1:
                state.assert_value(candidates[0])
                changed = True
    return "solved" if state.is_solved() else "quiet"


def te(state: ResolutionState, n: int) -> str:
    """T&E(BRT, n) to its fixpoint: ``contradiction``, ``solved`` or ``quiet``."""
    outcome = brt(state)
    if outcome != "quiet" or n == 0:
        return outcome
    changed = True
    while changed:
        changed = False
        for candidate in state.all_candidates():
            if not state.is_candidate(candidate):
                continue
            context = state.copy()
            context.assert_value(candidate)
            if te(context, n - 1) == "contradiction":
                state.eliminate(candidate)
                outcome = brt(state)
                if outcome != "quiet":
                    return outcome
                changed = True
    return "quiet"


def te_solves(puzzle: Puzzle, n: int) -> bool:
    """True when T&E(BRT, n) solves the puzzle."""
    return te(ResolutionState(puzzle), n) == "solved"
