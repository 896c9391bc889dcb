"""The command line at its edges (issue #10): the real ``sudorules`` command, run in a subprocess,
on every case of the issue; each must end cleanly.

Clean means: never a Python traceback (nor "internal error", "Exception ignored", "KeyboardInterrupt")
on stderr; an error is one ``Error: ...`` line (click's ``Usage:`` / ``Try`` lines are accepted around
a bad option value); the exit statuses are the documented ones (0 fine, 1 some record invalid, 2 bad
usage / input / output, 3 / 4 solve, 130 SIGINT, 143 SIGTERM).

Nothing here needs ``../shared``: the inputs are ``collections/demo.txt`` and puzzles written here.
The default run (about a minute on 2 cores) covers every case once; further variants of a case (other
commands, other spellings) are marked ``slow`` (``pytest -m slow tests/test_cli_edges.py``).
Cases that only root can set up (a character device of our own, /dev/null in a private mount
namespace, a read-only bind mount) are skipped elsewhere; cases that root cannot test (a directory
without write permission) use a read-only mount as root and are skipped when that is impossible.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "collections" / "demo.txt"
CMD = [sys.executable, "-m", "sudorules"]
IS_ROOT = os.geteuid() == 0

#: demo.txt line 1: W = 2, solved in a blink
EASY = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
#: a demo.txt puzzle that takes a while: W = 7 (about 3 s under W), B = 6 (about 3 s under B)
HARD = ".3..8........79.3...7.1...4.5......7.79.2...11.....69....2....97...9..25..8...1.."
#: cb-001 line 7462, the published collection's one B9 puzzle: about 30 s under B
LONG_B = "....5.78.4.......6.....3..1.6..9..7.3.8..49......28...7.2.61.........5..93....1.7"
#: top1465 #182 (W 22): its path under gB takes some 20 s (LONG_B's path under B now takes 0.4 s)
LONG_GB_PATH = "......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3"
RATE_HEADER = ["puzzle", "clues", "W", "status", "seconds", "tail", "error"]

#: further variants of a case the default run covers (deselected by default: pytest -m slow runs them)
_SLOW = pytest.mark.slow

BAD_WORDS = ("Traceback", "internal error", "Exception ignored", "KeyboardInterrupt")


# ----------------------------------------------------------------------------------------------
# helpers


def _env() -> dict:
    env = dict(os.environ)
    env.pop("SUDORULES_DEBUG", None)  # an internal error must show as such, not as a traceback
    env.pop("PYTHONIOENCODING", None)
    return env


def run(args: list[str], cwd: Path, *, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, timeout: float = 120,
        prefix: Optional[list[str]] = None, **kwargs) -> subprocess.CompletedProcess:
    """Run ``sudorules ARGS`` (through ``python -m sudorules``); stdout / stderr decoded as text."""
    result = subprocess.run((prefix or []) + CMD + [str(a) for a in args], cwd=cwd, stdin=stdin, stdout=stdout,
                            stderr=subprocess.PIPE, timeout=timeout, env=_env(), **kwargs)
    result.stdout = (result.stdout or b"").decode("utf-8", "replace")
    result.stderr = result.stderr.decode("utf-8", "replace")
    return result


def as_a_foreground_job() -> None:
    """In a started command's process, before exec: SIGINT and SIGQUIT at their defaults, as a
    terminal gives its foreground job, whatever this test process inherited.  A suite started as a
    script's background job (``pytest &`` in a non-interactive shell) ignores them, its processes
    pass that on, and the command rightly keeps an ignored SIGINT ignored
    (test_an_ignored_ctrl_c_stays_ignored): test_signal_while_workers_start failed so, exit 0 and every
    row rated, in the suites this project's sessions ran in the background (/proc of the command:
    SigIgn 0x1001006, SIGINT and SIGQUIT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def start(args: list[str], cwd: Path, **kwargs) -> subprocess.Popen:
    """Start ``sudorules ARGS`` in the background (stderr to a pipe, stdout to /dev/null unless given),
    Ctrl-C at its default (:func:`as_a_foreground_job`) unless ``preexec_fn`` says otherwise."""
    kwargs.setdefault("stdout", subprocess.DEVNULL)
    kwargs.setdefault("preexec_fn", as_a_foreground_job)
    return subprocess.Popen(CMD + [str(a) for a in args], cwd=cwd, stdin=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=_env(), **kwargs)


def describe(result) -> str:
    return (f"exit {result.returncode}\n--- stdout (start) ---\n{str(result.stdout)[:2000]}"
            f"\n--- stderr ---\n{result.stderr[:4000]}")


def assert_clean(stderr: str, what: str = "") -> None:
    for word in BAD_WORDS:
        assert word not in stderr, f"{word!r} on stderr{what}:\n{stderr[:4000]}"


def error_lines(stderr: str, usage_ok: bool) -> list[str]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    if usage_ok:
        lines = [line for line in lines if not line.startswith(("Usage:", "Try '"))]
    return lines


def assert_error(result, code: int, *fragments: str, usage_ok: bool = False) -> str:
    """Exit status ``code`` and one ``Error: `` line naming every fragment (case-insensitive)."""
    assert_clean(result.stderr)
    assert result.returncode == code, describe(result)
    lines = error_lines(result.stderr, usage_ok)
    assert len(lines) == 1 and lines[0].startswith("Error: "), (
        f"expected one 'Error: ' line on stderr\n{describe(result)}")
    for fragment in fragments:
        assert fragment.lower() in lines[0].lower(), f"{fragment!r} not in {lines[0]!r}"
    return lines[0]


def assert_ok(result) -> None:
    assert_clean(result.stderr)
    assert result.returncode == 0, describe(result)


def demo_puzzles() -> list[str]:
    return [line.split()[0] for line in DEMO.read_text().splitlines() if line.strip() and not line.startswith("#")]


def csv_rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def grid_form(puzzle: str) -> str:
    """The README's multi-line grid form, with borders (about 340 characters)."""
    rows = [puzzle[9 * r: 9 * r + 9] for r in range(9)]
    border = "+-------+-------+-------+"
    out = []
    for r, row in enumerate(rows):
        if r % 3 == 0:
            out.append(border)
        out.append("| " + " | ".join(" ".join(row[3 * b: 3 * b + 3]) for b in range(3)) + " |")
    out.append(border)
    return "\n".join(out)


def rated_csv(path: Path, n: int = 12) -> Path:
    """A small rate-style CSV written by hand (no rating run needed): puzzle, clues, W, status, ..."""
    puzzles = demo_puzzles()[:n]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(RATE_HEADER)
        for i, puzzle in enumerate(puzzles):
            clues = sum(c != "." for c in puzzle)
            writer.writerow([puzzle, clues, i % 4, "solved", "0.010", "", ""])
    return path


# processes ---------------------------------------------------------------------------------------


def _stat_fields(pid: int) -> Optional[list[str]]:
    """Fields of /proc/PID/stat after the command name: [state, ppid, ..., starttime at 19]."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return data[data.rindex(")") + 2:].split()


def _is_resource_tracker(pid: int) -> bool:
    """True for multiprocessing's resource tracker, which every ``spawn`` parent starts beside its
    workers (``SUDORULES_START_METHOD=spawn``); it is no worker, and ends when its parent does."""
    try:
        return b"multiprocessing.resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def children(pid: int) -> list[tuple[int, str]]:
    """(pid, start time) of the live processes whose parent is ``pid`` (its workers; not the
    resource tracker of a ``spawn`` run)."""
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if (fields is not None and int(fields[1]) == pid and fields[0] not in "ZX"
                    and not _is_resource_tracker(int(entry))):
                kids.append((int(entry), fields[19]))
    return kids


def alive(kids: list[tuple[int, str]]) -> list[int]:
    """The processes of ``kids`` still alive (same pid and start time, not a zombie)."""
    left = []
    for pid, started in kids:
        fields = _stat_fields(pid)
        if fields is not None and fields[19] == started and fields[0] not in "ZX":
            left.append(pid)
    return left


def wait_gone(kids: list[tuple[int, str]], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while alive(kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(kids)


def wait_for(condition, process: Optional[subprocess.Popen], seconds: float = 60.0, what: str = "") -> None:
    """Poll ``condition()`` until true; fail if ``process`` ends first or time runs out."""
    deadline = time.monotonic() + seconds
    while not condition():
        if process is not None and process.poll() is not None:
            said = process.stderr.read().decode(errors="replace") if process.stderr is not None else ""
            pytest.fail(f"the command ended (exit {process.returncode}) before {what}:\n{said[:3000]}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def data_rows(path: Path) -> int:
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except OSError:
        return 0


def stop(process: subprocess.Popen, signum: int, group: bool = False) -> None:
    if process.poll() is None:
        (os.killpg if group else os.kill)(process.pid, signum)


def finish(process: subprocess.Popen, timeout: float = 20.0) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"the command did not end within {timeout} s of the signal:\n{err.decode(errors='replace')}")
    return process.returncode, err.decode("utf-8", "replace")


#: The command's signal state (/proc) when signal_when last sent its signal, for a failure message (a
#: lost Ctrl-C: ignored, blocked, or caught and not acted on?)
LAST_SIGNAL_STATE: list[str] = []


def _signal_state(pid: int) -> str:
    """The command's signal masks (/proc: pending, blocked, ignored, caught; each thread's blocked)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
        state = [line for line in lines
                 if line.startswith(("Threads", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt"))]
        for task in sorted(os.listdir(f"/proc/{pid}/task")):
            blocked = [line for line in Path(f"/proc/{pid}/task/{task}/status").read_text().splitlines()
                       if line.startswith(("SigBlk", "SigPnd"))]
            state.append(f"thread {task}: " + " ".join(blocked))
        return "; ".join(state)
    except OSError as error:
        return f"(/proc/{pid}: {error})"


def signal_when(process: subprocess.Popen, ready, signum: int, what: str, group: bool = False,
                seconds: float = 60.0, timeout: float = 20.0) -> tuple[int, str, list[tuple[int, str]]]:
    """Wait until ``ready()`` (failing if the command ends first: see :func:`wait_for`), send
    ``signum`` (to the process group with ``group``: Ctrl-C reaches them all), wait for the end.
    Returns the exit status, stderr (when it is a pipe, else "") and the children the command had
    when it was signalled.  The command is killed if anything fails on the way."""
    try:
        wait_for(ready, process, seconds=seconds, what=what)
        kids = children(process.pid)
        if process.poll() is not None:  # the test, not the command, was too slow: nothing was signalled
            pytest.fail(f"the command ended (exit {process.returncode}) before the signal could be sent "
                        f"once {what} was seen")
        LAST_SIGNAL_STATE[:] = [f"when signalled: {_signal_state(process.pid)}"]
        stop(process, signum, group=group)
        if process.stderr is not None:
            code, err = finish(process, timeout=timeout)
        else:
            code, err = process.wait(timeout=timeout), ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return code, err, kids


def assert_complete_rate_file(path: Path, puzzles: list[str], columns: list[str] = RATE_HEADER) -> list[list[str]]:
    """The file has one header, then complete rows for a prefix of ``puzzles``, in order, no duplicate."""
    data = path.read_bytes()
    assert data.endswith(b"\n"), f"{path.name} ends with a partial row: {data[-200:]!r}"
    rows = csv_rows(path)
    assert rows[0] == columns, rows[:2]
    assert sum(row == columns for row in rows) == 1, "more than one header"
    body = rows[1:]
    assert len(body) <= len(puzzles), f"{len(body)} rows for {len(puzzles)} puzzles"
    for i, row in enumerate(body):
        assert len(row) == len(columns), f"row {i + 1} is incomplete: {row}"
        assert row[0] == puzzles[i], f"row {i + 1} is for {row[0]}, expected {puzzles[i]} (input order)"
    return body


# root-only set-ups ----------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _can_unshare() -> bool:
    if not IS_ROOT or shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    try:
        return subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def read_only_prefix(directory: Path) -> list[str]:
    """A command prefix that runs the command with ``directory`` mounted read-only (root: a private
    mount namespace, which nobody else sees); skips where impossible."""
    if not IS_ROOT:
        directory.chmod(0o555)
        return []
    if not _can_unshare():
        pytest.skip("root bypasses permissions and no private mount namespace is available")
    return ["unshare", "-m", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
            str(directory)]


def make_char_device(path: Path) -> None:
    """A character device like /dev/null (1, 3) at ``path``; root only."""
    if not IS_ROOT:
        pytest.skip("creating a device needs root")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))


# Output commands: each writes to ``target`` given as -o / --plot; ``stdout`` says whether it writes
# its main output there (stats --plot writes a picture; its report goes to stdout anyway).
def output_args(command: str, target: str, tmp_path: Path) -> list[str]:
    if command == "check":
        return ["check", EASY, "-o", target]
    if command == "generate":
        return ["generate", "--method", "top-down", "-n", "3", "--seed", "1", "-o", target]
    if command == "rate":
        (tmp_path / "one.txt").write_text(EASY + "\n")
        return ["rate", "one.txt", "--jobs", "1", "-o", target]
    if command == "stats":
        rated_csv(tmp_path / "rated.csv")
        return ["stats", "rated.csv", "--plot", target]
    raise AssertionError(command)


def output_name(command: str, stem: str = "out") -> str:
    return f"{stem}.png" if command == "stats" else f"{stem}.csv" if command in ("check", "rate") else f"{stem}.txt"


def skip_without_matplotlib(command: str) -> None:
    if command == "stats":
        pytest.importorskip("matplotlib")


OUTPUT_COMMANDS = ["check", "generate", "stats", pytest.param("rate", marks=_SLOW)]


# ----------------------------------------------------------------------------------------------
# output files


@pytest.mark.parametrize("command", ["check", "generate", pytest.param("rate", marks=_SLOW)])
def test_dev_null_stays_a_character_device(command, tmp_path):
    """-o /dev/null: written directly, never replaced by a regular file (as root a rename would).
    Run in a private mount namespace whose /dev is a fresh tmpfs holding its own null device, so a
    failure cannot damage the machine's /dev/null."""
    if not _can_unshare():
        pytest.skip("needs root and a private mount namespace (unshare -m)")
    mark = tmp_path / "dev-null-type"
    script = ('mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 || exit 99; '
              '"$@"; rc=$?; stat -c %F /dev/null > "$0"; exit $rc')
    result = run(output_args(command, "/dev/null", tmp_path), tmp_path,
                 prefix=["unshare", "-m", "sh", "-c", script, str(mark)])
    assert result.returncode != 99, "could not set up the private /dev"
    assert mark.read_text().strip() == "character special file", (
        f"{command} -o /dev/null replaced the device with a {mark.read_text().strip()}\n{describe(result)}")
    assert_ok(result)


@pytest.mark.parametrize("command", ["stats", pytest.param("check", marks=_SLOW), pytest.param("generate", marks=_SLOW),
                                     pytest.param("rate", marks=_SLOW)])
def test_existing_device_is_written_directly(command, tmp_path):
    """An existing character device as the target (here a null device of our own, named like an
    output) is written directly and stays a device."""
    skip_without_matplotlib(command)
    target = tmp_path / output_name(command, "device")
    make_char_device(target)
    result = run(output_args(command, target.name, tmp_path), tmp_path)
    assert stat.S_ISCHR(os.lstat(target).st_mode), f"{command} replaced the device {target.name}\n{describe(result)}"
    assert_ok(result)
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")], "a temporary file was left"


@pytest.mark.parametrize("command", ["check", "generate", pytest.param("rate", marks=_SLOW)])
def test_dev_stdout_appends_to_the_shells_file(command, tmp_path):
    """-o /dev/stdout with stdout redirected (>>) to a file: the output is appended to that file,
    which keeps what the shell had written."""
    log = tmp_path / "log.txt"
    log.write_text("written by the shell\n")
    with open(log, "ab") as stdout:
        result = run(output_args(command, "/dev/stdout", tmp_path), tmp_path, stdout=stdout)
    assert_ok(result)
    text = log.read_text()
    assert text.startswith("written by the shell\n"), text[:500]
    body = text[len("written by the shell\n"):].splitlines()
    if command == "generate":
        assert len(body) == 3 and all(len(line.split()[0]) == 81 for line in body), text
    else:
        assert body[0].startswith("puzzle,clues,") and body[1].startswith(EASY), text
    assert stat.S_ISREG(os.stat(log).st_mode)


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_output_in_a_missing_directory(command, tmp_path):
    skip_without_matplotlib(command)
    target = f"nodir/{output_name(command)}"
    result = run(output_args(command, target, tmp_path), tmp_path)
    assert_error(result, 2, "nodir", usage_ok=True)
    assert not (tmp_path / "nodir").exists()


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_output_in_a_read_only_directory(command, tmp_path):
    skip_without_matplotlib(command)
    locked = tmp_path / "locked"
    locked.mkdir()
    args = output_args(command, str(locked / output_name(command)), tmp_path)
    prefix = read_only_prefix(locked)
    try:
        result = run(args, tmp_path, prefix=prefix)
    finally:
        locked.chmod(0o755)
    assert_error(result, 2, "locked", usage_ok=True)
    assert list(locked.iterdir()) == []


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_output_empty_name(command, tmp_path):
    skip_without_matplotlib(command)
    result = run(output_args(command, "", tmp_path), tmp_path)
    assert_error(result, 2, usage_ok=True)


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_new_output_file_mode_follows_umask(command, tmp_path):
    """A new file gets 0666 less the umask, as a plain open() gives (mkstemp alone gives 0600)."""
    skip_without_matplotlib(command)
    target = tmp_path / output_name(command)
    result = run(output_args(command, target.name, tmp_path), tmp_path, preexec_fn=lambda: os.umask(0o027))
    assert_ok(result)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640, oct(os.stat(target).st_mode)


@pytest.mark.parametrize("command", ["check", "generate", "stats"])
def test_existing_output_file_keeps_its_mode(command, tmp_path):
    skip_without_matplotlib(command)
    target = tmp_path / output_name(command)
    target.write_text("old content\n")
    target.chmod(0o604)
    result = run(output_args(command, target.name, tmp_path), tmp_path)
    assert_ok(result)
    assert target.read_bytes() != b"old content\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o604, oct(os.stat(target).st_mode)


@pytest.mark.parametrize("command,spelling", [
    ("check", "in.txt"), pytest.param("check", "link.txt", marks=_SLOW), pytest.param("rate", "./in.txt", marks=_SLOW),
    pytest.param("check", "./in.txt", marks=_SLOW), pytest.param("rate", "in.txt", marks=_SLOW),
    pytest.param("rate", "link.txt", marks=_SLOW)])
def test_output_over_the_input_is_refused(command, spelling, tmp_path):
    source = tmp_path / "in.txt"
    content = EASY + "\n" + demo_puzzles()[1] + "\n"
    source.write_text(content)
    (tmp_path / "link.txt").symlink_to("in.txt")
    extra = ["--jobs", "1"] if command == "rate" else []
    result = run([command, "in.txt", *extra, "-o", spelling], tmp_path)
    assert_error(result, 2, "input")
    assert source.read_text() == content
    assert (tmp_path / "link.txt").is_symlink()


# ----------------------------------------------------------------------------------------------
# rate: one run per output, SIGKILL, SIGINT, SIGTERM


def test_second_rate_on_the_same_output_refuses(tmp_path):
    puzzles = demo_puzzles()
    args = ["rate", str(DEMO), "--rating", "gW", "--jobs", "1", "-o", "out.csv"]
    out = tmp_path / "out.csv"
    first = start(args, tmp_path)
    try:
        wait_for(lambda: data_rows(out) >= 1, first, what="the first run's first row")
        began = time.monotonic()
        second = run(args, tmp_path, timeout=60)
        took = time.monotonic() - began
        assert first.poll() is None, "the first run ended before the test could send its signal"
        kids = children(first.pid)
        assert_error(second, 2, "another")
        assert took < 15, f"the second run took {took:.1f} s to refuse"
        stop(first, signal.SIGTERM)
        code, err = finish(first)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert code == 143, f"exit {code}\n{err}"
    assert_clean(err)
    assert not wait_gone(kids), "a worker outlived the first run"
    body = assert_complete_rate_file(out, puzzles, ["puzzle", "clues", "gW", "status", "seconds", "tail", "error"])
    assert len({row[0] for row in body}) == len(body), "duplicated rows"


def _slow_input(tmp_path: Path, hard: int = 4) -> list[str]:
    """6 quick puzzles (rows appear at once) then ``hard`` slow ones."""
    puzzles = demo_puzzles()[:6] + [HARD] * hard
    (tmp_path / "in.txt").write_text("\n".join(puzzles) + "\n")
    return puzzles


def test_sigkill_of_rate_leaves_no_worker_and_resumes(tmp_path):
    puzzles = _slow_input(tmp_path)
    args = ["rate", "in.txt", "--jobs", "2", "--time-limit", "1", "-o", "out.csv"]
    out = tmp_path / "out.csv"
    main = start(args, tmp_path)
    try:
        wait_for(lambda: data_rows(out) >= 2, main, what="the first rows")
        kids = children(main.pid)
        assert kids, "no worker process found under the main process"
        os.kill(main.pid, signal.SIGKILL)
        main.wait(timeout=10)
    finally:
        if main.poll() is None:
            main.kill()
            main.wait()
    left = wait_gone(kids, 10.0)
    try:
        assert not left, f"workers {left} outlived a SIGKILL of the main process {main.pid}"
    finally:
        for pid in left:  # clean up what the bug left behind
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    assert_complete_rate_file(out, puzzles)
    again = run(args, tmp_path, timeout=120)
    assert_ok(again)
    body = assert_complete_rate_file(out, puzzles)
    assert len(body) == len(puzzles), f"{len(body)} rows for {len(puzzles)} puzzles after the resume"


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # what a non-interactive shell gives `cmd &`


def test_an_ignored_ctrl_c_stays_ignored(tmp_path):
    """A command started with SIGINT ignored (a script's background job: ``sudorules rate ... &``)
    keeps it ignored, as POSIX programs do: a Ctrl-C in the terminal that started the script does
    not stop it, nor its workers, and SIGTERM still ends it with the rows kept."""
    puzzles = demo_puzzles() * 20  # tens of seconds: it must still run a second after the Ctrl-C
    (tmp_path / "in.txt").write_text("\n".join(puzzles) + "\n")
    out = tmp_path / "out.csv"
    main = start(["rate", "in.txt", "--jobs", "2", "-o", "out.csv"], tmp_path, start_new_session=True,
                 preexec_fn=_ignore_ctrl_c)
    try:
        wait_for(lambda: data_rows(out) >= 2, main, what="the first rows")
        kids = children(main.pid)
        os.killpg(main.pid, signal.SIGINT)
        time.sleep(1.0)
        assert main.poll() is None, f"ended by an ignored SIGINT: exit {main.returncode}"
        assert kids and alive(kids) == [pid for pid, _ in kids], "a worker ended on the ignored SIGINT"
    finally:
        if main.poll() is None:
            os.kill(main.pid, signal.SIGTERM)
    code, err = finish(main, timeout=60)
    assert code == 128 + signal.SIGTERM, f"exit {code}\n{err}"
    assert_clean(err)
    assert "interrupted after" in err, err
    assert_complete_rate_file(out, puzzles)


def _ignore_hang_up_and_ctrl_c() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # what nohup gives
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # what a non-interactive shell gives `cmd &`


@pytest.mark.parametrize("command", ["generate", "count", "solve"])
def test_ignored_hang_up_and_ctrl_c_stay_ignored_by_every_command(command, tmp_path):
    """generate, count and solve set their own stop handlers over the ignored ones: ``nohup`` did not
    protect them (a SIGHUP ended them with 129) nor did a script's ``cmd &`` (SIGINT: 130), as it
    does rate and the others.  Each now keeps both ignored, and SIGTERM still stops it."""
    (tmp_path / "in.txt").write_text(f"{EASY}\n{LONG_GB_PATH}\n")
    args, ready = {
        "generate": (["generate", "-m", "controlled-bias", "-n", "100000", "-o", "gen.txt", "--progress"],
                     lambda: "/100000" in errors.read_text(errors="replace")),
        "count": (["count", "-m", "subsets", "-s", "60", "--samples", "1000", "--progress"],
                  lambda: "0/1000" in errors.read_text(errors="replace")),
        "solve": (["solve", "in.txt", "--theory", "gB"], lambda: b"\ngB = " in out.read_bytes()),
    }[command]
    errors, out = tmp_path / "stderr.txt", tmp_path / "stdout.txt"
    with open(errors, "wb") as err_handle, open(out, "wb") as out_handle:
        main = subprocess.Popen(CMD + args, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=out_handle,
                                stderr=err_handle, env=_env(), start_new_session=True,
                                preexec_fn=_ignore_hang_up_and_ctrl_c)
    try:
        wait_for(ready, main, what="the command's run")
        main.send_signal(signal.SIGHUP)
        main.send_signal(signal.SIGINT)
        time.sleep(1.0)
        assert main.poll() is None, f"ended by an ignored signal: exit {main.returncode}\n{errors.read_text()}"
        main.send_signal(signal.SIGTERM)
        code = main.wait(timeout=30)
    finally:
        if main.poll() is None:
            main.kill()
            main.wait()
    err = errors.read_text(errors="replace")
    assert code == 128 + signal.SIGTERM, f"exit {code}\n{err}"
    assert_clean(err)
    assert "interrupted" in err, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_rate_interrupted(signum, tmp_path):
    """SIGINT (Ctrl-C: to the whole process group) and SIGTERM (kill PID): complete rows kept, one line
    saying how many and how to resume, exit 130 / 143, no traceback, no worker left."""
    puzzles = _slow_input(tmp_path)
    out = tmp_path / "out.csv"
    main = start(["rate", "in.txt", "--jobs", "2", "-o", "out.csv"], tmp_path, start_new_session=True)
    code, err, kids = signal_when(main, lambda: data_rows(out) >= 2, signum, "the first rows",
                                  group=signum == signal.SIGINT)
    assert kids, "no worker process found under the main process"
    assert code == 128 + signum, f"exit {code}\n{err}"
    assert_clean(err)
    assert "interrupted after" in err and "run the same command again to resume" in err, err
    body = assert_complete_rate_file(out, puzzles)
    said = re.search(r"interrupted after (\d+)", err)
    assert said and int(said.group(1)) == len(body), f"stderr says {err!r}, the file has {len(body)} rows"
    assert not wait_gone(kids, 5.0), "a worker outlived the interrupted run"


def test_rate_interrupted_inside_a_retry_says_how_many_of_the_rows_asked_for(tmp_path):
    """Ctrl-C during ``--retry`` said "interrupted after 1 rows", without the "of M" of any other
    interrupted run (the total is counted only after the retry): it now says how many of the rows
    asked for were rated again (the resume from the side file: test_batch's retry test)."""
    puzzles = [EASY, LONG_GB_PATH, HARD]
    (tmp_path / "in.txt").write_text("\n".join(puzzles) + "\n")
    out = tmp_path / "out.csv"
    out.write_text(",".join(RATE_HEADER) + "\n" + "".join(
        f"{p},{81 - p.count('.')},,timeout,0.100,,W: at least 1\n" for p in puzzles))
    side = tmp_path / "out.csv.retry.csv"
    args = ["rate", "in.txt", "-o", "out.csv", "--retry", "timeout", "--jobs", "1", "--rating", "W"]
    main = start(args, tmp_path, start_new_session=True)
    code, err, _ = signal_when(main, lambda: data_rows(side) >= 1, signal.SIGINT, "the first row retried",
                               group=True)
    assert code == 128 + signal.SIGINT, f"exit {code}\n{err}"
    assert_clean(err)
    assert "interrupted inside --retry after 1 of 3 rows; run the same command again to resume" in err, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_solve_interrupted_during_a_long_puzzle(signum, tmp_path):
    """solve --theory gB on an easy puzzle, then top1465 #182 (about 20 s), stopped as soon as the
    first path is printed: the run is then inside the long puzzle, whatever the machine's load (a
    fixed sleep of 2 s could end before Python had imported the command, issue 27; the B9 puzzle
    under B, once 30 s, now ends in 0.4 s, sometimes before the signal came)."""
    (tmp_path / "in.txt").write_text(f"{EASY}\n{LONG_GB_PATH}\n")
    out = tmp_path / "paths.txt"
    with open(out, "wb") as stdout:
        main = start(["solve", "in.txt", "--theory", "gB"], tmp_path, stdout=stdout, start_new_session=True)
    code, err, _ = signal_when(main, lambda: b"\ngB = " in out.read_bytes(), signum, "the first path",
                               group=signum == signal.SIGINT, timeout=10)
    assert code == 128 + signum, f"exit {code}\n{err}"
    assert_clean(err)
    assert "interrupted at line 2 after 1 puzzle" in err, err
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err


def test_solve_interrupted_in_a_file_keeps_complete_paths(tmp_path):
    """SIGINT while solving a file: every path printed is complete and stderr says how many."""
    out = tmp_path / "paths.txt"
    with open(out, "wb") as stdout:
        main = start(["solve", str(DEMO)], tmp_path, stdout=stdout, start_new_session=True)
        code, err, _ = signal_when(main, lambda: out.read_bytes().count(b"\nW = ") >= 2, signal.SIGINT,
                                   "two complete paths", group=True)
    assert code == 130, f"exit {code}\n{err}"
    assert_clean(err)
    text = out.read_text()
    solved = re.findall(r"^PUZZLE (\d+) IS SOLVED", text, re.M)
    ratings = re.findall(r"^W = \d+$", text, re.M)
    assert solved and len(solved) == len(ratings), (len(solved), len(ratings))
    assert solved == [str(i) for i in range(1, len(solved) + 1)], f"puzzles numbered {solved[:5]}..."
    assert re.search(r"^W = \d+\s*\Z", text, re.M), f"the output ends with a partial path: {text[-300:]!r}"
    said = re.search(r"after (\d+) puzzles?\b", err)
    assert said and int(said.group(1)) == len(solved), err


@pytest.mark.parametrize("signum", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=_SLOW)],
                         ids=["SIGINT", "SIGTERM"])
def test_count_interrupted_inside_a_sample(signum, tmp_path):
    """count honours Ctrl-C / kill inside one long sample (size 60 subsets: a sample takes minutes),
    signalled once its progress bar says it runs (not after a fixed sleep, issue 27)."""
    errors = tmp_path / "stderr.txt"
    with open(errors, "wb") as handle:
        main = subprocess.Popen(CMD + ["count", "--method", "subsets", "--size", "60", "--samples", "1", "--progress"],
                                cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=handle,
                                env=_env(), start_new_session=True)
    code, _, _ = signal_when(main, lambda: "0/1" in errors.read_text(errors="replace"), signum, "the progress bar",
                             group=signum == signal.SIGINT, timeout=10)
    err = errors.read_text(errors="replace")
    assert code == 128 + signum, f"exit {code}\n{err}"
    assert_clean(err)
    assert "interrupted" in err, err


def test_count_warns_about_an_expensive_size(tmp_path):
    """The issue: count warns when --size makes one sample very expensive (subsets of 60 cells).  No
    sample completes in 0.6 s: the run then fails, one error line saying so (status 1)."""
    result = run(["count", "--method", "subsets", "--size", "60", "--minutes", "0.01"], tmp_path, timeout=60)
    assert_clean(result.stderr)
    assert result.returncode == 1 and result.stdout == "", describe(result)
    assert re.search(r"size", result.stderr, re.I), f"no warning about --size 60 on stderr\n{describe(result)}"
    assert result.stderr.splitlines()[-1] == ("Error: time limit: no sample completed in --minutes 0.01 "
                                              "(1 sample in progress abandoned); give more time"), result.stderr


# ----------------------------------------------------------------------------------------------
# input


@pytest.mark.parametrize("command", ["check", "solve", "rate", pytest.param("stats", marks=_SLOW)])
def test_byte_order_mark_is_skipped(command, tmp_path):
    second = demo_puzzles()[1]
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + f"{EASY}\n{second}\n".encode())
    extra = {"rate": ["--jobs", "1"], "stats": ["--raw"]}.get(command, [])
    result = run([command, "bom.txt", *extra], tmp_path)
    assert_ok(result)
    if command in ("check", "rate"):
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert [row["puzzle"] for row in rows] == [EASY, second], result.stdout
        assert all(row["error"] == "" for row in rows), result.stdout
    elif command == "solve":
        assert len(re.findall(r"IS SOLVED", result.stdout)) == 2, result.stdout[-500:]


@pytest.mark.parametrize("command", ["check", "solve"])
def test_puzzle_argument_in_grid_form(command, tmp_path):
    grid = grid_form(EASY)
    assert len(grid) > 300 and "\n" in grid
    result = run([command, grid], tmp_path)
    assert_ok(result)
    if command == "check":
        assert EASY + ",24,1,true," in result.stdout, result.stdout
    else:
        assert "IS SOLVED" in result.stdout and "W = 2" in result.stdout, result.stdout[-500:]


def pencilmarks(puzzle: str) -> str:
    """The 729-character pencilmark (sukaku) form: nine positions per cell, digit d at position d."""
    return "".join("123456789" if c == "." else "." * (int(c) - 1) + c + "." * (9 - int(c)) for c in puzzle)


@pytest.mark.parametrize("command,where", [("check", "argument"), pytest.param("solve", "argument", marks=_SLOW),
                                           ("rate", "file"),
                                           pytest.param("check", "file", marks=_SLOW),
                                           pytest.param("solve", "file", marks=_SLOW)])
def test_pencilmark_line(command, where, tmp_path):
    """A 729-character line is either supported (the puzzle is solved from its candidates) or named
    as pencilmark input with a clear message; never a crash nor a "wrong length"."""
    line = pencilmarks(EASY)
    assert len(line) == 729
    if where == "file":
        (tmp_path / "pm.txt").write_text(line + "\n")
    source = "pm.txt" if where == "file" else line
    extra = ["--jobs", "1"] if command == "rate" else []
    result = run([command, source, *extra], tmp_path)
    assert_clean(result.stderr)
    text = result.stdout + result.stderr
    if result.returncode == 0:  # supported
        expected = {"check": ",24,1,", "solve": "IS SOLVED", "rate": ",solved,"}[command]
        assert expected in text, describe(result)
    else:
        assert result.returncode == 1 and "pencilmark" in text.lower(), describe(result)


@pytest.mark.parametrize("command", ["check", "solve", "rate", pytest.param("stats", marks=_SLOW),
                                     pytest.param("compare", marks=_SLOW)])
def test_missing_input_file(command, tmp_path):
    extra = {"compare": ["--ratings", "W", "B"]}.get(command, [])
    result = run([command, "nonexist.txt", *extra], tmp_path)
    assert_error(result, 2, "nonexist.txt", "no such file")


@pytest.mark.parametrize("command", ["check", "stats", pytest.param("solve", marks=_SLOW), pytest.param("rate", marks=_SLOW),
                                     pytest.param("compare", marks=_SLOW)])
def test_directory_as_input(command, tmp_path):
    (tmp_path / "adir").mkdir()
    extra = {"compare": ["--ratings", "W", "B"]}.get(command, [])
    result = run([command, "adir", *extra], tmp_path)
    assert_error(result, 2, "adir", "directory")


@pytest.mark.parametrize("command", ["check", "solve", pytest.param("rate", marks=_SLOW)])
def test_empty_argument(command, tmp_path):
    result = run([command, ""], tmp_path)
    assert_error(result, 2)


@pytest.mark.parametrize("command,encoding", [
    ("check", "utf-8"), ("rate", "locale"), pytest.param("rate", "utf-8", marks=_SLOW),
    pytest.param("stats", "utf-8", marks=_SLOW),
    pytest.param("check", "locale", marks=_SLOW), pytest.param("solve", "utf-8", marks=_SLOW),
    pytest.param("solve", "locale", marks=_SLOW), pytest.param("stats", "locale", marks=_SLOW),
], ids=lambda value: {"locale": "default", "utf-8": "PYTHONIOENCODING=utf-8"}.get(value, value))
def test_standard_input_that_is_not_utf8(command, encoding, tmp_path):
    """Bytes that are not UTF-8 on stdin: an invalid record or a one-line error, as for a file (whose
    bad bytes are read as U+FFFD), whatever the stdin decoding (a UTF-8 locale decodes strictly)."""
    extra = ["--jobs", "1"] if command == "rate" else []
    env = {"PYTHONIOENCODING": "utf-8"} if encoding == "utf-8" else {}
    result = subprocess.run(CMD + [command, "-", *extra], cwd=tmp_path, input=b"\x80\xff" + EASY[2:].encode() + b"\n",
                            capture_output=True, timeout=60, env={**_env(), **env})
    stderr = result.stderr.decode("utf-8", "replace")
    assert_clean(stderr)
    assert result.returncode in (1, 2), f"exit {result.returncode}\n{stderr}"


def test_unreadable_input(tmp_path):
    if IS_ROOT:
        pytest.skip("root reads any file")
    secret = tmp_path / "secret.txt"
    secret.write_text(EASY + "\n")
    secret.chmod(0)
    result = run(["check", "secret.txt"], tmp_path)
    assert_error(result, 2, "secret.txt", "permission")


def test_generate_grids_directory_and_missing(tmp_path):
    (tmp_path / "adir").mkdir()
    result = run(["generate", "--method", "top-down", "-n", "1", "--grids", "adir"], tmp_path)
    assert_error(result, 2, "adir", "directory", usage_ok=True)
    result = run(["generate", "--method", "top-down", "-n", "1", "--grids", "nonexist.txt"], tmp_path)
    assert_error(result, 2, "nonexist.txt", "no such file", usage_ok=True)


def test_generate_grids_of_a_table_advises_its_grids_not_its_puzzles(tmp_path):
    """``--grids rated.csv``: the advice was to pipe the table's puzzles into rate (helper-38), then to
    select a solution column that a rate table has not (helper-40); the advised pipe now works on any
    of our tables."""
    (tmp_path / "in.txt").write_text(EASY + "\n")
    assert run(["rate", "in.txt", "-o", "rated.csv", "--no-progress"], tmp_path).returncode == 0
    line = assert_error(run(["generate", "-m", "top-down", "-n", "1", "--grids", "rated.csv"], tmp_path), 2,
                        "not a file of grids", "select rated.csv --puzzles | sudorules check - --format '{solution}'")
    assert "rate -" not in line
    puzzles = run(["select", "rated.csv", "--puzzles"], tmp_path).stdout
    grids = subprocess.run(CMD + ["check", "-", "--format", "{solution}"], input=puzzles, cwd=tmp_path,
                           capture_output=True, text=True, env=_env(), timeout=60).stdout
    result = subprocess.run(CMD + ["generate", "-m", "top-down", "-n", "1", "--grids", "-"], input=grids, cwd=tmp_path,
                            capture_output=True, text=True, env=_env(), timeout=60)
    assert result.returncode == 0 and len(result.stdout.split()[0]) == 81, describe(result)


def test_solve_html_to_a_standard_stream_is_refused(tmp_path):
    """``--html /dev/stdout`` mixed the page into the printed paths (helper-40), as ``--html -`` would."""
    with open(tmp_path / "out.txt", "w") as out:
        result = subprocess.run(CMD + ["solve", EASY, "--html", "/dev/stdout"], stdout=out, stderr=subprocess.PIPE,
                                text=True, cwd=tmp_path, env=_env(), timeout=60)
    assert result.returncode == 2 and "the page would mix with the printed path" in result.stderr
    assert (tmp_path / "out.txt").read_text() == ""


def test_a_rate_output_of_other_options_or_no_utf8_header_is_named_in_its_own_bytes(tmp_path):
    """The way out of an output of other columns named --rating but not --canonical; a first line
    that is no UTF-8 was shown with U+FFFD where the file's name shows \\xe9 (helper-38)."""
    (tmp_path / "in.txt").write_text(EASY + "\n")
    assert run(["rate", "in.txt", "-o", "r.csv", "--no-progress"], tmp_path).returncode == 0
    assert_error(run(["rate", "in.txt", "-o", "r.csv", "--canonical"], tmp_path), 2, "--canonical")
    (tmp_path / "x.csv").write_bytes(b"caf\xe9,x\n1,2\n")
    assert_error(run(["rate", "in.txt", "-o", "x.csv"], tmp_path), 2, "its first line is 'caf\\xe9,x'")


def test_generate_bad_grids_line_is_one_error_line(tmp_path):
    (tmp_path / "grids.txt").write_text("garbage\n")
    result = run(["generate", "--method", "top-down", "-n", "1", "--grids", "grids.txt"], tmp_path)
    assert result.returncode in (1, 2), describe(result)
    assert_error(result, result.returncode, "line 1")


# ----------------------------------------------------------------------------------------------
# options and messages


@pytest.mark.parametrize("option", [
    ["--scheduler", "foo"], ["--retry", "bogus"], ["--rating", "W,W"], pytest.param(["--jobs", "0"], marks=_SLOW),
    pytest.param(["--scheduler", "tcp://host"], marks=_SLOW), pytest.param(["--rating", "X"], marks=_SLOW),
    pytest.param(["--rating", ""], marks=_SLOW), pytest.param(["--time-limit", "abc"], marks=_SLOW),
    pytest.param(["--memory-limit", "-1"], marks=_SLOW)], ids=lambda option: " ".join(option))
def test_rate_bad_option_value(option, tmp_path):
    (tmp_path / "in.txt").write_text(EASY + "\n")
    result = run(["rate", "in.txt", *option, "-o", "out.csv"], tmp_path)
    assert_error(result, 2, option[0], usage_ok=True)
    assert not (tmp_path / "out.csv").exists(), "the output was created before the option was rejected"


@pytest.mark.parametrize("command", ["rate", "classify"])
def test_jobs_with_a_scheduler_is_refused_before_any_output(command, tmp_path):
    """--jobs sets local worker processes: with --scheduler it was accepted and silently ignored."""
    (tmp_path / "in.txt").write_text(EASY + "\n")
    result = run([command, "in.txt", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:9", "-o", "out.csv"], tmp_path)
    assert_error(result, 2, "--jobs", "not with --scheduler", usage_ok=True)
    assert not (tmp_path / "out.csv").exists()


def test_rate_missing_input_creates_no_output(tmp_path):
    result = run(["rate", "nonexist.txt", "-o", "x.csv"], tmp_path)
    assert_error(result, 2, "no such file")
    assert not (tmp_path / "x.csv").exists()


def test_rate_all_invalid_exits_1(tmp_path):
    (tmp_path / "bad.txt").write_text("garbage\n" + EASY[:-1] + "x\n" + "12" + EASY[2:] + "\n")
    result = run(["rate", "bad.txt", "--jobs", "1", "-o", "out.csv"], tmp_path)
    assert_clean(result.stderr)
    assert result.returncode == 1, describe(result)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text())))
    assert len(rows) == 3 and all(row["status"] == "invalid" and row["error"] for row in rows), rows


@pytest.mark.parametrize("kind", ["puzzles", pytest.param("rated", marks=_SLOW)])
def test_stats_on_all_invalid_input(kind, tmp_path):
    if kind == "puzzles":
        (tmp_path / "in.txt").write_text("garbage\nmore garbage\n")
    else:
        (tmp_path / "in.txt").write_text("puzzle,clues,W,B,status,seconds,error\n"
                                         "garbage,,,,invalid,0.000,line 1: bad character 'g' at column 1\n"
                                         "xx,,,,invalid,0.000,line 2: bad character 'x' at column 1\n")
    for command in (["stats", "in.txt"], ["compare", "in.txt", "--ratings", "W", "B"]):
        result = run(command, tmp_path)
        assert "Empty DataFrame" not in result.stdout + result.stderr, describe(result)
        assert_error(result, 1)


@pytest.mark.parametrize("extension,magic", [("pdf", b"%PDF"), pytest.param("svg", b"<svg", marks=_SLOW),
                                             pytest.param("png", b"\x89PNG", marks=_SLOW)])
def test_stats_plot_writes_the_format_its_extension_names(extension, magic, tmp_path):
    pytest.importorskip("matplotlib")
    rated_csv(tmp_path / "rated.csv")
    result = run(["stats", "rated.csv", "--plot", f"x.{extension}"], tmp_path)
    assert_ok(result)
    data = (tmp_path / f"x.{extension}").read_bytes()
    if extension == "svg":
        assert magic in data[:2000], data[:200]
    else:
        assert data.startswith(magic), data[:16]


@_SLOW
def test_stats_plot_unsupported_extension(tmp_path):
    rated_csv(tmp_path / "rated.csv")
    result = run(["stats", "rated.csv", "--plot", "x.bogus"], tmp_path)
    assert_error(result, 2, "x.bogus", usage_ok=True)
    assert not (tmp_path / "x.bogus").exists()


PROGRESS_MARKS = ("\r", "it/s", "%|", "puzzle/s", "sample/s")


@pytest.mark.parametrize("args", [
    ["rate", "six.txt", "--jobs", "2", "-o", "out.csv"],
    ["generate", "--method", "top-down", "-n", "20"],
    ["count", "--method", "subsets", "--size", "30", "--samples", "5"],
    ["check", "six.txt", "-o", "out.csv"],
    ["canon", "six.txt"],
], ids=["rate", "generate", "count", "check", "canon"])
def test_no_progress_bar_when_stderr_is_not_a_terminal(args, tmp_path):
    (tmp_path / "six.txt").write_text("\n".join(demo_puzzles()[:6]) + "\n")
    result = run(args, tmp_path)
    assert_ok(result)
    for mark in PROGRESS_MARKS:
        assert mark not in result.stderr, f"progress drawn on a pipe ({mark!r}): {result.stderr[:500]!r}"


@pytest.mark.parametrize("command", ["check", "canon"])
def test_check_and_canon_draw_a_bar_of_the_records_and_say_bad_ones_on_lines_of_their_own(command, tmp_path):
    """check and canon of a million records take minutes: --progress counts the records of the file,
    and a bad record's line is written above the bar, whole, not into it."""
    (tmp_path / "six.txt").write_text("\n".join(demo_puzzles()[:6] + ["garbage"]) + "\n")
    args = [command, "six.txt", "--progress"] + (["--format", "{puzzle}"] if command == "check" else [])
    result = run(args, tmp_path)
    assert result.returncode == 1, result.stderr
    assert "7/7" in result.stderr and "puzzle/s" in result.stderr, result.stderr
    assert "line 7: bad character 'g' at column 1" in result.stderr.replace("\r", "\n").split("\n"), result.stderr
    assert len(result.stdout.splitlines()) == (7 if command == "check" else 6)


def test_singular_in_messages(tmp_path):
    (tmp_path / "one.txt").write_text(EASY + "\n")
    result = run(["rate", "one.txt", "--jobs", "1"], tmp_path)
    assert_ok(result)
    assert "rated 1 puzzle " in result.stderr or result.stderr.rstrip().endswith("rated 1 puzzle"), result.stderr
    count = run(["count", "--method", "subsets", "--size", "30", "--samples", "1", "--jobs", "1"], tmp_path)
    assert_ok(count)
    for wrong in ("1 puzzles", "1 samples", "1 jobs", "1 rows"):
        for name, text in (("rate", result.stderr), ("count", count.stdout + count.stderr)):
            assert not re.search(rf"(?<![\d.,]){wrong}\b", text), f"{name} says {wrong!r}: {text[:400]!r}"


#: a generated puzzle (top-down, seed 77) whose gW run builds thousands of partial g-whips in CLIPS
GW_HEAVY = ".........2...75..66.....87..65.3....48....5.273....1.....9.6......18.4..8.9......"


def test_solve_stops_at_its_memory_limit(tmp_path):
    """``solve --memory-limit`` stops a run whose rules grow the process past the limit with status 5,
    one line on stderr, and the path so far printed whole (the default, the memory available at the
    start, keeps a runaway gW run from the kernel's OOM killer: top1465 #182 took 24 GB in 260 s)."""
    stopped = run(["solve", GW_HEAVY, "--theory", "gW", "--memory-limit", "1"], tmp_path)
    assert stopped.returncode == 5, stopped.stderr
    assert stopped.stderr.strip() == "PUZZLE 0: memory limit of 1 MiB reached; stopped"
    assert "MEMORY LIMIT REACHED" in stopped.stdout and "Final resolution state:" in stopped.stdout
    free = run(["solve", GW_HEAVY, "--theory", "gW", "--memory-limit", "0"], tmp_path)
    assert free.returncode == 0 and "PUZZLE 0 IS SOLVED" in free.stdout
    bad = run(["solve", GW_HEAVY, "--memory-limit", "-3"], tmp_path)
    assert bad.returncode == 2 and "Invalid value for '--memory-limit'" in bad.stderr and "Traceback" not in bad.stderr


# ----------------------------------------------------------------------------------------------
# twelfth session: a user's smoke test of the wheel (each case failed before its fix)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["check", DEMO], ["solve", EASY], ["canon", DEMO]])
def test_a_full_disk_on_standard_output_is_told_as_one(args, tmp_path):
    """A command writing to standard output as it goes, on a full disk: the documented one-line
    error (as ``rate`` gives it) with status 1, not an internal error."""
    with open("/dev/full", "wb") as full:
        result = run(args, tmp_path, stdout=full)
    assert_error(result, 1, "standard output: no space left on device (disk full)")


def test_a_time_limit_past_what_a_timer_can_hold_is_refused(tmp_path):
    """``--time-limit 1e10`` overflowed the watchdog timer's time_t: a thread's traceback, then exit 0."""
    assert_error(run(["solve", EASY, "--time-limit", "1e10"], tmp_path), 2, "--time-limit", "maximum",
                 usage_ok=True)
    assert_ok(run(["solve", EASY, "--time-limit", "1e9"], tmp_path))


def test_select_refuses_a_condition_nested_too_deeply(tmp_path):
    rated = tmp_path / "rated.csv"
    rated.write_text("puzzle,W\n" + EASY + ",2\n")
    assert_error(run(["select", rated, "--where", "(" * 600 + "W > 1" + ")" * 600], tmp_path), 2,
                 "--where", "nested")


@pytest.mark.parametrize("value", ["W,,B", "W,"])
def test_an_empty_name_in_a_list_option_is_refused(value, tmp_path):
    assert_error(run(["rate", DEMO, "--rating", value], tmp_path), 2, "--rating", "empty name", usage_ok=True)


def test_rate_takes_a_puzzle_as_its_argument_as_classify_does(tmp_path):
    result = run(["rate", EASY, "--rating", "W,B", "--jobs", "1"], tmp_path)
    assert_ok(result)
    assert result.stdout.splitlines()[1].startswith(f"{EASY},24,2,2,solved,")


def test_a_file_name_that_names_no_file_is_not_read_as_a_puzzle(tmp_path):
    """A missing file whose name holds 17 digits was parsed as a puzzle: "bad character 't'", status 1."""
    assert_error(run(["check", "20240101123456789000.txt"], tmp_path), 2, "no such file")


def test_solve_names_the_puzzle_given_as_its_path_does(tmp_path):
    """The puzzle given as the argument is PUZZLE 0 in the path, so in solve's messages too."""
    no_solution = "71" + EASY[2:]
    result = run(["solve", no_solution], tmp_path)
    assert result.returncode == 1 and result.stderr.startswith("PUZZLE 0: "), describe(result)
    assert "no solution" in result.stderr


def test_solve_html_does_not_replace_a_file_that_is_no_page(tmp_path):
    """``solve --html puzzles.txt`` replaced a puzzle file with the page; an earlier page is replaced."""
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(EASY + "\n")
    assert_error(run(["solve", EASY, "--html", puzzles], tmp_path), 2, "not an HTML page")
    assert puzzles.read_text() == EASY + "\n"
    page = tmp_path / "page.html"
    for _ in range(2):
        assert_ok(run(["solve", EASY, "--html", page], tmp_path))
    assert page.read_bytes().startswith(b"<!DOCTYPE html>")


def test_solve_html_keeps_a_file_written_there_during_the_run(tmp_path):
    """The page is written at the end: a file written at its name meanwhile (another run's CSV, the
    user's notes) was replaced, status 0 (helper-38); now it is kept and the page goes aside."""
    source = tmp_path / "in.txt"
    source.write_text(f"{EASY}\n{HARD}\n")
    page, printed = tmp_path / "page.html", tmp_path / "paths.txt"
    with open(printed, "wb") as out:
        process = start(["solve", source, "--theory", "W", "--html", page], tmp_path, stdout=out)
        try:
            wait_for(lambda: printed.stat().st_size > 0, process, what="the first path")
            page.write_text("my notes\n")
            code, err = finish(process, timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
    assert code == 2 and "another program wrote it while this run did" in err, err
    assert page.read_text() == "my notes\n"
    kept = list(tmp_path.glob("page.kept-*.html"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"<!DOCTYPE html>")


def test_solve_html_stopped_writes_the_page_of_the_paths_printed_and_none_says_so(tmp_path):
    """SIGTERM (or Ctrl-C) after the first path: the page shows that path, and the last line says so
    (no page at all before); no puzzle to show: no page, and a line says so, where an earlier page
    left unchanged passed for this run's."""
    source = tmp_path / "in.txt"
    source.write_text(f"{EASY}\n{HARD}\n{HARD}\n")
    page, printed = tmp_path / "page.html", tmp_path / "paths.txt"
    with open(printed, "wb") as out:
        code, err, _ = signal_when(start(["solve", source, "--theory", "W", "--html", page], tmp_path, stdout=out),
                                   lambda: printed.stat().st_size > 0, signal.SIGTERM, "the first path")
    assert code == 143 and "their paths are on the --html page" in err.splitlines()[-1], err
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and EASY.replace(".", "0") in text.replace(".", "0")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run(["solve", empty, "--html", page], tmp_path)
    assert result.returncode == 0 and "no page written: no puzzle to show" in result.stderr, describe(result)
    assert page.read_text() == text


def test_solve_html_with_a_closed_stdout_writes_the_page_of_the_paths_printed(tmp_path):
    """``solve FILE --html page | head``: the reader gone, the run ended quietly with 141 and no page,
    where an interrupt writes the page of the paths printed (helper-43)."""
    source = tmp_path / "in.txt"
    source.write_text(f"{EASY}\n{EASY}\n{HARD}\n{HARD}\n")
    page = tmp_path / "page.html"
    process = start(["solve", source, "--theory", "W", "--html", page], tmp_path, stdout=subprocess.PIPE)
    seen = b""
    while b"IS SOLVED" not in seen:  # the first path, whole
        seen += process.stdout.readline()
    process.stdout.close()  # the reader goes, as head does
    code = process.wait(timeout=300)
    err = process.stderr.read().decode() if process.stderr else ""
    assert code == 141 and "Traceback" not in err and "Error" not in err, err
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and EASY.replace(".", "0") in text.replace(".", "0")


def test_solve_html_and_svg_that_collide_are_refused_before_any_work(tmp_path):
    """``--html same --svg same`` printed every path and drew every step, then failed on the page;
    ``--html DIR/step-001.svg`` put the page where a drawing goes."""
    assert_error(run(["solve", EASY, "--html", "same", "--svg", "same"], tmp_path), 2, "is also the --svg directory")
    assert not (tmp_path / "same").exists()
    result = run(["solve", EASY, "--svg", "drawn", "--html", "drawn/step-001.svg"], tmp_path)
    assert_error(result, 2, "is a drawing --svg drawn writes")
    assert result.stdout == "" and not (tmp_path / "drawn" / "step-001.svg").exists()
    assert_ok(run(["solve", EASY, "--svg", "drawn", "--html", "drawn/page.html"], tmp_path))


@pytest.mark.parametrize("name", ["x.parquet", "X.PARQUET"])
def test_a_csv_command_does_not_write_under_a_parquet_name(name, tmp_path):
    """``check -o x.parquet`` (``select`` too) wrote CSV under that name, which stats and select then
    read as Parquet; rate -o OUT.PARQUET is Parquet (the name is read in any case).  canon and
    generate wrote text under it too."""
    for args in (["check", DEMO], ["canon", DEMO], ["generate", "-m", "top-down", "-n", "1"]):
        assert_error(run([*args, "-o", name], tmp_path), 2, "not Parquet")
        assert not (tmp_path / name).exists()


# ----------------------------------------------------------------------------------------------
# a lead's review: options that changed nothing, and a machine's limit reported as a bug


def test_solve_brief_is_refused_where_it_shortens_nothing(tmp_path):
    """``solve --brief --theory BC`` printed the full path, --brief silently ignored: only T&E steps
    have a context to leave out, and only the text path shows them (JSON keeps them to read back)."""
    for args in (["--theory", "BC"], ["--theory", "W"], ["--theory", "TE1", "--format", "json"]):
        result = run(["solve", EASY, "--brief", *args], tmp_path)
        assert_error(result, 2, "--brief", usage_ok=True)
        assert result.stdout == ""
    brief = run(["solve", EASY, "--brief", "--theory", "te1"], tmp_path)
    assert_ok(brief)
    assert "T&E-depth = 1" in brief.stdout


@pytest.mark.parametrize("command, target, args", [
    ("select", "read_table", ["select", "rated.csv"]),
    ("solve", "records_from_argument", ["solve", EASY]),
])
def test_out_of_memory_is_one_error_line_for_every_command(command, target, args, tmp_path, monkeypatch):
    """A MemoryError outside ``count`` (which says it itself) was an "internal error" asking for a
    report: the run hit the machine's limit, no bug.  In-process (CliRunner): a real one would take
    the test machine's memory."""
    import importlib

    from click.testing import CliRunner

    from sudorules.cli import main

    def too_big(*_args, **_kwargs):
        raise MemoryError

    monkeypatch.setattr(importlib.import_module(f"sudorules.cli.{command}"), target, too_big)
    monkeypatch.delenv("SUDORULES_DEBUG", raising=False)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert_clean(result.stderr)
    assert result.stderr.startswith("Error: out of memory") and result.stderr.count("\n") == 1, result.stderr


def test_solve_refuses_an_argument_holding_several_puzzles(tmp_path):
    """Two lines of puzzles given as the argument were both PUZZLE 0, the second's drawings written
    over the first's (helper-43); one puzzle in the grid form is still one."""
    two = f"{EASY}\n{EASY}"
    result = run(["solve", two, "--svg", tmp_path / "steps"], tmp_path)
    assert result.returncode == 2 and "the argument holds 2 puzzles" in result.stderr, describe(result)
    assert not (tmp_path / "steps").exists()
    grid = "\n".join(EASY[9 * r: 9 * r + 9] for r in range(9))
    result = run(["solve", grid], tmp_path)
    assert result.returncode == 0 and "PUZZLE 0 IS SOLVED" in result.stdout, describe(result)
