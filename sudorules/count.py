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
(generator/core.c): it favours grids with ~13 % more minimal puzzles than the average.  By default
(``weighted``) each sample is therefore multiplied by its grid's importance weight w(g) / N1, where
w(g) = 1 / P(g | box 1) is returned by the sampler and N1 = 9!-th of all grids = E[w]: the estimate
is then exactly unbiased for uniform grids, at about 3 times the variance.  ``weighted=False`` gives
the plain (biased) estimate for the sampler's own grid distribution.
Sample i uses the random stream ``stream_seed(seed, i)``, so ``samples=K`` gives the same result for
any number of jobs.  With a time limit, every sample started before the limit is waited for and
kept (dropping the slow ones would bias the estimate towards samples with few minimal puzzles).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from math import comb
from typing import Callable, Optional

import numpy as np
import pandas as pd

from . import _generate

METHODS = ("subsets", "supersets")
#: The number of complete Sudoku grids, and of essentially different ones.
GRIDS = 6_670_903_752_021_072_936_960
NON_ISOMORPHIC_GRIDS = 5_472_730_538
#: Completions of a fixed first box: E[w] for the sampler's weights.
BOX_COMPLETIONS = GRIDS // 362_880
_CODES = {"subsets": 0, "supersets": 1}
_CHUNK = {"subsets": 512, "supersets": 16}

__all__ = ["BOX_COMPLETIONS", "GRIDS", "METHODS", "NON_ISOMORPHIC_GRIDS", "CountResult", "count_in", "count_minimals",
           "weights"]


def weights(method: str, size: int, max_clues: int = 81) -> np.ndarray:
    """w[c] such that V_c = w[c] * X_c per complete grid (0 where c cannot be counted)."""
    w = np.zeros(82)
    for c in range(17, 82):
        if method == "subsets" and c <= size:
            w[c] = comb(81, size) / comb(81 - c, size - c)
        elif method == "supersets" and size <= c <= max_clues:
            w[c] = comb(81, size) / comb(c, size)
    return w


@dataclass
class CountResult:
    """Running sums over the samples; :meth:`table` turns them into estimates."""

    method: str
    size: int
    max_clues: int
    weighted: bool = True
    samples: int = 0
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
                   progress: Optional[Callable[[CountResult], None]] = None) -> CountResult:
    """Estimate the number of minimal puzzles per clue count by ``method`` with subsets of ``size``.

    Stop after ``samples`` samples, or after ``minutes`` (then every started sample is kept), or at
    whichever comes first when both are given.  ``max_clues`` (supersets only; default size + 3)
    bounds the puzzles counted.  ``weighted``: importance weights for uniform grids (see the module
    docstring).  ``progress(result)`` is called after each chunk of samples.
    """
    if method not in _CODES:
        raise ValueError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if not 17 <= size <= 81:
        raise ValueError(f"size must lie in 17..81, got {size}")
    if samples is None and minutes is None:
        raise ValueError("give samples or minutes")
    if samples is not None and samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    if minutes is not None and minutes <= 0:
        raise ValueError(f"minutes must be > 0, got {minutes}")
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if method == "subsets":
        max_clues = size
    elif max_clues is None:
        max_clues = min(size + 3, 81)
    elif not size <= max_clues <= 81:
        raise ValueError(f"max_clues must lie in {size}..81, got {max_clues}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {seed}")
    result = CountResult(method, size, max_clues, weighted)
    chunk, code = _CHUNK[method], _CODES[method]
    limit = samples if samples is not None else 2**62
    deadline = time.monotonic() + 60 * minutes if minutes is not None else float("inf")
    started = time.monotonic()

    def run(first: int, count: int) -> tuple[np.ndarray, Optional[np.ndarray]]:
        found = np.zeros((count, 82), np.int64)
        grid_weights = np.zeros(count) if weighted else None
        _generate.count_batch(code, seed, first, size, max_clues, found, grid_weights)
        return found, grid_weights

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending = []
        next_first = 0
        while True:
            while (len(pending) < 2 * jobs and next_first < limit and time.monotonic() < deadline):
                count = min(chunk, limit - next_first)
                pending.append(pool.submit(run, next_first, count))
                next_first += count
            if not pending:
                break
            result.add(*pending.pop(0).result())
            result.seconds = time.monotonic() - started
            if progress is not None:
                progress(result)
    return result
