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

import pandas as pd


def minimals_per_grid(clues: pd.Series, tries: pd.Series) -> tuple[pd.DataFrame, dict]:
    """Per clue count: ``on``, ``per_grid`` = M(n), ``relative_error``, ``tries_per_minimal``; and the totals.

    ``clues`` and ``tries`` are aligned per puzzle; T is the sum of ``tries`` (the caller gives 0 for
    the rows that count nowhere: an invalid puzzle is no output of the generator, so its tail is no
    tries count of the run).
    """
    total_tries = float(tries.sum())
    on = clues.dropna().astype(int).value_counts().sort_index()
    per_grid = pd.Series([int(on[n]) * comb(81, n) / total_tries for n in on.index], index=on.index)
    table = pd.DataFrame({"on": on, "per_grid": per_grid, "relative_error": 1 / on ** 0.5,
                          "tries_per_minimal": total_tries / on})
    table.index.name = "clues"
    total = float(per_grid.sum())
    total_error = math.sqrt(float((per_grid ** 2 / on).sum())) / total
    return table, {"total_tries": total_tries, "per_grid": total, "relative_error": total_error}
