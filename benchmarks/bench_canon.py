"""Speed of the canonical (minlex) forms (issue 26) through the Python batch API.

    PYTHONPATH=. python benchmarks/bench_canon.py [--puzzles FILE ...] [--grids N] [--seed S]

Prints microseconds per item (CPU time of this process, best of --repeat runs, one batch call each,
single thread) beside the issue's targets and anchors.  Each workload is put through a random map and
digit renaming first (seeded): collections are often stored in some canonical orientation (cb-001's
puzzles come from minlex grids), which can make a search look faster or slower than on puzzles as
users meet them; ``as stored`` figures are printed too for files.

Workloads: (a) random complete grids (``core.random_grids``); (b) minimal puzzles of the top-down
generator (``sudorules.generate_puzzles``); (c) each ``--puzzles`` file (one puzzle per line, 81
characters first: Gordon Royle's 17-clue list, ``../shared/oracle/cb-001/puzzles.txt``...);
(d) for information, grids through the general search and pencilmark states.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

import sudorules
from sudorules import core
from sudorules.generation import Transform, canonical_batch

from bench_core import best_time, read_puzzles  # this script's folder is on sys.path

#: the issue's anchors: gsf's sub-canonical (~40 µs) and true minlex (~180 µs) forms of 17-clue
#: puzzles (49,158 in 1.95 s and 8.8 s on one core), an older canonicaliser's 40 µs a puzzle and 200 µs
#: a grid on a 2.26 GHz Pentium 4
TARGETS = {"grid": 2.0, "puzzle": 10.0}
ANCHORS = "gsf: ~40 µs sub-canonical, ~180 µs true minlex (17-clue puzzles); older: 40 µs/puzzle, 200 µs/grid (P4)"


def shuffled(items: np.ndarray, seed: int, marks: bool = False) -> np.ndarray:
    """Each item through its own random map and renaming."""
    rng = np.random.default_rng(seed)
    return np.stack([Transform.random(rng).apply_array(item, marks=marks) for item in items])


def report(label: str, items: np.ndarray, repeat: int, target: float | None = None, **options) -> None:
    seconds = best_time(lambda: canonical_batch(items, **options), repeat, clock=time.process_time)
    each = 1e6 * seconds / len(items)
    goal = f"   target <= {target:g} µs" if target else ""
    print(f"{label:<58} {len(items):>7}  {each:8.2f} µs{goal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=Path, nargs="*", default=[], help="puzzle files to time too")
    parser.add_argument("--grids", type=int, default=20000, help="random grids (a)")
    parser.add_argument("--generated", type=int, default=5000, help="top-down minimal puzzles (b)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}")
    print(f"anchors (issue 26): {ANCHORS}")
    print(f"{'workload':<58} {'items':>7}  {'per item':>11}")
    grids = core.random_grids(args.grids, args.seed)
    report("(a) random complete grids", grids, args.repeat, TARGETS["grid"])
    frame = sudorules.generate_puzzles("top-down", args.generated, seed=args.seed)
    generated = shuffled(core.as_array(frame["puzzle"]), args.seed)
    report(f"(b) top-down minimal puzzles (mean {frame['clues'].mean():.1f} clues), random maps",
           generated, args.repeat, TARGETS["puzzle"])
    for path in args.puzzles:
        puzzles = read_puzzles(path)
        clues = np.count_nonzero(puzzles, axis=1).mean()
        report(f"(c) {path.name} ({clues:.1f} clues), as stored", puzzles, args.repeat, TARGETS["puzzle"])
        report(f"(c) {path.name}, random maps", shuffled(puzzles, args.seed), args.repeat, TARGETS["puzzle"])
    few = grids[: max(1, args.grids // 50)]
    report("(d) random grids by the general search (mode='search')", few, 1, mode="search")
    masks = (1 << (grids[: len(few)].astype(np.uint16) - 1)).astype(np.uint16)
    rng = np.random.default_rng(args.seed)
    extra = (rng.integers(0, 512, masks.shape) & rng.integers(0, 512, masks.shape)).astype(np.uint16)
    states = np.where(rng.random(masks.shape) < 0.6, masks | extra, masks).astype(np.uint16)
    report("(d) pencilmark states (a grid plus random candidates)", states, 1, marks=True)


if __name__ == "__main__":
    main()
