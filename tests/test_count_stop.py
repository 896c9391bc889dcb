"""count stops inside a sample (issue 10): at the --minutes deadline and on Ctrl-C / SIGTERM, within a
bounded time however long the sample in progress would take, keeping only the complete samples.

The slow samples used here were measured (with the grid sampler of issue 13): subsets of size 39, seed
50: sample 0 takes milliseconds, sample 1 about 23 s, sample 512 (the first of the second batch with
two jobs) over 15 s; every bound below is far shorter.
A run that does not stop inside a sample therefore overruns every bound below by a wide margin.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudorules.cli import main
from sudorules.generation.count import Stop, count_minimals

CMD = [sys.executable, "-m", "sudorules"]
SLOW = dict(method="subsets", size=39, seed=50)  # sample 0 quick, samples 1 and 512 15 s or more


def _run_bounded(limit: float, stop: Stop, **options):
    """count_minimals(stop=stop, **options) in a thread, given ``limit`` seconds, else fail (after
    setting ``stop`` to clean up what a broken deadline left running)."""
    out: dict = {}
    worker = threading.Thread(target=lambda: out.update(result=count_minimals(stop=stop, **options)))
    worker.start()
    worker.join(limit)
    overran = worker.is_alive()
    if overran:
        stop.set()
        worker.join()
    assert not overran, f"count_minimals({options}) still running after {limit} s"
    return out["result"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_deadline_stops_inside_a_sample_and_keeps_only_complete_samples(jobs):
    minutes = 0.01  # 0.6 s
    result = _run_bounded(10 * 60 * minutes, Stop(), minutes=minutes, jobs=jobs, **SLOW)
    assert result.stopped
    # sample 0 is complete, sample 1 (and, with two jobs, sample 512) was abandoned
    assert result.samples == 1 and result.abandoned == jobs
    exact = count_minimals(samples=1, **SLOW)
    assert result.table().equals(exact.table())
    assert (result.found == exact.found).all()


def test_a_stop_request_ends_the_run_with_the_complete_samples():
    stop = Stop()
    timer = threading.Timer(0.5, stop.set)
    timer.start()
    try:
        # 10 samples take minutes; the 30 s deadline is only a safety net if the stop is broken
        result = _run_bounded(10.0, stop, samples=10, minutes=0.5, **SLOW)
    finally:
        timer.cancel()
    assert stop.is_set() and result.stopped and result.samples == 1 and result.abandoned == 1


def _start(args: list[str], tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as handle:
        process = subprocess.Popen(CMD + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=handle,
                                   cwd=tmp_path)
    return process, err


def _wait_for(pattern: str, err: Path, process: subprocess.Popen, timeout: float = 60) -> None:
    """Wait until stderr matches ``pattern`` (the progress bar, drawn once the command runs)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if re.search(pattern, err.read_text(errors="replace")):
            return
        assert process.poll() is None, f"ended early: {err.read_text(errors='replace')}"
        time.sleep(0.05)
    process.kill()
    pytest.fail(f"no {pattern!r} on stderr in {timeout} s")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_cli_count_interrupted_inside_a_sample_prints_the_table(signum, tmp_path):
    process, err = _start(["count", "-m", "subsets", "-s", "39", "--seed", "50", "--samples", "1000",
                           "--jobs", "2", "--progress"], tmp_path)
    try:
        _wait_for(r"0/1000", err, process)
        time.sleep(1.0)  # sample 0 completes; samples 1 and 512 are running (15 s or more each)
        process.send_signal(signum)
        stdout, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    stderr = err.read_text(errors="replace")
    out = stdout.decode()
    assert process.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert "interrupted after 1 sample\n" in stderr, stderr
    assert out.startswith("# subsets method, size 39, weighted grids: 1 sample in "), out
    assert re.search(r"^\s+all\s+\d+", out, re.M), out


def test_cli_count_deadline_says_what_was_abandoned():
    result = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "39", "--seed", "50", "--minutes", "0.01",
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Warning: --size 39" in result.stderr
    assert re.search(r"1 sample in progress abandoned, \d+ complete samples? counted; dropping slow samples "
                     r"may bias the estimate low \(use --samples", result.stderr), result.stderr
    assert "# subsets method, size 39" in result.stdout
    # with --samples as well, --minutes caps it, and the line does not advise --samples
    capped = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "39", "--seed", "50", "--minutes", "0.01",
                                       "--samples", "1000000", "--no-progress"])
    assert capped.exit_code == 0 and "abandoned" in capped.stderr and "use --samples" not in capped.stderr


@pytest.mark.parametrize("arguments,warned", [
    (["-m", "subsets", "-s", "36"], True),
    (["-m", "subsets", "-s", "34"], False),
    (["-m", "supersets", "-s", "22", "--max-clues", "28"], True),
    (["-m", "supersets", "-s", "22", "--max-clues", "27"], False),
    (["-m", "supersets", "-s", "30", "--max-clues", "38"], False),
])
def test_cli_count_warns_before_an_expensive_size(arguments, warned):
    # --minutes tiny: the warning comes before the run, whatever the run then does
    result = CliRunner().invoke(main, ["count", *arguments, "--minutes", "0.001", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert ("Warning:" in result.stderr) == warned, result.stderr
    if warned:
        assert result.stderr.startswith("Warning:") and result.stderr.count("Warning:") == 1


@pytest.mark.parametrize("arguments", [
    ["-m", "subsets", "-s", "30", "--samples", "1500"],
    ["-m", "supersets", "-s", "22", "--max-clues", "26", "--samples", "40"],
    ["-m", "subsets", "-s", "30", "--samples", "1100", "--unweighted", "--csv"],
], ids=["subsets", "supersets", "csv"])
def test_cli_count_samples_output_is_the_same_for_any_jobs(arguments):
    outputs = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(main, ["count", *arguments, "--seed", "7", "--jobs", jobs, "--no-progress"])
        assert result.exit_code == 0, result.output
        # the header line (stdout, or stderr with --csv) names the time and the jobs; the rest is the result
        lines = result.stdout.splitlines()
        outputs.append(lines if "--csv" in arguments else lines[1:])
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) >= 3


def test_cli_count_messages_use_the_singular_for_one():
    result = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "30", "--samples", "1", "--jobs", "1",
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "1 sample in" in result.stdout and "(1 job," in result.stdout, result.stdout
    result = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "30", "--samples", "2", "--jobs", "2",
                                       "--no-progress"])
    assert "2 samples in" in result.stdout and "(2 jobs," in result.stdout, result.stdout


def test_cli_count_with_no_complete_sample_is_an_error_not_a_table_of_nan():
    """--minutes too short for one sample printed a table of nan and exited 0: there is no estimate."""
    result = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "30", "--minutes", "1e-9", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert result.stdout == "" and "nan" not in result.output
    assert result.stderr == "Error: time limit: no sample completed in --minutes 1e-09; give more time\n"
    # a sample was in progress (a subsets sample of 60 cells takes minutes): the line says so
    slow = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "60", "--minutes", "0.005", "--no-progress"])
    assert slow.exit_code == 1 and slow.stdout == "", slow.output
    assert slow.stderr.splitlines()[-1] == ("Error: time limit: no sample completed in --minutes 0.005 "
                                            "(1 sample in progress abandoned); give more time"), slow.stderr


@pytest.mark.parametrize("arguments,clues", [
    (["-m", "supersets", "-s", "26", "--max-clues", "29", "--samples", "300", "--unweighted"], "26-29 clues"),
    (["-m", "subsets", "-s", "30", "--samples", "300"], "17-30 clues"),
    (["-m", "supersets", "-s", "30", "--max-clues", "30", "--samples", "30"], "30 clues"),
])
def test_cli_count_names_the_clue_counts_its_total_covers(arguments, clues):
    """The last line summed the rows counted (27-29 clues) under "all minimal puzzles"."""
    result = CliRunner().invoke(main, ["count", *arguments, "--seed", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    last = result.stdout.splitlines()[-1]
    assert last.startswith((f"# minimal puzzles of {clues}: ", f"# no minimal puzzle of {clues} found")), last
    assert "all minimal puzzles" not in result.stdout


def test_cli_count_that_finds_no_puzzle_says_there_is_no_estimate():
    """Supersets of 28 cells up to 32 clues hold about 5 minimal puzzles a million samples: 200 find
    none, which printed "0.0000e+00 per grid ... in all" as if it were an estimate (helper-39)."""
    arguments = ["count", "-m", "supersets", "-s", "28", "--max-clues", "32", "--samples", "200", "--seed", "3",
                 "--no-progress"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == ("# no minimal puzzle of 28-32 clues found in 200 samples: no estimate "
                                              "(0 with no error bound); take more samples (--samples, --minutes) or a "
                                              "smaller --size")
    assert "per grid;" not in result.stdout
    in_csv = CliRunner().invoke(main, arguments + ["--csv"])
    assert in_csv.exit_code == 0 and "# no minimal puzzle of 28-32 clues found" in in_csv.stderr


def test_cli_count_out_of_memory_is_one_error_line(monkeypatch):
    """A MemoryError (size 45 under ulimit -v, before the enumeration's cache was capped) was an
    "internal error"."""
    def out_of_memory(*_args, **_kwargs):
        raise MemoryError

    monkeypatch.setattr("sudorules.cli.count.count_minimals", out_of_memory)
    result = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "30", "--samples", "5", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert result.stderr == "Error: out of memory (fewer --jobs need less)\n"


#: count_minimals on subsets of all 81 cells for 12 s, printing how far its peak memory grew (MiB)
_GROWTH = """
import resource
from sudorules.generation.count import count_minimals
count_minimals("subsets", 30, samples=10)  # everything imported and allocated once
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = count_minimals("subsets", 81, minutes=0.2, samples=1)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024, result.samples, result.abandoned)
"""


def _at_most_3_gb() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))  # should the cap break: fail, not swap


def test_subsets_memory_stays_bounded_at_any_size():
    """The subsets enumeration kept every puzzle it visited: --size 81 grew to 24 GB in 30 s (the
    kernel killed the machine's largest process), here 300-500 MiB in 12 s; its cache is now at most
    64 MiB (96 MiB while it grows to that)."""
    done = subprocess.run([sys.executable, "-c", _GROWTH], capture_output=True, text=True, timeout=120,
                          preexec_fn=_at_most_3_gb)
    assert done.returncode == 0, done.stderr
    grown, samples, abandoned = done.stdout.split()
    assert (samples, abandoned) == ("0", "1")
    assert float(grown) < 150, f"peak memory grew by {grown} MiB"


def test_cli_count_whose_deadline_dropped_samples_says_so_when_none_found(monkeypatch):
    """Subsets of 40 in half a minute completed 11 samples, all empty (the ones with puzzles are the
    slow ones, dropped at the deadline), and the advice was a larger --size (helper-45)."""
    from sudorules.cli import count as count_cli
    from sudorules.generation.count import CountResult

    def quick_and_empty(method, size, **options):
        return CountResult(method, size, options.get("max_clues") or size, samples=11, abandoned=1, stopped=True,
                           seconds=30.0)

    monkeypatch.setattr(count_cli, "count_minimals", quick_and_empty)
    result = CliRunner().invoke(main, ["count", "-m", "subsets", "-s", "40", "--minutes", "0.5", "--no-progress"])
    assert result.exit_code == 0, result.output
    last = result.stdout.splitlines()[-1]
    assert "in the 11 samples completed, and 1 sample in progress dropped at the --minutes deadline" in last, last
    assert "give --samples K" in last and "a larger --size" not in last
