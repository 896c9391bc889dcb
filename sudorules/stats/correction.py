"""Correction factors of the controlled-bias generator (000 §1.2-1.3, SPEC §8.1).

The controlled-bias generator reaches a given n-clue puzzle with probability proportional to
(81-n)!·n!, so a sample over-represents puzzles with fewer clues.  Weighting each n-clue puzzle by
cf(n) = C(81,n) / C(81,26) undoes the bias; cf(26) = 1 by convention (only ratios matter).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

REFERENCE_CLUES = 26  #: cf(REFERENCE_CLUES) = 1, the papers' normalisation


@lru_cache(maxsize=None)
def correction_factor(clues: int) -> Fraction:
    """Exact cf(n) = C(81,n)/C(81,26) for 0 <= n <= 81."""
    n = int(clues)
    if n != clues or not 0 <= n <= 81:
        raise ValueError(f"a clue count is an integer from 0 to 81, not {clues!r}")
    return Fraction(comb(81, n), comb(81, REFERENCE_CLUES))


def correction_weight(clues: int) -> float:
    """cf(n) as a float, the weight of one n-clue puzzle in unbiased statistics."""
    return float(correction_factor(clues))


def correction_table(low: int = 17, high: int = 36) -> dict[int, Fraction]:
    """The exact factors cf(n) for n = low..high (SPEC §8.1 prints 17..36)."""
    return {n: correction_factor(n) for n in range(low, high + 1)}
