"""The Sudoku board: cells, digits, candidates (labels) and puzzles.

Conventions follow the resolution-rule literature (SPEC §1): rows, columns, blocks and digits run
from 1 to 9; a *cell* is an integer 0..80 in row-major order; a *candidate* (a "label") is the triple
(digit, row, column), named ``n5r3c7``.  A :class:`Puzzle` is an immutable 81-tuple of givens, 0 for
an empty cell.  Everything here is pure Python; the compiled bitset core lives in
:mod:`sudorules.core`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence

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


# --- Text: the one parser of puzzle grids (files and records are sudorules.reader's) -------------
#
# Accepted forms (SPEC §1.4): one line of 81 grid characters, 1-9 for givens and . or 0 for empty
# cells, with spaces and the layout characters | + - between them; whatever follows the 81st grid
# character (after white space) is the record's tail (the published controlled-bias collection puts
# the generator's tries count there).  Or the multi-line grid: nine lines of nine grid characters,
# optionally with | ! + - and spaces, and border lines made only of layout characters.  Blank lines,
# lines starting with # and a UTF-8 byte-order mark are skipped; a line of 729 candidate characters
# (a pencilmark or "sukaku" puzzle) is named as such.

GRID_CHARS = frozenset("123456789.0")
LAYOUT_CHARS = frozenset(" \t|!+-=:")
BOM = "\ufeff"
#: grid characters of a pencilmark (sukaku) line: 9 candidate positions for each of the 81 cells
PENCILMARK_LENGTH = 729


def scan_line(line: str) -> tuple[list[int], Optional[str], str]:
    """Split a line into its grid values, a bad-character reason (or None) and the tail.

    Reads grid characters (skipping layout characters) until 81 are collected; the rest of the line is
    the tail, which must be separated from the grid by whitespace.
    """
    values: list[int] = []
    for position, char in enumerate(line, start=1):
        if len(values) == 81:
            rest = line[position - 1:]
            if not rest[:1].isspace():
                if sum(c in GRID_CHARS for c in line.split()[0]) == PENCILMARK_LENGTH:
                    return values, ("pencilmark input (729 candidate characters, 9 per cell) is not "
                                    "supported yet: give the puzzle as 81 grid characters"), ""
                return values, "wrong length: more than 81 grid characters", ""
            return values, None, rest.strip()
        if char in GRID_CHARS:
            values.append(0 if char in ".0" else int(char))
        elif char not in LAYOUT_CHARS:
            return values, f"bad character {char!r} at column {position}", ""
    return values, None, ""


def _validated(values: list[int]) -> "Puzzle":
    if len(values) != 81:
        raise PuzzleError(f"wrong length: {len(values)} grid characters, expected 81")
    puzzle = Puzzle(values)
    conflicts = puzzle.conflicts()
    if conflicts:
        raise PuzzleError(conflicts[0])
    return puzzle


def parse_puzzle(text: str) -> "Puzzle":
    """Parse one puzzle given as a single line or as a multi-line grid; raise PuzzleError if invalid.

    A tail after the 81 grid characters of a single line is ignored (use :func:`read_puzzles` to keep it).
    """
    records = list(parse_lines(text.splitlines()))
    if not records:
        raise PuzzleError("empty input: no puzzle")
    if len(records) > 1:
        raise PuzzleError(f"expected one puzzle, found {len(records)} records")
    _, _, puzzle, error, _ = records[0]
    if puzzle is None:
        raise PuzzleError(error or "invalid puzzle")
    return puzzle


#: one parsed record: (first line number, its text, the puzzle or None, the reason or None, the tail)
ParsedRecord = tuple[int, str, Optional["Puzzle"], Optional[str], str]


def parse_lines(lines: Iterable[str]) -> Iterator[ParsedRecord]:
    """Parse text lines into one record per puzzle, valid or not, in input order (the forms of
    :mod:`sudorules.reader`): a bad line never stops parsing."""
    pending: list[tuple[int, str, list[int]]] = []  # rows of a multi-line grid being read

    def flush_incomplete() -> Iterator[ParsedRecord]:
        if pending:
            first_line, first_text, _ = pending[0]
            yield (first_line, first_text, None, f"incomplete grid: {len(pending)} of 9 rows", "")
            pending.clear()

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM):]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        values, bad, tail = scan_line(line)
        if bad is None and not values:
            continue  # a border line of a multi-line grid
        if bad is None and len(values) == 9:
            pending.append((number, line, values))
            if len(pending) == 9:
                first_line, first_text, _ = pending[0]
                grid = [v for _, _, row in pending for v in row]
                pending.clear()
                yield _record(first_line, first_text, grid, "")
            continue
        yield from flush_incomplete()
        if bad is not None:
            yield (number, line, None, bad, "")
        else:
            yield _record(number, line, values, tail)
    yield from flush_incomplete()


def _record(number: int, text: str, values: list[int], tail: str) -> ParsedRecord:
    try:
        return (number, text, _validated(values), None, tail)
    except PuzzleError as error:
        return (number, text, None, str(error), tail)


def grid_values(text: str) -> list[int]:
    """The cell values of a puzzle string, one line or the grid form, no tail and no check of
    repeated digits (the compiled core answers 0 solutions for those): every grid character in
    order, layout characters and white space skipped; PuzzleError for any other character or a
    count other than 81."""
    values = []
    for char in text.lstrip(BOM):
        if char in GRID_CHARS:
            values.append(0 if char in ".0" else int(char))
        elif char not in LAYOUT_CHARS and not char.isspace():
            raise PuzzleError(f"bad character {char!r} in puzzle string")
    if len(values) != 81:
        raise PuzzleError(f"wrong length: {len(values)} grid characters, expected 81")
    return values
