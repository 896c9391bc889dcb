"""The ``stats`` and ``compare`` commands through click's CliRunner: outputs and clean errors."""

import json

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
    data = json.loads(run("stats", *args, "--json").output)
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


@pytest.mark.parametrize("extra, message", [
    (["--column", "SER=missing.txt"], "no such file"),
    (["--column", "SER"], "NAME=FILE"),
    (["--log", "W"], "values are <= 0"),
    (["--log", "nope"], "unknown column"),
])
def test_stats_bad_inputs(files, extra, message):
    extra = [e.replace("missing.txt", str(files / "missing.txt")) for e in extra]
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", *extra)
    assert result.exit_code != 0
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
    assert result.exit_code != 0 and "unknown column 'B'" in result.output and result.output.count("\n") == 1


def test_plot_writes_a_png(files, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "dist.png"
    result = run("stats", files / "puzzles.txt", "--column", f"W={files / 'W.txt'}", "--plot", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_clean_error(files, tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    result = run("stats", files / "puzzles.txt", "--plot", tmp_path / "x.png")
    assert result.exit_code != 0 and "pip install 'sudorules[plot]'" in result.output
    assert not (tmp_path / "x.png").exists()


def test_empty_inputs(tmp_path):
    assert "no input" in run("stats").output
    (tmp_path / "empty.csv").write_text("puzzle,clues,W,status\n")
    result = run("stats", tmp_path / "empty.csv")
    assert result.exit_code != 0 and "no puzzle rows" in result.output
