"""sudorules on macOS and Windows, as far as this Linux machine can tell (issue 24).

1. Under ``spawn`` (the start method of macOS and Windows), a worker builds for itself what ``fork``
   handed it: the rules, the C core's tables (filled when the extension is imported), the T&E
   engine; its ratings are those of the calling process, and the engines' own time limits stop
   it.  ``SUDORULES_START_METHOD=spawn`` runs the whole suite so (``.ci/run`` runs the batch tests
   again with it); these tests force it whatever the environment says.
2. The package run with the platform faked (tests/fake_platform/sitecustomize.py: ``fcntl``,
   ``resource`` and ``/proc`` hidden, ``sys.platform`` darwin or win32): ``import sudorules``,
   ``--help``, ``check`` and ``solve``; then real ``rate`` runs with spawned workers, the memory watch
   (macOS: ``ps``), parent-death by the sentinel thread, kill -9 and resume, and (Windows) ``msvcrt``
   locks and the rewrite of ``--retry`` with the output closed before its rename.

What this cannot show: the real systems' own calls (vm_stat, kernel32, msvcrt, Windows' file-sharing
rules), which are unit-tested with fakes in tests/test_oscompat.py; README "Installing" says so.
"""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sudorules.batch.pool import OrderedPool
from sudorules.batch.rating import Rater, _make_rater_handle
from sudorules.batch.runner import RateOptions, rate_file
from sudorules.reader import read_puzzles

from test_cli_edges import (CMD, DEMO, EASY, HARD, LONG_B, _env, assert_complete_rate_file,
                            assert_error, assert_ok, children, demo_puzzles, describe, wait_for, wait_gone)

FAKE = Path(__file__).resolve().parent / "fake_platform"
_SLOW = pytest.mark.slow


# ----------------------------------------------------------------------------------------------
# 1. spawn: what fork gave the workers for free


def _failure(record, kind, detail, partial, seconds):
    return (kind, detail)


def test_spawned_workers_rate_as_the_calling_process():
    """W (rules loaded in the worker), B and gB (the C engine, its tables filled at import in the
    worker), TE: the same values from spawned workers as from a Rater in this process."""
    puzzles = demo_puzzles()[:6] + [HARD]
    records = list(read_puzzles(puzzles))
    ratings = ("W", "B", "gB", "TE")
    here = Rater(ratings)
    expected = [here.rate(record).ratings for record in records]
    pool = OrderedPool(_make_rater_handle, (ratings, 36, None, 3), jobs=2, on_failure=_failure,
                       start_method="spawn")
    rows = list(pool.imap(enumerate(records)))
    assert [row.ratings for row in rows] == expected
    assert all(row.status == "solved" for row in rows), rows
    assert pool.start_method == "spawn" and pool.replaced == 0


def _pid_and_sigint(_):
    def handle(payload):
        return os.getpid(), signal.getsignal(signal.SIGINT) is signal.SIG_IGN, os.getppid()
    return handle


def test_spawned_workers_are_new_processes_that_ignore_ctrl_c():
    pool = OrderedPool(_pid_and_sigint, (0,), jobs=2, start_method="spawn")
    results = list(pool.imap(enumerate(range(4))))
    assert all(ignores and parent == os.getpid() and pid != os.getpid() for pid, ignores, parent in results)


def test_the_time_limit_stops_a_spawned_worker(tmp_path, monkeypatch):
    """The engine's own limit (W: between rule-firing chunks) stops a spawned worker's rating."""
    source = tmp_path / "in.txt"
    source.write_text(f"{LONG_B}\n{EASY}\n")
    out = tmp_path / "out.csv"
    monkeypatch.setenv("SUDORULES_START_METHOD", "spawn")
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, time_limit=0.5))
    rows = list(csv.reader(io.StringIO(out.read_text())))[1:]
    assert [row[3] for row in rows] == ["timeout", "solved"], rows


def test_a_bad_start_method_is_one_line(tmp_path):
    (tmp_path / "p.txt").write_text(EASY + "\n")
    env = _env()
    env["SUDORULES_START_METHOD"] = "threads"
    result = subprocess.run([*CMD, "rate", "p.txt", "--jobs", "2", "-o", "out.csv"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert_error(result, 2, "SUDORULES_START_METHOD=threads", "spawn, fork")
    assert not (tmp_path / "out.csv").exists()  # checked before any output is made


# ----------------------------------------------------------------------------------------------
# 2. the package with the platform faked


def _fake_env(platform: str, windows_signals: bool = False) -> dict:
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join([str(FAKE), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["FAKE_PLATFORM"] = platform
    env.pop("SUDORULES_START_METHOD", None)  # the platform chooses
    if windows_signals:
        env["FAKE_WINDOWS_SIGNALS"] = "1"
    return env


def _run(args: list, cwd: Path, env: dict, timeout: float = 180, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*CMD, *map(str, args)], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, **kwargs)


_PROBE = """
import sys
try:
    import fcntl
    print("fcntl importable")
except ImportError:
    pass
try:
    import resource
    print("resource importable")
except ImportError:
    pass
try:
    open("/proc/self/status")
    print("/proc readable")
except FileNotFoundError:
    pass
import sudorules, sudorules.oscompat as o
print(sys.platform, o.system(), o.start_method(), o.kernel_limits_memory())
"""


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_import_help_check_and_solve_without_fcntl_resource_or_proc(platform, tmp_path):
    env = _fake_env(platform, windows_signals=True)
    probe = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr
    system = {"darwin": "darwin", "win32": "windows"}[platform]
    assert probe.stdout.split("\n") == [f"{platform} {system} spawn False", ""], probe.stdout  # all hidden

    help_ = _run(["--help"], tmp_path, env)
    assert_ok(help_)
    assert "Usage: sudorules" in help_.stdout and "rate" in help_.stdout

    checked = _run(["check", DEMO, "-o", "checked.csv"], tmp_path, env)
    assert_ok(checked)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "checked.csv").read_text())))
    assert len(rows) == 100 and {row["solutions"] for row in rows} == {"1"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checked.csv"]  # no temporary left behind

    solved = _run(["solve", EASY], tmp_path, env)
    assert_ok(solved)
    assert "W = 2" in solved.stdout


def _worker_command_lines(pid: int) -> list[bytes]:
    lines = []
    for child, _ in children(pid):
        try:
            lines.append(Path(f"/proc/{child}/cmdline").read_bytes())
        except OSError:
            pass
    return lines


def test_macos_rate_spawns_watches_memory_dies_with_its_parent_and_resumes(tmp_path):
    """Faked macOS: ``rate`` spawns its workers; kill -9 of the main process ends them (the thread
    on the parent's sentinel: no PR_SET_PDEATHSIG there); the same command resumes to the complete
    file; and a worker that grows past --memory-limit is stopped by the pool's RSS watch (``ps``)
    with a ``memory`` row, the batch going on."""
    env = _fake_env("darwin")
    puzzles = demo_puzzles()[:40]
    (tmp_path / "in.txt").write_text("\n".join(puzzles) + "\n")
    out = tmp_path / "out.csv"
    main = subprocess.Popen([*CMD, "rate", "in.txt", "--jobs", "2", "-o", "out.csv", "--no-progress"], cwd=tmp_path,
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: out.exists() and out.read_bytes().count(b"\n") >= 3, main, 120, "the first rows")
        kids = children(main.pid)
        lines = _worker_command_lines(main.pid)
        main.kill()  # SIGKILL: the workers are told by nothing but their parent's death
        main.wait()
    finally:
        if main.poll() is None:
            main.kill()
            main.wait()
    assert kids and all(b"--multiprocessing-fork" in line for line in lines), lines  # spawned, not forked
    assert not wait_gone(kids, 10.0), "a worker outlived its killed parent"

    resumed = _run(["rate", "in.txt", "--jobs", "2", "-o", "out.csv", "--no-progress"], tmp_path, env)
    assert_ok(resumed)
    body = assert_complete_rate_file(out, puzzles)
    assert [row[3] for row in body] == ["solved"] * len(puzzles)

    # LONG_B under W: 3.6 s and 225 MiB past the loaded worker (/usr/bin/time on `solve --theory W`)
    (tmp_path / "big.txt").write_text(f"{LONG_B}\n{EASY}\n")
    capped = _run(["rate", "big.txt", "--jobs", "1", "--memory-limit", "64"], tmp_path, env)
    assert_ok(capped)
    rows = list(csv.DictReader(io.StringIO(capped.stdout)))
    assert [row["status"] for row in rows] == ["memory", "solved"], describe(capped)
    assert "past its loaded state (memory limit 64 MiB)" in rows[0]["error"]


def test_windows_rate_locks_with_msvcrt_and_retries_with_the_output_closed(tmp_path):
    """Faked Windows: a second ``rate`` on an output another run writes is refused (the msvcrt
    lock); ``--retry`` rewrites the output with it unlocked and closed for the rename, then locks
    it again; the file is complete and nothing is left beside it."""
    env = _fake_env("win32")
    puzzles = [HARD, EASY, *demo_puzzles()[1:4]]
    (tmp_path / "in.txt").write_text("\n".join(puzzles) + "\n")
    out = tmp_path / "out.csv"
    first = _run(["rate", "in.txt", "--jobs", "2", "-o", "out.csv", "--time-limit", "0.1"], tmp_path, env)
    assert_ok(first)
    body = assert_complete_rate_file(out, puzzles)
    assert body[0][3] == "timeout" and [row[3] for row in body[1:]] == ["solved"] * 4, body

    holder = subprocess.Popen([sys.executable, "-c", "import os, sys, time\n"
                               "from sudorules.oscompat import lock\n"
                               "fd = os.open('out.csv', os.O_RDWR)\n"
                               "print(lock(fd), flush=True)\n"
                               "time.sleep(60)\n"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "True"
        refused = _run(["rate", "in.txt", "--jobs", "2", "-o", "out.csv", "--retry", "timeout"], tmp_path, env)
        assert_error(refused, 2, "being written by another")
    finally:
        holder.kill()
        holder.wait()

    again = _run(["rate", "in.txt", "--jobs", "2", "-o", "out.csv", "--retry", "timeout"], tmp_path, env)
    assert_ok(again)
    body = assert_complete_rate_file(out, puzzles)
    assert [row[3] for row in body] == ["solved"] * 5 and body[0][2] == "7", body
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.csv"]
