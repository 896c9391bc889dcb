"""Statistics library against values computed by hand on a few rows (issue #5 items 1-2)."""

import math
import statistics
from fractions import Fraction
from math import comb

import pandas as pd
import pytest

from sudorules.stats import StatsInputError, build_report, compare_ratings, load_collection, parse_column_option
from sudorules.stats.correction import correction_factor, correction_table
from sudorules.stats.correlation import mean_distances

# SPEC §8.1, the exact table as printed there
SPEC_CF = {17: "82225/724752224", 18: "82225/203836563", 19: "82225/61474519", 20: "16445/3966098",
           21: "16445/1365378", 22: "7475/227563", 23: "325/3857", 24: "325/1596", 25: "13/28", 26: "1",
           27: "55/27", 28: "55/14", 29: "2915/406", 30: "7579/609", 31: "128843/6293",
           32: "3221075/100688", 33: "2049775/43152", 34: "120575/1798", 35: "161915/1798",
           36: "3724045/32364"}
# 000 §1.3: cf-sequence[19...31] as printed (3 significant digits)
SEED_CB = [0.00134, 0.00415, 0.0120, 0.0329, 0.0843, 0.204, 0.464, 1, 2.037, 3.929, 7.180, 12.445, 20.474]


def test_correction_factors_equal_the_spec_table():
    table = correction_table(17, 36)
    assert {n: str(f) for n, f in table.items()} == SPEC_CF


def test_correction_factors_follow_the_recurrence_and_the_seed_list():
    for n in range(0, 81):
        assert correction_factor(n + 1) / correction_factor(n) == Fraction(81 - n, n + 1)
    for n, printed in zip(range(19, 32), SEED_CB):
        assert float(correction_factor(n)) == pytest.approx(printed, rel=5e-3)


def test_correction_factor_rejects_impossible_clue_counts():
    for bad in (-1, 82, 25.5):
        with pytest.raises(ValueError):
            correction_factor(bad)


def solution_cell(index: int) -> str:
    """A valid complete grid (row r, column c -> (3r + r//3 + c) mod 9 + 1)."""
    r, c = divmod(index, 9)
    return str((3 * r + r // 3 + c) % 9 + 1)


def puzzle_with(clues: int) -> str:
    """A conflict-free puzzle whose first ``clues`` cells are given."""
    return "".join(solution_cell(i) if i < clues else "." for i in range(81))


# Six puzzles: clues 25 25 26 26 26 27; W 0 2 1 3 (timeout) 4; B 0 2 1 2 (timeout) 3
ROWS = [(25, "0", "0", "solved", 100), (25, "2", "2", "solved", 200), (26, "1", "1", "solved", 300),
        (26, "3", "2", "solved", 400), (26, "", "", "timeout", 500), (27, "4", "3", "solved", 600)]


@pytest.fixture
def small_csv(tmp_path):
    path = tmp_path / "rated.csv"
    lines = ["puzzle,clues,W,B,status,tries"]
    lines += [f"{puzzle_with(n)},{n},{w},{b},{s},{t}" for n, w, b, s, t in ROWS]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_raw_and_unbiased_moments_by_hand(small_csv):
    report = build_report(load_collection([str(small_csv)]))
    assert report["rows"] == 6 and report["excluded_rows"] == 1 and report["status"] == {"solved": 5, "timeout": 1}
    w = report["columns"]["W"]
    # classes (counted rows only): 25 -> 0, 2 (E 1, sd 1); 26 -> 1, 3 (E 2, sd 1); 27 -> 4 (E 4, sd 0)
    assert w["count"] == 5 and w["missing"] == 1
    assert w["raw"]["mean"] == pytest.approx((1 * 2 + 2 * 2 + 4 * 1) / 5)
    assert w["raw"]["sd"] == pytest.approx(math.sqrt((1 * 2 + 1 * 2 + 0 * 1) / 5))
    assert w["raw"]["sd_mixture"] == pytest.approx(statistics.pstdev([0, 2, 1, 3, 4]))
    w25, w26, w27 = 2 * 13 / 28, 2 * 1.0, 1 * 55 / 27
    total = w25 + w26 + w27
    mean = (w25 * 1 + w26 * 2 + w27 * 4) / total
    assert w["unbiased"]["mean"] == pytest.approx(mean)
    assert w["unbiased"]["sd"] == pytest.approx(math.sqrt((w25 * 1 + w26 * 1 + w27 * 0) / total))
    mixture = (w25 * (1 + (1 - mean) ** 2) + w26 * (1 + (2 - mean) ** 2) + w27 * (0 + (4 - mean) ** 2)) / total
    assert w["unbiased"]["sd_mixture"] == pytest.approx(math.sqrt(mixture))
    per_clue = {r["clues"]: r for r in report["per_clue"]["W"]}
    assert (per_clue[26]["on"], per_clue[26]["mean"], per_clue[26]["sd"]) == (2, 2.0, 1.0)


def test_clue_statistics_keep_rows_of_any_status(small_csv):
    report = build_report(load_collection([str(small_csv)]))
    clues = [25, 25, 26, 26, 26, 27]
    assert report["columns"]["clues"]["raw"]["mean"] == pytest.approx(sum(clues) / 6)
    assert report["columns"]["clues"]["raw"]["sd"] == pytest.approx(statistics.pstdev(clues))
    weights = {25: 13 / 28, 26: 1.0, 27: 55 / 27}
    total = sum(weights[n] for n in clues)
    real_mean = sum(n * weights[n] for n in clues) / total
    assert report["columns"]["clues"]["unbiased"]["mean"] == pytest.approx(real_mean)
    assert report["columns"]["clues"]["unbiased"]["sd"] == pytest.approx(
        math.sqrt(sum(weights[n] * (n - real_mean) ** 2 for n in clues) / total))
    distribution = {r["clues"]: r for r in report["clue_distribution"]}
    assert distribution[26]["on"] == 3 and distribution[26]["raw_percent"] == pytest.approx(50)
    real26 = 100 * 3 / (2 * 13 / 28 + 3 + 55 / 27)
    assert distribution[26]["unbiased_percent"] == pytest.approx(real26)
    assert distribution[26]["unbiased_percent_sd"] == pytest.approx(real26 / math.sqrt(3))
    assert distribution[25]["cf_exact"] == "13/28"


def test_level_distribution_by_hand(small_csv):
    report = build_report(load_collection([str(small_csv)]))
    levels = {r["level"]: r for r in report["level_distributions"]["W"]}
    assert sorted(levels) == [0, 1, 2, 3, 4]
    assert all(r["count"] == 1 and r["raw_percent"] == pytest.approx(20) for r in levels.values())
    total = 2 * 13 / 28 + 2 * 1 + 55 / 27
    assert levels[0]["unbiased_percent"] == pytest.approx(100 * (13 / 28) / total)
    assert levels[4]["unbiased_percent"] == pytest.approx(100 * (55 / 27) / total)
    assert "tries" not in report["level_distributions"]


def test_correlations_by_hand(small_csv):
    report = build_report(load_collection([str(small_csv)]))
    correlation = report["correlation"]
    index = {name: i for i, name in enumerate(correlation["columns"])}
    assert set(index) == {"clues", "W", "B"}
    x, y = [25, 25, 26, 26, 27], [0, 2, 1, 3, 4]
    assert correlation["raw"][index["clues"]][index["W"]] == pytest.approx(statistics.correlation(x, y))
    weights = [13 / 28, 13 / 28, 1, 1, 55 / 27]
    total = sum(weights)
    mx = sum(w * a for w, a in zip(weights, x)) / total
    my = sum(w * b for w, b in zip(weights, y)) / total
    cov = sum(w * (a - mx) * (b - my) for w, a, b in zip(weights, x, y))
    vx = sum(w * (a - mx) ** 2 for w, a in zip(weights, x))
    vy = sum(w * (b - my) ** 2 for w, b in zip(weights, y))
    assert correlation["unbiased"][index["clues"]][index["W"]] == pytest.approx(cov / math.sqrt(vx * vy))
    r_wb = statistics.correlation([0, 2, 1, 3, 4], [0, 2, 1, 2, 3])
    assert report["mean_distance"]["raw"]["W"] == pytest.approx(math.sqrt(2 * (1 - r_wb)))


def test_log_transform_of_a_column(small_csv):
    report = build_report(load_collection([str(small_csv)]), log_columns=["clues"])
    index = report["correlation"]["columns"].index("W")
    x = [math.log(n) for n in (25, 25, 26, 26, 27)]
    assert report["correlation"]["raw"][0][index] == pytest.approx(statistics.correlation(x, [0, 2, 1, 3, 4]))
    with pytest.raises(StatsInputError, match="<= 0"):
        build_report(load_collection([str(small_csv)]), log_columns=["W"])  # W has a 0
    with pytest.raises(StatsInputError, match="unknown column"):
        build_report(load_collection([str(small_csv)]), log_columns=["nope"])


def test_mean_distance_reproduces_the_papers_figures():
    # 003 §3.1: correlations of five ratings on 1,000 sudogen0 puzzles, and the published mean distances
    names = ["NRCZT", "SER", "SUEX9", "SUEXT", "GSF-Q1"]
    r = {("NRCZT", "SER"): .89, ("NRCZT", "SUEX9"): .73, ("NRCZT", "SUEXT"): .77, ("NRCZT", "GSF-Q1"): .70,
         ("SER", "SUEX9"): .70, ("SER", "SUEXT"): .68, ("SER", "GSF-Q1"): .69, ("SUEX9", "SUEXT"): .88,
         ("SUEX9", "GSF-Q1"): .75, ("SUEXT", "GSF-Q1"): .64}
    matrix = pd.DataFrame(1.0, index=names, columns=names)
    for (a, b), value in r.items():
        matrix.loc[a, b] = matrix.loc[b, a] = value
    published = {"NRCZT": 0.678, "SER": 0.721, "SUEX9": 0.682, "SUEXT": 0.716, "GSF-Q1": 0.780}
    distances = mean_distances(matrix, names)
    for name, value in published.items():
        # the correlations are rounded to 0.005, which moves a distance by up to ~0.0075
        assert distances[name] == pytest.approx(value, abs=0.0075)


def test_mean_distance_is_over_the_defined_correlations():
    """A constant rating K has no correlation: its distance is undefined (NaN, not 0), and the others'
    distances are over their defined correlations (max(0, nan) once gave 0 for every rating)."""
    nan = math.nan
    matrix = pd.DataFrame([[1.0, 0.5, nan], [0.5, 1.0, nan], [nan, nan, 1.0]],
                          index=["W", "B", "K"], columns=["W", "B", "K"])
    distances = mean_distances(matrix, ["W", "B", "K"])
    assert distances["W"] == distances["B"] == pytest.approx(1.0) and math.isnan(distances["K"])


def test_a_constant_column_has_no_correlation_raw_or_unbiased(tmp_path):
    """18-clue puzzles only: with cf(18) weights the weighted variance of the clues was 1e-30, not 0,
    and the unbiased r came out 6.6e-16 where the raw one was undefined."""
    path = tmp_path / "t.csv"
    ws = [10, 2, 4, 3, 7, 2, 5, 8, 2, 13, 6, 4]
    path.write_text("puzzle,clues,B,K,status\n" + "".join(f"{puzzle_with(18)},18,{w},3,solved\n" for w in ws))
    report = build_report(load_collection([str(path)], [], ["K"]))
    correlation = report["correlation"]
    assert correlation["columns"] == ["clues", "B", "K"]
    for kind in ("raw", "unbiased"):
        matrix = correlation[kind]
        assert matrix[0][1] is None and matrix[0][2] is None and matrix[1][2] is None, (kind, matrix)
        assert report["mean_distance"][kind] == {"B": None, "K": None}


def test_a_puzzle_file_whose_comments_have_commas_is_no_csv(tmp_path):
    """SHC's ``puzzle;comment`` lines: a comma in the comment made the first line a CSV header."""
    path = tmp_path / "comma.txt"
    path.write_text("".join(f"{puzzle_with(n)};from forum, page 3\n" for n in (24, 25, 26)))
    collection = load_collection([str(path)])
    assert collection.clues().tolist() == [24, 25, 26] and collection.frame["line"].tolist() == [1, 2, 3]
    path.write_text(f"puzzle,clues,W\n{puzzle_with(24)},24,1\n")  # a CSV by its header, whatever its name
    assert load_collection([str(path)]).values("W").tolist() == [1]


def test_minimals_per_grid_by_hand(small_csv):
    report = build_report(load_collection([str(small_csv)]))
    minimals = report["minimals"]
    total_tries = 100 + 200 + 300 + 400 + 500 + 600
    assert minimals["total_tries"] == total_tries
    rows = {r["clues"]: r for r in minimals["per_clue"]}
    assert rows[26]["per_grid"] == pytest.approx(3 * comb(81, 26) / total_tries)
    assert rows[26]["relative_error"] == pytest.approx(1 / math.sqrt(3))
    assert rows[27]["tries_per_minimal"] == pytest.approx(total_tries / 1)
    expected_total = (2 * comb(81, 25) + 3 * comb(81, 26) + comb(81, 27)) / total_tries
    assert minimals["per_grid"] == pytest.approx(expected_total)


def test_compare_by_hand(small_csv):
    result = compare_ratings(load_collection([str(small_csv)]), "W", "B")
    assert result["compared"] == 5 and result["differ"] == 2  # rows 4 (3 vs 2) and 6 (4 vs 3)
    assert [d["line"] for d in result["differences"]] == [5, 7]  # CSV lines (header is line 1)
    assert result["differences"][0]["puzzle"] == puzzle_with(26)
    assert result["raw_percent"] == pytest.approx(40)
    weights = [13 / 28, 13 / 28, 1, 1, 55 / 27]
    assert result["unbiased_percent"] == pytest.approx(100 * (1 + 55 / 27) / sum(weights))
    cross = result["cross_table"]
    assert cross["rows"] == [0, 1, 2, 3, 4] and cross["columns"] == [0, 1, 2, 3]
    assert cross["counts"][3][2] == 1 and cross["counts"][4][3] == 1 and sum(map(sum, cross["counts"])) == 5
    with pytest.raises(StatsInputError, match="unknown column"):
        compare_ratings(load_collection([str(small_csv)]), "W", "SER")


def test_puzzle_file_with_tries_tails_and_value_files(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(f"{puzzle_with(24)} 200314\n{puzzle_with(26)} 1.16171e+06\n{puzzle_with(25)} 433294\n")
    (tmp_path / "W.txt").write_text("2\n\n3\n")  # an empty line is a missing value
    collection = load_collection([str(puzzles)], [parse_column_option(f"W={tmp_path / 'W.txt'}")])
    assert collection.clues().tolist() == [24, 26, 25]
    assert collection.frame["tries"].tolist() == [200314, 1161710, 433294]
    assert collection.values("W").isna().tolist() == [False, True, False]
    report = build_report(collection)
    assert report["columns"]["W"]["raw"]["mean"] == pytest.approx(2.5)
    assert report["minimals"]["total_tries"] == 200314 + 1161710 + 433294


def test_invalid_puzzle_lines_are_kept_with_their_status(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(f"{puzzle_with(24)}\n11{puzzle_with(25)[2:]}\n")  # row 2 repeats 1 in a row
    collection = load_collection([str(puzzles)])
    assert collection.status_counts() == {"invalid": 1}
    assert collection.clues().isna().tolist() == [False, True]


@pytest.mark.parametrize("content, message", [
    ("1\n2\n", "has 2 lines but the collection has 3 rows"),
    ("1\nabc\n3\n", "line 2: 'abc' is not a number"),
])
def test_bad_value_files_give_clear_errors(tmp_path, content, message):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("".join(f"{puzzle_with(n)}\n" for n in (24, 25, 26)))
    (tmp_path / "W.txt").write_text(content)
    with pytest.raises(StatsInputError, match=message):
        load_collection([str(puzzles)], [("W", str(tmp_path / "W.txt"))])


def test_non_numeric_value_in_a_solved_csv_row_is_an_error(tmp_path):
    path = tmp_path / "rated.csv"
    path.write_text(f"puzzle,W,status\n{puzzle_with(25)},1,solved\n{puzzle_with(26)},x,timeout\n"
                    f"{puzzle_with(27)},abc,solved\n")
    with pytest.raises(StatsInputError, match=r"line 4: column W: 'abc' is not a number"):
        load_collection([str(path)])
    path.write_text(f"puzzle,W,status\n{puzzle_with(25)},1,solved\n{puzzle_with(26)},x,timeout\n")
    collection = load_collection([str(path)])  # clues come from the puzzle column
    assert collection.clues().tolist() == [25, 26] and collection.values("W").isna().tolist() == [False, True]


def test_a_column_given_twice_must_agree(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("".join(f"{puzzle_with(n)}\n" for n in (24, 25)))
    (tmp_path / "good.txt").write_text("24\n25\n")
    (tmp_path / "bad.txt").write_text("24\n26\n")
    assert load_collection([str(puzzles)], [("clues", str(tmp_path / "good.txt"))]).clues().tolist() == [24, 25]
    with pytest.raises(StatsInputError, match=r"puzzles.txt line 2 and .*bad.txt line 2: column clues differs"):
        load_collection([str(puzzles)], [("clues", str(tmp_path / "bad.txt"))])


def shuffled_files(tmp_path):
    """puzzles.txt (tries 1000..1004) and rated.csv with the same puzzles in the order 4 2 0 3 1."""
    clues = [24, 25, 26, 27, 28]
    (tmp_path / "puzzles.txt").write_text("".join(f"{puzzle_with(n)} {1000 + i}\n" for i, n in enumerate(clues)))
    order = [4, 2, 0, 3, 1]
    (tmp_path / "rated.csv").write_text("puzzle,clues,W,tail\n" + "".join(
        f"{puzzle_with(clues[i])},{clues[i]},{i},{1000 + i}\n" for i in order))
    return tmp_path / "puzzles.txt", tmp_path / "rated.csv"


def test_a_conflict_names_the_file_and_line_of_each_value(tmp_path):
    """The tries of puzzle 2 (puzzles.txt line 2) differ from rated.csv's (its line 6, the header
    first): both named, in either order of the inputs, not the first input's row number."""
    puzzles, rated = shuffled_files(tmp_path)
    original = puzzles.read_text()
    puzzles.write_text(original.replace(" 1001\n", " 12345\n"))
    with pytest.raises(StatsInputError, match=r"puzzles.txt line 2 and .*rated.csv line 6: column tries differs "
                                              r"\(12345 vs 1001\)"):
        load_collection([str(puzzles), str(rated)])
    with pytest.raises(StatsInputError, match=r"rated.csv line 6 and .*puzzles.txt line 2: column tries differs "
                                              r"\(1001 vs 12345\)"):
        load_collection([str(rated), str(puzzles)])
    # a value file giving the column again names the input the value came from (the second one here)
    puzzles.write_text(original)
    (tmp_path / "W.txt").write_text("0\n1\n2\n3\n5\n")
    with pytest.raises(StatsInputError, match=r"rated.csv line 2 and .*W.txt line 5: column W differs \(4 vs 5\)"):
        load_collection([str(puzzles), str(rated)], [("W", str(tmp_path / "W.txt"))])


def test_a_value_file_follows_the_first_input_and_a_note_says_so(tmp_path):
    """Line k of a value file is row k of the collection: the k-th puzzle of the first of the joined
    inputs; another joined input in another order is named in a note (no silent choice)."""
    puzzles, rated = shuffled_files(tmp_path)
    (tmp_path / "X.txt").write_text("0\n1\n2\n3\n4\n")  # W in puzzles.txt's order
    collection = load_collection([str(puzzles), str(rated)], [("X", str(tmp_path / "X.txt"))])
    assert collection.values("X").tolist() == collection.values("W").tolist() == [0, 1, 2, 3, 4]
    assert len(collection.notes) == 1
    assert "X.txt: lines taken in the order of" in collection.notes[0]
    assert "puzzles.txt, the first of the inputs joined on the puzzle" in collection.notes[0]
    assert "rated.csv lists the same puzzles in another order" in collection.notes[0]
    reversed_order = load_collection([str(rated), str(puzzles)], [("X", str(tmp_path / "X.txt"))])
    assert reversed_order.values("X").tolist() == [0, 1, 2, 3, 4]  # rated.csv's rows: W = 4 2 0 3 1
    assert "in the order of " + str(rated) in reversed_order.notes[0]
    assert load_collection([str(puzzles), str(rated)]).notes == []  # no value file, nothing to say
    assert load_collection([str(puzzles)], [("X", str(tmp_path / "X.txt"))]).notes == []


def test_column_option_syntax():
    assert parse_column_option("SER=a/b=c.txt") == ("SER", "a/b=c.txt")
    for bad in ("SER", "=x.txt", "SER=", "puzzle=x.txt"):
        with pytest.raises(StatsInputError):
            parse_column_option(bad)


def test_unbiased_statistics_need_clues(tmp_path):
    (tmp_path / "W.txt").write_text("1\n2\n4\n")
    collection = load_collection([], [("W", str(tmp_path / "W.txt"))])
    with pytest.raises(StatsInputError, match="need the clue count"):
        build_report(collection)
    raw = build_report(collection, unbiased=False)
    assert raw["columns"]["W"]["raw"]["mean"] == pytest.approx(7 / 3)
    assert raw["columns"]["W"]["raw"]["sd"] == pytest.approx(statistics.pstdev([1, 2, 4]))
    assert raw["columns"]["W"]["unbiased"] is None


RATE_CSV = """puzzle,clues,W,B,status,seconds,error
{p25},25,2,2,solved,0.055,
{p26},26,3,,timeout,0.943,
{p27},27,,,not-solved,0.100,
bad,,,,invalid,,wrong length: 3 grid characters
{p28},28,4,3,solved,0.500,
"""


def test_rate_output_with_failed_rows(tmp_path):
    """The CSV of `sudorules rate`: a failed row keeps the ratings it has (the timeout's W = 3, obtained
    before its B timed out), the invalid row counts nowhere."""
    path = tmp_path / "rated.csv"
    path.write_text(RATE_CSV.format(p25=puzzle_with(25), p26=puzzle_with(26), p27=puzzle_with(27),
                                    p28=puzzle_with(28)))
    collection = load_collection([str(path)])
    assert collection.value_columns == ["W", "B", "seconds"]  # `error` is text, not a statistic
    assert collection.rating_columns == ["W", "B"]  # seconds is numeric but not a rating
    report = build_report(collection)
    assert report["status"] == {"invalid": 1, "not-solved": 1, "solved": 2, "timeout": 1}
    assert report["excluded_rows"] == 3
    assert report["columns"]["clues"]["count"] == 4  # the invalid row has no clue count
    assert report["columns"]["W"]["count"] == 3 and report["columns"]["W"]["missing"] == 1
    assert report["columns"]["W"]["raw"]["mean"] == pytest.approx((2 + 3 + 4) / 3)
    assert report["columns"]["B"]["count"] == 2 and report["columns"]["B"]["missing"] == 2
    assert "seconds" not in report["columns"] and report["other_columns"] == ["seconds"]
    assert report["correlation"]["columns"] == ["clues", "W", "B"]
    assert report["not_counted"]["invalid"]["lines"] == [{"source": str(path), "line": 5}]
    with_seconds = build_report(load_collection([str(path)], ratings=["seconds"]))
    assert with_seconds["columns"]["seconds"]["raw"]["mean"] == pytest.approx((0.055 + 0.943 + 0.100 + 0.5) / 4)  # the failed rows' too
    # compare still takes it when named
    assert compare_ratings(collection, "W", "seconds")["compared"] == 3


def test_a_ratings_statistics_depend_on_its_own_cells_only(tmp_path):
    """A row `not-solved` because its BC failed keeps its W in W's statistics and comparisons: W's
    report is the same as from a run of W alone (per row, W lost every value of a row where BC failed)."""
    levels = [(25, 2, 2), (25, 5, None), (26, 7, None), (26, 3, 4), (27, 8, None), (27, 1, 1)]
    both, alone = tmp_path / "both.csv", tmp_path / "alone.csv"
    both.write_text("puzzle,clues,W,BC,status,error\n" + "".join(
        f"{puzzle_with(n)},{n},{w},{'' if bc is None else bc},{'solved' if bc is not None else 'not-solved'},"
        f"{'' if bc is not None else 'BC: the rules of BC do not solve it'}\n" for n, w, bc in levels))
    alone.write_text("puzzle,clues,W,status\n" + "".join(f"{puzzle_with(n)},{n},{w},solved\n" for n, w, _ in levels))
    from_both, from_alone = build_report(load_collection([str(both)])), build_report(load_collection([str(alone)]))
    assert from_both["columns"]["W"] == from_alone["columns"]["W"]
    assert from_both["columns"]["W"]["count"] == 6
    assert from_both["level_distributions"]["W"] == from_alone["level_distributions"]["W"]
    assert from_both["columns"]["BC"]["count"] == 3 and from_both["columns"]["BC"]["missing"] == 3
    assert from_both["excluded_rows"] == 3 and from_both["not_counted"]["not-solved"]["count"] == 3
    compared = compare_ratings(load_collection([str(both)]), "W", "BC")
    assert compared["compared"] == 3 and compared["differ"] == 1


def test_parquet_output_reads_like_the_csv(tmp_path):
    pytest.importorskip("pyarrow")
    csv = tmp_path / "rated.csv"
    csv.write_text(RATE_CSV.format(p25=puzzle_with(25), p26=puzzle_with(26), p27=puzzle_with(27),
                                   p28=puzzle_with(28)))
    parquet = tmp_path / "rated.parquet"
    pd.read_csv(csv, dtype={"puzzle": str, "status": str, "error": str}).to_parquet(parquet)
    from_parquet, from_csv = build_report(load_collection([str(parquet)])), build_report(load_collection([str(csv)]))
    for report in (from_parquet, from_csv):  # where the rows come from differs; nothing else does
        del report["sources"]
        for group in report["not_counted"].values():
            group["lines"] = [entry["line"] for entry in group["lines"]]
    # a Parquet row is numbered by the line it has in the CSV (the header line 1), as select numbers it
    # (stats numbered it from 1, select from 2)
    assert from_parquet["not_counted"]["invalid"]["lines"] == from_csv["not_counted"]["invalid"]["lines"] == [5]
    assert from_parquet == from_csv


def test_errors_are_sudorules_errors_with_their_exit_status(tmp_path):
    from sudorules.errors import InputError, SudorulesError
    from sudorules.stats import StatsFileError, StatsUsageError
    assert issubclass(StatsInputError, SudorulesError) and issubclass(StatsInputError, ValueError)
    assert StatsInputError.exit_code == 1 and StatsUsageError.exit_code == 2
    assert issubclass(StatsFileError, InputError) and StatsFileError.exit_code == 2
    with pytest.raises(StatsFileError, match="no such file"):
        load_collection([str(tmp_path / "none.csv")])
    with pytest.raises(StatsUsageError, match="NAME=FILE"):
        parse_column_option("W")


def test_known_ratings_include_those_of_the_published_collection():
    from sudorules.stats import KNOWN_RATINGS
    assert {"W", "B", "gW", "gB", "SER", "FPGXnoU"} <= set(KNOWN_RATINGS)
    assert not {"seconds", "solutions", "clues", "tries"} & set(KNOWN_RATINGS)


def skewed_report(tmp_path, unbiased=True):
    """A collection where level 5 is 1 puzzle in 200 (0.5 %) and level 0 is 150 of 200."""
    rows = [(25, 0)] * 150 + [(26, 1)] * 30 + [(26, 2)] * 19 + [(27, 5)]
    path = tmp_path / "skewed.csv"
    path.write_text("puzzle,clues,W,status\n" + "".join(f"{puzzle_with(n)},{n},{w},solved\n" for n, w in rows)
                    + "bad,,,invalid\n")
    return build_report(load_collection([str(path)]), unbiased=unbiased)


def test_figure_has_a_title_with_n_and_a_log_scale_for_rare_levels(tmp_path):
    pytest.importorskip("matplotlib")
    from sudorules.stats.plot import build_figure
    report = skewed_report(tmp_path)
    figure = build_figure(report)
    try:
        title = figure._suptitle.get_text()
        assert "Raw vs unbiased" in title and "skewed.csv" in title
        assert "N = 200 puzzles counted (of 201 rows read)" in title
        clues_axis, w_axis = figure.axes
        assert "N = 200" in clues_axis.get_title() and "N = 200 puzzles rated W" in w_axis.get_title()
        assert w_axis.get_yscale() == "log" and "log scale" in w_axis.get_ylabel()
        assert "log scale" in w_axis.get_legend().get_title().get_text()
        labels = [t.get_text() for t in w_axis.get_legend().get_texts()]
        assert labels == ["raw (controlled-bias sample)", "unbiased (cf-weighted)"]
        # raw and unbiased bars side by side at each level: 4 levels, 2 series
        assert len(w_axis.patches) == 8
        assert w_axis.get_ylim()[0] < 0.5  # the 0.5 % bar is above the bottom of the axis
        linear = build_figure(report, "linear")
        assert [axis.get_yscale() for axis in linear.axes] == ["linear", "linear"]
        assert "log" not in linear.axes[1].get_ylabel()
        raw = build_figure(skewed_report(tmp_path, unbiased=False), "log")
        assert raw._suptitle.get_text().startswith("Raw distributions") and len(raw.axes[1].patches) == 4
    finally:
        import matplotlib.pyplot
        matplotlib.pyplot.close("all")


def test_a_single_level_on_a_log_scale_draws_without_a_warning(tmp_path):
    """One clue count: raw 100 % beside an unbiased 99.99999999999999 % (40 puzzles of 18 clues, as
    in a classify output of top1465): set_yscale('log') autoscaled to limits equal to rounding and
    matplotlib warned ('Attempting to set identical low and high ylims') on stderr."""
    pytest.importorskip("matplotlib")
    import warnings

    from sudorules.stats.plot import build_figure
    path = tmp_path / "one.csv"
    path.write_text("puzzle,clues,W,status\n" + "".join(f"{puzzle_with(18)},18,{i % 2},solved\n" for i in range(40)))
    report = build_report(load_collection([str(path)]))
    assert report["clue_distribution"][0]["unbiased_percent"] != 100.0  # the case that warned
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = build_figure(report, "log")
    try:
        clues_axis = figure.axes[0]
        assert clues_axis.get_yscale() == "log"
        bottom, top = clues_axis.get_ylim()
        assert bottom == pytest.approx(100 / 2.5) and top == pytest.approx(100 * 2.5)
    finally:
        import matplotlib.pyplot
        matplotlib.pyplot.close("all")


def test_mean_distance_of_identical_ratings_is_zero_not_an_error():
    """Identical columns can give r = 1 + 2e-16: the distance is 0 (the CLI once crashed on it)."""
    import pandas as pd

    from sudorules.stats.correlation import mean_distances

    r = 1.0000000000000002
    matrix = pd.DataFrame([[1.0, r], [r, 1.0]], index=["W", "B"], columns=["W", "B"])
    assert mean_distances(matrix, ["W", "B"]) == {"W": 0.0, "B": 0.0}


def test_compare_of_continuous_columns_makes_no_cross_table(tmp_path):
    """seconds against a value file, every value distinct: the cross-table was dense, distinct x
    distinct (5,000 rows: 4.5 GB, lines 50,000 characters wide).  Past MAX_CROSS_LEVELS distinct values
    a column gets no cross-table, and the note says why; the share and the differences stay."""
    from sudorules.stats.comparison import MAX_CROSS_LEVELS
    from sudorules.stats.text import format_comparison

    rows = MAX_CROSS_LEVELS + 20
    path = tmp_path / "rated.csv"
    path.write_text("puzzle,clues,W,seconds,status\n" + "".join(
        f"{puzzle_with(25 + i % 3)}{i:04d},{25 + i % 3},{i % 7},{0.001 * (i + 1):.3f},solved\n" for i in range(rows)))
    collection = load_collection([str(path)])
    wide = compare_ratings(collection, "W", "seconds")
    assert wide["cross_table"] is None and wide["compared"] == rows and wide["differ"] == rows
    assert f"seconds has {rows:,} distinct values" in wide["cross_table_note"]
    text = format_comparison(wide)
    assert "no cross-table" in text and max(len(line) for line in text.splitlines()[:3]) < 200
    narrow = compare_ratings(collection, "W", "W")
    assert narrow["cross_table"] is not None and narrow["cross_table_note"] is None


def test_skewness_and_kurtosis_are_those_of_each_row_weighted_directly(small_csv):
    """The mixture's skewness and excess kurtosis, made from each clue class's central moments, are
    the moments of the rows themselves, each weighted by cf(n) (unbiased) and its importance weight."""
    import numpy as np

    from sudorules.stats.correction import correction_weight

    frame = pd.read_csv(small_csv)
    weights = pd.Series([0.5, 2.0, 1.0, 3.0, 1.0, 0.25])
    path = small_csv.parent / "weighted.csv"
    frame.assign(weight=weights).to_csv(path, index=False)  # a weight column: each row's importance weight
    for weighted in (False, True):
        report = build_report(load_collection([str(path if weighted else small_csv)]))
        rows = frame[frame["W"].notna()]
        for unbiased in (False, True):
            w = np.ones(len(rows)) if not weighted else weights[rows.index].to_numpy()
            if unbiased:
                w = w * np.array([correction_weight(int(n)) for n in rows["clues"]])
            x = rows["W"].to_numpy(float)
            mean = (w * x).sum() / w.sum()
            m2, m3, m4 = ((w * (x - mean) ** k).sum() / w.sum() for k in (2, 3, 4))
            got = report["columns"]["W"]["unbiased" if unbiased else "raw"]
            assert got["skewness"] == pytest.approx(m3 / m2 ** 1.5, rel=1e-9)
            assert got["kurtosis"] == pytest.approx(m4 / m2 ** 2 - 3, rel=1e-9)


def test_the_shape_of_a_column_of_small_values_is_that_of_the_same_values_scaled(small_csv):
    """Values of 1e-7 had no skewness nor kurtosis (an absolute threshold on the variance, helper-51),
    where the table by clue count gave them; a constant column has none."""
    frame = pd.read_csv(small_csv)
    for scale in (1.0, 1e-7):
        path = small_csv.parent / "scaled.csv"
        frame.assign(X=frame["W"] * scale, K=0.1).to_csv(path, index=False)
        report = build_report(load_collection([str(path)], ratings=["X", "K"]))
        got, base = report["columns"]["X"]["raw"], report["columns"]["W"]["raw"]
        assert got["skewness"] == pytest.approx(base["skewness"], rel=1e-9)
        assert got["kurtosis"] == pytest.approx(base["kurtosis"], rel=1e-9)
        assert report["columns"]["K"]["raw"]["skewness"] is None
