"""Many puzzles at once: checking and rating collections, on all cores or a dask cluster.

* :mod:`.check` - ``sudorules check``: solution counts, minimality and solutions, in batches;
* :mod:`.rating` - :class:`Rater`: the W and B ratings of one input record, as a row;
* :mod:`.runner` - resumable, locked, ordered batch rating of a file (``sudorules rate``);
* :mod:`.pool` - the ordered pool of worker processes that survives its workers;
* :mod:`.distributed` - the same job on a dask.distributed cluster;
* :mod:`.watchdog` - the hard stop and the heartbeat of a long run.
"""

from .._lazy import exports

_NAMES = {"CheckRow": "check", "check_records": "check", "OrderedPool": "pool", "PoolError": "pool",
          "cpu_count": "pool", "default_memory_limit": "pool", "RATING_THEORIES": "rating", "STATUSES": "rating",
          "Rater": "rating", "RatingRow": "rating", "header": "rating", "BatchError": "runner",
          "BatchSummary": "runner", "RateOptions": "runner", "rate_file": "runner", "rate_records": "runner"}
__all__ = sorted(_NAMES)
__getattr__, __dir__ = exports(__name__, _NAMES)
