"""Our own collection end to end: generate, rate (W and B), then stats and compare on the result."""

import csv
import json
from math import comb

import pytest
from click.testing import CliRunner

from sudorules.cli import main


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_generate_rate_stats_compare(tmp_path):
    generated, rated = tmp_path / "gen.txt", tmp_path / "rated.csv"
    run("generate", "--method", "top-down", "-n", 12, "--seed", 5, "-o", generated, "--no-progress")
    run("rate", generated, "--rating", "W,B", "--jobs", 1, "-o", rated, "--no-progress")
    rows = list(csv.DictReader(rated.open()))
    assert [r["puzzle"] for r in rows] == [line.split()[0] for line in generated.read_text().splitlines()]
    assert all(r["status"] == "solved" for r in rows)

    stats = json.loads(run("stats", rated, "--json"))
    clues = [int(r["clues"]) for r in rows]
    w = [int(r["W"]) for r in rows]
    weights = [comb(81, n) / comb(81, 26) for n in clues]
    assert stats["rows"] == len(rows)
    assert stats["columns"]["W"]["raw"]["mean"] == pytest.approx(sum(w) / len(w))
    assert stats["columns"]["clues"]["unbiased"]["mean"] == pytest.approx(
        sum(c * f for c, f in zip(clues, weights)) / sum(weights))
    assert stats["columns"]["W"]["unbiased"]["mean"] == pytest.approx(
        sum(x * f for x, f in zip(w, weights)) / sum(weights))

    comparison = json.loads(run("compare", rated, "--ratings", "W", "B", "--json"))
    assert comparison["compared"] == len(rows)
    assert comparison["differ"] == sum(1 for r in rows if r["W"] != r["B"])
    assert sum(map(sum, comparison["cross_table"]["counts"])) == len(rows)
