"""gB against B in the compiled engine, by published gB level of cb-001, and on named hard puzzles.

Issue 23 asks for gB at most 3x B at every gB level and on every W10+ puzzle.  Each puzzle is rated
by ``te.rate_braids`` with and without g-braids (its unique solution given, as ``rate`` does), in one
process, ``--rounds`` times; the CPU seconds (process time) of each rating are summed per level.  Up
to ``--per-level`` puzzles a level, the first ones of the file.  The hard puzzles: the W11 puzzle of
issue 23 and cb-001 lines 12301 and 7462, one by one.

    PYTHONPATH=. python benchmarks/bench_gb_vs_b.py --per-level 400 --rounds 2
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

import sudorules
from sudorules.engine import te
from sudorules.engine.solver import unique_solution

CB001 = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"
HARD = {"W11 of issue 23": "12......9..71...........41..7...5..4....6...259.2....8..2.9...383.7..6......31.2."}
HARD_LINES = (12301, 7462)


def _times(puzzles: list, rounds: int) -> tuple[float, float]:
    """CPU seconds of B and of gB over the puzzles (each a (puzzle, solution) pair), `rounds` times."""
    spent = [0.0, 0.0]
    for _ in range(rounds):
        for k, g in enumerate((False, True)):
            started = time.process_time()
            for puzzle, solution in puzzles:
                te.rate_braids(puzzle, g=g, solution=solution)
            spent[k] += time.process_time() - started
    return spent[0], spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-level", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    lines = [line.split()[0] for line in (CB001 / "puzzles.txt").read_text().splitlines()]
    levels = [int(line.split()[0]) for line in (CB001 / "gB-ratings.txt").read_text().splitlines()]
    by_level: dict[int, list] = defaultdict(list)
    for text, level in zip(lines, levels):
        if len(by_level[level]) < args.per_level:
            puzzle = sudorules.parse_puzzle(text)
            by_level[level].append((puzzle, unique_solution(puzzle)))
    print("| set | puzzles | B CPU s | gB CPU s | gB / B |\n|---|---|---|---|---|")
    for level in sorted(by_level):
        b, gb = _times(by_level[level], args.rounds)
        print(f"| gB = {level} | {len(by_level[level])} | {b:.3f} | {gb:.3f} | {gb / b:.2f}x |")
    hard = dict(HARD, **{f"cb-001 line {n}": lines[n - 1] for n in HARD_LINES})
    for name, text in hard.items():
        puzzle = sudorules.parse_puzzle(text)
        b, gb = _times([(puzzle, unique_solution(puzzle))], args.rounds)
        print(f"| {name} | 1 | {b:.3f} | {gb:.3f} | {gb / b:.2f}x |")


if __name__ == "__main__":
    main()
