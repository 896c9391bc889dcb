"""CPU seconds and ratings of some theories on a stratified cb-001 sample: one process, one engine per
theory (rules loaded before timing), every puzzle solved by every theory, the core's uniqueness check
timed with it.  Meant for before / after comparisons: run it with two versions of the package at the
same time, each pinned to its own core, and compare the two CSV files.

    PYTHONPATH=. taskset -c 0 python benchmarks/bench_theories.py --theories W,B,gW,gB -o new.csv &
    PYTHONPATH=/tmp/old taskset -c 1 python benchmarks/bench_theories.py --theories W,B,gW,gB -o old.csv
    python benchmarks/bench_theories.py --compare old.csv new.csv

The sample: ``--per-level`` puzzles of each published W level (``--levels``), drawn with ``--seed``;
both runs draw the same puzzles.  ``--compare`` prints, per theory and published W level, the median
CPU seconds of each file, their ratio and the puzzles whose rating differs.
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
import time
from pathlib import Path

ORACLE = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"


def sample(per_level: int, levels: str, seed: int) -> list[tuple[int, int, str]]:
    """(1-based line, published W, puzzle) of the sample."""
    low, high = (int(x) for x in levels.split("-"))
    lines = [line.split()[0] for line in (ORACLE / "puzzles.txt").read_text().splitlines() if line.strip()]
    published = [int(v) for v in (ORACLE / "W-ratings.txt").read_text().split()]
    rng = random.Random(seed)
    out = []
    for level in range(low, high + 1):
        rows = [i for i, w in enumerate(published) if w == level]
        out += [(i + 1, level, lines[i]) for i in sorted(rng.sample(rows, min(per_level, len(rows))))]
    return out


def run(args: argparse.Namespace) -> None:
    from sudorules.engine.solver import Solver, unique_solution

    theories = args.theories.split(",")
    solver = Solver()
    for theory in theories:
        solver.engine(theory)
    with open(args.output, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["line", "published_W", "theory", "status", "rating", "cpu"])
        for line, level, puzzle in sample(args.per_level, args.levels, args.seed):
            for theory in theories:
                start = time.process_time()
                resolution = solver.solve(puzzle, theory, solution=unique_solution(puzzle))
                out.writerow([line, level, theory, resolution.status, resolution.rating,
                              f"{time.process_time() - start:.4f}"])
            handle.flush()


def compare(old: str, new: str) -> None:
    def read(name: str) -> dict[tuple[str, str], dict]:
        with open(name, newline="") as handle:
            return {(row["theory"], row["line"]): row for row in csv.DictReader(handle)}

    before, after = read(old), read(new)
    keys = [k for k in before if k in after]
    print("theory  W  n    before median s  after median s  after/before  rating differences")
    for theory in sorted({k[0] for k in keys}, key=["W", "B", "gW", "gB"].index):
        for level in sorted({int(before[k]["published_W"]) for k in keys if k[0] == theory}):
            rows = [k for k in keys if k[0] == theory and int(before[k]["published_W"]) == level]
            b = statistics.median(float(before[k]["cpu"]) for k in rows)
            a = statistics.median(float(after[k]["cpu"]) for k in rows)
            differ = [k[1] for k in rows if before[k]["rating"] != after[k]["rating"]]
            print(f"{theory:<7} {level:<2} {len(rows):<4} {b:<16.3f} {a:<15.3f} {a / b:<13.2f} "
                  f"{', '.join(differ) or 'none'}")
        rows = [k for k in keys if k[0] == theory]
        b, a = sum(float(before[k]["cpu"]) for k in rows), sum(float(after[k]["cpu"]) for k in rows)
        print(f"{theory:<7} all {len(rows):<4} {b:<16.1f} {a:<15.1f} {a / b:.2f}  (sums)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theories", default="W,B,gW,gB")
    parser.add_argument("--per-level", type=int, default=25)
    parser.add_argument("--levels", default="0-7")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE.csv", "AFTER.csv"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        run(args)


if __name__ == "__main__":
    sys.exit(main())
