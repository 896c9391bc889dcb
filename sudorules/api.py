"""The few functions most users need, over the library's types (as ``requests.api`` over ``Session``).

>>> import sudorules
>>> resolution = sudorules.solve("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........")
>>> resolution.status, resolution.rating
(<Status.SOLVED: 'solved'>, 2)

``solve`` keeps one :class:`~sudorules.solver.Solver` per (``max_length``, ``lean_braids_from``),
so the rules of a theory are loaded once per process, not once per call.  ``rate`` and ``check``
take one puzzle or many (strings, :class:`~sudorules.puzzle.Puzzle` objects, any iterable of them)
and return the same columns and statuses as ``sudorules rate`` and ``sudorules check``.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Optional, Sequence, Union

import pandas as pd

from .enums import Theory
from .puzzle import Puzzle
from .reader import PuzzleRecord, read_puzzles
from .engine.schedule import LEAN_BRAIDS_FROM
from .engine.solver import Solver
from .resolution.steps import Resolution

PuzzleInput = Union[str, Puzzle]
Puzzles = Union[PuzzleInput, Iterable[PuzzleInput]]

_solvers: dict[tuple[int, int], Solver] = {}


def solve(puzzle: PuzzleInput, theory: Union[Theory, str] = "W", *, max_length: int = 36,
          time_limit: Optional[float] = None, lean_braids_from: int = LEAN_BRAIDS_FROM) -> Resolution:
    """Solve one puzzle by the rules of ``theory`` (``W``, ``B``, ``gW``, ``gB``, ``SW``, ``BRT``,
    ``default`` or any composition of SudoRules' parts such as ``S+Fin+BC+Z+tW+W``: :class:`Theory`),
    simplest first.

    Raises :class:`~sudorules.puzzle.PuzzleError` for a text that is no puzzle and
    :class:`~sudorules.errors.InvalidPuzzleError` for a puzzle with no or several solutions.  A
    puzzle the theory cannot finish, or that reaches ``time_limit`` (seconds), is not an error: the
    :class:`~sudorules.steps.Resolution` says so in its ``status`` (``raise_for_status()`` turns it
    into one)."""
    key = (max_length, lean_braids_from)
    if key not in _solvers:
        _solvers[key] = Solver(max_length=max_length, lean_braids_from=lean_braids_from)
    return _solvers[key].solve(puzzle, theory, time_limit=time_limit)


def records(puzzles: Puzzles) -> Iterator[PuzzleRecord]:
    """Input records for one puzzle or many: a text is parsed (its errors become invalid records,
    numbered by position), a :class:`Puzzle` is taken as it is."""
    if isinstance(puzzles, (str, Puzzle)):
        puzzles = [puzzles]
    for number, item in enumerate(puzzles, start=1):
        if isinstance(item, Puzzle):
            yield PuzzleRecord(number, str(item), item)
            continue
        found = list(read_puzzles(str(item).splitlines()))
        if len(found) == 1:
            record = found[0]
            yield PuzzleRecord(number, record.text, record.puzzle, record.error, record.tail)
        else:
            yield PuzzleRecord(number, str(item), None, "empty input: no puzzle" if not found
                               else f"expected one puzzle, found {len(found)}")


def rate(puzzles: Puzzles, ratings: Sequence[str] = ("W", "B"), *, jobs: Optional[int] = 1,
         time_limit: Optional[float] = None, max_length: int = 36, memory_limit: Optional[int] = None,
         progress: bool = False) -> pd.DataFrame:
    """Rate puzzles: a table with the columns of ``sudorules rate`` (``puzzle, clues``, one column
    per rating, ``status, seconds, error``), one row per puzzle in input order.

    ``jobs=1`` (the default) rates in this process; ``jobs=N`` on N worker processes and
    ``jobs=None`` on every core, with ``memory_limit`` bytes per worker (None: the available memory
    shared by the workers)."""
    from .batch.runner import RateOptions, rate_records
    from .batch.rating import Rater, header

    ratings = tuple(ratings)
    items = records(puzzles)
    if jobs == 1:
        rater = Rater(ratings, max_length=max_length, time_limit=time_limit)
        rows: Iterable = (rater.rate(record) for record in items)
    else:
        rows = rate_records(items, RateOptions(ratings=ratings, jobs=jobs, max_length=max_length,
                                               time_limit=time_limit, memory_limit=memory_limit))
    if progress:
        from tqdm import tqdm

        rows = tqdm(rows, unit="puzzle")
    table = pd.DataFrame([row.values(ratings) for row in rows], columns=header(ratings))
    for column in ["clues", *ratings]:
        table[column] = pd.to_numeric(table[column], errors="coerce").astype("Int64")
    table["seconds"] = pd.to_numeric(table["seconds"])
    return table


def check(puzzles: Puzzles) -> pd.DataFrame:
    """Solution count (0, 1, 2 = two or more), minimality and unique solution of each puzzle: the
    columns of ``sudorules check``, one row per puzzle in input order."""
    from .batch.check import COLUMNS, check_records

    table = pd.DataFrame([row.csv_fields() for row in check_records(records(puzzles))], columns=list(COLUMNS))
    for column in ("clues", "solutions"):
        table[column] = pd.to_numeric(table[column], errors="coerce").astype("Int64")
    table["minimal"] = table["minimal"].map({"true": True, "false": False}).astype("boolean")
    return table
