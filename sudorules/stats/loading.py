"""Loading a collection of rated puzzles into one table, one row per puzzle.

Inputs (issue #5):

* our CSV outputs (``sudorules check``/``rate``: columns such as ``puzzle, clues, W, B, status``);
  a file is read as CSV when its name ends in ``.csv`` or its first line holds a comma, and as
  Parquet (``rate -o NAME.parquet``, needs pyarrow) when its name ends in ``.parquet``;
* puzzle files (one puzzle per line, e.g. the published ``puzzles.txt`` with ``puzzle tries`` lines),
  parsed with :mod:`sudorules.reader`; the clue count is computed from the puzzle and a numeric tail
  (``200314``, ``1.16171e+06``) becomes the ``tries`` column;
* line-aligned plain files of one value per line (``W-ratings.txt``, ``SER.txt``...), added as named
  columns with ``NAME=FILE``; line k describes puzzle k, so every such file must have exactly as many
  lines as the table has rows.

Missing values: an empty value is missing.  In a CSV, a row whose ``status`` is not ``solved`` keeps
its clue count but its other values are left out of every statistic (such rows are counted and
reported); in a counted row, a value that is not a number is an error naming the file and line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

import pandas as pd

from ..reader import read_puzzle_file

SOLVED = "solved"
#: columns that are never statistics: identity, bookkeeping and text columns
NON_VALUE_COLUMNS = ("line", "source", "puzzle", "status", "error", "solution", "minimal", "tries")
CLUES = "clues"
TRIES = "tries"


class StatsInputError(ValueError):
    """An input file cannot be used for statistics; the message names the file (and line) and why."""


@dataclass
class Collection:
    """A table of puzzles with numeric columns, and which rows count for the ratings' statistics.

    ``frame`` has one row per puzzle: ``line`` (line in its source file), ``source``, and where known
    ``puzzle``, ``status``, ``clues``, ``tries`` and the value columns (floats, NaN = missing).
    """

    frame: pd.DataFrame
    value_columns: list[str] = field(default_factory=list)

    @property
    def counted(self) -> pd.Series:
        """True for rows whose values count: no status column, an empty status, or ``solved``."""
        if "status" not in self.frame:
            return pd.Series(True, index=self.frame.index)
        status = self.frame["status"].fillna("")
        return (status == "") | (status == SOLVED)

    @property
    def has_clues(self) -> bool:
        """True when the clue count of the puzzles is known."""
        return CLUES in self.frame and self.frame[CLUES].notna().any()

    @property
    def has_tries(self) -> bool:
        """True when the generator's tries count is known (needed for the numbers of minimals)."""
        return TRIES in self.frame and self.frame[TRIES].notna().any()

    def clues(self) -> pd.Series:
        """The clue count of every row (NaN for an invalid puzzle)."""
        return self.frame[CLUES]

    def values(self, name: str) -> pd.Series:
        """Column ``name`` with the values of non-counted rows (status other than solved) masked."""
        if name == CLUES:
            return self.frame[CLUES]
        if name not in self.frame or name not in self.value_columns + [TRIES]:
            known = ", ".join([CLUES] + self.value_columns) if self.has_clues else ", ".join(self.value_columns)
            raise StatsInputError(f"unknown column {name!r} (numeric columns: {known or 'none'})")
        return self.frame[name].where(self.counted)

    def status_counts(self) -> dict[str, int]:
        """Number of rows per status (rows without a status are not listed)."""
        if "status" not in self.frame:
            return {}
        status = self.frame["status"].fillna("")
        return {str(k): int(v) for k, v in status[status != ""].value_counts().sort_index().items()}

    def excluded_rows(self) -> int:
        """Number of rows left out of the ratings' statistics because their status is not solved."""
        return int((~self.counted).sum())

    def stat_columns(self) -> list[str]:
        """The columns statistics are computed for: clues (when known), then the value columns."""
        return ([CLUES] if self.has_clues else []) + list(self.value_columns)


def parse_column_option(text: str) -> tuple[str, str]:
    """Split a ``NAME=FILE`` option; raise StatsInputError when it is not of that form."""
    name, sep, path = text.partition("=")
    name = name.strip()
    if not sep or not name or not path:
        raise StatsInputError(f"--column wants NAME=FILE, got {text!r}")
    if name in NON_VALUE_COLUMNS[:4]:
        raise StatsInputError(f"--column {name}: {name!r} is a reserved column name")
    return name, path


def _is_csv(path: Path, first_line: str) -> bool:
    return path.suffix.lower() == ".csv" or "," in first_line


def _first_line(path: Path) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.strip():
                return line
    return ""


def _to_number(text: str) -> Optional[float]:
    """The float value of ``text``, None when it is not a finite number."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read_csv_table(path: Path) -> pd.DataFrame:
    """One of our CSV outputs as a table: text columns kept, numeric columns as floats."""
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, skip_blank_lines=True)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise StatsInputError(f"{path}: not a readable CSV file ({str(error).splitlines()[0]})") from None
    return _typed_table(path, raw, first_line=2)


def read_parquet_table(path: Path) -> pd.DataFrame:
    """A Parquet output of ``sudorules rate`` (needs pyarrow, the ``parquet`` extra), read like a CSV."""
    try:
        frame = pd.read_parquet(path)
    except ImportError:
        raise StatsInputError(f"{path}: reading Parquet needs pyarrow: pip install 'sudorules[parquet]'") from None
    except (OSError, ValueError) as error:
        raise StatsInputError(f"{path}: not a readable Parquet file ({str(error).splitlines()[0]})") from None
    raw = frame.apply(lambda column: column.map(lambda v: "" if pd.isna(v) else str(v)))
    return _typed_table(path, raw, first_line=1)


def _typed_table(path: Path, raw: pd.DataFrame, first_line: int) -> pd.DataFrame:
    """Columns of strings (one row per puzzle; row 0 is line ``first_line``) to text and float columns."""
    table = pd.DataFrame({"line": range(first_line, len(raw) + first_line), "source": str(path)})
    counted = raw["status"].isin(["", SOLVED]) if "status" in raw else pd.Series(True, index=raw.index)
    for name in raw.columns:
        column = raw[name].str.strip()
        if name in NON_VALUE_COLUMNS:
            table[name] = _text(column) if name != TRIES else _numeric_column(path, name, column, counted, first_line)
            continue
        numbers = column.map(lambda v: _to_number(v) if v else None)
        if numbers.notna().sum() == 0 and (column != "").any():
            table[name] = _text(column)  # a text column (e.g. a reason): not a statistic
            continue
        table[name] = _numeric_column(path, name, column, counted, first_line)
    if CLUES not in table and "puzzle" in table:
        table[CLUES] = table["puzzle"].map(lambda p: _clue_count(p))
    return table


def _text(column: pd.Series) -> pd.Series:
    return column.where(column != "", None)


def _numeric_column(path: Path, name: str, column: pd.Series, counted: pd.Series, first_line: int) -> pd.Series:
    values = []
    for index, text in column.items():
        value = _to_number(text) if text else math.nan
        if value is None:
            if counted[index]:
                raise StatsInputError(f"{path} line {index + first_line}: column {name}: {text!r} is not a number")
            value = math.nan
        values.append(value)
    return pd.Series(values, index=column.index, dtype=float)


def _clue_count(puzzle: Optional[str]) -> float:
    if not isinstance(puzzle, str):
        return math.nan
    grid = [c for c in puzzle if c in "0123456789."]
    return float(sum(1 for c in grid[:81] if c not in "0.")) if len(grid) >= 81 else math.nan


def read_puzzle_table(path: Path) -> pd.DataFrame:
    """A puzzle file as a table: line, puzzle, clues, tries (the numeric tail) and status/error for bad lines."""
    rows = []
    for record in read_puzzle_file(path):
        tries = _to_number(record.tail) if record.tail else None
        rows.append({
            "line": record.line,
            "source": str(path),
            "puzzle": str(record.puzzle) if record.ok else record.text.strip(),
            CLUES: float(record.puzzle.clues) if record.ok else math.nan,
            TRIES: math.nan if tries is None else tries,
            "status": None if record.ok else "invalid",
            "error": record.error,
        })
    table = pd.DataFrame(rows, columns=["line", "source", "puzzle", CLUES, TRIES, "status", "error"])
    if table["status"].isna().all():
        table = table.drop(columns=["status", "error"])
    if table[TRIES].isna().all():
        table = table.drop(columns=[TRIES])
    return table


def read_value_file(path: Path) -> list[float]:
    """A plain file of one number per line (empty line = missing); a bad value names its line."""
    values = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            value = _to_number(text) if text else math.nan
            if value is None:
                raise StatsInputError(f"{path} line {number}: {text[:40]!r} is not a number")
            values.append(value)
    return values


def _check_file(path: Path) -> None:
    if not path.is_file():
        raise StatsInputError(f"{path}: no such file")


def load_collection(files: Sequence[str], columns: Sequence[tuple[str, str]] = ()) -> Collection:
    """Read FILEs (CSV or puzzle files, rows appended in order) and add the ``(NAME, FILE)`` columns.

    Raises StatsInputError for a missing or unreadable file, a non-numeric value in a counted row,
    a value file whose line count differs from the table's row count, or a column given twice with
    different values.
    """
    tables = []
    for name in files:
        path = Path(name)
        _check_file(path)
        if path.suffix.lower() == ".parquet":
            tables.append(read_parquet_table(path))
        elif _is_csv(path, _first_line(path)):
            tables.append(read_csv_table(path))
        else:
            tables.append(read_puzzle_table(path))
    frame = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
    for name, file_name in columns:
        path = Path(file_name)
        _check_file(path)
        values = read_value_file(path)
        if frame.empty and not tables:
            frame = pd.DataFrame({"line": range(1, len(values) + 1), "source": str(path)})
        if len(values) != len(frame):
            raise StatsInputError(
                f"{path} has {len(values)} lines but the collection has {len(frame)} rows "
                "(value files must be line-aligned with the puzzles)")
        series = pd.Series(values, index=frame.index, dtype=float)
        if name in frame:
            _check_same(name, path, frame[name], series)
        frame[name] = series
    if not files and not columns:
        raise StatsInputError("no input: give at least one FILE or --column NAME=FILE")
    if frame.empty:
        raise StatsInputError(f"{', '.join(list(files) + [f for _, f in columns])}: no puzzle rows")
    value_columns = [c for c in frame.columns
                     if c not in NON_VALUE_COLUMNS and c != CLUES and pd.api.types.is_numeric_dtype(frame[c])]
    return Collection(frame, value_columns)


def _check_same(name: str, path: Path, old: pd.Series, new: pd.Series) -> None:
    both = old.notna() & new.notna()
    differ = both & (old != new)
    if differ.any():
        row = int(differ.idxmax())
        raise StatsInputError(f"{path} line {row + 1}: column {name} is given twice and differs "
                              f"({old[row]:g} vs {new[row]:g})")
