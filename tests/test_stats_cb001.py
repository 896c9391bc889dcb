"""The issue-5 targets on the published controlled-bias collection cb-001 (21,695 puzzles)."""

import pytest

from sudorules.stats import build_report, compare_ratings, load_collection

W_RAW = [34.953, 9.555, 13.012, 20.244, 17.672, 3.581, 0.737]
W_UNBIASED = [29.376, 8.144, 12.888, 22.210, 21.572, 4.547, 0.960]


@pytest.fixture(scope="module")
def collection(cb001):
    columns = [(name, str(cb001 / file)) for name, file in
               (("W", "W-ratings.txt"), ("B", "B-ratings.txt"), ("SER", "SER.txt"))]
    return load_collection([str(cb001 / "puzzles.txt")], columns)


@pytest.fixture(scope="module")
def report(collection):
    return build_report(collection)


def test_clue_statistics(report, cb001):
    clues = report["columns"]["clues"]
    assert clues["count"] == 21695
    assert clues["raw"]["mean"] == pytest.approx(25.6636, abs=1e-4)
    assert clues["raw"]["sd"] == pytest.approx(1.1109, abs=1e-4)
    assert clues["unbiased"]["mean"] == pytest.approx(26.5581, abs=1e-4)
    # the clue counts computed from the puzzles agree with the published nb-clues.txt
    published = [int(line) for line in (cb001 / "nb-clues.txt").read_text().split()]
    on = {r["clues"]: r["on"] for r in report["clue_distribution"]}
    assert on == {n: published.count(n) for n in set(published)}


def test_w_distribution_raw_and_unbiased(report):
    levels = {r["level"]: r for r in report["level_distributions"]["W"]}
    for level in range(7):
        assert levels[level]["raw_percent"] == pytest.approx(W_RAW[level], abs=6e-4)
        assert levels[level]["unbiased_percent"] == pytest.approx(W_UNBIASED[level], abs=6e-4)
    assert sum(r["count"] for r in levels.values()) == 21695


def test_unbiased_mean_ser_and_correlation(report):
    assert report["columns"]["SER"]["unbiased"]["mean"] == pytest.approx(4.7327, abs=1e-4)
    names = report["correlation"]["columns"]
    r = report["correlation"]["raw"][names.index("W")][names.index("SER")]
    assert r == pytest.approx(0.9129, abs=1e-4)


def test_w_and_b_differ_on_45_puzzles(collection):
    result = compare_ratings(collection, "W", "B")
    assert result["compared"] == 21695 and result["differ"] == 45 and len(result["differences"]) == 45
    # braids are at least as strong as whips: B <= W wherever they differ
    assert all(d["B"] < d["W"] for d in result["differences"])


def test_numbers_of_minimals_agree_with_the_paper_within_sampling_error(report):
    # 000 §2.1.5: 4.6563e15 minimal puzzles per grid (5.9 million puzzles); ours from 21,695
    minimals = report["minimals"]
    assert abs(minimals["per_grid"] - 4.6563e15) < 3 * minimals["relative_error"] * minimals["per_grid"]
    rows = {r["clues"]: r for r in minimals["per_clue"]}
    assert abs(rows[26]["per_grid"] / 1.4855e15 - 1) < 3 * rows[26]["relative_error"]


def test_shape_of_the_distributions_as_000_gives_it(report):
    """Skewness and excess kurtosis (000 §2.1.1, §2.1.4): the controlled-bias clue distribution's
    published 0.087 and 0.024 (5.9 million puzzles; cb-001's 21,695 have standard errors of about
    sqrt(6/n) = 0.017 and sqrt(24/n) = 0.033), and its SER's kurtosis -1.70."""
    clues, ser = report["columns"]["clues"]["raw"], report["columns"]["SER"]["raw"]
    assert clues["skewness"] == pytest.approx(0.087, abs=2 * 0.017)
    assert clues["kurtosis"] == pytest.approx(0.024, abs=2 * 0.033)
    assert ser["kurtosis"] == pytest.approx(-1.70, abs=0.03)
