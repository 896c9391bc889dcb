"""Working with collections (issue 26): tails kept by check / rate / select, ``--format`` templates,
``select --where`` and ``--split-by``, and stats finding the tries in a rated file.

The sample is the first 12 lines of the published controlled-bias collection cb-001 (puzzle and the
generator's tries), with their published W ratings, copied here so that the tests run without
../shared."""

from __future__ import annotations

import csv
import io
import json
import operator
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudorules.cli import main
from sudorules.collection.expression import Condition
from sudorules.collection.template import RowTemplate
from sudorules.errors import OptionError

CB_SAMPLE = """\
....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38 200314
..3....8..5.78.1....91....52.......6..7....3.6...1.......2..9....16..3..9725...1. 1.16171e+06
1.3.5..8...6....2.......4.5.1.5.......82..34...789.5.23....2..18......3..41...... 433294
12.....8......9.....9.2.4....4..7..6.....1.4..7....35..4..6.5....2374.1....2..9.. 45367
1...56......7...2...9.2.......5.8.76..8..4..19...6...........9.6.......7.713...54 89918
1.....7..456.891....9......2..5.7.9.........4.68...5....2.4.8.66..2....1.9..3.... 40826
.2....7.....7...23..91...6..1.........5..7....6..3..51.386.19......9...49..3..8.6 86076
.23.5.7.9.....91..7..........46.....3......1..9.241.3.5....2.76...8..9.........51 441326
..345..8.4.6...1.3.....3..5.1...59.8...91.5..6.......75423.8.............37.6...4 233177
..3.....9..678....78.1.3.6.21.......3...4........91.42......3.......7...9.15..8.4 1674
...4....9...78.1....9.2...52....53.836...2.948......1..7....2.6638.........5.7... 39917
1....6.89..67......8......5..4.9....3..24.....6...5..2..2.3.694..8....31..1...2.. 192170
"""
CB_W = [2, 4, 3, 0, 3, 4, 2, 5, 2, 1, 0, 2]
CB_LINES = [line.split() for line in CB_SAMPLE.splitlines()]


def run(args, stdin: str = "", code: int = 0):
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def rated(tmp_path_factory) -> Path:
    """The sample rated for W (one worker), as ``rate -o`` writes it."""
    folder = tmp_path_factory.mktemp("rated")
    (folder / "cb.txt").write_text(CB_SAMPLE)
    run(["rate", folder / "cb.txt", "--rating", "W,B", "--jobs", 1, "-o", folder / "cb.csv", "--no-progress"])
    return folder / "cb.csv"


# --- tails ----------------------------------------------------------------------------------------
def test_rate_keeps_each_tail_and_stats_finds_the_tries_in_the_rated_file(rated):
    rows = csv_rows(rated.read_text())
    assert list(rows[0]) == ["puzzle", "clues", "W", "B", "status", "seconds", "tail", "error"]
    assert [(r["puzzle"], r["tail"]) for r in rows] == [(p, t) for p, t in CB_LINES]
    assert [int(r["W"]) for r in rows] == CB_W
    from_puzzles = json.loads(run(["stats", rated.parent / "cb.txt", "--json"]).stdout)["minimals"]
    from_rated = json.loads(run(["stats", rated, "--json"]).stdout)["minimals"]
    assert from_puzzles is not None and from_rated == from_puzzles
    assert from_rated["total_tries"] == pytest.approx(sum(float(t) for _, t in CB_LINES))


def test_check_keeps_tails_of_every_kind_in_the_tail_column(tmp_path):
    serate = "ED=9.0/1.2/1.2"
    lines = [f"{CB_LINES[0][0]} {CB_LINES[0][1]}", f"{CB_LINES[1][0]}\t{serate}", CB_LINES[2][0],
             "1" * 81 + " kept even here"]
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n")
    rows = csv_rows(run(["check", tmp_path / "in.txt"], code=1).stdout)  # the last line is invalid
    assert list(rows[0])[-2:] == ["tail", "error"]
    assert [r["tail"] for r in rows] == [CB_LINES[0][1], serate, "", "kept even here"]
    assert rows[3]["error"] and not rows[0]["error"]


def test_an_output_written_before_tails_resumes_in_its_own_columns(rated, tmp_path):
    """Decision: an old output (no tail column) is resumed, not refused; its columns stay as they
    were, a note says the tails are not there, and every row is the same as a fresh run's."""
    fresh = list(csv.reader(rated.open()))
    at = fresh[0].index("tail")
    old = [row[:at] + row[at + 1:] for row in fresh]
    output = tmp_path / "old.csv"
    timed_out = old[2][:2] + ["", "", "timeout"] + old[2][5:]  # a row to rate again (--retry)
    with output.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(old[:2] + [timed_out] + old[3:5])  # header and 4 rows
    (tmp_path / "cb.txt").write_text(CB_SAMPLE)
    result = run(["rate", tmp_path / "cb.txt", "--rating", "W,B", "--jobs", 1, "-o", output, "--no-progress",
                  "--retry", "timeout"])
    assert "no tail column" in result.stderr and "3 already done" in result.stderr
    assert "1 earlier row replaced" in result.stderr
    resumed = list(csv.reader(output.open()))
    assert resumed[0] == old[0] and len(resumed) == len(old)
    seconds = old[0].index("seconds")
    assert [r[:seconds] + r[seconds + 1:] for r in resumed] == [r[:seconds] + r[seconds + 1:] for r in old]


# --- --format -------------------------------------------------------------------------------------
def test_rate_and_check_format_one_line_per_puzzle_from_the_columns(rated, tmp_path):
    source = rated.parent / "cb.txt"
    # rate writes standard output through its file descriptor (one write per row): a real process
    done = subprocess.run([sys.executable, "-m", "sudorules", "rate", source, "--rating", "W,B", "--jobs", "1",
                           "--no-progress", "--format", "{puzzle} {W} {B} {tail}"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == [f"{r['puzzle']} {r['W']} {r['B']} {r['tail']}" for r in csv_rows(rated.read_text())]
    checked = csv_rows(run(["check", source]).stdout)
    lines = run(["check", source, "--format", "{clues:>3}|{minimal}\\t{tail}"]).stdout.splitlines()
    assert lines == [f"{r['clues']:>3}|{r['minimal']}\t{r['tail']}" for r in checked]


@pytest.mark.parametrize("command", ["rate", "check"])
def test_an_unknown_format_field_is_a_one_line_error_before_any_work(command, tmp_path):
    (tmp_path / "in.txt").write_text(CB_SAMPLE)
    result = run([command, tmp_path / "in.txt", "--format", "{puzzle} {SER}"], code=2)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "unknown column 'SER'" in result.stderr
    assert "rated" not in result.stderr  # rate stopped before its summary: nothing was rated


@pytest.mark.parametrize("command, field, says", [
    ("check", "{clues:.1}", "cannot format clues, whose cells are whole numbers"),
    ("rate", "{seconds:d}", "cannot format seconds, whose cells are decimal numbers"),
    ("classify", "{te_depth:.2}", "cannot format te_depth, whose cells are whole numbers"),
    ("rate", "{status:.2f}", "status is a text, and this spec formats numbers"),
])
def test_a_spec_the_columns_cells_cannot_take_is_refused_before_any_line(command, field, says, tmp_path):
    """check, rate and classify wrote their first lines and then stopped with status 2 on such a spec,
    and {seconds:d} only once a cell was not a whole number (helper-42); select, which has its rows
    first, refused it already.  A spec they take stays (the number formatted as Python does)."""
    (tmp_path / "in.txt").write_text("junk\n" + CB_SAMPLE)
    extra = [] if command == "check" else ["--jobs", 1, "--no-progress"]
    refused = sudorules(command, tmp_path / "in.txt", *extra, "--format", f"{{puzzle:.5}} {field}")
    assert refused.returncode == 2 and refused.stdout == "", refused
    assert refused.stderr.count("\n") == 1 and says in refused.stderr, refused.stderr
    taken = sudorules(command, tmp_path / "in.txt", *extra, "--format", "{clues:03d}|{error:.8}")
    assert taken.returncode == 1 and taken.stdout.splitlines()[0] == "   |line 1: ", taken.stdout
    assert all(line[:3].isdigit() for line in taken.stdout.splitlines()[1:]), taken.stdout


def test_check_says_where_the_reasons_are_when_its_lines_show_them(tmp_path):
    (tmp_path / "in.txt").write_text("junk\n" + CB_SAMPLE)
    shown = sudorules("check", tmp_path / "in.txt", "--format", "{error}")
    assert shown.returncode == 1 and "did not parse (their lines say why)" in shown.stderr, shown.stderr
    told = sudorules("check", tmp_path / "in.txt", "--format", "{clues}")
    assert "did not parse (each named on stderr above)" in told.stderr and "line 1: bad" in told.stderr


def test_rate_format_is_for_standard_output_not_the_resumable_file(tmp_path):
    (tmp_path / "in.txt").write_text(CB_SAMPLE)
    result = run(["rate", tmp_path / "in.txt", "--format", "{puzzle}", "-o", tmp_path / "out.csv"], code=2)
    assert "--format" in result.stderr and not (tmp_path / "out.csv").exists()


def test_a_template_reads_a_row_dict_and_refuses_what_it_cannot_format():
    template = RowTemplate("{puzzle:.5} {W:>2}|{seconds:.1f}|{{x}}\\t{tail}", ["puzzle", "W", "seconds", "tail"])
    assert template.fields == ("puzzle", "W", "seconds", "tail")
    assert template.render({"puzzle": "123456789", "W": "7", "seconds": "0.26", "tail": "t"}) == "12345  7|0.3|{x}\tt"
    assert template.render({"puzzle": "1", "W": "", "seconds": "", "tail": None}) == "1   ||{x}\t"
    assert RowTemplate("{seconds:6.2f}|", ["seconds"]).render({"seconds": ""}) == "      |"  # padded as text
    # no type letter: a number cell formats as a number (zeros on the left, a sign, grouping), as in
    # Python and serate; {B:02} gave 40 for 4 (the text filled on its right); an empty cell is spaces
    numbers = RowTemplate("{B:02}|{clues:03}|{B:+}|{clues:,}|{puzzle:.3}|{B:<3}|", ["B", "clues", "puzzle"])
    assert numbers.render({"B": "4", "clues": "1250", "puzzle": "123456789"}) == "04|1250|+4|1,250|123|4  |"
    assert numbers.render({"B": "", "clues": "25", "puzzle": "1.3"}) == "  |025||25|1.3|   |"
    for text, words in [("{X}", "unknown column 'X'"), ("{puzle}", "did you mean 'puzzle'"),
                        ("{W", "not closed"), ("W}", "closes no field"), ("{}", "empty field"),
                        ("{W:.2q}", "bad format spec"), ("no field", "names no column"),
                        ("{W:1000000000000}", "width or precision above"), ("{seconds:.5000f}", "above 1000"),
                        ("{puzzle.__class__}", "unknown column"), ("{W}\n{W}", "line break")]:
        with pytest.raises(OptionError, match=words):
            RowTemplate(text, ["puzzle", "W", "seconds", "tail"])


def test_a_number_cell_is_formatted_as_python_formats_it_or_refused(rated, tmp_path):
    """{W:.1} of 10 printed 1 (its text cut: a wrong number) where Python refuses a precision for an
    integer, and {tail:>12} of 1.16171e+06 printed 1161710.0 (alignment alone changed the text): a
    spec of only fill, alignment and width pads the text as it is (a number on the right, as Python
    aligns numbers), a spec Python refuses for a number is an error, and a grid is text."""
    columns = ["puzzle", "W", "tail", "solution"]
    solution = "123456789" * 9
    padded = RowTemplate("{tail:>12}|{tail:12}|{W:<4}|{W:4}|{W:x^6}|{tail:=13}|{W:=4}|{puzzle:>5}|{solution:.9}",
                         columns)
    assert padded.render({"puzzle": "00012", "W": "10", "tail": "1.16171e+06", "solution": solution}) == \
        " 1.16171e+06| 1.16171e+06|10  |  10|xx10xx|  1.16171e+06|  10|00012|123456789"
    assert padded.render({"puzzle": "p", "W": "-3", "tail": "-1.5e3", "solution": ""}) == \
        "      -1.5e3|      -1.5e3|-3  |  -3|xx-3xx|-       1.5e3|-  3|    p|"
    assert padded.render({"puzzle": "p", "W": "", "tail": "ED=9.0", "solution": ""}) == \
        "      ED=9.0|ED=9.0      |    |    |xxxxxx|       ED=9.0|    |    p|"
    cut = RowTemplate("{W:.1}|{W:.1s}|{W:.1f}", columns)
    assert cut.render({"W": "7.25"}) == f"{format(7.25, '.1')}|7|7.2" and cut.render({"W": "x"}) == "x|x|x"
    with pytest.raises(OptionError, match=r"^--format: \{W:\.1\} cannot format the number 10 \(Precision not "
                                          r"allowed in integer format specifier\); write \{W:\.1s\} to cut the text"):
        cut.render({"W": "10"})
    with pytest.raises(OptionError, match="cannot format the number 0.26"):
        RowTemplate("{W:d}", columns).render({"W": "0.26"})
    # through the commands: select refuses before writing anything, status 2, one line
    result = run(["select", rated, "--format", "{W:.1}|{clues:.1}", "-o", tmp_path / "out.txt"], code=2)
    assert "{W:.1} cannot format the number" in result.stderr and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "cb3.txt").write_text(CB_SAMPLE.splitlines()[1] + "\n")
    assert run(["check", tmp_path / "cb3.txt", "--format", "{tail:>12}|"]).stdout == " 1.16171e+06|\n"


def test_a_spec_that_writes_a_number_as_something_else_is_refused(rated, tmp_path):
    """{W:c} of 10 wrote chr(10), a line break inside the line (W 65 an 'A'): no number, refused as a
    bad spec naming the field when the template is made.  n writes the number (no locale is set)."""
    columns = ["puzzle", "W", "seconds"]
    for text in ("{W:c}", "{W:>3c}", "{seconds:c}", "{puzzle:c}"):
        name = text[1:text.index(":")]
        with pytest.raises(OptionError, match=rf"^--format: bad format spec '[>3]*c' of \{{{name}\}} \(type 'c' "
                                              r"writes the character of that code, not the number\)"):
            RowTemplate(text, columns)
    assert RowTemplate("{W:n}|{seconds:n}", columns).render({"W": "10", "seconds": "0.25"}) == "10|0.25"
    result = run(["select", rated, "--format", "{puzzle} {W:c}", "-o", tmp_path / "out.txt"], code=2)
    assert "bad format spec 'c' of {W}" in result.stderr and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_numbers_are_ascii_without_underscores_in_where_cells_and_value_files(tmp_path):
    """--where read 'W == ٣' and 'W == ３' as 3 where a cell '٣' is no number, and cells and --column
    values '1_000' were 1000 where --where called 1_000 no number: one syntax everywhere."""
    from sudorules.collection.table import cell_number

    for text in ("W == ٣", "W == ３", "W == 1_000", "W < 1e999"):
        with pytest.raises(OptionError, match="not a number"):
            Condition(text, ["W"])
    rows = [["3"], ["٣"], ["1_000"], ["1000"], [" 7 "], ["nan"], ["inf"], ["1e999"], ["３"]]
    assert Condition("W > 2", ["W"]).select(rows) == [0, 3, 4]
    assert Condition("W == -.5e1", ["W"]).matches(["-5"])
    assert [cell_number(text) for text in ("1_000", "٣", "1e3", "-.5", "+2.", "inf", "0x7")] == \
        [None, None, 1000.0, -0.5, 2.0, None, None]
    puzzle = CB_LINES[0][0]
    (tmp_path / "r.csv").write_text(f"puzzle,clues,W\n{puzzle},27,1_000\n")
    assert "column W: '1_000' is not a number" in run(["stats", tmp_path / "r.csv"], code=1).stderr
    (tmp_path / "p.txt").write_text(puzzle + "\n")
    (tmp_path / "W.txt").write_text("1_000\n")
    refused = run(["stats", tmp_path / "p.txt", "--column", f"W={tmp_path / 'W.txt'}"], code=1)
    assert "line 1: '1_000' is not a number" in refused.stderr
    # and split levels: '٣' is a text, after the numbers
    (tmp_path / "s.csv").write_text(f"puzzle,W\n{puzzle},٣\n{puzzle},10\n{puzzle},3\n")
    split = run(["select", tmp_path / "s.csv", "--split-by", "W", "-o", tmp_path / "by"])
    assert "W-3.csv (1), W-10.csv (1), W-_.csv (1)" in split.stderr


def test_split_by_refuses_a_value_too_long_for_a_file_name_before_making_the_directory(tmp_path):
    """A 300-character tail made a 300-character file name: the system's "File name too long" came
    after -o DIR was made, an empty directory left behind (helper-42)."""
    source = tmp_path / "t.csv"
    source.write_text(f"puzzle,W,tail\np1,1,{'x' * 300}\np2,2,short\n")
    result = run(["select", source, "--split-by", "tail", "-o", tmp_path / "out"], code=1)
    assert "(300 characters) makes a file name longer than the 255 bytes" in result.stderr
    assert result.stderr.count("\n") == 1 and len(result.stderr) < 300 and not (tmp_path / "out").exists()


def test_split_by_refuses_values_whose_files_differ_only_in_case(tmp_path):
    """tail-A.csv and tail-a.csv are one file on the file systems of macOS and Windows: the second
    overwrote the first; refused as two values with one file name are."""
    from sudorules.collection.select import split_paths
    from sudorules.collection.table import TableError

    with pytest.raises(TableError, match="the values 'A' and 'a' would both be written to tail-A.csv and "
                                         "tail-a.csv, one file where case is not told apart"):
        split_paths(tmp_path, "tail", ["A", "b", "a"], ".csv")
    source = tmp_path / "t.csv"
    source.write_text("puzzle,W,tail\np1,1,A\np2,2,a\np3,3,b\n")
    result = run(["select", source, "--split-by", "tail", "-o", tmp_path / "out"], code=1)
    assert "tail-A.csv and tail-a.csv" in result.stderr and result.stderr.count("\n") == 1
    # nothing left behind: the refusal came after -o DIR was made, an empty directory (parents too)
    assert not (tmp_path / "out").exists()
    result = run(["select", source, "--split-by", "tail", "-o", tmp_path / "new" / "out"], code=1)
    assert "tail-A.csv and tail-a.csv" in result.stderr and not (tmp_path / "new").exists()


#: three valid puzzles, then a bad character, a repeated digit, a puzzle of several solutions and a byte
#: that is no UTF-8 (line 7)
MIXED = ("\n".join(line for line, _ in CB_LINES[:3]) + "\n" + CB_LINES[0][0][:-1] + "x\n" + "77" + CB_LINES[0][0][2:]
         + "\n" + "." * 81 + "\n").encode() + CB_LINES[1][0].encode() + b" caf\xe9\n"


def sudorules(*args) -> subprocess.CompletedProcess:
    """A real process: rate and classify write standard output through its file descriptor."""
    return subprocess.run([sys.executable, "-m", "sudorules", *map(str, args)], capture_output=True,
                          encoding="utf-8", errors="replace", timeout=300)


@pytest.mark.parametrize("command", ["check", "rate", "classify"])
def test_format_says_each_invalid_record_on_stderr_and_keeps_one_line_per_record(command, tmp_path):
    """A --format line shows only its fields: the reason of an invalid record (what makes the exit
    status 1) was nowhere, stderr empty for check.  Each is now its ``line N: reason`` on stderr, the
    error cell of the CSV row, as canon and solve say theirs, while stdout keeps one line per record;
    a template with {error} shows it in the line and stderr does not repeat it."""
    source = tmp_path / "mixed.txt"
    source.write_bytes(MIXED)
    extra = [] if command == "check" else ["--jobs", 1, "--no-progress"]
    table = sudorules(command, source, *extra)
    assert table.returncode == 1, table.stderr
    invalid = [row["error"] for row in csv_rows(table.stdout) if row.get("status", "invalid") == "invalid"
               and row["error"]]  # check has no status: a row with an error is an invalid record
    assert len(invalid) >= 3
    formatted = sudorules(command, source, *extra, "--format", "{puzzle}")
    assert formatted.returncode == 1
    assert len(formatted.stdout.splitlines()) == len(csv_rows(table.stdout)) == MIXED.count(b"\n")
    told = [line for line in formatted.stderr.splitlines() if line.startswith("line ")]
    assert told == invalid, formatted.stderr
    shown = sudorules(command, source, *extra, "--format", "{puzzle}|{error}")
    assert [line.rsplit("|", 1)[1] for line in shown.stdout.splitlines()] == [row["error"] for row in
                                                                          csv_rows(table.stdout)]
    assert not [line for line in shown.stderr.splitlines() if line.startswith("line ")], shown.stderr
    argument = sudorules(command, CB_LINES[0][0][:-1] + "x", *extra, "--format", "{clues}")
    assert argument.returncode == 1 and argument.stdout == "\n"
    assert "PUZZLE 0: bad character 'x' at column 81" in argument.stderr.splitlines(), argument.stderr


# --- select ---------------------------------------------------------------------------------------
def test_select_where_keeps_the_rows_that_satisfy_the_condition_verbatim(rated):
    text = rated.read_text()
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    w, b = header.index("W"), header.index("B")
    expected = [r for r in body if int(r[w]) >= 3 and int(r[b]) < 5 or r[header.index("tail")] == "1674"]
    result = run(["select", "-", "--where", "(W >= 3 and B < 5) or tail == '1674'"], stdin=text)
    assert list(csv.reader(io.StringIO(result.stdout))) == [header] + expected
    assert f"selected {len(expected)} of {len(body)} rows" in result.stderr
    lines = run(["select", rated, "--where", "W >= 3 and B < 5 or tail == '1674'", "--puzzles"]).stdout
    assert lines.splitlines() == [f"{r[0]} {r[header.index('tail')]}" for r in expected]


def test_select_reads_parquet_outputs_of_rate(tmp_path):
    pytest.importorskip("pyarrow")
    import pandas as pd

    (tmp_path / "cb.txt").write_text(CB_SAMPLE)
    run(["rate", tmp_path / "cb.txt", "--jobs", 1, "-o", tmp_path / "cb.parquet", "--no-progress"])
    frame = pd.read_parquet(tmp_path / "cb.parquet")
    lines = run(["select", tmp_path / "cb.parquet", "--where", "W >= 3", "--format", "{puzzle} {W} {tail}"]).stdout
    assert lines.splitlines() == [f"{p} {w} {t}" for p, w, t in zip(frame["puzzle"], frame["W"], frame["tail"])
                                  if w >= 3]


def test_split_by_writes_one_file_per_level_with_every_row_once(rated, tmp_path):
    rows = csv_rows(rated.read_text())
    rows[3]["W"] = ""  # an unrated row goes to W-none
    source = tmp_path / "rated.csv"
    with source.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    result = run(["select", source, "--split-by", "W", "-o", tmp_path / "by-w"])
    levels = sorted({r["W"] for r in rows if r["W"]}, key=int)
    expected = [f"W-{level}.csv" for level in levels] + ["W-none.csv"]
    assert sorted(p.name for p in (tmp_path / "by-w").iterdir()) == sorted(expected)
    assert all(name in result.stderr for name in expected) and f"of {len(rows)} rows into" in result.stderr
    for name in expected:
        level = name[2:-4]
        part = csv_rows((tmp_path / "by-w" / name).read_text())
        assert part == [r for r in rows if r["W"] == ("" if level == "none" else level)]
    nothing = run(["select", source, "--where", "clues < 0", "--split-by", "W", "-o", tmp_path / "none"])
    # no dangling ": " after the directory when no file was written
    assert nothing.stderr == f"selected 0 of {len(rows)} rows into 0 files in {tmp_path / 'none'}\n"
    run(["select", source, "--where", "W >= 2", "--split-by", "W", "-o", tmp_path / "txt", "--puzzles"])
    for level in [lv for lv in levels if int(lv) >= 2]:
        text = (tmp_path / "txt" / f"W-{level}.txt").read_text()
        assert text == "".join(f"{r['puzzle']} {r['tail']}\n" for r in rows if r["W"] == level)
    assert not (tmp_path / "txt" / "W-none.txt").exists() and not (tmp_path / "txt" / "W-0.txt").exists()
    # an input among the files of the split: refused before any file is written (W-0 was, before)
    inside = tmp_path / "again"
    inside.mkdir()
    (inside / f"W-{levels[-1]}.csv").write_bytes(source.read_bytes())
    refused = run(["select", inside / f"W-{levels[-1]}.csv", "--split-by", "W", "-o", inside], code=2)
    assert "is an input of this run" in refused.stderr and [p.name for p in inside.iterdir()] == [f"W-{levels[-1]}.csv"]
    # a second split into the same directory with fewer levels: the files it did not write are named
    again = run(["select", source, "--where", f"W == {levels[0]}", "--split-by", "W", "-o", tmp_path / "by-w"])
    assert f"note: {tmp_path / 'by-w'} also holds" in again.stderr and f"W-{levels[-1]}.csv" in again.stderr


@pytest.mark.parametrize("args, words", [
    (["--where", "Wx >= 7"], "unknown column 'Wx'"),
    (["--where", "W >= 7 and"], "expected a column"),
    (["--where", "W"], "W alone is not a condition"),
    (["--where", "W == 'x"], "unclosed ' (a text"),          # was: unexpected character "'"
    (["--where", "W == 0x7"], "not a number: '0x7'"),        # was: unexpected character '0'
    (["--where", "W == 2 or `odd"], "unclosed `"),
    # a column rate --rating S+W writes, unquoted: "not a number: '+W'" said nothing of backquotes
    (["--where", "S+W > 3"], "not a number: '+W' at character 2 of 'S+W > 3' (texts go between quotes, odd "
                             "column names between backquotes: `S+W`)"),
    (["--where", "W == ３"], "not a number: '３' at character 6 of 'W == ３' (numbers are written with the "
                            "ASCII digits 0-9)"),
    (["--split-by", "SER", "-o", "split"], "--split-by: unknown column 'SER'"),
    (["--split-by", "W", "-o", "-"], "give the directory with -o DIR"),
    (["--format", "{W} {SER}"], "unknown column 'SER'"),
    (["--puzzles", "--format", "{W}"], "give one of them"),
])
def test_select_refuses_bad_options_in_one_line_and_writes_nothing(rated, tmp_path, args, words):
    result = run(["select", rated, *args, *([] if "-o" in args else ["-o", tmp_path / "out.csv"])], code=2)
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_select_refuses_a_file_that_is_no_table_in_one_line(tmp_path):
    """A puzzle file given to select is the wrong kind of input, status 2 as a table given to rate is
    (it was 1, as a damaged table is); stats and compare say the same."""
    (tmp_path / "cb.txt").write_text(CB_SAMPLE)
    result = run(["select", tmp_path / "cb.txt", "--where", "W > 1"], code=2)
    assert "not the header of a CSV output" in result.stderr and result.stderr.count("\n") == 1
    (tmp_path / "cb.csv").write_text(CB_SAMPLE)
    for command in (["stats", tmp_path / "cb.csv"], ["compare", tmp_path / "cb.csv", "--ratings", "clues", "clues"]):
        assert "not the header of a CSV output" in run(command, code=2).stderr
    (tmp_path / "bad.csv").write_text("puzzle,W\np,1\nq,2,3\n")
    assert "line 3: 3 cells, the header has 2" in run(["select", tmp_path / "bad.csv"], code=1).stderr
    assert "no such file" in run(["select", tmp_path / "nonexist.csv"], code=2).stderr


# --- the condition language against a reference written from its documented meaning ---------------
COLUMNS = ["W", "B", "status"]
CELLS = {"W": st.sampled_from(["", "0", "2", "7", "10", "7.5", "x"]), "B": st.sampled_from(["", "1", "2", "7", "12"]),
         "status": st.sampled_from(["solved", "timeout", "", "7"])}
OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge}


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


@st.composite
def comparisons(draw):
    """(text, reference function of a row dict) for one comparison, per the module's documented rules."""
    op = draw(st.sampled_from(sorted(OPS)))
    compare = OPS[op]
    column = draw(st.sampled_from(COLUMNS))
    kind = draw(st.sampled_from(["number", "text", "column"]))
    if kind == "number":
        value = draw(st.sampled_from([0, 2, 7, 7.5, -1]))

        def reference(row):
            cell = _number(row[column])
            return cell is not None and compare(cell, value)
        return f"{column} {op} {value}", reference
    if kind == "text":
        value = draw(st.sampled_from(["", "solved", "7", "x"]))
        return f"{column} {op} '{value}'", lambda row: compare(row[column], value)
    other = draw(st.sampled_from(COLUMNS))

    def reference(row):
        a, b = row[column], row[other]
        if a == "" or b == "":
            return False
        x, y = _number(a), _number(b)
        return compare(x, y) if x is not None and y is not None else compare(a, b)
    return f"{column} {op} {other}", reference


def conditions():
    def extend(children):
        return st.one_of(
            st.tuples(children, children).map(lambda p: (f"({p[0][0]}) and ({p[1][0]})",
                                                          lambda r, p=p: p[0][1](r) and p[1][1](r))),
            st.tuples(children, children).map(lambda p: (f"({p[0][0]}) or ({p[1][0]})",
                                                          lambda r, p=p: p[0][1](r) or p[1][1](r))),
            children.map(lambda c: (f"not ({c[0]})", lambda r, c=c: not c[1](r))))
    return st.recursive(comparisons(), extend, max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(condition=conditions(), rows=st.lists(st.fixed_dictionaries(CELLS), min_size=1, max_size=8))
def test_conditions_select_what_their_documented_meaning_says(condition, rows):
    text, reference = condition
    parsed = Condition(text, COLUMNS)
    table = [[row[c] for c in COLUMNS] for row in rows]
    assert parsed.select(table) == [i for i, row in enumerate(rows) if reference(row)], text


def test_classify_keeps_tails_formats_its_rows_and_select_reads_its_output(tmp_path):
    (tmp_path / "cb.txt").write_text(CB_SAMPLE)
    output = tmp_path / "classified.csv"
    run(["classify", tmp_path / "cb.txt", "--jobs", 1, "-o", output, "--no-progress"])
    rows = csv_rows(output.read_text())
    assert [(r["puzzle"], r["tail"]) for r in rows] == [(p, t) for p, t in CB_LINES]
    done = subprocess.run([sys.executable, "-m", "sudorules", "classify", tmp_path / "cb.txt", "--jobs", "1",
                           "--no-progress", "--format", "{puzzle} {te_depth} {B}{BxB}{BxBB} {tail}"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{r['puzzle']} {r['te_depth']} {r['B']}{r['BxB']}{r['BxBB']} {r['tail']}"
                                        for r in rows]
    chosen = run(["select", output, "--where", "te_depth == 1 and B >= 3", "--puzzles"]).stdout
    assert chosen.splitlines() == [f"{r['puzzle']} {r['tail']}" for r in rows if r["te_depth"] == "1"
                                   and int(r["B"]) >= 3]
    assert "unknown column 'W'" in run(["classify", tmp_path / "cb.txt", "--format", "{W}"], code=2).stderr


def test_canonical_forms_keep_their_tails_alike_in_canon_and_check(tmp_path):
    """canon's lines (form, then the record's tail) are what check --canonical --format writes from
    its canonical and tail columns."""
    (tmp_path / "cb.txt").write_text(CB_SAMPLE)
    canon = run(["canon", tmp_path / "cb.txt"]).stdout.splitlines()
    checked = run(["check", tmp_path / "cb.txt", "--canonical", "--format", "{canonical} {tail}"]).stdout
    assert canon == checked.splitlines() and [line.split()[1] for line in canon] == [t for _, t in CB_LINES]
    rows = csv_rows(run(["check", tmp_path / "cb.txt", "--canonical"]).stdout)
    assert list(rows[0])[-3:] == ["canonical", "tail", "error"]


def test_a_condition_nested_too_deeply_is_refused_not_a_crash():
    """Parentheses and 'not's nest up to MAX_NESTING levels; deeper is an OptionError naming the
    limit (600 parentheses overflowed Python's stack: an internal error, status 1)."""
    from sudorules.collection.expression import MAX_NESTING

    deep = "(" * MAX_NESTING + "W >= 3" + ")" * MAX_NESTING
    assert Condition(deep, COLUMNS).matches(["x"] * len(COLUMNS)) is False
    assert Condition("not " * MAX_NESTING + "W >= 3", COLUMNS)
    for text in ("(" * 600 + "W >= 3" + ")" * 600, "not " * 5000 + "W >= 3",
                 "(" * (MAX_NESTING + 1) + "W >= 3" + ")" * (MAX_NESTING + 1)):
        with pytest.raises(OptionError, match=f"more than {MAX_NESTING} nested"):
            Condition(text, COLUMNS)


def test_select_split_by_interrupted_names_the_files_it_wrote(rated, tmp_path, monkeypatch):
    """Ctrl-C during ``select --split-by`` said only "interrupted": which level files were there,
    and whole, was left to guess.  It now names them, and how many there were to write."""
    import signal

    from click.testing import CliRunner

    import sudorules.collection.select as select_module
    from sudorules.cli import main
    from sudorules.errors import Interrupted

    real, calls = select_module.open_output, []

    def open_then_stop(path, **kwargs):
        calls.append(path)
        if len(calls) == 3:
            raise Interrupted(signal.SIGINT)
        return real(path, **kwargs)

    monkeypatch.setattr(select_module, "open_output", open_then_stop)
    out = tmp_path / "levels"
    result = CliRunner().invoke(main, ["select", str(rated), "--split-by", "W", "-o", str(out)])
    assert result.exit_code == 130, result.output
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 2 and "interrupted after 2 of " in result.output
    assert all(name in result.output for name in written)


def test_split_by_looks_for_stale_temporaries_once_and_names_the_first_files(tmp_path, monkeypatch):
    """--split-by by a column of many values listed the directory once per file it wrote (to find
    stale temporaries), quadratic: 20,000 files took 88 s.  The directory is listed once for the
    batch (a stale temporary of a target is still removed), and the summary names the first files
    and how many more (it was one line of 406 KB)."""
    import os

    from sudorules import output
    from sudorules.cli.select import SUMMARY_FILES

    files = 60
    table = tmp_path / "many.csv"
    table.write_text("puzzle,clues,W,status\n" + "".join(f"p{i},25,{i},solved\n" for i in range(files)))
    folder = tmp_path / "by-W"
    folder.mkdir()
    stale = folder / ".W-7.csv.abcdefgh.tmp"  # left by a killed run (no lock held)
    stale.write_text("half a file")
    listed = []
    real_listdir = os.listdir

    def counting(path="."):
        listed.append(str(path))
        return real_listdir(path)

    monkeypatch.setattr(output.os, "listdir", counting)
    result = run(["select", table, "--split-by", "W", "-o", folder])
    assert len(list(folder.glob("W-*.csv"))) == files and not stale.exists()
    assert listed.count(os.path.realpath(folder)) <= 2, listed  # the batch's sweep, the earlier-files note
    assert result.stderr.count("(1)") == SUMMARY_FILES and f"and {files - SUMMARY_FILES} more" in result.stderr
