"""An ordered pool of long-lived worker processes that survives its workers.

Each worker builds its per-process state once (for rating: the rule engines) and then handles one
task at a time.  The pool yields results in task order.  A worker that dies (a crash, the memory
limit) or overruns the hard time limit is killed and replaced; its task gets a failure result built
by the caller's ``on_failure`` and the batch goes on.

Why not ``multiprocessing.Pool`` or ``concurrent.futures``: the first hangs when a worker dies and the
second breaks the whole executor; neither lets us kill one stuck task and carry on.

Workers never outlive the pool's process: each ends when its parent dies
(:func:`~sudorules.oscompat.die_with_parent`: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux; elsewhere a
thread waiting on the parent), so even a SIGKILL of the main process leaves no orphan holding
gigabytes and the output file.  Workers ignore SIGINT (Ctrl-C reaches the whole process group; the
parent decides) and the pool kills them at once when the parent is interrupted.

Workers are started with ``fork`` on Linux and ``spawn`` on macOS and Windows
(:func:`~sudorules.oscompat.start_method`; ``SUDORULES_START_METHOD`` forces one).  Under ``spawn`` a
worker is a new interpreter: the factory and its arguments are pickled (module-level functions and
plain values), and everything a worker needs (the rules, the C core's tables) it builds itself; the
test suite runs with ``spawn`` forced too.  A memory limit is the kernel's RLIMIT_AS where it is
enforced (Linux); elsewhere the pool measures each busy worker's RSS every
:data:`MEMORY_WATCH_SECONDS` and kills the one past its limit, with a ``memory`` result.
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional

from .. import oscompat
from ..errors import STOP_SIGNALS, SudorulesError
from ..oscompat import cpu_count  # noqa: F401  (re-exported: batch.cpu_count)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

# multiprocessing is imported where workers start or are waited for: `rate --jobs 1` and the compiled
# ratings run in process and never need it (about a tenth of their start-up, importtime).

#: A worker factory: called once in each worker process with the pool's ``init_args``; returns the
#: function that handles one task.
WorkerFactory = Callable[..., Callable[[Any], Any]]

#: how often the pool measures a busy worker's RSS where the kernel cannot cap it (macOS, Windows):
#: cb-001's B9 puzzle under W grows a worker by 225 MiB in 3.6 s (/usr/bin/time on ``solve --theory
#: W``), 60 MiB a second, so a quarter of a second lets such a worker pass its limit by some 15 MiB;
#: one measure costs microseconds (libproc, kernel32; ``ps``, the fallback, 5-30 ms)
MEMORY_WATCH_SECONDS = 0.25

#: in a worker, while it handles a task: sends the task's result so far to the pool (report_partial)
_partial_sink: Optional[Callable[[Any], None]] = None


def report_partial(value: Any) -> None:
    """Called by a task's handler inside a pool worker: ``value`` is the task's result so far, which
    the pool passes to ``on_failure`` if the worker then dies or is killed (a row keeps the ratings
    it finished).  Outside a pool worker, nothing happens."""
    if _partial_sink is not None:
        _partial_sink(value)


#: tasks this worker process has finished (inside a pool worker; 0 elsewhere)
_served = 0


def tasks_served() -> int:
    """How many tasks this pool worker finished before the current one: 0 in a fresh worker (or
    outside a pool), where a task runs as it would alone (see OrderedPool._again_on_a_fresh_worker)."""
    return _served


class PoolError(SudorulesError):
    """The pool cannot run: a worker failed while starting (before it handled any task)."""


def default_memory_limit(jobs: int) -> Optional[int]:
    """The default per-worker memory limit in bytes: the memory a run may take
    (:func:`~sudorules.oscompat.usable_memory`, three quarters of the available) shared by the workers.

    Without a limit, two B workers on B9-B10 puzzles take 20 GB, and on a smaller machine the
    kernel's OOM killer picks a victim, possibly the main process, instead of the puzzle ending as a
    ``memory`` row."""
    available = oscompat.usable_memory()
    return None if available is None else max(available // max(1, jobs), 256 * 2**20)


def _worker_main(conn: Connection, factory: WorkerFactory, init_args: tuple, kernel_limit: Optional[int],
                 parent: int) -> None:
    # A forked worker inherits the parent's Python signal handlers; it must not raise the parent's
    # Interrupted, nor print a KeyboardInterrupt traceback when Ctrl-C reaches the process group.
    # It also inherits the signal mask the parent set around its start, forked or spawned (see
    # OrderedPool._spawn): a spawned worker's imports (a second) are thus safe from Ctrl-C too.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):  # a closed terminal reaches the whole process group too: the parent stops us
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    oscompat.unblock_signals(STOP_SIGNALS)
    oscompat.die_with_parent(parent)
    # CLIPS out of memory ends the worker; the parent records the row as memory and says so
    # (engine.bridge.QuietOutOfMemory, whose name for this variable it is: clips is not imported here)
    os.environ["SUDORULES_RATING_WORKER"] = "1"
    try:
        handle = factory(*init_args)
        if kernel_limit:
            # The limit is on growth past the loaded state: a forked worker starts with its parent's
            # address space, which has nothing to do with what one task needs.
            oscompat.limit_address_space(kernel_limit)
    except Exception as error:  # e.g. rule files that cannot be read: the parent says it in one line
        try:
            conn.send(("failed", f"{type(error).__name__}: {error}"))
        except (EOFError, OSError):
            pass
        return
    global _partial_sink, _served
    _partial_sink = lambda value: conn.send(("partial", value))  # noqa: E731
    # what the last task took is given back (its facts, CLIPS's pools) before the next one: less of
    # a later task's room under the memory cap goes to what an earlier one left
    release = getattr(handle, "release_memory", None)
    try:
        conn.send(("ready", None))
        while True:
            task = conn.recv()
            if task is None:
                return
            index, payload = task
            if release is not None:
                release()
            try:
                result = ("ok", handle(payload))
            except MemoryError:  # said as the death under the limit is (_death), not as an empty reason
                result = ("memory", "out of memory under its memory limit")
            except Exception as error:  # reported to the parent, which records it and goes on
                result = ("error", f"{type(error).__name__}: {error}")
            conn.send((index, result))
            _served += 1
    except (EOFError, OSError):  # the parent is gone or closed the pipe: nothing left to do
        return
    except MemoryError:  # even the answer does not fit: the parent sees the death and says "memory"
        os._exit(1)


@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: Optional[tuple[int, Any]] = None
    started: float = 0.0
    ready: bool = False
    partial: Any = None  #: the current task's result so far (report_partial), or None
    baseline: Optional[int] = None  #: RSS when it was ready (the memory watch, and _grown), bytes
    measured: float = 0.0  #: when its RSS was last measured (time.monotonic)
    served: int = 0  #: tasks it finished (0: fresh, as a puzzle rated alone)


class OrderedPool:
    """Run ``handle(payload)`` for each ``(index, payload)`` task on ``jobs`` worker processes.

    ``on_failure(payload, kind, detail, partial, seconds)`` builds the result of a task whose worker failed,
    with kind ``timeout`` (the hard limit ``task_timeout`` passed), ``memory`` (MemoryError, an
    exit with an error status under a memory limit, or stopped by the memory watch), ``crashed`` (the
    worker was killed by a signal, a SIGSEGV or a SIGKILL, or exited without a memory limit) or
    ``error`` (an exception; detail is its text); ``partial`` is the task's result so far
    (:func:`report_partial`), or None; ``seconds`` the wall time since the task was sent (a row that
    ran out of memory after a minute says so, not 0).

    ``memory_limit`` (bytes) is how far a worker may grow past its state once built: the kernel's
    RLIMIT_AS where it is enforced, else the pool's RSS watch; ``watch_memory`` forces the watch
    (True) or the kernel's cap (False) instead of the platform's choice.  ``start_method`` forces
    ``fork`` or ``spawn`` instead of :func:`~sudorules.oscompat.start_method`'s.
    """

    def __init__(self, factory: WorkerFactory, init_args: tuple = (), jobs: int = 1,
                 on_failure: Callable[[Any, str, str, Any, float], Any] = lambda *failure: None,
                 task_timeout: Optional[float] = None, memory_limit: Optional[int] = None,
                 lookahead: int = 256, watch_memory: Optional[bool] = None, start_method: Optional[str] = None):
        self.factory, self.init_args = factory, init_args
        self.jobs = max(1, jobs)
        self.on_failure = on_failure
        self.task_timeout = task_timeout
        self.memory_limit = memory_limit
        if watch_memory is None:
            watch_memory = not oscompat.kernel_limits_memory()
        self.watch_memory = bool(memory_limit) and watch_memory
        self.lookahead = max(lookahead, self.jobs)
        self.replaced = 0  #: workers replaced after a failure
        #: indexes of the tasks run again on a fresh worker after running out of memory on a used one
        self.memory_retried: set[int] = set()
        self.start_method = start_method or oscompat.start_method()
        import multiprocessing

        self._ctx = multiprocessing.get_context(self.start_method)
        self._workers: list[_Worker] = []
        self._starting: Optional[_Worker] = None  #: a worker being started, not yet in _workers

    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe()
        kernel_limit = None if self.watch_memory else self.memory_limit
        process = self._ctx.Process(target=oscompat.SpawnTarget(_worker_main), daemon=True,
                                    args=(child, self.factory, self.init_args, kernel_limit, os.getpid()))
        worker = _Worker(process, parent)
        # A signal handled during fork() runs our handler inside the at-fork hooks, where its
        # exception is printed and ignored ("Exception ignored in _releaseLock") and the run went on:
        # 7 of 13 SIGINTs while 64 workers started (issue 27).  Held during the start, it is
        # handled just after, in the parent's own code, where Interrupted ends the run (and close()
        # kills this worker, which the caller has not listed yet).  The worker, forked or spawned,
        # starts with the signals blocked and unblocks them once its own handlers are set
        # (_worker_main); on Windows a spawned worker ignores Ctrl-C from its first import (SpawnTarget).
        if self.start_method != "fork" and hasattr(signal, "pthread_sigmask"):
            # multiprocessing starts its resource tracker with the first spawned worker and then
            # unblocks SIGINT and SIGTERM in the calling thread, undoing the hold below for the
            # worker (whose start-up a Ctrl-C then broke with a KeyboardInterrupt traceback in 3
            # runs of 3): started first, it cannot.
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
        self._starting = worker
        try:
            with oscompat.signals_held(STOP_SIGNALS):
                process.start()
        finally:
            child.close()
        self._starting = None
        return worker

    def _over_memory(self, worker: _Worker, now: float) -> Optional[tuple[str, str]]:
        """The memory watch: ``("memory", detail)`` when the busy ``worker`` has grown past its limit
        since it was ready (measured at most every :data:`MEMORY_WATCH_SECONDS`), else None.  A
        spike between two measurements can still go past the limit: the kernel's cap, where there
        is one, does not have that gap."""
        if not self.watch_memory or worker.task is None or worker.baseline is None:
            return None
        if now - worker.measured < MEMORY_WATCH_SECONDS:
            return None
        worker.measured = now
        size = oscompat.resident_memory(worker.process.pid)
        if size is None or size - worker.baseline <= self.memory_limit:
            return None
        worker.process.kill()
        return "memory", (f"worker stopped at {size / 2**20:.0f} MiB, {(size - worker.baseline) / 2**20:.0f} MiB "
                          f"past its loaded state (memory limit {self.memory_limit / 2**20:.0f} MiB)")

    def _grown(self, worker: _Worker) -> bool:
        """Has an idle worker grown past half its memory limit since it was ready?"""
        if not self.memory_limit or worker.baseline is None:
            return False
        size = oscompat.resident_memory(worker.process.pid)
        return size is not None and size - worker.baseline > self.memory_limit // 2

    def _retire(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.conn.close()

    def imap(self, tasks: Iterable[tuple[int, Any]], keep_workers: bool = False) -> Iterator[Any]:
        """Yield the results of ``tasks`` in their order (tasks are ``(index, payload)``, indexes increasing).

        ``keep_workers``: once every task is done, leave the workers running (their state loaded) for
        the next call, which uses them; :meth:`close` stops them.  A call interrupted or stopped early
        kills them as always.  (A dask task rates its records on such a pool, kept between tasks by
        :mod:`~sudorules.batch.distributed`: the rules are loaded once per dask worker thread.)"""
        pending = iter(tasks)
        order: deque[int] = deque()  # indexes handed out and not yet yielded, in task order
        retry: list[tuple[int, Any]] = []  # tasks whose worker died before receiving them
        results: dict[int, Any] = {}
        finished = False
        try:
            for worker in self._workers:  # kept by the previous call: idle, ready (or dead: replaced by _step)
                worker.task, worker.partial = None, None
            while len(self._workers) < self.jobs:  # one by one, so that an interruption kills those started
                self._workers.append(self._spawn())
            while True:
                for worker in self._workers:
                    if worker.ready and worker.task is None and len(order) < self.lookahead:
                        # a task out of memory on a used worker goes to a fresh one only (with two
                        # workers it went to the first idle one, a used one, while the replacement
                        # started: helper-51); the replacement is fresh, so it is never left waiting
                        eligible = [t for t in retry if worker.served == 0 or t[0] not in self.memory_retried]
                        if eligible:
                            task = eligible[-1]
                            retry.remove(task)
                        else:
                            task = next(pending, None)
                        if task is None:  # none for this worker; another (a fresh one) may take a retry
                            continue
                        if task[0] not in order:
                            order.append(task[0])
                        worker.task, worker.started, worker.partial = task, time.monotonic(), None
                        try:
                            worker.conn.send(task)
                        except (BrokenPipeError, OSError):  # died while idle: replaced below
                            retry.append(task)
                            worker.task = None
                while order and order[0] in results:
                    yield results.pop(order.popleft())
                if not order and not retry and all(w.task is None for w in self._workers):
                    task = next(pending, None)
                    if task is None:
                        finished = True
                        return
                    retry.append(task)
                    continue
                self._step(results, retry)
        finally:
            # Interrupted, or the consumer stopped early: the workers' tasks are of no use any more.
            if not (finished and keep_workers):
                self.close(kill=not finished)

    def _step(self, results: dict[int, Any], retry: list[tuple[int, Any]]) -> None:
        """Wait for messages or deaths, record results, kill overdue workers and replace dead ones."""
        from multiprocessing.connection import wait

        ready = wait([w.conn for w in self._workers] + [w.process.sentinel for w in self._workers],
                     timeout=MEMORY_WATCH_SECONDS if self.watch_memory else 0.5)
        now = time.monotonic()
        for i, worker in enumerate(self._workers):
            if worker.conn in ready:
                try:
                    message = worker.conn.recv()
                except (EOFError, OSError):
                    message = None
                if message is not None:
                    if message[0] == "ready":
                        worker.ready = True
                        if self.memory_limit:
                            worker.baseline = oscompat.resident_memory(worker.process.pid)
                    elif message[0] == "partial":
                        worker.partial = message[1]
                    elif message[0] == "failed":
                        raise PoolError(f"a worker failed while starting: {message[1]}")
                    else:
                        index, (kind, value) = message
                        if not self._again_on_a_fresh_worker(worker, kind, retry):
                            results[index] = (value if kind == "ok"
                                              else self.on_failure(worker.task[1], kind, value or "", worker.partial,
                                                                   time.monotonic() - worker.started))
                        worker.task = None
                        worker.served += 1
                        if kind == "memory" or self._grown(worker):
                            # a worker keeps the memory a task took (CLIPS keeps freed memory in its own
                            # pools): past its cap, or half of it, the next task gets a fresh worker, so
                            # that no puzzle's row depends on what its worker rated before (top1465 #182,
                            # W 22 in 1 GB alone, was a memory row after another puzzle's 2.5 GB gW)
                            self._retire(worker)
                            self._workers[i] = self._spawn()
                            self.replaced += 1
                    continue
            failure = None
            if not worker.process.is_alive():
                failure = self._death(worker.process.exitcode)
            elif worker.task is not None and self.task_timeout and now - worker.started > self.task_timeout:
                failure = ("timeout", f"killed after {now - worker.started:.1f}s")
            else:
                failure = self._over_memory(worker, now)
            if failure is None:
                continue
            if not worker.ready:
                raise PoolError(f"a worker failed while starting ({failure[1]}); "
                                "run 'sudorules solve' on one puzzle to see why")
            if worker.task is not None and not self._again_on_a_fresh_worker(worker, failure[0], retry):
                results[worker.task[0]] = self.on_failure(worker.task[1], *failure, worker.partial,
                                                          now - worker.started)
            self._retire(worker)
            self._workers[i] = self._spawn()
            self.replaced += 1

    def _again_on_a_fresh_worker(self, worker: _Worker, kind: str, retry: list[tuple[int, Any]]) -> bool:
        """Put a task that ran out of memory on a worker that had served others back in the queue, for
        a fresh worker (once), and say so.  The cap is on the worker's growth since it was ready, and
        what earlier tasks left in it (CLIPS's and malloc's free memory, not all of it reusable) took
        from the room of the next ones: a cb-001 puzzle solved alone under --memory-limit 30 was a
        memory row after another puzzle, locally and on dask (helper-47).  Less room never turns a
        memory row alone into a solved one, so a row is what the puzzle gives alone either way."""
        if kind != "memory" or worker.served == 0 or worker.task is None or worker.task[0] in self.memory_retried:
            return False
        self.memory_retried.add(worker.task[0])
        retry.append(worker.task)
        return True

    def _death(self, exitcode: Optional[int]) -> tuple[str, str]:
        """``(kind, detail)`` for a worker that died: killed by a signal (SIGSEGV, SIGKILL, SIGABRT) it
        crashed, whatever the memory limit, so that ``--retry crashed`` finds it; an exit with an
        error status under a memory limit is the limit (CLIPS exits with status 1 when an allocation
        fails; a MemoryError even the answer could not carry, too)."""
        if exitcode is not None and exitcode < 0:
            try:
                name = signal.Signals(-exitcode).name
            except ValueError:
                name = f"signal {-exitcode}"
            return "crashed", f"worker killed by {name}"
        if exitcode is not None and exitcode >= 0xC0000000:  # Windows: an NTSTATUS exception code
            return "crashed", f"worker ended by exception {exitcode:#010x}"  # 0xc0000005: access violation
        if self.memory_limit:
            return "memory", f"worker exited with status {exitcode} under its memory limit"
        inherited = oscompat.address_space_limit()
        if inherited is not None and exitcode:
            # no limit of ours (--memory-limit 0), but the workers inherit the run's `ulimit -v`, and
            # CLIPS exits with status 1 at its first failed allocation: a row said `crashed` there
            # (helper-40), which `--retry crashed` would only run into again
            return "memory", (f"worker exited with status {exitcode} under ulimit -v "
                              f"({inherited / 2**20:.0f} MiB of address space)")
        return "crashed", f"worker exited with status {exitcode}"

    def kill_busy(self) -> None:
        """Kill the workers busy with a task, from another thread than the one in :meth:`imap` (which
        sees them die: their tasks get ``crashed`` results, and the workers are replaced): for a
        task whose results nobody waits for any more (a dask client interrupted, distributed.py)."""
        for worker in list(self._workers):
            if worker.task is not None:
                try:
                    worker.process.kill()
                except (OSError, ValueError, AttributeError):  # already gone, or closed meanwhile
                    pass

    def close(self, kill: bool = False) -> None:
        """Stop every worker: ask idle ones to end, kill the rest (all of them at once with ``kill``)."""
        starting, self._starting = self._starting, None
        if starting is not None and starting.process.pid is not None:  # started, then interrupted
            self._retire(starting)
        if kill:
            for worker in self._workers:
                self._retire(worker)
            self._workers = []
            return
        for worker in self._workers:
            try:
                worker.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for worker in self._workers:
            worker.process.join(timeout=2)
            self._retire(worker)
        self._workers = []
