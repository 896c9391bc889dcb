"""Comparing two ratings of the same puzzles (e.g. W and B: 002 §VI.B finds 20 in 10,000 that differ).

Only rows where both ratings are present count.  The unbiased share of differences weights every
puzzle by cf(clues), like every other unbiased figure; importance weights (a weighted collection:
:meth:`~sudorules.stats.loading.Collection.weights`) weight both shares, as in stats.
"""

from __future__ import annotations

import pandas as pd

from .distributions import unbiased_weights
from .loading import COUNTED_NOWHERE, Collection, StatsInputError


def compare_ratings(collection: Collection, first: str, second: str) -> dict:
    """Cross-table, differing puzzles and raw / unbiased share of differences of two ratings.

    ``first`` and ``second`` may name any numeric column (a rating or not; in any case: ``gb`` is
    ``gB``, :meth:`~sudorules.stats.loading.Collection.column_named`); an unknown name is a
    :class:`~sudorules.stats.loading.StatsUsageError` listing the numeric columns, and no puzzle with
    both values a :class:`~sudorules.stats.loading.StatsInputError`.  Returns plain types:
    ``compared``, ``differ``, ``raw_percent``, ``unbiased_percent`` (None without clue counts),
    ``cross_table`` (``rows`` = levels of the first rating, ``columns`` = levels of the second,
    ``counts``; None when a column has more than :data:`MAX_CROSS_LEVELS` distinct values, and
    ``cross_table_note`` says so), ``differences`` (``source``, ``line``, ``puzzle``, both values, in input order),
    ``sources`` (the inputs, as stats' report has them: the text names ``file:line`` when they are several),
    ``weights`` (as stats' report: null, or how the puzzles are weighted)
    and ``counted_nowhere`` (per status, ``count`` and the first ``lines`` of the rows that hold no puzzle).
    """
    first, second = collection.column_named(first), collection.column_named(second)
    a, b = collection.values(first), collection.values(second)
    both = a.notna() & b.notna()
    if not both.any():
        raise StatsInputError(f"no puzzle has both {first} and {second} ({int(a.notna().sum()):,} have {first}, "
                              f"{int(b.notna().sum()):,} have {second}, among the rows counted)")
    levels = {name: int(values[both].nunique()) for name, values in ((first, a), (second, b))}
    wide = [name for name, count in levels.items() if count > MAX_CROSS_LEVELS]
    cross = None if wide else pd.crosstab(a[both].astype(_kind(a[both])), b[both].astype(_kind(b[both])),
                                          rownames=[first], colnames=[second])
    differ = both & (a != b)
    weights = collection.weights()
    share = (differ[both].sum() / both.sum() if weights is None
             else weights[differ].sum() / weights[both].sum())
    listed = collection.frame[differ]
    rows = [{"source": str(row.get("source")), "line": int(row["line"]),
             "puzzle": row.get("puzzle") if isinstance(row.get("puzzle"), str) else None,
             first: _plain(a[index]), second: _plain(b[index])} for index, row in listed.iterrows()]
    result = {"first": first, "second": second, "compared": int(both.sum()), "differ": int(differ.sum()),
              "raw_percent": 100 * share,
              "unbiased_percent": None,
              "cross_table": (None if cross is None else
                              {"rows": [_plain(v) for v in cross.index], "columns": [_plain(v) for v in cross.columns],
                               "counts": cross.to_numpy().tolist()}),
              "cross_table_note": (f"no cross-table: {', '.join(f'{n} has {levels[n]:,} distinct values' for n in wide)} "
                                   f"(one is made for at most {MAX_CROSS_LEVELS} a column)" if wide else None),
              "differences": rows, "sources": list(collection.inputs), "weights": collection.weights_summary(),
              # rows that hold no puzzle (an unreadable CSV row, an invalid line): never compared, and
              # named as stats names them (compare left them out without a word)
              "counted_nowhere": {status: group for status, group in collection.not_counted().items()
                                  if status in COUNTED_NOWHERE}}
    if collection.has_clues:
        clues = collection.clues()[both].dropna()
        factors = unbiased_weights(clues, weights)
        if len(factors):
            result["unbiased_percent"] = float(100 * factors[differ[clues.index]].sum() / factors.sum())
    result["raw_percent"] = float(result["raw_percent"])
    return result


#: the most distinct values a column may have for a cross-table: compare of two continuous columns
#: (seconds against a value file, every value distinct) made a dense 5,000 x 5,000 table, 4.5 GB and
#: lines 50,000 characters wide; ratings have a few dozen levels (SER about 100)
MAX_CROSS_LEVELS = 100


def _kind(values: pd.Series) -> type:
    return int if bool((values == values.round()).all()) else float


def _plain(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)
