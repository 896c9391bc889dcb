"""Reading puzzles from files, standard input and command-line arguments, one record per puzzle.

The text forms (one line of 81 grid characters with an optional tail, or the multi-line grid) are
parsed by :mod:`sudorules.puzzle`, the one grid parser; this module adds where the lines come from
and :class:`PuzzleRecord`, which keeps a bad record's line and reason so a run can go on past it.

Input *sources* (a file name, ``-`` for standard input, or a puzzle given on the command line) are
checked before anything is read: a missing file, a directory, an unreadable file and an empty argument
each raise an :class:`~sudorules.errors.InputError` with a one-line message.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Optional, Union

from .errors import InputError, PuzzleTypeError
from .puzzle import BOM, GRID_CHARS, LAYOUT_CHARS, Puzzle, parse_lines, parse_puzzle, record_parts, split_lines

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np



__all__ = ["ARGUMENT_PUZZLE", "TAIL", "PuzzleRecord", "cell_array", "check_many", "check_source", "looks_like_puzzle",
           "names_file", "open_lines", "parse_puzzle", "read_puzzle_file", "read_puzzles", "records_from_argument",
           "with_tail"]

#: The CSV column that keeps each record's tail (``check``, ``rate``, ``canon``, ``select``...): the
#: generator's tries count of the controlled-bias collection, a serate ``ED=9.0/1.2/1.2``, anything
#: the user put after the grid.  Text outputs put the tail back at the end of the line
#: (:func:`with_tail`), so a file read and written again keeps it.
TAIL = "tail"


def with_tail(text: str, tail: str) -> str:
    """A text line (a puzzle, its canonical form...) followed by a record's tail, as the input had it:
    ``puzzle 200314``; the text alone when the tail is empty."""
    return f"{text} {tail}" if tail else text


#: how messages and ``error`` cells name the puzzle given as a command-line argument: SudoRules'
#: number for a puzzle given alone, which ``solve`` prints in its path (``PUZZLE 0 IS SOLVED``);
#: ``check PUZZLE`` said ``line 1`` of a file there was none of
ARGUMENT_PUZZLE = "PUZZLE 0"


@dataclass(frozen=True)
class PuzzleRecord:
    """One input record: where it came from, the puzzle (or ``None``) and the reason it is invalid."""

    line: int  #: 1-based number of the (first) input line of the record
    text: str  #: the raw input line (a multi-line grid's rows, stripped, joined by `` / ``)
    puzzle: Optional[Puzzle]
    error: Optional[str] = None
    tail: str = ""  #: whatever followed the 81 grid characters, stripped
    #: where the record is when it is no line of a file (:data:`ARGUMENT_PUZZLE`); None: ``line N``
    origin: Optional[str] = None

    @property
    def ok(self) -> bool:
        """True when the record holds a valid puzzle."""
        return self.puzzle is not None

    @property
    def where(self) -> str:
        """Where the record is, as every message and ``error`` cell names it: ``line 3``, or
        ``PUZZLE 0`` for the puzzle given as the command-line argument."""
        if self.origin is None:
            return f"line {self.line}"
        # an argument holding several puzzles: each named by its line (all were PUZZLE 0: helper-48)
        return self.origin if self.line <= 1 else f"{self.origin}, line {self.line}"

    @property
    def cell(self) -> str:
        """The record as an output's ``puzzle`` cell: the puzzle, or an invalid record's text without
        its tail, which the ``tail`` column holds (an invalid row with a tail wrote it in both, and
        ``select --puzzles`` made of it a line with the tail twice)."""
        if self.puzzle is not None:
            return str(self.puzzle)
        text = self.text.strip()
        if self.tail and text.endswith(self.tail):
            text = text[:-len(self.tail)].rstrip()
            if text.endswith(";"):  # puzzle;comment
                text = text[:-1].rstrip()
        return text

    def with_tail(self, text: str) -> str:
        """``text`` (the puzzle, or what an output makes of it) followed by this record's tail, after
        the ``;`` that SHC's ``puzzle;comment`` lines put before it (canon wrote ``form comment``, a
        line SHC's files do not have), else after a space."""
        raw = self.text.rstrip()
        if self.tail and raw.endswith(self.tail) and raw[:-len(self.tail)].rstrip().endswith(";"):
            return f"{text};{self.tail}"
        return with_tail(text, self.tail)


_LINE_END = re.compile(r"[^\r\n]*(?:\r\n|[\r\n])|[^\r\n]+\Z")


def text_lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its end, as ``io.StringIO(text, newline="")`` gives them (a
    line ends at ``\\r\\n``, ``\\r`` or ``\\n``) but without its copy of the text, 4 bytes a
    character: 420 MB more for the 110 MB CSV of a million rated rows."""
    if "\r" in text:
        for match in _LINE_END.finditer(text):  # 3x slower than the loop below: only where needed
            yield match.group()
        return
    find, start = text.find, 0
    while True:
        end = find("\n", start)
        if end < 0:
            if start < len(text):
                yield text[start:]
            return
        yield text[start:end + 1]
        start = end + 1


def read_puzzles(lines: Iterable[str], origin: Optional[str] = None) -> Iterator[PuzzleRecord]:
    """Yield one :class:`PuzzleRecord` per puzzle (valid or not) of the input lines, in input order
    (the forms are those of :func:`sudorules.puzzle.parse_lines`); ``origin``: the records'
    :attr:`PuzzleRecord.origin`.  A text is the lines it holds (it was read as an iterable of
    one-character lines: a puzzle gave 81 invalid records, helper-38)."""
    if isinstance(lines, bytes):  # an AttributeError deep inside (helper-40)
        raise PuzzleTypeError("read_puzzles: lines of text (str), not bytes: decode them first")
    if isinstance(lines, str):
        lines = text_lines(lines)
    for line, text, puzzle, error, tail in parse_lines(lines):
        yield PuzzleRecord(line, text, puzzle, error, tail, origin)


#: the codec error handler that shows what cannot be encoded as :func:`printable` does: registered
#: here, and standard error is written with it (sudorules.cli), so that every message (an ``Error:``
#: line, a note, click's usage lines) shows a file name's odd byte as ``\xe9`` however it was built;
#: Python's own ``backslashreplace`` showed the surrogate that holds it, ``\udce9``
PRINTABLE = "sudorules.printable"


#: records taken in one batch by the commands that work a batch at a time (check, canon)
BATCH_SIZE = 4096
# The first batch is small and each next one twice as large, up to BATCH_SIZE: the first rows (and
# a bar's first rate, hence its time left) come after 64 puzzles, not after 4,096 (0.4 s of cb-001
# under check before any row); a long run is the same batches but for its first six.
FIRST_BATCH = 64


def record_batches(records: Iterable[PuzzleRecord], size: int = BATCH_SIZE,
                   first: int = FIRST_BATCH) -> Iterator[list[PuzzleRecord]]:
    """``records`` in lists of ``first``, twice that, ... up to ``size`` records each."""
    batch: list[PuzzleRecord] = []
    limit = min(first, size)
    for record in records:
        batch.append(record)
        if len(batch) >= limit:
            yield batch
            batch = []
            limit = min(2 * limit, size)
    if batch:
        yield batch


def _printable_error(error: UnicodeError) -> tuple[str, int]:
    """Each character that cannot be encoded, as text: a byte that was no UTF-8 (Python keeps it as a
    lone surrogate U+DC80-U+DCFF, ``surrogateescape``) as that byte, ``\\xe9``; anything else (another
    lone surrogate; ``≠`` on an ASCII stream) as ``backslashreplace`` shows it."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(f"\\x{ord(char) - 0xDC00:02x}" if 0xDC80 <= ord(char) <= 0xDCFF
                   else char.encode("ascii", "backslashreplace").decode("ascii")
                   for char in error.object[error.start:error.end]), error.end


codecs.register_error(PRINTABLE, _printable_error)


#: a lone surrogate of a byte that was no UTF-8 as repr() writes it (``'\\udce9'``), not after a backslash
_REPR_SURROGATE = re.compile(r"(?<!\\)\\udc([89a-f][0-9a-f])")


def printable_message(text: str) -> str:
    """A message as standard error shows it: a name that holds a byte that was no UTF-8 and that the
    message quotes with ``!r`` (a column typed on a Latin-1 terminal, ``unknown column '\\udce9t'``)
    shows that byte as ``\\xe9``, as the names :data:`PRINTABLE` prints unquoted."""
    return _REPR_SURROGATE.sub(r"\\x\1", text) if "\\udc" in text else text


def printable(name: str) -> str:
    """A name as messages and tables show it: bytes that are not UTF-8 (a Latin-1 file name, kept by
    Python as lone surrogates) as ``\xe9``, which can be printed and stored (a column of pandas' string
    tables refused them: an internal error in stats)."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", PRINTABLE).decode("utf-8")


#: how messages and tables name ``-`` (select, stats and compare said ``stdin``)
STANDARD_INPUT = "standard input"


def shown(name: str) -> str:
    """An input's name as messages and tables give it: :data:`STANDARD_INPUT` for ``-``, else
    :func:`printable` (``r\xe9.csv``)."""
    return STANDARD_INPUT if name == "-" else printable(name)


def plural(count: int, noun: str, grouped: bool = False) -> str:
    """``1 puzzle``, ``2 puzzles`` (``grouped``: ``1,024 rows``, as stats' report writes its counts):
    every count a message gives (rate, generate, count, select and stats had each their own)."""
    return (f"{count:,}" if grouped else str(count)) + f" {noun}{'' if count == 1 else 's'}"


def clipped(text: str, width: int = 60) -> str:
    """A user's argument as shown in a message: cut when long, on one line (see :func:`printable`)."""
    text = printable(text).replace("\n", " ")
    return text if len(text) <= width else text[: width - 3] + "..."


def check_source(source: Union[str, Path]) -> None:
    """Raise :class:`InputError` unless ``source`` is ``-`` or a readable file (a regular file, a FIFO,
    a device such as ``/dev/stdin``): one line for an empty name, a missing file, a directory, an
    unreadable file."""
    name = str(source)
    if name == "-":
        return
    if name == "":
        raise InputError("the input name is empty: give a file name, or - for standard input")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise InputError(f"{clipped(name)}: no such file") from None
    except OSError as error:
        raise InputError(f"{clipped(name)}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{name}: is a directory, not a file")
    if not os.access(name, os.R_OK):
        raise InputError(f"{name}: permission denied")


#: how input bytes that are no UTF-8 are decoded: kept as surrogates, which the parser reports as
#: ``not UTF-8 text (byte 0xe9 at column 83)`` in that line's record (never a decoding crash, never
#: a line silently changed: ``errors="replace"`` wrote a Latin-1 tail back with U+FFFD)
DECODING_ERRORS = "surrogateescape"

#: the byte-order marks of UTF-16 and UTF-32 text, which no line of a puzzle file starts with
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")


def refuse_wide_text(name: str, start: bytes) -> None:
    """InputError for text in UTF-16 or UTF-32 (its first bytes ``start``): every line would be a bad
    character, and their NUL bytes would be echoed into the outputs.  The one test of every command's
    text input (puzzle files here; the tables of select, stats and compare: collection.table)."""
    if start.startswith(_WIDE_BOMS):
        raise InputError(f"{name}: UTF-16 or UTF-32 text; sudorules reads UTF-8 "
                         f"(convert it first, e.g. iconv -f UTF-16 -t UTF-8)")


#: the first bytes of compressed files, which puzzles are often kept in (and which we do not read)
_PACKED = ((b"\x1f\x8b", "gzip-compressed"), (b"BZh", "bzip2-compressed"), (b"\xfd7zXZ\x00", "xz-compressed"),
           (b"\x28\xb5\x2f\xfd", "zstd-compressed"), (b"PK\x03\x04", "a zip archive"), (b"7z\xbc\xaf", "a 7z archive"))


def refuse_packed(name: str, start: bytes, example: str = "gunzip -c puzzles.txt.gz | sudorules rate -") -> None:
    """InputError for a compressed file (its first bytes ``start``: :data:`_PACKED`), which no command
    reads: every line was a bad record "not UTF-8 text (byte 0x8b at column 2)", with no hint, and a
    table "line 1: not UTF-8 text" with status 1."""
    packed = next((kind for magic, kind in _PACKED if start.startswith(magic)), None)
    if packed is not None:
        raise InputError(f"{shown(name)}: {packed}, not text: uncompress it first (e.g. {example})")


def refuse_table(name: str, start: bytes) -> None:
    """InputError for a table where a puzzle file is read (its first bytes ``start``): a Parquet file or
    a CSV whose header names a ``puzzle`` column, an output of rate, classify or check; or for a
    compressed file (:data:`_PACKED`).  Rating a rated
    collection again (adding gB to its W) read each CSV row as a bad puzzle and each Parquet block as
    garbage, hundreds of invalid rows; its puzzles are one select away."""
    first = start[3:] if start.startswith(b"\xef\xbb\xbf") else start
    refuse_packed(name, start)
    if first.startswith(b"PAR1") or first.lower().startswith((b"puzzle,", b'"puzzle",')):
        kind = "a Parquet table" if first.startswith(b"PAR1") else "a CSV table with a puzzle column"
        raise TableGivenError(f"{shown(name)}: {kind}, not a puzzle file: read its puzzles with "
                              f"sudorules select {shown(name) if name != '-' else '-'} --puzzles | sudorules rate - "
                              f"(or check, classify...)", kind)


class TableGivenError(InputError):
    """One of our tables where lines of puzzles (or grids) are read: :func:`refuse_table`; ``kind``
    says which table, for a command that words the way out its own way (``generate --grids``)."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


def stdin_text() -> IO[str]:
    """Standard input as UTF-8 text whatever the locale (see DECODING_ERRORS; under a C locale Python's
    own stdin would be ASCII).  A standard input that was closed when we started (``<&-``: see
    sudorules.cli) is its one-line error here, before the command writes anything (check wrote its
    header first)."""
    closed = getattr(sys.stdin, "closed_error", None)
    if isinstance(closed, Exception):
        raise closed
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # replaced by a text stream (tests, embedding): use it as it is
        return sys.stdin
    peek = getattr(buffer, "peek", None)
    if peek is not None:
        try:
            start = peek(64)[:64]
            refuse_wide_text("standard input", start[:2])
            refuse_table("-", start)
        except OSError:
            pass  # read errors are told when lines are read
    return io.TextIOWrapper(buffer, encoding="utf-8", errors=DECODING_ERRORS, newline=None)


def _lines(handle: IO[str]) -> Iterator[str]:
    with handle:
        yield from handle


def open_lines(source: Union[str, Path, IO[str]]) -> Iterator[str]:
    """The lines of a file name, ``-`` (standard input) or an open text stream.

    A file is checked and opened at once (:class:`InputError` here, not at the first line read, as
    for UTF-16 text); bytes that are no UTF-8 are kept for the parser to report (DECODING_ERRORS)."""
    if hasattr(source, "read"):
        return iter(source)  # type: ignore[arg-type]
    if str(source) == "-":
        return iter(stdin_text())
    check_source(source)
    try:
        handle = open(source, encoding="utf-8", errors=DECODING_ERRORS)
        if handle.seekable():
            start = handle.buffer.peek(64)[:64]
            refuse_wide_text(str(source), start[:2])
            refuse_table(str(source), start)
    except OSError as error:
        raise InputError(f"{source}: {error.strerror or error}") from None
    except InputError:
        handle.close()
        raise
    return _lines(handle)


def read_puzzle_file(source: Union[str, Path, IO[str]]) -> Iterator[PuzzleRecord]:
    """Records of a puzzle file name, ``-`` for standard input, or an open stream."""
    return read_puzzles(open_lines(source))


def looks_like_puzzle(argument: str) -> bool:
    """True when a command-line argument that names no file is meant as a puzzle: it starts with a
    grid or layout character, holds at least 17 grid characters and no ``/`` before its tail, and does
    not end, in one word, with a file name's extension (``20240101123456789000.txt``).  Anything else
    (``nonexist.txt``, ``data/p.txt``) is taken as a file name that does not exist."""
    text = argument.lstrip(BOM).strip()
    return (bool(text) and (text[0] in GRID_CHARS or text[0] in LAYOUT_CHARS) and "/" not in _grid_part(text)
            and sum(c in GRID_CHARS for c in text) >= 17 and not looks_like_file_name(text))


def _grid_part(text: str) -> str:
    """``text`` up to its 81st grid character (all of it when it has fewer): where a ``/`` says a path,
    while a tail after the grid may hold one (serate's ``ED=9.0/1.2/1.2``, made "no such file")."""
    seen = 0
    for at, char in enumerate(text):
        seen += char in GRID_CHARS
        if seen == 81:
            return text[:at + 1]
    return text


#: one word ending with an extension: a file name, never a puzzle (whose tail follows a space or a ;)
_FILE_NAME = re.compile(r"[^\s;]*\.[A-Za-z][A-Za-z0-9]{0,7}")


def looks_like_file_name(argument: str) -> bool:
    """True when an argument can only be a file's name: one word ending with an extension
    (``nonexist.txt``), or one word with a ``/`` (``data/p``); a puzzle's tail, which may hold a
    ``/`` (serate's ``ED=9.0/1.2/1.2``), follows whitespace or a ``;``."""
    text = argument.strip()
    one_word = not any(c.isspace() or c == ";" for c in text)
    return bool(_FILE_NAME.fullmatch(text)) or (one_word and "/" in text)


def is_missing(item: object) -> bool:
    """Is ``item`` a missing value (None, NaN, ``pd.NA``, ``NaT``), as a Series of puzzles holds them?"""
    if item is None:
        return True
    if isinstance(item, float):
        return item != item
    pandas = sys.modules.get("pandas")  # not imported: no pd.NA nor NaT can have been made
    if pandas is None or isinstance(item, (str, bytes, Puzzle)):
        return False
    try:
        return bool(pandas.isna(item))  # a scalar; an array-like item is no missing value (nor a puzzle)
    except (TypeError, ValueError):
        return False


def not_a_puzzle(item: object) -> Optional[str]:
    """Why an item of a list of puzzles that is neither a :class:`Puzzle` nor a text is none (a
    missing value of a Series, a number...); None for a Puzzle or a text, which is parsed."""
    if isinstance(item, (Puzzle, str)):
        return None
    if is_missing(item):
        return "no puzzle (a missing value)"
    return f"not a puzzle: {type(item).__name__} {item!r}"


def check_many(puzzles: object, expected: str) -> None:
    """:class:`InputError` unless ``puzzles``, given where many puzzles may be, can be iterated as
    puzzles (a list, a generator, a pandas Series...): ``expected`` says what the caller takes.  A
    DataFrame, a mapping and bytes are iterables whose items are column names, keys and numbers, so
    they are refused here, by name, rather than as one bad puzzle per item."""
    pandas = sys.modules.get("pandas")  # not imported: no DataFrame can have been made
    if pandas is not None and isinstance(puzzles, pandas.DataFrame):
        raise InputError("puzzles: a DataFrame; give one of its columns (e.g. table['puzzle'])")
    if isinstance(puzzles, (bytes, bytearray, Mapping)) or not isinstance(puzzles, Iterable):
        raise InputError(f"puzzles: expected {expected}, got {type(puzzles).__name__}")


def cell_array(puzzles: object) -> "np.ndarray":
    """A user's array of cell values (0 empty, 1-9) as the ``(N, 81)`` uint8 array of
    :func:`sudorules.core.as_array`: a wrong shape (one puzzle's ``(81,)`` included: ``(1, 81)``), a
    dtype that is not integers or a value outside 0..9 is the :class:`InputError` the API gives for
    what holds no puzzles, naming what it got."""
    from .core import as_array  # numpy: only for an array

    try:
        return as_array(puzzles)
    except ValueError as error:
        one = getattr(puzzles, "shape", None) == (81,)  # a row taken from an (N, 81) array
        raise InputError(f"puzzles: {error}" + ("; one puzzle is array.reshape(1, 81)" if one else "")) from None


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
        raise InputError("the input name is empty: give a file name, - for standard input, or a puzzle")
    if names_file(argument):
        return read_puzzle_file(argument)
    if looks_like_puzzle(argument):
        return read_puzzles(split_lines(argument), origin=ARGUMENT_PUZZLE)
    raise InputError(f"{clipped(argument)}: no such file (nor a puzzle: 81 grid characters, 1-9 and . or 0)")


def count_records(source: str) -> Optional[int]:
    """The number of records, for the progress bar and the interrupted run's message; None unless
    ``source`` is a regular file: a pipe, a FIFO or ``<(...)`` would be emptied by the count (``head
    -20 p.txt | sudorules rate /dev/stdin`` rated nothing, issue 27).  Counted line by line (reading
    a 200 MB input whole to count it took 419 MB) by the parser's own record boundaries
    (:func:`~sudorules.puzzle.record_parts`), without making puzzles: a second copy of those rules
    here fell behind them more than once (a BOM before a multi-line grid counted one record too many)."""
    if str(source) == "-":
        return None
    try:
        if not stat.S_ISREG(os.stat(source).st_mode):
            return None
        with open(source, encoding="utf-8", errors=DECODING_ERRORS) as handle:
            return sum(1 for _ in record_parts(handle)) or None
    except OSError:
        return None


