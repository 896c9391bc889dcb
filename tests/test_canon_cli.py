"""`sudorules canon` and the `canonical` columns of `check` and `rate` (issue 26), run as a user runs them."""

from __future__ import annotations

import csv
import io
import subprocess
import sys

import numpy as np
from click.testing import CliRunner

from sudorules import Puzzle
from sudorules.cli import main
from sudorules.generation import Transform, canonical

from conftest import TOP_DOWN_14

GRID_648 = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"


def isomorph(puzzle: str, seed: int) -> str:
    return str(Transform.random(np.random.default_rng(seed)).apply(puzzle))


def run(*args: str, stdin: str = ""):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_canon_writes_one_form_per_line_with_its_tail(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(f"{TOP_DOWN_14[0]} 200314\n# a comment\n{isomorph(TOP_DOWN_14[0], 1)}\n{GRID_648} a b\n")
    result = run("canon", str(source))
    assert result.exit_code == 0, result.output
    form = canonical(TOP_DOWN_14[0])
    assert result.stdout.splitlines() == [f"{form} 200314", form, f"{GRID_648} a b"]


def test_canon_unique_keeps_first_occurrences_and_counts_on_stderr():
    lines = [TOP_DOWN_14[0] + " first", TOP_DOWN_14[1], isomorph(TOP_DOWN_14[0], 2) + " second",
             isomorph(TOP_DOWN_14[1], 3), TOP_DOWN_14[2]]
    result = run("canon", "-", "--unique", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [canonical(TOP_DOWN_14[0]) + " first", canonical(TOP_DOWN_14[1]),
                                          canonical(TOP_DOWN_14[2])]
    assert result.stderr.strip() == "5 puzzles, 3 distinct, 2 isomorphs removed"


def test_canon_bad_lines_are_named_and_the_run_goes_on():
    result = run("canon", "-", "--unique", stdin=f"{TOP_DOWN_14[0]}\n12x\n55{'.' * 79}\n{TOP_DOWN_14[1]}\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [canonical(TOP_DOWN_14[0]), canonical(TOP_DOWN_14[1])]
    errors = result.stderr.splitlines()
    assert errors[0].startswith("line 2: ") and errors[1] == "line 3: digit 5 repeated in row 1"
    assert errors[2] == "2 puzzles, 2 distinct, 0 isomorphs removed; 2 invalid"


def test_canon_automorphisms_and_solution_forms():
    puzzle = "3.9...4..2..7.9....87......75..6.23.6..9.4..8.28.5..41......59....1.6..7..6...1.4"
    result = run("canon", "-", "--automorphisms", stdin=f"{GRID_648}\n{puzzle} t\n")
    assert result.stdout.splitlines() == [f"{GRID_648} 648", f"{canonical(puzzle)} 1 t"]
    # the published solution minlex of this puzzle (sudokuwiki.org/Sudoku_Min_Lex); no solution: an error
    result = run("canon", "-", "--solution", stdin=f"{puzzle}\n{'.' * 81}\n")
    assert result.exit_code == 1
    assert result.stdout == "123456789457189236698273541261947853745831692839625417384792165512368974976514328\n"
    assert result.stderr == "line 2: several solutions\n"


def test_canon_pencilmark_puzzles():
    masks = [1 << (int(v) - 1) for v in GRID_648]
    masks[80] |= 0b11
    line = str(Puzzle.from_marks(masks))
    result = run("canon", "-", stdin=line + "\n")
    assert result.exit_code == 0
    assert len(result.stdout.strip()) == 729
    assert result.stdout.strip() == str(Puzzle.from_marks(masks).canonical())


def test_canon_output_file_and_refusals(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(TOP_DOWN_14[0] + "\n")
    out = tmp_path / "forms.txt"
    assert run("canon", str(source), "-o", str(out)).exit_code == 0
    assert out.read_text() == canonical(TOP_DOWN_14[0]) + "\n"
    refused = run("canon", str(source), "-o", str(source))
    assert refused.exit_code == 2 and "input" in refused.stderr
    missing = run("canon", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_check_canonical_column_through_a_subprocess(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(f"{TOP_DOWN_14[0]}\nbad\n{GRID_648}\n")
    done = subprocess.run([sys.executable, "-m", "sudorules", "check", str(source), "--canonical"],
                          capture_output=True, text=True)
    assert done.returncode == 1
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(rows[0]) == ["puzzle", "clues", "solutions", "minimal", "solution", "canonical", "tail", "error"]
    assert [r["canonical"] for r in rows] == [canonical(TOP_DOWN_14[0]), "", GRID_648]
    plain = subprocess.run([sys.executable, "-m", "sudorules", "check", str(source)], capture_output=True, text=True)
    assert "canonical" not in plain.stdout.splitlines()[0]


def test_rate_canonical_column(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(f"{TOP_DOWN_14[0]} 77\nbad line\n")
    out = tmp_path / "rated.csv"
    result = run("rate", str(source), "--canonical", "--jobs", "1", "-o", str(out))
    assert result.exit_code == 1  # the bad line is an invalid row
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0])[:5] == ["puzzle", "clues", "W", "canonical", "status"]
    assert [r["canonical"] for r in rows] == [canonical(TOP_DOWN_14[0]), ""]
    assert rows[0]["status"] == "solved" and rows[1]["status"] == "invalid"
    # the stats of such a file read the canonical column as text
    assert run("stats", str(out)).exit_code == 0
