"""Every command reads an input's records alike, and a user round's edges (eighteenth session): line
ends, bytes that are no UTF-8, compressed files, pencilmark lines, numbers padded with non-ASCII
space, tries that are no count, a standard error that cannot be written, and when a bar is drawn."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudorules import Puzzle, check, read_puzzles, rate
from sudorules.reader import count_records, read_puzzle_file

PUZZLE = "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38"
SOLUTION = "123456789456789123789123456214368975537912864698547312365891247872634591941275638"


def sudorules(*args, cwd: Path, stdin=None, stderr=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudorules", *map(str, args)], cwd=cwd, input=stdin,
                          stdout=subprocess.PIPE, stderr=stderr, timeout=120)


def _stats_json(path: Path) -> dict:
    result = sudorules("stats", path.name, "--json", cwd=path.parent)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_lone_carriage_return_ends_a_line_for_check_stats_and_the_record_count(tmp_path):
    path = tmp_path / "cr.txt"
    path.write_bytes(f"{PUZZLE} 200314\r{PUZZLE}\r123\r".encode())
    records = list(read_puzzle_file(str(path)))
    assert [r.line for r in records] == [1, 2, 3] and count_records(str(path)) == 3
    report = _stats_json(path)
    assert report["rows"] == 3 and report["status"] == {"invalid": 1}


def test_stats_of_a_puzzle_file_takes_a_line_that_is_no_utf8_as_an_invalid_record(tmp_path):
    """check says such a line is invalid and goes on; stats refused the whole file (status 1)."""
    path = tmp_path / "p.txt"
    path.write_bytes(f"{PUZZLE}\n{PUZZLE} caf\xe9\n{PUZZLE} 7\n".encode("latin-1"))
    report = _stats_json(path)
    assert report["rows"] == 3 and report["status"] == {"invalid": 1}
    checked = sudorules("check", path.name, cwd=tmp_path)
    assert "line 2: not UTF-8 text (byte 0xe9" in checked.stdout.decode()
    table = tmp_path / "t.csv"  # in a table it stays an error naming the line, as in select
    table.write_bytes(f"puzzle,W\n{PUZZLE},3\n{PUZZLE},caf\xe9\n".encode("latin-1"))
    for command in (["stats", table.name], ["select", table.name]):
        result = sudorules(*command, cwd=tmp_path)
        assert result.returncode == 1 and b"t.csv line 3: not UTF-8 text (byte 0xe9)" in result.stderr, command


@pytest.mark.parametrize("command", [["stats"], ["select"], ["compare", "--ratings", "W", "B"], ["check"], ["canon"]])
def test_a_compressed_input_is_one_error_of_status_2_in_every_command(tmp_path, command):
    (tmp_path / "r.csv.gz").write_bytes(gzip.compress(f"puzzle,W,B\n{PUZZLE},3,3\n".encode()))
    result = sudorules(command[0], "r.csv.gz", *command[1:], cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert b"r.csv.gz: gzip-compressed, not text: uncompress it first" in result.stderr, result.stderr


def test_pencilmark_lines_take_a_tail_after_a_semicolon_or_a_tab_and_spaces_between_cells(tmp_path):
    cells = ["".join(d if d == c else "." for d in "123456789") if c != "." else "123456789" for c in PUZZLE]
    lines = ["".join(cells) + ";c1", "".join(cells) + "\tt", " ".join(cells), " ".join(cells) + "  200314",
             f"{PUZZLE} " + "1" * 700]
    records = list(read_puzzles(lines))
    assert [r.ok for r in records] == [True] * 5, [r.error for r in records]
    assert all(r.puzzle.is_pencilmark for r in records[:4]) and not records[4].puzzle.is_pencilmark
    assert [r.tail for r in records[:4]] == ["c1", "t", "", "200314"] and len(records[4].tail) == 700
    # and a table's pencilmark puzzle, without a clues column, has the clue count check gives it
    table = tmp_path / "u.csv"
    table.write_text(f"puzzle,W\n{''.join(cells)},3\n{PUZZLE},3\n")
    assert _stats_json(table)["clue_distribution"][0]["clues"] == 27
    assert sum(r["on"] for r in _stats_json(table)["clue_distribution"] if r["clues"] == 27) == 2


def test_numbers_padded_with_non_ascii_space_are_no_numbers_in_stats_as_in_select(tmp_path):
    table = tmp_path / "ws.csv"
    table.write_text(f"puzzle,W,status\n{PUZZLE},3\u00a0,solved\n{PUZZLE},3,solved\n", encoding="utf-8")
    result = sudorules("stats", table.name, cwd=tmp_path)
    assert result.returncode == 1 and "ws.csv line 2: column W: '3\\xa0' is not a number" in result.stderr.decode()
    picked = sudorules("select", table.name, "--where", "W == 3", cwd=tmp_path)
    assert picked.stdout.decode().count(PUZZLE) == 1


@pytest.mark.parametrize("tails, note", [(["0"], None), (["5", "-5"], "tries missing on 1 puzzle"),
                                         (["1e308", "1e308"], "the tries add up to more than a number holds")])
def test_tries_that_are_no_count_of_grids_give_a_note_not_a_crash(tmp_path, tails, note):
    path = tmp_path / "t.txt"
    path.write_text("".join(f"{PUZZLE} {tail}\n" for tail in tails))
    result = sudorules("stats", path.name, cwd=tmp_path)
    assert result.returncode == 0 and not result.stderr, result.stderr
    if note is None:  # no tries count at all: no section (it ended in ZeroDivisionError)
        assert "minimal" not in result.stdout.decode().lower()
    else:
        assert f"Numbers of minimals: {note}" in result.stdout.decode()
    table = tmp_path / "t.csv"  # a tries column of 0 is refused the same way
    table.write_text(f"puzzle,clues,tries\n{PUZZLE},27,0\n{PUZZLE},27,4\n")
    assert "tries of 0 or less on 1 puzzle" in sudorules("stats", table.name, cwd=tmp_path).stdout.decode()


def test_a_puzzle_object_with_a_repeat_is_the_record_its_text_is():
    values = [0 if c == "." else int(c) for c in PUZZLE]
    values[0] = 5
    puzzle = Puzzle(values)
    assert puzzle.conflicts() == ["digit 5 repeated in row 1"]
    for rows in (check(puzzle), check(str(puzzle)), rate(puzzle, "B")):
        assert rows["error"].tolist() == ["line 1: digit 5 repeated in row 1"] and rows["clues"].isna().all()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command, rows", [(["check", "in.txt", "--format", "{puzzle}"], 81),
                                           (["canon", "in.txt"], 41), (["check", "in.txt", "--progress"], 82)])
def test_a_standard_error_that_cannot_be_written_drops_the_messages_not_the_rows(tmp_path, command, rows):
    (tmp_path / "in.txt").write_text("".join(f"{PUZZLE}\n" if k % 2 else "garbage\n" for k in range(1, 82)))
    with open("/dev/full", "wb") as full:
        result = sudorules(*command, cwd=tmp_path, stderr=full)
    assert result.returncode == 1 and len(result.stdout.decode().splitlines()) == rows


@pytest.mark.parametrize("stderr_tty, stdout_tty, rows_on_stdout, given, drawn", [
    (True, False, True, None, True), (True, True, True, None, False), (True, True, False, None, True),
    (False, False, False, None, False), (False, True, True, True, True), (True, False, False, False, False)])
def test_a_bar_is_drawn_by_default_only_where_no_row_goes_to_its_terminal(monkeypatch, stderr_tty, stdout_tty,
                                                                         rows_on_stdout, given, drawn):
    from sudorules.cli.options import shows_progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: stderr_tty, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: stdout_tty, raising=False)
    assert shows_progress(given, rows_on_stdout) is drawn


def test_compare_names_the_rows_that_hold_no_puzzle_as_stats_does(tmp_path):
    table = tmp_path / "un.csv"
    table.write_text(f"puzzle,W,B\n{PUZZLE},3,3\nx,1\n{PUZZLE},4,3\n")
    text = sudorules("compare", table.name, "--ratings", "W", "B", cwd=tmp_path)
    assert text.returncode == 0 and "1 row with no puzzle, not compared: unreadable at line 3" in text.stdout.decode()
    result = json.loads(sudorules("compare", table.name, "--ratings", "W", "B", "--json", cwd=tmp_path).stdout)
    assert result["compared"] == 2
    assert result["counted_nowhere"] == {"unreadable": {"count": 1, "lines": [{"source": "un.csv", "line": 3}]}}


def test_the_record_count_is_the_readers_on_files_of_grids_cut_short(tmp_path):
    """The bar's total and "interrupted after N of M rows" count records as the reader makes them,
    a grid cut short by another line one record (it was counted as its rows' ninths: 0/4, then 6)."""
    import random

    rng = random.Random(3)
    rows = [" ".join(PUZZLE[9 * r: 9 * r + 9]) for r in range(9)]
    candidates = ["! " + " ".join("123456789" if c == "." else c for c in PUZZLE[9 * r: 9 * r + 9]) + " !"
                  for r in range(9)]
    typo, accented = "| . 6 x | . 9 1 | . . . |", "| . 6 é | . 9 1 | . . . |"
    title = "puzzle 123"
    pieces = [[PUZZLE], [PUZZLE + " 7"], ["garbage"], ["123"], ["+-------+"], ["# note"], [""], rows,
              rows[:4], rows[:8], candidates, candidates[:5], ["1 2 3"], [typo], [accented],
              rows[:4] + [typo] + rows[5:], rows[:2] + [accented] + rows[3:6], candidates[:3] + [typo] + candidates[4:],
              [title], rows[:3] + [title], [" ".join(typo)], ["| " + typo],
              [typo] + rows[1:], [typo] + rows[1:4], ["Puzzle_01"] + [row.replace(" ", "") for row in rows]]
    for trial in range(60):
        lines = [line for _ in range(rng.randrange(1, 12)) for line in rng.choice(pieces)]
        path = tmp_path / f"f{trial}.txt"
        path.write_text("\n".join(lines) + "\n")
        assert count_records(str(path)) == (sum(1 for _ in read_puzzle_file(str(path))) or None), lines


def test_a_typo_in_a_multi_line_grid_makes_one_invalid_record_naming_it(tmp_path):
    """A row of nine cells with a bad character in a grid begun is a row of that grid: one invalid
    record naming the line and the character (it made three: helper-38); cut short, the record says
    both."""
    rows = ["| " + " ".join(PUZZLE[9 * r: 9 * r + 9]) + " |" for r in range(9)]
    typo = rows[5][:4] + "x" + rows[5][5:]
    path = tmp_path / "g.txt"
    path.write_text("\n".join(rows[:5] + [typo] + rows[6:] + [PUZZLE]) + "\n")
    records = list(read_puzzle_file(str(path)))
    assert [(r.line, r.ok) for r in records] == [(1, False), (10, True)]
    assert records[0].error == "bad character 'x' at column 5 of line 6" and count_records(str(path)) == 2
    path.write_text("\n".join(rows[:5] + [typo]) + "\n")
    (record,) = read_puzzle_file(str(path))
    assert record.error == "incomplete grid: 6 of 9 rows; bad character 'x' at column 5 of line 6"
    # a line of nine characters laid out otherwise (a title) is no row of the grid cut short before it:
    # it was taken for one, and the next grid was lost (helper-40)
    path.write_text("\n".join(rows[:5] + ["puzzle 123"] + rows) + "\n")
    records = list(read_puzzle_file(str(path)))
    assert [(r.line, r.ok) for r in records] == [(1, False), (6, False), (7, True)] and count_records(str(path)) == 3


def test_a_typo_in_a_grids_first_row_does_not_shift_the_grids_after_it(tmp_path):
    """A first row with a bad character was a record of its own, and every later grid began a row
    late (rows 2-9 of one grid and row 1 of the next: invalid puzzles, or valid wrong ones).  It is
    the grid's first row when a row follows; alone, the one invalid line it was."""
    for rows in (["| " + " ".join(PUZZLE[9 * r: 9 * r + 9]) + " |" for r in range(9)],
                 [PUZZLE[9 * r: 9 * r + 9] for r in range(9)]):
        typo = rows[0].replace(PUZZLE[0], "x", 1) if PUZZLE[0] != "." else rows[0].replace(".", "x", 1)
        path = tmp_path / "g.txt"
        path.write_text("\n".join([typo] + rows[1:] + rows + rows) + "\n")
        records = list(read_puzzle_file(str(path)))
        assert [(r.line, r.ok) for r in records] == [(1, False), (10, True), (19, True)], records
        assert records[0].error.startswith("bad character 'x'") and records[0].error.endswith("of line 1")
        assert records[1].puzzle == records[2].puzzle and count_records(str(path)) == 3
        # alone, followed by a one-line puzzle: the bad line's own record, as before
        path.write_text(f"{typo}\n{PUZZLE}\n")
        records = list(read_puzzle_file(str(path)))
        assert [(r.line, r.ok) for r in records] == [(1, False), (2, True)]
        assert records[0].error.startswith("bad character 'x'") and "of line" not in records[0].error
    # a title of nine characters before a grid of compact rows is no row of it
    path.write_text("\n".join(["Puzzle_01"] + [PUZZLE[9 * r: 9 * r + 9] for r in range(9)]) + "\n")
    assert [(r.line, r.ok) for r in read_puzzle_file(str(path))] == [(1, False), (2, True)]


def test_two_value_files_that_disagree_are_named_not_the_single_input(tmp_path):
    """With one input, a conflict between two --column files named the input (helper-36)."""
    (tmp_path / "t.csv").write_text(f"puzzle,W\n{PUZZLE},3\n")
    (tmp_path / "a.txt").write_text("2\n")
    (tmp_path / "b.txt").write_text("3\n")
    result = sudorules("stats", "t.csv", "--column", "X=a.txt", "--column", "X=b.txt", cwd=tmp_path)
    assert result.returncode == 1
    assert "a.txt line 1 and b.txt line 1: column X differs (2 vs 3)" in result.stderr.decode(), result.stderr
