"""Printed paths of hard puzzles: the chains of lean stages from the compiled searches, or from the rules.

``sudorules solve`` prints a path; under B and gB its braids of the lean stages and, from level 4, its
whips come from the compiled searches (docs/engine.md, "Lean braids and lean whips").  This script
solves each puzzle in both ways, each solve in a fresh process (its peak memory is its own): ``search``
(the engine's default) and ``rules`` (``compiled_braids`` off, ``lean_whips_from`` 37: the rules build
every partial chain, as before), and prints per puzzle, theory and way the status, rating, steps, CPU
seconds, peak resident MiB, and whether the independent checker accepts the path (replayed against the
solution; a path cut by a limit only has to be valid so far).

    PYTHONPATH=. python benchmarks/bench_paths.py                  # the W11 puzzle of issue 23, top1465 #182
    PYTHONPATH=. python benchmarks/bench_paths.py --file F --lines 3,7 --theory B --ways search
    PYTHONPATH=. python benchmarks/bench_paths.py --cb001-b 5      # cb-001's B 5+ puzzles, against the published

With ``--cb001-b N``, every cb-001 puzzle of published B N or more is solved, one process per theory and
way, and each rating compared with the published one (B or gB); it prints the CPU seconds of all and the
puzzles whose rating differs (none expected).

A run that passes ``--time-limit`` or ``--memory-limit`` ends with status timeout or memory (the
rules' gB path of #182 does: more than 600 s, and 24 GB before the kernel killed it).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import time
from pathlib import Path

from bench_gb_vs_b import HARD, PUBLISHED

CB001 = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"

WAYS = ("search", "rules")


def _solve(job: tuple[str, str, str, float, int]) -> dict:
    """One solve in this (fresh) process: its outcome, CPU seconds and peak resident MiB."""
    from sudorules.engine import Engine
    from sudorules.engine.solver import unique_solution
    from sudorules.resolution.verify import replay

    text, theory, way, time_limit, memory_mib = job
    solution = unique_solution(text)
    engine = Engine(theory) if way == "search" else Engine(theory, lean_whips_from=37)
    engine.compiled_braids = way == "search"
    started = time.process_time()
    resolution = engine.solve(text, time_limit=time_limit, solution=solution, memory_limit=memory_mib * 2**20)
    cpu = time.process_time() - started
    return {"status": str(resolution.status), "rating": resolution.rating, "steps": len(resolution.steps),
            "cpu": cpu, "mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "verified": replay(resolution.puzzle, resolution.steps, solution).ok}


def _solve_all(job: tuple[list[str], str, str]) -> tuple[float, list[tuple[int, object]]]:
    """Every puzzle of a list in this (fresh) process: the CPU seconds of all, and each (index, rating)."""
    from sudorules.engine import Engine

    texts, theory, way = job
    engine = Engine(theory) if way == "search" else Engine(theory, lean_whips_from=37)
    engine.compiled_braids = way == "search"
    started, ratings = time.process_time(), []
    for k, text in enumerate(texts):
        ratings.append((k, engine.solve(text).rating))
    return time.process_time() - started, ratings


def _cb001(b_min: int, theories: list[str], ways: list[str]) -> None:
    lines = [line.split()[0] for line in (CB001 / "puzzles.txt").read_text().splitlines()]
    published = {name: (CB001 / f"{name}-ratings.txt").read_text().split() for name in ("B", "gB")}
    chosen = [i for i, b in enumerate(published["B"]) if int(b) >= b_min]
    context = multiprocessing.get_context("fork")
    print(f"cb-001, published B >= {b_min}: {len(chosen)} puzzles")
    for theory in theories:
        for way in ways:
            with context.Pool(1, maxtasksperchild=1) as pool:
                cpu, ratings = pool.apply(_solve_all, (([lines[i] for i in chosen], theory, way),))
            differ = [(chosen[k] + 1, r, published[theory][chosen[k]]) for k, r in ratings
                      if str(r) != published[theory][chosen[k]]]
            print(f"{theory} {way}: {cpu:.1f} CPU-s, ratings differing from the published (line, ours, "
                  f"published): {differ or 'none'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default=None, help="a puzzle file (one puzzle a line); default: the two below")
    parser.add_argument("--lines", default=None, help="its 1-based lines, comma-separated (default: all)")
    parser.add_argument("--theory", default="B,gB", help="comma-separated theories (default B,gB)")
    parser.add_argument("--ways", default=",".join(WAYS), help="search, rules or both (default both)")
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per solve (default 600)")
    parser.add_argument("--memory-limit", type=int, default=4096, help="MiB a solve may grow by (default 4096)")
    parser.add_argument("--cb001-b", type=int, default=None, metavar="N",
                        help="solve every cb-001 puzzle of published B N or more, ratings against the published")
    args = parser.parse_args()
    ways = [w for w in args.ways.split(",") if w]
    if not set(ways) <= set(WAYS):
        parser.error(f"--ways: {args.ways!r}: each of {', '.join(WAYS)}")
    if args.cb001_b is not None:
        _cb001(args.cb001_b, args.theory.split(","), ways)
        return
    if args.file:
        texts = [line.split()[0] for line in Path(args.file).read_text().splitlines() if line.strip()]
        numbers = [int(n) for n in args.lines.split(",")] if args.lines else range(1, len(texts) + 1)
        puzzles = {f"{Path(args.file).name} #{n}": texts[n - 1] for n in numbers}
    else:
        puzzles = {**HARD, "top1465 #182 (W22)": PUBLISHED["top1465 #182 (W22)"]}
    print("| puzzle | theory | way | status | rating | steps | CPU s | peak MiB | verified |")
    print("|---|---|---|---|---|---|---|---|---|")
    context = multiprocessing.get_context("fork")
    for name, text in puzzles.items():
        for theory in args.theory.split(","):
            for way in ways:
                with context.Pool(1, maxtasksperchild=1) as pool:
                    r = pool.apply(_solve, ((text, theory, way, args.time_limit, args.memory_limit),))
                print(f"| {name} | {theory} | {way} | {r['status']} | {r['rating']} | {r['steps']} | "
                      f"{r['cpu']:.2f} | {r['mib']:.0f} | {'yes' if r['verified'] else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
