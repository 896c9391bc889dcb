"""Means and standard deviations per clue count, raw and unbiased (000 §1.3, SPEC §8.2).

With on(n) the number of n-clue puzzles having a value of X, E(X,n) and sd(X,n) their mean and
standard deviation (population form, dividing by on(n), like 003 §1.2), and w(n) = on(n) (raw) or
on(n)·cf(n) (unbiased):

* mean = Σ w(n)·E(X,n) / Σ w(n);
* sd (the papers' formula, SPEC §8.2) = sqrt(Σ w(n)·sd(X,n)² / Σ w(n)): the within-class spread only
  (SPEC §9.16); for X = #clues every sd(X,n) is 0 and the papers' clue sd is the plain sd, so for the
  clue column ``sd`` is the mixture sd;
* sd_mixture = sqrt(Σ w(n)·[sd(X,n)² + (E(X,n) - mean)²] / Σ w(n)): the full sd of the weighted
  mixture (for raw weights, the plain population sd of the column).
"""

from __future__ import annotations

import math

import pandas as pd

from .correction import correction_weight

CLUE_COLUMN = "clues"


def per_clue_table(clues: pd.Series, values: pd.Series) -> pd.DataFrame:
    """Per clue count n (the index): ``on`` = rows with a value, ``mean`` = E(X,n), ``sd`` = sd(X,n)."""
    data = pd.DataFrame({"n": clues, "x": values}).dropna()
    groups = data.groupby(data["n"].astype(int))["x"]
    table = pd.DataFrame({"on": groups.size(), "mean": groups.mean(), "sd": groups.std(ddof=0)})
    table.index.name = "clues"
    return table


def class_weights(table: pd.DataFrame, unbiased: bool) -> pd.Series:
    """w(n) = on(n), or on(n)·cf(n) when ``unbiased``."""
    if not unbiased:
        return table["on"].astype(float)
    return table["on"] * pd.Series([correction_weight(n) for n in table.index], index=table.index)


def weighted_moments(table: pd.DataFrame, unbiased: bool, is_clue_column: bool = False) -> dict:
    """``mean``, ``sd`` (papers' convention) and ``sd_mixture`` from a :func:`per_clue_table`."""
    if table.empty:
        return {"count": 0, "mean": math.nan, "sd": math.nan, "sd_mixture": math.nan}
    weights = class_weights(table, unbiased)
    total = weights.sum()
    mean = (weights * table["mean"]).sum() / total
    within = math.sqrt((weights * table["sd"] ** 2).sum() / total)
    mixture = math.sqrt((weights * (table["sd"] ** 2 + (table["mean"] - mean) ** 2)).sum() / total)
    return {"count": int(table["on"].sum()), "mean": float(mean),
            "sd": mixture if is_clue_column else within, "sd_mixture": mixture}


def plain_moments(values: pd.Series) -> dict:
    """Raw mean and population sd of a column when no clue count is known (``sd`` = ``sd_mixture``)."""
    data = values.dropna()
    if data.empty:
        return {"count": 0, "mean": math.nan, "sd": math.nan, "sd_mixture": math.nan}
    sd = float(data.std(ddof=0))
    return {"count": int(data.size), "mean": float(data.mean()), "sd": sd, "sd_mixture": sd}
