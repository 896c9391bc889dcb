"""Write collections/demo.txt: minimal puzzles from a seeded top-down reduction of random grids.

For puzzle i, take ``core.random_grid(seed + i)``, visit the 81 cells in an order shuffled by
``random.Random(seed + i)`` and remove each given whose removal keeps the solution unique.  A given
kept at its visit stays necessary in the final puzzle (a subset of a puzzle with several solutions
has several solutions), so every result is minimal; the script checks it anyway.  This is NOT the
controlled-bias generator (top-down reduction favours some puzzles): the file is a demo input.

    python benchmarks/make_demo_collection.py --count 100 --seed 2026 -o collections/demo.txt
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path

from sudorules import Puzzle, core


def reduced_puzzle(seed: int) -> Puzzle:
    """A minimal puzzle from grid ``random_grid(seed)`` by top-down removal in a seeded order."""
    cells = core.random_grid(seed).to_list()
    order = list(range(81))
    random.Random(seed).shuffle(order)
    for cell in order:
        digit, cells[cell] = cells[cell], 0
        if core.count_solutions(cells) != 1:
            cells[cell] = digit
    return Puzzle(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("-o", "--output", type=Path, default=Path("collections/demo.txt"))
    args = parser.parse_args()
    puzzles = [reduced_puzzle(args.seed + i) for i in range(args.count)]
    assert core.is_minimal_batch(puzzles).all()
    temporary = args.output.with_suffix(".tmp")
    temporary.write_text("".join(f"{p}\n" for p in puzzles))
    os.replace(temporary, args.output)
    print(f"wrote {len(puzzles)} minimal puzzles to {args.output}")


if __name__ == "__main__":
    main()
