"""Batch rating on a dask.distributed cluster (``sudorules rate ... --scheduler tcp://HOST:PORT``).

Each dask worker process keeps its raters (and so its loaded rules) in this module's cache, so rules
are loaded once per worker, not per task.  Records travel in chunks; results come back in input order
and are written by the same resumable writer as a local run, so the output is the same file.

A cluster that fails under the run (the scheduler killed or unreachable) ends it with one line,
:class:`ClusterError` (status 1; the rows written are complete and the run resumes), not dask's own
messages and tracebacks (about 35 lines, issue 27); ``SUDORULES_DEBUG=1`` lets them through.  A
scheduler with no worker is waited for, with a warning every few minutes from
:data:`NO_WORKER_WARNING_SECONDS` on.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections import deque
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Optional, Sequence

from ..errors import SudorulesError
from .rating import Rater, RatingRow, record_failed_row
from ..reader import PuzzleRecord

_RATERS: dict[tuple, Rater] = {}  # per worker process: (ratings, max_length, time_limit, max_depth) -> Rater


def worker_rater(ratings: tuple[str, ...], max_length: int, time_limit: Optional[float], max_depth: int = 3) -> Rater:
    """This process's rater for these settings, built on first use."""
    key = (ratings, max_length, time_limit, max_depth)
    if key not in _RATERS:
        _RATERS[key] = Rater(ratings, max_length=max_length, time_limit=time_limit, max_depth=max_depth)
    return _RATERS[key]


def rate_chunk(records: list[PuzzleRecord], ratings: tuple[str, ...], max_length: int,
               time_limit: Optional[float], max_depth: int = 3) -> list[RatingRow]:
    """Rate a chunk of records on a dask worker (the task function)."""
    rater = worker_rater(ratings, max_length, time_limit, max_depth)
    return [rater.rate(record) for record in records]


def _chunks(records: Iterable[PuzzleRecord], size: int) -> Iterator[list[PuzzleRecord]]:
    chunk: list[PuzzleRecord] = []
    for record in records:
        chunk.append(record)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


#: seconds to wait for the scheduler before giving up with one line
CONNECT_SECONDS = 20
#: seconds without any worker before the first warning (then one every WARNING_INTERVAL)
NO_WORKER_WARNING_SECONDS = 10.0
WARNING_INTERVAL = 120.0
#: seconds between two looks at the cluster while a result is awaited
POLL_SECONDS = 1.0


class ClusterError(SudorulesError):
    """The dask cluster failed under the run: the scheduler was lost or cannot be reached."""


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """dask.distributed's own log lines (a traceback per lost connection) are silenced while we run:
    the failure is said in one line (SUDORULES_DEBUG=1 keeps them)."""
    if os.environ.get("SUDORULES_DEBUG"):
        yield
        return
    import distributed  # noqa: F401  (its loggers, each with its own level from dask's config)

    loggers = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)
               if name == "distributed" or name.startswith("distributed.")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _result(client: Any, future: Any, scheduler: str) -> Any:
    """The future's result; while it is awaited with no worker in the cluster, a warning on stderr
    after :data:`NO_WORKER_WARNING_SECONDS` and then every :data:`WARNING_INTERVAL`."""
    started = time.monotonic()
    next_warning = NO_WORKER_WARNING_SECONDS
    while True:
        try:
            return future.result(timeout=POLL_SECONDS)
        except TimeoutError:  # distributed's TimeoutError is the builtin one (asyncio's on 3.11+)
            pass
        waited = time.monotonic() - started
        if waited >= next_warning and not client.nthreads():
            sys.stderr.write(f"Warning: no dask worker in the cluster at {scheduler} for {waited:.0f} s; still "
                             f"waiting (start one: dask worker {scheduler} --nthreads 1)\n")
            sys.stderr.flush()
            next_warning = waited + WARNING_INTERVAL


def rate_records_on_cluster(records: Iterable[PuzzleRecord], scheduler: str, ratings: Sequence[str] = ("W",),
                            max_length: int = 36, time_limit: Optional[float] = None,
                            chunk_size: int = 16, max_depth: int = 3) -> Iterator[RatingRow]:
    """Rate records on the dask cluster at ``scheduler``; yield rows in input order.

    At most a few chunks per worker thread are in flight, so memory stays bounded for any input size.
    A chunk whose workers keep dying (dask's KilledWorker) gets ``crashed`` rows and the batch goes on.
    ``scheduler`` may also be a connected ``distributed.Client``.
    """
    ratings = tuple(ratings)
    with _quiet_dask():
        yield from _rate_on_cluster(records, scheduler, ratings, max_length, time_limit, chunk_size, max_depth)


def _rate_on_cluster(records: Iterable[PuzzleRecord], scheduler: Any, ratings: tuple[str, ...], max_length: int,
                     time_limit: Optional[float], chunk_size: int, max_depth: int) -> Iterator[RatingRow]:
    from distributed import Client
    from distributed.scheduler import KilledWorker

    address = str(getattr(getattr(scheduler, "scheduler", None), "address", scheduler))
    if isinstance(scheduler, str):
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"cannot reach the dask scheduler at {scheduler}: {error}") from None
    else:
        client = scheduler
    try:
        threads = max(1, sum(client.nthreads().values()))
        in_flight: deque = deque()
        chunks = _chunks(records, chunk_size)
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < 3 * threads:
                chunk = next(chunks, None)
                if chunk is None:
                    exhausted = True
                    break
                future = client.submit(rate_chunk, chunk, ratings, max_length, time_limit, max_depth, pure=False)
                in_flight.append((chunk, future))
            if not in_flight:
                return
            chunk, future = in_flight.popleft()
            try:
                rows = _result(client, future, address)
            except KilledWorker as error:
                rows = [record_failed_row(record, ratings, "crashed", str(error)) for record in chunk]
            except SudorulesError:
                raise
            except Exception as error:  # CancelledError, CommClosedError...: the cluster is gone
                first = (str(error).splitlines() or [type(error).__name__])[0]
                raise ClusterError(f"lost the dask scheduler at {address} ({type(error).__name__}: {first}); "
                                   "the rows written are complete: run the same command again to resume") from None
            yield from rows
    finally:
        if isinstance(scheduler, str):
            try:
                client.close(timeout=5)
            except Exception:  # closing a client whose scheduler is gone: nothing more to say
                pass
