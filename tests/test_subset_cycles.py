"""Subsets of size 3 and 4 are printed in SudoRules' cycle order (SPEC §3.2, §6; helper-46 found
``c2{r1 r3 r4}{n2 n6 n8}`` where r4c2 held {2, 6}: a sorted print no cyclic rule of SudoRules
makes).  Checked on generated puzzles under the Subsets theory, each pattern against the candidates
before its step as the independent verifier replays them."""

from __future__ import annotations

import pytest

import sudorules
from sudorules.generation.generate import generate_frame
from sudorules.puzzle import Candidate, column_of, row_of
from sudorules.resolution.notation import parse_step
from sudorules.resolution.state import ResolutionState
from sudorules.resolution.verify import replay


def _holds(pattern, state):
    if pattern.family == "fish":
        rows = pattern.unit_kind == "rows"
        return (pattern.bases, pattern.covers,
                lambda x, v: state.is_candidate(Candidate(pattern.unit, x, v) if rows else Candidate(pattern.unit, v, x)))
    if pattern.family == "naked":
        return pattern.cells, pattern.digits, lambda x, v: state.is_candidate(Candidate(v, row_of(x), column_of(x)))
    return pattern.digits, pattern.cells, lambda x, v: state.is_candidate(Candidate(x, row_of(v), column_of(v)))


@pytest.fixture(scope="module")
def subset_steps():
    found = []
    for puzzle in generate_frame("top-down", 120, seed=7)["puzzle"]:
        resolution = sudorules.solve(puzzle, theory="S")
        assert replay(resolution.puzzle, resolution.steps).ok
        state = ResolutionState(resolution.puzzle)
        for step in resolution.steps:
            if step.subset is not None and step.subset.size >= 3:
                found.append((step, state.copy()))
            state.eliminate_all(step.eliminations)
            for candidate in step.assertions:
                state.assert_value(candidate)
    return found


def test_triplets_and_quads_are_printed_in_a_cycle(subset_steps):
    sizes = {step.subset.size for step, _ in subset_steps}
    assert len(subset_steps) >= 8 and sizes == {3, 4}, [s.text() for s, _ in subset_steps]
    for step, state in subset_steps:
        variables, values, holds = _holds(step.subset, state)
        p = len(variables)
        assert all(holds(x, values[i]) and holds(x, values[(i + 1) % p]) for i, x in enumerate(variables)), step.text()
        # triplets: X1 < X2 < X3; quads: X1 the least, the others in the cycle's order
        assert (list(variables) == sorted(variables)) if p == 3 else variables[0] == min(variables), step.text()
        assert parse_step(step.text()).subset == step.subset  # the notation reads back as printed
