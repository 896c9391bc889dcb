"""Statistics of the published cb-001 collection (21,695 controlled-bias puzzles) beside the papers' figures.

Usage (from the checkout, ../shared beside it):

    PYTHONPATH=. python benchmarks/cb001_stats.py [--oracle ../shared/oracle/cb-001]

Prints Markdown tables (pasted into benchmarks/README.md).  The papers' figures come from 5,926,343
puzzles (000 §2.1, 002 Tables 2-5), so their own sampling error is negligible beside ours; each of
our figures comes with z = (ours - paper) / s.e., where the standard error s.e. is that of a sample of
our size drawn from the paper's figures: sqrt(p(1-p)/N) for a raw share p, the Poisson error
paper/sqrt(expected on(n)) for per-clue-count figures, sd/sqrt(n) for a mean and about sd/sqrt(2n) for
an sd, with Kish's effective sample size n = (Σ w)² / Σ w² of the cf weights for unbiased figures
(an approximation: the heaviest weights sit on the rare 29-31 clue puzzles).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from sudorules.stats import build_report, compare_ratings, correction_weight, load_collection

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ORACLE = ROOT.parent / "shared" / "oracle" / "cb-001"

# 000 §2.1.1 and 002 Table 2 (cb = controlled-bias sample, real = corrected)
PAPER_GLOBAL = {
    ("clues", "mean"): (25.667, 26.577), ("clues", "sd"): (1.116, 1.116),
    ("W", "mean"): (2.217, 2.449), ("W", "sd"): (1.35, 1.39),
    ("SER", "mean"): (4.29, 4.73), ("SER", "sd"): (2.48, 2.49),
}
# 002 Table 4: % of puzzles per clue count, cb and real
PAPER_CLUES = {20: (0.0, 0.0), 21: (0.0030, 0.000034), 22: (0.11, 0.0034), 23: (1.87, 0.149),
               24: (11.85, 2.28), 25: (30.59, 13.42), 26: (33.82, 31.94), 27: (17.01, 32.74),
               28: (4.17, 15.48), 29: (0.52, 3.56), 30: (0.035, 0.41), 31: (0.0012, 0.022)}
# 002 Table 3: % of puzzles per W (NRCZT) level, cb and real
PAPER_W = [(35.08, 29.17), (9.82, 8.44), (13.05, 12.61), (20.03, 22.26), (17.37, 21.39), (3.56, 4.67),
           (0.79, 1.07), (0.21, 0.29), (0.055, 0.072), (0.015, 0.020), (4.4e-3, 5.5e-3)]
# 000 §2.1.1 (cb, real) and 003 §3.4/§4.1.1 (NRCZT vs SER on sudogen0: 10,000 and 1,000,000 top-down suexg puzzles)
PAPER_CORRELATIONS = {("W", "SER"): (0.897, 0.90), ("clues", "W"): (0.192, 0.19), ("clues", "SER"): (0.199, 0.20)}
PAPER_NRCZT_SER_SUDOGEN0 = 0.895
# 000 §2.1.5: minimal puzzles per complete grid
PAPER_MINIMALS = {21: 1.4654e9, 22: 1.6208e11, 23: 6.8827e12, 24: 1.0637e14, 25: 6.2495e14, 26: 1.4855e15,
                  27: 1.5228e15, 28: 7.2063e14, 29: 1.6751e14, 30: 1.9277e13, 31: 1.1240e12}
PAPER_MINIMALS_TOTAL = 4.6563e15


def z_score(ours: float, paper: float, error: float) -> str:
    """(ours - paper)/error, signed, one decimal; "-" when the error is 0."""
    return f"{(ours - paper) / error:+.1f}" if error > 0 else "-"


def markdown(header: list[str], rows: list[list]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def effective_size(clue_distribution: list[dict]) -> float:
    """Kish's n_eff of the cf weights: (Σ on·cf)² / Σ on·cf²."""
    weights = [(r["on"], correction_weight(r["clues"])) for r in clue_distribution]
    return sum(on * cf for on, cf in weights) ** 2 / sum(on * cf * cf for on, cf in weights)


def global_table(report: dict, n_eff: float) -> str:
    """Means and sds beside 000 §2.1.1 / 002 Table 2."""
    rows = []
    size = report["rows"]
    for (name, stat), (paper_cb, paper_real) in PAPER_GLOBAL.items():
        column = report["columns"][name]
        raw, unbiased = column["raw"][stat], column["unbiased"][stat]
        spread = column["raw"]["sd_mixture"]
        # s.e. of a mean: sd/sqrt(n); of an sd: about sd/sqrt(2n)
        factor = 1.0 if stat == "mean" else 1 / math.sqrt(2)
        se_raw, se_real = factor * spread / math.sqrt(size), factor * column["unbiased"]["sd_mixture"] / math.sqrt(n_eff)
        rows.append([f"{stat}({name})", paper_cb, f"{raw:.4f} ± {se_raw:.4f}", z_score(raw, paper_cb, se_raw),
                     paper_real, f"{unbiased:.4f} ± {se_real:.4f}", z_score(unbiased, paper_real, se_real)])
    for name in ("W", "SER"):
        rows.append([f"sd_mixture({name})", "", f"{report['columns'][name]['raw']['sd_mixture']:.4f}", "", "",
                     f"{report['columns'][name]['unbiased']['sd_mixture']:.4f}", ""])
    return markdown(["figure", "paper cb", "cb-001 raw", "z", "paper real", "cb-001 unbiased", "z"], rows)


def clue_table(report: dict) -> str:
    """Clue distribution beside 002 Table 4."""
    rows = []
    size = report["rows"]
    ours = {r["clues"]: r for r in report["clue_distribution"]}
    for n, (paper_cb, paper_real) in PAPER_CLUES.items():
        r = ours.get(n, {"on": 0, "raw_percent": 0.0, "unbiased_percent": 0.0, "unbiased_percent_sd": 0.0})
        p = paper_cb / 100
        se_raw = 100 * math.sqrt(p * (1 - p) / size)
        expected = p * size  # on(n) expected from the paper's distribution: its Poisson error is the s.e.
        se_real = paper_real / math.sqrt(expected) if expected else 0.0
        rows.append([n, r["on"], paper_cb, f"{r['raw_percent']:.4g}", z_score(r["raw_percent"], paper_cb, se_raw),
                     paper_real, f"{r['unbiased_percent']:.4g} ± {r['unbiased_percent_sd']:.2g}",
                     z_score(r["unbiased_percent"], paper_real, se_real)])
    return markdown(["clues", "on(n)", "paper cb %", "cb-001 raw %", "z", "paper real %",
                     "cb-001 unbiased % ± sd", "z"], rows)


def w_table(report: dict, n_eff: float) -> str:
    """W distribution beside 002 Table 3, with the moments of both distributions."""
    rows = []
    size = report["rows"]
    ours = {r["level"]: r for r in report["level_distributions"]["W"]}
    for level, (paper_cb, paper_real) in enumerate(PAPER_W):
        r = ours.get(level, {"count": 0, "raw_percent": 0.0, "unbiased_percent": 0.0})
        se_raw = 100 * math.sqrt(paper_cb / 100 * (1 - paper_cb / 100) / size)
        se_real = 100 * math.sqrt(paper_real / 100 * (1 - paper_real / 100) / n_eff)
        rows.append([level, r["count"], paper_cb, f"{r['raw_percent']:.3f}", z_score(r["raw_percent"], paper_cb, se_raw),
                     paper_real, f"{r['unbiased_percent']:.3f}", z_score(r["unbiased_percent"], paper_real, se_real)])
    mean_cb = sum(level * cb for level, (cb, _) in enumerate(PAPER_W)) / sum(cb for cb, _ in PAPER_W)
    mean_real = sum(level * real for level, (_, real) in enumerate(PAPER_W)) / sum(real for _, real in PAPER_W)
    sd_cb = math.sqrt(sum((level - mean_cb) ** 2 * cb for level, (cb, _) in enumerate(PAPER_W))
                      / sum(cb for cb, _ in PAPER_W))
    sd_real = math.sqrt(sum((level - mean_real) ** 2 * real for level, (_, real) in enumerate(PAPER_W))
                        / sum(real for _, real in PAPER_W))
    w = report["columns"]["W"]
    rows.append(["mean of the distribution", "", f"{mean_cb:.3f}", f"{w['raw']['mean']:.3f}", "",
                 f"{mean_real:.3f}", f"{w['unbiased']['mean']:.3f}", ""])
    rows.append(["sd of the distribution (= sd_mixture)", "", f"{sd_cb:.3f}", f"{w['raw']['sd_mixture']:.3f}", "",
                 f"{sd_real:.3f}", f"{w['unbiased']['sd_mixture']:.3f}", ""])
    return markdown(["W", "count", "paper cb %", "cb-001 raw %", "z", "paper real %", "cb-001 unbiased %", "z"], rows)


def correlation_table(report: dict, n_eff: float) -> str:
    """Correlations with z = (ours - paper)/s.e., s.e. of r ≈ (1 - r²)/sqrt(n) (large samples)."""
    names = report["correlation"]["columns"]
    size = report["rows"]
    rows = []
    for (a, b), (paper_cb, paper_real) in PAPER_CORRELATIONS.items():
        raw = report["correlation"]["raw"][names.index(a)][names.index(b)]
        unbiased = report["correlation"]["unbiased"][names.index(a)][names.index(b)]
        rows.append([f"r({a}, {b})", paper_cb, f"{raw:.4f}", z_score(raw, paper_cb, (1 - paper_cb ** 2) / math.sqrt(size)),
                     paper_real, f"{unbiased:.4f}",
                     z_score(unbiased, paper_real, (1 - paper_real ** 2) / math.sqrt(n_eff))])
    raw = report["correlation"]["raw"][names.index("W")][names.index("SER")]
    paper = PAPER_NRCZT_SER_SUDOGEN0
    # another population (top-down suexg puzzles, older NRCZT rating): no z
    rows.append(["r(NRCZT, SER), 003 §3.4/§4.1.1 (sudogen0, top-down suexg)", paper, f"{raw:.4f}", "", "", "", ""])
    distances = report["mean_distance"]
    for name, value in distances["raw"].items():
        rows.append([f"mean distance {name} (003 §1.3)", "", f"{value:.4f}", "", "",
                     f"{distances['unbiased'][name]:.4f}", ""])
    return markdown(["figure", "paper cb", "cb-001 raw", "z", "paper real", "cb-001 unbiased", "z"], rows)


def minimals_table(report: dict) -> str:
    """Minimal puzzles per grid beside 000 §2.1.5."""
    minimals = report["minimals"]
    rows = []
    for r in minimals["per_clue"]:
        paper = PAPER_MINIMALS.get(r["clues"])
        expected = PAPER_CLUES.get(r["clues"], (0, 0))[0] / 100 * report["rows"]
        rows.append([r["clues"], r["on"], f"{paper:.4e}" if paper else "", f"{r['per_grid']:.4e}",
                     f"{100 * r['relative_error']:.2f} %",
                     z_score(r["per_grid"], paper, paper / math.sqrt(expected)) if paper and expected else ""])
    rows.append(["all", report["rows"], f"{PAPER_MINIMALS_TOTAL:.4e}", f"{minimals['per_grid']:.4e}",
                 f"{100 * minimals['relative_error']:.2f} %",
                 z_score(minimals["per_grid"], PAPER_MINIMALS_TOTAL, minimals["relative_error"] * minimals["per_grid"])])
    return (f"T = {minimals['total_tries']:.6g} tries ({minimals['total_tries'] / report['rows']:.0f} grids per "
            "puzzle)\n\n" + markdown(["clues", "on(n)", "paper per grid", "cb-001 per grid", "rel. error", "z"], rows))


def main() -> int:
    """Load cb-001, compute everything, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle", type=Path, default=DEFAULT_ORACLE, help="the cb-001 folder")
    folder = parser.parse_args().oracle
    if not (folder / "puzzles.txt").is_file():
        print(f"{folder}/puzzles.txt not found", file=sys.stderr)
        return 1
    start = time.perf_counter()
    columns = [(name, str(folder / file)) for name, file in
               (("W", "W-ratings.txt"), ("B", "B-ratings.txt"), ("SER", "SER.txt"))]
    collection = load_collection([str(folder / "puzzles.txt")], columns)
    report = build_report(collection)
    comparison = compare_ratings(collection, "W", "B")
    seconds = time.perf_counter() - start
    n_eff = effective_size(report["clue_distribution"])
    print(f"cb-001: {report['rows']} puzzles; effective sample size of the unbiased figures n_eff = {n_eff:.0f}; "
          f"loading and all statistics in {seconds:.1f} s.\n")
    print("### Means and standard deviations (000 §2.1.1, 002 Table 2)\n")
    print(global_table(report, n_eff) + "\n")
    print("### Clue distribution (002 Table 4)\n")
    print(clue_table(report) + "\n")
    print("### W distribution (002 Table 3)\n")
    print(w_table(report, n_eff) + "\n")
    print("### Correlations and mean distances (000 §2.1.1, 003 §1.1, §1.3)\n")
    print(correlation_table(report, n_eff) + "\n")
    print("### Minimal puzzles per complete grid (000 §2.1.5)\n")
    print(minimals_table(report) + "\n")
    print("### W vs B (002 §VI.B: 20 of 10,000 puzzles differ)\n")
    print(f"W ≠ B on {comparison['differ']} of {comparison['compared']} puzzles "
          f"({comparison['raw_percent']:.3f} %; unbiased {comparison['unbiased_percent']:.3f} %).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
