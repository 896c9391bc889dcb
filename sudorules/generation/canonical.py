"""Canonical (minlex) forms: one representative for each class of equivalent puzzles.

Two puzzles are equivalent (isomorphs) when a *map* - a transposition or not, then permutations of
the bands, of the rows inside each band, of the stacks and of the columns inside each stack
(2 x 6^8 = 3,359,232 maps) - and a renaming of the digits take one to the other.  Equivalent
puzzles have the same *canonical form*: the smallest string of their class, reading row by row with
``.`` below ``1`` < ... < ``9`` (for a given map the best renaming numbers the digits in order of
first appearance: the "true minlex" form).  A pencilmark state is read as its 729-character string,
with a candidate below a non-candidate.  README "Canonical forms" states the convention and its
checks; generator/canon.c computes the forms (a complete grid in about 1.9 us, a 17-clue puzzle in
about 3.4 us, benchmarks/bench_canon.py).

>>> from sudorules.generation import canonical, canonicalize
>>> canonical("123456789456789123789123456231564897564897231897231564312645978645978312978312645")
'123456789456789123789123456231564897564897231897231564312645978645978312978312645'
>>> found = canonicalize("3.9...4..2..7.9....87......75..6.23.6..9.4..8.28.5..41......59....1.6..7..6...1.4")
>>> str(found.form), found.automorphisms
('.......12.....34.5.25...6......37..8...5.9....78.2.....53.1.8..8..4.629.9..37..61', 1)
>>> found.transform.apply("3.9...4..2..7.9....87......75..6.23.6..9.4..8.28.5..41......59....1.6..7..6...1.4") == found.form
True
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Union

import numpy as np

from .. import _canon
from ..core import as_array
from ..errors import InputError, OptionError, PuzzleError
from ..options import SEED_RANGE, check_whole
from ..puzzle import Puzzle
from ..reader import cell_array, check_many, clipped, looks_like_puzzle, not_a_puzzle

__all__ = ["Canonical", "Transform", "automorphisms", "canonical", "canonical_batch", "canonical_text",
           "canonical_texts", "canonicalize"]

#: what the C batch computes: puzzles (complete grids by the grid search), puzzles by the general
#: search only, complete grids only, pencilmark states
MODES = {"puzzle": 0, "search": 1, "grid": 2, "marks": 3}

#: bytes of one map in the C batch: transpose, rows[9], columns[9], digits[10]
MAP_BYTES = 29

PuzzleLike = Union[Puzzle, str]


@dataclass(frozen=True)
class Transform:
    """A map of the Sudoku group with a renaming of the digits.

    Output cell (i, j) is source cell (``rows[i]``, ``columns[j]``) of the source grid, transposed
    first when ``transpose``; digit d becomes ``digits[d]`` (``digits[0] == 0``: empty stays empty;
    in a pencilmark state, candidate d becomes candidate ``digits[d]``).
    """

    transpose: bool
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    digits: tuple[int, ...]

    def __post_init__(self) -> None:
        for name, lines in (("rows", self.rows), ("columns", self.columns)):
            chutes = [{line // 3 for line in lines[3 * k: 3 * k + 3]} for k in range(3)]
            if sorted(lines) != list(range(9)) or any(len(chute) != 1 for chute in chutes):
                raise ValueError(f"{name} must be 0..8 with each band or stack kept together: got {lines}")
        if len(self.digits) != 10 or self.digits[0] != 0 or sorted(self.digits[1:]) != list(range(1, 10)):
            raise ValueError(f"digits must rename 1..9 (and keep 0): got {self.digits}")

    @classmethod
    def from_bytes(cls, raw: Union[bytes, np.ndarray]) -> "Transform":
        """The map of the C batch layout (29 bytes: transpose, rows, columns, digits)."""
        values = [int(v) for v in bytes(raw)]
        return cls(bool(values[0]), tuple(values[1:10]), tuple(values[10:19]), tuple(values[19:29]))

    @classmethod
    def random(cls, rng: Union[np.random.Generator, _random.Random, int]) -> "Transform":
        """A uniformly random map and renaming, drawn from ``rng`` only: a numpy ``Generator``, a
        ``random.Random``, or a seed (a whole number 0..2**64-1, for ``np.random.default_rng``), so
        the same seed or the same generator state gives the same transform.  Anything else is an
        :class:`~sudorules.errors.OptionError` (a ``random.Random`` failed on ``.integers``)."""
        permutation, coin = _draws(rng)

        def lines() -> tuple[int, ...]:
            return tuple(3 * chute + line for chute in permutation(3) for line in permutation(3))
        transpose = coin()  # drawn first, as it always was: a Generator seeded as before gives the same maps
        rows, columns = lines(), lines()
        return cls(transpose, rows, columns, (0, *(d + 1 for d in permutation(9))))

    @property
    def cells(self) -> np.ndarray:
        """For each output cell (0..80), the source cell it comes from."""
        rows = np.array(self.rows)[:, None]
        columns = np.array(self.columns)[None, :]
        return (columns * 9 + rows if self.transpose else rows * 9 + columns).reshape(81)

    def apply_array(self, values: np.ndarray, *, marks: bool = False) -> np.ndarray:
        """The map applied to an array of shape ``(..., 81)``: cell values 0..9, or digit masks
        (bit d-1 for digit d) when ``marks``."""
        moved = np.asarray(values)[..., self.cells]
        if not marks:
            return np.asarray(self.digits, dtype=moved.dtype)[moved]
        renamed = np.zeros_like(moved)
        for digit in range(1, 10):
            renamed |= ((moved >> (digit - 1)) & 1) << (self.digits[digit] - 1)
        return renamed

    def apply(self, puzzle: PuzzleLike) -> Puzzle:
        """The map applied to a puzzle, a grid or a pencilmark puzzle (a string is parsed first)."""
        if isinstance(puzzle, str):
            puzzle = Puzzle.from_string(puzzle)
        if puzzle.is_pencilmark:
            return Puzzle.from_marks(self.apply_array(np.array(puzzle.marks), marks=True).tolist())
        return Puzzle(self.apply_array(np.array(puzzle.givens)).tolist())

    def inverse(self) -> "Transform":
        """The map that undoes this one."""
        row_places = tuple(int(i) for i in np.argsort(self.rows))
        column_places = tuple(int(j) for j in np.argsort(self.columns))
        names = [0] * 10
        for digit, name in enumerate(self.digits):
            names[name] = digit
        if self.transpose:
            return Transform(True, column_places, row_places, tuple(names))
        return Transform(False, row_places, column_places, tuple(names))


def _draws(rng: object) -> tuple[Callable[[int], list[int]], Callable[[], bool]]:
    """``(permutation, coin)`` drawing from ``rng`` (see :meth:`Transform.random`): ``permutation(n)``
    a random order of 0..n-1, ``coin()`` a random bool."""
    if isinstance(rng, _random.Random):
        return (lambda n: rng.sample(range(n), n)), (lambda: rng.randrange(2) == 1)
    if not isinstance(rng, np.random.Generator):
        try:
            rng = np.random.default_rng(check_whole(rng, "rng", *SEED_RANGE))
        except OptionError:  # None too: no seed, no reproducible draw
            reason = f"expected a numpy Generator, a random.Random or a seed 0..2**64-1, got {rng!r}"
            raise OptionError(f"rng: {reason}", reason) from None
    generator = rng
    return (lambda n: [int(k) for k in generator.permutation(n)]), (lambda: bool(generator.integers(2)))


@dataclass(frozen=True)
class Canonical:
    """A puzzle's canonical form, its number of automorphisms (maps of the 3,359,232 that give it
    back, up to a renaming) and the transform that takes the puzzle to its form."""

    form: Puzzle
    automorphisms: int
    transform: Transform


def canonical_batch(items: np.ndarray, *, marks: bool = False, mode: Optional[str] = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(forms, automorphisms, maps)`` of an ``(N, 81)`` batch, in C without the GIL.

    ``items`` are cell values 0..9 (uint8, as :func:`sudorules.core.as_array` gives), or digit
    masks (uint16, bit d-1 for digit d) when ``marks``.  ``forms`` has the input's shape and dtype,
    ``automorphisms`` is int64, ``maps`` is ``(N, 29)`` uint8 (:meth:`Transform.from_bytes`).
    ``mode`` ``"search"`` forces the general search on complete grids, ``"grid"`` takes complete
    valid grids only (others: ValueError); both are for tests and benchmarks.
    """
    if marks:
        array = np.asarray(items)
        if array.ndim != 2 or array.shape[1] != 81:
            raise ValueError(f"expected an (N, 81) array of digit masks, got shape {array.shape}")
        if array.size and (array.min() < 0 or array.max() > 0x1FF):
            raise ValueError("digit masks must be 9-bit values (0..511)")
        array = np.ascontiguousarray(array, dtype=np.uint16)
        code = MODES["marks"]
    else:
        array = as_array(items)
        code = MODES[mode or "puzzle"]
        if code == MODES["marks"]:
            raise ValueError("use marks=True for pencilmark states")
    forms = np.empty_like(array)
    counts = np.empty(len(array), dtype=np.int64)
    maps = np.empty((len(array), MAP_BYTES), dtype=np.uint8)
    statuses = np.empty(len(array), dtype=np.int8)
    _canon.canonical_batch(array, code, forms, counts, maps, statuses)
    if (statuses != 0).any():
        bad = int(np.flatnonzero(statuses != 0)[0])
        raise ValueError(f"item {bad} is not a complete valid grid" if code == MODES["grid"]
                         else f"item {bad} cannot be canonicalised (values out of range)")
    return forms, counts, maps


def _puzzle(item: PuzzleLike) -> Puzzle:
    """A puzzle, or its text parsed; PuzzleError for anything else (a missing value of a Series was
    parsed as the text "None")."""
    why = not_a_puzzle(item)
    if why is not None:
        raise PuzzleError(why)
    return item if isinstance(item, Puzzle) else Puzzle.from_string(item)


def _forms(puzzles: list[Puzzle]) -> tuple[list[Puzzle], list[int], list[Transform]]:
    """Forms, automorphism counts and transforms of parsed puzzles, plain and pencilmark alike."""
    forms: list[Optional[Puzzle]] = [None] * len(puzzles)
    counts = [0] * len(puzzles)
    transforms: list[Optional[Transform]] = [None] * len(puzzles)
    for marks in (False, True):
        where = [i for i, p in enumerate(puzzles) if p.is_pencilmark == marks]
        if not where:
            continue
        if marks:
            array = np.array([puzzles[i].marks for i in where], dtype=np.uint16)
        else:
            array = np.array([puzzles[i].givens for i in where], dtype=np.uint8)
        done, found, maps = canonical_batch(array, marks=marks)
        for k, i in enumerate(where):
            forms[i] = Puzzle.from_marks(done[k].tolist()) if marks else Puzzle(done[k].tolist())
            counts[i] = int(found[k])
            transforms[i] = Transform.from_bytes(maps[k])
    return forms, counts, transforms  # type: ignore[return-value]


def canonical_texts(puzzles: list[Puzzle]) -> list[str]:
    """The forms of parsed puzzles as text (81 characters, 729 for a pencilmark puzzle), in one C
    batch per kind: what the ``canonical`` columns of ``check`` and ``rate`` hold."""
    return [str(form) for form in _forms(puzzles)[0]]


def canonical_text(text: str) -> str:
    """The form of one puzzle text as text, or ``""`` when the text is not a valid puzzle (the
    ``canonical`` cell of a ``rate`` row, whose puzzle is the raw line when it did not parse)."""
    try:
        return canonical_texts([Puzzle.from_string(text)])[0]
    except PuzzleError:
        return ""


def canonicalize(puzzle: PuzzleLike) -> Canonical:
    """The canonical form of one puzzle, grid or pencilmark puzzle, with its automorphisms and the
    transform that takes it there (a string is parsed and checked as ``Puzzle.from_string`` does)."""
    forms, counts, transforms = _forms([_puzzle(puzzle)])
    return Canonical(forms[0], counts[0], transforms[0])


#: what :func:`canonical` and :func:`automorphisms` take, for the error that names anything else
_EXPECTED = "a puzzle, an iterable of puzzles (a list, a pandas Series) or an (N, 81) array of cell values"


def _puzzles(puzzles: object) -> Union[PuzzleLike, np.ndarray, list[Puzzle]]:
    """One puzzle as it is, an array of cell values as it is, or the parsed puzzles of an iterable.

    An array of strings (or of objects: strings, Puzzles, missing values) is read as the list it holds,
    as ``rate`` and ``check`` read it, not as cell values; anything that is no puzzle and cannot hold
    puzzles (None, a number, bytes, a mapping, a DataFrame) is an
    :class:`~sudorules.errors.InputError`, as for ``rate``; so is one string that does not look like a
    puzzle (``"puzzles"``, a file's name), as ``solve``, ``rate`` and ``check`` tell it (they read files,
    these do not); a string that looks like a puzzle but is none gets the PuzzleError of its parse."""
    if isinstance(puzzles, np.ndarray) and puzzles.dtype.kind in "UO":
        puzzles = puzzles.tolist()  # a 0-d array gives its one string
    if isinstance(puzzles, str) and not looks_like_puzzle(puzzles):
        raise InputError(f"{clipped(puzzles)}: not a puzzle (81 grid characters, 1-9 and . or 0); canonical "
                         f"and automorphisms read no file")
    if isinstance(puzzles, (str, Puzzle, np.ndarray)):
        return puzzles
    check_many(puzzles, _EXPECTED)
    return [_puzzle(p) for p in puzzles]


def _array_batch(array: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`canonical_batch` of a user's array of cell values, checked by
    :func:`~sudorules.reader.cell_array` (a shape other than (N, 81), a value outside 0..9: the
    InputError the API promises for what holds no puzzles, as rate and check give it).  The values
    are not checked as puzzles (no repeated digit): an array is the fast path."""
    return canonical_batch(cell_array(array))


def canonical(puzzles: Union[PuzzleLike, np.ndarray, Iterable[PuzzleLike]]):
    """Canonical forms: of an ``(N, 81)`` array of cell values, an array of forms; of one puzzle
    (a string or a :class:`Puzzle`), its form as a string; of an iterable of them (or an array of
    strings), a list of strings (729 characters for a pencilmark puzzle).  Strings are parsed and
    checked as ``Puzzle.from_string`` does (:class:`~sudorules.puzzle.PuzzleError`); array values must
    be 0..9; anything else is an :class:`~sudorules.errors.InputError`.  For pencilmark arrays use
    :func:`canonical_batch` with ``marks=True``."""
    puzzles = _puzzles(puzzles)
    if isinstance(puzzles, np.ndarray):
        return _array_batch(puzzles)[0]
    if isinstance(puzzles, (str, Puzzle)):
        return str(canonicalize(puzzles).form)
    return canonical_texts(puzzles)


def automorphisms(puzzles: Union[PuzzleLike, np.ndarray, Iterable[PuzzleLike]]):
    """The number of automorphisms: an int for one puzzle, an int64 array for an array, a list of
    ints for an iterable (inputs as :func:`canonical`)."""
    puzzles = _puzzles(puzzles)
    if isinstance(puzzles, np.ndarray):
        return _array_batch(puzzles)[1]
    if isinstance(puzzles, (str, Puzzle)):
        return canonicalize(puzzles).automorphisms
    return _forms(puzzles)[1]
