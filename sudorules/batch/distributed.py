"""Batch rating on a dask.distributed cluster (``sudorules rate ... --scheduler tcp://HOST:PORT``).

Each dask worker process keeps its raters (and so its loaded rules) in this module's cache, so rules
are loaded once per worker, not per task.  Records travel in chunks; results come back in input order
and are written by the same resumable writer as a local run, so the output is the same file.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator, Optional, Sequence

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


def rate_records_on_cluster(records: Iterable[PuzzleRecord], scheduler: str, ratings: Sequence[str] = ("W",),
                            max_length: int = 36, time_limit: Optional[float] = None,
                            chunk_size: int = 16, max_depth: int = 3) -> Iterator[RatingRow]:
    """Rate records on the dask cluster at ``scheduler``; yield rows in input order.

    At most a few chunks per worker thread are in flight, so memory stays bounded for any input size.
    A chunk whose workers keep dying (dask's KilledWorker) gets ``crashed`` rows and the batch goes on.
    """
    from distributed import Client
    from distributed.scheduler import KilledWorker

    ratings = tuple(ratings)
    if isinstance(scheduler, str):
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise SudorulesError(f"cannot reach the dask scheduler at {scheduler}: {error}") from None
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
                rows = future.result()
            except KilledWorker as error:
                rows = [record_failed_row(record, ratings, "crashed", str(error)) for record in chunk]
            yield from rows
    finally:
        if isinstance(scheduler, str):
            client.close()
