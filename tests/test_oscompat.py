"""The platform services (sudorules/oscompat.py), branch by branch.

The Linux branches run for real.  The macOS and Windows branches cannot run here: each is run with
its OS calls faked (``sys.platform`` set for the call, ``vm_stat`` / ``sysctl`` / ``ps`` outputs as
those commands print them, kernel32 as an object whose functions fill the structures they are given,
``msvcrt`` as a module recording its calls, libproc likewise) -- except where the call exists here
too: ``ps -o rss=`` answers on Linux as on macOS, so the macOS RSS fallback is also run for real.  tests/test_platforms.py
runs the whole package with the platform faked.
"""

from __future__ import annotations

import ctypes
import errno
import multiprocessing
import os
import signal
import sys
import time
import types

import pytest

from sudorules import oscompat
from sudorules.errors import OptionError

LINUX = sys.platform.startswith("linux")
needs_linux = pytest.mark.skipif(not LINUX, reason="the Linux branch runs on Linux")


@pytest.fixture
def fake_platform(monkeypatch):
    """Set ``sys.platform`` for the test (``fake_platform("darwin")``)."""
    def set_platform(name: str) -> None:
        monkeypatch.setattr(sys, "platform", name)
    return set_platform


# --- start method ---------------------------------------------------------------------------------

def test_start_method_by_platform(fake_platform, monkeypatch):
    monkeypatch.delenv(oscompat.START_METHOD_VARIABLE, raising=False)
    for name, expected in (("linux", "fork"), ("darwin", "spawn"), ("win32", "spawn")):
        fake_platform(name)
        assert oscompat.start_method() == expected, name
    fake_platform("linux")
    monkeypatch.delattr(os, "fork")
    assert oscompat.start_method() == "spawn"  # a system that cannot fork


def test_start_method_forced_and_refused(fake_platform, monkeypatch):
    fake_platform("linux")
    for value, expected in (("spawn", "spawn"), (" Fork ", "fork")):
        monkeypatch.setenv(oscompat.START_METHOD_VARIABLE, value)
        assert oscompat.start_method() == expected
    monkeypatch.setenv(oscompat.START_METHOD_VARIABLE, "forkserver")
    with pytest.raises(OptionError, match="SUDORULES_START_METHOD=forkserver: expected one of spawn, fork"):
        oscompat.start_method()
    monkeypatch.setenv(oscompat.START_METHOD_VARIABLE, "fork")
    monkeypatch.delattr(os, "fork")
    with pytest.raises(OptionError, match="cannot fork"):
        oscompat.start_method()


def test_cpu_count_without_affinity(monkeypatch):
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert oscompat.cpu_count() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert oscompat.cpu_count() == 1


# --- memory available -----------------------------------------------------------------------------

@needs_linux
def test_linux_available_memory_is_memavailable(fake_platform, monkeypatch, tmp_path):
    fake_platform("linux")
    real = oscompat.available_memory()
    total = int(open("/proc/meminfo").readline().split()[1]) * 1024
    assert real is not None and 0 < real <= total
    (tmp_path / "meminfo").write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   12345678 kB\n")
    monkeypatch.setattr(oscompat, "PROC", str(tmp_path))
    assert oscompat.available_memory() == 12345678 * 1024
    monkeypatch.setattr(oscompat, "PROC", str(tmp_path / "absent"))
    assert oscompat.available_memory() is None


#: ``vm_stat`` on an Apple-silicon Mac (16 KiB pages), as it prints it
VM_STAT = """Mach Virtual Memory Statistics: (page size of 16384 bytes)
Pages free:                                6389.
Pages active:                            356478.
Pages inactive:                          349125.
Pages speculative:                         3052.
Pages throttled:                              0.
Pages wired down:                        131548.
Pages purgeable:                           5104.
"Translation faults":                 849926574.
Pages copy-on-write:                   27839021.
Compressor page count:                   187434.
"""


def _fake_commands(monkeypatch, outputs: dict) -> list:
    """Replace the system commands oscompat runs: ``outputs`` maps a command's first word to its
    standard output (None: the command fails).  Returns the list of commands run."""
    ran = []

    def run(args):
        ran.append(list(args))
        return outputs.get(args[0])
    monkeypatch.setattr(oscompat, "_run", run)
    return ran


def test_macos_available_memory_from_vm_stat(fake_platform, monkeypatch):
    fake_platform("darwin")
    ran = _fake_commands(monkeypatch, {"vm_stat": VM_STAT, "sysctl": "34359738368\n"})
    assert oscompat.available_memory() == (6389 + 349125 + 3052) * 16384
    assert ran == [["vm_stat"]]
    ran = _fake_commands(monkeypatch, {"vm_stat": None, "sysctl": "34359738368\n"})  # vm_stat fails: the total
    assert oscompat.available_memory() == 34359738368
    assert ran == [["vm_stat"], ["sysctl", "-n", "hw.memsize"]]
    _fake_commands(monkeypatch, {"vm_stat": "garbage\n", "sysctl": None})
    assert oscompat.available_memory() is None


class FakeKernel32:
    """kernel32 as ctypes calls it: each function receives the structure (by reference) and fills it."""

    def __init__(self, available=None, working_set=None, handle=77):
        self.available, self.working_set, self.handle = available, working_set, handle
        self.calls = []

    def GlobalMemoryStatusEx(self, status_ref):
        status = status_ref._obj
        self.calls.append(("GlobalMemoryStatusEx", status.dwLength))
        if self.available is None:
            return 0
        status.ullTotalPhys, status.ullAvailPhys = 32 * 2**30, self.available
        return 1

    def OpenProcess(self, access, inherit, pid):
        self.calls.append(("OpenProcess", access, inherit, pid))
        return self.handle

    def K32GetProcessMemoryInfo(self, handle, counters_ref, size):
        counters = counters_ref._obj
        self.calls.append(("K32GetProcessMemoryInfo", handle, size, counters.cb))
        if self.working_set is None:
            return 0
        counters.WorkingSetSize, counters.PeakWorkingSetSize = self.working_set, 2 * self.working_set
        return 1

    def CloseHandle(self, handle):
        self.calls.append(("CloseHandle", handle))
        return 1


def test_windows_available_memory(fake_platform, monkeypatch):
    fake_platform("win32")
    kernel = FakeKernel32(available=9 * 2**30)
    monkeypatch.setattr(oscompat, "_kernel32", lambda: kernel)
    assert oscompat.available_memory() == 9 * 2**30
    assert kernel.calls == [("GlobalMemoryStatusEx", 64)]  # dwLength: sizeof(MEMORYSTATUSEX), as the API wants
    monkeypatch.setattr(oscompat, "_kernel32", lambda: FakeKernel32(available=None))
    assert oscompat.available_memory() is None
    if not hasattr(ctypes, "WinDLL"):  # the real _kernel32 here: no kernel32, no figure, no error
        monkeypatch.undo()
        fake_platform("win32")
        assert oscompat.available_memory() is None


def test_other_systems_say_nothing(fake_platform):
    fake_platform("sunos5")
    assert oscompat.available_memory() is None and oscompat.resident_memory() is None
    assert not oscompat.kernel_limits_memory()


# --- a process's memory ---------------------------------------------------------------------------

@needs_linux
def test_linux_resident_memory_follows_allocations(fake_platform):
    fake_platform("linux")
    before = oscompat.resident_memory()
    block = b"\x01" * (64 * 2**20)  # touched: resident
    after = oscompat.resident_memory(os.getpid())
    assert before is not None and after is not None and after - before >= 60 * 2**20
    del block
    assert oscompat.resident_memory(2**22 + 12345) is None  # no such process


class FakeLibproc:
    """libproc as ctypes calls it: ``proc_pidinfo`` fills the ``proc_taskinfo`` it is given."""

    def __init__(self, resident):
        self.resident, self.calls = resident, []

    def proc_pidinfo(self, pid, flavor, arg, buffer_ref, size):
        self.calls.append((pid, flavor, arg, size))
        if self.resident is None:
            return 0  # no such process
        info = buffer_ref._obj
        info.pti_virtual_size, info.pti_resident_size = 400 * 2**30, self.resident
        return size


def test_macos_resident_memory_from_libproc(fake_platform, monkeypatch):
    fake_platform("darwin")
    libproc = FakeLibproc(resident=250 * 2**20)
    monkeypatch.setattr(oscompat, "_libproc", lambda: libproc)
    ran = _fake_commands(monkeypatch, {"ps": "1\n"})
    assert oscompat.resident_memory(4242) == 250 * 2**20
    assert libproc.calls == [(4242, 4, 0, 96)] and ran == []  # PROC_PIDTASKINFO, sizeof(struct proc_taskinfo)
    monkeypatch.setattr(oscompat, "_libproc", lambda: FakeLibproc(resident=None))
    assert oscompat.resident_memory(4242) is None and ran == []  # gone: no ps to ask


def test_macos_resident_memory_from_ps(fake_platform, monkeypatch):
    fake_platform("darwin")
    monkeypatch.setattr(oscompat, "_libproc", lambda: None)  # libproc cannot be loaded: ps
    ran = _fake_commands(monkeypatch, {"ps": "  143360\n"})
    assert oscompat.resident_memory(4242) == 143360 * 1024
    assert ran == [["ps", "-o", "rss=", "-p", "4242"]]
    _fake_commands(monkeypatch, {"ps": None})  # the process has gone: ps exits with 1
    assert oscompat.resident_memory(4242) is None
    _fake_commands(monkeypatch, {"ps": ""})
    assert oscompat.resident_memory(4242) is None


@needs_linux
def test_macos_resident_memory_runs_ps_for_real(fake_platform):
    """``ps -o rss= -p PID`` means the same on Linux: the macOS branch without libproc (as here,
    where there is none) runs as it is."""
    fake_platform("linux")
    linux = oscompat.resident_memory()
    fake_platform("darwin")
    assert oscompat._libproc() is None
    mac = oscompat.resident_memory()
    assert linux is not None and mac is not None and abs(mac - linux) < 16 * 2**20


def test_windows_resident_memory(fake_platform, monkeypatch):
    fake_platform("win32")
    kernel = FakeKernel32(working_set=300 * 2**20)
    monkeypatch.setattr(oscompat, "_kernel32", lambda: kernel)
    assert oscompat.resident_memory(4242) == 300 * 2**20
    size = ctypes.sizeof(ctypes.c_uint32) * 2 + ctypes.sizeof(ctypes.c_size_t) * 8
    assert kernel.calls == [("OpenProcess", 0x1010, 0, 4242), ("K32GetProcessMemoryInfo", 77, size, size),
                            ("CloseHandle", 77)]
    kernel = FakeKernel32(working_set=None)
    monkeypatch.setattr(oscompat, "_kernel32", lambda: kernel)
    assert oscompat.resident_memory(4242) is None and kernel.calls[-1] == ("CloseHandle", 77)  # closed anyway
    kernel = FakeKernel32(handle=None)  # OpenProcess failed: the process has gone
    monkeypatch.setattr(oscompat, "_kernel32", lambda: kernel)
    assert oscompat.resident_memory(4242) is None and len(kernel.calls) == 1


# --- the per-worker memory limit ------------------------------------------------------------------

def test_the_kernel_caps_memory_only_on_linux(fake_platform, monkeypatch):
    for name, expected in (("linux", True), ("darwin", False), ("win32", False)):
        fake_platform(name)
        assert oscompat.kernel_limits_memory() is expected, name
    fake_platform("linux")
    monkeypatch.setitem(sys.modules, "resource", None)  # import resource fails
    assert oscompat.kernel_limits_memory() is False


@needs_linux
def test_limit_address_space_in_a_child():
    """RLIMIT_AS set past the current size: an allocation beyond it fails with MemoryError."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_allocate_under_a_cap, args=(child,))
    process.start()
    process.join(30)
    assert parent.recv() == ("small ok", "big MemoryError")


def _allocate_under_a_cap(conn):
    oscompat.limit_address_space(64 * 2**20)
    small = bytearray(8 * 2**20)
    try:
        bytearray(512 * 2**20)
        big = "big allocated"
    except MemoryError:
        big = "big MemoryError"
    conn.send(("small ok" if len(small) else "small?", big))


# --- locks ------------------------------------------------------------------------------------------

def test_flock_excludes_another_open_file(tmp_path):
    path = tmp_path / "out.csv"
    first = os.open(path, os.O_RDWR | os.O_CREAT)
    second = os.open(path, os.O_RDWR)  # another open file: flock locks belong to open files
    try:
        assert oscompat.lock(first) is True
        assert oscompat.lock(second) is False
        os.close(first)
        assert oscompat.lock(second) is True
    finally:
        os.close(second)


class FakeMsvcrt(types.ModuleType):
    """``msvcrt`` as Windows has it: ``locking`` locks ``nbytes`` from the file's current position;
    a region another handle holds gives OSError EACCES (``LK_NBLCK``)."""

    LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2

    def __init__(self, busy: int = 0):
        super().__init__("msvcrt")
        self.busy = busy  # how many attempts find the byte held by another process
        self.calls = []

    def locking(self, fd, mode, nbytes):
        self.calls.append((fd, mode, nbytes, os.lseek(fd, 0, os.SEEK_CUR)))
        if self.busy:
            self.busy -= 1
            raise OSError(errno.EACCES, "Permission denied")


def test_windows_lock_is_one_byte_far_past_the_data(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "fcntl", None)  # Windows has no fcntl
    fake = FakeMsvcrt()
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    fd = os.open(tmp_path / "out.csv", os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"puzzle,clues\n")
        assert oscompat.lock(fd) is True
        assert fake.calls == [(fd, FakeMsvcrt.LK_NBLCK, 1, oscompat.WINDOWS_LOCK_OFFSET)]
        assert os.lseek(fd, 0, os.SEEK_CUR) == 13  # the position is given back: appends go on where they were
        fake.busy = 1
        assert oscompat.lock(fd) is False and len(fake.calls) == 2  # held: at once, no waiting
        fake.busy = 3
        monkeypatch.setattr(oscompat.time, "sleep", lambda seconds: None)
        assert oscompat.lock(fd, wait=True) is True and len(fake.calls) == 6  # waited through three refusals
    finally:
        os.close(fd)


def test_windows_lock_errors_other_than_held_are_raised(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "fcntl", None)
    fake = FakeMsvcrt()

    def locking(fd, mode, nbytes):
        raise OSError(errno.EBADF, "Bad file descriptor")
    fake.locking = locking
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    fd = os.open(tmp_path / "x", os.O_RDWR | os.O_CREAT)
    try:
        with pytest.raises(OSError):
            oscompat.lock(fd)
    finally:
        os.close(fd)


def test_no_lock_service_grants_every_lock(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    fd = os.open(tmp_path / "x", os.O_RDWR | os.O_CREAT)
    try:
        assert oscompat.lock(fd) is True
    finally:
        os.close(fd)


def test_renames_open_files_except_on_windows(fake_platform):
    for name, expected in (("linux", True), ("darwin", True), ("win32", False)):
        fake_platform(name)
        assert oscompat.renames_open_files() is expected


def test_output_written_the_windows_way(fake_platform, tmp_path):
    """With renames of open files refused (Windows), open_output closes its temporary file before
    the rename and removes a stale one after closing it: the same file, no temporary left."""
    from sudorules.output import write_text

    target = tmp_path / "out.txt"
    stale = tmp_path / ".out.txt.abcd1234.tmp"  # left by a killed run
    stale.write_text("half")
    fake_platform("win32")
    write_text(target, "whole\n")
    assert target.read_text() == "whole\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_umask_without_proc(monkeypatch, tmp_path):
    real = oscompat.umask()
    monkeypatch.setattr(oscompat, "PROC", str(tmp_path / "absent"))
    assert oscompat.umask() == real
    assert oscompat.umask() == real  # read again: the set-and-reset left it as it was
    previous = os.umask(0o027)
    try:
        assert oscompat.umask() == 0o027
    finally:
        os.umask(previous)


# --- signals and the parent's death ------------------------------------------------------------------

def test_signals_held_are_handled_after_the_body():
    """A signal during the body is handled once, after it; the handler is the one set before."""
    seen = []
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: seen.append(number))
    try:
        with oscompat.signals_held([signal.SIGUSR1]):
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.05)
            assert seen == []
        time.sleep(0.05)
        assert seen == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_signals_held_without_signal_masks(monkeypatch):
    """Windows has no pthread_sigmask: the Python handlers are still deferred."""
    monkeypatch.delattr(signal, "pthread_sigmask")
    seen = []
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: seen.append(number))
    try:
        with oscompat.signals_held([signal.SIGUSR1]):
            signal.raise_signal(signal.SIGUSR1)
            assert seen == []
        assert seen == [signal.SIGUSR1]
        oscompat.unblock_signals([signal.SIGUSR1])  # nothing to unblock, and no error
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_a_spawn_target_ignores_sigint_when_unpickled():
    import pickle

    target = oscompat.SpawnTarget(oscompat.cpu_count)
    assert target() == oscompat.cpu_count()
    previous = signal.getsignal(signal.SIGINT)
    try:
        loaded = pickle.loads(pickle.dumps(target))
        assert loaded is oscompat.cpu_count
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_parent_watch_outside_multiprocessing_polls_the_parent_pid(monkeypatch):
    parents = iter([1000, 1000, 1])  # reparented to init: the parent died
    monkeypatch.setattr(os, "getppid", lambda: next(parents))
    monkeypatch.setattr(oscompat.time, "sleep", lambda seconds: None)
    wait = oscompat._parent_waiter(1000)
    wait()  # returns: the parent is gone
    with pytest.raises(StopIteration):
        next(parents)


@pytest.mark.parametrize("system", ["linux", "darwin"])
def test_a_worker_dies_with_its_parent(system, tmp_path):
    """The parent is killed with SIGKILL; its worker ends by itself: by the kernel's PR_SET_PDEATHSIG
    on Linux, by the thread waiting on the parent's sentinel elsewhere (run here with the worker's
    sys.platform set to darwin)."""
    import subprocess

    script = tmp_path / "parent.py"
    script.write_text(f"""
import multiprocessing, os, sys, time

def worker(system):
    sys.platform = system
    from sudorules import oscompat
    oscompat.die_with_parent(os.getppid())
    print(os.getpid(), flush=True)
    time.sleep(60)

if __name__ == "__main__":
    process = multiprocessing.get_context("spawn").Process(target=worker, args=({system!r},))
    process.start()
    time.sleep(60)
""")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _alive(worker):
            time.sleep(0.1)
        assert not _alive(worker), "the worker outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in "ZX"
    except OSError:
        return False


# --- the pool's memory watch (macOS, Windows), run here ---------------------------------------------

def _grower(_):
    def handle(payload):
        if payload == "grow":
            block = b"\x01" * (256 * 2**20)  # touched, so resident
            time.sleep(30)
            return len(block)
        return payload
    return handle


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_the_memory_watch_stops_a_worker_past_its_limit(start_method):
    from sudorules.batch.pool import OrderedPool

    pool = OrderedPool(_grower, (0,), jobs=1, memory_limit=64 * 2**20, watch_memory=True,
                       start_method=start_method, on_failure=lambda payload, kind, detail, partial, seconds: (kind, detail))
    started = time.monotonic()
    results = list(pool.imap(enumerate(["a", "grow", "b"])))
    assert results[0] == "a" and results[2] == "b"
    assert results[1][0] == "memory" and "past its loaded state (memory limit 64 MiB)" in results[1][1], results
    # stopped, not left to sleep; twice: after "a" its worker was no fresh one, so it ran again on one
    assert pool.replaced == 2 and pool.memory_retried == {1} and time.monotonic() - started < 25


def test_a_windows_crash_code_is_crashed():
    from sudorules.batch.pool import OrderedPool

    pool = OrderedPool(_grower, (0,), memory_limit=2**30)
    assert pool._death(0xC0000005) == ("crashed", "worker ended by exception 0xc0000005")
    assert pool._death(1)[0] == "memory"  # CLIPS' exit under its cap


@pytest.mark.parametrize("command", [["check", "-"], ["solve", "-"]])
def test_a_bad_start_method_is_an_error_for_commands_without_workers(monkeypatch, command):
    """``SUDORULES_START_METHOD=bogus sudorules check`` ran as if it were unset: only the commands that
    start workers read it, where the README says any other value is an error (status 2)."""
    from click.testing import CliRunner

    from sudorules.cli import main as cli

    monkeypatch.setenv(oscompat.START_METHOD_VARIABLE, "bogus")
    result = CliRunner().invoke(cli, command, input="1" * 81 + "\n")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: SUDORULES_START_METHOD=bogus: expected one of spawn, fork")
    assert result.output.count("\n") == 1
    monkeypatch.delenv(oscompat.START_METHOD_VARIABLE)
    assert CliRunner().invoke(cli, command, input="1" * 81 + "\n").exit_code != 2


def test_the_default_memory_limits_leave_a_quarter_of_the_available_memory(monkeypatch):
    """All of the available memory as solve's default limit let top1465 #182 under gW grow to 24.4 GB
    resident, past what the machine could give, and the kernel's OOM killer ended it with status 137
    before the limit was read (helper-43).  solve and rate's workers now take three quarters of it."""
    from sudorules.batch.pool import default_memory_limit
    from sudorules.options import solve_memory_bytes

    monkeypatch.setattr(oscompat, "available_memory", lambda: 16 * 2**30)
    assert solve_memory_bytes(None) == 12 * 2**30
    assert default_memory_limit(2) == 6 * 2**30 and default_memory_limit(1) == 12 * 2**30
    assert solve_memory_bytes(500) == 500 * 2**20 and solve_memory_bytes(0) is None
    monkeypatch.setattr(oscompat, "available_memory", lambda: None)
    assert solve_memory_bytes(None) is None and default_memory_limit(2) is None
