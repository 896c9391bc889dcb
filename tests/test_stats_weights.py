"""Importance weights: ``generate --weights`` writes each puzzle's grid weight, ``stats --weights``
(or a ``weight`` column) weights the statistics by it, so that a sample of the seeded grids gives the
figures of uniform grids."""

import math
import random
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner

from sudorules.cli import main
from sudorules.generation.count import BOX_COMPLETIONS
from sudorules.generation.generate import generate, generate_frame
from sudorules.stats import StatsInputError, build_report, load_collection


def solution_cell(index: int) -> str:
    r, c = divmod(index, 9)
    return str((3 * r + r // 3 + c) % 9 + 1)


def puzzle_with(clues: int) -> str:
    """A conflict-free puzzle whose first ``clues`` cells are given."""
    return "".join(solution_cell(i) if i < clues else "." for i in range(81))


def random_rows(seed: int, count: int) -> list[tuple]:
    """Rows (clues, W, B, tries, weight): clue counts 24-28, ratings loosely tied to them."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        clues = rng.randint(24, 28)
        w = max(0, rng.randint(0, 6) + 26 - clues)
        rows.append((clues, w, max(0, w - rng.randint(0, 2)), rng.randint(1, 500), rng.randint(1, 4)))
    return rows


def write_csv(path, rows, with_weight: bool):
    lines = ["puzzle,clues,W,B,tries" + (",weight" if with_weight else "")]
    lines += [f"{puzzle_with(n)},{n},{w},{b},{t}" + (f",{k}" if with_weight else "") for n, w, b, t, k in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def figures(report: dict) -> dict:
    """The report's figures that weights change, and that rows repeated k times give alike."""
    out = {}
    for name, entry in report["columns"].items():
        for kind in ("raw", "unbiased"):
            for key in ("mean", "sd", "sd_mixture"):
                out[f"{name}.{kind}.{key}"] = entry[kind][key]
    for record in report["clue_distribution"]:
        out[f"clues{record['clues']}.raw"] = record["raw_percent"]
        out[f"clues{record['clues']}.unbiased"] = record["unbiased_percent"]
    for name, records in report["level_distributions"].items():
        for record in records:
            out[f"{name}{record['level']}.raw"] = record["raw_percent"]
            out[f"{name}{record['level']}.unbiased"] = record["unbiased_percent"]
    for kind in ("raw", "unbiased"):
        for i, row in enumerate(report["correlation"][kind]):
            for j, value in enumerate(row):
                out[f"r{i}{j}.{kind}"] = value
    return out


def test_integer_weights_count_as_repeated_rows(tmp_path):
    """A puzzle of weight k counts as k copies of it in every mean, sd, share and correlation."""
    rows = random_rows(1, 60)
    weighted = build_report(load_collection([str(write_csv(tmp_path / "w.csv", rows, True))]))
    repeated = [row for row in rows for _ in range(row[4])]
    plain = build_report(load_collection([str(write_csv(tmp_path / "r.csv", repeated, False))]))
    got, expected = figures(weighted), figures(plain)
    assert got.keys() == expected.keys() and len(got) > 40
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
    # counts stay counts of rows
    assert weighted["columns"]["W"]["count"] == 60 and plain["columns"]["W"]["count"] == len(repeated)
    assert weighted["weights"]["rows"] == 60
    assert weighted["weights"]["mean"] == pytest.approx(sum(r[4] for r in rows) / 60)
    assert plain["weights"] is None


def test_weights_of_one_change_no_figure(tmp_path):
    rows = [(n, w, b, t, 1) for n, w, b, t, _ in random_rows(2, 40)]
    ones = build_report(load_collection([str(write_csv(tmp_path / "w.csv", rows, True))]))
    plain = build_report(load_collection([str(write_csv(tmp_path / "p.csv", rows, False))]))
    for key, value in figures(plain).items():
        assert figures(ones)[key] == pytest.approx(value, rel=1e-12, abs=1e-14), key
    assert ones["minimals"]["per_grid"] == pytest.approx(plain["minimals"]["per_grid"], rel=1e-12)
    assert ones["weights"]["effective_rows"] == pytest.approx(40)
    assert ones["minimals"]["assumes"] != plain["minimals"]["assumes"]


def test_weighted_minimals_by_hand(tmp_path):
    rows = random_rows(3, 30)
    report = build_report(load_collection([str(write_csv(tmp_path / "w.csv", rows, True))]))
    total_tries = sum(r[3] for r in rows)
    minimals = report["minimals"]
    assert minimals["total_tries"] == total_tries
    expected_total = 0.0
    for record in minimals["per_clue"]:
        n = record["clues"]
        weights = [r[4] for r in rows if r[0] == n]
        assert record["on"] == len(weights) and record["weight"] == sum(weights)
        assert record["per_grid"] == pytest.approx(sum(weights) * comb(81, n) / total_tries)
        assert record["relative_error"] == pytest.approx(math.sqrt(sum(w * w for w in weights)) / sum(weights))
        assert record["tries_per_minimal"] == pytest.approx(total_tries / sum(weights))
        expected_total += sum(weights) * comb(81, n) / total_tries
    assert minimals["per_grid"] == pytest.approx(expected_total)


def test_a_weights_file_is_the_weight_column(tmp_path):
    rows = random_rows(4, 25)
    inline = build_report(load_collection([str(write_csv(tmp_path / "w.csv", rows, True))]))
    (tmp_path / "weights.txt").write_text("".join(f"{r[4]}\n" for r in rows))
    beside = build_report(load_collection([str(write_csv(tmp_path / "p.csv", rows, False))],
                                          weights=str(tmp_path / "weights.txt")))
    assert figures(beside) == figures(inline)
    assert beside["minimals"] == inline["minimals"]


@pytest.mark.parametrize("weights, message", [
    ("1\n\n2\n", "line 2: weight missing"),
    ("1\n0\n2\n", "line 2: weight 0, not a sampling weight"),
    ("1\n2\n-3\n", "line 3: weight -3, not a sampling weight"),
    ("1\n2\n", "has 2 lines but the collection has 3 rows"),
    ("1\nx\n2\n", "line 2: 'x' is not a number"),
])
def test_bad_weights_are_refused_with_their_line(tmp_path, weights, message):
    rows = random_rows(5, 3)
    (tmp_path / "weights.txt").write_text(weights)
    with pytest.raises(StatsInputError, match=message):
        load_collection([str(write_csv(tmp_path / "p.csv", rows, False))], weights=str(tmp_path / "weights.txt"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_stats_weights_on_the_command_line(tmp_path):
    rows = random_rows(6, 12)
    table = write_csv(tmp_path / "p.csv", rows, False)
    (tmp_path / "weights.txt").write_text("".join(f"{r[4]}\n" for r in rows))
    result = run("stats", table, "--weights", tmp_path / "weights.txt", "--by", "clues")
    assert result.exit_code == 0, result.output
    assert "Weighted: each puzzle by its grid's importance weight (12 rows" in result.output
    assert "Σw(n)" in result.output and "n_eff(n)" in result.output and "unbiased ∝ Σn cf(n)·Σ w" in result.output
    unweighted = run("stats", table)
    assert "Weighted" not in unweighted.output and "weighted (generate --weights FILE" in unweighted.output
    refused = run("stats", table, "--column", f"weight={tmp_path / 'weights.txt'}")
    assert refused.exit_code == 2 and "--weights FILE" in refused.output


def test_generate_writes_the_weights_line_for_line(tmp_path):
    """The weights file holds the API's weights (Batch.weights / N1, the same for any --jobs), one per
    puzzle line, and stats reads the two files together."""
    for jobs in (1, 2):
        out, weights = tmp_path / f"p{jobs}.txt", tmp_path / f"w{jobs}.txt"
        result = run("generate", "-m", "top-down", "-n", 30, "--seed", 9, "--jobs", jobs, "-o", out, "--weights", weights)
        assert result.exit_code == 0, result.output
        assert len(out.read_text().splitlines()) == 30
        assert [float(v) for v in weights.read_text().splitlines()] == (
            generate("top-down", 30, seed=9, weights=True).weights / BOX_COMPLETIONS).tolist()
    assert (tmp_path / "w1.txt").read_text() == (tmp_path / "w2.txt").read_text()
    frame = generate_frame("top-down", 30, seed=9, weights=True)
    assert frame["weight"].tolist() == [float(v) for v in (tmp_path / "w1.txt").read_text().splitlines()]
    assert 0.3 < float(np.mean(frame["weight"])) < 3  # of mean 1 over the sampler's grids
    stats = run("stats", tmp_path / "p1.txt", "--weights", tmp_path / "w1.txt", "--json")
    assert stats.exit_code == 0, stats.output
    assert '"effective_rows"' in stats.output


def test_generate_controlled_bias_weights_and_tries(tmp_path):
    out, weights = tmp_path / "cb.txt", tmp_path / "cbw.txt"
    result = run("generate", "-m", "controlled-bias", "-n", 2, "--seed", 4, "-o", out, "--weights", weights)
    assert result.exit_code == 0, result.output
    batch = generate("controlled-bias", 2, seed=4, weights=True)
    assert [int(line.split()[1]) for line in out.read_text().splitlines()] == batch.tries.tolist()
    assert [float(v) for v in weights.read_text().splitlines()] == (batch.weights / BOX_COMPLETIONS).tolist()


@pytest.mark.parametrize("args, message", [
    (["-m", "bottom-up", "--weights", "w.txt"], "bottom-up draws no complete grid"),
    (["-m", "top-down", "--grids", "grids.txt", "--weights", "w.txt"], "--grids are not sampled"),
    (["-m", "top-down", "-o", "same.txt", "--weights", "same.txt"], "the puzzles go there (-o same.txt)"),
    (["-m", "top-down", "--weights", "-"], "the puzzles go there (standard output)"),
    # standard output by other names (helper-41: both were written there, mixed)
    (["-m", "top-down", "-o", "/dev/stdout", "--weights", "-"], "the puzzles go there (-o /dev/stdout)"),
    (["-m", "top-down", "--weights", "/dev/fd/1"], "the puzzles go there (standard output)"),
])
def test_generate_refuses_weights_it_cannot_write(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grids.txt").write_text("".join(solution_cell(i) for i in range(81)) + "\n")
    result = run("generate", "-n", 2, *args)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "w.txt").exists() and not (tmp_path / "same.txt").exists()


def test_compare_weights_its_shares_as_repeated_rows(tmp_path, monkeypatch):
    from sudorules.stats import compare_ratings

    rows = random_rows(7, 50)
    weighted = compare_ratings(load_collection([str(write_csv(tmp_path / "w.csv", rows, True))]), "W", "B")
    repeated = [row for row in rows for _ in range(row[4])]
    plain = compare_ratings(load_collection([str(write_csv(tmp_path / "r.csv", repeated, False))]), "W", "B")
    assert 0 < plain["raw_percent"] < 100
    assert weighted["raw_percent"] == pytest.approx(plain["raw_percent"])
    assert weighted["unbiased_percent"] == pytest.approx(plain["unbiased_percent"])
    assert weighted["compared"] == 50
    unweighted = compare_ratings(load_collection([str(write_csv(tmp_path / "p.csv", rows, False))]), "W", "B")
    assert unweighted["raw_percent"] != pytest.approx(plain["raw_percent"])
    (tmp_path / "weights.txt").write_text("".join(f"{r[4]}\n" for r in rows))
    said = run("compare", tmp_path / "p.csv", "--weights", tmp_path / "weights.txt", "--ratings", "W", "B")
    assert said.exit_code == 0 and ", weighted)" in said.output and "Weighted: each puzzle" in said.output
    monkeypatch.chdir(tmp_path)
    result = run("compare", "p.csv", "--weights", "nonexistent.txt", "--ratings", "W", "B")
    assert result.exit_code == 2 and "nonexistent.txt" in result.output


def test_weights_that_overflow_and_weights_that_differ_in_the_last_digits(tmp_path):
    rows = random_rows(8, 4)
    table = write_csv(tmp_path / "p.csv", rows, False)
    (tmp_path / "huge.txt").write_text("1\n1e308\n1e308\n1\n")
    with pytest.raises(StatsInputError, match="huge.txt line 2: weight 1e[+]308: the weights add up past"):
        load_collection([str(table)], weights=str(tmp_path / "huge.txt"))
    # a weight column rounded to 6 digits against the file's full weights: the message shows them in full
    inline = write_csv(tmp_path / "w.csv", [r[:4] + (0.194005,) for r in rows], True)
    (tmp_path / "full.txt").write_text("0.1940051693705154\n" * 4)
    with pytest.raises(StatsInputError, match=r"differs \(0\.194005 vs 0\.1940051693705154\)"):
        load_collection([str(inline)], weights=str(tmp_path / "full.txt"))
    refused = run("stats", table, "--column", f"Weight={tmp_path / 'full.txt'}")
    assert refused.exit_code == 2 and "--weights FILE" in refused.output
    named = run("compare", inline, "--ratings", "W", "weight")
    assert named.exit_code == 2 and "importance weights" in named.output and "unknown" not in named.output

