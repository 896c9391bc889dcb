"""Reading puzzles from text: one puzzle per line, or the multi-line grid form.

Accepted forms (SPEC §1.4, issue #2):

* one line of 81 grid characters, ``1``-``9`` for givens and ``.`` or ``0`` for empty cells; spaces
  and the layout characters ``| + -`` between them are ignored.  Whatever follows the 81st grid
  character (after whitespace) is kept verbatim as the record's *tail*; the published
  controlled-bias collection puts the generator's tries count there (``puzzle 200314``);
* the multi-line grid: nine lines of nine grid characters each, optionally with ``|``, ``!``, ``+``,
  ``-`` and spaces, and border lines made only of layout characters.

Blank lines and lines starting with ``#`` are skipped, and so is a UTF-8 byte-order mark at the start
of the input.  Every other line gives exactly one :class:`PuzzleRecord`, either a puzzle or the reason
it is not one; a bad line never stops reading.  A line of 729 candidate characters (a pencilmark or
"sukaku" puzzle) is recognised and named as such.

Input *sources* (a file name, ``-`` for standard input, or a puzzle given on the command line) are
checked before anything is read: a missing file, a directory, an unreadable file and an empty argument
each raise an :class:`~sudorules.errors.InputError` with a one-line message.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Iterator, Optional, Union

from .errors import InputError
from .puzzle import Puzzle, PuzzleError

GRID_CHARS = frozenset("123456789.0")
LAYOUT_CHARS = frozenset(" \t|!+-=:")
BOM = "\ufeff"
#: grid characters of a pencilmark (sukaku) line: 9 candidate positions for each of the 81 cells
PENCILMARK_LENGTH = 729


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
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM):]
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


def _shown(text: str, width: int = 60) -> str:
    """A user's argument as shown in a message: cut when long, on one line."""
    text = text.replace("\n", " ")
    return text if len(text) <= width else text[: width - 3] + "..."


def check_source(source: Union[str, Path]) -> None:
    """Raise :class:`InputError` unless ``source`` is ``-`` or a readable file (a regular file, a FIFO,
    a device such as ``/dev/stdin``): one line for an empty name, a missing file, a directory, an
    unreadable file."""
    name = str(source)
    if name == "-":
        return
    if name == "":
        raise InputError("the input name is empty: give a file name, - for standard input, or a puzzle")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise InputError(f"{_shown(name)}: no such file") from None
    except OSError as error:
        raise InputError(f"{_shown(name)}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{name}: is a directory, not a file")
    if not os.access(name, os.R_OK):
        raise InputError(f"{name}: permission denied")


def _lines(handle: IO[str]) -> Iterator[str]:
    with handle:
        yield from handle


def open_lines(source: Union[str, Path, IO[str]]) -> Iterator[str]:
    """The lines of a file name, ``-`` (standard input) or an open text stream.

    A file is checked and opened at once (:class:`InputError` here, not at the first line read);
    undecodable bytes become U+FFFD, so a bad line is reported as a bad character, not a crash."""
    if hasattr(source, "read"):
        return iter(source)  # type: ignore[arg-type]
    if str(source) == "-":
        return iter(sys.stdin)
    check_source(source)
    try:
        handle = open(source, encoding="utf-8", errors="replace")
    except OSError as error:
        raise InputError(f"{source}: {error.strerror or error}") from None
    return _lines(handle)


def read_puzzle_file(source: Union[str, Path, IO[str]]) -> Iterator[PuzzleRecord]:
    """Records of a puzzle file name, ``-`` for standard input, or an open stream."""
    return read_puzzles(open_lines(source))


def looks_like_puzzle(argument: str) -> bool:
    """True when a command-line argument that names no file is meant as a puzzle: it starts with a
    grid or layout character, holds at least 17 grid characters and no ``/``.  Anything else
    (``nonexist.txt``, ``data/p.txt``) is taken as a file name that does not exist."""
    text = argument.lstrip(BOM).strip()
    return (bool(text) and (text[0] in GRID_CHARS or text[0] in LAYOUT_CHARS) and "/" not in text
            and sum(c in GRID_CHARS for c in text) >= 17)


def names_file(argument: str) -> bool:
    """True when a command-line argument is read as a file: ``-`` or an existing path."""
    if argument == "-":
        return True
    try:
        return os.path.lexists(argument)
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def records_from_argument(argument: str) -> Iterator[PuzzleRecord]:
    """Records for a CLI argument that is either a puzzle or a file name (``-`` = stdin).

    ``-`` and an existing path are read as a file (:func:`check_source` rejects directories and
    unreadable files); otherwise an argument that :func:`looks_like_puzzle`, whatever its length (one
    line, or the multi-line grid form), is parsed as puzzles, so ``sudorules check 4...3.....`` works;
    anything else is a missing file.  Errors are :class:`InputError`, raised here, before any output.
    """
    if argument == "":
        check_source(argument)
    if names_file(argument):
        return read_puzzle_file(argument)
    if looks_like_puzzle(argument):
        return read_puzzles(argument.splitlines())
    raise InputError(f"{_shown(argument)}: no such file (nor a puzzle: 81 grid characters, 1-9 and . or 0)")
