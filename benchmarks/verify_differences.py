"""Re-verify every rating difference of a bench_rating.py results file.

For each cb-001 line whose W (or B) differs from the published one, re-run the engine on that puzzle,
replay the path through the independent checker (sudorules/checker.py: every Single, whip and braid
re-verified from SPEC §4) against the bitset core's solution, and print one line: ours, published,
the other published ratings, whether the path re-verifies, the longest chain in it and the seconds.
A re-verified path of rating n proves that the rating is at most n (braids: exactly n, since braid
theories are confluent and every shorter length was exhausted first).

    python benchmarks/verify_differences.py --rating W --results full_W.csv
    python benchmarks/verify_differences.py --rating B --results full_B.csv --print-paths
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_rating import load_oracle  # noqa: E402
from sudorules import core, parse_puzzle  # noqa: E402
from sudorules.resolution.verify import replay  # noqa: E402
from sudorules.engine import Engine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rating", choices=("W", "B"), required=True)
    parser.add_argument("--results", required=True, help="a bench_rating.py results CSV")
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--lines", default="", help="only these lines (comma-separated)")
    parser.add_argument("--print-paths", action="store_true", help="print each re-verified path")
    args = parser.parse_args()

    puzzles, ws, bs, _, _ = load_oracle()
    published = {"W": ws, "B": bs}
    with open(args.results, newline="") as handle:
        rows = {int(r["line"]): r for r in csv.DictReader(handle)}
    wanted = {int(x) for x in args.lines.split(",") if x}
    differing = sorted(n for n, r in rows.items()
                       if r.get(args.rating, "") != str(published[args.rating][n - 1]) and (not wanted or n in wanted))
    print(f"{len(differing)} {args.rating} differences in {args.results}")
    engine = Engine(args.rating)
    for line in differing:
        puzzle = parse_puzzle(puzzles[line - 1])
        count, solution = core.solution_status(puzzle)
        started = time.process_time()
        resolution = engine.solve(puzzle, time_limit=args.time_limit, solution=solution)
        seconds = time.process_time() - started
        report = replay(puzzle, resolution.steps, list(solution))
        longest = max((s.level for s in resolution.steps if s.chain), default=0)
        kinds = sorted({s.rule for s in resolution.steps if s.level == longest and s.chain})
        print(f"line {line}: ours {args.rating} = {resolution.rating} ({resolution.status}), published "
              f"{args.rating} = {published[args.rating][line - 1]} (W {published['W'][line - 1]}, "
              f"B {published['B'][line - 1]}); path {'re-verified' if report.ok else 'INVALID'} "
              f"({report.steps_checked} steps, longest: {'/'.join(kinds)}[{longest}]), {seconds:.1f}s"
              + ("" if report.ok else f"; {report.problems[0]}"))
        if args.print_paths:
            for step in resolution.steps:
                print("    " + step.text())


if __name__ == "__main__":
    main()
