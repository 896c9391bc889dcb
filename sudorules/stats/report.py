"""All the statistics of a collection as one plain dictionary (the ``--json`` output, stable keys).

Keys: ``sources`` (the inputs' names), ``rows``, ``status`` (rows per status), ``excluded_rows``
(status other than solved: each leaves out of a rating's statistics the ratings that failed in it;
a value it has counts), ``not_counted`` (per status of those rows: ``count`` and the first ``lines`` as ``{source, line}``), ``rating_columns`` (the columns
statistics are computed for besides clues), ``other_columns`` (numeric columns that are not ratings,
e.g. ``seconds``: no statistic), ``unbiased`` (whether controlled-bias corrections were applied),
``columns`` (per column: ``count``, ``missing``, ``raw`` and ``unbiased`` moments: ``mean``, ``sd``,
``sd_mixture``, ``skewness``, ``kurtosis``), ``per_clue`` (per column, per clue count: ``on``, ``mean``,
``sd``, ``skewness``, ``kurtosis``), ``clue_distribution``, ``level_distributions``,
``correlation`` (``columns``, ``log``, ``raw`` and ``unbiased`` matrices), ``mean_distance`` and
``minimals`` (null without a tries column; ``assumes`` says on what grids), ``repeated`` (puzzles
counted more than once: ``puzzles``, ``rows``; null when none), ``weights`` (null, or how the puzzles
were weighted: ``rows``, ``mean``, ``effective_rows``; with weights, the per-clue tables and the clue
distribution gain ``weight``, W(n)), ``notes`` (what the figures leave out or take as read, one line
each: a length rating holding a value that is no whole number).  Missing numbers are null.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np
import pandas as pd

from .correction import correction_factor
from .columns import KNOWN_RATINGS, is_rating
from .correlation import correlation_matrix, log_transform, mean_distances
from .distributions import clue_distribution, is_discrete, level_distribution, unbiased_weights
from .loading import CLUES, Collection, StatsInputError, StatsUsageError, column_named
from .minimals import minimals_per_grid
from .moments import is_spread, per_clue_table, plain_moments, weighted_moments
from ..reader import plural


def build_report(collection: Collection, unbiased: bool = True, log_columns: Sequence[str] = ()) -> dict:
    """Compute every statistic of the issue-5 list for ``collection``.

    ``unbiased`` adds the controlled-bias corrected figures (needs the clue count); ``log_columns``
    are correlated through their natural logarithm.
    """
    if unbiased and not collection.has_clues:
        raise StatsInputError("unbiased statistics need the clue count: give a puzzle file, a CSV with a "
                              "clues or puzzle column, or --column clues=FILE (or use --raw)")
    names = collection.stat_columns()
    log_columns = [column_named(name, names) for name in log_columns]  # in any case, as --rating
    for name in log_columns:
        if name not in names:
            # a column of the input that is no rating is not "unknown": it has no statistics to log
            what = ("not a rating column: add --rating {0} to treat it as one".format(name)
                    if name in collection.value_columns else "unknown column")
            raise StatsUsageError(f"--log {name}: {what} (columns with statistics: {', '.join(names) or 'none'})")
    clues = collection.clues() if collection.has_clues else None
    weights = collection.weights()
    sources = collection.inputs or (list(dict.fromkeys(collection.frame["source"].astype(str)))
                                    if "source" in collection.frame else [])
    report: dict = {"sources": sources, "rows": int(len(collection.frame)), "status": collection.status_counts(),
                    "excluded_rows": collection.excluded_rows(), "not_counted": collection.not_counted(),
                    "rating_columns": list(collection.rating_columns),
                    "other_columns": collection.ignored_columns(), "unbiased": unbiased,
                    "columns": {}, "per_clue": {}, "clue_distribution": None,
                    "level_distributions": {}, "correlation": None, "mean_distance": None, "minimals": None}
    report["repeated"] = _repeated(collection)
    report["weights"] = collection.weights_summary()
    for name in names:
        values = collection.values(name)
        # missing: a puzzle's value that is not there (empty, or its run did not end); an invalid
        # record's are not missing, it counts nowhere (6 invalid rows showed as "missing 6")
        entry = {"count": int(values.notna().sum()), "missing": int((values.isna() & collection.somewhere).sum())}
        if clues is not None:
            table = per_clue_table(clues, values, weights)
            entry["raw"] = weighted_moments(table, False, name == CLUES)
            entry["unbiased"] = weighted_moments(table, True, name == CLUES) if unbiased else None
            report["per_clue"][name] = _records(_with_shape(table), "clues")
        else:
            entry["raw"], entry["unbiased"] = plain_moments(values, weights), None
        report["columns"][name] = entry
    if clues is not None:
        distribution = clue_distribution(clues, weights)
        distribution["cf_exact"] = [str(correction_factor(n)) for n in distribution.index]
        if not unbiased:
            distribution = distribution[[c for c in ("on", "weight", "raw_percent") if c in distribution]]
        report["clue_distribution"] = _records(distribution, "clues")
    report["notes"] = []
    for name in collection.rating_columns:
        values = collection.values(name)
        if is_discrete(values):
            table = level_distribution(values, clues if unbiased else None, weights)
            report["level_distributions"][name] = _records(table, "level")
        note = _not_a_length(collection, name, values)
        if note:
            report["notes"].append(note)
    _add_correlations(report, collection, names, log_columns, unbiased, weights)
    if collection.has_tries and clues is not None:
        report["minimals"] = _minimals(collection, weights)
    return _clean(report)


def _add_correlations(report: dict, collection: Collection, names: list[str], log_columns: Sequence[str],
                      unbiased: bool, weights: Optional[pd.Series]) -> None:
    if len(names) < 2:
        return
    def where(index: int) -> str:
        return _place(collection, index)

    columns = {name: (log_transform(name, collection.values(name), where) if name in log_columns
                      else collection.values(name)) for name in names}
    corrected = unbiased_weights(collection.clues(), weights) if unbiased else None
    ratings = [name for name in names if name != CLUES]
    raw = correlation_matrix(columns, weights)
    report["correlation"] = {"columns": names, "log": list(log_columns), "raw": raw.values.tolist(),
                             "unbiased": correlation_matrix(columns, corrected).values.tolist() if unbiased else None}
    if len(ratings) >= 2:
        unbiased_distances = None
        if unbiased:
            unbiased_distances = mean_distances(pd.DataFrame(report["correlation"]["unbiased"], index=names,
                                                             columns=names), ratings)
        report["mean_distance"] = {"raw": mean_distances(raw, ratings), "unbiased": unbiased_distances}


def _place(collection: Collection, index: int) -> str:
    """Where row ``index`` of the collection is: ``line 4``, or ``b.csv line 4`` with several inputs
    (joined on the puzzle, or parts of one collection), where its line alone could be another
    input's (helper-40)."""
    frame = collection.frame
    line = f"line {int(frame.at[index, 'line'])}"
    several = len(collection.inputs or []) > 1 or frame["source"].nunique() > 1
    return f"{frame.at[index, 'source']} {line}" if several else line


#: the ratings whose values are whole numbers by definition (lengths, depths; SER and the other
#: published ratings of the papers' comparisons are not)
WHOLE_RATINGS = ("W", "B", "gW", "gB", "TE", "te_depth", "gte_depth", "BxB", "BxBB")


def _not_a_length(collection: Collection, name: str, values: pd.Series) -> Optional[str]:
    """A note when a rating that is a length (W, B... or any theory's rating ``rate`` writes) holds a
    value that is no whole number >= 0, naming its row: one W of 2.5 took W's distribution by level
    out of the report unsaid, and W = -1 made a level -1 (helper-50)."""
    if name not in WHOLE_RATINGS and (name in KNOWN_RATINGS or not is_rating(name)):  # SER; --rating seconds
        return None
    data = values.dropna()
    wrong = data[(data != data.round()) | (data < 0)]
    if wrong.empty:
        return None
    what = "no distribution by level" if (wrong != wrong.round()).any() else "counted as read"
    return (f"{name} {wrong.iloc[0]:g} at {_place(collection, wrong.index[0])}"
            + (f" and {plural(len(wrong) - 1, 'other row', grouped=True)}" if len(wrong) > 1 else "")
            + f": a {name} rating is a whole number, 0 or more ({what})")


def _with_shape(table: pd.DataFrame) -> pd.DataFrame:
    """A per-clue table with each class's skewness and excess kurtosis (000 §2.1.3-2.1.4 give them per
    clue count) in place of its central moments m3, m4 (NaN for a class of one value)."""
    shown = table.drop(columns=["m3", "m4"])
    spread = table["sd"].where(is_spread(table["sd"] ** 2, table["mean"]))  # the whole column's test
    shown["skewness"] = table["m3"] / spread ** 3
    shown["kurtosis"] = table["m4"] / spread ** 4 - 3
    return shown


def _repeated(collection: Collection) -> Optional[dict]:
    """The puzzles counted more than once, as ``{"puzzles": distinct ones, "rows": their rows}``, or
    None: two chunks of one generate run (the same --seed, 0 when not given) pooled into a file are
    every puzzle twice, and the statistics said nothing of it (helper-39).  Each row still counts."""
    if "puzzle" not in collection.frame:
        return None
    puzzles = collection.frame["puzzle"][collection.somewhere]
    twice = puzzles.duplicated(keep=False)
    if not twice.any():
        return None
    return {"puzzles": int(puzzles[twice].nunique()), "rows": int(twice.sum())}


def _minimals(collection: Collection, weights: Optional[pd.Series] = None) -> dict:
    rows = collection.clues().notna()
    missing = int((rows & collection.frame["tries"].isna()).sum())
    if missing:
        return {"note": f"tries missing on {plural(missing, 'puzzle', grouped=True)}: numbers of minimals not estimated"}
    # an invalid or unreadable row counts nowhere, T included: the empty grid rated "several
    # solutions" with a tail of 5 added 5 tries to T (the generator makes unique minimal puzzles
    # only, so such a line's tail is no tries count of its run)
    tries = collection.frame["tries"].where(collection.somewhere).fillna(0)
    # a try is one complete grid used: a count of 0 or less is no generator's, and so many that their
    # sum is no float (two tails of 1e308) no figure (both ended in ZeroDivisionError)
    wrong = int((rows & collection.somewhere & (collection.frame["tries"] <= 0)).sum())
    if wrong:
        return {"note": f"tries of 0 or less on {plural(wrong, 'puzzle', grouped=True)} (a tries count is the "
                        "number of complete grids used, 1 or more): numbers of minimals not estimated"}
    with np.errstate(over="ignore"):
        total_tries = float(tries.sum())
    if not math.isfinite(total_tries):
        return {"note": "the tries add up to more than a number holds: numbers of minimals not estimated"}
    table, total = minimals_per_grid(collection.clues(), tries, weights)
    return {**total, "per_clue": _records(table, "clues"),
            "assumes": GRIDS_ASSUMED if weights is None else GRIDS_WEIGHTED}


#: What the numbers of minimals take for granted, said beside them: a sample from `sudorules
#: generate`'s seeded grids gave 5.41e15 minimals per grid, 16 % above the published 4.66e15 (2,100
#: controlled-bias puzzles, helper-39), and the report said nothing of it.
GRIDS_ASSUMED = ("complete grids drawn uniformly, as the published collections' were; sudorules generate's "
                 "seeded grids are not (they hold about 13 % more minimal puzzles: README, Generating), so its "
                 "samples give numbers about that much too high, unless made from uniform --grids or "
                 "weighted (generate --weights FILE, then stats --weights FILE)")
#: ... and with importance weights
GRIDS_WEIGHTED = ("weights of mean 1 over the grids drawn, as generate --weights writes them: each puzzle "
                  "weighted by its grid's importance weight, the numbers are those of uniform grids")


def _records(table: pd.DataFrame, key: str) -> list[dict]:
    records = table.rename_axis(key).reset_index().to_dict("records")
    for record in records:
        record[key] = int(record[key])
    return records


def _clean(value):
    """Plain JSON types: numpy numbers to Python, NaN to None."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
