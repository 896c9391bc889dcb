"""Loading a collection of rated puzzles into one table, one row per puzzle.

Inputs (issue #5), each a file name or ``-`` for standard input (once per run):

* our CSV outputs (``sudorules check``/``rate``: columns such as ``puzzle, clues, W, B, status``);
  an input is read as CSV when its name ends in ``.csv`` or its first line (comments aside) holds a
  comma and is not a puzzle (whose tail may hold commas: ``puzzle;from forum, page 3``), and as
  Parquet (``rate -o NAME.parquet``, needs pyarrow) when its name ends in ``.parquet`` or its bytes
  start with Parquet's ``PAR1``;
* puzzle files (one puzzle per line, e.g. the published ``puzzles.txt`` with ``puzzle tries`` lines),
  parsed with :mod:`sudorules.reader`; the clue count is computed from the puzzle and a numeric tail
  (``200314``, ``1.16171e+06``) becomes the ``tries`` column; so does a numeric ``tail`` column of a
  CSV or Parquet output (``check``, ``rate`` and ``select`` keep each record's tail there), so a rated
  controlled-bias file gives the numbers of minimal puzzles per grid as the puzzle file does;
* line-aligned plain files of one value per line (``W-ratings.txt``, ``SER.txt``...), added as named
  columns with ``NAME=FILE``; line k describes puzzle k (a blank line: no value), so every such file
  must have exactly as many lines as the table has rows, blank lines past them at its end aside.  Puzzle k is row k of the table: inputs joined on the puzzle take the
  first one's order, so a value file follows the first of them; when another lists the puzzles in
  another order, :attr:`Collection.notes` says which order was taken (the commands print it).

Text inputs must be UTF-8; a leading byte-order mark is skipped.

**Rating columns.**  Statistics (moments, level distributions, correlations, mean distances) are
computed for the clue count and for the *rating columns* only: a column is a rating when its name is
one of :data:`KNOWN_RATINGS` (W, B, gW, gB, SER...) or any other rating ``rate`` writes (BC, Z, S+W,
default...: :func:`~.columns.is_rating`), when it was given with ``--column NAME=FILE``,
or when it is named in ``ratings`` (``stats --rating NAME``).  Other numeric columns of a CSV
(``seconds`` of ``rate``, ``solutions`` of ``check``...) are read but are not ratings: they are
listed as such in the report, and ``compare --ratings`` still accepts them when named.

**Rows not counted.**  An empty value is missing.  A value counts for its own column only: ``rate``
writes a rating's cell only when that rating was obtained, so a row whose ``status`` is not ``solved``
(the worst over its ratings) keeps the values it has and misses the others.  Its tW counts when only
its BC failed: counting per row dropped, on 40 cb-001 puzzles rated ``tW,default,BC``, half of tW's
values (mean 5.33 over 40 became 2.45 over 20).  In such a row a cell that is not a number is missing
(a failed run may leave any text), where in a solved row it is an error naming the file and line.  A
CSV row that cannot be read (wrong number of fields), an invalid line of a puzzle file and a row whose
status is ``invalid`` (rate's "several solutions": its clue count too) count nowhere
(:data:`COUNTED_NOWHERE`).  The rows not solved are counted and named by line in the report.

**Errors.**  Every problem is a :class:`StatsInputError` (a :class:`~sudorules.errors.SudorulesError`,
and a ``ValueError``) with a one-line message naming the file (and line):

* exit status 2 (:class:`StatsFileError`, an :class:`~sudorules.errors.InputError`): an input that
  cannot be opened or read at all: missing, a directory, no permission, an empty name, ``-`` twice,
  a Parquet file no row of which can be read (garbage or a truncated copy named ``.parquet``), UTF-16
  or UTF-32 text (its byte-order mark);
* exit status 2 (:class:`StatsUsageError`): an option that cannot be used: ``--column`` not of the
  form ``NAME=FILE``, a column name that names no column (``--log``, ``--rating``, ``compare
  --ratings``), a ``--plot`` file type that is not supported;
* exit status 1 (:class:`StatsInputError` itself): the content of a readable input cannot be used:
  not UTF-8, not a readable CSV file, a Parquet file without our columns, a non-numeric value in a
  counted row, a value file whose line count differs from the table's, nothing to count (an empty
  file, every row invalid).
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np
import pandas as pd

from ..collection.template import NUMBER
from ..collection.table import (BOM, NotATableError, TableError, check_header, csv_chunks, is_parquet, parquet_lines,
                                parquet_strings, read_bytes, shown, table_text, text_lines)
from ..errors import EXIT_INVALID, EXIT_USAGE, InputError, SudorulesError
from ..puzzle import PuzzleError, is_puzzle_line, parse_puzzle
from .columns import KNOWN_RATINGS, is_rating
from ..reader import TAIL, read_puzzles

SOLVED = "solved"
#: status given to a CSV row that cannot be read (its number of fields differs from the header's)
UNREADABLE = "unreadable"
INVALID = "invalid"
#: the statuses of rows that count nowhere, their clue count included: what they hold is no puzzle
#: (a line that does not parse, a CSV row that cannot be read, a puzzle rate found with no or several
#: solutions)
COUNTED_NOWHERE = (INVALID, UNREADABLE)
#: columns that are never statistics: identity, bookkeeping and text columns
NON_VALUE_COLUMNS = ("line", "source", "puzzle", "status", "error", "solution", "minimal", "tries", "canonical",
                     TAIL, "weight")
CLUES = "clues"
TRIES = "tries"
#: each puzzle's importance weight (``generate --weights``, ``stats --weights``, a ``weight`` column):
#: w(g)/N1 for the puzzle's grid g, of mean 1 over the sampler's grids (Collection.weights)
WEIGHT = "weight"
STDIN = "-"
class StatsInputError(SudorulesError, ValueError):
    """An input cannot be used for statistics; the message names the file (and line) and why.

    Exit status 1: the content of a readable input is not usable (see the module docstring)."""

    exit_code = EXIT_INVALID


class StatsFileError(StatsInputError, InputError):
    """An input file that cannot be opened or read (missing, a directory, no permission): exit 2."""

    exit_code = EXIT_USAGE


class StatsUsageError(StatsInputError):
    """An option value that cannot be used (bad ``--column``, unknown column name, plot type): exit 2."""

    exit_code = EXIT_USAGE


@dataclass
class Collection:
    """A table of puzzles with numeric columns, and which rows count for the ratings' statistics.

    ``frame`` has one row per puzzle: ``line`` (line in its source file), ``source``, and where known
    ``puzzle``, ``status``, ``clues``, ``tries`` and the value columns (floats, NaN = missing).
    ``value_columns`` are all numeric columns, ``rating_columns`` those of them that are ratings (see
    the module docstring).
    """

    frame: pd.DataFrame
    value_columns: list[str] = field(default_factory=list)
    rating_columns: Optional[list[str]] = None
    #: the inputs read, as messages name them (a row of joined inputs names only the first)
    inputs: list[str] = field(default_factory=list)
    #: what a user should know about how the inputs were read (a value file read beside inputs joined
    #: in different orders); the commands print each as a ``note:`` line on stderr
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.rating_columns is None:
            self.rating_columns = list(self.value_columns)

    @property
    def solved(self) -> pd.Series:
        """True for rows without a failure: no status column, an empty status, or ``solved``."""
        if "status" not in self.frame:
            return pd.Series(True, index=self.frame.index)
        status = self.frame["status"].fillna("")
        return (status == "") | (status == SOLVED)

    @property
    def somewhere(self) -> pd.Series:
        """False for the rows that count nowhere (:data:`COUNTED_NOWHERE`: an invalid or unreadable
        record is no puzzle, so none of its values is missing either)."""
        if "status" not in self.frame:
            return pd.Series(True, index=self.frame.index)
        return ~self.frame["status"].isin(COUNTED_NOWHERE)

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

    def weights(self) -> Optional[pd.Series]:
        """Each row's importance weight, or None when the puzzles are not weighted.

        A sample of ``generate``'s seeded grids is not one of uniform grids: the sampler draws grid g
        with a probability that varies from grid to grid, and its grids hold about 13 % more minimal
        puzzles than the average grid.  Weighting each puzzle by w(g)/N1 (w = 1/P(g | box 1), N1 the
        completions of a box: the mean of w over the sampler's draws) makes every average over the
        sample one over uniform grids (importance sampling), and the numbers of minimals too, since
        the weights have mean 1 over the grids drawn.  The statistics then weight a puzzle by w
        (raw) and cf(n)·w (unbiased) where they weighted it by 1 and cf(n)."""
        if WEIGHT not in self.frame:
            return None
        return self.frame[WEIGHT].where(self.somewhere)

    def weights_summary(self) -> Optional[dict]:
        """How the puzzles are weighted (None: they are not): the ``rows`` weighted, the weights'
        ``mean`` and Kish's ``effective_rows``, (Σw)²/Σw²: the number of equally weighted puzzles
        that would give the same precision."""
        weights = self.weights()
        if weights is None:
            return None
        counted = weights.dropna()
        if counted.empty:
            return {"rows": 0, "mean": math.nan, "effective_rows": math.nan}
        total = float(counted.sum())
        return {"rows": int(counted.size), "mean": total / counted.size,
                "effective_rows": total ** 2 / float((counted ** 2).sum())}

    def numeric_columns(self) -> list[str]:
        """Every numeric column a user may name: clues (when known), then the value columns."""
        return ([CLUES] if self.has_clues else []) + list(self.value_columns)

    def column_named(self, name: str) -> str:
        """The numeric column ``name`` names, in any case (:func:`column_named`)."""
        return column_named(name, self.numeric_columns())

    def values(self, name: str) -> pd.Series:
        """Column ``name`` with the values of the rows that count nowhere masked: a value counts for its
        own column, whatever the row's status (the module docstring)."""
        if name == CLUES and self.has_clues:
            return self.frame[CLUES]
        if name == WEIGHT and WEIGHT in self.frame:  # no rating: "unknown column 'weight'" beside its file (helper-41)
            raise StatsUsageError("'weight' is the puzzles' importance weights, by which every figure is weighted, "
                                  "not a rating")
        if name not in self.frame or name not in self.value_columns + [TRIES]:
            raise StatsUsageError(f"unknown column {name!r} "
                                  f"(numeric columns: {', '.join(self.numeric_columns()) or 'none'})")
        return self.frame[name].where(self.somewhere)

    def status_counts(self) -> dict[str, int]:
        """Number of rows per status (rows without a status are not listed)."""
        if "status" not in self.frame:
            return {}
        status = self.frame["status"].fillna("")
        return {str(k): int(v) for k, v in status[status != ""].value_counts().sort_index().items()}

    def excluded_rows(self) -> int:
        """Number of rows whose status is not solved (each misses the ratings that failed)."""
        return int((~self.solved).sum())

    def not_counted(self, limit: int = 10) -> dict[str, dict]:
        """The rows whose status is not solved, per status: ``count`` and the first ``limit`` rows as
        ``{"source", "line"}``, in input order."""
        if "status" not in self.frame:
            return {}
        rows = self.frame[~self.solved]
        result = {}
        for status, group in rows.groupby(rows["status"].fillna(""), sort=True):
            result[str(status)] = {"count": int(len(group)),
                                   "lines": [{"source": str(s), "line": int(n)}
                                             for s, n in zip(group["source"][:limit], group["line"][:limit])]}
        return result

    def ignored_columns(self) -> list[str]:
        """Numeric columns that are not ratings (``seconds``, ``solutions``...): no statistic is computed."""
        return [c for c in self.value_columns if c not in self.rating_columns]

    def stat_columns(self) -> list[str]:
        """The columns statistics are computed for: clues (when known), then the rating columns."""
        return ([CLUES] if self.has_clues else []) + list(self.rating_columns)


def column_named(name: str, columns: Sequence[str]) -> str:
    """The column of ``columns`` an option names: ``name`` itself, or else the one column spelt so in
    another case (``b`` is ``B``, ``gb`` is ``gB``), since rating names are read in any case everywhere
    (README "Exit statuses"; ``rate --rating gb``), and ``compare --ratings b gb`` was "unknown column
    'b'".  ``name`` as it is when no column, or several (``W`` and ``w``), match in another case: the
    caller's unknown-column error then lists them."""
    if name in columns:
        return name
    matches = [column for column in columns if column.lower() == name.lower()]
    return matches[0] if len(matches) == 1 else name


def parse_column_option(text: str) -> tuple[str, str]:
    """Split a ``NAME=FILE`` option; raise StatsUsageError when it is not of that form."""
    name, sep, path = text.partition("=")
    name = name.strip()
    if not sep or not name or not path:
        raise StatsUsageError(f"--column wants NAME=FILE, got {text!r}")
    if name in NON_VALUE_COLUMNS[:4]:
        raise StatsUsageError(f"--column {name}: {name!r} is a reserved column name")
    if name.lower() == WEIGHT:  # a rating named weight would be the importance weights' column
        raise StatsUsageError(f"--column {name}: give the puzzles' importance weights with --weights FILE")
    return name, path


class _Sources:
    """Reads every input once as bytes, with one-line errors; standard input at most once."""

    def __init__(self) -> None:
        self.stdin_used = False

    def read_bytes(self, name: str) -> bytes:
        if name == STDIN:
            if self.stdin_used:
                raise StatsFileError("- (standard input) is given twice; it can be read only once")
            self.stdin_used = True
        try:
            return read_bytes(name)
        except InputError as error:
            raise StatsFileError(str(error)) from None


def decode_text(name: str, data: bytes) -> str:
    """UTF-8 text of an input, without a leading byte-order mark; an error names the first bad line."""
    try:
        return table_text(name, data)
    except TableError as error:
        raise StatsInputError(str(error)) from None
    except InputError as error:  # UTF-16 text: the input as a whole cannot be used (status 2)
        raise StatsFileError(str(error)) from None


def _is_csv(name: str, text: str) -> bool:
    """A CSV by its name, or by a first line (comments aside) that has a comma and is not a puzzle:
    SHC's ``puzzle;comment`` files may have commas in the comment (``;from forum, page 3``)."""
    if name.lower().endswith(".csv"):
        return True
    for line in text.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            return "," in line and not is_puzzle_line(line.rstrip("\r"))
    return False


#: rows of a CSV input held as Python strings at a time (:func:`read_csv_text`)
RUN_ROWS = 100_000


def read_csv_text(name: str, text: str) -> pd.DataFrame:
    """One of our CSV outputs as a table: text columns kept, numeric columns as floats.

    Blank lines are skipped and every row keeps the number of the line it starts on; a row whose
    number of fields differs from the header's gets the status ``unreadable`` (collection.table's
    reader, as select's)."""
    # run by run, each as pandas text columns (compact with pyarrow: a byte a character) before the
    # next is read: the rows as one DataFrame of objects, then as text, held three copies of the
    # cells, stats of the 110 MB table of a million rated rows peaking at 1.4 GB
    parts, lines, broken = [], [], {}
    try:
        for header, rows, run_lines, run_broken in csv_chunks(name, text, RUN_ROWS):
            keep = [i for i, h in enumerate(header) if h]
            cells = list(zip(*rows)) if rows else [()] * len(header)
            del rows
            parts.append(pd.DataFrame({header[i]: pd.Series(cells[i], dtype=str) for i in keep}))
            del cells
            broken.update({len(lines) + index: count for index, count in run_broken.items()})
            lines.extend(run_lines)
    except NotATableError as error:  # the wrong kind of input, as in select: status 2
        raise StatsFileError(str(error)) from None
    except TableError as error:
        raise StatsInputError(str(error)) from None
    if not header:
        return pd.DataFrame({"line": [], "source": []})
    raw = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    del parts
    if len(raw.columns) == 0:  # a header of empty names only: no column kept, but the rows are there
        raw = pd.DataFrame(index=range(len(lines)))
    if broken:
        if "status" not in raw:
            raw["status"] = ""
        if "error" not in raw:
            raw["error"] = ""
        # all at once: one .loc assignment a row took minutes for a table of 100,000 broken rows
        rows = list(broken)
        raw.loc[rows, "status"] = UNREADABLE
        raw.loc[rows, "error"] = [f"{count} fields, the header has {len(header)}" for count in broken.values()]
    return _typed_table(name, raw, lines)


def read_parquet_bytes(name: str, data: bytes) -> pd.DataFrame:
    """A Parquet output of ``sudorules rate`` (needs pyarrow, the ``parquet`` extra), read like a CSV."""
    try:
        raw = parquet_strings(name, data)
        check_header(name, 1, [str(c) for c in raw.columns])
    except InputError as error:  # no Parquet at all: as an input that cannot be read (status 2)
        raise StatsFileError(str(error)) from None
    except TableError as error:
        raise StatsInputError(str(error)) from None
    return _typed_table(name, raw, parquet_lines(len(raw)))


def _typed_table(name: str, raw: pd.DataFrame, lines: list[int]) -> pd.DataFrame:
    """Columns of strings (row k is line ``lines[k]``) to text and float columns."""
    raw = raw.reset_index(drop=True)
    table = pd.DataFrame({"line": pd.Series(lines, dtype=int), "source": shown(name)}, index=raw.index)
    if "status" not in raw and "error" in raw:  # `check`: a row with an error is an invalid puzzle
        raw["status"] = raw["error"].str.strip().map(lambda e: INVALID if e else "")
    counted = (raw["status"].str.strip().isin(["", SOLVED]).to_numpy(bool) if "status" in raw
               else np.ones(len(raw), bool))
    for column_name in raw.columns:
        # ASCII white space only, as select's --where and cell_number read a number: '3' followed by a
        # no-break space was 3 here and no number there
        column = raw[column_name].str.strip(_BLANKS)
        if column_name in NON_VALUE_COLUMNS:
            table[column_name] = (_text(column) if column_name not in (TRIES, WEIGHT)
                                  else _numeric_column(name, column_name, column, counted, lines))
            continue
        values, not_numbers = numbers_in(column)
        always_numeric = column_name == CLUES or column_name in KNOWN_RATINGS
        if not always_numeric and not np.isfinite(values).any() and not_numbers.any():
            table[column_name] = _text(column)  # a text column (e.g. a reason): not a statistic
            continue
        table[column_name] = _numeric_column(name, column_name, column, counted, lines, (values, not_numbers))
    if TRIES not in table and TAIL in table:  # a rated controlled-bias file: its tails are the tries
        tries = pd.Series(_tries(table[TAIL].fillna("").astype(str)), index=table.index)
        if tries.notna().any():
            table[TRIES] = tries
    if CLUES not in table and "puzzle" in table:
        table[CLUES] = table["puzzle"].map(_clue_count)
    return table


def _text(column: pd.Series) -> pd.Series:
    return column.where(column != "", None)


_NUMBER_PATTERN = NUMBER.pattern
#: the white space around a number (cell_number's)
_BLANKS = string.whitespace


def _tries(tails: pd.Series) -> np.ndarray:
    """The tries count of each tail (NaN where it is none): a number of complete grids used, 1 or
    more; a tail of 0 or less is no generator's count."""
    tries = numbers_in(tails.str.strip(_BLANKS))[0]
    tries[tries <= 0] = np.nan
    return tries


def numbers_in(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The numbers of a column of stripped texts as :func:`~sudorules.collection.table.cell_number`
    reads each (a :data:`~sudorules.collection.template.NUMBER`, then Python's float, finite), with
    NaN for an empty or other cell; and where a cell is not empty and no such number.  One regular
    expression over the column and one conversion (Python's float of each text matched): the five
    number columns of a million rated rows in 1.3 CPU-s, 6.1 by cell_number (``stats`` of that table
    20.8 -> 6.7 s with the other changes of the same commit)."""
    texts = column.fillna("")
    matched = texts.str.fullmatch(_NUMBER_PATTERN).fillna(False).to_numpy(bool)
    values = np.full(len(texts), np.nan)
    if matched.any():
        with np.errstate(over="ignore"):
            values[matched] = texts.to_numpy(object)[matched].astype(float)  # float() of each: 1e999 is inf
    finite = np.isfinite(values)
    values[~finite] = np.nan
    return values, (texts != "").to_numpy(bool) & ~finite


def _numeric_column(name: str, column_name: str, column: pd.Series, counted: np.ndarray,
                    lines: list[int], numbers: Optional[tuple[np.ndarray, np.ndarray]] = None) -> pd.Series:
    """The values of a column that must hold numbers: a cell that is no number is missing in a row not
    counted (a failed run may leave any text) and an error naming the file and line in a counted one."""
    values, not_numbers = numbers if numbers is not None else numbers_in(column)
    wrong = not_numbers & counted
    if wrong.any():
        index = int(wrong.argmax())
        raise StatsInputError(f"{shown(name)} line {lines[index]}: column {column_name}: "
                              f"{str(column.iloc[index])[:40]!r} is not a number")
    return pd.Series(values, index=column.index, dtype=float)


def _clue_count(puzzle: Optional[str]) -> float:
    """The clue count of a table's puzzle cell where the table has no ``clues`` column: its decided
    cells as check counts them (a 729-character pencilmark puzzle's cells with one candidate: its
    first 81 characters were counted before), NaN for a cell that is no puzzle."""
    if not isinstance(puzzle, str):
        return math.nan
    try:
        return float(parse_puzzle(puzzle).clues)
    except PuzzleError:
        return math.nan


def read_puzzle_text(name: str, text: str) -> pd.DataFrame:
    """A puzzle file as a table: line, puzzle, clues, tries (the numeric tail) and status/error for bad lines."""
    # column by column, not a dict a row: a million lines took 1.08 GB that way
    lines, puzzles, clues, tails, errors = [], [], [], [], []
    for record in read_puzzles(_lines(text)):
        lines.append(record.line)
        puzzles.append(record.cell)
        clues.append(float(record.puzzle.clues) if record.ok else math.nan)
        tails.append(record.tail)
        errors.append(record.error)
    invalid = any(error is not None for error in errors)
    table = pd.DataFrame({"line": pd.Series(lines, dtype=int), "source": shown(name),
                          "puzzle": pd.Series(puzzles, dtype=object), CLUES: pd.Series(clues, dtype=float)})
    tries = _tries(pd.Series(tails, dtype=str))
    if not np.isnan(tries).all():
        table[TRIES] = tries
    if invalid:
        table["status"] = [None if error is None else INVALID for error in errors]
        table["error"] = errors
    return table[[c for c in ("line", "source", "puzzle", CLUES, TRIES, "status", "error") if c in table]]


def _lines(text: str) -> list[str]:
    """The lines of a text, as the puzzle readers of check and rate split them: at ``\\n``, ``\\r\\n``
    or a lone ``\\r`` (a form feed inside a line does not end it).  Split at ``\\n`` only, a file of
    three records ending in ``\\r`` was one row here and three there, its line numbers different."""
    return [line.rstrip("\r\n") for line in text_lines(text)]


def read_value_text(name: str, text: str) -> list[float]:
    """A plain file of one number per line (empty line = missing); a bad value names its line."""
    items = pd.Series(_lines(text), dtype=str).str.strip(_BLANKS)
    values, not_numbers = numbers_in(items)
    if not_numbers.any():
        index = int(not_numbers.argmax())
        raise StatsInputError(f"{shown(name)} line {index + 1}: {str(items.iloc[index])[:40]!r} is not a number")
    return values.tolist()


def _without_blank_end(values: list[float], rows: int) -> list[float]:
    """A value file's values without the blank lines that end it past the collection's ``rows``
    (0: the file makes the collection): an editor's or a script's empty last line is no puzzle's
    value (100 values and a blank line were refused as "101 lines but the collection has 100 rows"),
    while a blank line that is the last puzzles' missing value, within ``rows``, stays one."""
    end = len(values)
    while end > rows and math.isnan(values[end - 1]):  # NaN: a blank line (a value is a finite number)
        end -= 1
    return values[:end]


def _read_table(sources: _Sources, name: str) -> pd.DataFrame:
    data = sources.read_bytes(name)
    if is_parquet(name, data):
        return read_parquet_bytes(name, data)
    try:
        text = decode_text(name, data)
    except StatsFileError:  # UTF-16, compressed: the input as a whole
        raise
    except StatsInputError:  # bytes that are no UTF-8: an error in a table, an invalid line in a puzzle file
        text = data.decode("utf-8", "surrogateescape").removeprefix(BOM)
        if _is_csv(name, text):
            raise
    del data  # not held while the table is made: stats of a million rated rows peaked at 897 MB, 790 without
    if _is_csv(name, text):
        return read_csv_text(name, text)
    return read_puzzle_text(name, text)


def load_collection(files: Sequence[str], columns: Sequence[tuple[str, str]] = (),
                    ratings: Sequence[str] = (), weights: Optional[str] = None) -> Collection:
    """Read FILEs (CSV, Parquet or puzzle files, ``-`` = stdin; rows appended in order) and add the
    ``(NAME, FILE)`` columns.  ``ratings`` names more columns of the inputs to treat as ratings.
    ``weights``: a line-aligned file of each puzzle's importance weight (:meth:`Collection.weights`;
    an input's own ``weight`` column serves too).

    Raises StatsInputError (see the module docstring for the exit statuses) for a missing or
    unreadable file, a non-numeric value in a counted row, a value file whose line count differs from
    the table's row count, a column given twice with different values, and a collection with nothing
    to count (no row with a clue count or a counted value).
    """
    files, columns = [str(f) for f in files], [(n, str(f)) for n, f in columns]
    given = {name for name, _ in columns}
    if weights is not None:
        columns.append((WEIGHT, str(weights)))
    if not files and not columns:
        raise StatsUsageError("no input: give at least one FILE (- for standard input) or --column NAME=FILE")
    sources = _Sources()
    tables = [_read_table(sources, name) for name in files]
    frame, members = combine_tables(tables, files) if tables else (pd.DataFrame(), [])
    for name, file_name in columns:
        values = read_value_text(file_name, decode_text(file_name, sources.read_bytes(file_name)))
        values = _without_blank_end(values, len(frame) if tables or "line" in frame else 0)
        if not tables and "line" not in frame:
            frame = pd.DataFrame({"line": range(1, len(values) + 1), "source": shown(file_name)})
        if len(values) != len(frame):
            raise StatsInputError(
                f"{shown(file_name)} has {len(values)} lines but the collection has {len(frame)} rows "
                "(value files must be line-aligned with the puzzles)")
        series = pd.Series(values, index=frame.index, dtype=float)
        # the value file as one more member, so that a later file giving the column again names it
        member = pd.DataFrame({"line": range(1, len(values) + 1), "source": shown(file_name), name: series},
                              index=frame.index)
        if name in frame:
            _check_same(name, frame[name], members, member)
        members.append(member)
        frame[name] = series
    if CLUES in frame and "status" in frame:
        # here, once the inputs are joined: a rated file's invalid row (rate's "several solutions"
        # keeps its clue count, 0 for an empty grid) was in the clue distribution, the report saying
        # "counted nowhere", and joined to its puzzle file it took the clue count from there
        frame.loc[frame["status"].isin(COUNTED_NOWHERE), CLUES] = math.nan
    _check_clues(frame)
    value_columns = [c for c in frame.columns
                     if c not in NON_VALUE_COLUMNS and c != CLUES and pd.api.types.is_numeric_dtype(frame[c])]
    ratings = [column_named(name, value_columns) for name in ratings]
    for name in ratings:
        if name not in value_columns:
            raise StatsUsageError(f"--rating {name}: no such numeric column "
                                  f"(numeric columns: {', '.join(value_columns) or 'none'})")
    rating_columns = [c for c in value_columns if is_rating(c) or c in given or c in ratings]
    collection = Collection(frame, value_columns, rating_columns, [shown(name) for name in files],
                            _order_notes(members, columns))
    _check_something_to_count(collection, files + [f for _, f in columns])
    _check_weights(collection, members)
    return collection


def _check_weights(collection: Collection, members: list[pd.DataFrame]) -> None:
    """Every counted row of a weighted collection has a weight, a finite number > 0: a row without
    one would count for nothing, or for more than its share, and a weight that is no sampling
    weight (0, negative) would turn the statistics into nonsense without a word.  The error names
    the line of the file that gave the weight (or should have: the last member with the column)."""
    weights = collection.weights()
    if weights is None:
        return
    frame = collection.frame
    counted = collection.somewhere & (frame[CLUES].notna() if CLUES in frame else True)
    bad = counted & ~(weights > 0)
    if bad.any():
        row = bad.idxmax()
        if pd.isna(weights[row]):
            holder = [m for m in members if WEIGHT in m and row in m.index]
            where = _where(holder[-1], row) if holder else _where(frame, row)
            what = "missing"
        else:
            where, what = _origin(members, WEIGHT, row), f"{weights[row]:g}, not a sampling weight (a number > 0)"
        raise StatsInputError(f"{where}: weight {what} (a weighted collection needs a weight on each of its "
                              f"{int(counted.sum()):,} puzzles)")
    with np.errstate(over="ignore"):
        too_large = not (np.isfinite(weights[counted].sum()) and np.isfinite((weights[counted] ** 2).sum()))
    if too_large:  # 1e308 twice: inf sums and numpy's warnings, the report's figures inf or empty (helper-41)
        row = weights[counted].idxmax()
        raise StatsInputError(f"{_origin(members, WEIGHT, row)}: weight {weights[row]:g}: the weights add up "
                              "past what a number holds (generate --weights writes weights of mean 1)")


def _puzzle_keys(table: pd.DataFrame) -> Optional[list[tuple[str, int]]]:
    """Each row's key: its puzzle and the occurrence of that puzzle in the table so far (a puzzle
    met twice is two rows); None for a table without a puzzle column."""
    if "puzzle" not in table:
        return None
    seen: dict[str, int] = {}
    keys = []
    for puzzle in table["puzzle"].fillna("").astype(str):
        seen[puzzle] = seen.get(puzzle, 0) + 1
        keys.append((puzzle, seen[puzzle]))
    return keys


def combine_tables(tables: list[pd.DataFrame],
                   names: Sequence[str]) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """One table from several inputs, by what they are to each other (issue 27: ``stats
    puzzles.txt rated.csv`` counted its 20 puzzles twice):

    * inputs with the same puzzles (in any order) are columns of one collection: joined on the
      puzzle, in the first one's order (a column in several must agree; a status is the worse one);
    * inputs with no puzzle in common (or without a puzzle column) are parts of it: their rows
      follow one another;
    * inputs that share some puzzles but not all are refused (:class:`StatsInputError`): neither
      reading is right.

    Returns the table and the *members*: each input's table re-indexed by the rows of the result
    its rows became (its own ``source`` and ``line`` kept), so that a message names where a value
    came from, not the row of the first input it was joined to.
    """
    if len(tables) == 1:  # nothing to join: a million puzzles' keys cost 1.8 s
        # the member a table of its own (shallow: no data copied), or the --column values added to the
        # result were the input's too, and a conflict between two --column files named the input
        return tables[0], [tables[0].copy(deep=False)]
    keys = [_puzzle_keys(table) for table in tables]
    groups: list[list[int]] = []  # indexes of tables with the same puzzles
    for i, table_keys in enumerate(keys):
        for group in groups:
            first = keys[group[0]]
            if table_keys is not None and first is not None and len(table_keys) and sorted(table_keys) == sorted(first):
                group.append(i)
                break
        else:
            groups.append([i])
    for a, group_a in enumerate(groups):
        for group_b in groups[a + 1:]:
            one, other = keys[group_a[0]], keys[group_b[0]]
            if one is None or other is None:
                continue
            shared = len({k for k, _ in one} & {k for k, _ in other})
            if shared:
                raise StatsInputError(
                    f"{shown(names[group_a[0]])} and {shown(names[group_b[0]])} share {shared} puzzle"
                    f"{'s' if shared != 1 else ''} but not all ({len(one)} and {len(other)} rows): give the files of "
                    "one collection's columns (the same puzzles) or of its parts (no puzzle in common)")
    members: list[pd.DataFrame] = [pd.DataFrame()] * len(tables)
    parts, offset = [], 0
    for group in groups:
        first = group[0]
        index = {key: offset + row for row, key in enumerate(keys[first])} if len(group) > 1 else {}
        for i in group:
            rows = (range(offset, offset + len(tables[i])) if i == first else [index[key] for key in keys[i]])
            members[i] = tables[i].set_axis(list(rows)).sort_index()
        parts.append(_join([members[i] for i in group]))
        offset += len(tables[first])
    return pd.concat(parts, ignore_index=True), members  # the members' indexes are 0..N-1 too


#: columns that say how a run went, not what a puzzle is: two rate outputs of the same puzzles (one
#: under B, one under gB) always differ there, and joining them was refused ("column seconds differs")
RUN_COLUMNS = ("seconds",)


def _join(members: list[pd.DataFrame]) -> pd.DataFrame:
    """Tables of the same puzzles, already indexed alike (the first one's order), as one."""
    frame = members[0].copy()
    for k, other in enumerate(members[1:], start=1):
        for column in other.columns:
            if column in ("line", "source", "puzzle"):
                continue
            if column not in frame:
                frame[column] = other[column]
            elif column == "status":
                frame[column] = [_worse_status(a, b) for a, b in zip(frame[column], other[column])]
            elif column == "error":
                frame[column] = frame[column].where(frame[column].notna() & (frame[column] != ""), other[column])
            elif column in RUN_COLUMNS:  # a run's, not the puzzle's: the first input's where it has one
                frame[column] = frame[column].fillna(other[column])
            elif pd.api.types.is_numeric_dtype(frame[column]) and pd.api.types.is_numeric_dtype(other[column]):
                _check_same(column, frame[column], members[:k], other)
                frame[column] = frame[column].fillna(other[column])
    return frame


def _worse_status(a: object, b: object) -> Optional[str]:
    """The status of a row from two inputs: the one that is not solved (or empty), else either."""
    texts = [s for s in (a, b) if isinstance(s, str) and s]
    bad = [s for s in texts if s != SOLVED]
    return bad[0] if bad else (texts[0] if texts else None)


def _check_clues(frame: pd.DataFrame) -> None:
    """A clue count is an integer from 0 to 81; raise StatsInputError naming the first other value."""
    if CLUES not in frame:
        return
    clues = frame[CLUES]
    bad = clues.notna() & ((clues != clues.round()) | (clues < 0) | (clues > 81))
    if bad.any():
        row = frame.loc[bad.idxmax()]
        raise StatsInputError(f"{row['source']} line {int(row['line'])}: clues {clues[bad.idxmax()]:g} is not "
                              "a clue count (an integer from 0 to 81)")


def _check_something_to_count(collection: Collection, names: list[str]) -> None:
    """Raise StatsInputError when no row has a clue count nor a counted value: an empty input, or
    every row invalid / unreadable / not solved."""
    frame = collection.frame
    if collection.has_clues:
        return
    if len(frame) and any(collection.values(c).notna().any() for c in collection.value_columns):
        return
    where = ", ".join(shown(n) for n in names)
    if len(frame) == 0:
        raise StatsInputError(f"{where}: no puzzle to count (no rows)")
    statuses = collection.status_counts()
    rows = f"{len(frame)} row{'s' if len(frame) != 1 else ''}"
    if len(statuses) == 1 and sum(statuses.values()) == len(frame):
        status = next(iter(statuses))
        detail = f"{rows}, all with status {status}" if len(frame) > 1 else f"{rows}, with status {status}"
    elif statuses:
        detail = f"{rows}: " + ", ".join(f"{k} {v}" for k, v in statuses.items())
    else:
        detail = f"{rows}, no clue count and no value"
    lines = collection.not_counted(limit=5)
    first = [f"{entry['line']}" for group in lines.values() for entry in group["lines"]][:5]
    if first and len(names) == 1:
        detail += f"; first at line{'s' if len(first) > 1 else ''} {', '.join(first)}"
    raise StatsInputError(f"{where}: no puzzle to count ({detail})")


def _check_same(name: str, old: pd.Series, members: list[pd.DataFrame], new: pd.DataFrame) -> None:
    """Raise StatsInputError when ``new`` (a member: an input or a value file) gives column ``name`` a
    value other than ``old``, the one the ``members`` read before gave; the message names the file
    and line of both values."""
    values = new[name]
    differ = old.notna() & values.notna() & (old != values)
    if differ.any():
        row = differ.idxmax()
        # in full: 6 significant digits showed two weights that differ as the same (helper-41)
        raise StatsInputError(f"{_origin(members, name, row)} and {_where(new, row)}: column {name} differs "
                              f"({_in_full(old[row])} vs {_in_full(values[row])})")


def _in_full(value: float) -> str:
    """A number as ``:g`` shows it when that is exact (2, 0.5), else every digit it needs."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def _where(member: pd.DataFrame, row: int) -> str:
    return f"{member.at[row, 'source']} line {int(member.at[row, 'line'])}"


def _origin(members: list[pd.DataFrame], name: str, row: int) -> str:
    """Where the value of column ``name`` in ``row`` came from: the first member that has one there
    (joining keeps the first value, filling only what is missing)."""
    for member in members:
        if name in member and row in member.index and pd.notna(member.at[row, name]):
            return _where(member, row)
    return "an input"  # not reached: a value always comes from a member


def _order_notes(members: list[pd.DataFrame], columns: Sequence[tuple[str, str]]) -> list[str]:
    """Notes for value files read beside inputs joined in different orders: line k of a value file is
    row k of the collection, that is the k-th puzzle of the first of the joined inputs, and another
    joined input that lists its puzzles in another order is one the user may have meant."""
    if not columns:
        return []
    files = ", ".join(shown(path) for _, path in columns)
    notes = []
    for member in members:
        # a member's own lines increase down its file: out of order here, it was reordered to join
        if "line" in member and len(member) and not member["line"].is_monotonic_increasing:
            first = next(m for m in members if m.index.equals(member.index))
            notes.append(f"{files}: lines taken in the order of {first['source'].iloc[0]}, the first of the inputs "
                         f"joined on the puzzle; {member['source'].iloc[0]} lists the same puzzles in another order")
    return notes
