"""CPU seconds of the searched chain families (bivalue-chains, z-chains, t-whips, typed whips,
g-bivalue-chains: engine/seek.py) on one resolution state, length by length.

The state is the one a theory's path reaches on a puzzle within a time limit (by default the W6 puzzle
of cb-001 whose gBC path stalled, tests/test_watchdog.py's GBC_STALL, under gBC for 3 s: the path
ends there, not solved).  Every family is asked for a chain of each length, as the seek rules ask
(`find_chain`: the targets whose trial propagation contradicts in time, soonest first), and the script
prints per family the seconds of each length and their sum, a star where a chain was found.

    PYTHONPATH=. python benchmarks/bench_chains.py
    PYTHONPATH=. python benchmarks/bench_chains.py --puzzle PUZZLE --theory tW --time-limit 5 --lengths 2-20

Before the distance bound of bivalue-chains and g-bivalue-chains (trial.c, chain_distances;
docs/engine.md), the g-bivalue-chain searches of lengths 2-20 on the default state took 114 s.
"""

from __future__ import annotations

import argparse
import time

import sudorules
from sudorules.engine.labels import label_at
from sudorules.engine.seek import find_chain
from sudorules.engine.solver import unique_solution
from sudorules.engine.trial import State
from sudorules.resolution import families

GBC_STALL = "..34...8....7.9.23..9.2.4...15.7.9.........4..6....5...9.......6..8....28.25..6.1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzle", default=GBC_STALL)
    parser.add_argument("--theory", default="gBC", help="the theory whose path gives the state")
    parser.add_argument("--time-limit", type=float, default=3.0, help="seconds of that path")
    parser.add_argument("--lengths", default="2-20", help="the chain lengths asked, FIRST-LAST")
    args = parser.parse_args()
    first, last = (int(x) for x in args.lengths.split("-"))

    resolution = sudorules.solve(args.puzzle, theory=args.theory, time_limit=args.time_limit)
    labels = {label_at(d, cell) for cell, digits in resolution.candidates.items() for d in digits}
    labels |= {label_at(v, cell) for cell, v in enumerate(resolution.values) if v}
    never = {label_at(int(v), cell) for cell, v in enumerate(unique_solution(args.puzzle))}
    state = State(labels)
    print(f"state: {args.theory} path, {resolution.status}, {len(labels)} labels "
          f"({sum(len(d) for d in resolution.candidates.values())} candidates)")
    searched = [f for f in vars(families).values() if isinstance(f, families.Family) and getattr(f, "search", None)]
    for family in searched:
        cells, total = [], 0.0
        for length in range(first, last + 1):
            started = time.process_time()
            found = find_chain(state, labels, never, family.search, length)
            seconds = time.process_time() - started
            total += seconds
            cells.append(f"{length}:{seconds:.3f}{'*' if found else ''}")
        print(f"{family.name:16} {total:8.3f} s  " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
