"""The tables of our outputs, read as text: a CSV with a header (``check``, ``rate``, ``select``,
``classify``) or a Parquet file (``rate -o NAME.parquet``, needs pyarrow), from a file or ``-``.

Cells stay the text the output holds (a Parquet integer column gives ``7``, a missing value an
empty cell), so that a row selected and written again is the row that was read.  Problems are
one-line errors: an input that cannot be opened, or a Parquet file that cannot be read at all (no
row of it can be), is an :class:`~sudorules.errors.InputError` (exit status 2), content that is not
such a table a :class:`TableError` naming the file and line (1).
"""

from __future__ import annotations

import csv
import io
import math
import string
import sys
from array import array
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence, Union

from ..errors import InputError, SudorulesError
from ..extras import require
from ..output import csv_reader, csv_text, is_parquet_name
from ..reader import STANDARD_INPUT, check_source, refuse_packed, refuse_wide_text, shown, text_lines  # noqa: F401  (plot reads STANDARD_INPUT, stats text_lines here)
from .template import NUMBER

BOM = "\ufeff"


class TableError(SudorulesError):
    """An input whose content is not a table of ours (exit status 1); the message names the file and line."""


class NotATableError(TableError, InputError):
    """A puzzle file (or any text whose first line is one cell) where one of our tables is read: the
    wrong kind of input, refused before any work with status 2, as the reverse is
    (:func:`sudorules.reader.refuse_table`); ``select puzzles.txt`` gave status 1, as for a damaged table."""

    exit_code = InputError.exit_code


#: what joins a packed row's cells: the ASCII unit separator, which no output of ours writes
UNIT = "\x1f"


class Rows(Sequence[list[str]]):
    """A table's rows, each held as one string, its cells joined by :data:`UNIT`, and given back as a
    list of cells (header order) when read.  ``select`` of a million rated rows (110 MB of CSV,
    ``/usr/bin/time -v sudorules select m1.csv --where 'W >= 3'``, one core, three runs each) peaked at
    690 MB with rows as lists of cells (a string object a cell) and at 308 MB packed, read in runs of
    10,000 rows (the text read, 110 MB, is held while its rows are made), in 3.7-3.8 user CPU-s both
    ways; 50,000 rows, 52 and 42 MB.  A row with a cell holding :data:`UNIT` itself stays a list."""

    __slots__ = ("_packed",)

    def __init__(self, rows: Iterable[Sequence[str]] = ()) -> None:
        self._packed: list[Union[str, list[str]]] = []
        self.extend(rows)

    def extend(self, rows: Iterable[Sequence[str]]) -> None:
        packed, join = self._packed, UNIT.join
        for cells in rows:
            text = join(cells)
            packed.append(text if text.count(UNIT) == len(cells) - 1 else list(cells))

    def __len__(self) -> int:
        return len(self._packed)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        row = self._packed[index]
        return row.split(UNIT) if type(row) is str else list(row)

    def __iter__(self) -> Iterator[list[str]]:
        for row in self._packed:
            yield row.split(UNIT) if type(row) is str else list(row)


@dataclass
class Table:
    """A table read from ``name``: its header, its rows (lists of cells, header order, held packed:
    :class:`Rows`) and the line (CSV) or row number (Parquet) of each row, for messages."""

    name: str
    columns: list[str]
    rows: Rows
    lines: Sequence[int]

    def column(self, name: str) -> int:
        """The index of column ``name`` (it must be there)."""
        return self.columns.index(name)

    def as_dict(self, row: Sequence[str]) -> dict[str, str]:
        """A row as ``{column: cell}`` (what ``--format`` templates read)."""
        return dict(zip(self.columns, row))


def cell_number(text: str) -> Optional[float]:
    """The value of a table cell, a ``--where`` number or a value file's line as a number: a finite
    float written as :data:`~sudorules.collection.template.NUMBER` says (ASCII, no ``_``), blanks
    around it aside, else None (Python's float() also reads '٣', '３' or '1_000', where a puzzle file
    calls the first two bad characters and --where called the last no number); the one reading of
    numbers for ``select`` and ``stats``."""
    text = text.strip(string.whitespace)
    if not NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def read_bytes(name: str) -> bytes:
    """The bytes of a file or of standard input (``-``); an :class:`InputError` when it cannot be read."""
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        try:
            return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        except OSError as error:
            raise InputError(f"stdin: {error.strerror or error}") from None
    check_source(name)
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"{name}: {error.strerror or error}") from None


def is_parquet(name: str, data: bytes) -> bool:
    """A Parquet file: by its name, or by its first bytes (``PAR1``) when read from a pipe."""
    return is_parquet_name(name) or data.startswith(b"PAR1")


def parquet_strings(name: str, data: bytes):
    """A Parquet file as a pandas DataFrame of text cells (missing values empty);
    :class:`~sudorules.errors.MissingDependencyError` when pyarrow is missing, an :class:`InputError`
    when the bytes are not Parquet."""
    import pandas as pd

    require("pyarrow", f"reading {shown(name)} (Parquet)")  # MissingDependencyError: status 2
    try:
        # one thread: on a file damaged inside (a rate output with bytes 8-1500 zeroed), pyarrow's
        # threaded read aborted the process ("terminate called without an active exception", status
        # 134) in 10 of 60 runs, the single-threaded one raised its error in 60 of 60
        frame = pd.read_parquet(io.BytesIO(data), use_threads=False)
    except Exception as error:  # pyarrow raises many kinds; all mean the same to the user
        # garbage, a truncated copy, a text file named .parquet: nothing of it can be read, an input
        # unusable as a whole as a missing or unreadable file is (status 2, was 1), not a bad row
        message = (str(error).splitlines() or [type(error).__name__])[0]
        raise InputError(f"{shown(name)}: not a readable Parquet file ({message})") from None
    return frame.apply(lambda column: column.map(lambda v: "" if pd.isna(v) else str(v))).astype(str)


def read_table(name: str) -> Table:
    """The table in file ``name`` (``-``: standard input), CSV or Parquet."""
    data = read_bytes(name)
    if is_parquet(name, data):
        frame = parquet_strings(name, data)
        columns = [str(c) for c in frame.columns]
        check_header(name, 1, columns)
        return Table(shown(name), columns, Rows(frame.values.tolist()), parquet_lines(len(frame)))
    text = table_text(name, data)
    del data  # the bytes are not needed while the rows are made (110 MB for a million rated rows)
    return csv_table(name, text)


def parquet_lines(rows: int) -> list[int]:
    """The numbers messages give a Parquet file's rows: the lines they hold in the same output written
    as CSV (its header line 1), as ``rate -o OUT.parquet``'s side file has them; ``select`` and
    ``stats`` numbered them 2.. and 1.. before."""
    return list(range(2, rows + 2))


def table_text(name: str, data: bytes) -> str:
    """UTF-8 text of an input, without a leading byte-order mark; an error names the first bad line.
    UTF-16 or UTF-32 text is the one error check and rate give it (an :class:`InputError`, status 2:
    the whole input, not a line of it; it was "line 1: not UTF-8 text (byte 0xff)", status 1)."""
    refuse_wide_text(shown(name), data[:2])
    refuse_packed(name, data[:8], "gunzip -c rated.csv.gz | sudorules stats -")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise TableError(f"{shown(name)} line {line}: not UTF-8 text (byte 0x{data[error.start]:02x}); "
                         "is it the right file?") from None
    return text[len(BOM):] if text.startswith(BOM) else text


def csv_table(name: str, text: str) -> Table:
    """A CSV text with a header line; blank lines are skipped; a row with another number of cells
    than the header is an error naming its line."""
    rows, lines = Rows(), array("q")
    # one run's cells as Python strings at a time: runs of 100,000 rows made a file of 50,000 take 59 MB
    # where lists of cells took 52 MB (helper-51); with 10,000, about 50 MB
    for columns, run, numbers, broken in csv_chunks(name, text, size=10_000):
        if broken:
            index, cells = next(iter(broken.items()))
            raise TableError(f"{shown(name)} line {numbers[index]}: {cells} cells, the header has {len(columns)}")
        rows.extend(run)
        lines.extend(numbers)
    if not columns:
        raise TableError(f"{shown(name)}: empty (no header line)")
    return Table(shown(name), columns, rows, lines)


def csv_rows(name: str, text: str) -> tuple[list[str], list[list[str]], list[int], dict[int, int]]:
    """The header, the rows (cells as our outputs wrote them: a formula-escaped ``'=...`` read back as
    ``=...``), the line each row starts on, and the rows whose number of cells differs from the
    header's (row index: its cell count; the row itself is then all empty): the one CSV reader of
    ``select``, ``compare`` and ``stats`` (which rates such rows ``unreadable`` and goes on, where
    ``select`` refuses the file).  Blank lines are skipped; a first line of one cell is no header."""
    return next(csv_chunks(name, text, size=None))


def csv_chunks(name: str, text: str,
               size: Optional[int] = 100_000) -> Iterator[tuple[list[str], list[list[str]], list[int], dict[int, int]]]:
    """:func:`csv_rows` in runs of ``size`` rows (None: one run), each as ``(header, rows, lines,
    broken)``, ``broken`` by index in its run; at least one run, its rows maybe none.  A caller that
    keeps each run in its own compact form holds no more than one run's cells as Python strings:
    a million rated rows' are 550 MB."""
    reader = csv_reader(text_lines(text))
    # a cell written by csv_cell starts with ', and most tables hold none: their cells are kept as
    # the reader gives them (a million rows of 8 cells read in 2.3 s rather than 3.1 s)
    escaped = "'" in text
    columns: list[str] = []
    rows: list[list[str]] = []
    lines: list[int] = []
    broken: dict[int, int] = {}
    start, runs = 1, 0
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue
            if not columns:
                if len(cells) < 2:
                    raise NotATableError(f"{shown(name)} line {line}: {cells[0][:40]!r} is not the header of a CSV "
                                     "output (check, rate, classify, select); a puzzle file? rate or check it first")
                columns = [c.strip() for c in cells]
                check_header(name, line, columns)
                continue
            if len(cells) != len(columns):
                broken[len(rows)] = len(cells)
                cells = [""] * len(columns)
            rows.append([csv_text(cell) for cell in cells] if escaped else cells)  # '=... as written: =...
            lines.append(line)
            if len(rows) == size:
                yield columns, rows, lines, broken
                rows, lines, broken, runs = [], [], {}, runs + 1
    except csv.Error as error:
        raise TableError(f"{shown(name)} line {reader.line_num}: not a readable CSV file ({error})") from None
    if rows or not runs:
        yield columns, rows, lines, broken


def check_header(name: str, line: int, columns: list[str]) -> None:
    """A column named twice in a header is an error (its cells could not be told apart); empty names
    (a header's trailing commas) may repeat."""
    seen = set()
    for column in columns:
        if column and column in seen:
            raise TableError(f"{shown(name)} line {line}: column {column!r} appears twice in the header")
        seen.add(column)
