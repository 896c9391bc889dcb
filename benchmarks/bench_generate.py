"""Controlled-bias generation speed as users run it (issue 23): puzzles per CPU-second of the whole
``sudorules generate`` process (its threads, start-up included), one run per seed.

    PYTHONPATH=. python benchmarks/bench_generate.py                       # -n 100 --jobs 2, seeds 1 2 3
    PYTHONPATH=. python benchmarks/bench_generate.py -n 200 --jobs 1 --seeds 4 5
    PYTHONPATH=. python benchmarks/bench_generate.py --compare other.txt   # also check the output file

Each run is ``python -m sudorules generate --method controlled-bias -n N --jobs J --seed S -o FILE``
(the same command line as the ``sudorules`` script); its CPU (user + system, from ``wait4``: every
thread of the process) and wall time are printed beside the puzzles and grids (the ``tries`` column)
per CPU-second.  The grids per puzzle scatter widely (a 100-puzzle run carries ~10 % noise), so
grids per CPU-second is the steadier speed; on a shared machine CPU seconds grow with the load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(n: int, jobs: int, seed: int, out: Path) -> tuple[float, float]:
    """(CPU seconds of the process, wall seconds) of one generate run writing to `out`."""
    command = [sys.executable, "-m", "sudorules", "generate", "--method", "controlled-bias", "-n", str(n),
               "--jobs", str(jobs), "--seed", str(seed), "--no-progress", "-o", str(out)]
    started = time.monotonic()
    process = subprocess.Popen(command)
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        sys.exit(f"{' '.join(command)}: exit status {process.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100, help="puzzles per run (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="threads (default 2)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="one run per seed")
    parser.add_argument("--compare", type=Path, nargs="*", default=[],
                        help="files that each run's output must equal (one per seed, in order)")
    args = parser.parse_args()
    print(f"generate --method controlled-bias -n {args.n} --jobs {args.jobs}; load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    print(f"{'seed':>6} {'CPU s':>8} {'wall s':>8} {'grids':>11} {'puzzles/CPU-s':>14} {'grids/CPU-s':>12}")
    total_cpu = total_grids = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for k, seed in enumerate(args.seeds):
            out = Path(scratch) / f"cb{seed}.txt"
            cpu, wall = run(args.n, args.jobs, seed, out)
            text = out.read_text()
            if k < len(args.compare) and text != args.compare[k].read_text():
                sys.exit(f"seed {seed}: the output differs from {args.compare[k]}")
            grids = sum(int(line.split()[1]) for line in text.splitlines())
            total_cpu += cpu
            total_grids += grids
            print(f"{seed:>6} {cpu:>8.1f} {wall:>8.1f} {grids:>11,} {args.n / cpu:>14.2f} {grids / cpu:>12,.0f}")
    runs = len(args.seeds)
    print(f"{'all':>6} {total_cpu:>8.1f} {'':>8} {int(total_grids):>11,} {runs * args.n / total_cpu:>14.2f} "
          f"{total_grids / total_cpu:>12,.0f}")
    if args.compare:
        print(f"outputs equal to {', '.join(map(str, args.compare[:runs]))}")


if __name__ == "__main__":
    main()
