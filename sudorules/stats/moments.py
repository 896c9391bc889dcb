"""Means and standard deviations per clue count, raw and unbiased (000 §1.3, SPEC §8.2).

With on(n) the number of n-clue puzzles having a value of X, E(X,n) and sd(X,n) their mean and
standard deviation (population form, dividing by on(n), like 003 §1.2), and w(n) = on(n) (raw) or
on(n)·cf(n) (unbiased):

* mean = Σ w(n)·E(X,n) / Σ w(n);
* sd (the papers' formula, SPEC §8.2) = sqrt(Σ w(n)·sd(X,n)² / Σ w(n)): the within-class spread only
  (SPEC §9.16); for X = #clues every sd(X,n) is 0 and the papers' clue sd is the plain sd, so for the
  clue column ``sd`` is the mixture sd;
* sd_mixture = sqrt(Σ w(n)·[sd(X,n)² + (E(X,n) - mean)²] / Σ w(n)): the full sd of the weighted
  mixture (for raw weights, the plain population sd of the column);
* skewness = M3 / M2^1.5 and kurtosis = M4 / M2² - 3 (excess kurtosis, 0 for a Normal: 000 §2.1.1
  gives 0.087 and 0.024 for the clues of the controlled-bias collection) of the same mixture, its
  central moments Mk = Σ w(n)·E[(X - mean)^k | n] / Σ w(n) made from each class's central moments
  m2..m4 and d = E(X,n) - mean: E[(X - mean)³ | n] = m3 + 3·m2·d + d³, E[(X - mean)⁴ | n] = m4 +
  4·m3·d + 6·m2·d² + d⁴.
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
    data = pd.DataFrame({"n": clues, "x": values, "w": 1.0 if weights is None else weights}).dropna()
    n = data["n"].astype(int)
    data["wx"] = data["w"] * data["x"]
    groups = data.groupby(n)
    total = groups["w"].sum()
    mean = groups["wx"].sum() / total
    deviation = data["x"] - n.map(mean)
    for k in (2, 3, 4):  # the class's central moments m2..m4
        data[f"w{k}"] = data["w"] * deviation ** k
    central = {k: groups[f"w{k}"].sum() / total for k in (3, 4)}
    table = pd.DataFrame({"on": groups.size(), **({} if weights is None else {"weight": total}), "mean": mean,
                          "sd": (groups["w2"].sum() / total) ** 0.5, "m3": central[3], "m4": central[4]})
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
        return {"count": 0, **dict.fromkeys(("mean", "sd", "sd_mixture", "skewness", "kurtosis"), math.nan)}
    weights = class_weights(table, unbiased)
    total = weights.sum()
    mean = (weights * table["mean"]).sum() / total
    within = math.sqrt((weights * table["sd"] ** 2).sum() / total)
    d, m2 = table["mean"] - mean, table["sd"] ** 2
    moment2 = float((weights * (m2 + d ** 2)).sum() / total)
    moment3 = float((weights * (table["m3"] + 3 * m2 * d + d ** 3)).sum() / total)
    moment4 = float((weights * (table["m4"] + 4 * table["m3"] * d + 6 * m2 * d ** 2 + d ** 4)).sum() / total)
    mixture = math.sqrt(moment2)
    return {"count": int(table["on"].sum()), "mean": float(mean),
            "sd": mixture if is_clue_column else within, "sd_mixture": mixture,
            **_shape(moment2, moment3, moment4, float(mean))}


def is_spread(variance, mean):
    """Is a variance that of values that differ, not the rounding noise of a constant column's (a
    constant 0.1 gives 1.9e-34)?  Relative to the values' size, so that a column of values of 1e-7
    keeps its shape (an absolute 1e-12 gave none: helper-51).  Works on numbers and Series alike."""
    return variance > 1e-24 * (1 + mean * mean)


def _shape(moment2: float, moment3: float, moment4: float, mean: float = 0.0) -> dict:
    """Skewness and excess kurtosis from central moments M2..M4 (NaN for a constant column)."""
    if not is_spread(moment2, mean):
        return {"skewness": math.nan, "kurtosis": math.nan}
    return {"skewness": moment3 / moment2 ** 1.5, "kurtosis": moment4 / moment2 ** 2 - 3}


def plain_moments(values: pd.Series, weights: Optional[pd.Series] = None) -> dict:
    """Raw mean and population sd of a column when no clue count is known (``sd`` = ``sd_mixture``),
    each value weighted by its row's importance weight when ``weights`` are given."""
    data = values.dropna()
    if data.empty:
        return {"count": 0, **dict.fromkeys(("mean", "sd", "sd_mixture", "skewness", "kurtosis"), math.nan)}
    w = pd.Series(1.0, index=data.index) if weights is None else weights[data.index]
    mean = float((w * data).sum() / w.sum())
    moments = [float((w * (data - mean) ** k).sum() / w.sum()) for k in (2, 3, 4)]
    sd = math.sqrt(moments[0])
    return {"count": int(data.size), "mean": mean, "sd": sd, "sd_mixture": sd, **_shape(*moments, mean)}
