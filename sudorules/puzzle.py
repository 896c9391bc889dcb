"""The Sudoku board: cells, digits, candidates (labels) and puzzles.

Conventions follow the resolution-rule literature (SPEC §1): rows, columns, blocks and digits run
from 1 to 9; a *cell* is an integer 0..80 in row-major order; a *candidate* (a "label") is the triple
(digit, row, column), named ``n5r3c7``.  A :class:`Puzzle` is an immutable 81-tuple of givens, 0 for
an empty cell.  Everything here is pure Python; the compiled bitset core lives in
:mod:`sudorules.core`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from .errors import SudorulesError

DIGITS = range(1, 10)
ROWS = range(1, 10)
COLUMNS = range(1, 10)
BLOCKS = range(1, 10)
CELLS = range(81)

Cell = int
Digit = int


class PuzzleError(SudorulesError, ValueError):
    """A puzzle text that is not a valid Sudoku puzzle; the message gives the reason."""


def cell_at(row: int, column: int) -> Cell:
    """The cell index (0..80) of row ``row`` and column ``column`` (both 1..9)."""
    return 9 * (row - 1) + (column - 1)


def row_of(cell: Cell) -> int:
    """The row (1..9) of a cell."""
    return cell // 9 + 1


def column_of(cell: Cell) -> int:
    """The column (1..9) of a cell."""
    return cell % 9 + 1


def block_of(cell: Cell) -> int:
    """The block (1..9, row-major) of a cell: ``3*((r-1)//3) + (c-1)//3 + 1``."""
    return 3 * ((cell // 9) // 3) + (cell % 9) // 3 + 1


def square_of(cell: Cell) -> int:
    """The position (1..9, row-major) of a cell inside its block."""
    return 3 * ((cell // 9) % 3) + (cell % 9) % 3 + 1


def cell_name(cell: Cell) -> str:
    """The printed name of a cell, e.g. ``r3c7``."""
    return f"r{row_of(cell)}c{column_of(cell)}"


def row_cells(row: int) -> tuple[Cell, ...]:
    """The nine cells of a row."""
    return tuple(cell_at(row, c) for c in COLUMNS)


def column_cells(column: int) -> tuple[Cell, ...]:
    """The nine cells of a column."""
    return tuple(cell_at(r, column) for r in ROWS)


def block_cells(block: int) -> tuple[Cell, ...]:
    """The nine cells of a block, in row-major order."""
    r0, c0 = 3 * ((block - 1) // 3) + 1, 3 * ((block - 1) % 3) + 1
    return tuple(cell_at(r0 + i, c0 + j) for i in range(3) for j in range(3))


#: The 27 units as (kind, index, cells), kind in ``row``, ``column``, ``block``.
UNITS: tuple[tuple[str, int, tuple[Cell, ...]], ...] = (
    tuple(("row", i, row_cells(i)) for i in ROWS)
    + tuple(("column", i, column_cells(i)) for i in COLUMNS)
    + tuple(("block", i, block_cells(i)) for i in BLOCKS)
)

#: PEERS[cell]: the 20 other cells sharing a row, column or block with ``cell``.
PEERS: tuple[frozenset[Cell], ...] = tuple(
    frozenset(
        other
        for _, _, cells in UNITS
        if cell in cells
        for other in cells
        if other != cell
    )
    for cell in CELLS
)


@dataclass(frozen=True, order=True)
class Candidate:
    """A label: "digit ``digit`` in the cell at ``row``, ``column``"."""

    digit: Digit
    row: int
    column: int

    @property
    def cell(self) -> Cell:
        """The cell index (0..80) of this candidate."""
        return cell_at(self.row, self.column)

    @property
    def block(self) -> int:
        """The block (1..9) of this candidate's cell."""
        return block_of(self.cell)

    @property
    def label(self) -> int:
        """SudoRules' integer encoding ``100*n + 10*r + c``."""
        return 100 * self.digit + 10 * self.row + self.column

    @classmethod
    def of(cls, digit: Digit, cell: Cell) -> "Candidate":
        """The candidate of ``digit`` in ``cell``."""
        return cls(digit, row_of(cell), column_of(cell))

    def is_linked(self, other: "Candidate") -> bool:
        """True when the two labels can never both be true (same cell, or same digit in a common unit)."""
        if self == other:
            return False
        if self.cell == other.cell:
            return True
        return self.digit == other.digit and other.cell in PEERS[self.cell]

    def __str__(self) -> str:
        return f"n{self.digit}r{self.row}c{self.column}"

    @classmethod
    def parse(cls, text: str) -> "Candidate":
        """The candidate named ``n5r3c7`` (the inverse of ``str``); PuzzleError otherwise."""
        if (len(text) == 6 and text[0] == "n" and text[2] == "r" and text[4] == "c"
                and all(text[i] in "123456789" for i in (1, 3, 5))):
            return cls(int(text[1]), int(text[3]), int(text[5]))
        raise PuzzleError(f"not a candidate name (like n5r3c7): {text!r}")


class Puzzle:
    """An immutable 9x9 puzzle: the digit given in each cell, 0 for an empty cell.

    The constructor only checks shape and range; :meth:`conflicts` finds repeated digits and
    :meth:`from_string` (the usual entry point) rejects them.
    """

    __slots__ = ("_givens",)

    def __init__(self, givens: Iterable[int]):
        values = tuple(int(v) for v in givens)
        if len(values) != 81:
            raise PuzzleError(f"wrong length: {len(values)} cells, expected 81")
        if any(not 0 <= v <= 9 for v in values):
            raise PuzzleError("cell values must be 0 (empty) or 1..9")
        self._givens = values

    @classmethod
    def from_string(cls, text: str) -> "Puzzle":
        """Parse one puzzle (one line of 81 characters or the multi-line grid form) and validate it."""
        from .reader import parse_puzzle  # local import: reader depends on this module

        return parse_puzzle(text)

    @property
    def givens(self) -> tuple[int, ...]:
        """The 81 cell values, row-major, 0 for empty."""
        return self._givens

    @property
    def clues(self) -> int:
        """The number of givens."""
        return sum(1 for v in self._givens if v)

    def __getitem__(self, cell: Cell) -> int:
        return self._givens[cell]

    def __iter__(self) -> Iterator[int]:
        return iter(self._givens)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and other._givens == self._givens

    def __hash__(self) -> int:
        return hash(self._givens)

    def __str__(self) -> str:
        return "".join(str(v) if v else "." for v in self._givens)

    def __repr__(self) -> str:
        return f"Puzzle('{self}')"

    def is_complete(self) -> bool:
        """True when every cell holds a digit."""
        return all(self._givens)

    def conflicts(self) -> list[str]:
        """Reasons the givens contradict each other, e.g. ``digit 5 repeated in row 3``; empty if none."""
        reasons = []
        for kind, index, cells in UNITS:
            seen: set[int] = set()
            for cell in cells:
                digit = self._givens[cell]
                if digit and digit in seen:
                    reasons.append(f"digit {digit} repeated in {kind} {index}")
                seen.add(digit)
        return reasons

    def candidates(self) -> dict[Cell, frozenset[Digit]]:
        """For each empty cell, the digits not excluded by a given in a peer cell (SPEC §1.4)."""
        result = {}
        for cell in CELLS:
            if not self._givens[cell]:
                used = {self._givens[p] for p in PEERS[cell]}
                result[cell] = frozenset(d for d in DIGITS if d not in used)
        return result

    def grid_text(self) -> str:
        """The multi-line grid form (``+-------+`` borders, ``!`` separators as SudoRules prints it)."""
        return format_grid([str(v) if v else "." for v in self._givens])

    def to_list(self) -> list[int]:
        """The 81 values as a list (0 for empty)."""
        return list(self._givens)


def format_grid(cells: Sequence[str]) -> str:
    """Pretty-print 81 cell texts as a grid, every cell padded to the widest one (SudoRules' layout)."""
    widths = [max(len(text) for text in cells)] * 3
    border = "+" + "+".join("-" * (3 * w + 4) for w in widths) + "+"
    lines = [border]
    for r in ROWS:
        parts = []
        for b in range(3):
            texts = [cells[cell_at(r, c)].ljust(widths[b]) for c in range(3 * b + 1, 3 * b + 4)]
            parts.append(" " + " ".join(texts) + " ")
        lines.append("!" + "!".join(parts) + "!")
        if r % 3 == 0:
            lines.append(border)
    return "\n".join(lines)
