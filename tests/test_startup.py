"""Start-up (issue 23): a command imports only what it uses.

``sudorules --help`` imports none of pandas, numpy or clips; ``solve`` of one puzzle no pandas and no
numpy; ``rate --rating B`` (the compiled engine) no clips and no pandas, nor the registry of rule
families (the resolution package) and the rules' label tables.  Timings live in
benchmarks/README.md; these tests check the imports that made start-up slow.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

HEAVY = ("pandas", "numpy", "clips")
#: what a run of compiled ratings does not need: the registry of rule families (and with it the whole
#: resolution package: its checkers) and the g-label tables of the rules' encoding
RULES_ONLY = ("sudorules.resolution.families", "sudorules.engine.labels")
#: what ``rate --jobs 1`` of compiled ratings into a CSV file does not need: the worker pool, the
#: tables of rated collections (--format's error messages), pathlib (together 10 of its 70 ms)
ONE_PROCESS_ONLY = ("sudorules.batch.pool", "sudorules.collection.table", "pathlib")
EASY = (ROOT / "collections" / "demo.txt").read_text().split()[0][:81]


def _imported(*args: str, tmp_path, watched=HEAVY) -> set[str]:
    """The modules of ``watched`` imported by ``sudorules ARGS``, run in a fresh interpreter (not
    those the interpreter had imported before: an editable install's import hook imports pathlib)."""
    code = ("import sys\n"
            "before = set(sys.modules)\n"
            "from sudorules.cli import main\n"
            "try:\n"
            f"    main({list(args)!r})\n"
            "except SystemExit:\n"
            "    pass\n"
            f"print('imported:' + ','.join(m for m in {tuple(watched)!r} if m in sys.modules and m not in before), "
            "file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    lines = [line for line in run.stderr.splitlines() if line.startswith("imported:")]
    assert lines, run.stderr
    return {m for m in lines[-1].removeprefix("imported:").split(",") if m}


def test_help_imports_nothing_heavy(tmp_path):
    assert _imported("--help", tmp_path=tmp_path) == set()


@pytest.mark.parametrize("command", ["solve", "rate", "classify", "check", "stats", "generate", "canon", "select"])
def test_a_command_help_imports_no_pandas(command, tmp_path):
    assert "pandas" not in _imported(command, "--help", tmp_path=tmp_path)


def test_solving_one_puzzle_imports_neither_pandas_nor_numpy(tmp_path):
    assert _imported("solve", EASY, tmp_path=tmp_path) == {"clips"}


def test_rating_b_imports_no_rules_and_no_pandas(tmp_path):
    (tmp_path / "p.txt").write_text(EASY + "\n")
    assert _imported("rate", "p.txt", "--rating", "B", "--jobs", "1", "--no-progress", tmp_path=tmp_path) <= {"numpy"}


def test_rating_on_one_process_imports_no_pool(tmp_path):
    (tmp_path / "p.txt").write_text(EASY + "\n")
    args = ("rate", "p.txt", "--rating", "B", "--no-progress", "-o", "out.csv")
    assert _imported(*args, "--jobs", "1", tmp_path=tmp_path, watched=ONE_PROCESS_ONLY) == set()
    assert (tmp_path / "out.csv").read_text().count("\n") == 2  # it did rate
    # and the pool is there when workers are started (the test can tell)
    assert "sudorules.batch.pool" in _imported(*args[:-1], "out2.csv", "--jobs", "2", tmp_path=tmp_path,
                                               watched=ONE_PROCESS_ONLY)


@pytest.mark.parametrize("rating", ["B", "gB,TE", "BxB"])
def test_compiled_ratings_import_no_rule_registry(rating, tmp_path):
    (tmp_path / "p.txt").write_text(EASY + "\n")
    args = ("rate", "p.txt", "--rating", rating, "--jobs", "1", "--no-progress")
    assert _imported(*args, tmp_path=tmp_path, watched=RULES_ONLY) == set()
    # and the registry is there when a rule-based rating asks for it (the test can tell)
    assert _imported("rate", "p.txt", "--rating", "W", "--jobs", "1", "--no-progress", tmp_path=tmp_path,
                     watched=RULES_ONLY) >= {"sudorules.resolution.families"}
