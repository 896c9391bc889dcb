"""The few functions most users need, over the library's types (as ``requests.api`` over ``Session``).

>>> import sudorules
>>> resolution = sudorules.solve("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........")
>>> resolution.status, resolution.rating
(<Status.SOLVED: 'solved'>, 2)

``solve`` keeps one :class:`~sudorules.solver.Solver` per (``max_length``, ``lean_braids_from``),
so the rules of a theory are loaded once per process, not once per call.  ``solve``, ``rate`` and
``check`` take puzzles as the command line does (:func:`records`): one puzzle (its text or a
:class:`~sudorules.puzzle.Puzzle`), a file (a :class:`~pathlib.Path`, or a string naming an existing
file), or many puzzles (any iterable of them: a list, a generator, a pandas Series); ``rate`` and
``check`` return the same columns and statuses as ``sudorules rate`` and ``sudorules check``, with the
same defaults (``ratings=("W",)``; ``memory_limit`` in MiB).  Theory and rating names are read in any
case (``"gw"`` is ``gW``).
"""

from __future__ import annotations

import os
import threading
from typing import Iterable, Iterator, Optional, Sequence, Union

import numpy as np
import pandas as pd

from .enums import Status, Theory
from .errors import InputError
from .options import (LEAN_BRAIDS_FROM_RANGE, MAX_LENGTH_RANGE, check_time_limit, check_whole,
                      solve_memory_bytes)
from .puzzle import Puzzle, split_lines
from .reader import (PuzzleRecord, cell_array, check_many, check_source, is_missing, looks_like_puzzle,
                     names_file, not_a_puzzle, read_puzzle_file, read_puzzles, records_from_argument)
from .engine.schedule import LEAN_BRAIDS_FROM
from .engine.solver import Solver
from .resolution.steps import Resolution

PuzzleInput = Union[str, Puzzle]
#: one puzzle (text or Puzzle), a file (Path, or a str naming an existing file), or an iterable of puzzles
Puzzles = Union[PuzzleInput, "os.PathLike[str]", Iterable[PuzzleInput], "pd.Series"]

#: each thread's solvers, by (max_length, lean_braids_from): one CLIPS environment serves one thread
#: at a time, and two threads calling solve() at once on shared engines got CLIPS errors, wrong
#: results and a segfault (helper-43); a thread's own engines run in parallel with the others'
_local = threading.local()


def _solver(max_length: int, lean_braids_from: int) -> Solver:
    key = (check_whole(max_length, "max_length", *MAX_LENGTH_RANGE),
           check_whole(lean_braids_from, "lean_braids_from", *LEAN_BRAIDS_FROM_RANGE))
    solvers = getattr(_local, "solvers", None)
    if solvers is None:
        solvers = _local.solvers = {}
    if key not in solvers:
        solvers[key] = Solver(max_length=key[0], lean_braids_from=key[1])
    return solvers[key]


def solve(puzzle: Puzzles, theory: Union[Theory, str] = "W", *, max_length: int = 36,
          time_limit: Optional[float] = None, memory_limit: Optional[int] = None,
          lean_braids_from: int = LEAN_BRAIDS_FROM) -> Union[Resolution, list[Resolution]]:
    """Solve a puzzle by the rules of ``theory``, simplest first: ``W`` (Singles + whips), ``B``
    (+ braids), ``gW`` (whips + g-whips), ``gB`` (whips, g-whips, braids, g-braids), ``SW``
    (Subsets + whips), ``BRT`` (Singles only), ``default`` (SudoRules' default configuration) or any
    composition of SudoRules' parts (``S+Fin+BC+Z+tW+W``, ``SFin+W``, ``BC``...: :class:`Theory`), or on
    the compiled T&E engine ``TE1``, ``TE2``, ``TE3`` (T&E(BRT, n) level by level), ``BxB``, ``BxBB``
    (SPEC §10); in any case.

    One puzzle (its text or a :class:`~sudorules.puzzle.Puzzle`) gives one
    :class:`~sudorules.resolution.steps.Resolution`: :class:`~sudorules.errors.PuzzleError` for a
    text that is no puzzle, :class:`~sudorules.errors.InvalidPuzzleError` for a puzzle with no or
    several solutions; a string that is neither an existing file nor a puzzle (``"puzzles"``) is the
    :class:`~sudorules.errors.InputError` ``check`` and ``rate`` give (:func:`records`).  A file (a
    ``Path``, or a string naming an existing file) or an iterable of puzzles (a list, a pandas
    Series...) gives a list of resolutions in input order, where a record
    that is invalid gets status ``invalid`` and its ``error`` (``line 3: several solutions``), as
    ``sudorules rate`` rows do.  A puzzle the theory cannot finish, or that reaches ``time_limit``
    (seconds) or ``memory_limit`` (MiB the rules may grow the process by, as ``solve --memory-limit``:
    by default three quarters of the memory available when the call starts, 0 for none), is not an error: the
    resolution says so in its ``status`` (``raise_for_status()`` turns it into one);
    ``str(resolution)`` is the path as ``sudorules solve`` prints it."""
    time_limit = check_time_limit(time_limit)
    memory_bytes = solve_memory_bytes(memory_limit)
    solver = _solver(max_length, lean_braids_from)
    if _is_one_puzzle(puzzle):
        return solver.solve(puzzle, theory, time_limit=time_limit, memory_limit=memory_bytes)
    theory = Theory.of(theory)
    return [_solve_record(solver, number, record, theory, time_limit, memory_bytes)
            for number, record in enumerate(records(puzzle), start=1)]


def _solve_record(solver: Solver, number: int, record: PuzzleRecord, theory: Theory, time_limit: Optional[float],
                  memory_bytes: Optional[int]) -> Resolution:
    """The resolution of a file's or a list's record ``number``, which knows its number and line."""
    from .errors import InvalidPuzzleError

    error = None if record.ok else record.error
    if record.ok:
        try:
            resolution = solver.solve(record.puzzle, theory, time_limit=time_limit, memory_limit=memory_bytes)
            resolution.number, resolution.line = number, record.line
            return resolution
        except InvalidPuzzleError as invalid:
            error = invalid.reason
    return Resolution(puzzle=record.cell, theory=theory,
                      max_length=solver.max_length, status=Status.INVALID, error=f"{record.where}: {error}",
                      number=number, line=record.line)


def _is_one_puzzle(puzzles: Puzzles) -> bool:
    """Are ``puzzles`` one puzzle: a :class:`Puzzle`, or a string that names no file and looks like a
    puzzle, as the command line tells an argument?  The one test of :func:`solve` (one resolution or a
    list) and :func:`records`: solve parsed every other string as a puzzle, so that ``solve("puzzles")``
    said "bad character 'p'" where ``check("puzzles")`` said "no such file"."""
    return isinstance(puzzles, Puzzle) or (isinstance(puzzles, str) and not names_file(puzzles)
                                           and looks_like_puzzle(puzzles))


def records(puzzles: Puzzles) -> Iterator[PuzzleRecord]:
    """Input records, as the command line reads them, for:

    * one puzzle: a :class:`Puzzle`, or its text (one line or the grid form; errors become an
      invalid record);
    * a file: a :class:`~pathlib.Path` (or any ``os.PathLike``), or a string naming an existing
      file (``-``: standard input); records numbered by their lines;
    * many puzzles: any other iterable (a list, a generator, a pandas Series, a numpy array of
      strings), each item a puzzle's text or a :class:`Puzzle`, records numbered by position; an item
      that is neither (a missing value of a Series, a number) is an invalid record;
    * an ``(N, 81)`` numpy array of cell values (0 empty, 1-9), as :func:`sudorules.canonical` takes:
      N puzzles, numbered by row, each checked as its text would be (a repeated digit is an invalid
      record); another shape (one puzzle's ``(81,)``: ``reshape(1, 81)``) or a value outside 0..9 is
      an :class:`~sudorules.errors.InputError`.

    Anything else (a number, a mapping, a DataFrame, bytes, a string that is neither an existing
    file nor a puzzle) is an :class:`~sudorules.errors.InputError`, raised here."""
    if _is_one_puzzle(puzzles):
        return _one_item(1, puzzles)
    if isinstance(puzzles, os.PathLike):
        check_source(os.fspath(puzzles))
        return read_puzzle_file(os.fspath(puzzles))
    if isinstance(puzzles, str):
        return records_from_argument(puzzles)  # a file, or InputError: no such file (nor a puzzle)
    if isinstance(puzzles, np.ndarray) and puzzles.dtype.kind not in "UO":
        # cell values, not texts: iterated, a (1, 81) array gave one "not a puzzle: ndarray" row and an
        # (81,) array 81 rows of "not a puzzle: uint8"
        from .generation.generate import puzzle_strings  # the C generators: only for an array

        rows = puzzle_strings(cell_array(puzzles))
        return (record for number, text in enumerate(rows, start=1) for record in _one_item(number, text))
    check_many(puzzles, "a puzzle, a file path, an iterable of puzzles (a list, a pandas Series) "
                        "or an (N, 81) array of cell values")
    if (isinstance(puzzles, (list, tuple)) and len(puzzles) == 81
            and all(isinstance(v, int) and not isinstance(v, bool) for v in puzzles)):
        # one puzzle's cells, which read as 81 records "not a puzzle: int 0" (helper-43), as the
        # (81,) array is refused
        raise InputError("81 numbers are one puzzle's cells, not 81 puzzles: give them as np.array(cells)"
                         ".reshape(1, 81), or as the puzzle's text")
    items = puzzles.tolist() if isinstance(puzzles, pd.Series) else puzzles
    return (record for number, item in enumerate(items, start=1) for record in _one_item(number, item))


def _one_item(number: int, item: object) -> Iterator[PuzzleRecord]:
    """The record of the ``number``-th item of a list of puzzles."""
    if isinstance(item, Puzzle):
        if not item.conflicts():
            yield PuzzleRecord(number, str(item), item)
            return
        # Puzzle([...]) takes a repeated digit (conflicts() names it); check(Puzzle(v)) gave a valid row
        # of 0 solutions where check(str(v)) and rate gave the reason: the same record as its text
        item = str(item)
    why = not_a_puzzle(item)
    if why is not None:  # None, NaN, pd.NA, NaT (a missing value of a Series: no text), a number...
        yield PuzzleRecord(number, "" if is_missing(item) else str(item), None, why)
        return
    found = list(read_puzzles(split_lines(item)))
    if len(found) == 1:
        record = found[0]
        yield PuzzleRecord(number, record.text, record.puzzle, record.error, record.tail)
    else:
        yield PuzzleRecord(number, item, None, "empty input: no puzzle" if not found
                           else f"expected one puzzle, found {len(found)}")


def rate(puzzles: Puzzles, ratings: Union[str, Sequence[str]] = ("W",), *, jobs: Optional[int] = 1,
         time_limit: Optional[float] = None, max_length: int = 36, memory_limit: Optional[int] = None,
         progress: bool = False, canonical: bool = False) -> pd.DataFrame:
    """Rate puzzles (one, a file or many: :func:`records`): a table with the columns of ``sudorules
    rate`` (``puzzle, clues``, one column per rating, ``status, seconds, tail, error``; with
    ``canonical``, a ``canonical`` column before ``status`` as ``rate --canonical`` writes), one row
    per puzzle in input order.

    ``ratings``: W, B, gW, gB, TE, BxB, BxBB (any case; ``"W,B"`` or ``("W", "B")``), W by default as for the
    command.  ``time_limit``: seconds per puzzle and rating.  ``jobs=1`` (the default) rates in this
    process, the rules growing it by at most ``memory_limit`` MiB (a ``memory`` row; None: the memory
    available when it starts, as :func:`solve`); ``jobs=N`` on N worker processes (at most 4
    per core) and ``jobs=None`` on every core, with ``memory_limit`` MiB per worker, as
    ``--memory-limit`` (None: the available memory shared by the workers).  0: no limit.  A bad value
    is an :class:`~sudorules.errors.OptionError`."""
    from .batch.runner import RateOptions
    from .batch.rating import rating_names

    options = RateOptions(ratings=rating_names(ratings), jobs=jobs, max_length=max_length, time_limit=time_limit,
                          memory_limit=memory_limit)  # checks the values as the command line does
    return _rated_table(puzzles, options, progress, canonical)


def classify(puzzles: Puzzles, *, max_depth: int = 3, max_length: int = 36, g: bool = False, jobs: Optional[int] = 1,
             time_limit: Optional[float] = None, memory_limit: Optional[int] = None,
             progress: bool = False) -> pd.DataFrame:
    """The T&E-depth classification of puzzles (one, a file or many: :func:`records`): a table with the
    columns of ``sudorules classify`` (``puzzle, clues, te_depth`` (and ``gte_depth`` with ``g``),
    ``B, BxB, BxBB, status, seconds, tail, error``), one row per puzzle in input order; the other
    arguments as for :func:`rate` and ``classify``'s options (README "Beyond braids")."""
    from .batch.rating import classify_columns
    from .batch.runner import RateOptions

    options = RateOptions(ratings=classify_columns(g), jobs=jobs, max_length=max_length, time_limit=time_limit,
                          memory_limit=memory_limit, max_depth=max_depth)
    return _rated_table(puzzles, options, progress)


def _rated_table(puzzles: Puzzles, options, progress: bool, canonical: bool = False) -> pd.DataFrame:
    """The rows of ``options`` (in this process when ``jobs`` is 1) as a table with numeric ratings."""
    from .batch.rating import Rater, header
    from .batch.runner import rate_records

    ratings = options.ratings
    items = records(puzzles)
    if options.jobs == 1:
        rater = Rater(ratings, max_length=options.max_length, time_limit=options.time_limit,
                      max_depth=options.max_depth, memory_limit=solve_memory_bytes(options.memory_limit))
        rows: Iterable = (rater.rate(record) for record in items)
    else:
        rows = rate_records(items, options)
    if progress:
        from tqdm import tqdm

        rows = tqdm(rows, unit="puzzle")
    table = pd.DataFrame([row.values(ratings, canonical) for row in rows], columns=header(ratings, canonical))
    for column in ["clues", *ratings]:
        table[column] = pd.to_numeric(table[column], errors="coerce").astype("Int64")
    table["seconds"] = pd.to_numeric(table["seconds"])
    return _indexed_like(table, puzzles)


def _indexed_like(table: pd.DataFrame, puzzles: Puzzles) -> pd.DataFrame:
    """``table`` with the index of ``puzzles`` when they are a pandas Series (one row per item), so that
    ``df["B"] = sudorules.rate(df["puzzle"], "B")["B"]`` puts each value on its puzzle's row: with a
    RangeIndex, a filtered frame got its values misplaced or NaN."""
    if isinstance(puzzles, pd.Series) and len(puzzles) == len(table):
        table.index = puzzles.index
    return table


def check(puzzles: Puzzles, *, canonical: bool = False) -> pd.DataFrame:
    """Solution count (0, 1, 2 = two or more), minimality and unique solution of each puzzle: the
    columns of ``sudorules check`` (with ``canonical``, the ``canonical`` column of ``check
    --canonical``), one row per puzzle in input order."""
    from .batch.check import check_records, columns

    rows = check_records(records(puzzles), canonical=canonical)
    table = pd.DataFrame([row.csv_fields(canonical) for row in rows], columns=list(columns(canonical)))
    for column in ("clues", "solutions"):
        table[column] = pd.to_numeric(table[column], errors="coerce").astype("Int64")
    table["minimal"] = table["minimal"].map({"true": True, "false": False}).astype("boolean")
    return _indexed_like(table, puzzles)
