"""Correlation matrix of ratings and clues (003 §1.1-1.2) and each rating's mean distance to the others (003 §1.3).

* Correlation: Pearson's r with population moments, r = Cov(X,Y)/sqrt(V(X)·V(Y)), exactly the
  iterative algorithm of 003 §1.2, computed on the rows where both values are present.  The unbiased
  matrix weights every puzzle by cf(clues) (000 §2.1.1 gives both the controlled-bias and the real
  coefficients).  003 §1.2 correlates X with f(Y), e.g. log(Y) for times or numbers of chains:
  :func:`log_transform` replaces a column by its natural logarithm (every value must be > 0).
* Mean distance (003 §1.3): every centred rating is a vector in R^N whose cosine with another is r;
  on the unit sphere two ratings lie at distance sqrt(2 - 2r).  The paper's figures are the quadratic
  mean of the distances to the k other ratings, d = sqrt(Σ_j (2 - 2 r_ij) / k) = sqrt(2·(1 - mean_j r_ij)):
  from its rounded correlations this gives 0.675 / 0.721 / 0.686 / 0.718 / 0.781 for the published
  0.678 / 0.721 / 0.682 / 0.716 / 0.780 (the plain mean of the distances would give 0.704 for 0.716).
  The mean is over the defined correlations (a constant rating has none): undefined when there is none.
"""

from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import numpy as np
import pandas as pd

from .loading import StatsInputError


def weighted_correlation(x: pd.Series, y: pd.Series, weights: Optional[pd.Series] = None) -> float:
    """Pearson's r of x and y on the rows where both (and the weight) are present; NaN if undefined."""
    frame = pd.DataFrame({"x": x, "y": y, "w": 1.0 if weights is None else weights}).dropna()
    if len(frame) < 2:
        return math.nan
    w = frame["w"].to_numpy(float)
    xs, ys = frame["x"].to_numpy(float), frame["y"].to_numpy(float)
    # A constant column has no correlation.  Said directly, not by its variance: with cf weights the
    # weighted mean of equal values is off by a rounding error, which left a variance of 1e-30 and
    # an unbiased r of 6.6e-16 where the raw one was NaN (a collection of 18-clue puzzles).
    if xs.min() == xs.max() or ys.min() == ys.max():
        return math.nan
    total = w.sum()
    mx, my = (w * xs).sum() / total, (w * ys).sum() / total
    vx = (w * (xs - mx) ** 2).sum() / total
    vy = (w * (ys - my) ** 2).sum() / total
    if vx <= 0 or vy <= 0:
        return math.nan
    return float((w * (xs - mx) * (ys - my)).sum() / total / math.sqrt(vx * vy))


def correlation_matrix(columns: dict[str, pd.Series], weights: Optional[pd.Series] = None) -> pd.DataFrame:
    """The symmetric matrix of :func:`weighted_correlation` between the named columns: on the diagonal
    1, or NaN for a column that has no correlation, with itself either (constant, all empty, or fewer
    than two values): a constant B showed r(B, B) = 1.0000 beside its undefined r with every other."""
    names = list(columns)
    matrix = pd.DataFrame(np.eye(len(names)), index=names, columns=names)
    for i, a in enumerate(names):
        if math.isnan(weighted_correlation(columns[a], columns[a], weights)):
            matrix.loc[a, a] = math.nan
        for b in names[i + 1:]:
            matrix.loc[a, b] = matrix.loc[b, a] = weighted_correlation(columns[a], columns[b], weights)
    return matrix


def log_transform(name: str, values: pd.Series, where: Optional[Callable[[int], str]] = None) -> pd.Series:
    """Natural log of a column (003 §1.2); raise StatsInputError if a present value is <= 0, naming
    the first one by ``where(index)`` (its file and line: "row 1" was the first data row, line 2 of
    the CSV, where every other message names lines; helper-39)."""
    bad = values.notna() & (values <= 0)
    if bad.any():
        first = bad.idxmax()
        at = where(first) if where is not None else f"row {int(first) + 1}"
        count = int(bad.sum())
        raise StatsInputError(f"--log {name}: {count} value{' is' if count == 1 else 's are'} <= 0 "
                              f"(first at {at}: {values[first]:g}); log needs > 0")
    return np.log(values)


def mean_distances(matrix: pd.DataFrame, ratings: Sequence[str]) -> dict[str, float]:
    """Each rating's mean distance to the other ratings: sqrt(2·(1 - mean of its correlations with them)).

    Only the defined correlations count: a rating that is constant (or shares no two puzzles with
    another) has no unit vector, so it is at no distance of the others; a rating with no defined
    correlation has no mean distance (NaN)."""
    result = {}
    for name in ratings:
        others = [float(matrix.loc[name, other]) for other in ratings if other != name]
        defined = [r for r in others if not math.isnan(r)]
        if not defined:
            # said here, not left to max(): max(0.0, nan) is 0.0, which showed undefined distances as 0
            result[name] = math.nan
            continue
        # Identical columns give a correlation a rounding error above 1 (found by the fuzz test:
        # r = 1.0000000000000002): the distance is then 0, not a math domain error.
        result[name] = math.sqrt(max(0.0, 2 * (1 - float(np.mean(defined)))))
    return result
