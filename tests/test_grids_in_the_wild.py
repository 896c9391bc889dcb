"""Puzzle files as other programs and hands write them (helper-48's round, twenty-first session): a
bad row in a multi-line grid, a grid missing a row, titles, HoDoKu's and Simple Sudoku's borders,
solved grids in groups of nine, a byte-order mark inside a file, serate tails given as arguments,
and the tail of an invalid row.  Each case is read by the file reader, counted by the progress count
(the same record boundaries) and, where a command is involved, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sudorules import check, solve
from sudorules.puzzle import Puzzle
from sudorules.reader import count_records, read_puzzle_file

PUZZLE = "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38"
SOLUTION = "123456789456789123789123456214368975537912864698547312365891247872634591941275638"


def relabelled(k: int) -> str:
    """PUZZLE with its digits shifted by k: another valid puzzle, so that every grid of a file differs."""
    return "".join(c if c == "." else str((int(c) - 1 + k) % 9 + 1) for c in PUZZLE)


def rows_of(puzzle: str, layout: str = "plain") -> list[str]:
    rows = [puzzle[9 * r: 9 * r + 9] for r in range(9)]
    if layout == "sudorules":
        return ["| " + " ".join(row) + " |" for row in rows]
    return rows


def read(path: Path) -> list[tuple[int, bool, str]]:
    """(line, valid, puzzle or reason) of each record, checking the count agrees."""
    records = [(r.line, r.ok, str(r.puzzle) if r.ok else r.error) for r in read_puzzle_file(str(path))]
    assert count_records(str(path)) == (len(records) or None)
    return records


def sudorules(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudorules", *map(str, args)], cwd=cwd, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


@pytest.mark.parametrize("bad", ["long", "short", "latin1"])
@pytest.mark.parametrize("layout", ["plain", "sudorules"])
def test_a_bad_row_in_a_grid_makes_one_invalid_record_and_the_next_grids_are_read(tmp_path, bad, layout):
    """A row of 10 or 8 grid characters, or with a byte that is no UTF-8, ended its grid: the rows
    left joined the next grid, a puzzle that is none of the file's came out valid, and the next
    grids were lost."""
    grids = [rows_of(relabelled(k), layout) for k in range(3)]
    row = grids[0][2]
    if bad == "long":  # a tenth grid character, before the closing border if any
        grids[0][2] = row[:-1] + "6" + row[-1] if layout == "sudorules" else row + "6"
    elif bad == "short":  # the last cell left out
        grids[0][2] = row[:-3] + row[-2:] if layout == "sudorules" else row[:-1]
    data = "\n\n".join("\n".join(g) for g in grids).encode() + b"\n"
    if bad == "latin1":  # a byte that is no UTF-8 in place of a cell
        data = data.replace(row.encode(), row[:4].encode() + b"\xe9" + row[5:].encode(), 1)
    path = tmp_path / "grids.txt"
    path.write_bytes(data)
    records = read(path)
    assert [(line, ok) for line, ok, _ in records] == [(1, False), (11, True), (21, True)], records
    assert [p for _, ok, p in records if ok] == [relabelled(1), relabelled(2)]
    assert "of line 3" in records[0][2]


@pytest.mark.parametrize("between", ["blank", "border"])
def test_a_grid_missing_a_row_does_not_shift_the_grids_after_it(tmp_path, between):
    """Five grids, the first missing its fifth row: all five were invalid, each naming a repeat in a
    grid that is fine.  A blank or border line after a number of rows that is no multiple of three
    now ends the grid cut short."""
    grids = [rows_of(relabelled(k), "sudorules") for k in range(5)]
    del grids[0][4]
    if between == "border":  # SudoRules' and gsf's layout: a border around the grid and between bands
        border = "+-------+-------+-------+"
        bands = [[g[:3], g[3:6], g[6:]] for g in grids]
        bands[0] = [grids[0][:3], grids[0][3:5], grids[0][5:]]  # the band missing its row
        text = "\n".join("\n".join([border] + [line for band in b for line in band + [border]]) for b in bands) + "\n"
    else:
        text = "\n\n".join("\n".join(g) for g in grids) + "\n"
    path = tmp_path / "grids.txt"
    path.write_text(text)
    records = read(path)
    valid = [p for _, ok, p in records if ok]
    assert valid == [relabelled(k) for k in range(1, 5)], records
    if between == "blank":
        assert records[0][1:] == (False, "incomplete grid: 8 of 9 rows") and len(records) == 5
    else:  # the border after the band cut short ends the grid, the rows left are a grid cut short too
        assert [r[1:] for r in records[:2]] == [(False, "incomplete grid: 5 of 9 rows"),
                                               (False, "incomplete grid: 3 of 9 rows")] and len(records) == 6


@pytest.mark.parametrize("separator", ["blank", "border"])
def test_grids_with_a_line_between_every_two_rows_are_still_read(tmp_path, separator):
    """A layout with a blank or border line after every row keeps its grids whole."""
    line = "" if separator == "blank" else "+---+---+---+---+---+---+---+---+---+"
    grids = ["\n".join(f"{row}\n{line}" for row in rows_of(relabelled(k))) for k in range(3)]
    path = tmp_path / "spaced.txt"
    path.write_text(f"{line}\n" + f"\n{line}\n".join(grids) + "\n")
    assert [p for _, ok, p in read(path) if ok] == [relabelled(k) for k in range(3)]


@pytest.mark.parametrize("title", ["ID {:07d}", "Nr.{:06d}", "Puzzle {}"])
@pytest.mark.parametrize("blank", ["", "\n"])
def test_a_short_title_before_each_grid_is_one_invalid_line_not_a_first_row(tmp_path, title, blank):
    """``ID 0000001`` (nine characters, seven of them grid characters) was taken for a first row with
    a typo: 4 grids gave 8 invalid records and no puzzle."""
    text = "".join(title.format(k + 1) + "\n" + "\n".join(rows_of(relabelled(k))) + "\n" + blank for k in range(4))
    path = tmp_path / "titled.txt"
    path.write_text(text)
    records = read(path)
    assert [ok for _, ok, _ in records] == [False, True] * 4, records
    assert [p for _, ok, p in records if ok] == [relabelled(k) for k in range(4)]


def test_hodoku_and_simple_sudoku_borders_make_no_records(tmp_path):
    """HoDoKu's ``.-------.`` / ``:-------+`` / ``'-------'`` and Simple Sudoku's ``*-----------*``
    were invalid records (40 junk rows for 20 puzzles, status 1)."""
    def hodoku(p):
        rows = ["| " + " | ".join(" ".join(r[3 * b: 3 * b + 3]) for b in range(3)) + " |" for r in rows_of(p)]
        return "\n".join([".-------.-------.-------.", *rows[:3], ":-------+-------+-------:", *rows[3:6],
                          ":-------+-------+-------:", *rows[6:], "'-------'-------'-------'"])

    def simple(p):
        rows = ["|" + "|".join(r[3 * b: 3 * b + 3] for b in range(3)) + "|" for r in rows_of(p)]
        return "\n".join(["*-----------*", *rows[:3], "|---+---+---|", *rows[3:6], "|---+---+---|", *rows[6:],
                          "*-----------*"])

    for form in (hodoku, simple):
        path = tmp_path / f"{form.__name__}.txt"
        path.write_text("\n".join(form(relabelled(k)) for k in range(3)) + "\n")
        assert [(ok, p) for _, ok, p in read(path)] == [(True, relabelled(k)) for k in range(3)]
        result = sudorules("check", path.name, cwd=tmp_path)
        assert result.returncode == 0 and result.stdout.count("\n") == 4, result.stdout + result.stderr
    assert Puzzle.from_string(hodoku(PUZZLE)) == Puzzle.from_string(PUZZLE)


def test_a_solved_grid_in_nine_groups_of_nine_digits_is_a_grid_not_candidates(tmp_path):
    """``123456789 456789123 ...`` (nine groups of nine digits) was read as a row of a candidate grid,
    and nine such lines as one pencilmark puzzle with every candidate everywhere."""
    grouped = " ".join(SOLUTION[9 * r: 9 * r + 9] for r in range(9))
    path = tmp_path / "solved.txt"
    path.write_text((grouped + "\n") * 9)
    records = read(path)
    assert records == [(line, True, SOLUTION) for line in range(1, 10)]
    # a candidate grid's cells list their digits in increasing order, and are still read as candidates
    candidates = ["! " + " ".join("123456789" if c == "." else c for c in row) + " !" for row in rows_of(PUZZLE)]
    path.write_text("\n".join(candidates) + "\n")
    ((_, ok, text),) = read(path)
    assert ok and Puzzle.from_string(text).marks == tuple(511 if c == "." else 1 << (int(c) - 1) for c in PUZZLE)


def test_a_byte_order_mark_inside_a_file_is_skipped_as_at_its_start(tmp_path):
    """``cat a.txt b.txt`` of two files each with a BOM: the second file's first puzzle was invalid
    (``bad character '\\ufeff'``); and a BOM before multi-line grids counted one record too many."""
    bom = "\ufeff"
    path = tmp_path / "joined.txt"
    path.write_text(f"{bom}{relabelled(0)}\n{bom}{relabelled(1)} 42\n")
    assert [(ok, p) for _, ok, p in read(path)] == [(True, relabelled(0)), (True, relabelled(1))]
    path.write_text(bom + "\n\n".join("\n".join(rows_of(relabelled(k), "sudorules")) for k in range(2)) + "\n")
    assert [(ok, p) for _, ok, p in read(path)] == [(True, relabelled(0)), (True, relabelled(1))]


@pytest.mark.parametrize("tail", ["ED=9.0/1.2/1.2", ";from/forum"])
def test_a_puzzle_argument_with_a_slash_in_its_tail_is_a_puzzle(tmp_path, tail):
    """serate's ``ED=9.0/1.2/1.2`` after a puzzle given on the command line made it "no such file"
    (any ``/`` did); a ``/`` before the 81st grid character still says a path."""
    argument = PUZZLE + ("" if tail.startswith(";") else " ") + tail
    result = sudorules("check", argument, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith(PUZZLE)
    assert solve(argument).solution == SOLUTION
    missing = sudorules("check", "./data dir/" + PUZZLE[:40] + " x", cwd=tmp_path)
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_a_form_feed_or_line_separator_in_a_puzzle_text_stays_in_its_tail():
    """``str.splitlines`` also ends a line at ``\\f``, ``\\x85`` and U+2028: a puzzle given to the API
    with such a tail was two records where the same line in a file was one."""
    for end in ("\f", "\x85", "\u2028", "\x1c"):
        (row,) = check(f"{PUZZLE} note{end}more").itertuples()
        assert row.puzzle == PUZZLE and row.tail == f"note{end}more", row


def test_an_invalid_rows_tail_is_written_once(tmp_path):
    """An invalid row with a tail held it in its puzzle cell too, and ``select --puzzles`` wrote the
    tail twice (``200314 200314``), no more a count of tries when read again.  A resume of an output
    written the old way still takes those rows for the input's."""
    repeat = "11" + PUZZLE[2:]
    (tmp_path / "in.txt").write_text(f"{repeat} 200314\n{PUZZLE} 17\n")
    result = sudorules("rate", "in.txt", "--rating", "W", "-o", "out.csv", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    rows = (tmp_path / "out.csv").read_text().splitlines()
    assert rows[1].startswith(f"{repeat},") and rows[1].count("200314") == 1, rows
    selected = sudorules("select", "out.csv", "--puzzles", cwd=tmp_path)
    assert selected.stdout.splitlines() == [f"{repeat} 200314", f"{PUZZLE} 17"]
    old = (tmp_path / "out.csv").read_text().replace(f"{repeat},", f"{repeat} 200314,")
    (tmp_path / "out.csv").write_text(old)
    again = sudorules("rate", "in.txt", "--rating", "W", "-o", "out.csv", cwd=tmp_path)
    assert again.returncode == 1 and "rated 0 puzzles" in again.stderr and "2 already done" in again.stderr, again.stderr


def test_invalid_grids_written_by_select_puzzles_stay_one_invalid_record_each(tmp_path):
    """An invalid multi-line grid's puzzle cell held its first row only: ``select --puzzles`` wrote
    nine-character lines that the next reader joined into grids (nine of them, a grid that is none of
    the file's).  The cell holds the grid's rows on one line, again one invalid record."""
    grids = []
    for k in range(9):
        rows = rows_of(relabelled(k), "sudorules")
        rows[4] = rows[4][:4] + "x" + rows[4][5:]  # a typo: each grid one invalid record
        grids.append("\n".join(rows))
    (tmp_path / "in.txt").write_text("\n\n".join(grids) + "\n")
    checked = sudorules("check", "in.txt", "-o", "checked.csv", cwd=tmp_path)
    assert checked.returncode == 1
    selected = sudorules("select", "checked.csv", "--puzzles", "-o", "again.txt", cwd=tmp_path)
    assert selected.returncode == 0, selected.stderr
    lines = (tmp_path / "again.txt").read_text().splitlines()
    assert len(lines) == 9 and lines[0].startswith(" / ".join(rows_of(relabelled(0), "sudorules")[:4]))
    records = read(tmp_path / "again.txt")
    assert [(line, ok) for line, ok, _ in records] == [(k, False) for k in range(1, 10)], records
    assert all(reason.startswith("bad character '/'") for _, _, reason in records)  # the rows' joint
    # a grid with a repeated digit is read whole, and invalid: its cell too is every row
    rows = rows_of(relabelled(0))
    rows[0] = rows[0][0] * 2 + rows[0][2:] if rows[0][0] != "." else "11" + rows[0][2:]
    (tmp_path / "rep.txt").write_text("\n".join(rows) + "\n")
    result = sudorules("check", "rep.txt", cwd=tmp_path)
    assert result.stdout.splitlines()[1].startswith(" / ".join(rows) + ","), result.stdout


@pytest.mark.parametrize("command", ["check", "rate"])
def test_puzzles_of_one_argument_are_named_by_their_line(tmp_path, command):
    """An argument holding several puzzles named each of them PUZZLE 0 (helper-48)."""
    repeat = "11" + PUZZLE[2:]
    result = sudorules(command, f"{PUZZLE}\n{repeat}", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[2].endswith('"PUZZLE 0, line 2: digit 1 repeated in row 1"'), result.stdout
    alone = sudorules(command, repeat, cwd=tmp_path)
    assert alone.stdout.splitlines()[1].endswith(",PUZZLE 0: digit 1 repeated in row 1"), alone.stdout


# helper-49's counterexamples to the first version of the rules: each made a valid puzzle that is none
# of the file's, or lost the next grid

def _bordered(puzzle: str, every_row: bool = False) -> list[str]:
    """SudoRules' layout (``!`` cells, ``+---+`` borders around bands), or a border after every row."""
    border = "+-------+-------+-------+"
    rows = ["! " + " ! ".join(" ".join(puzzle[9 * r + 3 * b: 9 * r + 3 * b + 3]) for b in range(3)) + " !"
            for r in range(9)]
    if every_row:
        return [border] + [line for row in rows for line in (row, border)]
    return [border] + [line for band in range(3) for line in rows[3 * band: 3 * band + 3] + [border]]


def _gsf(puzzle: str) -> list[str]:
    """gsf's layout: bands separated by a border, no outer frame."""
    rows = [" | ".join(" ".join(puzzle[9 * r + 3 * b: 9 * r + 3 * b + 3]) for b in range(3)) for r in range(9)]
    return rows[:3] + ["------+-------+------"] + rows[3:6] + ["------+-------+------"] + rows[6:]


def test_a_row_written_twice_after_a_grid_does_not_shift_the_next(tmp_path):
    """The stray row, then the grid's border, was taken for a layout with a border after every row."""
    first = _bordered(relabelled(0))
    first.insert(-1, first[-2])  # the last row twice
    for between in ([""], []):
        path = tmp_path / "twice.txt"
        path.write_text("\n".join(first + between + _bordered(relabelled(1))) + "\n")
        records = read(path)
        assert [(ok, p) for _, ok, p in records if ok] == [(True, relabelled(0)), (True, relabelled(1))], records
        assert [r[1:] for r in records if not r[1]] == [(False, "incomplete grid: 1 of 9 rows")]
    plain = rows_of(relabelled(0)) + ["........."]
    path.write_text("\n".join(plain + [""] + rows_of(relabelled(1)) + [""] + rows_of(relabelled(2))) + "\n")
    assert [p for _, ok, p in read(path) if ok] == [relabelled(k) for k in range(3)]


def test_a_band_cut_short_in_gsfs_layout_ends_at_the_blank_line(tmp_path):
    """gsf's bands have borders and no outer frame: the six rows left after a band cut short were
    joined to the next grid's first band (six rows, a multiple of three, before the blank line)."""
    first = _gsf(relabelled(0))
    del first[1]
    path = tmp_path / "gsf.txt"
    path.write_text("\n".join(first + [""] + _gsf(relabelled(1)) + [""] + _gsf(relabelled(2))) + "\n")
    records = read(path)
    assert [p for _, ok, p in records if ok] == [relabelled(1), relabelled(2)], records
    assert all(not ok for line, ok, _ in records if line < 10)


def test_a_border_after_every_row_and_a_grid_missing_a_row(tmp_path):
    """Two borders in a row end a grid there too: the grid missing its first row took the next grid's."""
    first = _bordered(relabelled(0), every_row=True)
    del first[1:3]
    path = tmp_path / "every.txt"
    path.write_text("\n".join(first + _bordered(relabelled(1), every_row=True)) + "\n")
    records = read(path)
    assert records[0][1:] == (False, "incomplete grid: 8 of 9 rows") and len(records) == 2
    assert records[1][1:] == (True, relabelled(1))


def test_a_cell_typed_twice_in_a_spaced_grid_is_a_bad_row_not_candidates(tmp_path):
    """``! 4 25 . ! ...`` was a candidate row (``.`` any digit), and the grid a valid pencilmark puzzle."""
    grid = _bordered(relabelled(0))
    row = grid[2].split(" ")
    row[2] = row[2] + "5" if row[2] != "." else "25"
    grid[2] = " ".join(row)
    path = tmp_path / "typed.txt"
    path.write_text("\n".join(grid + [""] + _bordered(relabelled(1))) + "\n")
    records = read(path)
    assert records[0][1] is False and "10 grid characters, not 9, in the row of line 3" in records[0][2], records
    assert records[1][1:] == (True, relabelled(1))


def test_a_bad_row_of_a_candidate_grid_takes_a_rows_place(tmp_path):
    """A candidate row with a cell too many split its grid into several records, and the next was lost."""
    candidates = ["! " + " ".join("123456789" if c == "." else c for c in row) + " !" for row in rows_of(PUZZLE)]
    bad = candidates[:]
    bad[1] = bad[1][:-2] + " 7 !"  # a tenth cell
    path = tmp_path / "candidates.txt"
    path.write_text("\n".join(bad + ["", ""] + candidates) + "\n")
    records = read(path)
    assert [r[1] for r in records] == [False, True], records
    assert records[1][0] == 12
