"""Our W (or B) rating time against SudoRules' own, puzzle by puzzle, by level.

SudoRules' figures are the CPU seconds of its (solve ...) call for 127 cb-001 puzzles
(``../shared/oracle/cb-001-sudorules/index.csv``: SudoRules 20.1, CLIPS 6.4.3, W and B configurations,
rule loading excluded).  Ours: ``sudorules rate FILE --rating W --jobs 1`` on the same puzzles, the
``seconds`` column (the worker's time for the puzzle: uniqueness check and rating; rule loading
excluded, as theirs), best of ``--runs`` runs.  Printed by published level: puzzles, SudoRules'
median, ours, and the ratio of the medians and of the sums.

    PYTHONPATH=. python benchmarks/bench_vs_sudorules.py --runs 2
    PYTHONPATH=. python benchmarks/bench_vs_sudorules.py --rating B
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT.parent / "shared" / "oracle" / "cb-001-sudorules" / "index.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rating", default="W", choices=["W", "B"])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    rows = [r for r in csv.DictReader(open(INDEX)) if r[f"status_{args.rating}"] == "solved"]
    theirs = {r["puzzle"]: float(r[f"{args.rating}_cpu_seconds"]) for r in rows}
    level = {r["puzzle"]: int(r[f"published_{args.rating}"]) for r in rows}
    ours: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "in.txt"
        source.write_text("".join(r["puzzle"] + "\n" for r in rows))
        for run in range(args.runs):
            out = Path(tmp) / f"out{run}.csv"
            subprocess.run([sys.executable, "-m", "sudorules", "rate", str(source), "--rating", args.rating,
                            "--jobs", "1", "--no-progress", "-o", str(out)], check=True)
            for row in csv.DictReader(open(out)):
                assert int(row[args.rating]) == level[row["puzzle"]], row
                seconds = float(row["seconds"])
                ours[row["puzzle"]] = min(seconds, ours.get(row["puzzle"], seconds))
    by_level = defaultdict(list)
    for puzzle in theirs:
        by_level[level[puzzle]].append((theirs[puzzle], ours[puzzle]))
    print(f"| {args.rating} | puzzles | SudoRules median s | ours median s | ratio of medians | ratio of sums |")
    print("|---|---|---|---|---|---|")
    for lv in sorted(by_level):
        pairs = by_level[lv]
        t = statistics.median(p[0] for p in pairs)
        o = statistics.median(p[1] for p in pairs)
        st, so = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        # the seconds column has millisecond precision: a 0 is under half a millisecond
        floor = lambda x: (">", 0.0005) if x < 0.0005 else ("", x)  # noqa: E731
        (mark, o), (mark_sum, so) = floor(o), floor(so)
        print(f"| {lv} | {len(pairs)} | {t:.3f} | {o:.4f} | {mark}{t / o:.0f}x | {mark_sum}{st / so:.0f}x |")


if __name__ == "__main__":
    main()
