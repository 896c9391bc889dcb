"""Reading puzzles from text: one puzzle per line, or the multi-line grid form.

Accepted forms (SPEC §1.4, issue #2):

* one line of 81 grid characters, ``1``-``9`` for givens and ``.`` or ``0`` for empty cells; spaces
  and the layout characters ``| + -`` between them are ignored.  Whatever follows the 81st grid
  character (after whitespace) is kept verbatim as the record's *tail*; the published
  controlled-bias collection puts the generator's tries count there (``puzzle 200314``);
* the multi-line grid: nine lines of nine grid characters each, optionally with ``|``, ``!``, ``+``,
  ``-`` and spaces, and border lines made only of layout characters.

Blank lines and lines starting with ``#`` are skipped.  Every other line gives exactly one
:class:`PuzzleRecord`, either a puzzle or the reason it is not one; a bad line never stops reading.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Iterator, Optional, Union

from .puzzle import Puzzle, PuzzleError

GRID_CHARS = frozenset("123456789.0")
LAYOUT_CHARS = frozenset(" \t|!+-=:")


@dataclass(frozen=True)
class PuzzleRecord:
    """One input record: where it came from, the puzzle (or ``None``) and the reason it is invalid."""

    line: int  #: 1-based number of the (first) input line of the record
    text: str  #: the raw input line (the first line, for a multi-line grid)
    puzzle: Optional[Puzzle]
    error: Optional[str] = None
    tail: str = ""  #: whatever followed the 81 grid characters, stripped

    @property
    def ok(self) -> bool:
        """True when the record holds a valid puzzle."""
        return self.puzzle is not None


def _scan(line: str) -> tuple[list[int], Optional[str], str]:
    """Split a line into its grid values, a bad-character reason (or None) and the tail.

    Reads grid characters (skipping layout characters) until 81 are collected; the rest of the line is
    the tail, which must be separated from the grid by whitespace.
    """
    values: list[int] = []
    for position, char in enumerate(line, start=1):
        if len(values) == 81:
            rest = line[position - 1:]
            if not rest[:1].isspace():
                return values, "wrong length: more than 81 grid characters", ""
            return values, None, rest.strip()
        if char in GRID_CHARS:
            values.append(0 if char in ".0" else int(char))
        elif char not in LAYOUT_CHARS:
            return values, f"bad character {char!r} at column {position}", ""
    return values, None, ""


def _validated(values: list[int]) -> Puzzle:
    if len(values) != 81:
        raise PuzzleError(f"wrong length: {len(values)} grid characters, expected 81")
    puzzle = Puzzle(values)
    conflicts = puzzle.conflicts()
    if conflicts:
        raise PuzzleError(conflicts[0])
    return puzzle


def parse_puzzle(text: str) -> Puzzle:
    """Parse one puzzle given as a single line or as a multi-line grid; raise PuzzleError if invalid.

    A tail after the 81 grid characters of a single line is ignored (use :func:`read_puzzles` to keep it).
    """
    records = list(read_puzzles(text.splitlines()))
    if not records:
        raise PuzzleError("empty input: no puzzle")
    if len(records) > 1:
        raise PuzzleError(f"expected one puzzle, found {len(records)} records")
    record = records[0]
    if record.puzzle is None:
        raise PuzzleError(record.error or "invalid puzzle")
    return record.puzzle


def read_puzzles(lines: Iterable[str]) -> Iterator[PuzzleRecord]:
    """Yield one :class:`PuzzleRecord` per puzzle (valid or not) of the input lines, in input order."""
    pending: list[tuple[int, str, list[int]]] = []  # rows of a multi-line grid being read

    def flush_incomplete() -> Iterator[PuzzleRecord]:
        if pending:
            first_line, first_text, _ = pending[0]
            yield PuzzleRecord(first_line, first_text, None,
                               f"incomplete grid: {len(pending)} of 9 rows")
            pending.clear()

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        values, bad, tail = _scan(line)
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
            yield PuzzleRecord(number, line, None, bad)
        else:
            yield _record(number, line, values, tail)
    yield from flush_incomplete()


def _record(number: int, text: str, values: list[int], tail: str) -> PuzzleRecord:
    try:
        return PuzzleRecord(number, text, _validated(values), None, tail)
    except PuzzleError as error:
        return PuzzleRecord(number, text, None, str(error), tail)


def open_lines(source: Union[str, Path, IO[str]]) -> Iterator[str]:
    """The lines of a file name, ``-`` (standard input) or an open text stream."""
    if hasattr(source, "read"):
        yield from source  # type: ignore[misc]
    elif str(source) == "-":
        yield from sys.stdin
    else:
        with open(source, encoding="utf-8", errors="replace") as handle:
            yield from handle


def read_puzzle_file(source: Union[str, Path, IO[str]]) -> Iterator[PuzzleRecord]:
    """Records of a puzzle file name, ``-`` for standard input, or an open stream."""
    return read_puzzles(open_lines(source))


def records_from_argument(argument: str) -> Iterator[PuzzleRecord]:
    """Records for a CLI argument that is either a puzzle string or a file name (``-`` = stdin).

    An argument that names an existing file, or is ``-``, is read as a file; otherwise it is parsed as
    one puzzle, so ``sudorules check 4...3.....`` works.
    """
    if argument == "-" or Path(argument).is_file():
        return read_puzzle_file(argument)
    return read_puzzles([argument])
