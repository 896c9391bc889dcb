"""The batch machinery at scale: kill -9 and resume twice, compare with an uninterrupted run, overhead.

    python benchmarks/bench_batch.py --count 10000 --jobs 2

1. Rates the first ``--count`` puzzles of cb-001 into ``uninterrupted.csv`` and measures the batch
   overhead: wall time x workers minus the rating time of the rows (the ``seconds`` column) and
   minus the rule loading, as a share of the rating time (target: under 2 %).
2. Rates them again into ``interrupted.csv``, killing the whole process group with SIGKILL twice
   (after a third and two thirds of the rows), resuming each time with the same command.
3. Checks that both files have the same rows in the same order (the timing column aside) and that
   every puzzle appears exactly once.
"""

from __future__ import annotations

import argparse
import csv
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CB001 = ROOT.parent / "shared" / "oracle" / "cb-001" / "puzzles.txt"


def rate_command(source: Path, output: Path, jobs: int) -> list[str]:
    """The CLI command that rates ``source`` into ``output``."""
    return [sys.executable, "-m", "sudorules", "rate", str(source), "-o", str(output), "--jobs", str(jobs),
            "--no-progress"]


def rows_of(path: Path) -> list[list[str]]:
    """The CSV rows of a file, header included."""
    with open(path, newline="") as handle:
        return list(csv.reader(handle))


def loading_seconds() -> float:
    """Seconds to build one worker's rule engine (paid once per worker, not per puzzle)."""
    started = time.perf_counter()
    from sudorules.batch.rating import Rater

    Rater(("W",))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()

    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench_batch_"))
    work.mkdir(parents=True, exist_ok=True)
    source = work / "puzzles.txt"
    with open(CB001) as handle:
        source.write_text("".join(line for _, line in zip(range(args.count), handle)))

    reference = work / "uninterrupted.csv"
    reference.unlink(missing_ok=True)
    started = time.perf_counter()
    subprocess.run(rate_command(source, reference, args.jobs), check=True)
    wall = time.perf_counter() - started
    rows = rows_of(reference)
    rating = sum(float(r[rows[0].index("seconds")]) for r in rows[1:])
    loading = loading_seconds()
    overhead = args.jobs * wall - rating - args.jobs * loading
    print(f"uninterrupted: {len(rows) - 1} rows in {wall:.1f}s wall on {args.jobs} workers; "
          f"rating time {rating:.1f}s; rule loading {loading:.2f}s per worker")
    print(f"batch overhead: {overhead:.1f}s = {100 * overhead / rating:.2f} % of the rating time "
          "(includes idle workers at the end of the run)")

    interrupted = work / "interrupted.csv"
    interrupted.unlink(missing_ok=True)
    for fraction in (1 / 3, 2 / 3):
        target = int(args.count * fraction)
        process = subprocess.Popen(rate_command(source, interrupted, args.jobs), start_new_session=True)
        while process.poll() is None:
            if interrupted.exists() and interrupted.read_bytes().count(b"\n") > target:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                written = interrupted.read_bytes().count(b"\n") - 1
                print(f"killed with SIGKILL after {written} rows")
                break
            time.sleep(0.2)
    subprocess.run(rate_command(source, interrupted, args.jobs), check=True)
    ours, theirs = rows_of(interrupted), rows_of(reference)
    at = ours[0].index("seconds")
    same = [r[:at] + r[at + 1:] for r in ours] == [r[:at] + r[at + 1:] for r in theirs]
    unique = len({r[0] for r in ours[1:]}) == len(ours) - 1
    print(f"after two kills and resumes: {len(ours) - 1} rows; identical to the uninterrupted run "
          f"(timing aside): {same}; every puzzle exactly once: {unique}")


if __name__ == "__main__":
    main()
