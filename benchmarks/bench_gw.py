"""gW or gB against the published gW / gB ratings of cb-001, beside our W / B.

``--rating gW`` (default): Singles + whips + g-whips, beside W; ``--rating gB``: Singles + whips +
g-whips + braids + g-braids, beside B.  A stratified sample by published level (``--per-level``
puzzles per level 0..6, all of them above, up to ``--top``; chosen with a fixed seed), each puzzle
rated both ways in this process with the API (one :class:`~sudorules.engine.solver.Solver`, rule
loading excluded; CPU seconds of ``Solver.solve``, uniqueness check included, as ``rate`` does).
Prints:

* agreement with the published rating (target >= 99.9 %), every difference listed with its line,
  our base rating and the published one, and whether our path re-verifies
  (``sudorules.resolution.verify``);
* median CPU seconds per puzzle by published level, the base theory beside the g one, and their ratio
  (targets, issue 12: gW <= ~2x W, gB <= 3x B);
* peak resident memory of the process (a bound on every puzzle's).

Per-puzzle results go to a CSV (``--results``) as they come; a rerun skips the lines already there.

    nice python benchmarks/bench_gw.py --per-level 20 --results /tmp/gw.csv
    nice python benchmarks/bench_gw.py --rating gB --per-level 10 --top 6 --results /tmp/gb.csv
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


def sample(per_level: int, top: int, seed: int, rating: str = "gW") -> list[int]:
    """Line numbers (1-based): ``per_level`` per published level of ``rating`` up to 6, every one above
    up to ``top``."""
    gw = [int(x) for x in _read(f"{rating}-ratings.txt") if x.strip()]
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
    parser.add_argument("--rating", choices=("gW", "gB"), default="gW")
    parser.add_argument("--lines", help="comma-separated line numbers instead of a sample")
    parser.add_argument("--results", type=Path, default=Path("/tmp/bench_gw.csv"))
    parser.add_argument("--time-limit", type=float, default=600)
    args = parser.parse_args()

    puzzles = [line.split()[0] if line.strip() else "" for line in _read("puzzles.txt")]
    g = args.rating
    base = g[1:]  # W or B
    pub_w = _read(f"{base}-ratings.txt")
    pub_gw = _read(f"{g}-ratings.txt")
    lines = ([int(x) for x in args.lines.split(",")] if args.lines
             else sample(args.per_level, args.top, args.seed, g))

    done: dict[int, dict] = {}
    if args.results.exists():
        with args.results.open() as handle:
            done = {int(row["line"]): row for row in csv.DictReader(handle)}
    # columns named for gW; with --rating gB, "W" stands for B and "gW" for gB (one file per rating)
    fields = ["line", "pub_W", "pub_gW", "W", "gW", "W_s", "gW_s", "gW_status", "verified"]
    new = not args.results.exists()
    solver = Solver()
    solver.engine(base)
    solver.engine(g)  # rules loaded before any timing
    with args.results.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        if new:
            writer.writeheader()
        for k in lines:
            if k in done:
                continue
            puzzle = puzzles[k - 1]
            t0 = time.process_time()
            rw = solver.solve(puzzle, base, time_limit=args.time_limit)
            t1 = time.process_time()
            rg = solver.solve(puzzle, g, time_limit=args.time_limit)
            t2 = time.process_time()
            verified = replay(rg.puzzle, rg.steps).ok
            row = {"line": k, "pub_W": pub_w[k - 1], "pub_gW": pub_gw[k - 1], "W": rw.rating, "gW": rg.rating,
                   "W_s": round(t1 - t0, 4), "gW_s": round(t2 - t1, 4), "gW_status": rg.status,
                   "verified": verified}
            writer.writerow(row)
            handle.flush()
            done[k] = {key: str(v) for key, v in row.items()}
            print(f"line {k}: published {g} {row['pub_gW']}, ours {rg.rating}; {base} {rw.rating} "
                  f"{row['W_s']:.2f}s, {g} {row['gW_s']:.2f}s", file=sys.stderr)

    rows = [done[k] for k in lines if k in done]
    agree = [r for r in rows if r["gW"] == r["pub_gW"]]
    print(f"{g} equal to the published {g} on {len(agree)} of {len(rows)} puzzles "
          f"({100.0 * len(agree) / max(1, len(rows)):.2f} %)")
    for r in rows:
        if r["gW"] != r["pub_gW"]:
            print(f"  line {r['line']}: ours {g} {r['gW']} ({r['gW_status']}), published {g} {r['pub_gW']}; "
                  f"ours {base} {r['W']}, published {base} {r['pub_W']}; path re-verified: {r['verified']}")
    base_agree = [r for r in rows if r["W"] == r["pub_W"]]
    print(f"{base} equal to the published {base} on {len(base_agree)} of {len(rows)} puzzles"
          + "".join(f"\n  line {r['line']}: ours {base} {r['W']}, published {r['pub_W']}"
                    for r in rows if r["W"] != r["pub_W"]))
    not_verified = [r["line"] for r in rows if r["verified"].strip() != "True"]
    print(f"{g} paths re-verified by the checker: {len(rows) - len(not_verified)} of {len(rows)}"
          + (f" (not: {not_verified})" if not_verified else ""))
    print(f"\nmedian CPU s per puzzle by published {g} level (uniqueness check included, rule loading excluded)")
    print(f"{g:>3} {'n':>4} {base + ' s':>8} {g + ' s':>8} {'ratio':>6} {'max ' + g + ' s':>9}")
    for level in sorted({int(r["pub_gW"]) for r in rows}):
        at = [r for r in rows if int(r["pub_gW"]) == level]
        w = statistics.median(float(r["W_s"]) for r in at)
        gs = statistics.median(float(r["gW_s"]) for r in at)
        print(f"{level:>3} {len(at):>4} {w:>8.3f} {gs:>8.3f} {gs / w if w else 0:>6.2f} "
              f"{max(float(r['gW_s']) for r in at):>9.2f}")
    print(f"\npeak resident memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
