"""Rating puzzles: the W, gW (rules), B, gB, TE, BxB, BxBB (compiled T&E engine) ratings of one
puzzle record, the rating of any other theory (rules: ``BC``, ``Z``, ``S+W``, ``default``...), and
its T&E classification.

A :class:`Rater` holds one rule engine per requested rule-based rating, so the rules are loaded once
per process and reused for every puzzle; the compiled ratings need no loading.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Optional, Sequence

from ..enums import TE_THEORIES, Status, Theory, theory_spelling
from ..errors import InvalidPuzzleError, OptionError
from ..reader import TAIL, PuzzleRecord
from ..engine.solver import Solver, unique_solution

#: The ratings of the compiled T&E engine (sudorules/engine/te.py): braids are confluent, so B and gB
#: need no rule path (the same values, 10-30x sooner); TE is the T&E-depth, BxB and BxBB the
#: sub-classifications of depths 2 and 3 (SPEC §10), empty for puzzles of a lower depth.
COMPILED_RATINGS = ("B", "gB", "TE", "BxB", "BxBB")

#: The ratings that bound a braid rating from above (braids include whips, g-braids include braids and
#: g-whips include whips: gB <= B <= W, gB <= gW, SPEC §4), computed first in a row, so that B and gB
#: stop as soon as their closure one length short of the bound is stuck (te.rate_braids' ``upper``).
#: cb-001, the first 60 puzzles of each level, one core: gB given B 0.52-0.76x the CPU at gB 2-9, B
#: given W 0.46-0.54x at B 2-7 (docs/engine.md).
UPPER_BOUNDS = {"B": ("W",), "gB": ("B", "gW", "W")}
_BOUNDS_FIRST = {"W": 0, "gW": 0, "B": 1, "gB": 2}  # the order of computation in a row


# The registry of rule families imports the whole resolution package (its checkers), which a run of
# compiled ratings never needs (a fifth of `rate --rating B`'s start-up, importtime): the rule-based
# names are read from it on first use.

def rule_ratings() -> dict[str, Theory]:
    """The rule-based ratings and the theory that gives each (from the registry of rule families)."""
    from ..resolution.families import RATINGS

    return RATINGS


def all_ratings() -> tuple[str, ...]:
    """Every rating ``rate --rating`` accepts, in the order of the help text."""
    return tuple(dict.fromkeys([*rule_ratings(), *COMPILED_RATINGS]))


def __getattr__(name: str):
    """``RATING_THEORIES`` (:func:`rule_ratings`) and ``ALL_RATINGS`` (:func:`all_ratings`), made on
    first use."""
    if name == "RATING_THEORIES":
        return rule_ratings()
    if name == "ALL_RATINGS":
        return all_ratings()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _rating_theory(name: str) -> Theory:
    from ..resolution.families import rating_theory

    return rating_theory(name)


#: The columns of ``classify`` (with ``g``, ``gte_depth`` after ``te_depth``).
CLASSIFY_COLUMNS = ("te_depth", "B", "BxB", "BxBB")

#: Row statuses, from best to worst: the row's status is the worst over its ratings (a contradiction
#: cannot happen to a checked puzzle; it would count as not-solved).
STATUSES = tuple(str(s) for s in Status if s is not Status.CONTRADICTION)


def computation_order(ratings: Sequence[str]) -> list[str]:
    """The order in which a row's ratings are computed: the bounds first (:data:`UPPER_BOUNDS`), the
    columns keeping the order asked."""
    return sorted(ratings, key=lambda r: _BOUNDS_FIRST.get(r, 1))


def rating_in_progress(ratings: Sequence[str], finished: Iterable[str]) -> str:
    """The rating a row was computing when its worker died, given those it had ``finished`` (what the
    worker reported): the first of :func:`computation_order` not finished; ``classify`` for a
    classification (one computation for all its columns)."""
    if is_classification(ratings):
        return "classify"
    done = set(finished)
    return next((name for name in computation_order(ratings) if name not in done), ratings[-1])


def canonical_rating(name: str) -> str:
    """The rating ``name`` names, in any case (``w`` is ``W``, ``gb`` is ``gB``, ``bxb`` is ``BxB``),
    spelt as :data:`ALL_RATINGS` spells it; any other theory name (``BC``, ``S+W``, ``default``...:
    the rating of that theory) as given, each part spelt as its own (``s+w`` is ``S+W``); :class:`~sudorules.errors.OptionError` for any other."""
    wanted = str(name).strip()
    for rating in COMPILED_RATINGS:  # first: no registry needed for them
        if rating.lower() == wanted.lower():
            return rating
    every = all_ratings()
    for rating in every:
        if rating.lower() == wanted.lower():
            return rating
    try:
        theory = _rating_theory(wanted)
    except ValueError as error:
        reason = f"unknown rating {name!r}: choose among {', '.join(every)} or a theory ({error})"
        raise OptionError(f"rating: {reason}", reason) from None
    if str(theory) in TE_THEORIES:  # TE1-TE3: a path of solve, no number (BxB, BxBB matched above)
        reason = (f"{theory} is a theory of solve, not a rating: rate gives the T&E-depth as --rating TE, "
                  f"and classify gives it with B, BxB and BxBB")
        raise OptionError(f"rating: {reason}", reason)
    return theory_spelling(wanted)


def rating_names(ratings: object) -> tuple[str, ...]:
    """The ratings a ``ratings`` argument of the API asks for (:func:`canonical_rating` each): a
    comma-separated str (``"W,B"``) or an iterable of names (``("W", "B")``); :class:`OptionError` for
    anything else, before any work (``ratings=None`` failed inside as "'NoneType' object is not
    iterable"; bytes would have been read as numbers)."""
    if isinstance(ratings, str):
        return tuple(canonical_rating(name) for name in ratings.split(","))
    if isinstance(ratings, (bytes, bytearray)) or not isinstance(ratings, Iterable):
        reason = ('expected a str ("W" or "W,B") or a sequence of names (("W", "B")), '
                  f"not {type(ratings).__name__}")
        raise OptionError(f"ratings: {reason}", reason)
    return tuple(canonical_rating(name) for name in ratings)


def compiled_only(ratings: Sequence[str]) -> bool:
    """True when every rating comes from the compiled T&E engine (or is classify's): no rules."""
    return all(name in COMPILED_RATINGS or name in classify_columns(True) for name in ratings)


def is_classification(ratings: Sequence[str]) -> bool:
    """True for the columns of ``classify`` (:func:`classify_columns`, te_depth first)."""
    return bool(ratings) and ratings[0] == "te_depth"


def classify_columns(g: bool = False) -> tuple[str, ...]:
    """The rating columns of ``classify``: ``te_depth`` (and ``gte_depth`` with g), B, BxB, BxBB."""
    return ("te_depth", "gte_depth", *CLASSIFY_COLUMNS[1:]) if g else CLASSIFY_COLUMNS


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
    #: where its record is (``line 3``), for messages only: no column (the row's puzzle is its key)
    where: str = field(default="", compare=False)

    @property
    def failure(self) -> str:
        """What a row that fails the run says on stderr when its cells are not printed (``--format``):
        an invalid row's error names its line already (``line 4: bad character ...``); a crashed
        row's says what killed its worker, ``line 2: crashed: worker killed by SIGSEGV``."""
        if self.status == Status.INVALID or not self.where:
            return self.error
        return f"{self.where}: {self.status}" + (f": {self.error}" if self.error else "")

    def values(self, ratings: Sequence[str], canonical: bool = False, tail: bool = True) -> list[str]:
        """The CSV cells in the order ``puzzle, clues, <ratings...>, [canonical,] status, seconds,
        tail, error`` (without ``tail`` for an output written before tails were kept, see
        :func:`header`); the canonical form (empty when the puzzle text does not parse) is computed
        here, where the row is written, so workers need not know about it."""
        cells = [self.puzzle, "" if self.clues is None else str(self.clues)]
        cells += ["" if self.ratings.get(r) is None else str(self.ratings[r]) for r in ratings]
        if canonical:
            from ..generation.canonical import canonical_text  # numpy: only when asked for

            cells.append(canonical_text(self.puzzle))
        return cells + [self.status, f"{self.seconds:.3f}"] + ([self.tail] if tail else []) + [self.error]

    def as_dict(self, ratings: Sequence[str], canonical: bool = False) -> dict[str, str]:
        """The row as ``{column: CSV cell}`` (what ``--format`` templates read)."""
        return dict(zip(header(ratings, canonical), self.values(ratings, canonical)))


def header(ratings: Sequence[str], canonical: bool = False, tail: bool = True) -> list[str]:
    """The CSV header for the requested ratings (and the canonical form's column); ``tail=False``
    gives the columns of outputs written before the ``tail`` column existed (they still resume in
    their own columns)."""
    return (["puzzle", "clues", *ratings, *(["canonical"] if canonical else []), "status", "seconds"]
            + ([TAIL] if tail else []) + ["error"])


def failed_row(record_text: str, clues: Optional[int], ratings: Sequence[str], status: str,
               error: str = "", seconds: float = 0.0, tail: str = "") -> RatingRow:
    """A row for a puzzle that could not be rated (invalid, timeout, memory, crashed)."""
    return RatingRow(record_text, clues, {r: None for r in ratings}, status, seconds, error, tail)


def record_failed_row(record: PuzzleRecord, ratings: Sequence[str], status: str, error: str = "",
                      seconds: float = 0.0) -> RatingRow:
    """A failed row for an input record: its puzzle (or raw text when it did not parse), clues and tail."""
    puzzle = record.puzzle
    row = failed_row(record.cell, puzzle.clues if puzzle is not None else None, ratings, status, error, seconds,
                     record.tail)
    row.where = record.where
    return row


class Rater:
    """Rates puzzles with a fixed set of ratings; loads each rule-based theory's rules once (a
    :class:`Solver`).  When the ratings are the classification's columns (:func:`classify_columns`),
    they are computed together by one call of the compiled engine, T&E-depths up to ``max_depth``."""

    def __init__(self, ratings: Sequence[str] = ("W",), max_length: int = 36,
                 time_limit: Optional[float] = None, max_depth: int = 3, memory_limit: Optional[int] = None):
        classify = is_classification(ratings)
        if classify:
            known = classify_columns(True)
        elif all(name in COMPILED_RATINGS for name in ratings):  # no registry needed
            known = COMPILED_RATINGS
        else:
            known = all_ratings()
        #: the theory of each other rating (any theory name: BC, S+W, default...), rated by its rules
        self.theories: dict[str, Theory] = {}
        for name in ratings:
            if name not in known:
                try:
                    self.theories[name] = _rating_theory(name)
                except ValueError:
                    self.theories[name] = None  # type: ignore[assignment]
        unknown = [r for r in ratings if r not in known and (classify or self.theories[r] is None)]
        if unknown:
            raise ValueError(f"unknown rating {unknown[0]!r}; choose among {', '.join(known)}"
                             + ("" if classify else " or a theory"))
        self.ratings = tuple(ratings)
        self.time_limit = time_limit
        #: bytes the rules may grow this process by (status ``memory``), for a rater in the caller's
        #: process (the API with jobs=1); None: none (a pool worker's memory is watched by its pool)
        self.memory_limit = memory_limit
        self.max_length = max_length
        self.classify = classify
        self.max_depth = max_depth
        self.solver = Solver(max_length=max_length)
        if classify or any(name in COMPILED_RATINGS for name in self.ratings):
            # the compiled engine now too, before a pool worker caps its memory: mapped later, its
            # shared object counted against the cap, and under a small one the row was "crashed:
            # ImportError: ... failed to map segment", not "memory"
            from ..engine import te  # noqa: F401
        for name in self.ratings:  # load the rules now, once per worker process, not on the first puzzle
            if not classify and name not in COMPILED_RATINGS:
                self.solver.engine(self.theories.get(name) or rule_ratings()[name])

    def rate(self, record: PuzzleRecord, on_rating: Optional[Callable[[RatingRow], None]] = None) -> RatingRow:
        """Rate one input record; invalid puzzles get status ``invalid`` with the reason.
        ``on_rating(row so far)`` is called after each rating (a pool worker sends it to the pool, so
        that a row whose worker is killed keeps the ratings it finished)."""
        started = time.perf_counter()
        if record.puzzle is None:
            return record_failed_row(record, self.ratings, "invalid", f"{record.where}: {record.error}")
        puzzle = record.puzzle
        try:
            solution = unique_solution(puzzle)
        except InvalidPuzzleError as error:
            return record_failed_row(record, self.ratings, "invalid", f"{record.where}: {error.reason}",
                                     time.perf_counter() - started)
        row = RatingRow(str(puzzle), puzzle.clues, tail=record.tail)
        if self.classify:
            outcomes = self._classify(puzzle, solution, row)
        else:
            done: dict[str, tuple[str, str]] = {}
            for name in computation_order(self.ratings):
                try:
                    done[name] = self._rate_one(name, puzzle, solution, row, done)
                except MemoryError:  # in this process (rate --jobs 1, the API): a row, as a worker's death is
                    row.ratings[name] = None
                    done[name] = ("memory", "out of memory")
                if on_rating is not None:  # the row so far: kept if the worker is killed before the end
                    on_rating(replace(row, ratings=dict(row.ratings), seconds=time.perf_counter() - started,
                                      status=str(max((status for status, _ in done.values()), key=STATUSES.index))))
            outcomes = [done[name] for name in self.ratings]
        row.status = str(max((status for status, _ in outcomes), key=STATUSES.index))
        names = ["classify", "gte_depth"] if self.classify else self.ratings
        row.error = "; ".join(f"{name}: {error}" for name, (_, error) in zip(names, outcomes) if error)
        row.seconds = time.perf_counter() - started
        return row

    def _rate_one(self, name: str, puzzle, solution, row: RatingRow,
                  done: dict[str, tuple[str, str]]) -> tuple[str, str]:
        """One rating into ``row.ratings[name]``; its (status, error).  ``done``: the (status, error)
        of the ratings already in ``row``, whose solved values may bound this one (UPPER_BOUNDS)."""
        from ..engine import te

        if name in ("B", "gB"):
            bounds = [row.ratings[b] for b in UPPER_BOUNDS[name]
                      if done.get(b, ("",))[0] == "solved" and row.ratings.get(b) is not None]
            rating = te.rate_braids(puzzle, g=name == "gB", max_length=self.max_length, solution=solution,
                                    time_limit=self.time_limit, upper=min(bounds, default=None))
            row.ratings[name] = rating.value
            return str(rating.status), rating.error
        if name in ("TE", "BxB", "BxBB"):
            found = te.classify(puzzle, task=name, max_length=self.max_length, solution=solution,
                                time_limit=self.time_limit)
            row.ratings[name] = found.depth if name == "TE" else found.value
            if name != "TE" and found.status == Status.SOLVED and found.value is None:
                # a puzzle of a lower depth: the value is empty by definition, and the row says why (a
                # solved row with an empty value and no reason read as a value lost), as solve's path does
                return str(found.status), f"does not apply: T&E-depth {found.depth}"
            return str(found.status), found.error
        if name in self.theories:  # another theory: its rules, from the start
            resolution = self.solver.solve(puzzle, self.theories[name], time_limit=self.time_limit,
                                           solution=solution, memory_limit=self.memory_limit)
            row.ratings[name] = resolution.rating
            status = resolution.status if resolution.status in STATUSES else "not-solved"
            # Every rule these theories have (Subsets, fish, chains) eliminates what T&E(1) does (gT&E(1)
            # with g-chains): outside it, say why the rules could not finish.
            g = any(part.startswith("g") for part in name.split("+"))
            if status == "not-solved" and not te.in_te1(puzzle, g=g, solution=solution):
                return str(Status.BEYOND_TE1), te.beyond_te1_reason(g, "chain")
            return status, self._rules_reason(status, f"the rules of {name}", resolution.error)
        # Whips of length <= 2 (g-whips <= 3) are confluent: the compiled engine gives their closure,
        # the rating when it solves the puzzle (W 0-2, gW 0-3), else the state where the rules start
        # (rule loading, fact resets and the short levels were most of an easy puzzle's time: 200 gW3
        # puzzles of cb-001 3.44 -> 0.33 CPU-s); and a puzzle outside T&E(1) has
        # no W (gW) rating, told at once (the rules took 0.3-0.6 s to fail on SHC's BxB examples).
        g = name.startswith("g")
        start = te.short_whips(puzzle, g=g, solution=solution, max_length=self.max_length)
        row.ratings[name] = start.rating
        if start.beyond:
            return str(Status.BEYOND_TE1), te.beyond_te1_reason(g, "whip")
        if start.state is None:
            return "solved", ""
        if self.max_length <= te.CONFLUENT_WHIPS[g]:  # the closure was the whole rating: the rules add nothing
            return "not-solved", self._rules_reason("not-solved", f"{'g-' if g else ''}whips of length <= "
                                                                  f"{self.max_length}")
        resolution = self.solver.solve(start.state, rule_ratings()[name], time_limit=self.time_limit,
                                       solution=solution, memory_limit=self.memory_limit)
        row.ratings[name] = resolution.rating
        status = resolution.status if resolution.status in STATUSES else "not-solved"
        return status, self._rules_reason(status, f"{'g-' if g else ''}whips of length <= {self.max_length}",
                                          resolution.error)

    def _rules_reason(self, status: str, rules: str, said: Optional[str] = None) -> str:
        """The error cell of a rating by rules that did not solve the puzzle (the row's status alone
        did not say which of its ratings stopped, nor why); ``said``: the resolution's own reason."""
        if status == "timeout":
            return f"time limit of {self.time_limit:g} s reached"
        if status == "memory":
            return said or f"memory limit of {(self.memory_limit or 0) / 2**20:g} MiB reached"
        if status == "not-solved":
            return f"{rules} do not solve it"
        return ""

    def _classify(self, puzzle, solution, row: RatingRow) -> list[tuple[str, str]]:
        """The classification's columns into ``row.ratings``, and its (status, error)."""
        from ..engine import te

        found = te.classify(puzzle, max_depth=self.max_depth, max_length=self.max_length, solution=solution,
                            time_limit=self.time_limit)
        columns = found.columns()
        outcomes = [(str(found.status), found.error)]
        if "gte_depth" in self.ratings:
            g = te.classify(puzzle, task="TE", g=True, max_depth=self.max_depth, solution=solution,
                            time_limit=self.time_limit)
            columns["gte_depth"] = g.depth
            outcomes.append((str(g.status), g.error))
        row.ratings.update({name: columns[name] for name in self.ratings})
        return outcomes


# --- the pool of rating processes: a local run's, and each dask worker thread's ------------------

def _make_rater_handle(ratings: Sequence[str], max_length: int, time_limit: Optional[float],
                       max_depth: int = 3) -> Callable:
    """Worker factory for the pool: build the rater once per process, return its per-record function
    (which reports each finished rating to the pool: a row whose worker is killed keeps them)."""
    from .pool import report_partial, tasks_served

    rater = Rater(ratings, max_length=max_length, time_limit=time_limit, max_depth=max_depth)

    def handle(record: PuzzleRecord) -> RatingRow:
        row = rater.rate(record, on_rating=report_partial)
        if row.status == Status.MEMORY and tasks_served():
            # out of memory in the rules on a worker that rated others before: as a worker dying
            # there, the puzzle is rated again on a fresh one, so that its row is what it gives alone
            raise MemoryError
        return row

    handle.release_memory = rater.solver.release_memory  # type: ignore[attr-defined]  # the pool's, before a task
    return handle


def backstop_seconds(ratings: Sequence[str], time_limit: Optional[float]) -> Optional[float]:
    """The pool's hard limit for one row: the engines stop themselves at ``time_limit`` per rating and
    say "timeout"; this kill is only for a run that cannot stop itself (one CLIPS call can last
    seconds).  Each rating of the row has its own limit, so the backstop grows with their number:
    2 x time_limit per rating, and 10 s for a worker's start.  (It was 2 x time_limit + 10 for the
    whole row: ``--rating W,gW,B,gB --time-limit 6`` killed rows at 22 s whose four ratings were
    each within their 6 s.)"""
    if time_limit is None:
        return None
    return 2 * time_limit * max(1, len(ratings)) + 10


def failure_handler(ratings: Sequence[str]) -> Callable[[PuzzleRecord, str, str, Optional[RatingRow], float],
                                                          RatingRow]:
    """The pool's ``on_failure`` for rows of ``ratings``: the row of a record whose worker died, was
    killed by the backstop or ran out of memory, with the ratings it finished (a local run's pool, and
    each dask worker's, :mod:`~sudorules.batch.distributed`)."""
    ratings = tuple(ratings)

    def on_failure(record: PuzzleRecord, kind: str, detail: str, partial: Optional[RatingRow],
                   seconds: float) -> RatingRow:
        status = kind if kind in ("timeout", "memory") else "crashed"
        finished = partial.ratings if partial is not None else {}
        # prefixed by the rating the worker was on, as every rating's reason is: "worker exited ...
        # under its memory limit" of a W,B row did not say which of them ran out
        at = rating_in_progress(ratings, finished)
        row = record_failed_row(record, ratings, status, f"{at}: {detail}", seconds)
        row.ratings.update(finished)  # keep the ratings the row finished before its worker was killed
        missing = [name for name in ratings if name not in finished and name != at and at != "classify"]
        if missing:
            row.error += f"; {', '.join(missing)} not rated"
        return row
    return on_failure


def rating_pool(ratings: Sequence[str], max_length: int, time_limit: Optional[float], max_depth: int, jobs: int,
                memory_limit: Optional[int], start_method: Optional[str] = None):
    """The :class:`~sudorules.batch.pool.OrderedPool` of ``jobs`` rating processes, each capped at
    ``memory_limit`` bytes past its loaded rules (None: no cap), with the time backstop and
    :func:`failure_handler`: a local run's, and each dask worker thread's."""
    from .pool import OrderedPool

    ratings = tuple(ratings)
    return OrderedPool(_make_rater_handle, (ratings, max_length, time_limit, max_depth), jobs,
                       failure_handler(ratings), task_timeout=backstop_seconds(ratings, time_limit),
                       memory_limit=memory_limit or None, start_method=start_method)
