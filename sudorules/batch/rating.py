"""Rating puzzles: the W rating (whips) and the B rating (braids) of one puzzle record.

A :class:`Rater` holds one rule engine per requested rating, so the rules are loaded once per process
and reused for every puzzle.  :func:`rate_record` turns one input record into one output row.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..enums import Status
from ..resolution.families import RATINGS
from ..errors import InvalidPuzzleError
from ..reader import TAIL, PuzzleRecord
from ..engine.solver import Solver, unique_solution

#: The ratings we compute and the engine theory that gives each (from the registry of rule families).
RATING_THEORIES = RATINGS

#: Row statuses, from best to worst: the row's status is the worst over its ratings (a contradiction
#: cannot happen to a checked puzzle; it would count as not-solved).
STATUSES = tuple(str(s) for s in Status if s is not Status.CONTRADICTION)


@dataclass
class RatingRow:
    """One output row: the puzzle, its clue count, each requested rating (None if not obtained)."""

    puzzle: str
    clues: Optional[int]
    ratings: dict[str, Optional[int]] = field(default_factory=dict)
    status: str = "solved"
    seconds: float = 0.0
    error: str = ""
    tail: str = ""  #: the input record's tail (the generator's tries, a serate rating...), kept as it was

    def values(self, ratings: Sequence[str], tail: bool = True) -> list[str]:
        """The CSV cells in the order ``puzzle, clues, <ratings...>, status, seconds, tail, error``
        (without ``tail`` for an output written before tails were kept, see :func:`header`)."""
        cells = [self.puzzle, "" if self.clues is None else str(self.clues)]
        cells += ["" if self.ratings.get(r) is None else str(self.ratings[r]) for r in ratings]
        return cells + [self.status, f"{self.seconds:.3f}"] + ([self.tail] if tail else []) + [self.error]

    def as_dict(self, ratings: Sequence[str]) -> dict[str, str]:
        """The row as ``{column: CSV cell}`` (what ``--format`` templates read)."""
        return dict(zip(header(ratings), self.values(ratings)))


def header(ratings: Sequence[str], tail: bool = True) -> list[str]:
    """The CSV header for the requested ratings; ``tail=False`` gives the columns of outputs written
    before the ``tail`` column existed (they still resume in their own columns)."""
    return ["puzzle", "clues", *ratings, "status", "seconds"] + ([TAIL] if tail else []) + ["error"]


def failed_row(record_text: str, clues: Optional[int], ratings: Sequence[str], status: str,
               error: str = "", seconds: float = 0.0, tail: str = "") -> RatingRow:
    """A row for a puzzle that could not be rated (invalid, timeout, memory, crashed)."""
    return RatingRow(record_text, clues, {r: None for r in ratings}, status, seconds, error, tail)


def record_failed_row(record: PuzzleRecord, ratings: Sequence[str], status: str, error: str = "",
                      seconds: float = 0.0) -> RatingRow:
    """A failed row for an input record: its puzzle (or raw text when it did not parse), clues and tail."""
    puzzle = record.puzzle
    text = str(puzzle) if puzzle is not None else record.text.strip()
    return failed_row(text, puzzle.clues if puzzle is not None else None, ratings, status, error, seconds,
                      record.tail)


class Rater:
    """Rates puzzles with a fixed set of ratings; loads each theory's rules once (a :class:`Solver`)."""

    def __init__(self, ratings: Sequence[str] = ("W",), max_length: int = 36,
                 time_limit: Optional[float] = None):
        unknown = [r for r in ratings if r not in RATING_THEORIES]
        if unknown:
            raise ValueError(f"unknown rating {unknown[0]!r}; choose among {', '.join(RATING_THEORIES)}")
        self.ratings = tuple(ratings)
        self.time_limit = time_limit
        self.solver = Solver(max_length=max_length)
        for name in self.ratings:  # load the rules now, once per worker process, not on the first puzzle
            self.solver.engine(RATING_THEORIES[name])

    def rate(self, record: PuzzleRecord) -> RatingRow:
        """Rate one input record; invalid puzzles get status ``invalid`` with the reason."""
        started = time.perf_counter()
        if record.puzzle is None:
            return record_failed_row(record, self.ratings, "invalid", f"line {record.line}: {record.error}")
        puzzle = record.puzzle
        try:
            solution = unique_solution(puzzle)
        except InvalidPuzzleError as error:
            return record_failed_row(record, self.ratings, "invalid", error.reason, time.perf_counter() - started)
        row = RatingRow(str(puzzle), puzzle.clues, tail=record.tail)
        statuses = []
        for name in self.ratings:
            resolution = self.solver.solve(puzzle, RATING_THEORIES[name], time_limit=self.time_limit,
                                           solution=solution)
            row.ratings[name] = resolution.rating
            statuses.append(resolution.status if resolution.status in STATUSES else "not-solved")
        row.status = str(max(statuses, key=STATUSES.index))
        row.seconds = time.perf_counter() - started
        return row
