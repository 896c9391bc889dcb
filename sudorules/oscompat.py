"""Platform services: the one place where sudorules asks the operating system something that Linux,
macOS and Windows answer differently.

Every other module calls these functions and never ``fcntl``, ``resource``, ``msvcrt``, ``/proc`` or
``prctl`` itself.  Each service has a Linux, a macOS and a Windows branch, chosen by ``sys.platform``
when it is called (so a test can fake the platform) or by what the system has (``fcntl`` or
``msvcrt``).  Only Linux runs here; the other branches are unit-tested with the OS calls faked
(tests/test_oscompat.py) and the package is run with ``fcntl``, ``resource`` and ``/proc`` hidden
(README "Installing" says how each platform is checked).

=====================  =========================  ==========================  ===========================
service                Linux                      macOS                       Windows
=====================  =========================  ==========================  ===========================
worker start method    ``fork``                   ``spawn``                   ``spawn``
memory available       ``/proc/meminfo``          ``vm_stat`` (``sysctl``)    ``GlobalMemoryStatusEx``
a process's memory     ``/proc/PID/statm``        ``proc_pidinfo`` (``ps``)   ``K32GetProcessMemoryInfo``
per-worker limit       RLIMIT_AS (the kernel)     the pool's RSS watchdog     the pool's RSS watchdog
file lock              ``flock``                  ``flock``                   ``msvcrt.locking``
dying with the parent  ``PR_SET_PDEATHSIG``       a thread on the parent      a thread on the parent
=====================  =========================  ==========================  ===========================

Why no psutil: it would answer the memory questions on every platform, but it is a compiled
dependency for five small calls, and sudorules needs the locking, start method and parent-death
parts anyway; each call here is a few lines of the standard library (subprocess, ctypes).

Nothing heavy is imported at module level (``import sudorules`` stays fast): ``ctypes``,
``subprocess`` and ``multiprocessing`` are imported inside the branches that use them.
"""

from __future__ import annotations

import errno
import os
import sys
import time
from contextlib import contextmanager
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Optional

from .errors import OptionError

#: The environment variable that forces the workers' start method: ``spawn`` or ``fork``.
START_METHOD_VARIABLE = "SUDORULES_START_METHOD"
START_METHODS = ("spawn", "fork")

#: ``os.open`` flag that keeps Windows from translating newlines in files we write byte-exact (rows
#: appended with ``os.write``); 0 elsewhere.
O_BINARY = getattr(os, "O_BINARY", 0)

#: Where Linux publishes process and memory figures (a test points it elsewhere to hide it).
PROC = "/proc"


def system() -> str:
    """``linux``, ``darwin``, ``windows`` or ``other``, from ``sys.platform`` as it is now."""
    if sys.platform.startswith("linux"):
        return "linux"
    if sys.platform == "darwin":
        return "darwin"
    if sys.platform in ("win32", "cygwin"):
        return "windows"
    return "other"


# --- worker processes ----------------------------------------------------------------------------

def start_method() -> str:
    """The ``multiprocessing`` start method for worker processes.

    ``fork`` on Linux: a worker starts in milliseconds with the parent's modules loaded.  ``spawn``
    on macOS (where ``fork`` is unsafe once system frameworks run threads, and Python's default is
    ``spawn``) and on Windows (no ``fork``).  ``SUDORULES_START_METHOD=spawn|fork`` forces one
    (:class:`~sudorules.errors.OptionError` for another value, or ``fork`` where there is none)."""
    can_fork = hasattr(os, "fork")  # what multiprocessing asks too; importing it is not needed here
    forced = os.environ.get(START_METHOD_VARIABLE, "").strip().lower()
    if forced:
        if forced not in START_METHODS:
            raise OptionError(f"{START_METHOD_VARIABLE}={forced}: expected one of {', '.join(START_METHODS)}")
        if forced == "fork" and not can_fork:
            raise OptionError(f"{START_METHOD_VARIABLE}={forced}: this system cannot fork (use spawn)")
        return forced
    return "spawn" if system() in ("darwin", "windows") or not can_fork else "fork"


def cpu_count() -> int:
    """The number of cores this process may use (its CPU affinity where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS and Windows have no sched_getaffinity
        return os.cpu_count() or 1


@contextmanager
def signals_held(signals: Iterable[int]) -> Iterator[None]:
    """Hold ``signals`` for the body: one that comes then is handled just after it, as if it came
    then, in the calling code.

    Two holds, because one is not enough: the signals are blocked in this thread (where the system
    has signal masks; not Windows), so that a child process started now starts with them blocked
    (the mask survives fork and exec); and their Python
    handlers are replaced by one that only records them, because the kernel delivers a signal sent
    to the process to any thread that does not block it (numpy's threads), and Python then runs the
    handler in the main thread at its next instruction, whatever its mask: a SIGINT raised
    Interrupted inside ``multiprocessing``'s start of a spawned worker, between the worker's start
    and the write of its arguments, and the worker died with ``EOFError`` on stderr
    (``SUDORULES_START_METHOD=spawn``, tests/test_dependable.py::test_signal_while_workers_start).
    Handlers are replaced only in the main thread (Python runs them nowhere else)."""
    import signal
    import threading

    caught: list[int] = []
    replaced = {}
    if threading.current_thread() is threading.main_thread():
        for signum in signals:
            if callable(signal.getsignal(signum)):  # a Python handler (not SIG_DFL, SIG_IGN or C's)
                replaced[signum] = signal.signal(signum, lambda number, _frame: caught.append(number))
    masked = hasattr(signal, "pthread_sigmask")
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals) if masked else None
    try:
        yield
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        for signum, handler in replaced.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):
            replaced[signum](signum, None)  # e.g. raises Interrupted, now, here


class SpawnTarget:
    """A worker process's target function that a spawned worker loads only after it has begun to
    ignore Ctrl-C.

    A spawned worker is a new interpreter, which imports for a second (pandas, the rule engine)
    before it can set its own handlers.  On POSIX it starts with SIGINT and SIGTERM blocked, a mask
    it inherits from the parent (:func:`signals_held`) through fork and exec, and Python keeps;
    Windows has no masks, so a Ctrl-C in that second would print a KeyboardInterrupt traceback from
    the worker.  The parent cannot lend it an ignored SIGINT instead (ignored signals survive exec):
    tried here, while the parent ignored it, a Ctrl-C delivered to one of its other threads
    (numpy's) was lost, and the run went on.  So the target is pickled as
    ``_load_function(InterruptsIgnored(), module, name)``: unpickling the first argument ignores
    SIGINT, before the module holding the function (and its imports) is loaded; what remains is the
    interpreter's own start-up and multiprocessing's preparation, tens of milliseconds.  Forked
    workers never pickle it: it is then just the function."""

    def __init__(self, function: Callable) -> None:
        self.function = function

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def __reduce__(self):
        return _load_function, (InterruptsIgnored(), self.function.__module__, self.function.__qualname__)


class InterruptsIgnored:
    """Unpickled, makes the process ignore SIGINT (see :class:`SpawnTarget`)."""

    def __reduce__(self):
        import signal

        return signal.signal, (signal.SIGINT, signal.SIG_IGN)


def _load_function(_ignored: object, module: str, name: str) -> Callable:
    import importlib

    return getattr(importlib.import_module(module), name)


def unblock_signals(signals: Iterable[int]) -> None:
    """Unblock ``signals`` (a worker, forked or spawned, inherits the mask of :func:`signals_held`)."""
    import signal

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)


def die_with_parent(parent: int) -> None:
    """Make this process (a pool worker) end when ``parent``, the process that started it, ends,
    however it ends (even ``kill -9``), so that no orphan keeps gigabytes and the output file.

    Linux: the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``).  Elsewhere a daemon thread waits
    on the parent's sentinel that ``multiprocessing`` gives every child (a handle of the parent
    process on Windows, a pipe that the parent's death closes on POSIX) and ends the process; it runs
    during a long CLIPS or C-core call, which release the GIL.  Outside ``multiprocessing`` the thread
    polls the parent's pid (reparented on POSIX when the parent dies)."""
    if system() == "linux" and _linux_pdeathsig():
        if os.getppid() != parent:  # the parent died before the request was made
            os._exit(1)
        return
    import threading

    wait = _parent_waiter(parent)

    def watch() -> None:
        wait()
        os._exit(1)

    threading.Thread(target=watch, name="sudorules-parent-watch", daemon=True).start()


def _linux_pdeathsig() -> bool:
    """Ask the Linux kernel to SIGKILL this process when its parent dies; False where it cannot."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        return libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _parent_waiter(parent: int) -> Callable[[], None]:
    """A function that returns once ``parent`` has ended."""
    import multiprocessing

    handle = multiprocessing.parent_process()
    if handle is not None and handle.pid == parent:
        return handle.join  # waits on the sentinel: returns when the parent ends

    def poll() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
    return poll


# --- memory ------------------------------------------------------------------------------------------

#: The share of the available memory a run takes by default (solve's memory limit, rate's workers
#: together).  All of it was too much: top1465 #182 under gW (130 MB a second) grew to 24.4 GB
#: resident, past the 22 GiB available at its start, and the kernel's OOM killer ended it, status
#: 137 and nothing said, before its limit was read (helper-43): "available" counts caches the
#: kernel cannot always give back at once, and other processes grow meanwhile.
USABLE_SHARE = 0.75


def usable_memory() -> Optional[int]:
    """The memory, in bytes, a run may take by default: :data:`USABLE_SHARE` of
    :func:`available_memory`; None where that cannot be told."""
    available = available_memory()
    return None if available is None else int(available * USABLE_SHARE)


def available_memory() -> Optional[int]:
    """The memory, in bytes, the system can give new work without swapping; None where it cannot
    be told."""
    kind = system()
    if kind == "linux":
        return _linux_available_memory()
    if kind == "darwin":
        return _darwin_available_memory()
    if kind == "windows":
        return _windows_available_memory()
    return None


def resident_memory(pid: Optional[int] = None) -> Optional[int]:
    """The resident memory (RSS), in bytes, of process ``pid`` (this process by default); None where
    it cannot be told (the process has gone, or the system does not say)."""
    pid = os.getpid() if pid is None else pid
    kind = system()
    if kind == "linux":
        fields = _statm(pid)
        return None if fields is None else fields[1] * _page_size()
    if kind == "darwin":
        return _darwin_resident_memory(pid)
    if kind == "windows":
        return _windows_resident_memory(pid)
    return None


def kernel_limits_memory() -> bool:
    """True where the kernel enforces a per-process memory cap we can set (RLIMIT_AS on Linux: an
    allocation past it fails, which CLIPS and Python turn into a ``memory`` row).  macOS accepts
    RLIMIT_AS but does not enforce it, and Windows has no rlimits: there the pool measures each
    worker's RSS and stops the one that grows past its limit (:class:`~sudorules.batch.pool.OrderedPool`)."""
    if system() != "linux":
        return False
    try:
        import resource  # noqa: F401
    except ImportError:
        return False
    return True


def limit_address_space(limit: int) -> None:
    """Cap this process's address space at its current size plus ``limit`` bytes (RLIMIT_AS; only
    where :func:`kernel_limits_memory`).

    The cap never exceeds the hard limit the process was started under (``ulimit -v``: asking for
    more is refused, and the worker could not start at all) nor what the kernel's rlimit can hold (a
    ``--memory-limit`` of 10**14 MiB overflows it): at or past those the cap is the hard limit."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    fields = _statm(os.getpid())
    cap = (0 if fields is None else fields[0] * _page_size()) + limit
    ceiling = (2**63 - 1) if hard == resource.RLIM_INFINITY else hard
    if cap >= ceiling:
        cap = hard  # RLIM_INFINITY when there is no hard limit: no cap at all
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def address_space_limit() -> Optional[int]:
    """This process's soft RLIMIT_AS (``ulimit -v``) in bytes, where the kernel enforces one
    (:func:`kernel_limits_memory`); None without such a limit.  Children inherit it."""
    if not kernel_limits_memory():
        return None
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def address_space_left() -> Optional[int]:
    """Bytes this process's address space may still grow by under its soft RLIMIT_AS (``ulimit -v``),
    where the kernel enforces one (:func:`kernel_limits_memory`); None without such a limit."""
    soft = address_space_limit()
    fields = None if soft is None else _statm(os.getpid())
    if fields is None:
        return None
    return max(0, soft - fields[0] * _page_size())


def malloc_free_bytes() -> int:
    """Bytes free inside this process's malloc arenas (glibc's mallinfo2: fordblks), which a later
    allocation reuses without growing the address space; 0 where the C library does not say.  After
    a run of the rules stopped at its memory limit, CLIPS's memory goes back there, not to the
    system: 202 of 207 MB of arena were free after top1465-class braids were cleared, and the address
    space alone said the next puzzles had no room (helper-40)."""
    if system() != "linux":
        return 0
    mallinfo2 = _mallinfo2()
    return 0 if mallinfo2 is None else int(mallinfo2().fordblks)


@lru_cache(maxsize=1)
def _mallinfo2():
    import ctypes
    import ctypes.util

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                          "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
    try:
        function = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallinfo2
    except (OSError, AttributeError):  # musl, a glibc before 2.33
        return None
    function.restype = MallInfo2
    return function


def _page_size() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return 4096


def _statm(pid: int) -> Optional[list[int]]:
    """``/proc/PID/statm`` in pages: [virtual size, resident, shared, ...]; None where absent."""
    try:
        with open(f"{PROC}/{pid}/statm", encoding="ascii") as handle:
            return [int(field) for field in handle.read().split()]
    except (OSError, ValueError):
        return None


def _linux_available_memory() -> Optional[int]:
    """``MemAvailable`` of /proc/meminfo: the kernel's own estimate of what new work can have."""
    try:
        with open(f"{PROC}/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _run(args: list[str]) -> Optional[str]:
    """The standard output of a short system command, or None if it fails (tests replace it)."""
    import subprocess

    try:
        done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("ascii", "replace") if done.returncode == 0 else None


def _darwin_available_memory() -> Optional[int]:
    """``vm_stat``'s free, inactive and speculative pages (what macOS gives a new process without
    compressing or swapping; "Pages free" already excludes the speculative ones), times its page size
    (16 KiB on Apple silicon); the total ``sysctl hw.memsize`` if vm_stat cannot be read."""
    text = _run(["vm_stat"])
    if text is not None:
        lines = text.splitlines()
        page = None
        if lines and "page size of" in lines[0]:
            try:
                page = int(lines[0].split("page size of")[1].split()[0])
            except (IndexError, ValueError):
                page = None
        pages = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            try:
                pages[name.strip()] = int(value.strip().rstrip("."))
            except ValueError:
                continue
        wanted = ("Pages free", "Pages inactive", "Pages speculative")
        if page and all(name in pages for name in wanted):
            return sum(pages[name] for name in wanted) * page
    total = _run(["sysctl", "-n", "hw.memsize"])
    try:
        return int(total.strip()) if total is not None else None
    except ValueError:
        return None


def _darwin_resident_memory(pid: int) -> Optional[int]:
    """``pti_resident_size`` of libproc's ``proc_pidinfo(PROC_PIDTASKINFO)`` (macOS has no /proc): a
    few microseconds; ``ps -o rss= -p PID`` (KiB) where libproc cannot be loaded.  The pool asks
    four times a second for each busy worker, and a ``ps`` costs 5-30 ms (32 ms a call here, from a
    Python process of 100 MB on a loaded 2-core machine): too much to be the rule."""
    import ctypes

    libproc = _libproc()
    if libproc is not None:
        class TaskInfo(ctypes.Structure):  # struct proc_taskinfo: six uint64, twelve int32
            _fields_ = [("pti_virtual_size", ctypes.c_uint64), ("pti_resident_size", ctypes.c_uint64),
                        ("times", ctypes.c_uint64 * 4), ("counts", ctypes.c_int32 * 12)]

        info = TaskInfo()
        proc_pidtaskinfo = 4
        written = libproc.proc_pidinfo(pid, proc_pidtaskinfo, 0, ctypes.byref(info), ctypes.sizeof(TaskInfo))
        return int(info.pti_resident_size) if written == ctypes.sizeof(TaskInfo) else None  # 0: no such process
    text = _run(["ps", "-o", "rss=", "-p", str(pid)])
    try:
        return int(text.strip()) * 1024 if text is not None and text.strip() else None
    except ValueError:
        return None


@lru_cache(maxsize=None)
def _libproc():
    """macOS's libproc with ``proc_pidinfo``'s signature, or None where it cannot be loaded (loaded
    once: ``find_library`` runs a compiler or ldconfig elsewhere)."""
    import ctypes
    import ctypes.util

    try:
        library = ctypes.CDLL(ctypes.util.find_library("proc") or "/usr/lib/libproc.dylib", use_errno=True)
        function = library.proc_pidinfo
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_int]
    function.restype = ctypes.c_int
    return library


def _kernel32():
    """Windows' kernel32 with the signatures we call (tests replace this function)."""
    import ctypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    kernel32.OpenProcess.restype = ctypes.c_void_p
    kernel32.OpenProcess.argtypes = [ctypes.c_uint32, ctypes.c_int, ctypes.c_uint32]
    kernel32.CloseHandle.argtypes = [ctypes.c_void_p]
    kernel32.K32GetProcessMemoryInfo.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
    kernel32.GlobalMemoryStatusEx.argtypes = [ctypes.c_void_p]
    return kernel32


def _windows_available_memory() -> Optional[int]:
    """``ullAvailPhys`` of ``GlobalMemoryStatusEx``: the physical memory available now."""
    import ctypes

    class MemoryStatusEx(ctypes.Structure):  # MEMORYSTATUSEX: DWORD, DWORD, then seven DWORDLONG
        _fields_ = [("dwLength", ctypes.c_uint32), ("dwMemoryLoad", ctypes.c_uint32),
                    ("ullTotalPhys", ctypes.c_uint64), ("ullAvailPhys", ctypes.c_uint64),
                    ("ullTotalPageFile", ctypes.c_uint64), ("ullAvailPageFile", ctypes.c_uint64),
                    ("ullTotalVirtual", ctypes.c_uint64), ("ullAvailVirtual", ctypes.c_uint64),
                    ("ullAvailExtendedVirtual", ctypes.c_uint64)]

    status = MemoryStatusEx()
    status.dwLength = ctypes.sizeof(MemoryStatusEx)
    try:
        if not _kernel32().GlobalMemoryStatusEx(ctypes.byref(status)):
            return None
    except (OSError, AttributeError):
        return None
    return int(status.ullAvailPhys)


def _windows_resident_memory(pid: int) -> Optional[int]:
    """``WorkingSetSize`` of ``K32GetProcessMemoryInfo`` on a handle opened for querying."""
    import ctypes

    class ProcessMemoryCounters(ctypes.Structure):  # PROCESS_MEMORY_COUNTERS: two DWORD, eight SIZE_T
        _fields_ = [("cb", ctypes.c_uint32), ("PageFaultCount", ctypes.c_uint32),
                    ("PeakWorkingSetSize", ctypes.c_size_t), ("WorkingSetSize", ctypes.c_size_t),
                    ("QuotaPeakPagedPoolUsage", ctypes.c_size_t), ("QuotaPagedPoolUsage", ctypes.c_size_t),
                    ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t), ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                    ("PagefileUsage", ctypes.c_size_t), ("PeakPagefileUsage", ctypes.c_size_t)]

    process_query_limited_information, process_vm_read = 0x1000, 0x0010
    try:
        kernel32 = _kernel32()
        handle = kernel32.OpenProcess(process_query_limited_information | process_vm_read, 0, pid)
        if not handle:
            return None
        try:
            counters = ProcessMemoryCounters()
            counters.cb = ctypes.sizeof(ProcessMemoryCounters)
            if not kernel32.K32GetProcessMemoryInfo(handle, ctypes.byref(counters), counters.cb):
                return None
            return int(counters.WorkingSetSize)
        finally:
            kernel32.CloseHandle(handle)
    except (OSError, AttributeError):
        return None


# --- files -------------------------------------------------------------------------------------------

#: Where a Windows lock lies: one byte far past any output's end.  Windows locks are mandatory (a
#: locked byte cannot be read or written through another handle, even the process's own), so a lock
#: on the data would stop our own appends and a resume's reading; a byte at 1 TiB is locked, never
#: read.  (The UCRT's ``_locking`` takes the 64-bit file position.)
WINDOWS_LOCK_OFFSET = 2**40


def lock(fd: int, wait: bool = False) -> bool:
    """Take an exclusive lock on the open file ``fd``: True when taken, False when another process
    holds it (at once unless ``wait``).  The system drops it with the process, however it ends.

    ``flock`` where there is ``fcntl`` (Linux, macOS), ``msvcrt.locking`` of one byte at
    :data:`WINDOWS_LOCK_OFFSET` on Windows; a system with neither has no locks (always True)."""
    try:
        import fcntl
    except ImportError:
        return _lock_msvcrt(fd, wait)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _lock_msvcrt(fd: int, wait: bool) -> bool:
    try:
        import msvcrt
    except ImportError:
        return True
    position = os.lseek(fd, 0, os.SEEK_CUR)
    try:
        while True:
            os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
                return True
            except OSError as error:  # EACCES: ERROR_LOCK_VIOLATION, another handle holds it
                if error.errno not in (errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)):
                    raise
            if not wait:
                return False
            time.sleep(0.1)
    finally:
        os.lseek(fd, position, os.SEEK_SET)


def renames_open_files() -> bool:
    """True where a file that is open can be renamed over another (POSIX).  Windows refuses to
    rename a file some handle has open (Python opens files without FILE_SHARE_DELETE), so there a
    file is closed, and its lock dropped, just before it is renamed into place."""
    return system() != "windows"


def umask() -> int:
    """The process umask, read without changing it where /proc tells it (Linux), else set and reset
    (the brief change is harmless: no other thread creates files while a command opens its output)."""
    try:
        with open(f"{PROC}/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
