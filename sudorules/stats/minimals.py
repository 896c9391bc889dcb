"""Estimated number of minimal puzzles per clue count per complete grid (000 §2.1.5, SPEC §8.3).

Each try of the controlled-bias generator follows one uniformly random deletion path of one complete
grid, so with T the total number of tries (the sum of the ``tries`` column) and on(n) the number of
n-clue puzzles obtained, the mean number of n-clue minimal puzzles per grid is
M(n) = on(n)·C(81,n)/T, with relative error 1/sqrt(on(n)) (Poisson counts).  T/on(n) is the mean number
of tries per n-clue minimal (002 Table 6).  The total ΣM(n) has relative error
sqrt(Σ M(n)²/on(n)) / ΣM(n) (independent classes).
"""

from __future__ import annotations

import math
from math import comb
from typing import Optional

import pandas as pd

from .distributions import class_sizes


def minimals_per_grid(clues: pd.Series, tries: pd.Series,
                      weights: Optional[pd.Series] = None) -> tuple[pd.DataFrame, dict]:
    """Per clue count: ``on``, ``per_grid`` = M(n), ``relative_error``, ``tries_per_minimal``; and the totals.

    ``clues`` and ``tries`` are aligned per puzzle; T is the sum of ``tries`` (the caller gives 0 for
    the rows that count nowhere: an invalid puzzle is no output of the generator, so its tail is no
    tries count of the run).  With ``weights`` (each puzzle's grid importance weight, of mean 1 over
    the sampler's grids: :meth:`~sudorules.stats.loading.Collection.weights`) a try that made a puzzle counts for its
    weight: M(n) = W(n)·C(81,n)/T, W(n) the sum of the n-clue puzzles' weights, an importance-sampling
    estimate for uniform grids; its relative error 1/sqrt(n_eff(n)) (n_eff = W(n)²/Σw²), and tries
    per minimal T/W(n).
    """
    total_tries = float(tries.sum())
    on, size, effective = class_sizes(clues, weights)
    # on(n) as an integer without weights: the product with C(81,n) stays exact until the division
    per_grid = pd.Series([(int(on[n]) if weights is None else float(size[n])) * comb(81, n) / total_tries
                          for n in on.index], index=on.index)
    table = pd.DataFrame({"on": on, "per_grid": per_grid, "relative_error": 1 / effective ** 0.5,
                          "tries_per_minimal": total_tries / size})
    if weights is not None:
        table.insert(1, "weight", size)
    table.index.name = "clues"
    total = float(per_grid.sum())
    total_error = math.sqrt(float((per_grid ** 2 / effective).sum())) / total
    return table, {"total_tries": total_tries, "per_grid": total, "relative_error": total_error}
