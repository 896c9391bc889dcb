"""Rule-engine speed by published W level, and agreement with SudoRules on the same puzzles.

For each W level, draws ``--per-level`` puzzles of ../shared/oracle/cb-001 (random, ``--seed``), solves
them with one engine (rules loaded once, loading not timed) and prints the CPU seconds per puzzle
(median / mean / max), next to SudoRules' own figures measured on this machine, plus the number of
puzzles whose W rating or counts after BRT / whips[1] differ from the published ones, and the peak
memory of the process.

    PYTHONPATH=. python benchmarks/bench_engine.py --per-level 10 --levels 0-6 [--knowing-solution]

``--rules DIR`` reads the rule files present in DIR instead of those of rules/ (e.g. a copy of an older
rules/ taken with ``git show``), to measure a before / after on the same machine in the same conditions.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

from sudorules import core
from sudorules.engine import Engine, rulegen

ORACLE = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"
#: SudoRules 20.1 (CLIPS 6.4.3) W runs here, median seconds per puzzle: the issue's figures, and the
#: CPU-second medians of the 127-puzzle SudoRules sample (../shared/oracle/cb-001-sudorules/README.md)
SUDORULES_MEDIAN = {0: 0.075, 1: 0.17, 2: 0.37, 3: 0.57, 4: 1.9, 5: 11.0}
SUDORULES_SAMPLE_MEDIAN = {0: 0.11, 1: 0.16, 2: 0.24, 3: 0.43, 4: 1.12, 5: 3.48, 6: 7.87, 7: 13.75}
#: SudoRules' median CPU seconds per W level given by issue 13 (measured on this machine); its target is
#: 10x faster (the last column printed)
SUDORULES_ISSUE13 = {3: 0.43, 4: 0.84, 5: 2.7, 6: 6.2}


def _ints(name: str) -> list[int]:
    return [int(v) for v in (ORACLE / name).read_text().split()]


def main() -> None:
    """Run the benchmark and print one line per level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=10)
    parser.add_argument("--levels", default="0-6", help="e.g. 0-6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--theory", default="W")
    parser.add_argument("--knowing-solution", action="store_true",
                        help="pass the core's solution to the engine (prunes targets of the solution)")
    parser.add_argument("--rules", type=Path, help="read the rule files found in this folder instead of rules/")
    args = parser.parse_args()
    if args.rules is not None:
        packaged = rulegen._read.__wrapped__
        rulegen._read = lambda name: ((args.rules / name).read_text(encoding="utf-8")
                                      if (args.rules / name).exists() else packaged(name))
    low, high = (int(x) for x in args.levels.split("-"))
    lines = [line.split()[0] for line in (ORACLE / "puzzles.txt").read_text().splitlines() if line.strip()]
    published = _ints("W-ratings.txt")
    after_brt, after_w1 = _ints("nb-cands-after-BRT.txt"), _ints("nb-cands-after-W1.txt")
    rng = random.Random(args.seed)
    engine = Engine(args.theory)
    # load the rules of every level measured before timing anything (rule loading excluded)
    top = next(i for i, w in enumerate(published) if w == high)
    engine.solve(lines[top], solution=core.solve(lines[top]))
    print(f"theory {args.theory}, {args.per_level} puzzles per level, seed {args.seed}, "
          f"knowing solution: {args.knowing_solution}" + (f", rules from {args.rules}" if args.rules else ""))
    print("W  n   median   mean     max      SudoRules(issue)  SudoRules(sample)  differences  "
          "SudoRules(issue 13) / our median")
    for level in range(low, high + 1):
        rows = [i for i, w in enumerate(published) if w == level]
        sample = sorted(rng.sample(rows, min(args.per_level, len(rows))))
        seconds, differences = [], 0
        for i in sample:
            start = time.process_time()  # the core's solution, as `sudorules rate` computes it, is timed too
            solution = core.solve(lines[i]) if args.knowing_solution else None
            result = engine.solve(lines[i], solution=solution)
            seconds.append(time.process_time() - start)
            if (result.rating != published[i] or result.candidates_after_singles != after_brt[i]
                    or result.candidates_after_whips1 != after_w1[i]):
                differences += 1
                print(f"  line {i + 1}: W {result.rating} (published {published[i]})", file=sys.stderr)
        issue, sample_median = SUDORULES_MEDIAN.get(level, "-"), SUDORULES_SAMPLE_MEDIAN.get(level, "-")
        median = statistics.median(seconds)
        ratio = f"{SUDORULES_ISSUE13[level]} / {median:.3f} = {SUDORULES_ISSUE13[level] / median:.1f}x" \
            if level in SUDORULES_ISSUE13 else "-"
        print(f"{level}  {len(sample):<3} {median:<8.3f} {statistics.mean(seconds):<8.3f} "
              f"{max(seconds):<8.3f} {issue:<17} {sample_median:<18} {differences:<12} {ratio}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of the process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
