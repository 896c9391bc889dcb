"""Distributions by clue count and by rating level, raw and unbiased (000 §2.1.2, §2.3; 002 Tables 3, 4).

* Clue distribution (002 Table 4): raw%(n) = 100·on(n)/Σ on; real%(n) = 100·on(n)·cf(n)/Σ on(m)·cf(m),
  with standard deviation real%(n)/sqrt(on(n)) (relative error 1/sqrt(on(n)), SPEC §8.2).
* Level distribution of a discrete rating X (002 Table 3): raw%(v) = share of puzzles with X = v;
  real%(v) ∝ Σn cf(n)·count(X = v, n).
"""

from __future__ import annotations

from typing import Optional

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


def unbiased_weights(clues: pd.Series, weights: Optional[pd.Series] = None) -> pd.Series:
    """Each row's weight in the unbiased figures: cf(clues), times its importance weight when the
    puzzles are weighted (NaN where either is missing)."""
    factors = clue_weights(clues)
    return factors if weights is None else factors * weights[clues.index]


def class_sizes(clues: pd.Series, weights: Optional[pd.Series] = None) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Per clue count n: on(n), the rows; the class's size in a mixture, on(n) or with importance
    ``weights`` W(n) = Σ w; and its effective number of rows, on(n) or n_eff(n) = W(n)²/Σ w² (Kish),
    whose inverse square root is a share's relative error."""
    on = clues.dropna().astype(int).value_counts().sort_index()
    if weights is None:
        return on, on.astype(float), on.astype(float)
    data = pd.DataFrame({"n": clues, "w": weights}).dropna()
    classes = data["n"].astype(int)
    size = data["w"].groupby(classes).sum().reindex(on.index)
    return on, size, size ** 2 / (data["w"] ** 2).groupby(classes).sum().reindex(on.index)


def clue_distribution(clues: pd.Series, weights: Optional[pd.Series] = None) -> pd.DataFrame:
    """Per clue count: ``on``, ``raw_percent``, ``cf``, ``unbiased_percent``, ``unbiased_percent_sd``.

    With ``weights`` (importance weights) a class's size is W(n), the sum of its puzzles' weights
    (column ``weight``), in both shares, and the relative error 1/sqrt(on(n)) becomes
    1/sqrt(n_eff(n)), n_eff = W(n)²/Σw² (Kish's effective sample size: on(n) for equal weights)."""
    on, size, effective = class_sizes(clues, weights)
    cf = pd.Series([correction_weight(n) for n in on.index], index=on.index)
    real = 100 * size * cf / (size * cf).sum()
    table = pd.DataFrame({"on": on, "raw_percent": 100 * size / size.sum(), "cf": cf,
                          "unbiased_percent": real, "unbiased_percent_sd": real / effective ** 0.5})
    if weights is not None:
        table.insert(1, "weight", size)
    table.index.name = "clues"
    return table


def level_distribution(values: pd.Series, clues: pd.Series | None = None,
                       weights: Optional[pd.Series] = None) -> pd.DataFrame:
    """Per level v of a discrete rating: ``count``, ``raw_percent`` and (with clues) ``unbiased_percent``.

    The raw share is over the rows with a value; the unbiased share over the rows with a value and a
    clue count, each weighted by cf(clues).  With ``weights`` (importance weights) every row counts
    for its weight in both shares (``count`` stays the number of rows).
    """
    data = values.dropna()
    counts = data.astype(int).value_counts().sort_index()
    shares = counts if weights is None else weights[data.index].groupby(data.astype(int)).sum()
    table = pd.DataFrame({"count": counts, "raw_percent": 100 * shares / shares.sum()})
    if clues is not None:
        both = pd.DataFrame({"x": values, "n": clues}).dropna()
        real = unbiased_weights(both["n"], weights).groupby(both["x"].astype(int)).sum()
        table["unbiased_percent"] = (100 * real / real.sum()).reindex(table.index, fill_value=0.0)
    table.index.name = "level"
    return table
