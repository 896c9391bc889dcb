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
from typing import Optional

import pandas as pd

from .correction import correction_weight

CLUE_COLUMN = "clues"


def per_clue_table(clues: pd.Series, values: pd.Series, weights: Optional[pd.Series] = None) -> pd.DataFrame:
    """Per clue count n (the index): ``on`` = rows with a value, ``mean`` = E(X,n), ``sd`` = sd(X,n).

    With ``weights`` (each puzzle's importance weight, :meth:`~sudorules.stats.loading.Collection.weights`) E(X,n) and
    sd(X,n) are weighted, and ``weight`` = W(n), the sum of the class's weights, stands for on(n) as
    the class's size in the mixture."""
    if weights is None:
        data = pd.DataFrame({"n": clues, "x": values}).dropna()
        groups = data.groupby(data["n"].astype(int))["x"]
        table = pd.DataFrame({"on": groups.size(), "mean": groups.mean(), "sd": groups.std(ddof=0)})
    else:
        data = pd.DataFrame({"n": clues, "x": values, "w": weights}).dropna()
        data["wx"] = data["w"] * data["x"]
        groups = data.groupby(data["n"].astype(int))
        total = groups["w"].sum()
        mean = groups["wx"].sum() / total
        data["wd"] = data["w"] * (data["x"] - data["n"].astype(int).map(mean)) ** 2
        table = pd.DataFrame({"on": groups.size(), "weight": total, "mean": mean,
                              "sd": (groups["wd"].sum() / total) ** 0.5})
    table.index.name = "clues"
    return table


def class_weights(table: pd.DataFrame, unbiased: bool) -> pd.Series:
    """w(n) = on(n) (W(n) in a weighted table), times cf(n) when ``unbiased``."""
    size = (table["weight"] if "weight" in table else table["on"]).astype(float)
    if not unbiased:
        return size
    return size * pd.Series([correction_weight(n) for n in table.index], index=table.index)


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


def plain_moments(values: pd.Series, weights: Optional[pd.Series] = None) -> dict:
    """Raw mean and population sd of a column when no clue count is known (``sd`` = ``sd_mixture``),
    each value weighted by its row's importance weight when ``weights`` are given."""
    data = values.dropna()
    if data.empty:
        return {"count": 0, "mean": math.nan, "sd": math.nan, "sd_mixture": math.nan}
    if weights is None:
        mean, sd = float(data.mean()), float(data.std(ddof=0))
    else:
        w = weights[data.index]
        mean = float((w * data).sum() / w.sum())
        sd = math.sqrt(float((w * (data - mean) ** 2).sum() / w.sum()))
    return {"count": int(data.size), "mean": mean, "sd": sd, "sd_mixture": sd}
