"""``sudorules select``: the rows of a rated table that satisfy a condition, written whole or split
into one file per level of a column.

The rows keep every column and their order; a selected row is written as it was read, its ``tail``
(the generator's tries, a serate rating...) included.  Three ways to write rows:

* ``csv`` (the default): the header and the rows;
* ``puzzles``: a puzzle file, one ``puzzle tail`` line per row (what ``rate``, ``check``, ``stats``
  and the other tools read again), the tail left out when empty;
* a ``--format`` template (:class:`~sudorules.collection.template.RowTemplate`): one line per row.

Splitting by a column writes one file per value into a directory, ``COLUMN-VALUE.csv`` (``.txt``
for puzzle and template lines): ``W-7.csv``; an empty value (an unrated puzzle) goes to
``COLUMN-none``.  Levels come in numeric order, then text values in text order, then ``none``.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Optional, Sequence

from ..errors import Interrupted, OptionError, OutputError
from ..output import NAME_MAX, check_output, csv_cell, many_outputs, open_output
from ..reader import TAIL, with_tail
from .expression import Condition
from .table import Table, TableError, cell_number
from .template import RowTemplate, unknown_column

#: the file name part of an empty level
NO_VALUE = "none"


@dataclass(frozen=True)
class Writer:
    """How rows are written: ``csv``, ``puzzles``, or the lines of ``template``."""

    kind: str = "csv"
    template: Optional[RowTemplate] = None

    @property
    def suffix(self) -> str:
        return ".csv" if self.kind == "csv" else ".txt"

    def check(self, table: Table, indices: Sequence[int]) -> None:
        """Refuse before writing rows ``indices`` of a table this writer cannot write (puzzle lines need a
        puzzle column; a template's spec may refuse a number of a row: ``{W:.1}`` on ``10``)."""
        if self.kind == "puzzles" and "puzzle" not in table.columns:
            raise OptionError(f"--puzzles: {table.name} has no puzzle column (the columns are: "
                              f"{', '.join(table.columns)})")
        if self.template is not None:
            self.template.check(table.as_dict(table.rows[i]) for i in indices)

    def write(self, table: Table, indices: Sequence[int], stream: IO[str]) -> None:
        """Write the rows ``indices`` of ``table`` to ``stream``."""
        if self.kind == "csv":
            writer = csv.writer(stream, lineterminator="\n")
            writer.writerow(table.columns)
            writer.writerows([csv_cell(cell) for cell in table.rows[i]] for i in indices)  # as csv_line writes
        elif self.kind == "puzzles":
            puzzle = table.column("puzzle")
            tail = table.columns.index(TAIL) if TAIL in table.columns else None
            for i in indices:
                row = table.rows[i]
                stream.write(with_tail(row[puzzle], row[tail].strip() if tail is not None else "") + "\n")
        else:
            assert self.template is not None
            stream.writelines(self.template.lines(table.as_dict(table.rows[i]) for i in indices))


def selected(table: Table, condition: Optional[Condition]) -> list[int]:
    """The indices of the rows of ``table`` that satisfy ``condition`` (all of them without one)."""
    if condition is None:
        return list(range(len(table.rows)))
    return condition.select(table.rows)


def _level_key(value: str) -> tuple:
    """Numbers first, in numeric order; then texts in text order; the empty value last."""
    if value == "":
        return (2, 0.0, "")
    number = cell_number(value)  # what --where reads as a number: '٣' and '1_000' are texts
    return (1, 0.0, value) if number is None else (0, number, value)


def file_part(value: str) -> str:
    """A level as a file name part: ``7``, ``none`` for an empty value, odd characters as ``_``."""
    if value == "":
        return NO_VALUE
    return re.sub(r"[^A-Za-z0-9._+-]", "_", value).lstrip(".") or "_"


def levels(table: Table, column: str, indices: Sequence[int]) -> list[tuple[str, list[int]]]:
    """``(value, row indices)`` for each value of ``column`` among the rows ``indices``, in level order."""
    if column not in table.columns:
        raise unknown_column("--split-by", column, table.columns)
    at = table.column(column)
    groups: dict[str, list[int]] = {}
    for i in indices:
        groups.setdefault(table.rows[i][at].strip(), []).append(i)
    return [(value, groups[value]) for value in sorted(groups, key=_level_key)]


def split_paths(directory: Path, column: str, values: Sequence[str], suffix: str) -> list[Path]:
    """The file of each level, ``DIR/COLUMN-VALUE.suffix``; two levels that would share a file
    name (``a/b`` and ``a_b``) are an error, and so are two names that differ only in case (``A`` and
    ``a``): one file on the file systems of macOS and Windows, where the second overwrote the first."""
    paths = [directory / f"{file_part(column)}-{file_part(value)}{suffix}" for value in values]
    seen: dict[str, tuple[str, Path]] = {}
    for value, path in zip(values, paths):
        if len(os.fsencode(path.name)) > NAME_MAX:  # the system's error came after DIR was made (helper-42)
            shown = value if len(value) <= 40 else f"{value[:37]}..."
            raise TableError(f"--split-by {column}: the value {shown!r} ({len(value):,} characters) makes a file "
                             f"name longer than the {NAME_MAX} bytes a file system takes; split by another column")
        key = path.name.casefold()
        if key in seen:
            other, first = seen[key]
            names = path.name if first.name == path.name else (f"{first.name} and {path.name}, one file where "
                                                               "case is not told apart (macOS, Windows)")
            raise TableError(f"--split-by {column}: the values {other!r} and {value!r} would both be written to "
                             f"{names}")
        seen[key] = (value, path)
    return paths


def make_directory(directory: str) -> Path:
    """The output directory of a split, created when missing; a one-line error when it cannot be."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{directory}: is not a directory (--split-by writes one file per level into -o DIR)")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{directory}: {error.strerror or error}") from None
    return path


def write_split(table: Table, column: str, indices: Sequence[int], directory: str, writer: Writer,
                inputs: Sequence[str] = ()) -> list[tuple[Path, int]]:
    """Write the rows ``indices`` split by ``column`` into ``directory``, one file per level (each
    written through :func:`sudorules.output.open_output`); ``(path, rows)`` per file, in level order.
    Interrupted, the files written so far (each complete) go with the exception as its ``written``."""
    groups = levels(table, column, indices)
    # the file names refused (two levels, one file) before the directory is made: a refused run
    # left a new, empty DIR behind
    paths = split_paths(Path(directory), column, [value for value, _ in groups], writer.suffix)
    make_directory(directory)
    for path in paths:  # every file checked before the first is written (one was, before the refusal)
        check_output(path, inputs)
    written: list[tuple[Path, int]] = []
    try:
        with many_outputs(paths):  # one look for stale temporaries, not one a file (quadratic)
            for path, (_, rows) in zip(paths, groups):
                with open_output(path, inputs=inputs) as stream:
                    writer.write(table, rows, stream)
                written.append((path, len(rows)))
    except Interrupted as stop:
        stop.written = written  # type: ignore[attr-defined]
        stop.total = len(paths)  # type: ignore[attr-defined]
        raise
    return written
