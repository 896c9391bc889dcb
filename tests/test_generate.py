"""Generators and counting (issue 4): minimal unique outputs, reproducible seeds, given grids used in
order, the tries column, counting checked against a brute-force enumeration, clean CLI errors; and
(issue 10) a stopped run keeps a prefix of the full run, --grids errors are one line.  The stopping of
count is tested in test_count_stop.py."""

from __future__ import annotations

import math
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from sudorules import _generate, core
from sudorules.errors import OptionError
from sudorules.cli import main
from sudorules.generation.count import count_in, count_minimals
from sudorules.generation.generate import BadGrid, GridsExhausted, Stop, generate, generate_frame, parse_grids, puzzle_strings
from sudorules.reader import read_puzzles


def _assert_minimal_and_distinct(puzzles: np.ndarray) -> None:
    assert core.is_minimal_batch(puzzles).all()
    assert len({p.tobytes() for p in puzzles}) == len(puzzles)


@pytest.mark.parametrize("method,n", [("bottom-up", 60), ("top-down", 200)])
def test_outputs_are_unique_and_minimal(method, n):
    batch = generate(method, n, seed=11, jobs=2)
    assert batch.puzzles.shape == (n, 81)
    _assert_minimal_and_distinct(batch.puzzles)
    clues = (batch.puzzles > 0).sum(axis=1)
    assert 17 <= clues.min() and clues.max() <= 40


def test_controlled_bias_puzzles_and_tries():
    batch = generate("controlled-bias", 2, seed=5)
    _assert_minimal_and_distinct(batch.puzzles)
    assert (batch.tries >= 1).all()


def test_jobs_do_not_change_the_output():
    one = generate("top-down", 50, seed=3, jobs=1)
    two = generate("top-down", 50, seed=3, jobs=2)
    other = generate("top-down", 50, seed=4, jobs=2)
    assert (one.puzzles == two.puzzles).all()
    assert not (one.puzzles == other.puzzles).all()


def test_top_down_uses_the_given_grids_in_order():
    grids = core.random_grids(30, seed=9)
    batch = generate("top-down", 30, seed=1, grids=[g.tolist() for g in grids])
    _assert_minimal_and_distinct(batch.puzzles)
    for puzzle, grid in zip(batch.puzzles, grids):
        assert core.solve(puzzle).givens == tuple(grid.tolist())


def test_controlled_bias_uses_the_given_grids_in_order():
    grids = core.random_grids(200_000, seed=2)
    batch = generate("controlled-bias", 1, seed=1, grids=grids, untested=46)
    assert len(batch.puzzles) == 1
    used = int(batch.tries[0])
    assert core.solve(batch.puzzles[0]).givens == tuple(grids[used - 1].tolist())


def test_untested_stops_where_puzzles_stop_coming():
    """--untested N keeps only the puzzles of at most 81 - N clues: 57 still gives one in about a second
    (seed 1: 515,918 grids), 58 to 64 were accepted and ran on for minutes or for ever, silently."""
    from sudorules import OptionError

    batch = generate("controlled-bias", 1, seed=1, untested=57)
    assert (batch.puzzles > 0).sum() <= 81 - 57 and int(batch.tries[0]) == 515_918
    stopped = Stop()
    stopped.set()  # without the check, the run would end at once with no puzzle, not go on for ever
    for untested in (58, 64):
        with pytest.raises(OptionError, match=f"untested: {untested} is not in 0..57"):
            generate("controlled-bias", 1, seed=1, untested=untested, stop=stopped)
    grid = "".join(map(str, core.random_grids(1, seed=1)[0]))  # one grid: without the check, exit 1 at once
    result = CliRunner().invoke(main, ["generate", "-m", "controlled-bias", "-n", "1", "--untested", "58",
                                       "--grids", "-", "--no-progress"], input=grid + "\n")
    assert result.exit_code == 2 and "'--untested': 58 is not in the range 0<=x<=57" in result.stderr


def test_given_grids_running_out_is_reported():
    grids = core.random_grids(3, seed=2)
    with pytest.raises(GridsExhausted):
        generate("top-down", 5, seed=1, grids=grids)


def test_bad_grid_lines_name_the_line():
    grid = "".join(map(str, core.random_grids(1, seed=1)[0]))
    with pytest.raises(BadGrid, match="line 2"):
        list(parse_grids([grid, grid[:80] + "0"]))
    swapped = grid[1] + grid[0] + grid[2:]
    with pytest.raises(ValueError, match="line 1: column"):
        list(parse_grids([swapped]))


def test_cli_seed_reproduces_the_file_and_tries_parse(tmp_path):
    runner = CliRunner()
    files = []
    for jobs in (1, 2):
        out = tmp_path / f"cb{jobs}.txt"
        result = runner.invoke(main, ["generate", "--method", "controlled-bias", "-n", "1", "--seed", "8",
                                      "--jobs", str(jobs), "--no-progress", "-o", str(out)])
        assert result.exit_code == 0, result.output
        files.append(out.read_text())
    assert files[0] == files[1]
    records = list(read_puzzles(files[0].splitlines()))
    assert len(records) == 1 and all(r.ok for r in records)
    assert all(int(r.tail) >= 1 for r in records)
    puzzles = np.array([r.puzzle.givens for r in records], dtype=np.uint8)
    _assert_minimal_and_distinct(puzzles)


def test_cli_grids_from_stdin_in_order():
    grids = core.random_grids(4, seed=6)
    text = "\n".join("".join(map(str, g)) for g in grids) + "\n"
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "4", "--grids", "-",
                                       "--no-progress"], input=text)
    assert result.exit_code == 0, result.output
    lines = result.output.split()
    assert len(lines) == 4
    for line, grid in zip(lines, grids):
        assert core.solve(line).givens == tuple(grid.tolist())


@pytest.mark.parametrize("arguments,message", [
    (["generate", "-m", "bottom-up", "-n", "3", "--grids", "-"], "bottom-up"),
    (["generate", "-m", "top-down", "-n", "3", "--untested", "40"], "--untested"),
    (["generate", "-m", "sideways", "-n", "3"], "sideways"),
    (["generate", "-m", "top-down", "-n", "0"], "-n"),
    (["generate", "-m", "top-down", "-n", "2", "--grids", "/nonexistent/grids.txt"], "no such file"),
    (["count", "-m", "subsets", "--size", "30"], "--minutes"),
    (["count", "-m", "subsets", "--size", "30", "--samples", "5", "--max-clues", "33"], "--max-clues"),
    (["count", "-m", "subsets", "--size", "12", "--samples", "5"], "--size"),
])
def test_cli_bad_arguments_are_usage_errors(arguments, message):
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2
    assert "Error" in result.output and message in result.output


def test_cli_bad_grid_file_is_a_clean_error(tmp_path):
    bad = tmp_path / "grids.txt"
    bad.write_text("123\n")
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "1", "--grids", str(bad),
                                       "--no-progress", "-o", str(out)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: --grids {bad}: line 1: not a complete grid (expected 81 digits 1-9)\n"
    assert not out.exists() and not list(tmp_path.glob(".out.txt.*"))


@pytest.mark.parametrize("name,message", [("adir", "adir: is a directory"),
                                          ("missing.txt", "missing.txt: no such file"),
                                          ("", "the file name is empty")])
def test_cli_grids_that_cannot_be_read_are_input_errors(name, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "1", "--grids", name, "-o", "out.txt"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --grids") and message in lines[0], result.stderr
    assert not (tmp_path / "out.txt").exists()


def test_cli_grids_with_a_byte_order_mark_and_not_over_themselves(tmp_path):
    grids = core.random_grids(2, seed=3)
    source = tmp_path / "grids.txt"
    source.write_bytes(b"\xef\xbb\xbf" + "".join("".join(map(str, g)) + "\n" for g in grids).encode())
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "2", "--grids", str(source)])
    assert result.exit_code == 0, result.output
    assert [core.solve(line).givens for line in result.stdout.split()] == [tuple(g.tolist()) for g in grids]
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "2", "--grids", str(source),
                                       "-o", str(source)])
    assert result.exit_code == 2 and result.stderr.startswith("Error: ") and "input" in result.stderr
    assert source.read_bytes().startswith(b"\xef\xbb\xbf")


def test_cli_grids_running_out_keeps_the_puzzles_made(tmp_path):
    grids = core.random_grids(2, seed=3)
    source = tmp_path / "grids.txt"
    source.write_text("".join("".join(map(str, g)) + "\n" for g in grids))
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "5", "--grids", str(source),
                                       "-o", str(out)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: the complete grids ran out after 2 of 5 puzzles")
    assert len(out.read_text().split()) == 2


def test_cli_grids_running_out_before_any_puzzle_leaves_the_old_file(tmp_path):
    """Three grids make no controlled-bias puzzle (one takes thousands): an older -o file was replaced
    by an empty one; a run that made nothing now leaves it as it was, and says so."""
    source = tmp_path / "g3.txt"
    source.write_text("".join("".join(map(str, g)) + "\n" for g in core.random_grids(3, seed=5)))
    old = tmp_path / "old.txt"
    old.write_text("".join(f"{i}\n" for i in range(1, 1001)))
    result = CliRunner().invoke(main, ["generate", "-m", "controlled-bias", "-n", "2", "--grids", str(source),
                                       "-o", str(old), "--no-progress"])
    assert result.exit_code == 1, result.output
    assert old.read_text() == "".join(f"{i}\n" for i in range(1, 1001))
    assert result.stderr == f"Error: the complete grids ran out after 0 of 2 puzzles; {old} left as it was\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g3.txt", "old.txt"]  # no temporary file left


def _terminated_once(process: subprocess.Popen, err: Path, ready) -> str:
    """SIGTERM to a ``generate --progress`` run once ``ready(its stderr so far)``; its whole stderr."""
    try:
        end = time.monotonic() + 60
        while not ready(err.read_text(errors="replace")):
            assert process.poll() is None and time.monotonic() < end, err.read_text(errors="replace")
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return err.read_text(errors="replace")


def test_cli_generate_stopped_before_any_puzzle_leaves_the_old_file(tmp_path):
    """SIGTERM while generate -o waits for its second --grids line (one grid makes no controlled-bias
    puzzle): the old file is left as it was (it was replaced by an empty one), status 143."""
    old, err = tmp_path / "old.txt", tmp_path / "stderr.txt"
    old.write_text("kept\n")
    with open(err, "wb") as handle:
        process = subprocess.Popen([sys.executable, "-m", "sudorules", "generate", "-m", "controlled-bias", "-n", "2",
                                    "--grids", "-", "-o", "old.txt", "--progress"], cwd=tmp_path,
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=handle)
    try:
        process.stdin.write("".join(map(str, core.random_grids(1, seed=5)[0])).encode() + b"\n")
        process.stdin.flush()
        stderr = _terminated_once(process, err, lambda said: "0/2" in said)  # running, reading standard input
    finally:
        process.stdin.close()
    assert process.returncode == 143, stderr
    assert old.read_text() == "kept\n"
    assert stderr.endswith("interrupted after 0 puzzles; old.txt left as it was\n"), stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt", "stderr.txt"]


def test_a_stopped_run_is_a_prefix_of_the_full_run():
    stop = Stop()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    try:
        batch = generate("top-down", 200_000, seed=3, jobs=2, stop=stop)  # about 20 s unless stopped
    finally:
        timer.cancel()
    made = len(batch.puzzles)
    assert stop.is_set() and 0 < made < 200_000
    assert (batch.puzzles == generate("top-down", made, seed=3).puzzles).all()


def test_a_stopped_controlled_bias_run_ends_between_grids():
    stop = Stop()
    out: dict = {}
    worker = threading.Thread(target=lambda: out.update(batch=generate("controlled-bias", 30, seed=2, stop=stop)),
                              daemon=True)
    worker.start()  # 30 puzzles take a minute or more: each needs ~10^5 grids, a few seconds
    time.sleep(0.3)
    stop.set()
    worker.join(20)
    assert not worker.is_alive(), "the stopped run did not end"
    assert len(out["batch"].puzzles) < 30
    _assert_minimal_and_distinct(out["batch"].puzzles)


@pytest.mark.parametrize("method,count", [(0, 100_000), (1, 200_000), (2, 30)],
                         ids=["bottom-up", "top-down", "controlled-bias"])
def test_one_c_call_stops_between_puzzles(method, count):
    """One generate_batch call of about 20 s or more, stopped after 0.3 s: it returns at once with the
    puzzles it completed, the same as those of an unstopped call."""
    from sudorules import _generate

    stop = Stop()
    puzzles, tries = np.zeros((count, 81), np.uint8), np.zeros(count, np.int64)
    out: dict = {}
    worker = threading.Thread(daemon=True, target=lambda: out.update(
        made=_generate.generate_batch(method, 4, 0, 46, puzzles, tries, None, stop)))
    worker.start()
    time.sleep(0.3)
    stop.set()
    worker.join(20)
    assert not worker.is_alive(), "the stopped call did not return"
    made = out["made"]
    assert 0 <= made < count
    again, again_tries = np.zeros((made, 81), np.uint8), np.zeros(made, np.int64)
    assert _generate.generate_batch(method, 4, 0, 46, again, again_tries) == made
    assert (again == puzzles[:made]).all() and (again_tries == tries[:made]).all()


def test_cli_generate_terminated_keeps_the_complete_puzzles(tmp_path):
    """SIGTERM of ``generate -o``: exit 143, the file holds the puzzles made (a prefix of the full run,
    complete lines only), stderr says how many, no traceback and no temporary file left."""
    out, err = tmp_path / "out.txt", tmp_path / "stderr.txt"
    with open(err, "wb") as handle:
        process = subprocess.Popen([sys.executable, "-m", "sudorules", "generate", "-m", "top-down", "-n", "10000000",
                                    "--seed", "5", "--jobs", "2", "-o", str(out), "--progress"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=handle)
    stderr = _terminated_once(process, err, lambda said: re.search(r"[1-9]\d*/10000000", said))  # some made
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr
    said = re.search(r"interrupted after (\d+) puzzles?\n", stderr)
    assert said, stderr
    text = out.read_text()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == int(said.group(1)) > 0
    assert lines == puzzle_strings(generate("top-down", len(lines), seed=5).puzzles)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "stderr.txt"]


def _brute_force_minimal_subsets(grid: np.ndarray, cells: list[int]) -> np.ndarray:
    """Every unique sub-puzzle by breadth-first deletion; minimal = no unique child."""
    start = frozenset(cells)
    unique, frontier, found = {start}, [start], np.zeros(82, np.int64)

    def is_unique(subset):
        puzzle = np.zeros(81, np.uint8)
        index = list(subset)
        puzzle[index] = grid[index]
        return core.count_solutions(puzzle) == 1

    while frontier:
        following = []
        for subset in frontier:
            has_child = False
            for cell in subset:
                child = subset - {cell}
                if child in unique or is_unique(child):
                    has_child = True
                    if child not in unique:
                        unique.add(child)
                        following.append(child)
            if not has_child:
                found[len(subset)] += 1
        frontier = following
    return found


def test_subsets_enumeration_matches_brute_force():
    rng = np.random.default_rng(4)
    grids = core.random_grids(3000, seed=4)
    checked = 0
    for grid in grids:
        cells = rng.choice(81, 28, replace=False).tolist()
        puzzle = np.zeros(81, np.uint8)
        puzzle[cells] = grid[cells]
        if core.count_solutions(puzzle) != 1:
            continue
        expected = _brute_force_minimal_subsets(grid, cells)
        assert (count_in("subsets", grid, cells) == expected).all()
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_a_full_visited_cache_gives_the_same_subsets_counts():
    """The subsets enumeration's cache of visited puzzles is capped (its growth without bound took
    24 GB at --size 81); when full it is emptied and the solver answers what it forgot.  A cache of
    1024 slots (512 puzzles) on subsets with 600 or more minimal puzzles (as many puzzles visited)
    must count the same."""
    rng = np.random.default_rng(11)
    checked = 0
    for grid in core.random_grids(200, seed=11):
        chosen = np.zeros(81, np.uint8)
        chosen[rng.choice(81, 33, replace=False)] = 1
        counts = []
        for slots in ((), (1024,)):
            found = np.zeros(82, np.int64)
            _generate.count_in(0, grid.astype(np.uint8).tobytes(), chosen.tobytes(), 81, found, *slots)
            counts.append(found)
        assert (counts[0] == counts[1]).all(), (counts[0][counts[0] > 0], counts[1][counts[1] > 0])
        checked += counts[0].sum() >= 600
        if checked == 2:
            break
    assert checked == 2


def test_supersets_count_the_minimal_puzzles_around_a_subset():
    grid = core.random_grids(1, seed=12)[0]
    puzzle = generate("top-down", 1, seed=0, grids=grid.reshape(1, 81)).puzzles[0]
    clues = np.nonzero(puzzle)[0].tolist()
    found = count_in("supersets", grid, clues[:-1], max_clues=len(clues))
    assert found[len(clues)] >= 1  # the puzzle itself
    assert found.sum() == found[len(clues) - 1:len(clues) + 1].sum()


def test_count_run_gives_finite_estimates_with_error_bars():
    result = count_minimals("subsets", 30, samples=4000, seed=1, jobs=2)
    table = result.table()
    assert result.samples == 4000
    rows = table[table["clues"] != "all"]
    assert len(rows) >= 3
    assert all(math.isfinite(v) and v > 0 for v in rows["per_grid"])
    busy = rows[rows["count"] >= 10]
    assert len(busy) >= 2 and all(0 < r < 1 for r in busy["rel_err"])
    again = count_minimals("subsets", 30, samples=4000, seed=1, jobs=1).table()
    assert again.equals(table)


def test_grid_weights_come_with_the_same_puzzles():
    plain = generate("top-down", 20, seed=6)
    weighted = generate("top-down", 20, seed=6, weights=True)
    assert (plain.puzzles == weighted.puzzles).all() and plain.weights is None
    assert (weighted.weights > 0).all() and len(set(weighted.weights.tolist())) > 1
    with pytest.raises(ValueError):
        generate("bottom-up", 2, seed=1, weights=True)


def test_frame_and_strings():
    frame = generate_frame("top-down", 3, 1)
    assert list(frame.columns) == ["puzzle", "clues", "tries"]
    assert all(len(p) == 81 for p in frame["puzzle"])
    assert puzzle_strings(np.zeros((1, 81), np.uint8)) == ["." * 81]


def test_weighted_counting_reweights_the_same_samples():
    weighted = count_minimals("subsets", 30, samples=3000, seed=2, weighted=True)
    plain = count_minimals("subsets", 30, samples=3000, seed=2, weighted=False)
    assert (weighted.found == plain.found).all() and weighted.found.sum() > 0
    assert not np.allclose(weighted.sum_v, plain.sum_v)


@pytest.mark.parametrize("method", ["bottom-up", "top-down", "controlled-bias"])
def test_runs_of_consecutive_starts_concatenate_to_the_one_run(method):
    """Puzzle i of a run depends on (seed, i) only: --start K -n M gives puzzles K..K+M-1, so a long
    run can be made in chunks (helper-39 had to take other seeds), each as reproducible."""
    whole = generate(method, 3, seed=5)
    parts = [generate(method, 1, seed=5), generate(method, 2, seed=5, start=1, jobs=2)]
    assert np.array_equal(np.concatenate([p.puzzles for p in parts]), whole.puzzles)
    assert np.array_equal(np.concatenate([p.tries for p in parts]), whole.tries)
    cli = CliRunner().invoke(main, ["generate", "-m", method, "-n", "2", "--seed", "5", "--start", "1"])
    assert cli.exit_code == 0 and [line.split()[0] for line in cli.stdout.splitlines()] == puzzle_strings(parts[1].puzzles)


def test_start_with_given_grids_is_refused():
    grid = str(core.solve("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."))
    with pytest.raises(OptionError, match="^start: the seeded grids only"):
        generate("top-down", 1, seed=1, grids=[grid], start=1)
    result = CliRunner().invoke(main, ["generate", "-m", "top-down", "-n", "1", "--start", "1", "--grids", "-"],
                                input=grid + "\n")
    assert result.exit_code == 2 and "--start: the seeded grids only" in result.output
