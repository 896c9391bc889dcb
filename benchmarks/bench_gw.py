"""gW (Singles + whips + g-whips) against the published gW ratings of cb-001, beside our W.

A stratified sample by published gW level (``--per-level`` puzzles per level 0..6, all of them above,
up to ``--top``; chosen with a fixed seed), each puzzle rated W and gW in this process with the API
(one :class:`~sudorules.engine.solver.Solver`, rule loading excluded; CPU seconds of
``Solver.solve``, uniqueness check included, as ``rate`` does).  Prints:

* agreement of our gW with the published gW (target >= 99.9 %), every difference listed with its line,
  our W and published W, and whether our gW path re-verifies (``sudorules.resolution.verify``);
* median CPU seconds per puzzle by published gW level, W beside gW, and their ratio (target <= ~2);
* peak resident memory of the process.

Per-puzzle results go to a CSV (``--results``) as they come; a rerun skips the lines already there.

    nice python benchmarks/bench_gw.py --per-level 20 --results /tmp/gw.csv
"""

from __future__ import annotations

import argparse
import csv
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudorules.engine.solver import Solver  # noqa: E402
from sudorules.resolution.verify import replay  # noqa: E402

ORACLE = ROOT.parent / "shared" / "oracle" / "cb-001"


def _read(name: str) -> list[str]:
    return (ORACLE / name).read_text().split("\n")


def sample(per_level: int, top: int, seed: int) -> list[int]:
    """Line numbers (1-based): ``per_level`` per published gW level up to 6, every one above up to ``top``."""
    gw = [int(x) for x in _read("gW-ratings.txt") if x.strip()]
    rng = random.Random(seed)
    lines = []
    for level in range(0, top + 1):
        at = [k + 1 for k, g in enumerate(gw) if g == level]
        lines += sorted(rng.sample(at, min(len(at), per_level if level <= 6 else len(at))))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-level", type=int, default=20)
    parser.add_argument("--top", type=int, default=7, help="highest published gW level sampled")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--lines", help="comma-separated line numbers instead of a sample")
    parser.add_argument("--results", type=Path, default=Path("/tmp/bench_gw.csv"))
    parser.add_argument("--time-limit", type=float, default=600)
    args = parser.parse_args()

    puzzles = [line.split()[0] if line.strip() else "" for line in _read("puzzles.txt")]
    pub_w = _read("W-ratings.txt")
    pub_gw = _read("gW-ratings.txt")
    lines = [int(x) for x in args.lines.split(",")] if args.lines else sample(args.per_level, args.top, args.seed)

    done: dict[int, dict] = {}
    if args.results.exists():
        with args.results.open() as handle:
            done = {int(row["line"]): row for row in csv.DictReader(handle)}
    fields = ["line", "pub_W", "pub_gW", "W", "gW", "W_s", "gW_s", "gW_status", "verified"]
    new = not args.results.exists()
    solver = Solver()
    solver.engine("W")
    solver.engine("gW")  # rules loaded before any timing
    with args.results.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        if new:
            writer.writeheader()
        for k in lines:
            if k in done:
                continue
            puzzle = puzzles[k - 1]
            t0 = time.process_time()
            rw = solver.solve(puzzle, "W", time_limit=args.time_limit)
            t1 = time.process_time()
            rg = solver.solve(puzzle, "gW", time_limit=args.time_limit)
            t2 = time.process_time()
            verified = replay(rg.puzzle, rg.steps).ok
            row = {"line": k, "pub_W": pub_w[k - 1], "pub_gW": pub_gw[k - 1], "W": rw.rating, "gW": rg.rating,
                   "W_s": round(t1 - t0, 4), "gW_s": round(t2 - t1, 4), "gW_status": rg.status,
                   "verified": verified}
            writer.writerow(row)
            handle.flush()
            done[k] = {key: str(v) for key, v in row.items()}
            print(f"line {k}: published gW {row['pub_gW']}, ours {rg.rating}; W {rw.rating} "
                  f"{row['W_s']:.2f}s, gW {row['gW_s']:.2f}s", file=sys.stderr)

    rows = [done[k] for k in lines if k in done]
    agree = [r for r in rows if r["gW"] == r["pub_gW"]]
    print(f"gW equal to the published gW on {len(agree)} of {len(rows)} puzzles "
          f"({100.0 * len(agree) / max(1, len(rows)):.2f} %)")
    for r in rows:
        if r["gW"] != r["pub_gW"]:
            print(f"  line {r['line']}: ours gW {r['gW']} ({r['gW_status']}), published gW {r['pub_gW']}; "
                  f"ours W {r['W']}, published W {r['pub_W']}; path re-verified: {r['verified']}")
    not_verified = [r["line"] for r in rows if r["verified"] != "True"]
    print(f"gW paths re-verified by the checker: {len(rows) - len(not_verified)} of {len(rows)}"
          + (f" (not: {not_verified})" if not_verified else ""))
    print("\nmedian CPU s per puzzle by published gW level (uniqueness check included, rule loading excluded)")
    print(f"{'gW':>3} {'n':>4} {'W s':>8} {'gW s':>8} {'ratio':>6} {'max gW s':>9}")
    for level in sorted({int(r["pub_gW"]) for r in rows}):
        at = [r for r in rows if int(r["pub_gW"]) == level]
        w = statistics.median(float(r["W_s"]) for r in at)
        g = statistics.median(float(r["gW_s"]) for r in at)
        print(f"{level:>3} {len(at):>4} {w:>8.3f} {g:>8.3f} {g / w if w else 0:>6.2f} "
              f"{max(float(r['gW_s']) for r in at):>9.2f}")
    print(f"\npeak resident memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
