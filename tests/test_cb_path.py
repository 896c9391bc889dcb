"""The controlled-bias decision against its definition (issue 23).

sr_cb_try (generator/generate.c) draws a deletion order of the 81 cells, then decides with shortcuts
(two-line cycles emptied by the untested deletions, singles in the smallest puzzle the output could
contain, bisection) which must never change the result: the output is P_high, the unique puzzle of
the path with fewest clues (P_k = the k cells deleted last, k <= 81 - untested), when it is minimal,
and nothing otherwise.  ``_generate.cb_path`` is that decision for a given order; here it is compared
with the definition computed by brute force (every P_k through the core solver) on random orders,
on orders built to end on a known minimal puzzle (hits), and on such orders slightly disturbed (both
outcomes, decided near the shortcuts' boundaries)."""

from __future__ import annotations

import numpy as np
import pytest

from sudorules import _generate, core
from sudorules.generation.generate import generate


def definition(grid: np.ndarray, order: np.ndarray, untested: int) -> tuple[int, np.ndarray]:
    """(high, P_high) by the definition, or (0, zeros): every P_k from 81 - untested down to 17 clues
    (no puzzle of 16 clues or fewer is unique) goes through the solver."""
    sizes = list(range(81 - untested, 16, -1))
    puzzles = np.zeros((len(sizes), 81), np.uint8)
    for row, k in enumerate(sizes):
        kept = order[81 - k:]
        puzzles[row, kept] = grid[kept]
    counts, _ = core.count_solutions_batch(puzzles, limit=2)
    unique = counts == 1
    if not unique[0]:
        return 0, np.zeros(81, np.uint8)
    last = len(sizes) - 1 if unique.all() else int(np.argmin(unique)) - 1  # the unique ones are a prefix
    if not core.is_minimal(puzzles[last]):
        return 0, np.zeros(81, np.uint8)
    return sizes[last], puzzles[last]


def decided(grid: np.ndarray, order: np.ndarray, untested: int) -> tuple[int, np.ndarray]:
    clues, puzzle = _generate.cb_path(grid.astype(np.uint8).tobytes(), order.astype(np.uint8).tobytes(),
                                      untested)
    return clues, np.frombuffer(puzzle, np.uint8)


def check(grid: np.ndarray, order: np.ndarray, untested: int) -> int:
    want_clues, want = definition(grid, order, untested)
    clues, puzzle = decided(grid, order, untested)
    assert clues == want_clues, (grid.tolist(), order.tolist(), untested)
    assert (puzzle == want).all()
    return clues


def test_random_orders_agree_with_the_definition():
    rng = np.random.default_rng(1)
    grids = core.random_grids(150, seed=21)
    for k, grid in enumerate(grids):
        check(grid, rng.permutation(81), untested=(0, 20, 46)[k % 3])


@pytest.fixture(scope="module")
def minimal_puzzles() -> list[tuple[np.ndarray, np.ndarray]]:
    """(puzzle, solution grid) of 40 top-down minimal puzzles."""
    puzzles = generate("top-down", 40, seed=5).puzzles
    return [(p, np.array(core.solve(p).givens, np.uint8)) for p in puzzles]


def ending_on(puzzle: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A deletion order that deletes the cells outside `puzzle` first, then its clues."""
    clues = np.flatnonzero(puzzle)
    empty = np.flatnonzero(puzzle == 0)
    return np.concatenate([rng.permutation(empty), rng.permutation(clues)])


def test_a_path_through_a_minimal_puzzle_outputs_it(minimal_puzzles):
    rng = np.random.default_rng(2)
    for k, (puzzle, grid) in enumerate(minimal_puzzles):
        untested = (46, 30, 0)[k % 3]
        clues = check(grid, ending_on(puzzle, rng), untested)
        assert clues == np.count_nonzero(puzzle)


def test_disturbed_paths_agree_with_the_definition(minimal_puzzles):
    """Paths through a minimal puzzle disturbed near its end: 1 or 2 other cells are kept with its clues,
    and deleted first among them or after 1 or 2 of its clues.  The path's last unique puzzle is then
    the minimal puzzle, another minimal puzzle, or a puzzle that is not minimal."""
    rng = np.random.default_rng(3)
    outcomes = {True: 0, False: 0}
    for round_ in range(6):
        for k, (puzzle, grid) in enumerate(minimal_puzzles):
            clues = rng.permutation(np.flatnonzero(puzzle))
            empty = rng.permutation(np.flatnonzero(puzzle == 0))
            extra, early = 1 + k % 2, round_ % 3  # `early` clues go with the extra cells
            head = rng.permutation(np.concatenate([empty[:extra], clues[:early]]))
            order = np.concatenate([empty[extra:], head, clues[early:]])
            outcomes[check(grid, order, untested=(46, 0)[round_ % 2]) > 0] += 1
    assert outcomes[True] >= 20 and outcomes[False] >= 20, outcomes


def test_bad_arguments_are_refused():
    grid = core.random_grids(1, seed=1)[0]
    order = np.arange(81, dtype=np.uint8)
    with pytest.raises(ValueError, match="permutation"):
        _generate.cb_path(grid.tobytes(), np.zeros(81, np.uint8).tobytes(), 46)
    bad = grid.copy()
    bad[[0, 1]] = bad[[1, 0]]
    with pytest.raises(ValueError, match="complete valid grid"):
        _generate.cb_path(bad.tobytes(), order.tobytes(), 46)
    with pytest.raises(ValueError, match="untested"):
        _generate.cb_path(grid.tobytes(), order.tobytes(), 65)
