"""The Sudoku board: cells, digits, candidates (labels) and puzzles.

Conventions follow the resolution-rule literature (SPEC §1): rows, columns, blocks and digits run
from 1 to 9; a *cell* is an integer 0..80 in row-major order; a *candidate* (a "label") is the triple
(digit, row, column), named ``n5r3c7``.  A :class:`Puzzle` is an immutable 81-tuple of givens, 0 for
an empty cell.  Everything here is pure Python; the compiled bitset core lives in
:mod:`sudorules.core`.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence

from ._core import grid_consistent
from .errors import PuzzleError, PuzzleTypeError  # re-exported: sudorules.puzzle.PuzzleError is used too

DIGITS = range(1, 10)
ROWS = range(1, 10)
COLUMNS = range(1, 10)
BLOCKS = range(1, 10)
CELLS = range(81)

Cell = int
Digit = int


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

#: per cell, the cell and the indices in UNITS of its row, its column and its block
_CELL_UNITS = tuple((cell, row_of(cell) - 1, 9 + column_of(cell) - 1, 18 + block_of(cell) - 1) for cell in CELLS)

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

    def __post_init__(self) -> None:
        # Candidate(-1, 5, 99) was made, with cell 134 and block 15, where Candidate.parse refuses
        # n0r1c1: each of the three is a whole number 1..9, as its name says (one test for the usual
        # ints: candidates are made by the thousand in a path)
        d, r, c = self.digit, self.row, self.column
        if type(d) is int and type(r) is int and type(c) is int and 0 < d < 10 and 0 < r < 10 and 0 < c < 10:
            return
        for name in ("digit", "row", "column"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= value <= 9:
                raise PuzzleError(f"a candidate's {name} is a whole number from 1 to 9, not {value!r}")
            object.__setattr__(self, name, int(value))  # a numpy integer: kept as the int it is

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

    A *pencilmark* (or "sukaku") puzzle also has ``marks``: for each of the 81 cells the mask of its
    allowed digits (bit d-1 for digit d).  A cell with one allowed digit is decided (a given), as
    SudoRules does; the candidates of the other cells are their marks, less the digits of the decided
    cells they see (SPEC §1.4).  The constructor checks shape and range, and refuses a pencilmark
    cell with no mark (whatever the puzzle, it has no solution, and its text would not read back);
    :meth:`conflicts` finds repeated digits and cells left with no candidate by their peers, and
    :meth:`from_string` (the usual entry point) rejects them.  A text given to the constructor is
    read as :meth:`from_string` reads it, so that ``Puzzle('7....')``, the ``repr``, reads back.
    """

    __slots__ = ("_givens", "_marks")

    def __init__(self, givens: Iterable[int], marks: Optional[Iterable[int]] = None):
        if isinstance(givens, str):
            if marks is not None:
                raise PuzzleError("marks go with cell values, not with a puzzle's text (which has its own)")
            parsed = parse_puzzle(givens)
            self._givens, self._marks = parsed._givens, parsed._marks
            return
        # the masks first: from_marks derives the givens from them, and a mask out of range made a
        # given out of range, told as "cell values must be 0 (empty) or 1..9"
        masks = None if marks is None else _checked_masks(marks)
        values = _whole_numbers(givens, "cell values")
        if min(values) < 0 or max(values) > 9:
            bad = next(k for k in CELLS if not 0 <= values[k] <= 9)
            raise PuzzleError(f"cell values must be 0 (empty) or 1..9: got {values[bad]} in {cell_name(bad)}")
        if masks is not None and any(values[k] != _single_digit(masks[k]) for k in CELLS):
            raise PuzzleError("the givens of a pencilmark puzzle are its cells with one candidate")
        self._givens = values
        self._marks: Optional[tuple[int, ...]] = masks

    @classmethod
    def _parsed(cls, values: tuple[int, ...]) -> "Puzzle":
        """The plain puzzle of 81 ints 0..9 the text parser made: what the constructor checks holds
        already (its checks were 4.5 of the 22 us of reading a line)."""
        puzzle = object.__new__(cls)
        puzzle._givens, puzzle._marks = values, None
        return puzzle

    @classmethod
    def from_string(cls, text: str) -> "Puzzle":
        """Parse one puzzle (one line of 81 characters or the multi-line grid form, or a pencilmark
        puzzle: 729 characters or the multi-line candidate grid) and validate it; a TypeError
        (PuzzleTypeError) for anything but a str (:func:`parse_puzzle`)."""
        return parse_puzzle(text)

    @classmethod
    def from_marks(cls, marks: Iterable[int]) -> "Puzzle":
        """The pencilmark puzzle of 81 digit masks (bit d-1 for digit d), each 1..511: a cell has at
        least one candidate."""
        masks = _checked_masks(marks)
        return cls([_single_digit(m) for m in masks], masks)

    @classmethod
    def from_candidates(cls, candidates: Sequence[Iterable[int]]) -> "Puzzle":
        """The pencilmark puzzle of 81 sets of digits (1..9), none empty."""
        return cls.from_marks([_digits_mask(cell, digits) for cell, digits in enumerate(candidates)])

    @property
    def givens(self) -> tuple[int, ...]:
        """The 81 cell values, row-major, 0 for empty."""
        return self._givens

    @property
    def marks(self) -> Optional[tuple[int, ...]]:
        """The 81 digit masks of a pencilmark puzzle (bit d-1 for digit d); None for a plain puzzle."""
        return self._marks

    @property
    def is_pencilmark(self) -> bool:
        """True for a puzzle given by its candidates (pencilmarks)."""
        return self._marks is not None

    def masks(self) -> tuple[int, ...]:
        """The 81 digit masks: the marks of a pencilmark puzzle, else one bit for a given and all nine
        digits for an empty cell (what the compiled core starts from)."""
        if self._marks is not None:
            return self._marks
        return tuple(1 << (v - 1) if v else 0x1FF for v in self._givens)

    @property
    def clues(self) -> int:
        """The number of givens (decided cells)."""
        return 81 - self._givens.count(0)

    def __getitem__(self, cell: Cell) -> int:
        return self._givens[cell]

    def __iter__(self) -> Iterator[int]:
        return iter(self._givens)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and other._givens == self._givens and other._marks == self._marks

    def __hash__(self) -> int:
        return hash((self._givens, self._marks))

    def __str__(self) -> str:
        if self._marks is not None:  # the 729-character form: digit d at position d of its cell
            return "".join("".join(str(d) if m >> (d - 1) & 1 else "." for d in DIGITS) for m in self._marks)
        return bytes(self._givens).translate(_GIVEN_TEXT).decode("ascii")  # in C: 4.5 -> 0.5 us

    def __repr__(self) -> str:
        return f"Puzzle('{self}')"

    def is_complete(self) -> bool:
        """True when every cell holds a digit."""
        return all(self._givens)

    def conflicts(self) -> list[str]:
        """Reasons the puzzle is self-contradictory, e.g. ``digit 5 repeated in row 3`` or ``no
        candidate in r3c4`` (an empty cell whose row, column and block hold all nine digits, or a
        pencilmark cell with no mark); empty if none."""
        givens = self._givens
        if self._marks is None and grid_consistent(bytes(givens)):
            # nearly every puzzle read: the compiled check (0.3 us against 11.7 us for the pass below)
            return []
        # One pass over the cells first (81 steps, not 27 units of 9): a puzzle with no repeated digit
        # is done here; one with a repeat is looked at again unit by unit, which names the first
        # repeat in the order of UNITS.  Reading cb-001 33 -> 2x faster.
        used = [0] * 27
        repeated = False
        for cell, r, c, b in _CELL_UNITS:
            digit = givens[cell]
            if digit:
                bit = 1 << (digit - 1)
                if (used[r] | used[c] | used[b]) & bit:
                    repeated = True
                    break
                used[r] |= bit
                used[c] |= bit
                used[b] |= bit
        if not repeated:
            return self._no_candidates(used)
        reasons = []
        used = []  # per unit, the digits given there (bit d - 1)
        for kind, index, cells in UNITS:
            seen = 0
            for cell in cells:
                digit = self._givens[cell]
                if digit:
                    bit = 1 << (digit - 1)
                    if seen & bit:
                        reasons.append(f"digit {digit} repeated in {kind} {index}")
                    seen |= bit
            used.append(seen)
        return reasons + self._no_candidates(used)

    def _no_candidates(self, used: list[int]) -> list[str]:
        """The empty cells left with no candidate by the digits ``used`` per unit (UNITS' order): a
        plain puzzle with such a cell has no solution, and `check` said nothing of it (README lists
        "a cell with no candidate" among the reasons a line is refused)."""
        givens, marks = self._givens, self._marks
        if marks is None:
            return [no_candidate(cell) for cell, r, c, b in _CELL_UNITS
                    if not givens[cell] and used[r] | used[c] | used[b] == 0x1FF]
        return [no_candidate(cell) for cell, r, c, b in _CELL_UNITS
                if not givens[cell] and not marks[cell] & ~(used[r] | used[c] | used[b])]

    def candidates(self) -> dict[Cell, frozenset[Digit]]:
        """For each empty cell, the digits not excluded by a given in a peer cell (SPEC §1.4), and for
        a pencilmark puzzle allowed by the cell's marks."""
        result = {}
        for cell in CELLS:
            if not self._givens[cell]:
                used = {self._givens[p] for p in PEERS[cell]}
                allowed = self._marks[cell] if self._marks is not None else 0x1FF
                result[cell] = frozenset(d for d in DIGITS if d not in used and allowed >> (d - 1) & 1)
        return result

    def grid_text(self) -> str:
        """The multi-line grid form (``+-------+`` borders, ``!`` separators as SudoRules prints it);
        for a pencilmark puzzle, each cell's candidates (SudoRules' resolution-state form)."""
        if self._marks is not None:
            return format_grid(["".join(str(d) for d in DIGITS if m >> (d - 1) & 1) or "-" for m in self._marks])
        return format_grid([str(v) if v else "." for v in self._givens])

    def to_list(self) -> list[int]:
        """The 81 values as a list (0 for empty)."""
        return list(self._givens)


def no_candidate(cell: Cell) -> str:
    """The reason a puzzle with ``cell`` left empty of candidates is refused, in the same words
    wherever it is found: the constructor (a mask of 0), :meth:`Puzzle.conflicts` (every candidate
    seen by a given) and so the readers, ``check``, ``rate`` and ``solve``."""
    return f"no candidate in {cell_name(cell)}"


def _whole_numbers(items: object, what: str) -> tuple[int, ...]:
    """The 81 whole numbers of ``items`` (ints, numpy integers, integral floats as ``np.loadtxt``
    gives), or the PuzzleError naming what is wrong: a list of characters and a short text failed
    with int()'s "invalid literal", a number with "not iterable", 1.5 was taken as 1."""
    try:
        given = tuple(items)  # type: ignore[arg-type]
    except TypeError:
        raise PuzzleTypeError(f"{what}: expected 81 integers, got {type(items).__name__}") from None
    if len(given) != 81:
        raise PuzzleError(f"wrong length: {len(given)} {what}, expected 81")
    if set(map(type, given)) == {int}:  # the usual case (the parser, the core's bytes, tolist()), fast (in C)
        return given
    found = []
    for cell, item in enumerate(given):
        try:
            number = int(item)  # type: ignore[call-overload]
            whole = number == item  # False for 1.5, and for "7" (int("7") is 7, not "7")
        except (TypeError, ValueError, OverflowError):
            whole = False
        if not whole:
            raise PuzzleError(f"{what} must be whole numbers: got {item!r} in {cell_name(cell)}")
        found.append(number)
    return tuple(found)


def _checked_masks(marks: object) -> tuple[int, ...]:
    """81 pencilmark masks, each 1..511 (bit d-1 for digit d): the one check of the constructor and
    :meth:`Puzzle.from_marks`.  A mask of 0 is refused as the cell with no candidate it is: accepted,
    its puzzle printed a text that ``from_string`` refused, ``check`` counted 0 solutions without a
    reason and ``rate`` called it invalid."""
    masks = _whole_numbers(marks, "pencilmark masks")
    for cell, mask in enumerate(masks):
        if mask == 0:
            raise PuzzleError(no_candidate(cell))
        if not 0 < mask <= 0x1FF:
            raise PuzzleError(f"pencilmark masks are 9 bits, 1..511 (bit d-1 for digit d): got {mask} "
                              f"in {cell_name(cell)}")
    return masks


def _digits_mask(cell: Cell, digits: Iterable[int]) -> int:
    """The mask of a cell's candidate digits; PuzzleError for what is no digit 1..9 (10 made a mask
    out of range, told as one, and 0 a bare "negative shift count")."""
    try:
        found = set(digits)
    except TypeError:
        raise PuzzleTypeError(f"candidates: expected a set of digits for {cell_name(cell)}, "
                              f"got {type(digits).__name__}") from None
    mask = 0
    for digit in found:
        if isinstance(digit, bool) or not isinstance(digit, numbers.Integral) or digit not in DIGITS:
            raise PuzzleError(f"candidates must be digits 1..9: got {digit!r} in {cell_name(cell)}")
        mask |= 1 << (int(digit) - 1)
    return mask


def _single_digit(mask: int) -> int:
    """The digit of a one-digit mask, else 0."""
    return mask.bit_length() if mask and not mask & (mask - 1) else 0


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
# lines starting with # and a UTF-8 byte-order mark are skipped.  Pencilmark ("sukaku") puzzles: a
# line of 729 candidate characters (cell after cell, nine positions each: digit d at position d, or
# . or 0; the form of SudoRules, tdoku and the forums), or the multi-line candidate grid SudoRules
# prints for a resolution state (nine rows of nine cells, each its candidate digits).

GRID_CHARS = frozenset("123456789.0")
#: bytes.translate table of a plain puzzle's text: cell values 0-9 as '.' and '1'-'9'
_GIVEN_TEXT = bytes.maketrans(bytes(range(10)), b".123456789")
#: the digits of givens and candidates: ASCII only (str.isdigit() also accepts '²', '①', '٣'...)
DIGIT_CHARS = frozenset("123456789")
LAYOUT_CHARS = frozenset(" \t|!+-=:")
BOM = "\ufeff"
#: grid characters of a pencilmark (sukaku) line: 9 candidate positions for each of the 81 cells
PENCILMARK_LENGTH = 729


def scan_line(line: str) -> tuple[list[int], Optional[str], str]:
    """Split a line into its grid values, a bad-character reason (or None) and the tail.

    Reads grid characters (skipping layout characters) until 81 are collected; the rest of the line is
    the tail, which must be separated from the grid by whitespace or a ``;`` (SHC's example files and
    the hardest-puzzle collections write ``puzzle;comment;...``; the ``;`` is not kept).
    """
    head = line[:81]
    if len(head) == 81 and not head.translate(_WITHOUT_GRID_CHARS):
        # the usual line, 81 grid characters first: read in C (str.translate, bytes), not a character
        # at a time (reading cb-001: scan_line 31 -> 5 us a line)
        return list(head.translate(_DOT_AS_ZERO).encode("ascii").translate(_ASCII_DIGITS)), *_after_grid(line, 81)
    values: list[int] = []
    for position, char in enumerate(line, start=1):
        if len(values) == 81:
            return values, *_after_grid(line, position - 1)
        if char in GRID_CHARS:
            values.append(0 if char in ".0" else int(char))
        elif char not in LAYOUT_CHARS:
            return values, f"bad character {char!r} at column {position}", ""
    return values, None, ""


#: str.translate tables of scan_line's fast path: grid characters deleted; '.' as '0'; bytes '0'-'9'
#: as 0-9
_WITHOUT_GRID_CHARS = str.maketrans("", "", "".join(sorted(GRID_CHARS)))
_DOT_AS_ZERO = str.maketrans(".", "0")
_WITHOUT_LAYOUT_CHARS = str.maketrans("", "", "".join(sorted(LAYOUT_CHARS)))
_ASCII_DIGITS = bytes.maketrans(b"0123456789", bytes(range(10)))


def _after_grid(line: str, at: int) -> tuple[Optional[str], str]:
    """What follows the 81 grid characters of ``line``, from index ``at``: (bad-character reason or
    None, tail).  A border may close the grid ('...|'): layout characters other than whitespace are
    skipped."""
    while at < len(line) and line[at] in LAYOUT_CHARS and not line[at].isspace():
        at += 1
    rest = line[at:]
    if rest[:1] == ";":
        return None, rest[1:].strip()
    if not rest or rest[:1].isspace():
        return None, rest.strip()
    if rest[:1] in GRID_CHARS:
        return "wrong length: more than 81 grid characters", ""
    return f"bad character {rest[0]!r} at column {at + 1} (after the 81 grid characters)", ""


def _validated(values: list[int]) -> "Puzzle":
    if len(values) != 81:
        raise PuzzleError(f"wrong length: {len(values)} grid character{'' if len(values) == 1 else 's'}, expected 81")
    puzzle = Puzzle._parsed(tuple(values))
    conflicts = puzzle.conflicts()
    if conflicts:
        raise PuzzleError(conflicts[0])
    return puzzle


def as_puzzle(puzzle: "Puzzle | str") -> "Puzzle":
    """A :class:`Puzzle` from a puzzle or its text (PuzzleError naming the reason otherwise, a
    PuzzleTypeError naming the type for anything else: ``Solver().solve(5)`` was a bare TypeError)."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    if not isinstance(puzzle, str):
        raise PuzzleTypeError(f"a puzzle must be a Puzzle or its text (a str), not {type(puzzle).__name__}")
    return Puzzle.from_string(puzzle)


def parse_puzzle(text: str) -> "Puzzle":
    """Parse one puzzle given as a single line or as a multi-line grid; raise PuzzleError if invalid.

    A tail after the 81 grid characters of a single line is ignored (use :func:`read_puzzles` to keep it).
    :class:`~sudorules.errors.PuzzleTypeError` (a PuzzleError and a TypeError) for anything but a str,
    said as such: None failed on ``.splitlines`` and bytes inside the parser ("a bytes-like object is
    required").
    """
    if not isinstance(text, str):
        raise PuzzleTypeError(f"a puzzle's text must be a str, not {type(text).__name__}")
    records = list(parse_lines(split_lines(text)))
    if not records:
        raise PuzzleError("empty input: no puzzle")
    if len(records) > 1:
        raise PuzzleError(f"expected one puzzle, found {len(records)} records")
    _, _, puzzle, error, _ = records[0]
    if puzzle is None:
        raise PuzzleError(error or "invalid puzzle")
    return puzzle


def split_lines(text: str) -> list[str]:
    """The lines of a text as a file is read line by line: a line ends at ``\\r\\n``, ``\\r`` or
    ``\\n`` only (``str.splitlines`` also ends one at ``\\f``, ``\\v``, ``\\x1c``-``\\x1e``, ``\\x85``,
    U+2028 and U+2029, so that a puzzle given as an argument or to the API was two records where the
    same line in a file was one with a tail)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


#: one parsed record: (first line number, its text, the puzzle or None, the reason or None, the tail)
ParsedRecord = tuple[int, str, Optional["Puzzle"], Optional[str], str]
#: a byte of the input that is no UTF-8, as the readers decode it (``surrogateescape``: U+DC80-U+DCFF):
#: such a line is an invalid record that names the byte, rather than a line silently changed (a
#: Latin-1 tail 'caf\xe9' written back as 'caf\ufffd')
_UNDECODED = re.compile("[\udc80-\udcff]")


def parse_lines(lines: Iterable[str]) -> Iterator[ParsedRecord]:
    """Parse text lines into one record per puzzle, valid or not, in input order (the forms above):
    a bad line never stops parsing.  Which lines make a record is :func:`record_parts`' part, the
    one place that says it (the readers' count of records, :func:`sudorules.reader.count_records`,
    reads the same parts without building puzzles)."""
    for kind, number, text, data, tail in record_parts(lines):
        if kind == _LINE:
            yield _line_record(number, text, data)
        elif kind == _GRID:
            masks, pencilmark = data
            yield (_marks_record(number, text, masks, "") if pencilmark
                   else _record(number, text, [_single_digit(m) for m in masks], ""))
        else:
            yield (number, text, None, data, tail)


#: the kinds of :func:`record_parts`: one line to read as a record, a complete multi-line grid, an
#: invalid record whose reason is known
_LINE, _GRID, _INVALID = "line", "grid", "invalid"


def _line_record(number: int, line: str, scanned: Optional[tuple[list[int], Optional[str], str]]) -> ParsedRecord:
    """The record of a one-line puzzle (81 grid characters and a tail) or pencilmark line (729)."""
    values, bad, tail = scanned if scanned is not None else scan_line(line)
    # a "tail" of hundreds of grid characters is the rest of a pencilmark line whose cells are
    # separated by spaces (its first 81 characters were read as a puzzle with a repeat)
    marks, why, marks_tail = (_pencilmark_line(line) if bad is not None or len(tail) >= _PENCILMARK_REST
                              else (None, None, ""))
    if marks is not None:
        return _marks_record(number, line, marks, marks_tail)
    if bad is not None:
        return (number, line, None, why or bad, "")
    return _record(number, line, values, tail)


def record_parts(lines: Iterable[str]) -> Iterator[tuple[str, int, str, object, str]]:
    """The records of text lines as ``(kind, first line number, text, data, tail)``, before any puzzle
    is made: ``_LINE`` (data: the line's :func:`scan_line` or None, read when the record is made),
    ``_GRID`` (data: its 81 masks and whether it is a candidate grid) or ``_INVALID`` (data: the
    reason).  The rules of multi-line grids are :class:`_Grids`'."""
    grids = _Grids()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if line.startswith(BOM):  # the first line's, or a file's joined after another (cat a.txt b.txt)
            line = line[len(BOM):]
        head = line[:81]
        undecoded = _UNDECODED.search(line)
        if len(head) == 81 and not undecoded and not head.translate(_WITHOUT_GRID_CHARS):  # the usual line
            yield from grids.record((_LINE, number, line, None, ""))
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            if not stripped:
                yield from grids.separator("blank")
            else:
                yield from grids.comment()
            continue
        if _BORDER.fullmatch(stripped) or not stripped.translate(_WITHOUT_LAYOUT_CHARS):
            yield from grids.separator("border")
            continue
        if undecoded:  # a byte that is no UTF-8 (the readers keep it as a surrogate): the line is refused
            byte = ord(undecoded.group()) - 0xDC00
            shown = line.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            reason = f"not UTF-8 text (byte 0x{byte:02x} at column {undecoded.start() + 1})"
            if grids.takes_bad_row(line, "bytes"):
                yield from grids.row((number, shown, [], False, f"{reason} of line {number}"))
            else:
                yield from grids.record((_INVALID, number, shown, reason, ""))
            continue
        row = candidate_row(line)
        if row is not None:  # one row of the candidate grid SudoRules prints
            yield from grids.row((number, line, row, True, None))
            continue
        values, bad, tail = scan_line(line)
        if bad is None and len(values) == 9:
            yield from grids.row((number, line, [1 << (v - 1) if v else 0x1FF for v in values], False, None))
        elif (bad is not None or len(values) < 81) and grids.takes_bad_row(line, "character" if bad else "count"):
            why = (f"{bad} of line {number}" if bad is not None
                   else f"{len(values)} grid characters, not 9, in the row of line {number}")
            yield from grids.row((number, line, [], False, why))
        elif bad is not None and is_typo_row(line):
            yield from grids.maybe_first_row((number, line, [], False, f"{bad} of line {number}"), bad)
        else:
            yield from grids.record((_LINE, number, line, (values, bad, tail), ""))
    yield from grids.flush()


#: one row of a multi-line grid being read: (line number, text, masks, candidate row?, why it is bad)
_Row = tuple[int, str, list[int], bool, Optional[str]]


class _Grids:
    """The multi-line grid being read by :func:`record_parts`: its rows and what its layout showed.

    A grid is nine rows.  A bad row of a grid begun (a typo, 8 or 10 grid characters, a byte that is
    no UTF-8, a candidate row with a cell too many) takes a row's place, and the grid is one invalid
    record; a line that may be a first row with a typo begins a grid only when a valid row follows
    it.  Blank and border lines ("separators") resynchronise a file whose grid lost or gained a row
    (it took the next grid's first row, and every later grid was read a row late, some as valid
    puzzles that are none of the file's; helper-48, helper-49).  The grid begun ends, cut short:

    * at a separator after a number of rows that is no multiple of three (bands are three rows);
    * at a second separator in a row (the end of one grid and the start of the next);
    * at a separator of the other kind than the grid's first one (a blank line in a grid whose bands
      are bordered: gsf's and Simple Sudoku's, whose grids have no outer frame);
    * unless the layout puts a separator after every row: a separator right after the first row,
      itself after a separator or at the start ("spaced"); there only a second separator in a row, or
      two rows with none between them (the grid so far ends, and its last row begins the next), end it;
    * at a blank line when the last complete grid had no separator between its rows: the file's
      grids are nine rows in a row, its blank lines between grids, and a grid cut at a band's end (a
      title put in at its sixth row) took the next grid's first band.  (Not at a border: a file may
      mix plain grids and bordered ones.)
    """

    def __init__(self) -> None:
        self.pending: list[_Row] = []
        self.tentative: Optional[str] = None  # the reason a maybe-first row with a typo has alone
        self.spaced = False
        self.style: Optional[str] = None  # the kind of the first separator inside the grid begun
        self.clean_start = True  # its first row came after a separator, a record, or at the start
        self.last: Optional[str] = None  # the last line that was no comment: separator, row or record
        self.inside = False  # the grid begun has had a separator between its rows
        #: whether the last complete grid had separators between its rows (None: no grid yet)
        self.layout_inside: Optional[bool] = None

    def flush(self) -> Iterator[tuple[str, int, str, object, str]]:
        """End the grid begun, cut short: one invalid record (a maybe-first row alone: its own line)."""
        if self.tentative is not None and len(self.pending) == 1:
            number, line, *_ = self.pending[0]
            yield (_INVALID, number, line, self.tentative, "")
        elif self.pending:
            error = self._error()
            said = f"incomplete grid: {len(self.pending)} of 9 rows" + (f"; {error}" if error else "")
            yield (_INVALID, self.pending[0][0], self._text(), said, "")
        self._reset()

    def _reset(self) -> None:
        self.pending, self.tentative, self.spaced, self.style, self.inside = [], None, False, None, False

    def _after_a_boundary(self) -> bool:
        """Is the line before a new grid's first row a separator, a record, or none (the start)?"""
        return self.last in (None, "separator", "record")

    def _error(self) -> Optional[str]:
        return next((why for *_, why in self.pending if why is not None), None)

    def _text(self) -> str:
        """The grid's rows on one line, as an invalid grid's ``puzzle`` cell holds them: ``select
        --puzzles`` writes that line, which must be read again as one invalid record (its first row
        alone was written, and nine such rows made a grid); the `` / `` between rows is no layout, so
        that two bad rows of 8 and 10 characters do not make 81 (helper-49)."""
        return " / ".join(line.strip() for _, line, _, _, _ in self.pending)

    def comment(self) -> Iterator[tuple[str, int, str, object, str]]:
        """A comment line: between grids, a title as a record is (a grid after ``#3`` starts clean, as
        after ``Puzzle 3``); inside a grid begun it ends it where a blank line would (after rows that
        are no multiple of three, or where complete grids had no separator), else it is passed over."""
        rows = len(self.pending)
        if rows and not self.spaced and (rows % 3 or self.last == "separator" or self.layout_inside is False):
            yield from self.flush()
        if not self.pending:
            self.last = "record"

    def record(self, record: tuple[str, int, str, object, str]) -> Iterator[tuple[str, int, str, object, str]]:
        """A line that is a record of its own: the grid begun ends before it."""
        yield from self.flush()
        self.last = "record"
        yield record

    def separator(self, kind: str) -> Iterator[tuple[str, int, str, object, str]]:
        rows = len(self.pending)
        if rows == 1 and self.tentative is None and self.last == "row" and self.clean_start and not self.spaced:
            self.spaced, self.style, self.inside = True, kind, True
        elif rows and kind == "blank" and self.layout_inside is False and not self.spaced:
            yield from self.flush()
        elif rows:
            double = self.last == "separator"
            if double or (self.style is not None and kind != self.style) or (not self.spaced and rows % 3):
                yield from self.flush()
            else:
                self.style, self.inside = self.style or kind, True
        self.last = "separator"

    def takes_bad_row(self, line: str, why: str) -> bool:
        """Is a line that is no valid row a bad row of the grid begun (not of a maybe-first row's)?
        ``why``: ``character`` (a bad character: only a line laid out as the first row is, so that a
        title such as ``puzzle 123`` after a grid cut short is none, helper-40), ``count`` (8 or 10
        grid characters) or ``bytes`` (a byte that is no UTF-8)."""
        if not self.pending or self.tentative is not None:
            return False
        first = self.pending[0]
        if first[3]:  # a candidate grid: a row of eight to ten cells
            return 8 <= len(_candidate_cells(line)) <= 10
        if why == "character":
            return is_grid_row_like(line, first[1])
        return _may_be_row(line, first[1])

    def maybe_first_row(self, row: _Row, reason: str) -> Iterator[tuple[str, int, str, object, str]]:
        """A line that may be a grid's first row with a typo: the first row if a valid row follows."""
        yield from self.flush()
        self.clean_start = self._after_a_boundary()
        self.pending, self.tentative = [row], reason
        self.last = "row"

    def row(self, row: _Row) -> Iterator[tuple[str, int, str, object, str]]:
        if self.spaced and self.last == "row" and self.tentative is None:
            # two rows with no separator in a layout that has one after every row: the grid so far ends,
            # its last row begins the next (a row written twice after a complete grid began a grid taken
            # for such a layout, and every later grid was read a row late: helper-49)
            kept = self.pending.pop()
            yield from self.flush()
            self.pending, self.clean_start = [kept], False
        if not self.pending:
            self.clean_start = self._after_a_boundary()
        self.pending.append(row)
        self.tentative = None  # a row followed: the grid is begun
        self.last = "row"
        if len(self.pending) == 9:
            error = self._error()
            if error is not None:
                yield (_INVALID, self.pending[0][0], self._text(), error, "")
            else:
                self.layout_inside = self.inside
                masks = [m for _, _, row_masks, _, _ in self.pending for m in row_masks]
                pencilmark = any(flag for _, _, _, flag, _ in self.pending)
                yield (_GRID, self.pending[0][0], self._text(), (masks, pencilmark), "")
            self._reset()


#: a border line of a multi-line grid in any program's style: SudoRules' and gsf's (``+---+``,
#: ``!---!``), HoDoKu's (``.-------.-------.``, ``:-------+``, ``'-------'``), Simple Sudoku's
#: (``*-----------*``): border characters around a run of at least three ``-`` or ``=``, and no more
#: than four dots (HoDoKu's corners; a line of dots is cells)
_BORDER = re.compile(r"(?=(?:[^.]*\.){0,4}[^.]*$)[-=+*|!:.'\s]*[-=]{3}[-=+*|!:.'\s]*")


def _may_be_row(line: str, row: str) -> bool:
    """Can ``line``, which is no valid row (8 or 10 grid characters, a byte that is no UTF-8), be a
    row of the grid whose first row is ``row``: 7 to 11 characters besides layout, and about as long
    as that row?  A title after a grid cut short is most often no such line."""
    line, row = line.strip(), row.strip()
    return 7 <= len(line.translate(_WITHOUT_LAYOUT_CHARS)) <= 11 and abs(len(line) - len(row)) <= 2


def is_typo_row(line: str) -> bool:
    """Can ``line``, refused for a bad character, be a multi-line grid's row with a typo: nine
    characters besides layout, at least eight of them grid characters (``| . 6 x | . 9 1 | . . . |``,
    ``..6x.91..``; not a title such as ``Puzzle_01``, nor ``ID 0000001``, which seven allowed)?  :func:`parse_lines` takes it for a first
    row when a row follows."""
    cells = line.strip().translate(_WITHOUT_LAYOUT_CHARS)
    return len(cells) == 9 and sum(c in GRID_CHARS for c in cells) >= 8


def is_grid_row_like(line: str, row: str) -> bool:
    """Is ``line`` shaped as ``row``, the first row of a multi-line grid begun: nine characters other
    than layout, and the layout characters where that row has them (``| . 6 x | . 9 1 | . . . |``
    after ``| . . . | . 5 . | 7 . 9 |``), whatever its characters?  A bad one is then a row of that
    grid.  (Nine characters alone took a title such as ``puzzle 123`` after a grid cut short for a
    row, and the next grid was lost: helper-40.)"""
    line, row = line.strip(), row.strip()
    return (len(line) == len(row) and len(line.translate(_WITHOUT_LAYOUT_CHARS)) == 9
            and all((a in LAYOUT_CHARS) == (b in LAYOUT_CHARS) for a, b in zip(line, row)))


def _candidate_cells(line: str) -> list[str]:
    """The cells of a candidate grid's row, its ``!`` and ``|`` borders left out."""
    return line.replace("!", " ").replace("|", " ").split()


def candidate_row(line: str) -> Optional[list[int]]:
    """The nine digit masks of a line of SudoRules' candidate grid (``! 7 1235 6 ! 13459 ...``), or
    None when the line is not one: nine cells, each digits 1-9 in increasing order (its candidates)
    or ``-`` (none), at least one cell with several digits.  (``.`` or ``0`` for "any digit" was
    taken too, and a row of a plain spaced grid with one cell typed twice, ``! 4 25 . ! ...``, made
    the whole grid a valid pencilmark puzzle, none of the file's: helper-49.  Neither SudoRules nor
    sudorules prints it.)"""
    tokens = _candidate_cells(line)
    if len(tokens) != 9 or not any(len(t) > 1 for t in tokens):
        return None
    masks = []
    for token in tokens:
        if token == "-":
            masks.append(0)
        # ASCII 1-9 only ('²'.isdigit()), in increasing order, as every program prints candidates: a
        # solved grid written as nine groups of nine digits was read as a row of candidates
        elif set(token) <= DIGIT_CHARS and list(token) == sorted(set(token)):
            masks.append(sum(1 << (int(d) - 1) for d in token))
        else:
            return None
    return masks


def _pencilmark_line(line: str) -> tuple[Optional[list[int]], Optional[str], str]:
    """``(masks, None, tail)`` for a line of 729 candidate characters (cell after cell, nine
    positions each: digit d at position d, or ``.`` / ``0``; layout characters and spaces between
    them skipped), its tail after a ``;`` or after white space that follows the 729th; ``(None,
    reason, "")`` for a line of more than 81 grid characters of another length; ``(None, None, "")``
    for anything else (a shorter head, as ``1 2 3 4 5 6 7 8 ³``, keeps the reason the grid scan gave:
    its bad character).  The tail was taken after the first space only: a ``;`` or tab tail made
    "wrong length: more than 81 grid characters"."""
    text = line.strip()
    chars: list[str] = []
    tail = ""
    for at, char in enumerate(text):
        if char == ";" or (char.isspace() and len(chars) == PENCILMARK_LENGTH):
            tail = text[at + 1:].strip()
            break
        if char in GRID_CHARS:
            chars.append(char)
        elif char not in LAYOUT_CHARS and not char.isspace():
            return None, None, ""
    if len(chars) <= 81:
        return None, None, ""
    if len(chars) != PENCILMARK_LENGTH:
        return None, (f"wrong length: {len(chars)} grid characters, expected 81 (a puzzle) or "
                      f"{PENCILMARK_LENGTH} (pencilmarks: 9 per cell)"), ""
    masks = []
    for cell in CELLS:
        group = chars[9 * cell: 9 * cell + 9]
        mask = 0
        for position, char in enumerate(group, start=1):
            if char not in ".0":
                if int(char) != position:
                    return None, (f"pencilmarks of {cell_name(cell)}: digit {char} at position {position} "
                                  f"(digit d must stand at position d, '.' elsewhere)"), ""
                mask |= 1 << (position - 1)
        masks.append(mask)
    return masks, None, tail


#: the length from which what follows a line's first 81 grid characters may be the rest of a
#: pencilmark line (648 more grid characters, with separators)
_PENCILMARK_REST = PENCILMARK_LENGTH - 81


def is_puzzle_line(line: str) -> bool:
    """True when a line is a one-line puzzle record, valid or not: 81 grid characters with an optional
    tail (after whitespace or a ``;``, where anything goes, commas too) or 729 pencilmark characters.
    What tells a puzzle file from a CSV whose header has commas (``stats``)."""
    values, bad, _ = scan_line(line)
    if bad is None:
        return len(values) == 81
    return _pencilmark_line(line)[0] is not None


def _marks_record(number: int, text: str, masks: list[int], tail: str) -> ParsedRecord:
    try:
        puzzle = Puzzle.from_marks(masks)  # a cell with no mark (nine '.', a '-') is refused here
        reason = next(iter(puzzle.conflicts()), None)  # or seen by givens for every mark
    except PuzzleError as error:
        reason = str(error)
    if reason is not None:
        return (number, text, None, f"pencilmark puzzle: {reason}", tail)
    return (number, text, puzzle, None, tail)


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
        raise PuzzleError(f"wrong length: {len(values)} grid character{'' if len(values) == 1 else 's'}, expected 81")
    return values
