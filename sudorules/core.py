"""The compiled bitset core: solution counting, uniqueness, minimality and random complete grids.

A narrow Python API over the C extension :mod:`sudorules._core` (sources in ``generator/``; the bit
layout and the random-grid sampling are documented at the top of ``generator/core.c``).

Single-puzzle functions take a :class:`~sudorules.puzzle.Puzzle`, a puzzle string or any 81 values;
batch functions take an ``(N, 81)`` array of values 0..9 (``uint8`` and C-contiguous avoids a copy)
and run the whole batch in C without the GIL.  A wrong shape or a value above 9 is rejected here with
a :class:`~sudorules.errors.PuzzleError` (a ValueError: ``count_solutions(5)`` was numpy's bare one);
contradictory givens are not an error: such a grid simply has 0 solutions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional, Union

from . import _core
from .errors import OptionError, PuzzleError
from .puzzle import Puzzle, grid_values

if TYPE_CHECKING:
    import numpy as np  # imported where used: one puzzle's check needs no numpy (start-up, issue 23)

PuzzleLike = Union[Puzzle, str, bytes, Iterable[int]]

__all__ = [
    "as_array",
    "count_solutions",
    "count_solutions_masks",
    "count_solutions_batch",
    "count_solutions_excluding",
    "grid_weights",
    "is_minimal",
    "is_minimal_batch",
    "random_grid",
    "random_grid_weights",
    "random_grids",
    "solution_status",
    "solve",
]


def _grid_bytes(puzzle: PuzzleLike) -> bytes:
    """The 81 cell values of one puzzle as bytes, after checking length and range."""
    if isinstance(puzzle, Puzzle):
        return bytes(puzzle.givens)
    if isinstance(puzzle, str):
        return _string_bytes(puzzle)
    import numpy as np

    if isinstance(puzzle, (bytes, bytearray, memoryview)):
        array = np.frombuffer(puzzle, dtype=np.uint8)
    else:
        array = np.asarray(puzzle)
    if array.shape != (81,):
        raise PuzzleError(f"a puzzle must have 81 cells, got shape {array.shape}")
    return _checked(array.reshape(1, 81)).tobytes()


def _counted(text: str, limit: int) -> tuple[int, Optional[bytes]]:
    """``_core.count_solutions`` of a puzzle string, parsed in C: a text that is no grid is a
    PuzzleError, as the other forms give it (C's own ValueError otherwise)."""
    try:
        return _core.count_solutions(text, limit)
    except ValueError as error:
        raise PuzzleError(str(error)) from None


def _string_bytes(text: str) -> bytes:
    """The cells of a puzzle string (:func:`sudorules.puzzle.grid_values`: repeated digits allowed,
    the core answers 0 solutions for them); anything that is not a grid is a ValueError."""
    return bytes(grid_values(text))


def _checked(array: np.ndarray) -> np.ndarray:
    """``array`` as a C-contiguous uint8 (N, 81) array, or PuzzleError for bad shapes or values."""
    import numpy as np

    if array.ndim != 2 or array.shape[1] != 81:
        raise PuzzleError(f"expected an (N, 81) array of cell values, got shape {array.shape}")
    if array.dtype != np.uint8:
        if array.dtype.kind not in "iub":
            raise PuzzleError(f"cell values must be integers 0..9, got dtype {array.dtype}")
        if array.size and (array.min() < 0 or array.max() > 9):
            raise PuzzleError("cell values must be 0 (empty) or 1..9")
        array = array.astype(np.uint8)
    elif array.size and array.max() > 9:
        raise PuzzleError("cell values must be 0 (empty) or 1..9")
    return np.ascontiguousarray(array)


def as_array(puzzles: Union[np.ndarray, Iterable[PuzzleLike]]) -> np.ndarray:
    """An ``(N, 81)`` uint8 array from an array, or from Puzzles, puzzle strings or 81-value rows.

    Raises PuzzleError (a ValueError) for a wrong shape, a value outside 0..9, or a string that does
    not parse.
    """
    import numpy as np

    if isinstance(puzzles, np.ndarray):
        return _checked(puzzles)
    rows = [np.frombuffer(_grid_bytes(p), dtype=np.uint8) for p in puzzles]
    if not rows:
        return np.zeros((0, 81), dtype=np.uint8)
    return np.stack(rows)


def count_solutions(puzzle: PuzzleLike, limit: int = 2) -> int:
    """The number of solutions of ``puzzle``, counted up to ``limit`` (so 2 means "two or more").

    The search enumerates solutions one by one: its time grows with ``limit`` on puzzles with many
    solutions (the empty grid has 6.67e21)."""
    if isinstance(puzzle, str):  # parsed in C: one call costs about what one puzzle costs in batch
        return _counted(puzzle, _limit(limit))[0]
    count, _ = _core.count_solutions(_grid_bytes(puzzle), _limit(limit))
    return count


def count_solutions_excluding(puzzle: PuzzleLike, cell: int, digit: int, limit: int = 1) -> int:
    """The number of solutions of ``puzzle`` in which ``cell`` (0..80) does not hold ``digit`` (1..9),
    counted up to ``limit``.  If a puzzle has the unique solution S, removing its given at ``cell``
    keeps the solution unique exactly when ``count_solutions_excluding(reduced, cell, S[cell]) == 0``,
    a cheaper search than ``count_solutions(reduced)``."""
    count, _ = _core.count_excluding(_grid_bytes(puzzle), int(cell), int(digit), _limit(limit))
    return count


def solution_status(puzzle: PuzzleLike) -> tuple[int, Optional[Puzzle]]:
    """``(count, solution)``: count 0, 1 or 2 (two or more); the solution only when it is unique.
    A pencilmark puzzle counts the solutions its candidates allow."""
    if isinstance(puzzle, str):
        count, solution = _counted(puzzle, 2)
        return count, (Puzzle(solution) if count == 1 else None)
    if isinstance(puzzle, Puzzle) and puzzle.is_pencilmark:
        import numpy as np

        counts, solutions = count_solutions_masks(np.array([puzzle.marks], dtype=np.uint16))
        count = int(counts[0])
        return count, (Puzzle(solutions[0].tolist()) if count == 1 else None)
    count, solution = _core.count_solutions(_grid_bytes(puzzle), 2)
    return count, (Puzzle(solution) if count == 1 else None)


def count_solutions_masks(masks: np.ndarray, limit: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, solutions)`` for pencilmark puzzles: ``masks`` is an ``(N, 81)`` or ``(N, 9, 9)``
    array of digit masks (bit d-1 for digit d; a cell with one digit is decided, with none makes the
    count 0).  Counts are int32, at most ``limit``; solutions ``(N, 81)`` uint8, zeros when none."""
    import numpy as np

    array = np.asarray(masks)
    if array.ndim == 3 and array.shape[1:] == (9, 9):
        array = array.reshape(len(array), 81)
    if array.ndim != 2 or array.shape[1] != 81:
        raise PuzzleError(f"masks must have shape (N, 81) or (N, 9, 9), got {array.shape}")
    if array.size and (array.min() < 0 or array.max() > 0x1FF):
        raise PuzzleError("masks must be 9-bit digit masks (0..511)")
    array = np.ascontiguousarray(array, dtype=np.uint16)
    counts = np.empty(len(array), dtype=np.int32)
    solutions = np.empty((len(array), 81), dtype=np.uint8)
    _core.count_masked_batch(array, _limit(limit), counts, solutions)
    return counts, solutions


def solve(puzzle: PuzzleLike) -> Optional[Puzzle]:
    """The unique solution of ``puzzle``; None when it has no solution or several."""
    return solution_status(puzzle)[1]


def is_minimal(puzzle: PuzzleLike) -> bool:
    """True when ``puzzle`` has exactly one solution and removing any given gives two or more."""
    return _core.is_minimal(_grid_bytes(puzzle))


def random_grid(seed: int) -> Puzzle:
    """A random complete valid grid; the same seed gives the same grid (``random_grids(1, seed)[0]``).

    Sampling: random-choice backtracking followed by a random symmetry of the grid; exactly uniform
    within each equivalence class of grids, not uniform across classes (see core.c and
    :func:`random_grid_weights`).
    """
    return Puzzle(_core.random_grid(_seed(seed)))


def count_solutions_batch(puzzles: Union[np.ndarray, Iterable[PuzzleLike]],
                          limit: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, solutions)`` for an ``(N, 81)`` batch: counts (int32, at most ``limit``) and the
    first solution found for each puzzle (an ``(N, 81)`` uint8 array, all zeros when there is none)."""
    import numpy as np

    grids = as_array(puzzles)
    counts = np.empty(len(grids), dtype=np.int32)
    solutions = np.empty_like(grids)
    _core.count_solutions_batch(grids, _limit(limit), counts, solutions)
    return counts, solutions


def is_minimal_batch(puzzles: Union[np.ndarray, Iterable[PuzzleLike]]) -> np.ndarray:
    """A boolean array: for each puzzle of the batch, whether it is unique and minimal."""
    import numpy as np

    grids = as_array(puzzles)
    flags = np.empty(len(grids), dtype=np.uint8)
    _core.is_minimal_batch(grids, flags)
    return flags.astype(bool)


def random_grids(n: int, seed: int) -> np.ndarray:
    """``n`` random complete grids as an ``(n, 81)`` uint8 array, from one generator seeded with
    ``seed`` (the same seed gives the same grids; the first is ``random_grid(seed)``)."""
    import numpy as np

    if n < 0:
        raise OptionError(f"n must be >= 0, got {n}")
    grids = np.empty((n, 81), dtype=np.uint8)
    _core.random_grids_into(grids, _seed(seed))
    return grids


def random_grid_weights(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The grids of ``random_grids(n, seed)`` and, for each, the inverse of the probability with which
    the random search drew it given box 1 (a float64 array; slower, for measuring the sampling bias).

    Uniform sampling would give every grid the same weight; the mean weight estimates the number of
    completions of a box 1, 6670903752021072936960 / 9!  (see generator/core.c).
    """
    import numpy as np

    if n < 0:
        raise OptionError(f"n must be >= 0, got {n}")
    grids = np.empty((n, 81), dtype=np.uint8)
    weights = np.empty(n, dtype=np.float64)
    _core.random_grid_weights_into(grids, weights, _seed(seed))
    return grids, weights


def grid_weights(grids: Union[np.ndarray, Iterable[PuzzleLike]]) -> np.ndarray:
    """For each complete grid, the inverse of the probability with which the random search of
    :func:`random_grids` draws it from its own box 1, before the final symmetry (float64; 0 for a
    grid that is not complete and valid).  Averaging ``N1 / w`` over the symmetries of a grid gives
    its class's sampling probability relative to uniform (benchmarks/bench_core.py does it)."""
    import numpy as np

    array = as_array(grids)
    weights = np.empty(len(array), dtype=np.float64)
    _core.grid_weights(array, weights)
    return weights


def _limit(limit: int) -> int:
    limit = int(limit)
    if not 1 <= limit <= 2**31 - 1:
        raise OptionError(f"limit must be between 1 and 2**31-1, got {limit}")
    return limit


def _seed(seed: int) -> int:
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise OptionError(f"seed must be an integer in [0, 2**64), got {seed}")
    return seed
