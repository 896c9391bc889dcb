"""An ordered pool of long-lived worker processes that survives its workers.

Each worker builds its per-process state once (for rating: the rule engines) and then handles one
task at a time.  The pool yields results in task order.  A worker that dies (a crash, the memory
limit) or overruns the hard time limit is killed and replaced; its task gets a failure result built
by the caller's ``on_failure`` and the batch goes on.

Why not ``multiprocessing.Pool`` or ``concurrent.futures``: the first hangs when a worker dies and the
second breaks the whole executor; neither lets us kill one stuck task and carry on.

Workers never outlive the pool's process: each asks the kernel to kill it when its parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux; elsewhere a thread polls the parent's pid), so even a
SIGKILL of the main process leaves no orphan holding gigabytes and the output file.  Workers ignore
SIGINT (Ctrl-C reaches the whole process group; the parent decides) and the pool kills them at once
when the parent is interrupted.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable, Iterator, Optional

from ..errors import SudorulesError

#: A worker factory: called once in each worker process with the pool's ``init_args``; returns the
#: function that handles one task.
WorkerFactory = Callable[..., Callable[[Any], Any]]

#: the signals that stop a run (blocked while a worker is forked: see OrderedPool._spawn)
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: in a worker, while it handles a task: sends the task's result so far to the pool (report_partial)
_partial_sink: Optional[Callable[[Any], None]] = None


def report_partial(value: Any) -> None:
    """Called by a task's handler inside a pool worker: ``value`` is the task's result so far, which
    the pool passes to ``on_failure`` if the worker then dies or is killed (a row keeps the ratings
    it finished).  Outside a pool worker, nothing happens."""
    if _partial_sink is not None:
        _partial_sink(value)


def _address_space() -> int:
    """This process's current virtual memory size in bytes (0 where /proc is absent)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


class PoolError(SudorulesError):
    """The pool cannot run: a worker failed while starting (before it handled any task)."""


def available_memory() -> Optional[int]:
    """The memory the kernel says is available for new work (``MemAvailable``), in bytes; None where
    /proc/meminfo is absent."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_memory_limit(jobs: int) -> Optional[int]:
    """The default per-worker memory limit in bytes: the available memory shared by the workers.

    Without a limit, two B workers on B9-B10 puzzles take 20 GB, and on a smaller machine the
    kernel's OOM killer picks a victim, possibly the main process, instead of the puzzle ending as a
    ``memory`` row."""
    available = available_memory()
    return None if available is None else max(available // max(1, jobs), 256 * 2**20)


def limit_address_space(limit: int) -> None:
    """Cap this process's address space at its current size plus ``limit`` bytes (RLIMIT_AS).

    The cap never exceeds the hard limit the process was started under (``ulimit -v``: asking for
    more is refused, and the worker could not start at all) nor what the kernel's rlimit can hold (a
    ``--memory-limit`` of 10**14 MiB overflows it): at or past those the cap is the hard limit."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + limit
    ceiling = (2**63 - 1) if hard == resource.RLIM_INFINITY else hard
    if cap >= ceiling:
        cap = hard  # RLIM_INFINITY when there is no hard limit: no cap at all
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _die_with_parent(parent: int) -> None:
    """Make this worker die when the process that started it dies, however that one ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        if libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl failed")
    except (OSError, AttributeError):  # not Linux: poll (a CLIPS run releases the GIL, so this runs)
        def watch() -> None:
            while True:
                time.sleep(1.0)
                if os.getppid() != parent:
                    os._exit(1)
        threading.Thread(target=watch, name="sudorules-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _worker_main(conn: Connection, factory: WorkerFactory, init_args: tuple, memory_limit: Optional[int],
                 parent: int) -> None:
    # A forked worker inherits the parent's Python signal handlers; it must not raise the parent's
    # Interrupted, nor print a KeyboardInterrupt traceback when Ctrl-C reaches the process group.
    # It also inherits the signal mask the parent set around the fork (see OrderedPool._spawn).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    _die_with_parent(parent)
    try:
        handle = factory(*init_args)
        if memory_limit:
            # The limit is on growth past the loaded state: a forked worker starts with its parent's
            # address space, which has nothing to do with what one task needs.
            limit_address_space(memory_limit)
    except Exception as error:  # e.g. rule files that cannot be read: the parent says it in one line
        try:
            conn.send(("failed", f"{type(error).__name__}: {error}"))
        except (EOFError, OSError):
            pass
        return
    global _partial_sink
    _partial_sink = lambda value: conn.send(("partial", value))  # noqa: E731
    try:
        conn.send(("ready", None))
        while True:
            task = conn.recv()
            if task is None:
                return
            index, payload = task
            try:
                result = ("ok", handle(payload))
            except MemoryError:
                result = ("memory", None)
            except Exception as error:  # reported to the parent, which records it and goes on
                result = ("error", f"{type(error).__name__}: {error}")
            conn.send((index, result))
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


def _context():
    return mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")


class OrderedPool:
    """Run ``handle(payload)`` for each ``(index, payload)`` task on ``jobs`` worker processes.

    ``on_failure(payload, kind, detail, partial)`` builds the result of a task whose worker failed,
    with kind ``timeout`` (the hard limit ``task_timeout`` passed), ``memory`` (MemoryError, or an
    exit with an error status under a memory limit), ``crashed`` (the worker was killed by a signal,
    a SIGSEGV or a SIGKILL, or exited without a memory limit) or ``error`` (an exception; detail is
    its text); ``partial`` is the task's result so far (:func:`report_partial`), or None.
    """

    def __init__(self, factory: WorkerFactory, init_args: tuple = (), jobs: int = 1,
                 on_failure: Callable[[Any, str, str, Any], Any] = lambda payload, kind, detail, partial: None,
                 task_timeout: Optional[float] = None, memory_limit: Optional[int] = None,
                 lookahead: int = 256):
        self.factory, self.init_args = factory, init_args
        self.jobs = max(1, jobs)
        self.on_failure = on_failure
        self.task_timeout = task_timeout
        self.memory_limit = memory_limit
        self.lookahead = max(lookahead, self.jobs)
        self.replaced = 0  #: workers replaced after a failure
        self._ctx = _context()
        self._workers: list[_Worker] = []

    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker_main, daemon=True,
                                    args=(child, self.factory, self.init_args, self.memory_limit, os.getpid()))
        # A signal handled during fork() runs our handler inside the at-fork hooks, where its
        # exception is printed and ignored ("Exception ignored in _releaseLock") and the run went on:
        # 7 of 13 SIGINTs while 64 workers started (issue 27).  Blocked around the fork, it is
        # handled just after, in the parent's own code, where Interrupted ends the run; the worker
        # unblocks it once its own handlers are set (_worker_main).
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            child.close()
        return _Worker(process, parent)

    def _retire(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.conn.close()

    def imap(self, tasks: Iterable[tuple[int, Any]]) -> Iterator[Any]:
        """Yield the results of ``tasks`` in their order (tasks are ``(index, payload)``, indexes increasing)."""
        pending = iter(tasks)
        order: deque[int] = deque()  # indexes handed out and not yet yielded, in task order
        retry: list[tuple[int, Any]] = []  # tasks whose worker died before receiving them
        results: dict[int, Any] = {}
        finished = False
        try:
            self._workers = []
            for _ in range(self.jobs):  # one by one, so that an interruption kills those started
                self._workers.append(self._spawn())
            while True:
                for worker in self._workers:
                    if worker.ready and worker.task is None and len(order) < self.lookahead:
                        task = retry.pop() if retry else next(pending, None)
                        if task is None:
                            break
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
            self.close(kill=not finished)

    def _step(self, results: dict[int, Any], retry: list[tuple[int, Any]]) -> None:
        """Wait for messages or deaths, record results, kill overdue workers and replace dead ones."""
        ready = wait([w.conn for w in self._workers] + [w.process.sentinel for w in self._workers], timeout=0.5)
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
                    elif message[0] == "partial":
                        worker.partial = message[1]
                    elif message[0] == "failed":
                        raise PoolError(f"a worker failed while starting: {message[1]}")
                    else:
                        index, (kind, value) = message
                        results[index] = (value if kind == "ok"
                                          else self.on_failure(worker.task[1], kind, value or "", worker.partial))
                        worker.task = None
                        if kind == "memory":
                            # a worker that reached its cap keeps the memory it took (CLIPS keeps freed
                            # memory in its own pools): the next task gets a fresh one
                            self._retire(worker)
                            self._workers[i] = self._spawn()
                            self.replaced += 1
                    continue
            failure = None
            if not worker.process.is_alive():
                failure = self._death(worker.process.exitcode)
            elif worker.task is not None and self.task_timeout and now - worker.started > self.task_timeout:
                failure = ("timeout", f"killed after {now - worker.started:.1f}s")
            if failure is None:
                continue
            if not worker.ready:
                raise PoolError(f"a worker failed while starting ({failure[1]}); "
                                "run 'sudorules solve' on one puzzle to see why")
            if worker.task is not None:
                results[worker.task[0]] = self.on_failure(worker.task[1], *failure, worker.partial)
            self._retire(worker)
            self._workers[i] = self._spawn()
            self.replaced += 1

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
        if self.memory_limit:
            return "memory", f"worker exited with status {exitcode} under its memory limit"
        return "crashed", f"worker exited with status {exitcode}"

    def close(self, kill: bool = False) -> None:
        """Stop every worker: ask idle ones to end, kill the rest (all of them at once with ``kill``)."""
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


def cpu_count() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
