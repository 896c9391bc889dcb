"""gB against B in the compiled engine, by published gB level of cb-001, and on named hard puzzles.

Issue 23 asks for gB at most 3x B at every gB level and on every W10+ puzzle.  Each puzzle is rated
by ``te.rate_braids`` with and without g-braids (its unique solution given, as ``rate`` does), in one
process, ``--rounds`` times; the CPU seconds (process time) of each rating are summed per level.  Up
to ``--per-level`` puzzles a level, the first ones of the file.  The hard puzzles: the W11 puzzle of
issue 23 and cb-001 lines 12301 and 7462, one by one; then published W10+ puzzles (Magictour top1465
and others of SudoRules' examples), each rating once, with a time limit.

The last column is gB given B as its upper bound (``rate --rating B,gB`` rates B first and stops gB
once the closure one length short of B is stuck: te.rate_braids' ``upper``), against B: what a row of
both costs beyond its B.  The issue's target is the gB column alone.

    PYTHONPATH=. python benchmarks/bench_gb_vs_b.py --per-level 400 --rounds 2

With ``--file PATH`` it rates every puzzle of that file instead (one per line, its first 81
characters), B and gB alone, each once with ``--hard-limit``, and prints the statuses, the totals
and, for the puzzles with B >= ``--min-b`` (10 by default: W >= B, so these include every W10+
puzzle rated B), how gB / B is spread and each puzzle above 3x: e.g. Magictour's top1465 list.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Optional

import sudorules
from sudorules.engine import te
from sudorules.errors import SudorulesError
from sudorules.engine.solver import unique_solution

CB001 = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"
HARD = {"W11 of issue 23": "12......9..71...........41..7...5..4....6...259.2....8..2.9...383.7..6......31.2."}
HARD_LINES = (12301, 7462)
#: W10+ puzzles of D. Berthier's published SudoRules examples (CSP-Rules-Examples, Sudoku-a; the names
#: are theirs: W, gW, B, gB as SudoRules found them), rated with --hard-limit seconds at most each
PUBLISHED = {
    "top1465 #1 (W10)": "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "top1465 #29 (W12)": "..1.....7...89..........6..26..3.......5...749...........1.4.5.83.............2..",
    "top1465 #89 (B12, no W)": "...3..5...5..1..3...7..4..12.....4...6..9......1..6..28..7..2...9..8..5...5..9..7",
    "top1465 #7 (W16)": ".4..1.2.......9.7..1..........43.6..8......5....2.....7.5..8......6..3..9........",
    "top1465 #113 (W16)": "5..2..3......8..9...2..4..66..1..9...1.....4...7..3..87..3..4...9..7..2...5..6..9",
    "top1465 #182 (W22)": "......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3",
    "ObiWahn+Tarek #426 (W17)": "6..5......1...3.8...2.7.9....3..5.......9.1..7..4....25....27...8.....1...46....3",
    "Mauricio (W31, B19, gB11)": ".....1..2....3..4...52..1....36...1..2..7...89....57....9..7....8.9....43...4..8.",
    "ObiWahn+Tarek #26 (W10)": "........3.91.2..6.8....71....2..6.7....1......5..8.9....73....4.1..5..8.6.....2..",
    "cbg-000 #4918 (W10)": "....5.....567....28..23..6......78.....3...2...1.2.3.734.9...1...21...7....8...9.",
    "Royle17 #2995 (typed whips 13)": "....2..198..6.....5.........9..4....6.....3.......1....1.....4.7..3........5..8..",
    # outside T&E(1), inside gT&E(1): no B, a gB
    "top1465 #2 (gW16)": "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "top1465 #3 (gW16)": "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
}


def _times(puzzles: list, rounds: int) -> tuple[float, float, float]:
    """CPU seconds of B, of gB and of gB given B over the puzzles (each a (puzzle, solution) pair),
    `rounds` times."""
    spent = [0.0, 0.0, 0.0]
    b_of = [te.rate_braids(puzzle, solution=solution).value for puzzle, solution in puzzles]
    for _ in range(rounds):
        for k, (g, given) in enumerate(((False, False), (True, False), (True, True))):
            started = time.process_time()
            for (puzzle, solution), b in zip(puzzles, b_of):
                te.rate_braids(puzzle, g=g, solution=solution, upper=b if given else None)
            spent[k] += time.process_time() - started
    return spent[0], spent[1], spent[2]


def _alone(puzzle, solution, limit: float) -> list[tuple]:
    """B then gB of one puzzle, each alone with a time limit: (value or what is known, CPU seconds)."""
    cells = []
    for g in (False, True):
        started = time.process_time()
        rating = te.rate_braids(puzzle, g=g, solution=solution, time_limit=limit)
        told = f"{rating.status.value}: {rating.error}" if rating.error else rating.status.value
        cells.append((rating.value if rating.value is not None else told, time.process_time() - started))
    return cells


def _ratio(cells: list[tuple]) -> Optional[float]:
    return cells[1][1] / cells[0][1] if isinstance(cells[0][0], int) and cells[0][1] > 0 else None


def _whole_file(path: Path, limit: float, min_b: int) -> None:
    texts = [line[:81] for line in path.read_text().splitlines() if line.strip()]
    rows, statuses = [], Counter()
    for number, text in enumerate(texts, 1):
        try:
            puzzle = sudorules.parse_puzzle(text)
            solution = unique_solution(puzzle)
        except SudorulesError:  # not a puzzle with one solution: counted, not rated
            statuses[("not a puzzle",)] += 1
            continue
        cells = _alone(puzzle, solution, limit)
        statuses[tuple("solved" if isinstance(v, int) else v.split(":")[0] for v, _ in cells)] += 1
        rows.append((number, cells))
    print(f"{len(texts)} puzzles of {path.name}; (B, gB) statuses: {dict(statuses)}; "
          f"B {sum(c[0][1] for _, c in rows):.1f} CPU s, gB {sum(c[1][1] for _, c in rows):.1f} CPU s")
    hard = [(n, c) for n, c in rows if isinstance(c[0][0], int) and c[0][0] >= min_b]
    spread = Counter(next((f"<= {edge}x" for edge in (1.5, 2, 3) if _ratio(c) <= edge), "> 3x") for _, c in hard)
    print(f"{len(hard)} with B >= {min_b}: B {sum(c[0][1] for _, c in hard):.2f} CPU s, gB "
          f"{sum(c[1][1] for _, c in hard):.2f} CPU s; gB / B {dict(sorted(spread.items()))}")
    print("\n| line | B | B CPU s | gB | gB CPU s | gB / B |\n|---|---|---|---|---|---|")
    for number, cells in sorted(hard, key=lambda row: -_ratio(row[1])):
        if _ratio(cells) > 3:
            print(f"| {number} | {cells[0][0]} | {cells[0][1]:.3f} | {cells[1][0]} | {cells[1][1]:.3f} | "
                  f"{_ratio(cells):.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-level", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hard-limit", type=float, default=60.0, metavar="SECONDS",
                        help="time limit of each rating of the published W10+ puzzles (default 60)")
    parser.add_argument("--file", type=Path, help="rate every puzzle of this file instead (see above)")
    parser.add_argument("--min-b", type=int, default=10, help="with --file: the B from which a puzzle is listed")
    args = parser.parse_args()
    if args.file:
        _whole_file(args.file, args.hard_limit, args.min_b)
        return
    lines = [line.split()[0] for line in (CB001 / "puzzles.txt").read_text().splitlines()]
    levels = [int(line.split()[0]) for line in (CB001 / "gB-ratings.txt").read_text().splitlines()]
    by_level: dict[int, list] = defaultdict(list)
    for text, level in zip(lines, levels):
        if len(by_level[level]) < args.per_level:
            puzzle = sudorules.parse_puzzle(text)
            by_level[level].append((puzzle, unique_solution(puzzle)))
    print("| set | puzzles | B CPU s | gB CPU s | gB / B | gB given B / B |\n|---|---|---|---|---|---|")
    for level in sorted(by_level):
        b, gb, given = _times(by_level[level], args.rounds)
        print(f"| gB = {level} | {len(by_level[level])} | {b:.3f} | {gb:.3f} | {gb / b:.2f}x | {given / b:.2f}x |")
    hard = dict(HARD, **{f"cb-001 line {n}": lines[n - 1] for n in HARD_LINES})
    for name, text in hard.items():
        puzzle = sudorules.parse_puzzle(text)
        b, gb, given = _times([(puzzle, unique_solution(puzzle))], args.rounds)
        print(f"| {name} | 1 | {b:.3f} | {gb:.3f} | {gb / b:.2f}x | {given / b:.2f}x |")
    print("\n| published puzzle | B | B CPU s | gB | gB CPU s | gB / B |\n|---|---|---|---|---|---|")
    for name, text in PUBLISHED.items():
        puzzle = sudorules.parse_puzzle(text)
        cells = _alone(puzzle, unique_solution(puzzle), args.hard_limit)
        ratio = "-" if _ratio(cells) is None else f"{_ratio(cells):.1f}x"
        print(f"| {name} | {cells[0][0]} | {cells[0][1]:.3f} | {cells[1][0]} | {cells[1][1]:.3f} | {ratio} |")


if __name__ == "__main__":
    main()
