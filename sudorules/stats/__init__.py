"""Statistics of rated puzzle collections: raw and controlled-bias corrected (unbiased) figures.

One module per job: :mod:`.correction` (cf(n)), :mod:`.loading` (CSV, puzzle and value files),
:mod:`.moments` (means and sds by clue count), :mod:`.distributions` (clue and level distributions),
:mod:`.correlation` (correlations, mean distances), :mod:`.minimals` (numbers of minimals per grid),
:mod:`.comparison` (two ratings side by side), :mod:`.report` (everything as one dictionary),
:mod:`.text` (text tables) and :mod:`.plot` (matplotlib figure, optional).
"""

from .comparison import compare_ratings
from .correction import correction_factor, correction_table, correction_weight
from .loading import (KNOWN_RATINGS, Collection, StatsFileError, StatsInputError, StatsUsageError, load_collection,
                      parse_column_option)
from .report import build_report

__all__ = ["KNOWN_RATINGS", "Collection", "StatsFileError", "StatsInputError", "StatsUsageError", "build_report",
           "compare_ratings", "correction_factor", "correction_table", "correction_weight", "load_collection",
           "parse_column_option"]
