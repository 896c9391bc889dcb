"""Generators of minimal puzzles: bottom-up, top-down and controlled-bias (issue 4).

The algorithms are those of D. Berthier, "Unbiased Statistics of a CSP - a Controlled-Bias Generator"
(§IV.A, §V.A) and of the "Classification results" supplement (§1.1), run in the compiled module
:mod:`sudorules._generate` (``generator/generate.c``) without the GIL:

* **bottom-up**: from the empty grid, add a uniformly random (cell, digit) pair that contradicts no
  given (a pair leaving no solution is taken back and another drawn) until the puzzle has one
  solution; then delete its clues in random order whenever the puzzle stays unique (minimal).
* **top-down**: from a random complete grid, delete the clues in random order; a deletion that gives
  several solutions is undone and the next clue is tried.  The result is minimal.
* **controlled-bias**: from a random complete grid, delete random clues; as soon as the puzzle has
  several solutions the grid is discarded and a new one drawn; the first minimal puzzle met is the
  output.  ``tries`` = number of complete grids used for that puzzle (the format of the published
  collection: ``puzzle tries``).

The controlled-bias *acceleration* (``untested``, default 46, as in the papers): the first ``untested``
deletions are made without testing.  A test can only end a path early on a multi-solution puzzle
(restart) or output a minimal puzzle of more than ``81 - untested`` clues; with 46, that means a
minimal puzzle of 36 clues or more, which the papers never met in 6.5 million puzzles (none above
32 clues, the largest known minimal puzzles have 39-40 clues and are astronomically rare among
random deletion paths).  Skipping the tests therefore only changes the output when a path would
have produced a >35-clue puzzle, an event of probability far below anything a sample can detect,
and the papers checked that the distributions before and after the acceleration agree.

Reproducibility: with the internal grid source, puzzle ``i`` of a run with seed ``s`` draws everything
(grids and deletion orders) from its own random stream ``stream_seed(s, i)``; with given grids, grid
``j`` of the input (0-based) uses stream ``stream_seed(s, j)`` for its deletion order.  The output is
therefore the same for any number of ``jobs`` (threads: the C code runs without the GIL).

Stopping: a :class:`Stop` given to :func:`iter_generate` can be set from any thread (the command line
does it on Ctrl-C / SIGTERM); the C loops look at it between puzzles and between grids, so the run
ends within one puzzle's time (bottom-up, top-down) or one grid try (controlled-bias), and yields the
puzzles completed before the first unfinished one: a stopped run is a prefix of the full run.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, Union

import numpy as np

from .. import _generate
from ..errors import OptionError, SudorulesError
from ..options import (PUZZLES_RANGE, SEED_RANGE, START_RANGE, UNTESTED_RANGE, check_method_option, check_start,
                       check_weights, check_whole)

if TYPE_CHECKING:
    import pandas as pd

METHODS = ("bottom-up", "top-down", "controlled-bias")
DEFAULT_UNTESTED = 46
_METHOD_CODES = {"bottom-up": 0, "top-down": 1, "controlled-bias": 2}
# Puzzles per C call: small enough for a lively progress bar and for a prompt Ctrl-C.
_CHUNK = {"bottom-up": 256, "top-down": 1024, "controlled-bias": 1}
_GRID_CHUNK = 1 << 14

Progress = Callable[[int, int], None]
GridSource = Union[np.ndarray, Iterable]

#: A stop request shared by the threads of a run: ``Stop()``, ``.set()``, ``.is_set()`` (in C, so that
#: the compiled loops can look at it without the GIL).
Stop = _generate.Stop

__all__ = ["DEFAULT_UNTESTED", "METHODS", "BadGrid", "Batch", "GridsExhausted", "Stop", "generate",
           "generate_frame", "iter_generate", "parse_grids", "stream_seed", "puzzle_strings"]


class GridsExhausted(SudorulesError):
    """The given complete grids ran out before the requested number of puzzles was made."""


class BadGrid(SudorulesError, ValueError):
    """A line of the given complete grids is not a valid complete grid (the message names the line).

    A SudorulesError as its sibling :class:`GridsExhausted` is, so that ``except SudorulesError``
    catches every error a user's grids can cause; still a ValueError, as it always was.  Not an
    InputError (exit status 2, a source that cannot be read): the source was read, a record of it is
    bad, which the command line tells with status 1, as it does bad puzzles."""


@dataclass
class Batch:
    """Consecutive puzzles of a run: ``puzzles`` (k, 81) uint8 and ``tries`` (k,) int64; ``weights``
    (k,) float64 when asked for: the sampling weight 1/P(grid | box 1) of each puzzle's grid."""

    puzzles: np.ndarray
    tries: np.ndarray
    weights: Optional[np.ndarray] = None


def stream_seed(seed: int, index: int) -> int:
    """The seed of random stream ``index`` of a run seeded with ``seed`` (splitmix64, see generate.h)."""
    return _generate.stream_seed(_u64(seed, "seed"), _u64(index, "index"))


def generate(method: str, n: int, seed: int = 0, *, untested: Optional[int] = None,
             grids: Optional[GridSource] = None, jobs: int = 1, weights: bool = False,
             progress: Optional[Progress] = None, stop: Optional[Stop] = None, start: int = 0) -> Batch:
    """``n`` minimal puzzles by ``method`` as one :class:`Batch` (see :func:`iter_generate`); fewer
    when ``stop`` is set during the run."""
    batches = list(iter_generate(method, n, seed, untested=untested, grids=grids, jobs=jobs,
                                 weights=weights, progress=progress, stop=stop, start=start))
    if not batches:
        return Batch(np.zeros((0, 81), np.uint8), np.zeros(0, np.int64), np.zeros(0) if weights else None)
    return Batch(np.concatenate([b.puzzles for b in batches]), np.concatenate([b.tries for b in batches]),
                 np.concatenate([b.weights for b in batches]) if weights else None)


def generate_frame(method: str, n: int, seed: int = 0, **options) -> pd.DataFrame:
    """The puzzles of :func:`generate` as a DataFrame with columns ``puzzle`` (81 characters,
    ``.`` for empty), ``clues`` and ``tries``, and ``weight`` with ``weights=True``: each puzzle's
    importance weight as ``stats`` takes it (:func:`importance_weights`)."""
    import pandas as pd  # only here: the generate command needs no pandas (0.36 s of start-up)

    batch = generate(method, n, seed, **options)
    frame = pd.DataFrame({"puzzle": puzzle_strings(batch.puzzles),
                          "clues": (batch.puzzles > 0).sum(axis=1),
                          "tries": batch.tries})
    if batch.weights is not None:  # weights=True: they were dropped (helper-38)
        frame["weight"] = importance_weights(batch.weights)
    return frame


def importance_weights(sampling_weights: np.ndarray) -> np.ndarray:
    """Each puzzle's importance weight from its grid's sampling weight w = 1/P(grid | box 1)
    (:attr:`Batch.weights`): w / N1, N1 the completions of a fixed box, the mean of w over the
    sampler's draws.  Weights of mean 1 make sums over a sample (the numbers of minimal puzzles) as
    well as averages those of uniform grids: ``generate --weights`` writes them, ``stats --weights``
    reads them."""
    from .count import BOX_COMPLETIONS

    return np.asarray(sampling_weights, dtype=float) / BOX_COMPLETIONS


def iter_generate(method: str, n: int, seed: int = 0, *, untested: Optional[int] = None,
                  grids: Optional[GridSource] = None, jobs: int = 1, weights: bool = False,
                  progress: Optional[Progress] = None, stop: Optional[Stop] = None,
                  start: int = 0) -> Iterator[Batch]:
    """Yield the ``n`` puzzles of a run in order, as consecutive :class:`Batch` chunks: puzzles
    ``start`` to ``start + n - 1`` of the seed's sequence (seeded grids only), so that runs of
    consecutive ranges, concatenated, are the one run of them all.

    ``untested`` (controlled-bias only; None: :data:`DEFAULT_UNTESTED`): the deletions made without
    a uniqueness test (module docstring).  ``grids`` (top-down and controlled-bias only): None for
    the seeded grid generator, or complete grids used in order (an ``(N, 81)`` array, or an iterable
    of 81-value rows / grid strings; see :func:`parse_grids`).  ``jobs``
    threads work at once; ``progress(puzzles, tries)`` is called after each chunk with the totals.
    ``weights``: also return each puzzle's grid sampling weight (top-down and controlled-bias with the
    seeded grids): the grid sampler is not uniform, and weighting a puzzle by w / N1 (N1 = 9!-th of all
    grids) makes averages over puzzles estimate those of uniform grids (importance sampling).
    Raises :class:`GridsExhausted` (after yielding what was made) when the given grids run out, and
    :class:`BadGrid` (a ``SudorulesError`` and ``ValueError``) at a line that is not a complete valid
    grid; an option given for a method it does not belong to is an :class:`OptionError`, as on the
    command line (:func:`~sudorules.options.check_method_option`).
    ``stop``: when it is set (from any thread), the running C calls return early and the run ends
    after yielding the puzzles completed before the first unfinished one (a prefix of the full run).
    Leaving the loop early, or an exception such as ``KeyboardInterrupt`` while waiting, sets it too,
    so that the worker threads end promptly.
    """
    # OptionErrors (ValueErrors) as the command line's, before any work: n=2.5 made 2 puzzles,
    # seed=1.5 was used as 1, seed=None failed inside
    if method not in _METHOD_CODES:
        raise OptionError(f"method: unknown {method!r}: expected one of {', '.join(METHODS)}")
    n = check_whole(n, "n", *PUZZLES_RANGE)
    # untested=5 for top-down was ignored, grids for bottom-up failed as a bare ValueError
    check_method_option("untested", untested, method)
    check_method_option("grids", grids, method)
    untested = check_whole(DEFAULT_UNTESTED if untested is None else untested, "untested", *UNTESTED_RANGE)
    jobs = check_whole(jobs, "jobs", 1)
    seed = _u64(seed, "seed")
    check_weights(weights, method, grids)
    start = check_whole(start, "start", *START_RANGE)
    if start + n > 2**63 - 1:  # the C side's index (helper-40: -n 2**63 --start 2**62 began)
        raise OptionError(f"start + n: {start + n} is past the last puzzle index, {2**63 - 1}")
    check_start(start, grids)
    if stop is None:
        stop = Stop()
    if grids is None:
        chunks = _internal_chunks(method, n, seed, untested, weights, stop, start)
    elif method == "top-down":
        chunks = _top_down_grid_chunks(_grid_arrays(grids), n, seed, stop)
    else:
        chunks = _cb_grid_chunks(_grid_arrays(grids), n, seed, untested, stop)
    done = tries = 0
    for batch in _run_ordered(chunks, jobs, stop):
        done += len(batch.puzzles)
        tries += int(batch.tries.sum())
        if progress is not None:
            progress(done, tries)
        yield batch
        if isinstance(batch, _Exhausted):
            raise GridsExhausted(f"the complete grids ran out after {done} of {n} puzzles")


class _Exhausted(Batch):
    """The last batch of a run whose given grids ran out."""


class _Partial(Batch):
    """The complete puzzles of a chunk that was stopped before its end: the last batch of a run."""


def _made(batch_type: type, made: int, count: int, puzzles: np.ndarray, tries: np.ndarray,
          weights: Optional[np.ndarray] = None) -> Batch:
    """The first ``made`` of ``count`` puzzles as a Batch, a _Partial one when the chunk stopped early."""
    kind = batch_type if made == count else _Partial
    return kind(puzzles[:made], tries[:made], None if weights is None else weights[:made])


def _internal_chunks(method: str, n: int, seed: int, untested: int, weights: bool,
                     stop: Stop, start: int = 0) -> Iterator[Callable[[], Batch]]:
    code, size = _METHOD_CODES[method], _CHUNK[method]
    for first in range(start, start + n, size):
        count = min(size, start + n - first)

        def task(first=first, count=count) -> Batch:
            puzzles = np.empty((count, 81), np.uint8)
            tries = np.empty(count, np.int64)
            grid_weights = np.empty(count) if weights else None
            made = _generate.generate_batch(code, seed, first, untested, puzzles, tries, grid_weights, stop)
            return _made(Batch, made, count, puzzles, tries, grid_weights)
        yield task


def _top_down_grid_chunks(arrays: Iterator[tuple[int, np.ndarray]], n: int,
                          seed: int, stop: Stop) -> Iterator[Callable[[], Batch]]:
    made = 0
    for first, grids in arrays:
        grids = grids[: n - made]
        made += len(grids)

        def task(first=first, grids=grids) -> Batch:
            puzzles = np.empty_like(grids)
            done = _generate.top_down_grids(grids, seed, first, puzzles, stop)
            return _made(Batch, done, len(grids), puzzles, np.ones(len(grids), np.int64))
        yield task
        if made >= n:
            return
    if made < n:
        yield lambda: _Exhausted(np.zeros((0, 81), np.uint8), np.zeros(0, np.int64))


def _cb_grid_chunks(arrays: Iterator[tuple[int, np.ndarray]], n: int, seed: int,
                    untested: int, stop: Stop) -> Iterator[Callable[[], Batch]]:
    """Controlled-bias on given grids: chunks of grids run in parallel, then an ordered pass turns the
    hit positions into tries (grids used since the previous puzzle) and stops after n puzzles."""
    state = {"made": 0, "last_hit": -1}

    def hits_of(first: int, grids: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
        puzzles = np.empty_like(grids)
        hits = np.empty(len(grids), np.int64)
        found, done = _generate.cb_grids(grids, seed, first, untested, puzzles, hits, stop)
        return puzzles[:found], hits[:found] + first, done == len(grids)

    def finish(result: tuple[np.ndarray, np.ndarray, bool]) -> Batch:
        puzzles, positions, complete = result
        keep = min(len(puzzles), n - state["made"])
        puzzles, positions = puzzles[:keep], positions[:keep]
        previous = np.concatenate([[state["last_hit"]], positions[:-1]]) if keep else positions
        tries = positions - previous
        if keep:
            state["last_hit"] = int(positions[-1])
        state["made"] += keep
        # a chunk stopped part-way ends the run (unless it already made the last puzzle needed)
        kind = Batch if complete or state["made"] >= n else _Partial
        return kind(puzzles, tries.astype(np.int64))

    for first, grids in arrays:
        if state["made"] >= n:
            return
        yield _Ordered(lambda first=first, grids=grids: hits_of(first, grids), finish, lambda: state["made"] >= n)
    yield _Ordered(lambda: None,
                   lambda _: (_Exhausted(np.zeros((0, 81), np.uint8), np.zeros(0, np.int64))
                              if state["made"] < n else Batch(np.zeros((0, 81), np.uint8),
                                                               np.zeros(0, np.int64))),
                   lambda: False)


@dataclass
class _Ordered:
    """A task whose parallel part is ``work`` and whose in-order part is ``finish(work())``; ``done``
    tells, in order, that the run needs nothing more."""

    work: Callable
    finish: Callable
    done: Callable[[], bool]


def _run_ordered(tasks: Iterator, jobs: int, stop: Stop) -> Iterator[Batch]:
    """Run tasks on ``jobs`` threads, a bounded window ahead, and yield their batches in order, up to
    and including the first _Exhausted or _Partial one.  Once ``stop`` is set no task is started,
    and the running ones return early (_Partial).  Any exit other than the end of the run (an
    exception while waiting, the consumer closing the generator) sets ``stop``, so that the pool's
    shutdown waits for nothing long."""
    window = 2 * jobs
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending: deque = deque()
        tasks = iter(tasks)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < window and not stop.is_set():
                    task = next(tasks, None)
                    if task is None:
                        exhausted = True
                        break
                    work = task.work if isinstance(task, _Ordered) else task
                    pending.append((task, pool.submit(work)))
                if not pending:
                    return
                task, future = pending.popleft()
                result = future.result()
                if isinstance(task, _Ordered):
                    if task.done():
                        continue
                    result = task.finish(result)
                yield result
                if isinstance(result, (_Exhausted, _Partial)):
                    return
        except BaseException:
            stop.set()
            raise


def parse_grids(lines: Iterable) -> Iterator[np.ndarray]:
    """Complete grids from lines of text (81 digits 1-9, anything after whitespace ignored) or from
    81-value rows; yield each as an (81,) uint8 array.  A line that is not a complete valid grid raises
    :class:`BadGrid` (a ValueError) naming the line and the reason; blank lines and ``#`` comments
    are skipped, and so is a UTF-8 byte-order mark at the start of the first line."""
    for _, chunk in _grid_chunks(lines):
        yield from chunk


def _grid_chunks(lines: Iterable) -> Iterator[tuple[int, np.ndarray]]:
    """(index of the first grid, (k, 81) uint8 array) chunks of the grids of ``lines``, validated a
    chunk at a time with numpy (a bad line raises BadGrid naming it)."""
    numbered = enumerate(lines, start=1)
    first = 0
    while True:
        numbers, rows, read = [], [], 0
        for number, line in itertools.islice(numbered, _GRID_CHUNK):
            read += 1
            row = _grid_row(number, line)
            if row is not None:
                numbers.append(number)
                rows.append(row)
        if not read:
            return
        if not rows:
            continue
        grids = np.frombuffer(b"".join(rows), np.uint8).reshape(-1, 81) - ord("0")
        bad = _invalid_rows(grids)
        if bad.any():
            k = int(np.argmax(bad))
            raise BadGrid(f"line {numbers[k]}: {_grid_error(grids[k])}")
        yield first, np.ascontiguousarray(grids)
        first += len(grids)


def _grid_row(number: int, line) -> Optional[bytes]:
    """The 81 ASCII digits of one input item, None for a blank or comment line; BadGrid if bad."""
    if isinstance(line, str):
        text = (line.lstrip("\ufeff") if number == 1 else line).strip()
        if not text or text.startswith("#"):
            return None
        head = text.split()[0]
        if len(head) != 81 or not (head.isascii() and head.isdigit()) or "0" in head:
            raise BadGrid(f"line {number}: not a complete grid (expected 81 digits 1-9)")
        return head.encode("ascii")
    values = np.asarray(line, dtype=np.int64).reshape(-1)
    if values.shape != (81,) or values.min() < 1 or values.max() > 9:
        raise BadGrid(f"grid {number}: not a complete grid (expected 81 values 1-9)")
    return (values + ord("0")).astype(np.uint8).tobytes()


def _invalid_rows(grids: np.ndarray) -> np.ndarray:
    """For (k, 81) values 1..9: True where some row, column or block repeats a digit."""
    bits = np.left_shift(np.uint16(1), grids.astype(np.uint16))
    g = bits.reshape(-1, 9, 9)
    boxes = g.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    full = np.uint16(0x3FE)
    ok = ((np.bitwise_or.reduce(g, axis=2) == full).all(axis=1)
          & (np.bitwise_or.reduce(g, axis=1) == full).all(axis=1)
          & (np.bitwise_or.reduce(boxes, axis=2) == full).all(axis=1))
    return ~ok


def _grid_error(grid: np.ndarray) -> Optional[str]:
    """Why 81 values 1..9 are not a valid complete grid, or None."""
    g = grid.reshape(9, 9)
    boxes = g.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)
    for name, lines in (("row", g), ("column", g.T), ("block", boxes)):
        for k, values in enumerate(lines, start=1):
            if len(set(values.tolist())) != 9:
                return f"{name} {k} repeats a digit"
    return None


def _grid_arrays(grids: GridSource) -> Iterator[tuple[int, np.ndarray]]:
    """(index of the first grid, (k, 81) uint8 array) chunks of the given grids, in order.  A text
    or a path names a file of grids (``-``: standard input), as ``generate --grids`` does; a text of
    81 digits is one grid.  (A text was read as an iterable of one-character lines, "line 1: not a
    complete grid", and a Path was a bare TypeError: helper-38.)"""
    if isinstance(grids, str) and len(grids.strip()) == 81 and grids.strip().isdigit():
        grids = [grids.strip()]  # one grid, its line end aside (it was "no such file": helper-40)
    elif isinstance(grids, (str, os.PathLike)):
        from ..reader import open_lines

        grids = open_lines(grids)  # an InputError for a missing file, a directory...
    if not isinstance(grids, np.ndarray):
        yield from _grid_chunks(grids)
        return
    if grids.ndim != 2 or grids.shape[1] != 81:
        raise BadGrid(f"grids must be an (N, 81) array, got shape {grids.shape}")
    grids = np.ascontiguousarray(grids)
    if grids.size and (grids.min() < 1 or grids.max() > 9):
        raise BadGrid("grids must hold values 1-9 only")
    grids = grids.astype(np.uint8)
    bad = _invalid_rows(grids)
    if bad.any():
        k = int(np.argmax(bad))
        raise BadGrid(f"grid {k + 1}: {_grid_error(grids[k])}")
    for first in range(0, len(grids), _GRID_CHUNK):
        yield first, grids[first:first + _GRID_CHUNK]


def puzzle_strings(puzzles: np.ndarray) -> list[str]:
    """One 81-character string per row (``.`` for an empty cell)."""
    chars = np.where(puzzles > 0, puzzles + ord("0"), ord(".")).astype(np.uint8)
    return [row.tobytes().decode("ascii") for row in chars]


def _u64(value: int, name: str) -> int:
    return check_whole(value, name, *SEED_RANGE)
