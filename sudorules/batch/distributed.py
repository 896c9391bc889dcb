"""Batch rating on a dask.distributed cluster (``sudorules rate ... --scheduler tcp://HOST:PORT``).

A cluster run rates as a local one does, so that its output is the same file (seconds aside).  Each
dask task rates its records through the local machinery (:func:`~sudorules.batch.rating.rating_pool`):
inside the dask worker, each worker thread keeps an :class:`~sudorules.batch.pool.OrderedPool` of one
rating process with its rules loaded, the same memory cap (``--memory-limit``, by default the dask
worker's memory shared by its threads), the same time backstop and the same failure rows.  A puzzle
that blows up or crashes kills that process, not the dask worker: it gets its own ``memory``,
``crashed`` or ``timeout`` row keeping the ratings it finished, and its neighbours are rated.  A
dask worker that dies is then no puzzle's doing (its machine lost, a kill): dask runs its tasks again
elsewhere, as a cluster's user expects, rather than giving them ``crashed`` rows; a task whose dask
workers died more than dask's ``allowed-failures`` times is rated again one record per task, and a
lone record whose dask workers keep dying gets a ``crashed`` row saying so in one line.  A run
interrupted (its client gone) stops the ratings of its running tasks, as a local run kills its
workers (:func:`_watch_cancellation`).

Tasks are small and sized as the run goes (:class:`_Pace`: about :data:`TASK_SECONDS` of work each,
one puzzle while nothing is known or for hard puzzles, at most :data:`MAX_CHUNK`), so rows come back
and are written as they are rated (an interruption keeps them), the load is even, and the number of
tasks in flight follows the cluster's threads, read again every :data:`POLL_SECONDS`: workers that
join during the run are used.

The scheduler is reached before the output file is made (:func:`cluster_client`): the address must
answer as a dask scheduler within :data:`CONNECT_SECONDS`, handshake included (a port that accepts
connections and never answers, an HTTP server, hung for ever); a dask worker's or nanny's address is
refused by name (status 2).  A cluster that fails under the run (the scheduler killed or unreachable)
ends it with one line, :class:`ClusterError` (status 1; the rows written are complete and the run
resumes), not dask's own messages and tracebacks (about 35 lines, issue 27); ``SUDORULES_DEBUG=1``
lets them through.  A scheduler with no worker is waited for, with a warning every few minutes from
:data:`NO_WORKER_WARNING_SECONDS` on.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Iterable, Iterator, Optional, Sequence

from ..errors import EXIT_USAGE, SudorulesError
from .rating import RatingRow, record_failed_row
from ..reader import PuzzleRecord

#: seconds to wait for the scheduler (its answer included) before giving up with one line
CONNECT_SECONDS = 20
#: seconds without any worker before the first warning (then one every WARNING_INTERVAL)
NO_WORKER_WARNING_SECONDS = 10.0
WARNING_INTERVAL = 120.0
#: seconds between two looks at the cluster (its threads, the tasks done) while results are awaited
POLL_SECONDS = 1.0
#: the work a task is sized for, in seconds of rating (a task costs some milliseconds more than the
#: rating of its records, see _Pace); the first tasks rate one puzzle each
TASK_SECONDS = 0.5
#: the most records in one task
MAX_CHUNK = 64
#: records in flight or rated and waiting for an earlier row, at least (the local pool's lookahead)
LOOKAHEAD = 256
#: how often a running task looks whether it was cancelled (its client interrupted)
CANCEL_POLL_SECONDS = 0.5
#: a dask worker thread's rating process idle this long is stopped (its rules' memory given back);
#: a run keeps it busy, and the next run loads the rules again
IDLE_SECONDS = 120.0


class ClusterError(SudorulesError):
    """The dask cluster failed under the run: the scheduler was lost or cannot be reached."""


class NotSchedulerError(ClusterError):
    """The ``--scheduler`` address answers, but as a dask worker or nanny, not a scheduler: an
    argument the user must change, so exit status 2."""

    exit_code = EXIT_USAGE


# ----------------------------------------------------------------------------------------------
# in a dask worker: the task function and its thread's pool


@dataclass
class _ThreadPool:
    """A dask worker thread's rating pool (one process) and the settings it was built for."""

    lock: threading.Lock = field(default_factory=threading.Lock)  #: held while a task uses the pool
    key: tuple = ()
    pool: Any = None
    used: float = 0.0  #: when a task last ended (time.monotonic)


_POOLS: dict[int, _ThreadPool] = {}  # per dask worker process: thread ident -> its pool
_POOLS_LOCK = threading.Lock()
_reaper: Optional[threading.Thread] = None


def _thread_pool() -> _ThreadPool:
    """This thread's pool entry (and, once per process, the thread that stops idle pools)."""
    global _reaper
    ident = threading.get_ident()
    with _POOLS_LOCK:
        entry = _POOLS.get(ident)
        if entry is None:
            entry = _POOLS[ident] = _ThreadPool()
        if _reaper is None:
            _reaper = threading.Thread(target=_reap, name="sudorules-pool-reaper", daemon=True)
            _reaper.start()
    return entry


def _reap() -> None:
    """Stop the pools idle for :data:`IDLE_SECONDS` (a task never waits on this: a pool in use is
    skipped), and forget those of threads that ended (whose processes the kernel killed with them)."""
    while True:
        time.sleep(min(IDLE_SECONDS / 4, 30.0))
        alive = {thread.ident for thread in threading.enumerate()}
        with _POOLS_LOCK:
            entries = list(_POOLS.items())
        for ident, entry in entries:
            gone = ident not in alive
            if entry.pool is None and not gone:
                continue
            if not (gone or time.monotonic() - entry.used > IDLE_SECONDS) or not entry.lock.acquire(blocking=False):
                continue
            try:
                if entry.pool is not None:
                    entry.pool.close(kill=True)
                    entry.pool = None
                if gone:
                    with _POOLS_LOCK:
                        _POOLS.pop(ident, None)
            except Exception:  # noqa: BLE001  (a reaper that dies would leave every later pool running)
                pass
            finally:
                entry.lock.release()


def worker_memory_limit(memory_mib: Optional[int]) -> Optional[int]:
    """The memory cap in bytes of a dask worker thread's rating process, past its loaded rules.
    ``memory_mib`` is the run's ``--memory-limit`` (0: none); by default, as a local run shares the
    memory available among its jobs, this dask worker's share: its own memory limit (``dask worker
    --memory-limit``, by default the machine's memory shared by the dask workers started together)
    or the memory available, the smaller, divided by its threads."""
    if memory_mib is not None:
        return memory_mib * 2**20 or None
    from .pool import default_memory_limit

    threads, dask_limit = 1, None
    try:
        from distributed import get_worker

        worker = get_worker()
        threads = max(1, worker.state.nthreads)
        dask_limit = worker.memory_manager.memory_limit
    except (ImportError, ValueError, AttributeError):  # not in a dask worker (a test), another version
        pass
    share = default_memory_limit(threads)
    if dask_limit:
        own = max(dask_limit // threads, 256 * 2**20)
        share = own if share is None else min(share, own)
    return share


def _worker_start_method() -> str:
    """``spawn`` for a dask worker's rating processes, unless ``SUDORULES_START_METHOD`` says
    otherwise: a dask worker runs threads (its event loop, its task threads), and a process forked
    from it may inherit a lock another thread held (a deadlock in the child)."""
    from ..oscompat import START_METHOD_VARIABLE, start_method

    return start_method() if os.environ.get(START_METHOD_VARIABLE, "").strip() else "spawn"


def _allow_children() -> None:
    """A dask worker started by a nanny is a daemonic process, which ``multiprocessing`` forbids to
    start processes ("daemonic processes are not allowed to have children"): the flag only serves
    that check and the default of children's own flag.  Our rating processes end with the dask
    worker anyway (:func:`~sudorules.oscompat.die_with_parent`)."""
    import multiprocessing

    process = multiprocessing.current_process()
    if process.daemon:
        process.daemon = False


def rate_chunk(records: list[PuzzleRecord], ratings: tuple[str, ...], max_length: int,
               time_limit: Optional[float], max_depth: int = 3, memory_limit: Optional[int] = None) -> list[RatingRow]:
    """Rate a chunk of records on a dask worker (the task function), through this thread's pool of
    one rating process, kept between tasks (its rules loaded once): a row per record, in order, a
    failed one (``memory``, ``crashed``, ``timeout``) as a local run gives it.  ``memory_limit``:
    the run's ``--memory-limit`` in MiB (None: :func:`worker_memory_limit`'s default)."""
    from .rating import rating_pool

    key = (tuple(ratings), max_length, time_limit, max_depth, memory_limit)
    entry = _thread_pool()
    with entry.lock:
        if entry.pool is not None and entry.key != key:
            # One rating process per thread, whatever the runs: a run with other settings (another
            # client, a retry with more memory) replaces it rather than adding a process.
            entry.pool.close(kill=True)
            entry.pool = None
        if entry.pool is None:
            _allow_children()
            entry.pool = rating_pool(ratings, max_length, time_limit, max_depth, 1, worker_memory_limit(memory_limit),
                                     start_method=_worker_start_method())
            entry.key = key
        cancelled, done = threading.Event(), threading.Event()
        _watch_cancellation(entry.pool, cancelled, done)

        def todo() -> Iterator[tuple[int, PuzzleRecord]]:
            for index, record in enumerate(records):
                if cancelled.is_set():
                    return
                yield index, record
        try:
            return list(entry.pool.imap(todo(), keep_workers=True))
        finally:
            done.set()
            entry.used = time.monotonic()


def _watch_cancellation(pool: Any, cancelled: threading.Event, done: threading.Event) -> None:
    """Stop this task's ratings when its result is no longer wanted (the run interrupted: its client
    gone, its futures released), as a local run stops its workers at once: dask cannot stop a running
    task, which rated the rest of its records, a hard puzzle for minutes, before the dask worker thread
    was free.  A thread looks every :data:`CANCEL_POLL_SECONDS` at the task's state in this dask
    worker and, once it is cancelled, kills the busy rating process (replaced, for the next task)."""
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        worker, key = get_worker(), thread_state.key
    except (ImportError, ValueError, AttributeError):  # not in a dask task (a test calling rate_chunk)
        return

    def watch() -> None:
        while not done.wait(CANCEL_POLL_SECONDS):
            task = worker.state.tasks.get(key)
            if task is None or task.state in ("cancelled", "released", "forgotten"):
                cancelled.set()
                pool.kill_busy()
                return

    threading.Thread(target=watch, name="sudorules-cancel-watch", daemon=True).start()


# ----------------------------------------------------------------------------------------------
# in the client: reaching the scheduler


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


def _first_line(error: BaseException) -> str:
    """The first line of an error's message, without the colon that announced the lines after it
    (dask's ``4 Futures cancelled:``, then one line a future)."""
    return (str(error).splitlines() or [""])[0].rstrip(": ") or type(error).__name__


def _identity(address: str, seconds: float) -> dict:
    """What the server at ``address`` says it is (dask's ``identity``: ``{"type": "Scheduler", ...}``),
    within ``seconds`` in all, connection and handshake included: dask's own connect waits for the
    remote's handshake without a limit, so a port that accepts connections and never answers (an HTTP
    server, the dashboard's port) hung for ever.  Run in a thread of its own (its own event loop, and
    a deadline even for a name lookup that blocks), given up when the time is out."""
    import asyncio

    from distributed.comm import connect
    from distributed.security import Security

    outcome: dict[str, Any] = {}

    async def ask() -> dict:
        comm = await connect(address, timeout=seconds, **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def run() -> None:
        try:
            outcome["reply"] = asyncio.run(asyncio.wait_for(ask(), seconds))
        except BaseException as error:  # noqa: BLE001  (said by the caller)
            outcome["error"] = error

    thread = threading.Thread(target=run, name="sudorules-scheduler-probe", daemon=True)
    thread.start()
    thread.join(seconds + 1)
    error = outcome.get("error")
    if thread.is_alive() or isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        if _accepts_connections(address):
            raise ClusterError(f"cannot reach the dask scheduler at {address}: it accepts connections, but no dask "
                               f"scheduler answered within {seconds:g} s (the scheduler's address, not its "
                               "dashboard's, e.g. tcp://HOST:8786)")
        raise ClusterError(f"cannot reach the dask scheduler at {address} within {seconds:g} s: is it running, "
                           "and the address right?")
    if error is not None:
        raise ClusterError(f"cannot reach the dask scheduler at {address}: {_first_line(error)}")
    reply = outcome.get("reply")
    return reply if isinstance(reply, dict) else {}


def _accepts_connections(address: str) -> bool:
    """Does a TCP connection to ``address`` (tcp:// or tls://) succeed within a second?  Said in the
    message when no dask scheduler answered there: dask's connect waits for the remote's handshake,
    so its time-out does not tell a port that nothing listens on from a server of another kind."""
    import socket

    from distributed.comm import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return False
        with socket.create_connection(parse_host_port(location), timeout=1.0):
            return True
    except (OSError, ValueError, TypeError):
        return False


def check_scheduler(address: str, identity: dict) -> None:
    """Refuse (:class:`NotSchedulerError`) an address whose server is a dask worker or nanny: dask's
    client then failed with ``TypeError: Worker.identity() got an unexpected keyword argument``."""
    kind = identity.get("type")
    if kind == "Scheduler":
        return
    if kind == "Worker":
        its = identity.get("scheduler")
        raise NotSchedulerError(f"--scheduler {address} is a dask worker, not a scheduler: give its scheduler's "
                                f"address{f' ({its})' if its else ''}")
    if kind == "Nanny":
        raise NotSchedulerError(f"--scheduler {address} is a dask nanny (it starts a dask worker), not a scheduler: "
                                "give the scheduler's address, the one the dask worker was started with")
    raise NotSchedulerError(f"--scheduler {address} is not a dask scheduler (it answers as {kind or 'something else'})")


@contextmanager
def cluster_client(scheduler: str) -> Iterator[Any]:
    """A ``distributed.Client`` of the scheduler at ``scheduler``, reached within
    :data:`CONNECT_SECONDS` and checked to be a scheduler (:class:`ClusterError`,
    :class:`NotSchedulerError` otherwise), closed at the end; dask's log lines are silenced meanwhile."""
    from distributed import Client

    with _quiet_dask():
        started = time.monotonic()
        check_scheduler(scheduler, _identity(scheduler, CONNECT_SECONDS))
        try:
            client = Client(scheduler, timeout=max(1.0, CONNECT_SECONDS - (time.monotonic() - started)))
        except Exception as error:  # noqa: BLE001  (gone between the two: said in one line)
            raise ClusterError(f"cannot reach the dask scheduler at {scheduler}: {_first_line(error)}") from None
        try:
            yield client
        finally:
            try:
                client.close(timeout=5)
            except Exception:  # noqa: BLE001  (closing a client whose scheduler is gone: nothing more to say)
                pass


# ----------------------------------------------------------------------------------------------
# in the client: the run


class _Pace:
    """The size of the next task: about :data:`TASK_SECONDS` of rating at the pace measured so far
    (the rows' seconds, an average weighted towards the latest tasks), between 1 and
    :data:`MAX_CHUNK` records; 1 until a task has come back.

    Measured on a 2-core VM (scheduler, client and two dask workers of one thread on it; 400 easy
    puzzles of cb-001 in tasks of 1, 4, 16, 64 records): a task costs 4-8 ms of a worker thread
    more than the rating of its records (submit, schedule, run, gather, and the pipe to the rating
    process), so tasks of 0.5 s cost under 2 % more, and a task of one hard puzzle (a second or
    more) nothing measurable, while rows come back every half second or faster.  Adaptive sizing
    rated the 400 in the time of tasks of 64 (B: 0.25 s against 1.74 s in tasks of one; W: 0.92 s
    against 2.69 s), and the 53 cb-001 puzzles of W 7 and more in 8-11 s on two dask workers
    (9.3 s locally with --jobs 2; 18 s in chunks of 16)."""

    def __init__(self, fixed: Optional[int] = None):
        self.fixed = fixed
        self.per_record: Optional[float] = None

    def add(self, rows: Sequence[RatingRow]) -> None:
        if rows:
            sample = sum(row.seconds for row in rows) / len(rows)
            self.per_record = sample if self.per_record is None else 0.7 * self.per_record + 0.3 * sample

    def size(self) -> int:
        if self.fixed:
            return self.fixed
        if self.per_record is None:
            return 1
        return max(1, min(MAX_CHUNK, int(TASK_SECONDS / max(self.per_record, 1e-6))))


@dataclass
class _Task:
    records: list[PuzzleRecord]
    future: Any


class _Cluster:
    """The client's view of the cluster during a run: its threads (read again every
    :data:`POLL_SECONDS`), every call to it turned into a :class:`ClusterError` when it fails."""

    def __init__(self, client: Any, address: str):
        self.client, self.address = client, address
        self.threads = 0
        self.read_at = -POLL_SECONDS

    def call(self, function, *args, **kwargs):
        try:
            return function(*args, **kwargs)
        except SudorulesError:
            raise
        except Exception as error:  # noqa: BLE001  (CancelledError, CommClosedError...: the cluster is gone)
            raise self.lost(error) from None

    def lost(self, error: BaseException) -> ClusterError:
        return ClusterError(f"lost the dask scheduler at {self.address} ({type(error).__name__}: "
                            f"{_first_line(error)}); "
                            "the rows written are complete: run the same command again to resume")

    def thread_count(self) -> int:
        """The threads of the cluster's workers now (read at most every POLL_SECONDS)."""
        now = time.monotonic()
        if now - self.read_at >= POLL_SECONDS:
            self.threads = sum(self.call(self.client.nthreads).values())
            self.read_at = now
        return self.threads


def rate_records_on_cluster(records: Iterable[PuzzleRecord], scheduler: Any, ratings: Sequence[str] = ("W",),
                            max_length: int = 36, time_limit: Optional[float] = None,
                            chunk_size: Optional[int] = None, max_depth: int = 3,
                            memory_limit: Optional[int] = None) -> Iterator[RatingRow]:
    """Rate records on the dask cluster at ``scheduler`` (an address, or a connected
    ``distributed.Client``); yield rows in input order.

    Tasks are sized by :class:`_Pace` (``chunk_size``: a fixed size instead); as many run at once as
    twice the cluster's threads, and at most :data:`LOOKAHEAD` records (more with many threads) are
    in flight or wait for an earlier row, so memory stays bounded for any input size.  ``memory_limit``
    is ``--memory-limit`` in MiB (None: each dask worker's share, :func:`worker_memory_limit`).
    """
    ratings = tuple(ratings)
    if isinstance(scheduler, str):
        with cluster_client(scheduler) as client:
            yield from _rate_on_cluster(records, client, ratings, max_length, time_limit, chunk_size, max_depth,
                                        memory_limit)
        return
    with _quiet_dask():
        yield from _rate_on_cluster(records, scheduler, ratings, max_length, time_limit, chunk_size, max_depth,
                                    memory_limit)


def _rate_on_cluster(records: Iterable[PuzzleRecord], client: Any, ratings: tuple[str, ...], max_length: int,
                     time_limit: Optional[float], chunk_size: Optional[int], max_depth: int,
                     memory_limit: Optional[int]) -> Iterator[RatingRow]:
    from distributed import wait

    cluster = _Cluster(client, str(getattr(client.scheduler, "address", client)))
    pace = _Pace(chunk_size)
    pending = iter(records)
    in_flight: deque[_Task] = deque()
    exhausted = False
    waiting_since = time.monotonic()  # since the last row came back (or the start)
    next_warning = NO_WORKER_WARNING_SECONDS

    def submit(chunk: list[PuzzleRecord]) -> _Task:
        return _Task(chunk, cluster.call(client.submit, rate_chunk, chunk, ratings, max_length, time_limit, max_depth,
                                         memory_limit, pure=False))

    try:
        while True:
            threads = max(1, cluster.thread_count())
            while not exhausted:  # top up: every thread busy, one task queued behind each
                running = sum(not task.future.done() for task in in_flight)
                held = sum(len(task.records) for task in in_flight)
                if running >= 2 * threads or held >= max(LOOKAHEAD, 4 * threads * pace.size()):
                    break
                chunk = list(islice(pending, pace.size()))  # (the input's own errors go through as they are)
                if not chunk:
                    exhausted = True
                    break
                in_flight.append(submit(chunk))
            if not in_flight:
                return
            head = in_flight[0]
            if head.future.done():
                in_flight.popleft()
                rows = _rows_of(head, ratings, cluster)
                if rows is None:  # a task of several records whose dask workers died: one task per record
                    in_flight.extendleft(reversed([submit([record]) for record in head.records]))
                    continue
                pace.add(rows)
                waiting_since, next_warning = time.monotonic(), NO_WORKER_WARNING_SECONDS
                yield from rows
                continue
            try:
                wait([task.future for task in in_flight if not task.future.done()], timeout=POLL_SECONDS,
                     return_when="FIRST_COMPLETED")
            except TimeoutError:  # distributed's TimeoutError is the builtin one (asyncio's on 3.11+)
                waited = time.monotonic() - waiting_since
                if waited >= next_warning and not cluster.thread_count():
                    sys.stderr.write(f"Warning: no dask worker in the cluster at {cluster.address} for {waited:.0f} s; "
                                     f"still waiting (start one: dask worker {cluster.address} --nthreads 1)\n")
                    sys.stderr.flush()
                    next_warning = waited + WARNING_INTERVAL
            except Exception as error:  # noqa: BLE001  (CancelledError, CommClosedError...: the cluster is gone)
                raise cluster.lost(error) from None
    finally:
        if in_flight:  # interrupted, or the consumer stopped: the tasks left are of no use
            try:
                client.cancel([task.future for task in in_flight])
            except Exception:  # noqa: BLE001  (a cluster already gone)
                pass


def _rows_of(task: _Task, ratings: tuple[str, ...], cluster: _Cluster) -> Optional[list[RatingRow]]:
    """The rows of a finished task; None when it should be split (its dask workers died, dask's
    KilledWorker, and it has several records: a row each, so that a dask worker lost for a reason of
    its own costs no neighbour its row); ``crashed`` rows, in one line, for a single record."""
    from distributed.scheduler import KilledWorker

    future = task.future
    if future.status == "finished":
        return cluster.call(future.result)
    if future.status != "error":  # cancelled, lost: the scheduler went away
        raise cluster.lost(RuntimeError(f"task {future.status}"))
    error = cluster.call(future.exception)
    if isinstance(error, KilledWorker):
        if len(task.records) > 1:
            return None
        last = getattr(error.last_worker, "address", error.last_worker)
        # Its rating process is a child of the dask worker, which a puzzle cannot take down (that is
        # a crashed row from the pool): the dask worker itself died, allowed-failures + 1 times.
        reason = (f"the dask worker rating it died {error.allowed_failures + 1} times (dask's "
                  f"distributed.scheduler.allowed-failures), the last {last}; {', '.join(ratings)} not rated")
        return [record_failed_row(record, ratings, "crashed", reason) for record in task.records]
    if isinstance(error, SudorulesError):  # e.g. the rating process could not start there (PoolError)
        raise error
    raise ClusterError(f"a dask worker failed to rate {task.records[0].where or 'a puzzle'} "
                       f"({type(error).__name__}: {_first_line(error)}): is sudorules {_version()} installed there, "
                       "with its rules?")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("sudorules")
    except Exception:  # noqa: BLE001
        return "(this version)"
