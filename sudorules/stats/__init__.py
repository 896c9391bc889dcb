"""Statistics of rated puzzle collections: raw and controlled-bias corrected (unbiased) figures.

One module per job: :mod:`.correction` (cf(n)), :mod:`.loading` (CSV, puzzle and value files),
:mod:`.moments` (means and sds by clue count), :mod:`.distributions` (clue and level distributions),
:mod:`.correlation` (correlations, mean distances), :mod:`.minimals` (numbers of minimals per grid),
:mod:`.comparison` (two ratings side by side), :mod:`.report` (everything as one dictionary),
:mod:`.text` (text tables) and :mod:`.plot` (matplotlib figure, optional).
"""

from .._lazy import exports

_NAMES = {"compare_ratings": "comparison", "correction_factor": "correction", "correction_table": "correction",
          "correction_weight": "correction", "KNOWN_RATINGS": "columns", "Collection": "loading",
          "StatsFileError": "loading", "StatsInputError": "loading", "StatsUsageError": "loading",
          "load_collection": "loading", "parse_column_option": "loading", "build_report": "report"}
__all__ = sorted(_NAMES)
__getattr__, __dir__ = exports(__name__, _NAMES)
