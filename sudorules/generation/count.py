"""Counting minimal puzzles by the subsets and supersets methods (SPEC §8.4; forum post "Counting
minimal puzzles: subsets, supersets, etc.").

One *sample* draws a random complete grid and a uniformly random ``size``-subset A of its cells, then
(in C, :func:`sudorules._generate.count_batch`) counts X_c, the c-clue minimal puzzles of that grid

* **subsets** (c <= size): included in A.  A c-clue minimal puzzle m lies in A with probability
  C(81-c, size-c) / C(81, size), so V_c = C(81, size) / C(81-c, size-c) * X_c;
* **supersets** (c >= size, up to ``max_clues``): including A.  Probability C(c, size) / C(81, size),
  so V_c = C(81, size) / C(c, size) * X_c.

E(V_c) is the mean number of c-clue minimal puzzles per complete grid (Horvitz-Thompson) when the
grid is uniform.  Over k independent samples the estimate is mean(V_c), its relative error
sd(V_c) / (mean(V_c) sqrt(k)).

The grids come from the core's random-backtracking sampler, which is not uniform across grid classes
(generator/core.c): it favoured grids with ~13 % more minimal puzzles than the average (measured with the
sampler before issue 13's, whose class-level bias was about the same).  By default
(``weighted``) each sample is therefore multiplied by its grid's importance weight w(g) / N1, where
w(g) = 1 / P(g | box 1) is returned by the sampler and N1 = 9!-th of all grids = E[w]: the estimate
is then exactly unbiased for uniform grids, at about 3 times the variance.  ``weighted=False`` gives
the plain (biased) estimate for the sampler's own grid distribution.
Sample i uses the random stream ``stream_seed(seed, i)``, and the samples enter the sums in the order
of i, so ``samples=K`` gives the same result, bit for bit, for any number of jobs.

Stopping inside a sample.  One sample can take from microseconds to hours (:func:`expensive_sample`),
so the C enumeration looks at a stop request (:class:`Stop`, set on Ctrl-C) and at the deadline of
``minutes`` every few hundred nodes, and a stopped batch returns the samples it completed.  Only
complete samples enter the estimate: the samples in progress at the deadline (at most one per job)
are *abandoned* (:attr:`CountResult.abandoned`).  That is a choice with a cost: a slow sample is one
with many puzzles to enumerate, and a sample in progress at a given moment is more likely to be a
slow one, so dropping them biases a time-limited estimate low, by up to ``jobs`` samples' worth
among the ``samples`` completed.  (Waiting for them instead, as before, made ``minutes`` unbounded
when one sample takes hours.)  ``samples=K`` never abandons anything: use it for an exact sample
count.
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from math import comb
from typing import Callable, Optional

import numpy as np
import pandas as pd

from .. import _generate
from ..errors import OptionError
from ..options import CLUES_RANGE, SEED_RANGE, check_duration, check_method_option, check_whole

METHODS = ("subsets", "supersets")
#: The number of complete Sudoku grids, and of essentially different ones.
GRIDS = 6_670_903_752_021_072_936_960
NON_ISOMORPHIC_GRIDS = 5_472_730_538
#: Completions of a fixed first box: E[w] for the sampler's weights.
BOX_COMPLETIONS = GRIDS // 362_880
_CODES = {"subsets": 0, "supersets": 1}
_CHUNK = {"subsets": 512, "supersets": 16}

# Seconds per sample, measured on the 2-core development machine (shared, one thread): samples
# i = 0, 1, ... of seed 1, one `_generate.count_batch(code, 1, i, size, max_clues, found, w, None, 20)`
# call each (20 s time-out), until 8-40 s or 300 samples per setting.  The cost is heavy-tailed (most
# samples take microseconds, a few take seconds to minutes), so the means are orders of magnitude;
# "max" is the slowest single sample met:
#   subsets     size 26-32: <= 0.0005 (max 0.03);  34: 0.018 (max 1.0);  35: 0.16 (max 3.3);
#               36: 0.48 (85 samples; 1.7 on 11; max 11);  37: 4.4 (max 21);  38: >= 9 (1 of 5 > 30)
#   supersets   by extra = max_clues - size, sizes 17-26:  3: ~0.001;  4: ~0.006;  5: 0.03-0.08
#               (max 1.8);  6: 0.14-1.6 (max 18);  7: 0.7-3.2 (max 7);  size 28: <= 0.08 up to
#               extra 9, size 30: <= 0.002 up to extra 11 (max 2)
# "Expensive" is a mean of 0.1 s or more: under ~600 samples a minute per job, with single samples of
# seconds to minutes.  That is subsets from size 35, supersets below size 28 with extra >= 6.
_EXPENSIVE_SUBSETS = 35
_EXPENSIVE_SUPERSETS_EXTRA = 6
_CHEAP_SUPERSETS_SIZE = 28
_SUBSETS_SECONDS = {35: "about 0.2 s", 36: "0.5-2 s", 37: "about 4 s", 38: "10 s or more"}

#: The stop request shared with the C enumeration (the same type as :class:`sudorules.generation.generate.Stop`).
Stop = _generate.Stop

__all__ = ["BOX_COMPLETIONS", "GRIDS", "METHODS", "NON_ISOMORPHIC_GRIDS", "CountResult", "Stop", "clue_range",
           "count_in", "count_minimals", "expensive_sample", "weights"]


def clue_range(method: str, size: int, max_clues: int = 81) -> tuple[int, int]:
    """The clue counts a run counts, lowest and highest: the row ``all`` and the totals cover these
    only (subsets: up to ``size``; supersets: ``size`` to ``max_clues``)."""
    if method == "subsets":
        return 17, size
    return max(size, 17), max_clues


def weights(method: str, size: int, max_clues: int = 81) -> np.ndarray:
    """w[c] such that V_c = w[c] * X_c per complete grid (0 where c cannot be counted)."""
    w = np.zeros(82)
    low, high = clue_range(method, size, max_clues)
    for c in range(low, high + 1):
        w[c] = comb(81, size) / (comb(81 - c, size - c) if method == "subsets" else comb(c, size))
    return w


@dataclass
class CountResult:
    """Running sums over the samples; :meth:`table` turns them into estimates."""

    method: str
    size: int
    max_clues: int
    weighted: bool = True
    samples: int = 0          # complete samples, the only ones in the sums
    abandoned: int = 0        # samples started and left unfinished by a stop or the deadline
    stopped: bool = False     # the run ended early: its Stop was set, or the deadline came
    seconds: float = 0.0
    found: np.ndarray = field(default_factory=lambda: np.zeros(82, np.int64))  # sum of X_c
    sum_v: np.ndarray = field(default_factory=lambda: np.zeros(82))            # sum of V_c
    sum_v2: np.ndarray = field(default_factory=lambda: np.zeros(82))           # sum of V_c^2
    sum_total: float = 0.0                                                      # sum of sum_c V_c
    sum_total2: float = 0.0

    def add(self, x: np.ndarray, grid_weights: Optional[np.ndarray] = None) -> None:
        """Add the (k, 82) X_c counts of k samples (and their grids' sampling weights, if weighted)."""
        v = x * weights(self.method, self.size, self.max_clues)
        if grid_weights is not None:
            v = v * (grid_weights / BOX_COMPLETIONS)[:, None]
        total = v.sum(axis=1)
        self.samples += len(x)
        self.found += x.sum(axis=0)
        self.sum_v += v.sum(axis=0)
        self.sum_v2 += (v * v).sum(axis=0)
        self.sum_total += float(total.sum())
        self.sum_total2 += float((total * total).sum())

    def table(self) -> pd.DataFrame:
        """Columns ``clues, count, per_grid, rel_err, total``: one row per clue count met (count =
        minimal puzzles found in all samples, as in the post; per_grid = estimated mean number per
        complete grid; rel_err = relative standard error; total = per_grid x GRIDS), then ``all``."""
        rows = []
        for c in np.nonzero(self.found)[0]:
            per_grid, rel = _estimate(self.sum_v[c], self.sum_v2[c], self.samples)
            rows.append((str(c), int(self.found[c]), per_grid, rel, per_grid * GRIDS))
        per_grid, rel = _estimate(self.sum_total, self.sum_total2, self.samples)
        rows.append(("all", int(self.found.sum()), per_grid, rel, per_grid * GRIDS))
        return pd.DataFrame(rows, columns=["clues", "count", "per_grid", "rel_err", "total"])


def expensive_sample(method: str, size: int, max_clues: Optional[int] = None) -> Optional[str]:
    """None when a sample of these settings is cheap; else a phrase for a warning, with the measured
    mean cost per sample (the measurements are in the comment beside the thresholds)."""
    max_clues = _max_clues(method, size, max_clues)
    if method == "subsets" and size >= _EXPENSIVE_SUBSETS:
        cost = _SUBSETS_SECONDS.get(size, "over 10 s")
        return f"--size {size}: one subsets sample takes {cost} on average (measured), some much longer"
    if (method == "supersets" and size < _CHEAP_SUPERSETS_SIZE
            and max_clues - size >= _EXPENSIVE_SUPERSETS_EXTRA):
        cost = "0.1-2 s" if max_clues - size == _EXPENSIVE_SUPERSETS_EXTRA else "1 s or more"
        return (f"--size {size} up to {max_clues} clues: one supersets sample takes {cost} on average "
                f"(measured), some much longer")
    return None


def _estimate(s1: float, s2: float, k: int) -> tuple[float, float]:
    """(mean, relative standard error of the mean) from the sums of V and V^2 over k samples."""
    if k == 0:
        return float("nan"), float("nan")
    mean = s1 / k
    if k < 2 or mean == 0:
        return mean, float("nan")
    variance = max(s2 / k - mean * mean, 0.0) * k / (k - 1)
    return mean, float(np.sqrt(variance / k) / mean)


def count_in(method: str, grid, cells, max_clues: int = 81) -> np.ndarray:
    """X_c for one given complete ``grid`` (81 values) and subset ``cells`` (cell indices): the number
    of c-clue minimal puzzles of the grid included in (subsets) or including (supersets, at most
    ``max_clues`` clues) that subset, as an array indexed by c (0..81)."""
    if method not in _CODES:
        raise ValueError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    grid = np.ascontiguousarray(grid, np.uint8).reshape(81)
    chosen = np.zeros(81, np.uint8)
    chosen[np.asarray(list(cells), dtype=np.int64)] = 1
    found = np.zeros(82, np.int64)
    _generate.count_in(_CODES[method], grid.tobytes(), chosen.tobytes(), int(max_clues), found)
    return found


def count_minimals(method: str, size: int, *, samples: Optional[int] = None,
                   minutes: Optional[float] = None, seed: int = 0, jobs: int = 1,
                   max_clues: Optional[int] = None, weighted: bool = True,
                   progress: Optional[Callable[[CountResult], None]] = None,
                   stop: Optional[Stop] = None) -> CountResult:
    """Estimate the number of minimal puzzles per clue count by ``method`` with subsets of ``size``.

    Stop after ``samples`` samples, or after ``minutes``, or at whichever comes first when both are
    given; at the time limit the samples in progress are abandoned (see the module docstring).
    ``max_clues`` (supersets only; default size + 3) bounds the puzzles counted.  ``weighted``:
    importance weights for uniform grids (see the module docstring).  ``progress(result)`` is called
    after each chunk of samples.  ``stop``: setting it (from any thread, e.g. a signal handler) ends
    the run within milliseconds with the samples completed so far (``result.stopped``); an exception
    while waiting (``KeyboardInterrupt``) sets it too, so that the worker threads end promptly.
    """
    # the command line's checks, as OptionErrors (ValueErrors), before any work: samples=nan ran no
    # sample and returned zeros, minutes="x" failed inside, jobs=1.5 ran
    if method not in _CODES:
        raise OptionError(f"method: unknown {method!r}: expected one of {', '.join(METHODS)}")
    size = check_whole(size, "size", *CLUES_RANGE)
    check_method_option("max_clues", max_clues, method)  # for subsets it was ignored
    if samples is None and minutes is None:
        raise OptionError("give samples or minutes")
    if samples is not None:
        samples = check_whole(samples, "samples", 1)
    if minutes is not None:
        minutes = check_duration(minutes, "minutes", minimum=0, unit="minutes")
    jobs = check_whole(jobs, "jobs", 1)
    max_clues = _max_clues(method, size, max_clues)
    seed = check_whole(seed, "seed", *SEED_RANGE)
    if stop is None:
        stop = Stop()
    result = CountResult(method, size, max_clues, weighted)
    chunk, code = _CHUNK[method], _CODES[method]
    limit = samples if samples is not None else 2**62
    started = time.monotonic()
    deadline = started + 60 * minutes if minutes is not None else None

    def run(first: int, count: int) -> tuple[np.ndarray, Optional[np.ndarray], int]:
        found = np.zeros((count, 82), np.int64)
        grid_weights = np.zeros(count) if weighted else None
        seconds = None if deadline is None else deadline - time.monotonic()
        done, abandoned = _generate.count_batch(code, seed, first, size, max_clues, found, grid_weights,
                                                stop, seconds)
        return found[:done], None if grid_weights is None else grid_weights[:done], abandoned

    def open_to_more() -> bool:
        return not stop.is_set() and (deadline is None or time.monotonic() < deadline)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending: deque = deque()
        next_first = 0
        try:
            while True:
                while len(pending) < 2 * jobs and next_first < limit and open_to_more():
                    count = min(chunk, limit - next_first)
                    pending.append(pool.submit(run, next_first, count))
                    next_first += count
                if not pending:
                    break
                found, grid_weights, abandoned = pending.popleft().result()
                result.add(found, grid_weights)  # in sample order: the same sums for any jobs
                result.abandoned += abandoned
                result.seconds = time.monotonic() - started
                if progress is not None:
                    progress(result)
        except BaseException:
            stop.set()  # the running batches return at their next check; the pool waits for nothing long
            raise
    result.stopped = result.samples < limit
    return result


def _max_clues(method: str, size: int, max_clues: Optional[int]) -> int:
    """The largest clue count counted: size for subsets, max_clues (default size + 3) for supersets."""
    if method == "subsets":
        return size
    if max_clues is None:
        return min(size + 3, 81)
    return check_whole(max_clues, "max_clues", size, CLUES_RANGE[1])
