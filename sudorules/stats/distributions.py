"""Distributions by clue count and by rating level, raw and unbiased (000 §2.1.2, §2.3; 002 Tables 3, 4).

* Clue distribution (002 Table 4): raw%(n) = 100·on(n)/Σ on; real%(n) = 100·on(n)·cf(n)/Σ on(m)·cf(m),
  with standard deviation real%(n)/sqrt(on(n)) (relative error 1/sqrt(on(n)), SPEC §8.2).
* Level distribution of a discrete rating X (002 Table 3): raw%(v) = share of puzzles with X = v;
  real%(v) ∝ Σn cf(n)·count(X = v, n).
"""

from __future__ import annotations

import pandas as pd

from .correction import correction_weight

#: a column is a discrete rating when its values are integers with at most this many distinct levels
MAX_LEVELS = 30


def is_discrete(values: pd.Series) -> bool:
    """True for a column of integer values with at most MAX_LEVELS distinct levels (W, B, gW...)."""
    data = values.dropna()
    return (not data.empty and bool((data == data.round()).all())
            and data.nunique() <= MAX_LEVELS)


def clue_weights(clues: pd.Series) -> pd.Series:
    """cf(n) of each row's clue count n (NaN where it has none): the weight of a puzzle in the unbiased
    statistics.  Computed once per clue count and mapped (a function called per row took 3.5 s of
    the 6.3 s of a million-row report)."""
    factors = {n: correction_weight(int(n)) for n in clues.dropna().unique()}
    return clues.map(factors).astype(float)


def clue_distribution(clues: pd.Series) -> pd.DataFrame:
    """Per clue count: ``on``, ``raw_percent``, ``cf``, ``unbiased_percent``, ``unbiased_percent_sd``."""
    on = clues.dropna().astype(int).value_counts().sort_index()
    cf = pd.Series([correction_weight(n) for n in on.index], index=on.index)
    real = 100 * on * cf / (on * cf).sum()
    table = pd.DataFrame({"on": on, "raw_percent": 100 * on / on.sum(), "cf": cf,
                          "unbiased_percent": real, "unbiased_percent_sd": real / on ** 0.5})
    table.index.name = "clues"
    return table


def level_distribution(values: pd.Series, clues: pd.Series | None = None) -> pd.DataFrame:
    """Per level v of a discrete rating: ``count``, ``raw_percent`` and (with clues) ``unbiased_percent``.

    The raw share is over the rows with a value; the unbiased share over the rows with a value and a
    clue count, each weighted by cf(clues).
    """
    data = values.dropna()
    counts = data.astype(int).value_counts().sort_index()
    table = pd.DataFrame({"count": counts, "raw_percent": 100 * counts / counts.sum()})
    if clues is not None:
        both = pd.DataFrame({"x": values, "n": clues}).dropna()
        weights = clue_weights(both["n"])
        real = weights.groupby(both["x"].astype(int)).sum()
        table["unbiased_percent"] = (100 * real / real.sum()).reindex(table.index, fill_value=0.0)
    table.index.name = "level"
    return table
