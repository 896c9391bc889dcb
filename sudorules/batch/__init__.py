"""Many puzzles at once: checking and rating collections, on all cores or a dask cluster.

* :mod:`.check` - ``sudorules check``: solution counts, minimality and solutions, in batches;
* :mod:`.rating` - :class:`Rater`: the W and B ratings of one input record, as a row;
* :mod:`.runner` - resumable, locked, ordered batch rating of a file (``sudorules rate``);
* :mod:`.pool` - the ordered pool of worker processes that survives its workers;
* :mod:`.distributed` - the same job on a dask.distributed cluster;
* :mod:`.watchdog` - the hard stop and the heartbeat of a long run.
"""

from .check import CheckRow, check_records
from .pool import OrderedPool, PoolError, cpu_count, default_memory_limit
from .rating import RATING_THEORIES, STATUSES, Rater, RatingRow, header
from .runner import BatchError, BatchSummary, RateOptions, rate_file, rate_records

__all__ = ["BatchError", "BatchSummary", "CheckRow", "OrderedPool", "PoolError", "RATING_THEORIES", "RateOptions",
           "Rater", "RatingRow", "STATUSES", "check_records", "cpu_count", "default_memory_limit", "header",
           "rate_file", "rate_records"]
