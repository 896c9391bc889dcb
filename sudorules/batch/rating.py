"""Rating puzzles: the W rating (whips), the B rating (braids) or the rating of any theory of one
puzzle record.

A :class:`Rater` holds one rule engine per requested rating, so the rules are loaded once per process
and reused for every puzzle.  :func:`rate_record` turns one input record into one output row.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..enums import Status
from ..resolution.families import RATINGS, rating_theory
from ..errors import InvalidPuzzleError
from ..reader import PuzzleRecord
from ..engine.solver import Solver, unique_solution

#: The named ratings and the engine theory that gives each (from the registry of rule families); a
#: rating may also be any theory name (``BC``, ``Z``, ``S+W``, ``default``...: :func:`rating_theory`).
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

    def values(self, ratings: Sequence[str]) -> list[str]:
        """The CSV cells in the order ``puzzle, clues, <ratings...>, status, seconds, error``."""
        cells = [self.puzzle, "" if self.clues is None else str(self.clues)]
        cells += ["" if self.ratings.get(r) is None else str(self.ratings[r]) for r in ratings]
        return cells + [self.status, f"{self.seconds:.3f}", self.error]


def header(ratings: Sequence[str]) -> list[str]:
    """The CSV header for the requested ratings."""
    return ["puzzle", "clues", *ratings, "status", "seconds", "error"]


def failed_row(record_text: str, clues: Optional[int], ratings: Sequence[str], status: str,
               error: str = "", seconds: float = 0.0) -> RatingRow:
    """A row for a puzzle that could not be rated (invalid, timeout, memory, crashed)."""
    return RatingRow(record_text, clues, {r: None for r in ratings}, status, seconds, error)


def record_failed_row(record: PuzzleRecord, ratings: Sequence[str], status: str, error: str = "",
                      seconds: float = 0.0) -> RatingRow:
    """A failed row for an input record: its puzzle (or raw text when it did not parse) and clues."""
    puzzle = record.puzzle
    text = str(puzzle) if puzzle is not None else record.text.strip()
    return failed_row(text, puzzle.clues if puzzle is not None else None, ratings, status, error, seconds)


class Rater:
    """Rates puzzles with a fixed set of ratings; loads each theory's rules once (a :class:`Solver`)."""

    def __init__(self, ratings: Sequence[str] = ("W",), max_length: int = 36,
                 time_limit: Optional[float] = None):
        self.ratings = tuple(ratings)
        self.theories = {}
        for name in self.ratings:
            try:
                self.theories[name] = rating_theory(name)
            except ValueError as error:
                raise ValueError(f"unknown rating {name!r}: {error}; named ratings: "
                                 f"{', '.join(RATING_THEORIES)}") from None
        self.time_limit = time_limit
        self.solver = Solver(max_length=max_length)
        for name in self.ratings:  # load the rules now, once per worker process, not on the first puzzle
            self.solver.engine(self.theories[name])

    def rate(self, record: PuzzleRecord) -> RatingRow:
        """Rate one input record; invalid puzzles get status ``invalid`` with the reason."""
        started = time.perf_counter()
        if record.puzzle is None:
            return failed_row(record.text.strip(), None, self.ratings, "invalid",
                              f"line {record.line}: {record.error}")
        puzzle = record.puzzle
        try:
            solution = unique_solution(puzzle)
        except InvalidPuzzleError as error:
            return failed_row(str(puzzle), puzzle.clues, self.ratings, "invalid", error.reason,
                              time.perf_counter() - started)
        row = RatingRow(str(puzzle), puzzle.clues)
        statuses = []
        for name in self.ratings:
            resolution = self.solver.solve(puzzle, self.theories[name], time_limit=self.time_limit,
                                           solution=solution)
            row.ratings[name] = resolution.rating
            statuses.append(resolution.status if resolution.status in STATUSES else "not-solved")
        row.status = str(max(statuses, key=STATUSES.index))
        row.seconds = time.perf_counter() - started
        return row
