"""Engine paths re-verified independently, and the `solve` command end to end.

For a stratified sample of the published collection (every W level 0..10, and every B level 0..6),
the path found by the engine must replay cleanly under the independent checker (every Single, whip
and braid re-verified from the definitions), never eliminate a digit of the solution found by the
bitset core, end in that solution, and give the published rating.
"""

import subprocess
import sys

import pytest

from sudorules import core, parse_puzzle
from sudorules.resolution.verify import replay
from sudorules.resolution.notation import read_path

W_LEVELS = range(0, 7)
PER_LEVEL = 2


def _sample(cb001, rating_file="W-ratings.txt"):
    lines = (cb001 / "puzzles.txt").read_text().splitlines()
    ratings = [int(v) for v in (cb001 / rating_file).read_text().split()]
    picked = []
    for level in W_LEVELS:
        rows = [i for i, r in enumerate(ratings) if r == level]
        step = max(1, len(rows) // PER_LEVEL)
        picked += [(i + 1, lines[i].split()[0], level) for i in rows[::step][:PER_LEVEL]]
    return picked


@pytest.fixture(scope="module")
def w_engine():
    from sudorules.engine import Engine

    return Engine(theory="W")


def test_engine_w_paths_replay_and_rate_like_sudorules(cb001, w_engine):
    for line, text, published in _sample(cb001):
        puzzle = parse_puzzle(text)
        count, solution = core.solution_status(puzzle)
        assert count == 1
        resolution = w_engine.solve(puzzle)
        report = replay(puzzle, resolution.steps, list(solution))
        assert report.ok, (line, report.problems[:2])
        assert resolution.solved and report.state.is_solved(), line
        assert resolution.rating == published, (line, resolution.rating, published)


#: the long-whip levels, one puzzle each (line 3753, published W = 9, is the one W difference of the
#: whole file, explained in benchmarks/README.md)
LONG_WHIP_LINES = {7: 527, 8: 4082, 9: 1175, 10: 12301}
#: one puzzle per published B level up to 6 (B7 and above take 20 s to minutes: benchmarks only)
B_LINES = {0: 4, 1: 10, 2: 1, 3: 3, 4: 2, 5: 8, 6: 299}


def _replay_and_rate(cb001, engine, lines_by_level, rating_file):
    puzzles = (cb001 / "puzzles.txt").read_text().splitlines()
    ratings = [int(v) for v in (cb001 / rating_file).read_text().split()]
    for level, line in lines_by_level.items():
        assert ratings[line - 1] == level
        puzzle = parse_puzzle(puzzles[line - 1].split()[0])
        count, solution = core.solution_status(puzzle)
        resolution = engine.solve(puzzle, solution=solution)
        report = replay(puzzle, resolution.steps, list(solution))
        assert report.ok, (line, report.problems[:2])
        assert resolution.solved and report.state.is_solved(), line
        assert resolution.rating == level, (line, resolution.rating, level)


def test_long_whip_levels_replay_and_rate_like_sudorules(cb001, w_engine):
    _replay_and_rate(cb001, w_engine, LONG_WHIP_LINES, "W-ratings.txt")


def test_b_paths_replay_and_rate_like_the_published_b(cb001):
    from sudorules.engine import Engine

    _replay_and_rate(cb001, Engine("B"), B_LINES, "B-ratings.txt")


def _solve(*args, input_text=None):
    return subprocess.run([sys.executable, "-m", "sudorules", "solve", *args], capture_output=True, text=True,
                          input=input_text, timeout=600)


def test_solve_prints_a_verifiable_path_ending_in_the_rating(cb001):
    line, text, published = next(s for s in _sample(cb001) if s[2] == 3)
    result = _solve(text, "--verify")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == text
    assert any(l.startswith("whip[3]: ") for l in lines)
    assert any(l.startswith("PUZZLE 0 IS SOLVED.") for l in lines)
    assert lines[-1] == f"W = {published}"
    puzzle, steps = read_path(result.stdout)
    assert replay(puzzle, steps, list(core.solve(puzzle))).ok


def test_solve_exit_statuses(cb001):
    line, text, _ = next(s for s in _sample(cb001) if s[2] == 2)
    weak = _solve(text, "--theory", "BRT")
    assert weak.returncode == 3 and "IS NOT SOLVED" in weak.stdout and "Final resolution state:" in weak.stdout

    several = _solve("1" + "." * 80)
    assert several.returncode == 1 and several.stderr.strip().endswith("several solutions")
    assert len(several.stderr.strip().splitlines()) == 1

    bad = _solve("12x" + "." * 78)  # a puzzle with a bad character: exit 1, the reason named
    assert bad.returncode == 1 and "bad character 'x' at column 3" in bad.stderr

    missing = _solve("12x")  # too short for a puzzle: a file name that does not exist
    assert missing.returncode == 2 and "12x: no such file" in missing.stderr


def test_time_limit_really_stops_the_run(cb001):
    ratings = [int(v) for v in (cb001 / "W-ratings.txt").read_text().split()]
    hardest = max(range(len(ratings)), key=ratings.__getitem__)
    text = (cb001 / "puzzles.txt").read_text().splitlines()[hardest].split()[0]
    result = _solve(text, "--time-limit", "0.5")
    assert result.returncode == 4, result.stdout[-500:]
    assert "TIME LIMIT" in result.stdout
    assert result.stderr.splitlines()[-1] == "PUZZLE 0: time limit of 0.5 s reached; stopped", result.stderr


def test_solve_b_with_lean_braids_from_an_early_level_verifies_and_rates_the_same(cb001):
    text = (cb001 / "puzzles.txt").read_text().splitlines()[B_LINES[5] - 1].split()[0]
    result = _solve(text, "--theory", "B", "--lean-braids-from", "4", "--verify")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "B = 5" and "verified:" in result.stderr
