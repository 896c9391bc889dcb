"""Rating agreement with the published collection and seconds per puzzle by W level.

Runs the rule engine on the cb-001 puzzles (all of them, or a stratified sample per published W
level) and prints:

* agreement with SudoRules' candidate counts after BRT and after BRT + whips[1] (targets: 100 %);
* agreement of our W (and B) ratings with the published ones (target: >= 99.9 %), every difference
  listed with its line number;
* seconds per puzzle by published W level (median / mean / max), beside SudoRules' own figures;
* peak memory per worker.

Per-puzzle results are appended to a CSV as they come (``--results``), so an interrupted run resumes.

    python benchmarks/bench_rating.py --per-level 10            # a stratified sample
    python benchmarks/bench_rating.py --all --jobs 2            # the whole file (about an hour or more)
    python benchmarks/bench_rating.py --all --rating W,B --time-limit 600 --memory-limit 8000
"""

from __future__ import annotations

import argparse
import csv
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudorules.batch.pool import OrderedPool, cpu_count  # noqa: E402
from sudorules.reader import parse_puzzle  # noqa: E402

CB001 = ROOT.parent / "shared" / "oracle" / "cb-001"
#: SudoRules 20.1 under CLIPS 6.4, W theory, median solve seconds per puzzle by W (issue #3).
SUDORULES_MEDIAN = {0: 0.075, 1: 0.17, 2: 0.37, 3: 0.57, 4: 1.9, 5: 11.0}
COLUMNS = ["line", "W", "B", "status_W", "status_B", "brt", "w1", "seconds_W", "seconds_B", "max_rss_mb"]


def _worker(ratings, time_limit, use_solution):
    from sudorules import core
    from sudorules.engine import Engine

    engines = {name: Engine(theory=name) for name in ratings}

    def handle(task):
        line, text = task
        puzzle = parse_puzzle(text)
        row = {"line": line}
        for name, engine in engines.items():
            started = time.process_time()
            # As `sudorules rate` does: the core's uniqueness check, whose solution prunes the search.
            solution = core.solve(puzzle) if use_solution else None
            resolution = engine.solve(puzzle, time_limit=time_limit, solution=solution)
            row[name] = "" if resolution.rating is None else resolution.rating
            row[f"status_{name}"] = resolution.status
            row[f"seconds_{name}"] = f"{time.process_time() - started:.4f}"
            if name == "W":
                row["brt"] = resolution.candidates_after_singles
                row["w1"] = resolution.candidates_after_whips1
        row["max_rss_mb"] = f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}"
        return row

    return handle


def _failure(task, kind, detail, partial=None):
    return {"line": task[0], "status_W": kind, "status_B": kind}


def load_oracle():
    """Published columns of cb-001, line-aligned: puzzles, W, B, candidates after BRT and W1."""
    def numbers(name):
        return [int(float(v)) for v in (CB001 / name).read_text().split()]

    puzzles = [line.split()[0] for line in (CB001 / "puzzles.txt").read_text().splitlines()]
    return puzzles, numbers("W-ratings.txt"), numbers("B-ratings.txt"), numbers("nb-cands-after-BRT.txt"), \
        numbers("nb-cands-after-W1.txt")


def choose_lines(ws, per_level, everything):
    """1-based line numbers to run: all, or the first ``per_level`` of each published W level."""
    if everything:
        return list(range(1, len(ws) + 1))
    chosen = []
    for level in sorted(set(ws)):
        chosen += [i + 1 for i, w in enumerate(ws) if w == level][:per_level]
    return sorted(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-level", type=int, default=10, help="puzzles per published W level")
    parser.add_argument("--all", action="store_true", help="every puzzle of the file")
    parser.add_argument("--max-w", type=int, default=99, help="skip puzzles with published W above this")
    parser.add_argument("--rating", default="W", help="W or W,B")
    parser.add_argument("--jobs", type=int, default=cpu_count())
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--results", default=None, help="per-puzzle CSV, appended and resumed")
    parser.add_argument("--memory-limit", type=int, default=None,
                        help="MiB a worker may grow past its loaded rules (the puzzle's row gets status memory)")
    parser.add_argument("--no-solution", action="store_true",
                        help="do not give the engine the core's solution (no pruning of true candidates)")
    args = parser.parse_args()
    ratings = tuple(args.rating.split(","))

    puzzles, ws, bs, brt, w1 = load_oracle()
    lines = [n for n in choose_lines(ws, args.per_level, args.all) if ws[n - 1] <= args.max_w]
    results_path = Path(args.results or f"/tmp/bench_rating_{'_'.join(ratings)}.csv")
    done = {}
    if results_path.exists():
        with open(results_path, newline="") as handle:
            done = {int(r["line"]): r for r in csv.DictReader(handle)}
    todo = [(n, puzzles[n - 1]) for n in lines if n not in done]
    print(f"{len(lines)} puzzles, {len(done)} already in {results_path}, rating {len(todo)} on {args.jobs} "
          f"workers", file=sys.stderr)
    new_file = not results_path.exists()
    started = time.perf_counter()
    with open(results_path, "a", newline="") as handle:
        writer = csv.DictWriter(handle, COLUMNS, extrasaction="ignore")
        if new_file:
            writer.writeheader()
        pool = OrderedPool(_worker, (ratings, args.time_limit, not args.no_solution), args.jobs, _failure,
                           memory_limit=args.memory_limit * 2**20 if args.memory_limit else None)
        for count, row in enumerate(pool.imap(enumerate(todo)), start=1):
            writer.writerow(row)
            handle.flush()
            done[int(row["line"])] = {k: str(v) for k, v in row.items()}
            if count % 50 == 0:
                print(f"  {count}/{len(todo)} in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    wall = time.perf_counter() - started
    report(lines, done, ratings, ws, bs, brt, w1, wall, len(todo), args.jobs)


def report(lines, done, ratings, ws, bs, brt, w1, wall, rated_now, jobs) -> None:
    """Print the agreement and speed tables."""
    rows = [done[n] for n in lines if n in done]
    print(f"\n## cb-001: {len(rows)} puzzles (this run rated {rated_now} in {wall:.0f}s wall on {jobs} workers)\n")

    def agreement(name, ours, theirs):
        pairs = [(n, o, t) for n, o, t in zip((int(r["line"]) for r in rows), ours, theirs)]
        same = sum(1 for _, o, t in pairs if str(o) == str(t))
        print(f"| {name} | {same} / {len(pairs)} | {100.0 * same / max(1, len(pairs)):.3f} % |")
        return [(n, o, t) for n, o, t in pairs if str(o) != str(t)]

    print("| quantity | equal | share |\n|---|---|---|")
    if "W" in ratings:  # the counts come from the W engine's run
        agreement("candidates after BRT", [r.get("brt", "") for r in rows], [brt[int(r["line"]) - 1] for r in rows])
        agreement("candidates after W1", [r.get("w1", "") for r in rows], [w1[int(r["line"]) - 1] for r in rows])
    differences = {}
    for name, published in (("W", ws), ("B", bs)):
        if name in ratings:
            differences[name] = agreement(f"{name} rating", [r.get(name, "") for r in rows],
                                          [published[int(r["line"]) - 1] for r in rows])
    for name, diffs in differences.items():
        if diffs:
            print(f"\n{name} differences (line: ours / published): "
                  + ", ".join(f"{n}: {o or r_status(done[n], name)} / {t}" for n, o, t in diffs[:60]))
    if "W" in ratings:
        w_speed_table(rows, ws)
    if "B" in ratings:
        print("\n| published B | n | median s (B) | mean s | max s |\n|---|---|---|---|---|")
        for level in sorted({bs[int(r["line"]) - 1] for r in rows}):
            secs = [float(r["seconds_B"]) for r in rows if bs[int(r["line"]) - 1] == level and r.get("seconds_B")]
            if secs:
                print(f"| {level} | {len(secs)} | {statistics.median(secs):.3f} | {statistics.fmean(secs):.3f} | "
                      f"{max(secs):.3f} |")
        sudorules_b_comparison(done)
    rss = [float(r["max_rss_mb"]) for r in rows if r.get("max_rss_mb")]
    if rss:
        print(f"\npeak memory per worker: {max(rss):.0f} MiB")
    for name in ratings:
        total = sum(float(r[f"seconds_{name}"]) for r in rows if r.get(f"seconds_{name}"))
        print(f"{name} CPU seconds in all: {total:.0f}s; on {jobs} cores: {total / jobs / 3600:.2f} h")


def w_speed_table(rows, ws) -> None:
    """Seconds per puzzle by published W level, beside SudoRules' medians."""
    print("\n| published W | n | median s | mean s | max s | SudoRules median s | speed-up |")
    print("|---|---|---|---|---|---|---|")
    for level in sorted({ws[int(r["line"]) - 1] for r in rows}):
        secs = [float(r["seconds_W"]) for r in rows if ws[int(r["line"]) - 1] == level and r.get("seconds_W")]
        if not secs:
            continue
        median = statistics.median(secs)
        theirs = SUDORULES_MEDIAN.get(level)
        ratio = f"{theirs / median:.1f}x" if theirs and median else ""
        print(f"| {level} | {len(secs)} | {median:.3f} | {statistics.fmean(secs):.3f} | {max(secs):.3f} | "
              f"{theirs if theirs is not None else ''} | {ratio} |")


def sudorules_b_comparison(done) -> None:
    """Our B seconds beside SudoRules' on the puzzles SudoRules rated with braids on this machine
    (../shared/oracle/cb-001-sudorules/index.csv: B theory, CLIPS 6.4, 180 s limit)."""
    index = CB001.parent / "cb-001-sudorules" / "index.csv"
    if not index.is_file():
        return
    runs = [r for r in csv.DictReader(index.open()) if r["B_cpu_seconds"] and int(r["line"]) in done]
    if not runs:
        return
    print("\n| published B | puzzles | SudoRules B s (median, min-max; timeouts at 180 s) | ours s (median, max) |")
    print("|---|---|---|---|")
    for level in sorted({int(r["published_B"]) for r in runs}):
        at = [r for r in runs if int(r["published_B"]) == level]
        theirs = [float(r["B_cpu_seconds"]) for r in at]
        ours = [float(done[int(r["line"])]["seconds_B"]) for r in at if done[int(r["line"])].get("seconds_B")]
        timeouts = sum(1 for r in at if r["status_B"] == "timeout")
        print(f"| {level} | {len(at)} | {statistics.median(theirs):.1f}, {min(theirs):.1f}-{max(theirs):.1f}"
              f"{f'; {timeouts} timeouts' if timeouts else ''} | "
              f"{statistics.median(ours):.2f}, {max(ours):.2f} |" if ours else "| |")


def r_status(row, name):
    """The status of a row's rating when it has no value."""
    return row.get(f"status_{name}", "?")


if __name__ == "__main__":
    main()
