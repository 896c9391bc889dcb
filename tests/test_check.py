"""`sudorules check`: the library (sudorules.check) and the command, through click and a subprocess."""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudorules import core
from sudorules.batch.check import COLUMNS, check_records
from sudorules.cli import main
from sudorules.reader import read_puzzles

ROOT = Path(__file__).resolve().parent.parent
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY = "." * 81
CLASH = "55" + "." * 79


def rows_of(text):
    return list(csv.DictReader(io.StringIO(text)))


def mixed_input():
    """Lines: a unique minimal puzzle, a bad character, a many-solution grid, a clash, a short line,
    a unique non-minimal puzzle (the complete solution of EASY)."""
    solution = str(core.solve(EASY))
    return "\n".join([EASY + " 12345", "12x" + "." * 78, EMPTY, CLASH, "123", solution]) + "\n"


def test_check_rows_follow_input_order_with_errors_named():
    rows = list(check_records(read_puzzles(mixed_input().splitlines())))
    assert [r.ok for r in rows] == [True, False, True, False, False, True]
    assert (rows[0].solutions, rows[0].minimal, rows[0].clues) == (1, True, 17)
    assert rows[0].solution == str(core.solve(EASY))
    assert (rows[2].solutions, rows[2].minimal, rows[2].solution) == (2, False, None)
    assert (rows[5].solutions, rows[5].minimal, rows[5].clues) == (1, False, 81)
    assert rows[1].error.startswith("line 2: bad character 'x'")
    assert rows[3].error == "line 4: digit 5 repeated in row 1"
    assert rows[4].error.startswith("line 5: wrong length")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="123456789.0 |x-\t", max_size=100), max_size=12))
def test_any_text_gives_one_row_per_record_and_never_raises(lines):
    records = list(read_puzzles(lines))
    rows = list(check_records(records, batch_size=3))
    assert len(rows) == len(records)
    for record, row in zip(records, rows):
        assert row.ok == record.ok
        if row.ok:
            assert row.solutions in (0, 1, 2) and row.clues == record.puzzle.clues
        else:
            assert row.error.startswith(f"line {record.line}: ") and row.solutions is None


def test_small_batches_give_the_same_rows_as_one_batch():
    lines = mixed_input().splitlines() * 3
    assert list(check_records(read_puzzles(lines), batch_size=2)) == list(check_records(read_puzzles(lines)))


def test_the_first_rows_come_after_a_small_batch_then_batches_double():
    """A bar's first rate and `check big.txt | head` need the first rows early: before the first
    row, at most FIRST_BATCH records are read, and the batches grow from there to BATCH_SIZE."""
    from sudorules.reader import BATCH_SIZE, FIRST_BATCH

    read = []

    def counted(records):
        for record in records:
            read.append(record)
            yield record

    lines = [EASY] * (3 * BATCH_SIZE)
    seen_at = []
    for _ in check_records(counted(read_puzzles(lines))):
        seen_at.append(len(read))
    assert seen_at[0] == FIRST_BATCH < BATCH_SIZE
    sizes = sorted(set(seen_at))
    assert [b - a for a, b in zip([0] + sizes, sizes)][:3] == [FIRST_BATCH, 2 * FIRST_BATCH, 4 * FIRST_BATCH]
    assert max(b - a for a, b in zip([0] + sizes, sizes)) == BATCH_SIZE and len(seen_at) == len(lines)


def test_threads_share_the_minimality_tests_and_give_the_same_rows():
    """check --jobs N: each batch's minimality tests in N parts, one a thread; the rows are those of one
    thread, minimal and not (a puzzle with one more given from its solution is not minimal), whatever
    the batch size against the number of threads."""
    demo = (ROOT / "collections" / "demo.txt").read_text().split()[:40]
    lines = []
    for k, text in enumerate(demo):
        solution = str(core.solve(text))
        empty = [i for i, c in enumerate(text) if c in ".0"]
        lines.append(text)
        lines.append(text[:empty[k % len(empty)]] + solution[empty[k % len(empty)]] + text[empty[k % len(empty)] + 1:])
    lines += mixed_input().splitlines()
    alone = list(check_records(read_puzzles(lines), batch_size=7))
    assert sum(r.minimal is True for r in alone) >= 40 and sum(r.minimal is False for r in alone) >= 40
    for jobs, size in ((2, 7), (3, 5), (4, 2), (2, 1)):
        assert list(check_records(read_puzzles(lines), batch_size=size, jobs=jobs)) == alone, (jobs, size)


def test_command_on_a_file_with_bad_lines_writes_every_row_and_exits_1(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(mixed_input())
    result = CliRunner().invoke(main, ["check", str(source)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == ",".join(COLUMNS)
    # one closing line on stderr says how many (status 1 alone said nothing with -o)
    assert result.stderr == "3 records of 6 did not parse (the error column of their rows says why)\n"
    rows = rows_of(result.stdout)
    assert [r["solutions"] for r in rows] == ["1", "", "2", "", "", "1"]
    assert [r["minimal"] for r in rows] == ["true", "", "false", "", "", "false"]
    assert rows[0]["puzzle"] == EASY and rows[0]["error"] == ""
    assert "line 4" in rows[3]["error"]


def test_command_exits_0_when_every_line_parses_and_writes_output_atomically(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(EASY + "\n" + EMPTY + "\n")
    out = tmp_path / "out.csv"
    result = CliRunner().invoke(main, ["check", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output == ""
    rows = rows_of(out.read_text())
    assert [r["solutions"] for r in rows] == ["1", "2"]
    assert sorted(os.listdir(tmp_path)) == ["in.txt", "out.csv"]  # no temporary file left


def test_command_on_a_single_puzzle_argument_and_on_stdin():
    single = CliRunner().invoke(main, ["check", EASY])
    assert single.exit_code == 0
    assert rows_of(single.output)[0]["solution"] == str(core.solve(EASY))
    bad = CliRunner().invoke(main, ["check", CLASH])
    assert bad.exit_code == 1 and "repeated" in rows_of(bad.output)[0]["error"]
    piped = CliRunner().invoke(main, ["check", "-"], input=EASY + "\n")
    assert piped.exit_code == 0 and rows_of(piped.output)[0]["minimal"] == "true"


def test_a_puzzle_given_as_the_argument_is_named_as_solve_names_it(tmp_path, monkeypatch):
    """`check PUZZLE` named the argument `line 1` of a file there was none of (so did rate, classify
    and canon): every command now names it as solve does; a file's record keeps its line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text(CLASH + "\n")
    solved = CliRunner().invoke(main, ["solve", CLASH])
    assert solved.exit_code == 1
    named = solved.stderr.strip()  # solve's one line about the argument: "<name>: <reason>"
    name, reason = named.split(": ", 1)
    assert "repeated" in reason and name != "line 1"
    for command in (["check"], ["rate", "--jobs", "1"], ["classify", "--jobs", "1"]):
        for source, expected in ((CLASH, named), ("in.txt", f"line 1: {reason}")):
            (tmp_path / "out.csv").unlink(missing_ok=True)  # rate resumes an existing output
            result = CliRunner().invoke(main, [*command, source, "-o", "out.csv"])
            assert result.exit_code == 1, (command, source, result.output)
            assert rows_of((tmp_path / "out.csv").read_text())[0]["error"] == expected, (command, source)
    for source, expected in ((CLASH, named), ("in.txt", f"line 1: {reason}")):
        result = CliRunner().invoke(main, ["canon", source])
        assert result.exit_code == 1 and result.stderr.strip() == expected


def test_an_argument_neither_a_file_nor_a_puzzle_is_told_alike_by_every_command(tmp_path, monkeypatch):
    """rate and classify said `NAME: no such file` where check, solve and canon said `NAME: no such
    file (nor a puzzle: ...)` for the same argument (a name, or 80 grid characters and a letter)."""
    monkeypatch.chdir(tmp_path)
    for argument in ("missing.txt", "1" + "." * 79 + "x"):
        said = set()
        for command in ("check", "solve", "canon", "rate", "classify"):
            result = CliRunner().invoke(main, [command, argument])
            assert result.exit_code == 2, (command, result.output)
            said.add(result.stderr.strip())
        assert len(said) == 1 and "nor a puzzle" in said.pop(), (argument, said)


def test_a_missing_file_is_a_usage_error_not_a_puzzle(tmp_path):
    result = CliRunner().invoke(main, ["check", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_python_dash_m_sudorules_check_reads_stdin_and_reports_bad_lines():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "sudorules", "check", "-"], input=mixed_input(),
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 1, done.stderr
    rows = rows_of(done.stdout)
    assert len(rows) == 6 and rows[1]["error"].startswith("line 2:")


def test_demo_collection_checks_clean_unique_and_minimal():
    result = CliRunner().invoke(main, ["check", str(ROOT / "collections" / "demo.txt")])
    assert result.exit_code == 0
    rows = rows_of(result.output)
    assert len(rows) >= 50
    assert all(r["solutions"] == "1" and r["minimal"] == "true" for r in rows)


def test_every_cb001_puzzle_checks_unique_and_minimal(cb001):
    result = CliRunner().invoke(main, ["check", str(cb001 / "puzzles.txt")])
    assert result.exit_code == 0
    rows = rows_of(result.output)
    assert len(rows) == 21695
    assert all(r["solutions"] == "1" and r["minimal"] == "true" and r["error"] == "" for r in rows)
