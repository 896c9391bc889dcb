"""The compiled core (sudorules.core): counts, solutions, minimality, random grids, batch = single,
cross-checked against the pure-Python reference solver and the published cb-001 collection."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudorules import Puzzle, core
from sudorules import _core
from sudorules.puzzle import PEERS, UNITS

from reference_solver import count_solutions as reference_count

EMPTY = [0] * 81


def read_cb001(folder):
    """The cb-001 puzzles as an (N, 81) uint8 array."""
    lines = (folder / "puzzles.txt").read_text().split("\n")
    text = "".join(line[:81] for line in lines if line.strip())
    codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(-1, 81)
    return np.where(codes == ord("."), 0, codes - ord("0")).astype(np.uint8)


@pytest.fixture(scope="module")
def cb_grids(cb001):
    return read_cb001(cb001)


def is_valid_grid(values):
    """True when the 81 values form a complete valid Sudoku grid."""
    values = list(values)
    return all(sorted(values[c] for c in cells) == list(range(1, 10)) for _, _, cells in UNITS)


def grids_valid(array):
    """Vectorised is_valid_grid over an (N, 81) array."""
    g = array.reshape(-1, 9, 9).astype(np.int64)
    boxes = g.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    want = np.arange(1, 10)
    return ((np.sort(g, axis=2) == want).all(axis=(1, 2))
            & (np.sort(g, axis=1) == want[:, None]).all(axis=(1, 2))
            & (np.sort(boxes, axis=2) == want).all(axis=(1, 2)))


def random_subsets(grids, clues, seed):
    """For each grid, keep `clues` cells chosen at random (numpy seeded)."""
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random(grids.shape), axis=1)
    mask = np.zeros(grids.shape, dtype=bool)
    np.put_along_axis(mask, order[:, :clues], True, axis=1)
    return np.where(mask, grids, 0).astype(np.uint8)


# ---- the published collection -------------------------------------------------------------------

def test_every_cb001_puzzle_is_unique_with_a_valid_solution_extending_its_givens(cb_grids):
    counts, solutions = core.count_solutions_batch(cb_grids, limit=2)
    assert len(cb_grids) == 21695
    assert (counts == 1).all()
    assert grids_valid(solutions).all()
    assert ((cb_grids == 0) | (cb_grids == solutions)).all()


def test_every_cb001_puzzle_is_minimal(cb_grids):
    assert core.is_minimal_batch(cb_grids).all()


def test_removing_any_given_of_a_minimal_puzzle_gives_several_solutions(cb_grids):
    sample = cb_grids[random.Random(2).sample(range(len(cb_grids)), 200)]
    reduced = []
    for grid in sample:
        for cell in np.flatnonzero(grid):
            smaller = grid.copy()
            smaller[cell] = 0
            reduced.append(smaller)
    counts, _ = core.count_solutions_batch(np.array(reduced), limit=2)
    assert len(reduced) > 200 * 17
    assert (counts == 2).all()
    assert not core.is_minimal_batch(np.array(reduced)).any()


def test_a_puzzle_with_a_redundant_given_is_unique_but_not_minimal(cb_grids):
    puzzle = cb_grids[0].copy()
    _, solution = core.solution_status(puzzle)
    empty_cell = int(np.flatnonzero(puzzle == 0)[0])
    puzzle[empty_cell] = solution[empty_cell]
    assert core.count_solutions(puzzle) == 1
    assert not core.is_minimal(puzzle)


def test_counting_with_a_digit_excluded_splits_the_solutions(cb_grids):
    grids = core.random_grids(40, seed=12)
    for grid, puzzle in zip(grids, random_subsets(grids, 38, seed=3)):
        cell = int(np.flatnonzero(puzzle == 0)[0])
        digit = int(grid[cell])
        with_digit = puzzle.copy()
        with_digit[cell] = digit
        total = core.count_solutions(puzzle, limit=10**6)
        assert total < 10**6
        assert core.count_solutions_excluding(puzzle, cell, digit, limit=10**6) + \
            core.count_solutions(with_digit, limit=10**6) == total
    puzzle = cb_grids[5].copy()
    solution = core.solve(puzzle)
    given = int(np.flatnonzero(puzzle)[0])
    puzzle[given] = 0  # minimal: the removed given was necessary, so another digit fits there
    assert core.count_solutions_excluding(puzzle, given, solution[given]) == 1
    assert core.count_solutions_excluding(cb_grids[5], given, solution[given]) == 0
    with pytest.raises(ValueError):
        core.count_solutions_excluding(puzzle, 81, 1)


# ---- counts: 0, 1, many -------------------------------------------------------------------------

def test_the_empty_grid_has_many_solutions_counted_up_to_the_limit():
    assert core.count_solutions(EMPTY) == 2
    assert core.count_solutions(EMPTY, limit=1000) == 1000
    assert core.solve(EMPTY) is None
    assert not core.is_minimal(EMPTY)


def test_contradictory_givens_have_no_solution():
    row_clash = [0] * 81
    row_clash[0] = row_clash[8] = 5
    box_clash = [0] * 81
    box_clash[0], box_clash[10] = 3, 3
    assert core.solution_status(row_clash) == (0, None)
    assert core.count_solutions(box_clash, limit=5) == 0
    assert not core.is_minimal(row_clash)


def test_a_cell_with_no_candidate_left_means_no_solution():
    grid = [0] * 81
    grid[1:9] = [1, 2, 3, 4, 5, 6, 7, 8]  # r1c1 must be 9 ...
    grid[9 * 4] = 9                        # ... but r5c1 is 9
    assert core.count_solutions(grid) == 0
    assert reference_count(grid)[0] == 0


def test_a_deadly_rectangle_gives_exactly_two_solutions():
    grid = core.random_grid(7).to_list()
    # find rows r1, r2 in one band and columns c1, c2 in two stacks with a/b crossed
    for r1 in range(9):
        for r2 in range(r1 + 1, 3 * (r1 // 3) + 3):
            for c1 in range(9):
                for c2 in range(3 * (c1 // 3) + 3, 9):
                    a, b = grid[9 * r1 + c1], grid[9 * r1 + c2]
                    if grid[9 * r2 + c1] == b and grid[9 * r2 + c2] == a:
                        holes = list(grid)
                        for cell in (9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2):
                            holes[cell] = 0
                        assert core.count_solutions(holes, limit=10) == 2
                        assert reference_count(holes, limit=10)[0] == 2
                        return
    pytest.skip("no deadly rectangle in this grid")


def test_a_complete_grid_is_its_own_unique_solution_and_minimal_only_if_81_clues_needed():
    grid = core.random_grid(3)
    assert core.solve(grid) == grid
    assert not core.is_minimal(grid)  # any single cell of a complete grid is redundant


# ---- cross-check with the reference solver -------------------------------------------------------

def test_the_core_agrees_with_the_reference_solver_on_a_mixed_sample(cb_grids):
    rng = random.Random(11)
    sample = [cb_grids[i] for i in rng.sample(range(len(cb_grids)), 150)]
    grids = core.random_grids(600, seed=5)
    for clues in (24, 28, 32, 36, 40, 50):
        sample.extend(random_subsets(grids[:100], clues, seed=clues))
    for grid in cb_grids[:400]:  # mutated published puzzles: mostly 0 solutions, some contradictory
        mutated = grid.copy()
        for _ in range(rng.randint(1, 3)):
            mutated[rng.randrange(81)] = rng.randint(0, 9)
        sample.append(mutated)
    batch = np.array(sample, dtype=np.uint8)
    counts, solutions = core.count_solutions_batch(batch, limit=2)
    seen = set()
    for grid, count, solution in zip(batch, counts, solutions):
        expected, first = reference_count(grid.tolist(), limit=2)
        assert count == expected, "".join(map(str, grid))
        seen.add(expected)
        if expected == 1:
            assert solution.tolist() == first
    assert seen == {0, 1, 2}
    assert len(batch) >= 1000


# ---- random grids ---------------------------------------------------------------------------------

def test_random_grids_are_valid_and_reproducible():
    grids = core.random_grids(2000, seed=42)
    assert grids_valid(grids).all()
    assert (core.random_grids(2000, seed=42) == grids).all()
    assert core.random_grid(42).to_list() == grids[0].tolist()
    assert len({g.tobytes() for g in grids}) == 2000
    other = core.random_grids(2000, seed=43)
    assert not (other == grids).all(axis=1).any()


def test_random_grid_weights_come_with_the_same_grids_and_estimate_the_completions_of_a_box():
    grids, weights = core.random_grid_weights(3000, seed=8)
    assert (grids == core.random_grids(3000, seed=8)).all()
    assert (weights >= 1).all()
    completions_of_box_1 = 6670903752021072936960 / 362880  # all grids / 9!
    assert abs(weights.mean() / completions_of_box_1 - 1) < 0.2


def test_grid_weights_are_positive_for_complete_grids_only_and_ignore_digit_names():
    grids = core.random_grids(20, seed=4)
    weights = core.grid_weights(grids)
    assert (weights >= 1).all()
    names = np.concatenate([[0], np.random.default_rng(1).permutation(9) + 1]).astype(np.uint8)
    assert (core.grid_weights(names[grids]) == weights).all()
    broken = grids.copy()
    broken[:, 0], broken[:, 1] = grids[:, 1], grids[:, 1]
    holes = grids.copy()
    holes[:, 40] = 0
    assert (core.grid_weights(broken) == 0).all() and (core.grid_weights(holes) == 0).all()


def reference_path_weight(grid):
    """1/P(grid | box 1) for the sampler of core.c, recomputed from its rule with the solver as the
    only oracle: rows top to bottom; in a row, the empty cell with fewest candidates (lowest column on
    ties); the product of each cell's candidates that have a completion (count_solutions >= 1)."""
    values = [int(v) for v in grid]
    partial = [v if k < 27 and k % 9 < 3 else 0 for k, v in enumerate(values)]

    def candidates(r, c):
        used = {partial[9 * r + j] for j in range(9)} | {partial[9 * i + c] for i in range(9)}
        used |= {partial[9 * (3 * (r // 3) + i) + 3 * (c // 3) + j] for i in range(3) for j in range(3)}
        return [d for d in range(1, 10) if d not in used]

    weight = 1.0
    for r in range(9):
        empty = [c for c in range(9) if not partial[9 * r + c]]
        while empty:
            c = min(empty, key=lambda j: (len(candidates(r, j)), j))
            viable = 0
            for d in candidates(r, c):
                partial[9 * r + c] = d
                viable += core.count_solutions(partial, limit=1)
            assert viable >= 1
            weight *= viable
            partial[9 * r + c] = values[9 * r + c]
            empty.remove(c)
    return weight


def test_grid_weights_follow_the_sampler_rule_exactly():
    # grid_weights skips the candidates that propagation already rules out; the reference tests each
    grids = core.random_grids(12, seed=21)
    expected = [reference_path_weight(g) for g in grids]
    assert core.grid_weights(grids).tolist() == pytest.approx(expected, rel=1e-12)


def test_random_grids_use_every_digit_evenly_in_each_cell():
    grids = core.random_grids(9000, seed=1)
    per_cell = np.stack([(grids == d).sum(axis=0) for d in range(1, 10)])  # 9 x 81, mean 1000
    assert per_cell.min() > 800 and per_cell.max() < 1200


# ---- batch = single, argument checking, fuzzing -----------------------------------------------

def test_batch_functions_equal_single_functions(cb_grids):
    batch = np.concatenate([cb_grids[:50], random_subsets(core.random_grids(50, seed=9), 30, seed=1)])
    counts, solutions = core.count_solutions_batch(batch, limit=3)
    minimal = core.is_minimal_batch(batch)
    for grid, count, solution, flag in zip(batch, counts, solutions, minimal):
        assert core.count_solutions(grid, limit=3) == count
        assert _core.count_solutions(grid.tobytes(), 3)[1] == (solution.tobytes() if count else None)
        assert core.is_minimal(grid) == flag
    assert set(counts.tolist()) >= {1, 3}


def test_puzzles_strings_and_lists_are_accepted_alike(cb_grids):
    grid = cb_grids[3]
    text = "".join(str(v) if v else "." for v in grid)
    puzzle = Puzzle(grid.tolist())
    solution = core.solve(puzzle)
    assert core.solve(text) == solution == core.solve(grid.tolist()) == core.solve(grid.tobytes())
    assert (core.as_array([puzzle, text, grid.tolist()]) == grid).all()
    assert core.as_array([]).shape == (0, 81)


@pytest.mark.parametrize("bad", [
    np.zeros((3, 80), dtype=np.uint8),
    np.zeros(81, dtype=np.uint8),
    np.full((2, 81), 10, dtype=np.uint8),
    np.full((2, 81), -1, dtype=np.int64),
    np.zeros((2, 81), dtype=np.float64),
])
def test_bad_batches_are_clean_value_errors(bad):
    with pytest.raises(ValueError):
        core.count_solutions_batch(bad)


def test_bad_single_puzzles_and_arguments_are_clean_value_errors():
    for bad in ([0] * 80, [10] + [0] * 80, "12x" + "." * 78, "." * 80):
        with pytest.raises(ValueError):
            core.count_solutions(bad)
    with pytest.raises(ValueError):
        core.count_solutions(EMPTY, limit=0)
    with pytest.raises(ValueError):
        core.random_grid(-1)
    with pytest.raises(ValueError):
        core.random_grids(-1, seed=0)
    with pytest.raises(ValueError):
        _core.count_solutions(b"\0" * 80)


def test_non_contiguous_and_wider_integer_batches_are_handled(cb_grids):
    wide = cb_grids[:20].astype(np.int64)
    strided = np.repeat(cb_grids[:20], 2, axis=1)[:, ::2]
    for batch in (wide, strided):
        counts, _ = core.count_solutions_batch(batch)
        assert (counts == 1).all()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=81, max_size=81))
def test_random_bytes_never_crash_the_raw_core(data):
    count, solution = _core.count_solutions(data, 2)
    assert count in (0, 1, 2)
    minimal = _core.is_minimal(data)
    if any(v > 9 for v in data):
        assert count == 0 and not minimal
    if count:
        assert is_valid_grid(solution)
        assert all(g in (0, s) for g, s in zip(data, solution))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=81, max_size=81))
def test_random_value_grids_give_consistent_answers(values):
    count, solution = core.solution_status(values)
    has_clash = any(v and any(values[p] == v for p in PEERS[c]) for c, v in enumerate(values))
    if has_clash:
        assert count == 0
    if solution is not None:
        assert is_valid_grid(solution) and all(v in (0, s) for v, s in zip(values, solution))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 21694), st.lists(st.tuples(st.integers(0, 80), st.integers(0, 9)),
                                       min_size=1, max_size=4))
def test_mutated_published_puzzles_agree_with_the_reference(cb_grids, index, changes):
    grid = cb_grids[index].copy()
    for cell, value in changes:
        grid[cell] = value
    count, solution = core.solution_status(grid)
    expected, first = reference_count(grid.tolist(), limit=2)
    assert count == expected
    if count == 1:
        assert solution.to_list() == first


def test_a_single_emptied_by_an_earlier_single_of_its_band_is_a_contradiction_not_a_crash():
    # Regression: placing one naked single removed the only candidate of another single's cell in
    # the same band; the digit search then read past the band's nine candidate masks.
    text = "982040030000210009106839000000005000000480700820100064000300075030000200000600340"
    expected = reference_count([int(c) for c in text])[0]
    assert core.count_solutions(text) == expected


def test_the_core_refuses_with_the_packages_errors():
    """What is no puzzle, no array of puzzles or no usable count is the package's own error (still a
    ValueError, as the core's functions said): count_solutions(5) was numpy's bare ValueError, a bad
    string C's."""
    from sudorules.errors import OptionError, PuzzleError

    no_puzzles = [lambda: core.count_solutions(5), lambda: core.count_solutions("x" * 81),
                  lambda: core.solution_status("12"), lambda: core.is_minimal([1, 2]),
                  lambda: core.count_solutions_batch(np.zeros((2, 80), np.uint8)),
                  lambda: core.count_solutions_masks(np.full((1, 81), 1024, np.uint16))]
    for call in no_puzzles:
        with pytest.raises(PuzzleError):
            call()
    for call in (lambda: core.random_grids(-1, 1), lambda: core.random_grid(-1),
                 lambda: core.count_solutions("." * 81, limit=0)):
        with pytest.raises(OptionError):
            call()
    assert issubclass(PuzzleError, ValueError) and issubclass(OptionError, ValueError)
