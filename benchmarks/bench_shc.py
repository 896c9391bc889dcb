"""sudorules against SHC (F. Cordoliani's Sudoku Hierarchical Classifier), side by side.

For each group of puzzles (SHC's example sets split by their published value, and cb-001 puzzles
stratified by their published B), SHC and sudorules run at the same time, each pinned to its own core
(``taskset``), and the CPU seconds (user + system) of each whole process tree are compared, start-up
included on both sides (the JVM's, Python's).  Every value is checked against the published one.

    PYTHONPATH=. python benchmarks/bench_shc.py --shc /path/to/SHC.jar            # everything
    PYTHONPATH=. python benchmarks/bench_shc.py --shc SHC.jar --only TE,B          # some sets
    PYTHONPATH=. python benchmarks/bench_shc.py --shc SHC.jar --cb001 10 --seed 5  # + cb-001, 10 a B level

Ours should be an installed wheel (``--ours /path/to/venv/bin/sudorules``): an editable install adds
its import hook, about 50 ms, to every start; it runs without PYTHONPATH, so it imports what it
installed, not this checkout (until 2026-11-26 it did not: cb-001 B0 was timed on the checkout's
sources, compiled at each start, 0.15 for 0.07 CPU-s).  The T&E examples are one run of the 342 (as the issue
measured them; ``--te-by-depth`` splits them), the others one run per published value.

SHC.jar comes with CSP-Rules (``denis-berthier/CSP-Rules-V2.1``, ``XTERNS/SHC/SHC.jar``) and runs on
Debian's ``default-jre-headless``; it is not part of sudorules.  Ours: ``sudorules rate FILE --rating
R --jobs 1`` (R = B, TE, BxB, BxBB), the command a user runs.  SHC's limits are its defaults for each
classification (max-length 30 for B examples as its -examples mode uses, 14 for BxB, 5 for BxBB), and
ours the same.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORACLE = ROOT.parent / "shared" / "oracle"
SHC_EXAMPLES = ORACLE / "shc-examples"
CB001 = ORACLE / "cb-001"
#: SHC's classification names, ours, and the max-length both use
SETS = {"TE": ("TE-depth", "TE", None), "B": ("B", "B", 30), "BxB": ("BxB", "BxB", 14), "BxBB": ("BxBB", "BxBB", 5)}


def _our_environment() -> dict[str, str]:
    """This environment without PYTHONPATH: run as ``PYTHONPATH=. python benchmarks/...``, the
    installed ``--ours`` would import the checkout's modules instead of its own (compiled from source
    at every start where no bytecode is written: for 8 cb-001 B0 puzzles 0.15 CPU-s side by side, 0.10
    alone, where the wheel's own takes 0.07, 2026-11-26)."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def _run_pair(shc_cmd: list[str], our_cmd: list[str], cores: tuple[int, int],
              our_env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Run both commands at once, SHC on cores[0], ours on cores[1] (in ``our_env``); their CPU
    seconds and the wall."""
    started = time.perf_counter()
    procs = {
        "shc": subprocess.Popen(["taskset", "-c", str(cores[0]), *shc_cmd], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL),
        "ours": subprocess.Popen(["taskset", "-c", str(cores[1]), *our_cmd], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=our_env),
    }
    cpu = {}
    pending = {p.pid: name for name, p in procs.items()}
    while pending:  # wait4: the CPU of each whole process tree (a JVM's threads, our worker)
        pid, _status, usage = os.wait4(-1, 0)
        if pid in pending:
            cpu[pending.pop(pid)] = usage.ru_utime + usage.ru_stime
    return cpu["shc"], cpu["ours"], time.perf_counter() - started


def _shc_values(path: Path) -> list[int]:
    return [int(v) for v in path.read_text().split("\n")[1:] if v.strip()]


def _our_values(path: Path, column: str) -> list[int]:
    with open(path, newline="") as handle:
        return [int(row[column]) if row[column] else -4 for row in csv.DictReader(handle)]


def bench_group(name: str, label: str, puzzles: list[str], published: list[int], shc: Path, work: Path,
                cores: tuple[int, int], ours_cmd: list[str], our_env: dict[str, str] | None = None) -> dict:
    shc_class, ours, length = SETS[name]
    folder = work / f"{name}-{label}"
    folder.mkdir()
    source = folder / "in.txt"
    source.write_text("".join(p + "\n" for p in puzzles))
    shc_cmd = ["java", "-jar", str(shc), shc_class, "-input", str(source), "-output", str(folder / "shc.txt")]
    our_cmd = [*ours_cmd, "rate", str(source), "--rating", ours, "--jobs", "1",
               "--no-progress", "-o", str(folder / "ours.csv")]
    if length is not None:
        shc_cmd += ["-max-length", str(length)]
        our_cmd += ["--max-length", str(length)]
    shc_cpu, our_cpu, wall = _run_pair(shc_cmd, our_cmd, cores, our_env)
    shc_values = _shc_values(folder / "shc.txt")
    our_values = _our_values(folder / "ours.csv", ours)
    return {"set": name, "group": label, "puzzles": len(puzzles), "shc_cpu": shc_cpu, "our_cpu": our_cpu,
            "ratio": shc_cpu / our_cpu if our_cpu else float("inf"), "wall": wall,
            "shc_equal": sum(a == b for a, b in zip(shc_values, published)),
            "our_equal": sum(a == b for a, b in zip(our_values, published))}


def shc_example_groups(name: str, whole: bool = False) -> list[tuple[str, list[str], list[int]]]:
    lines = [line[:81] for line in (SHC_EXAMPLES / f"{name}-input.txt").read_text().splitlines() if line.strip()]
    values = _shc_values(SHC_EXAMPLES / f"{name}-output-expected.txt")
    if whole:
        return [(f"{name} all", lines, values)]
    by_value: dict[int, list[int]] = defaultdict(list)
    for index, value in enumerate(values):
        by_value[value].append(index)
    return [(f"{name}={value}", [lines[i] for i in idx], [values[i] for i in idx]) for value, idx in sorted(by_value.items())]


def cb001_groups(per_level: int, seed: int) -> list[tuple[str, list[str], list[int]]]:
    puzzles = [line.split()[0] for line in (CB001 / "puzzles.txt").read_text().splitlines()]
    ratings = [int(x) for x in (CB001 / "B-ratings.txt").read_text().split()]
    by_level: dict[int, list[int]] = defaultdict(list)
    for index, value in enumerate(ratings):
        by_level[value].append(index)
    rng = random.Random(seed)
    groups = []
    for level in sorted(by_level):
        chosen = sorted(rng.sample(by_level[level], min(per_level, len(by_level[level]))))
        groups.append((f"cb001 B={level}", [puzzles[i] for i in chosen], [ratings[i] for i in chosen]))
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shc", type=Path, required=True, help="SHC.jar")
    parser.add_argument("--only", default="TE,B,BxB,BxBB", help="which SHC example sets (comma-separated)")
    parser.add_argument("--cb001", type=int, default=0, metavar="N", help="also N cb-001 puzzles a B level")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--bxb-every", type=int, default=1,
                        help="BxB examples: one group per value of every Nth puzzle (1: all 153)")
    parser.add_argument("--cores", default="1,0", help="SHC's core, ours")
    parser.add_argument("--ours", default=None, metavar="PATH",
                        help="the sudorules command to time (default: this Python's -m sudorules)")
    parser.add_argument("--te-by-depth", action="store_true", help="the T&E examples one run per depth")
    args = parser.parse_args()
    if shutil.which("java") is None or shutil.which("taskset") is None:
        raise SystemExit("needs java (Debian's default-jre-headless) and taskset")
    cores = tuple(int(c) for c in args.cores.split(","))
    ours_cmd = [args.ours] if args.ours else [sys.executable, "-m", "sudorules"]
    our_env = _our_environment() if args.ours else None  # the installed one runs its own modules
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-shc-") as tmp:
        work = Path(tmp)
        for name in [n for n in args.only.split(",") if n]:
            for label, puzzles, published in shc_example_groups(name, whole=name == "TE" and not args.te_by_depth):
                if name == "BxB" and args.bxb_every > 1:
                    puzzles, published = puzzles[::args.bxb_every], published[::args.bxb_every]
                results.append(bench_group(name, label, puzzles, published, args.shc, work, cores, ours_cmd,
                                           our_env))
                print(_line(results[-1]), flush=True)
        if args.cb001:
            for label, puzzles, published in cb001_groups(args.cb001, args.seed):
                results.append(bench_group("B", label.replace(" ", "-"), puzzles, published, args.shc, work, cores,
                                           ours_cmd, our_env))
                print(_line(results[-1]), flush=True)
    print()
    print("| set | group | puzzles | SHC CPU s | ours CPU s | SHC / ours | SHC equal | ours equal |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['set']} | {r['group']} | {r['puzzles']} | {r['shc_cpu']:.2f} | {r['our_cpu']:.2f} | "
              f"{r['ratio']:.1f}x | {r['shc_equal']} | {r['our_equal']} |")


def _line(r: dict) -> str:
    return (f"{r['group']:>14}: {r['puzzles']:3d} puzzles  SHC {r['shc_cpu']:7.2f} s  ours {r['our_cpu']:7.2f} s  "
            f"{r['ratio']:5.1f}x  equal SHC {r['shc_equal']} ours {r['our_equal']}")


if __name__ == "__main__":
    main()
