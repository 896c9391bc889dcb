"""The ``stats`` and ``compare`` commands through click's CliRunner: outputs and clean errors."""

import math
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudorules.cli import main
from test_stats_library import ROWS, puzzle_with


@pytest.fixture
def files(tmp_path):
    """A puzzle file with tries tails and line-aligned W / B value files (the published layout)."""
    (tmp_path / "puzzles.txt").write_text("".join(f"{puzzle_with(n)} {t}\n" for n, _, _, _, t in ROWS))
    (tmp_path / "W.txt").write_text("".join(f"{w}\n" for _, w, _, _, _ in ROWS))
    (tmp_path / "B.txt").write_text("".join(f"{b}\n" for _, _, b, _, _ in ROWS))
    return tmp_path


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_stats_text_and_json(files):
    args = [files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--column", f"B={files / 'B.txt'}"]
    text = run("stats", *args, "--by", "clues")
    assert text.exit_code == 0, text.output
    for heading in ("Means and standard deviations", "Clue distribution", "Distribution of W by level",
                    "Correlation (raw", "Correlation (unbiased", "Mean distance", "W by clue count",
                    "Minimal puzzles per complete grid"):
        assert heading in text.output
    # what the numbers of minimals take for granted is said beside them (helper-39: a sample of
    # generate's seeded grids gave 16 % more, unsaid)
    assert "Assumes complete grids drawn uniformly" in text.output and "seeded grids are not" in text.output
    assert "clues by clue count" not in text.output  # E = n, sd = 0: no table (helper-39)
    data = json.loads(run("stats", *args, "--json").output)
    assert data["minimals"]["assumes"].startswith("complete grids drawn uniformly")
    # W: 0 2 1 3 (empty) 4 -> raw mean 2 over 5 values, one missing
    assert data["columns"]["W"]["raw"]["mean"] == pytest.approx(2.0)
    assert data["columns"]["W"]["missing"] == 1
    assert f"{data['columns']['W']['raw']['mean']:.4f}" in text.output
    assert set(data) >= {"rows", "status", "excluded_rows", "columns", "per_clue", "clue_distribution",
                         "level_distributions", "correlation", "mean_distance", "minimals"}
    raw = json.loads(run("stats", *args, "--json", "--raw").output)
    assert raw["columns"]["W"]["unbiased"] is None and "unbiased_percent" not in raw["clue_distribution"][0]


def test_compare_text_and_json(files):
    args = [files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--column", f"B={files / 'B.txt'}",
            "--ratings", "W", "B"]
    text = run("compare", *args)
    assert text.exit_code == 0, text.output
    assert "W ≠ B on 2 of 5 puzzles" in text.output
    assert puzzle_with(27) in text.output
    data = json.loads(run("compare", *args, "--json").output)
    assert data["differ"] == 2 and [d["line"] for d in data["differences"]] == [4, 6]


def test_an_invalid_row_counts_nowhere_and_one_puzzle_is_singular(tmp_path):
    """rate's row for a puzzle of several solutions (status invalid) keeps its clue count, 0 for an
    empty grid: stats put it in the clue distribution while the report said "counted nowhere", also
    joined to its puzzle file, which gives every line a clue count.  And a note said "tries missing on
    1 puzzles"."""
    lines = [(puzzle_with(25), "100", "1", "solved", ""), (puzzle_with(26), "", "2", "solved", ""),
             ("." * 81, "5", "", "invalid", "line 3: several solutions")]
    rated = tmp_path / "rated.csv"
    rated.write_text("puzzle,clues,W,status,seconds,tail,error\n" + "".join(
        f"{puzzle},{puzzle.count('.') and 81 - puzzle.count('.')},{w},{status},0.1,{tail},{error}\n"
        for puzzle, tail, w, status, error in lines))
    (tmp_path / "puzzles.txt").write_text("".join(f"{puzzle} {tail}".rstrip() + "\n" for puzzle, tail, *_ in lines))
    for args in ([rated], [tmp_path / "puzzles.txt", rated]):
        result = run("stats", *args, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        valid = [puzzle for puzzle, _, _, status, _ in lines if status == "solved"]
        assert [(r["clues"], r["on"]) for r in data["clue_distribution"]] == [(81 - p.count("."), 1) for p in valid]
        assert data["columns"]["clues"]["count"] == len(valid)
        # nor is it missing: its empty W and its clue count are no missing values of a puzzle
        assert (data["columns"]["clues"]["missing"], data["columns"]["W"]["missing"]) == (0, 0), data["columns"]
        assert data["minimals"]["note"].startswith("tries missing on 1 puzzle: "), data["minimals"]
    assert "tries missing on 1 puzzle: " in run("stats", rated).stdout


def test_rating_names_are_read_in_any_case_an_exact_column_first(files, tmp_path):
    """compare --ratings b gb and stats --rating b were "unknown column 'b'", where rate and solve read
    rating names in any case; a column spelt exactly as given wins over one in another case, and two
    in other cases (Foo and foo for FOO) are still an unknown name."""
    args = [files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--column", f"B={files / 'B.txt'}"]
    exact = run("compare", *args, "--ratings", "W", "B", "--json")
    assert exact.exit_code == 0, exact.output
    assert json.loads(run("compare", *args, "--ratings", "w", "b", "--json").output) == json.loads(exact.output)
    table = tmp_path / "t.csv"
    table.write_text("puzzle,clues,Foo,foo,Bar\n" + "".join(f"{puzzle_with(n)},{n},{k},{2 * k},{k + 1}\n"
                                                           for k, n in enumerate((25, 26, 27))))
    for given, taken in (("bar", "Bar"), ("BAR", "Bar"), ("foo", "foo"), ("Foo", "Foo")):
        result = run("stats", table, "--rating", given, "--json")
        assert result.exit_code == 0, (given, result.output)
        assert json.loads(result.stdout)["rating_columns"] == [taken], given
    assert run("stats", table, "--rating", "FOO").exit_code == 2
    logged = json.loads(run("stats", table, "--rating", "bar", "--log", "BAR", "--json").stdout)
    assert logged["correlation"]["log"] == ["Bar"]


def test_every_rating_rate_writes_is_a_rating_column(tmp_path):
    """stats called BC, Z, tW, S+W and default "not rating columns" in an output of rate itself; any
    column rate --rating writes is one now (each theory's part, each named rating, a composed theory),
    in rate's spelling, and seconds is still none."""
    from sudorules.batch.rating import all_ratings, canonical_rating, header
    from sudorules.enums import TE_THEORIES, THEORY_PARTS
    from sudorules.resolution.families import THEORIES
    from sudorules.stats import load_collection

    names = list(dict.fromkeys([*all_ratings(), *map(str, THEORIES), *THEORY_PARTS, "s+w", "sfin+bc+tw"]))
    names = [name for name in names if name not in TE_THEORIES[:3]]  # TE1-TE3: paths, no rating
    written = list(dict.fromkeys(canonical_rating(name) for name in names))  # the columns rate writes
    rows = [[puzzle_with(n), str(n), *[str(level + k % 3) for k in range(len(written))], "solved", "0.5", "", ""]
            for level, n in enumerate((25, 26, 27))]
    table = tmp_path / "rated.csv"
    table.write_text("\n".join(",".join(cells) for cells in [header(written)] + rows) + "\n")
    collection = load_collection([str(table)])
    assert collection.rating_columns == written and collection.ignored_columns() == ["seconds"]
    source = tmp_path / "in.txt"
    demo = Path(__file__).resolve().parent.parent / "collections" / "demo.txt"
    source.write_text("".join(demo.read_text().splitlines(keepends=True)[:2]))
    rate = subprocess.run([sys.executable, "-m", "sudorules", "rate", str(source), "--rating", "W,BC,S+W,default",
                           "--jobs", "1", "--no-progress", "-o", str(tmp_path / "r.csv")], capture_output=True,
                          text=True, timeout=300)
    assert rate.returncode == 0, rate.stderr
    report = json.loads(run("stats", tmp_path / "r.csv", "--json").output)
    assert report["rating_columns"] == ["W", "BC", "S+W", "default"] and report["other_columns"] == ["seconds"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_utf16_input_is_the_error_check_gives_in_stats_select_and_compare(files, encoding):
    """stats, select and compare read UTF-16 as "line 1: not UTF-8 text (byte 0xff)", status 1, where
    check, rate and the others say once what it is and how to convert it (status 2)."""
    wide = files / "wide.txt"
    wide.write_text((files / "puzzles.txt").read_text(), encoding=encoding)
    said = run("check", wide)
    assert said.exit_code == 2 and "UTF-16 or UTF-32 text" in said.stderr
    for args in (["stats", wide], ["select", wide], ["compare", wide, "--ratings", "clues", "clues"],
                 ["stats", files / "puzzles.txt", "--column", f"W={wide}"]):
        result = run(*args)
        assert (result.exit_code, result.stderr) == (2, said.stderr), args
    piped = CliRunner().invoke(main, ["select", "-"], input=wide.read_bytes())
    assert piped.exit_code == 2 and piped.stderr == said.stderr.replace(str(wide), "standard input")


def test_puzzles_counted_twice_are_noted(tmp_path):
    """Two chunks of one seed pooled: every puzzle twice, and nothing said (helper-39)."""
    demo = Path(__file__).resolve().parent.parent / "collections" / "demo.txt"
    lines = [line.split()[0] for line in demo.read_text().splitlines() if line.strip()][:5]
    single, pooled = tmp_path / "single.txt", tmp_path / "pooled.txt"
    single.write_text("\n".join(lines) + "\n")
    pooled.write_text("\n".join(lines + lines[:2]) + "\n")
    text = run("stats", pooled)
    assert text.exit_code == 0 and "Note: 2 puzzles appear more than once (4 rows in all)" in text.output, text.output
    assert json.loads(run("stats", pooled, "--json").output)["repeated"] == {"puzzles": 2, "rows": 4}
    assert json.loads(run("stats", single, "--json").output)["repeated"] is None


@pytest.mark.parametrize("extra, message, status", [
    (["--column", "SER=missing.txt"], "no such file", 2),
    (["--column", "SER"], "NAME=FILE", 2),
    (["--log", "W"], "1 value is <= 0 (first at line 1: 0)", 1),  # at row 1 (helper-39): lines, as elsewhere
    (["--log", "nope"], "unknown column", 2),
    (["--rating", "nope"], "--rating nope: no such numeric column", 2),
])
def test_stats_bad_inputs(files, extra, message, status):
    extra = [e.replace("missing.txt", str(files / "missing.txt")) for e in extra]
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", *extra)
    assert result.exit_code == status
    assert message in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1


def test_misaligned_and_non_numeric_files(files):
    (files / "short.txt").write_text("1\n2\n")
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'short.txt'}")
    assert result.exit_code != 0 and "has 2 lines but the collection has 6 rows" in result.output
    (files / "bad.txt").write_text("1\n2\nthree\n4\n5\n6\n")
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'bad.txt'}")
    assert result.exit_code != 0 and "line 3: 'three' is not a number" in result.output
    assert result.output.count("\n") == 1


def test_compare_unknown_column(files):
    result = run("compare", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--ratings", "W", "B")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "unknown column 'B' (numeric columns: clues, W)" in result.output


def test_plot_writes_a_png(files, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "dist.png"
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--plot", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "no panel" not in result.stderr
    # a rating of continuous values has no panel, and a note says so (left out unsaid: helper-39)
    (files / "SER.txt").write_text("".join(f"{7.1 + k / 10:.1f}\n" for k in range(len(ROWS))))
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--column",
                 f"SER={files / 'SER.txt'}", "--plot", out)
    assert result.exit_code == 0 and "note: --plot draws the distributions by level; SER has none" in result.stderr


@pytest.mark.parametrize("moment", ["printing the report", "closing the figure"])
def test_plot_interrupted_at_its_end_leaves_the_old_file(files, tmp_path, monkeypatch, moment):
    """A Ctrl-C in the last milliseconds of `stats --plot` (the report printed after the plot, the
    figure closed after the rename) ended the run with status 130 and the new plot in place: the
    rename is now the last thing done, so an interrupted run leaves the old file, as every command."""
    pytest.importorskip("matplotlib")
    import signal

    import matplotlib.pyplot as pyplot

    import sudorules.stats.text as text
    from sudorules.errors import Interrupted

    def interrupt(*_args, **_kwargs):
        raise Interrupted(signal.SIGINT)

    if moment == "printing the report":
        monkeypatch.setattr(text, "format_report", interrupt)
    else:
        real_close, calls = pyplot.close, []

        def close_then_interrupt(*args, **kwargs):
            real_close(*args, **kwargs)
            calls.append(args)
            if len(calls) == 1:
                interrupt()

        monkeypatch.setattr(pyplot, "close", close_then_interrupt)
    out = tmp_path / "dist.png"
    out.write_bytes(b"the plot of an earlier run")
    args = ["stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--plot", out]
    result = run(*args)
    assert result.exit_code == 130 and result.output.endswith("interrupted\n"), result.output
    assert out.read_bytes() == b"the plot of an earlier run"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".dist.png.")] == []  # no temporary left
    monkeypatch.undo()
    assert run(*args).exit_code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_log_scale_of_a_single_level_writes_no_warning(tmp_path):
    """40 puzzles of 18 clues (a classify output of top1465) on a log scale: matplotlib's
    'identical low and high ylims' UserWarning reached stderr with a line of our code."""
    pytest.importorskip("matplotlib")
    path = tmp_path / "t40.csv"
    path.write_text("puzzle,clues,B,status\n" + "".join(f"{puzzle_with(18)},18,{i % 3},solved\n" for i in range(40)))
    done = subprocess.run([sys.executable, "-m", "sudorules", "stats", str(path), "--plot", str(tmp_path / "p.png"),
                           "--plot-scale", "log"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_undefined_correlations_and_distances_show_as_a_dash(files):
    """A constant rating (K = 3 everywhere) and an empty one (E): their correlations and mean distances
    are undefined, '-' in the text and null in JSON (the distance showed 0.0000 and the correlations
    'nan'), their own on the diagonal too (it showed 1.0000 there); W's own stays 1."""
    (files / "K.txt").write_text("3\n" * len(ROWS))
    (files / "E.txt").write_text("\n" * len(ROWS))
    args = [files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--column", f"K={files / 'K.txt'}",
            "--column", f"E={files / 'E.txt'}"]
    data = json.loads(run("stats", *args, "--json").output)
    assert data["mean_distance"]["raw"]["K"] is None and data["mean_distance"]["unbiased"]["K"] is None
    for kind in ("raw", "unbiased"):
        matrix = data["correlation"][kind]
        assert [matrix[i][i] for i in range(len(matrix))] == [1.0, 1.0, None, None], kind  # clues, W, K, E
    text = run("stats", *args).output
    distances = text[text.index("Mean distance"):].splitlines()
    assert [line.split() for line in distances[1:5]] == [["rating", "raw", "unbiased"], ["W", "-", "-"],
                                                          ["K", "-", "-"], ["E", "-", "-"]]
    correlation = text[text.index("Correlation (raw"):].splitlines()
    assert correlation[3].split()[2] == "1.0000" and "nan" not in text
    assert correlation[4].split() == ["K", "-", "-", "-", "-"] and correlation[5].split() == ["E", "-", "-", "-", "-"]


def test_a_value_file_beside_joined_inputs_in_other_orders_gets_a_note(files):
    """Line k of --column FILE is the k-th puzzle of the first input; when a joined input lists the
    puzzles in another order, stderr says which order was taken (it was silent, and `compare` gave
    other figures with the inputs swapped)."""
    lines = (files / "puzzles.txt").read_text().splitlines()
    (files / "shuffled.txt").write_text("".join(f"{line.split()[0]}\n" for line in lines[::-1]))  # no tries
    args = ["--column", f"W={files / 'W.txt'}", "--column", f"B={files / 'B.txt'}", "--ratings", "W", "B"]
    result = run("compare", files / "puzzles.txt", files / "shuffled.txt", *args)
    assert result.exit_code == 0 and "W ≠ B on 2 of 5 puzzles" in result.stdout
    assert result.stderr == (f"note: {files / 'W.txt'}, {files / 'B.txt'}: lines taken in the order of "
                             f"{files / 'puzzles.txt'}, the first of the inputs joined on the puzzle; "
                             f"{files / 'shuffled.txt'} lists the same puzzles in another order\n")
    swapped = run("stats", files / "shuffled.txt", files / "puzzles.txt", *args[:4])
    assert swapped.exit_code == 0 and "in the order of " + str(files / "shuffled.txt") in swapped.stderr
    assert run("compare", files / "puzzles.txt", *args).stderr == ""


def test_plot_without_matplotlib_is_a_clean_error(files, tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    result = run("stats", files / "puzzles.txt", "--plot", tmp_path / "x.png")
    assert result.exit_code == 2 and "pip install 'sudorules[plot]'" in result.output  # checked before any work
    assert result.output.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


def test_a_puzzle_file_with_commas_in_its_comments_is_read_as_puzzles(tmp_path):
    """SHC's ``puzzle;comment``: 'from forum, page 3' made the first line a CSV header, and stats
    said 'no puzzle to count' where check and canon read the file."""
    path = tmp_path / "comma.txt"
    path.write_text("".join(f"{puzzle_with(n)};from forum, page 3\n" for n in (24, 25, 26)))
    result = run("stats", path, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["columns"]["clues"]["raw"]["mean"] == 25


def test_empty_inputs(tmp_path):
    result = run("stats")
    assert result.exit_code == 2 and "no input" in result.output
    (tmp_path / "empty.csv").write_text("puzzle,clues,W,status\n")
    result = run("stats", tmp_path / "empty.csv")
    assert result.exit_code == 1
    assert result.output == f"Error: {tmp_path / 'empty.csv'}: no puzzle to count (no rows)\n"


# ---------------------------------------------------------------- issue 10: dependable at the edges

RATE = "puzzle,clues,W,B,status,seconds,error\n"
CHECK = "puzzle,clues,solutions,minimal,solution,error\n"


def rate_csv(rows):
    """A CSV as `sudorules rate` writes it; ``rows`` are (clues, W, B, status, seconds)."""
    return RATE + "".join(f"{puzzle_with(n) if n else 'bad'},{n or ''},{w},{b},{s},{t},"
                          f"{'' if s == 'solved' else 'why'}\n" for n, w, b, s, t in rows)


# seconds grow with W but not exactly; as a rating they would enter the correlations
RATED = [(25, 0, 0, "solved", 0.5), (25, 2, 2, "solved", 9.0), (26, 1, 1, "solved", 1.0),
         (26, 3, 2, "solved", 30.0), (27, 4, 3, "solved", 12.0), (26, 2, 2, "solved", 2.5)]


@pytest.fixture
def rated(tmp_path):
    path = tmp_path / "rated.csv"
    path.write_text(rate_csv(RATED))
    return path


def test_seconds_is_not_a_rating(rated):
    data = json.loads(run("stats", rated, "--json").output)
    assert data["correlation"]["columns"] == ["clues", "W", "B"]
    assert set(data["mean_distance"]["raw"]) == {"W", "B"}
    assert set(data["columns"]) == {"clues", "W", "B"} and set(data["level_distributions"]) == {"W", "B"}
    assert data["rating_columns"] == ["W", "B"] and data["other_columns"] == ["seconds"]
    text = run("stats", rated).output
    correlations = text[text.index("Correlation (raw"):]
    assert "seconds" not in correlations and "W" in correlations and "B" in correlations
    assert "Not rating columns, no statistics: seconds" in text
    # asked for, it is a rating
    data = json.loads(run("stats", rated, "--json", "--rating", "seconds").output)
    assert data["correlation"]["columns"] == ["clues", "W", "B", "seconds"]
    assert set(data["mean_distance"]["raw"]) == {"W", "B", "seconds"}


def test_two_rate_outputs_of_the_same_puzzles_join_whatever_their_seconds(rated, tmp_path):
    """``rate p.txt --rating B -o b.csv`` and ``--rating gB -o g.csv``, then ``stats b.csv g.csv`` or
    ``compare b.csv g.csv``: refused, "column seconds differs" (two runs' timings always do); only a
    puzzle's own values must agree."""
    again = tmp_path / "again.csv"
    again.write_text(rate_csv([(n, w, b, s, t * 2 + 1) for n, w, b, s, t in RATED]).replace(",W,B,", ",W,gB,"))
    data = json.loads(run("stats", rated, again, "--json").output)
    assert data["rows"] == len(RATED) and data["rating_columns"] == ["W", "B", "gB"]
    result = run("compare", rated, again, "--ratings", "B", "gB")
    assert result.exit_code == 0 and "Cross-table of B (rows) and gB (columns)" in result.output, result.output
    clash = tmp_path / "clash.csv"  # a value of the puzzle itself must still agree
    clash.write_text(rate_csv([(n, w + 1, b, s, t) for n, w, b, s, t in RATED]))
    assert run("stats", rated, clash).exit_code != 0


def test_solutions_of_a_check_csv_is_not_a_rating(tmp_path):
    path = tmp_path / "checked.csv"
    path.write_text(CHECK + f"{puzzle_with(25)},25,1,true,,\n{puzzle_with(26)},26,2,false,,\n"
                    f"{puzzle_with(27)},27,1,true,,\nbad,,,,,wrong length: 3 grid characters\n")
    result = run("stats", path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data["columns"]) == ["clues"] and data["correlation"] is None and data["mean_distance"] is None
    assert data["other_columns"] == ["solutions"]
    assert data["not_counted"]["invalid"] == {"count": 1, "lines": [{"source": str(path), "line": 5}]}


def test_a_column_option_is_a_rating_whatever_its_name(files):
    (files / "cands.txt").write_text("".join(f"{180 + i}\n" for i in range(len(ROWS))))
    data = json.loads(run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}",
                          "--column", f"nbcands={files / 'cands.txt'}", "--json").output)
    assert data["correlation"]["columns"] == ["clues", "W", "nbcands"]


def test_compare_accepts_any_numeric_column_named(rated):
    result = run("compare", rated, "--ratings", "W", "seconds", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["compared"] == len(RATED)
    result = run("compare", rated, "--ratings", "W", "SER")
    assert result.exit_code == 2
    assert result.output == "Error: unknown column 'SER' (numeric columns: clues, W, B, seconds)\n"


def test_compare_of_part_files_names_the_file_of_each_line(tmp_path):
    """compare pa.csv pb.csv listed the differing rows by line alone (6, 7, 10, ..., 3: which file?):
    file:line when the inputs are several, as stats names the rows it does not count."""
    pa, pb = tmp_path / "pa.csv", tmp_path / "pb.csv"
    pa.write_text(rate_csv([(25, 1, 2, "solved", 0.1), (26, 2, 2, "solved", 0.1)]))
    pb.write_text(rate_csv([(27, 1, 1, "solved", 0.1), (28, 3, 2, "solved", 0.1)]))
    both = run("compare", pa, pb, "--ratings", "W", "B")
    assert both.exit_code == 0, both.output
    assert [line.split()[0] for line in both.stdout.splitlines()[-2:]] == [f"{pa}:2", f"{pb}:3"]
    assert run("compare", pa, "--ratings", "W", "B").stdout.splitlines()[-1].split()[0] == "2"
    data = json.loads(run("compare", pa, pb, "--ratings", "W", "B", "--json").stdout)
    assert data["sources"] == [str(pa), str(pb)]
    assert [(d["source"], d["line"]) for d in data["differences"]] == [(str(pa), 2), (str(pb), 3)]


def test_compare_with_no_puzzle_having_both(tmp_path):
    path = tmp_path / "rated.csv"
    path.write_text("puzzle,W,B\n" + f"{puzzle_with(25)},1,\n{puzzle_with(26)},,2\n")
    result = run("compare", path, "--ratings", "W", "B")
    assert result.exit_code == 1 and result.output.startswith("Error: no puzzle has both W and B")
    assert result.output.count("\n") == 1


def test_lines_not_counted_are_named(tmp_path):
    rows = [(25, 1, 1, "solved", 1.0)] * 3 + [(0, "", "", "invalid", "")] * 12 + [(26, "", "", "timeout", 60)]
    path = tmp_path / "rated.csv"
    path.write_text(rate_csv(rows))
    result = run("stats", path)
    assert result.exit_code == 0, result.output
    assert ("13 rows not solved (a rating's statistics leave out the rows where it failed): invalid at lines 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 "
            "and 2 more (no clue count: counted nowhere); timeout at line 17") in result.output
    data = json.loads(run("stats", path, "--json").output)
    assert data["not_counted"]["invalid"]["count"] == 12 and len(data["not_counted"]["invalid"]["lines"]) == 10


def test_unreadable_csv_row_is_named_not_fatal(tmp_path):
    path = tmp_path / "rated.csv"
    path.write_text(RATE + f"{puzzle_with(25)},25,1,1,solved,0.1,\n\n{puzzle_with(26)},26,2\n"
                    f"{puzzle_with(27)},27,3,3,solved,0.1,\n")
    data = json.loads(run("stats", path, "--json").output)
    assert data["not_counted"]["unreadable"]["lines"] == [{"source": str(path), "line": 4}]
    assert data["columns"]["clues"]["count"] == 2 and data["columns"]["W"]["raw"]["mean"] == 2.0


def test_stdin(rated):
    text = rated.read_text()
    result = CliRunner().invoke(main, ["stats", "-", "--json"], input=text)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["sources"] == ["standard input"] and data["columns"]["W"]["count"] == len(RATED)
    assert data["columns"] == json.loads(run("stats", rated, "--json").stdout)["columns"]
    result = CliRunner().invoke(main, ["compare", "-", "--ratings", "W", "B"], input=text)
    assert result.exit_code == 0 and "W ≠ B on 2 of 6 puzzles" in result.output
    result = CliRunner().invoke(main, ["stats", "-", "-"], input=text)
    assert result.exit_code == 2 and "given twice" in result.output


def test_stdin_puzzle_file_through_the_real_command(files):
    """The installed command, in a subprocess: a puzzle file on standard input."""
    done = subprocess.run([sys.executable, "-m", "sudorules", "stats", "-", "--json"],
                          input=(files / "puzzles.txt").read_bytes(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rows"] == len(ROWS) and data["minimals"]["total_tries"] == sum(r[4] for r in ROWS)


@pytest.mark.parametrize("content, message", [
    ("puzzle,clues,W,status\nx,,,invalid\ny,,,invalid\nz,,,invalid\n",
     "no puzzle to count (3 rows, all with status invalid; first at lines 2, 3, 4)"),
    ("", "no puzzle to count (no rows)"),
    ("\n\n", "no puzzle to count (no rows)"),
    ("123\nnot a puzzle\n", "no puzzle to count (2 rows, all with status invalid; first at lines 1, 2)"),
])
def test_nothing_to_count_is_one_clear_line(tmp_path, content, message):
    path = tmp_path / "x.csv"
    path.write_bytes(content.encode())
    if content.startswith("123"):
        path = path.rename(tmp_path / "x.txt")
    result = run("stats", path)
    assert result.exit_code == 1
    assert result.output == f"Error: {path}: {message}\n"
    assert "Empty DataFrame" not in result.output


def test_byte_order_mark_is_skipped(tmp_path, rated):
    bom = "\ufeff"
    (tmp_path / "bom.csv").write_text(bom + rated.read_text(), encoding="utf-8")
    plain = json.loads(run("stats", rated, "--json").stdout)
    data = json.loads(run("stats", tmp_path / "bom.csv", "--json").stdout)
    assert data["columns"] == plain["columns"] and data["columns"]["W"]["count"] == len(RATED)
    # a puzzle file and a value file with a BOM
    (tmp_path / "p.txt").write_text(bom + "".join(f"{puzzle_with(n)}\n" for n in (24, 25, 26)), encoding="utf-8")
    (tmp_path / "W.txt").write_text(bom + "1\n2\n3\n", encoding="utf-8")
    result = run("stats", tmp_path / "p.txt", "--column", f"W={tmp_path / 'W.txt'}", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == {} and data["columns"]["W"]["raw"]["mean"] == 2.0


def test_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes(b"puzzle,W\n" + puzzle_with(25).encode() + b",1\n\xff\xfe,2\n")
    result = run("stats", path)
    assert result.exit_code == 1
    assert result.output == f"Error: {path} line 3: not UTF-8 text (byte 0xff); is it the right file?\n"


def test_unreadable_inputs_exit_2(tmp_path, rated):
    cases = [(tmp_path / "missing.csv", "no such file"), (tmp_path, "is a directory, not a file"),
             ("", "input name is empty")]
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.csv"
        locked.write_text(rated.read_text())
        locked.chmod(0)
        cases.append((locked, "ermission denied"))
    for path, message in cases:
        for command in (["stats", path], ["compare", path, "--ratings", "W", "B"]):
            result = run(*command)
            assert result.exit_code == 2, (path, result.output)
            assert result.output.startswith("Error: ") and message in result.output
            assert result.output.count("\n") == 1 and "Traceback" not in result.output


def test_blank_lines_ending_a_value_file_are_no_values(files):
    """A value file whose last line is followed by a blank one (an editor's, or `echo >> W.txt`) was
    refused: "has 7 lines but the collection has 6 rows".  Blank lines past the rows at its end are
    no values; a blank line within the rows, the last one's included, is still a missing value."""
    def stats(*values_and_puzzles):
        result = run("stats", *values_and_puzzles, "--raw", "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    text = (files / "W.txt").read_text()
    assert text.endswith("\n") and not text.endswith("\n\n")
    alone = stats("--column", f"W={files / 'W.txt'}")
    joined = stats(files / "puzzles.txt", "--column", f"W={files / 'W.txt'}")
    assert alone["rows"] == joined["rows"] == len(ROWS)
    for ending in ("\n", "\n\n", " \n\t\r\n"):
        (files / "Wb.txt").write_text(text + ending)
        assert stats(files / "puzzles.txt", "--column", f"W={files / 'Wb.txt'}")["columns"] == joined["columns"]
        assert stats("--column", f"W={files / 'Wb.txt'}")["rows"] == alone["rows"]
        compared = run("compare", files / "puzzles.txt", "--column", f"W={files / 'Wb.txt'}",
                       "--column", f"B={files / 'B.txt'}", "--ratings", "W", "B")
        assert compared.exit_code == 0, compared.output
    last_missing = text[:text.rstrip("\n").rfind("\n") + 1] + "\n"  # the last puzzle's value left blank
    for ending in ("", "\n\n"):
        (files / "Wb.txt").write_text(last_missing + ending)
        column = stats(files / "puzzles.txt", "--column", f"W={files / 'Wb.txt'}")["columns"]["W"]
        assert column["missing"] == joined["columns"]["W"]["missing"] + 1
    (files / "Wb.txt").write_text(text + "\n5\n")  # a value after the blank line: one line too many
    assert run("stats", files / "puzzles.txt", "--column", f"W={files / 'Wb.txt'}").exit_code == 1


def test_a_parquet_input_that_cannot_be_read_exits_2(tmp_path, rated):
    """Garbage, a truncated copy or an empty file named .parquet: nothing of it can be read, an input
    unusable as a missing or unreadable one is, and told so with status 2 (it was 1, as a bad row)."""
    pytest.importorskip("pyarrow")
    import pandas as pd

    whole = tmp_path / "whole.parquet"
    pd.read_csv(rated, dtype=str, keep_default_na=False).to_parquet(whole)
    assert run("stats", whole).exit_code == 0
    data = whole.read_bytes()
    for name, content in (("garbage", bytes(range(256)) * 2), ("truncated", data[:len(data) // 2]), ("empty", b"")):
        path = tmp_path / f"{name}.parquet"
        path.write_bytes(content)
        for command in (["stats", path], ["compare", path, "--ratings", "W", "B"], ["select", path]):
            result = run(*command)
            assert result.exit_code == 2, (name, command[0], result.output)
            assert result.output.startswith(f"Error: {path}: not a readable Parquet file (")
            assert result.output.count("\n") == 1 and "Traceback" not in result.output


@pytest.mark.slow
def test_a_parquet_file_damaged_inside_never_aborts_the_process(tmp_path):
    """A rate output whose bytes 8-1500 are zeroed: pyarrow's threaded read aborted the process
    (status 134, "terminate called without an active exception") in 2 to 10 runs of 40 to 60, as
    `select`, `stats` and `compare` read it; read on one thread it is their one error line every
    time.  Read in processes, since an abort would take pytest with it: 40 of them, so that the old
    read fails this with a probability of 0.9 or more."""
    pytest.importorskip("pyarrow")
    puzzles, whole = tmp_path / "p.txt", tmp_path / "whole.parquet"
    assert run("generate", "-m", "top-down", "-n", "50", "--seed", "3", "-o", puzzles).exit_code == 0
    assert run("rate", puzzles, "--rating", "W", "-o", whole, "--jobs", "1").exit_code == 0
    damaged = bytearray(whole.read_bytes())
    damaged[8:1500] = bytes(1492)
    (tmp_path / "damaged.parquet").write_bytes(damaged)
    read = ("import sys\nfrom sudorules.collection.table import parquet_strings\nfrom sudorules.errors import InputError\n"
            "try:\n    parquet_strings('damaged.parquet', open('damaged.parquet', 'rb').read())\n"
            "except InputError:\n    sys.exit(2)\n")
    statuses = [subprocess.run([sys.executable, "-c", read], cwd=tmp_path, capture_output=True).returncode
                for _ in range(40)]
    assert statuses == [2] * 40, statuses


def test_duplicate_header_and_bad_clue_count(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text(f"puzzle,W,W\n{puzzle_with(25)},1,1\n")
    assert run("stats", path).output == f"Error: {path} line 1: column 'W' appears twice in the header\n"
    path.write_text(f"puzzle,clues,W\n{puzzle_with(25)},25,1\n{puzzle_with(25)},82,1\n")
    result = run("stats", path)
    assert result.exit_code == 1
    assert result.output == f"Error: {path} line 3: clues 82 is not a clue count (an integer from 0 to 81)\n"


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG\r\n\x1a\n"), (".pdf", b"%PDF"), (".svg", None),
                                           (".PDF", b"%PDF")])
def test_plot_writes_the_format_its_extension_names(files, tmp_path, suffix, magic):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"dist{suffix}"
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--plot", out)
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    if magic is None:
        assert data.lstrip().startswith((b"<?xml", b"<svg")) and b"<svg" in data
    else:
        assert data.startswith(magic)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


@pytest.mark.parametrize("target", ["dist.gif", "dist", "dist.png.txt"])
def test_plot_with_an_unsupported_extension_is_a_usage_error(files, tmp_path, target):
    result = run("stats", files / "puzzles.txt", "--plot", tmp_path / target)
    assert result.exit_code == 2
    assert result.output.startswith("Error: --plot ") and "use one of .png, .pdf, .svg" in result.output
    assert result.output.count("\n") == 1
    assert not (tmp_path / target).exists()


def test_plot_into_a_missing_directory_through_the_real_command(files, tmp_path):
    target = tmp_path / "nodir" / "dist.pdf"
    done = subprocess.run([sys.executable, "-m", "sudorules", "stats", str(files / "puzzles.txt"),
                           "--plot", str(target)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == f"Error: {target}: no such directory: {target.parent}\n"
    assert done.stdout == ""  # refused before any work: no report either
    assert "Traceback" not in done.stderr and not target.parent.exists()


@pytest.mark.parametrize("target", ["/proc/sudorules-test.png", "/sys/sudorules-test.svg"])
def test_plot_where_no_file_can_be_made_is_refused_before_any_work(files, target):
    """As root, os.access says /proc and /sys are writable: ``stats --plot /proc/x.png`` printed its
    whole report, then failed on the write.  A new name under /proc (/dev) is no file, and the
    directory is asked by making one of the target's temporary files there."""
    pytest.importorskip("matplotlib")
    if not os.path.isdir(os.path.dirname(target)):
        pytest.skip(f"no {os.path.dirname(target)} here")
    result = run("stats", files / "puzzles.txt", "--plot", target)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith(f"Error: {target}: ") and result.stderr.count("\n") == 1, result.stderr


def test_plot_never_replaces_an_input(files):
    pytest.importorskip("matplotlib")
    (files / "W.png").write_text("".join(f"{w}\n" for _, w, _, _, _ in ROWS))  # a value file named .png
    before = (files / "W.png").read_bytes()
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.png'}", "--plot", files / "W.png")
    assert result.exit_code == 2 and "is an input of this run" in result.output
    assert (files / "W.png").read_bytes() == before


def _fuzz_text():
    from hypothesis import strategies as st
    cell = st.sampled_from(["", "1", "25", "2.5", "x", "-3", "nan", "inf", "1e400", "solved", "invalid", '"a,b"',
                            puzzle_with(25), puzzle_with(26)[:40], "\ufeff", "\xff"])
    header = st.lists(st.sampled_from(["puzzle", "clues", "W", "B", "status", "seconds", "error", "tries", "",
                                       "solutions", "W"]), min_size=1, max_size=6)
    return st.tuples(header, st.lists(st.lists(cell, max_size=7), max_size=6)).map(
        lambda hr: ",".join(hr[0]) + "\n" + "".join(",".join(row) + "\n" for row in hr[1]))


def test_random_inputs_never_give_a_traceback(tmp_path_factory):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    folder = tmp_path_factory.mktemp("fuzz")

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.one_of(st.binary(max_size=300), _fuzz_text().map(lambda t: t.encode("utf-8", "surrogatepass"))),
           suffix=st.sampled_from([".csv", ".txt", ".parquet"]),
           extra=st.sampled_from([[], ["--raw"], ["--json"], ["--by", "clues"], ["--log", "clues"],
                                  ["--rating", "seconds"]]),
           command=st.sampled_from(["stats", "compare"]))
    def check(data, suffix, extra, command):
        path = folder / f"input{suffix}"
        path.write_bytes(data)
        args = [command, str(path)] + (["--ratings", "W", "B"] if command == "compare" else extra)
        result = CliRunner().invoke(main, args)
        assert result.exit_code in (0, 1, 2), (data, args, result.output)
        assert "internal error" not in result.output and "Traceback" not in result.output, (data, args, result.output)
        if result.exit_code:
            assert result.output.startswith("Error: ") and result.output.count("\n") == 1, (data, result.output)

    check()


def test_log_of_a_column_that_is_no_rating_says_so(tmp_path):
    """``--log seconds`` of a rate output said "unknown column" of a column the file has; it is a usage
    error (status 2) that says what to add, where a name of no column stays "unknown column"."""
    path = tmp_path / "rated.csv"
    path.write_text(rate_csv([(25, 1, 1, "solved", 1.0), (26, 2, 2, "solved", 2.0), (27, 3, 3, "solved", 4.0)]))
    result = run("stats", path, "--log", "seconds")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert result.output.startswith("Error: --log seconds: not a rating column: add --rating seconds")
    assert "unknown" not in result.output
    assert "unknown column" in run("stats", path, "--log", "nope").output
    assert run("stats", path, "--log", "seconds", "--rating", "seconds").exit_code == 0


def test_an_invalid_rows_tries_are_not_in_t(tmp_path):
    """The empty grid, rated invalid (several solutions) with a tail of 5, added its 5 tries to T, the
    total of the numbers of minimals per grid: an invalid row counts nowhere, T included."""
    rows = [(25, 1, 1, "solved", 1.0), (26, 2, 2, "solved", 2.0), (27, 3, 3, "solved", 4.0)]
    tries = [1000, 2000, 3000]
    path = tmp_path / "rated.csv"
    lines = ["puzzle,clues,W,status,tail,error"]
    lines += [f"{puzzle_with(n)},{n},{w},{s},{t}," for (n, w, _, s, _), t in zip(rows, tries)]
    lines.append("." * 81 + ",0,,invalid,5,line 4: several solutions")
    path.write_text("\n".join(lines) + "\n")
    data = json.loads(run("stats", path, "--json").output)
    assert data["minimals"]["total_tries"] == sum(tries)
    per_clue = {r["clues"]: r for r in data["minimals"]["per_clue"]}
    assert per_clue[26]["per_grid"] == pytest.approx(math.comb(81, 26) / sum(tries))


def test_plot_scale_without_plot_is_refused(tmp_path):
    """--plot-scale log without --plot was taken without a word, drawing nothing (helper-45)."""
    table = tmp_path / "p.csv"
    table.write_text("clues,W\n25,1\n26,2\n27,3\n")
    result = run("stats", table, "--plot-scale", "log")
    assert result.exit_code == 2 and "--plot-scale log applies to the --plot drawing" in result.output
    assert run("stats", table, "--plot-scale", "auto").exit_code == 0


def test_a_length_rating_that_is_no_whole_number_is_said_not_dropped_unsaid(tmp_path):
    """One W of 2.5 took W's distribution by level out of the report, saying nothing, and W = -1 made a
    level -1 (helper-50): a note names the row; SER, a rating of decimals, gets none."""
    rows = ["puzzle,clues,W,SER,status"] + [f"{puzzle_with(n)},{n},{w},{s},solved" for n, w, s in
                                           ((25, "2", "1.5"), (26, "3", "2.3"), (26, "1", "7.1"), (27, "2", "4.4"))]
    for bad, level, what in (("2.5", False, "no distribution by level"), ("-1", True, "counted as read")):
        path = tmp_path / "rated.csv"
        path.write_text("\n".join(rows[:3] + [rows[3].replace(",1,7.1,", f",{bad},7.1,")] + rows[4:]) + "\n")
        data = json.loads(run("stats", path, "--json").stdout)
        assert data["notes"] == [f"W {bad} at line 4: a W rating is a whole number, 0 or more ({what})"]
        assert ("W" in data["level_distributions"]) is level and "SER" not in data["level_distributions"]
        result = subprocess.run([sys.executable, "-m", "sudorules", "stats", str(path)], capture_output=True, text=True)
        assert f"note: W {bad} at line 4" in result.stderr, result.stderr
    path.write_text("\n".join(rows) + "\n")
    assert json.loads(run("stats", path, "--json").stdout)["notes"] == []
