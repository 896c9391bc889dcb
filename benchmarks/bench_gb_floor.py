"""What a gB rating cannot save: the proof that g-braids one cell shorter do not solve the puzzle.

Issue 23 asks for gB at most 3x B on every W10+ puzzle.  A gB rating of p ends with the closure of the
g-braids of length p - 1 stuck: every candidate left that is not in the solution was searched for a
g-braid of length p - 1 or less, in full, and had none.  This script measures that part alone: it
takes the state the closure of length p - 1 leaves (its fixpoint, the same whatever the order: SPEC
§5.2) and rates it again there with the same length limit, so that every pass it makes is a stuck one.
Its CPU seconds, the floor, are a lower bound on the gB rating's time with this search, whatever the
order of its eliminations, caches or targets.

With ``--bounds`` it also asks whether a stronger lean test could cut that proof down.  Finding the
shortest braid (g-braid) on a target Z is delete-free planning: the facts are "candidate c is linked to
Z or to an rlc" (eliminated), an rlc x through variable V needs every other present member of V
eliminated and eliminates the candidates linked to x (a g-rlc, those g-linked to its g-label), and the
goal is a variable with every member eliminated, the closing cell.  Every braid is a plan of that task
with one action per cell (the rules' further conditions only remove plans), so an admissible bound on
its plans bounds the braid's length from below.  The lean test's propagation depth is that task's h_max;
LM-cut (Helmert and Domshlak, ICAPS 2009), the strongest of the usual polynomial bounds, is computed
here beside it on every target at the fixpoint: the targets it would refuse at length p - 1 are the
ones a lean test that strong would spare.

    PYTHONPATH=. python benchmarks/bench_gb_floor.py --rounds 3 --bounds
    PYTHONPATH=. python benchmarks/bench_gb_floor.py --file top1465.txt --lines 182,274,224 --bounds

``--check`` only checks that the LM-cut computed here is a bound: never above the shortest braid
(g-braid) the engine's search finds on a target, on the fixpoints of lengths 3, 6 and 9.
"""

from __future__ import annotations

import argparse
import heapq
import time
from pathlib import Path

import sudorules
from sudorules import Puzzle, _trial
from sudorules.engine import te
from sudorules.engine.labels import G_LABELS, G_LINKS, LINKS, label_at, label_variables
from sudorules.engine.solver import unique_solution
from sudorules.errors import SudorulesError

from bench_gb_vs_b import HARD, PUBLISHED

INFINITE = 10 ** 9


def _cpu(call, rounds: int):
    """The least CPU seconds of `rounds` calls, and the last call's result."""
    best, result = float("inf"), None
    for _ in range(rounds):
        started = time.process_time()
        result = call()
        best = min(best, time.process_time() - started)
    return best, result


class Relaxation:
    """The delete-free planning task of the braids (g-braids with ``g``) on target ``z`` in a state
    (the module docstring).  Facts: 0 the initial state, 1 the goal, 2 + i candidate i eliminated."""

    def __init__(self, present: frozenset, decided: set, z: int, g: bool):
        labels = sorted(present)
        index = {x: 2 + i for i, x in enumerate(labels)}
        gone = LINKS[z] & present  # eliminated from the start: linked to Z
        closed = decided | set(label_variables(z))
        members: dict[int, list[int]] = {}
        for x in labels:
            for v in label_variables(x):
                if v not in closed:
                    members.setdefault(v, []).append(x)
        self.pre: list[list[int]] = []
        self.add: list[list[int]] = []

        def action(needs, gives):
            self.pre.append([index[y] for y in needs if y not in gone] or [0])
            self.add.append(gives)

        for v, ms in members.items():
            if len(ms) < 2:
                continue
            for x in ms:
                if x not in gone:
                    action([y for y in ms if y != x], [index[y] for y in LINKS[x] & present if y not in gone])
            if g and v >= 200:
                for s in range(1, 7 if v >= 400 else 4):
                    inside = set(G_LABELS[10 * v + s])
                    if len([y for y in ms if y in inside and y not in gone]) >= 2:
                        action([y for y in ms if y not in inside],
                               [index[y] for y in G_LINKS[10 * v + s] & present if y not in gone])
            action(ms, [1])  # the closing cell
        self.facts = 2 + len(labels)
        self.users = [[] for _ in range(self.facts)]  # the actions that need each fact
        for a, needs in enumerate(self.pre):
            for f in needs:
                self.users[f].append(a)
        self.producers = [[] for _ in range(self.facts)]  # the actions that add each fact
        for a, gives in enumerate(self.add):
            for e in gives:
                self.producers[e].append(a)

    def h_max(self, cost: list[int]) -> list[int]:
        """The cost of each fact: an action's is its costliest precondition's plus its own."""
        h = [INFINITE] * self.facts
        waiting = [len(needs) for needs in self.pre]
        h[0] = 0
        queue = [(0, 0)]
        while queue:
            d, f = heapq.heappop(queue)
            if d > h[f]:
                continue
            for a in self.users[f]:
                waiting[a] -= 1
                if waiting[a] == 0:
                    for e in self.add[a]:
                        if d + cost[a] < h[e]:
                            h[e] = d + cost[a]
                            heapq.heappush(queue, (h[e], e))
        return h

    def lm_cut(self) -> int:
        """LM-cut: repeatedly, the actions that cross from the initial state's side of the h_max
        justification graph into the goal's zero-cost zone form a landmark: one of them is in every
        plan.  Each landmark adds its cheapest cost to the bound, which its actions then pay."""
        cost = [1] * len(self.pre)
        bound = 0
        while True:
            h = self.h_max(cost)
            if h[1] >= INFINITE:
                return INFINITE
            if h[1] == 0:
                return bound
            supporter = [max(needs, key=h.__getitem__) for needs in self.pre]
            zone, stack = {1}, [1]
            while stack:
                for a in self.producers[stack.pop()]:
                    if cost[a] == 0 and supporter[a] not in zone:
                        zone.add(supporter[a])
                        stack.append(supporter[a])
            by_supporter: dict[int, list[int]] = {}
            for a, f in enumerate(supporter):
                if h[f] < INFINITE:
                    by_supporter.setdefault(f, []).append(a)
            reached, stack, cut = {0}, [0], []
            while stack:
                for a in by_supporter.get(stack.pop(), ()):
                    if any(e in zone for e in self.add[a]):
                        cut.append(a)
                    for e in self.add[a]:
                        if e not in zone and e not in reached:
                            reached.add(e)
                            stack.append(e)
            least = min(cost[a] for a in cut)
            bound += least
            for a in set(cut):
                cost[a] -= least


def _fixpoint(masks, solution) -> tuple[frozenset, set, list[int]]:
    """The present candidates (as labels), the decided variables and the targets (the candidates
    not in the solution) of a state given by its masks."""
    present, decided = set(), set()
    for cell, mask in enumerate(masks):
        digits = [n for n in range(1, 10) if mask >> (n - 1) & 1]
        if len(digits) == 1:
            decided.update(label_variables(label_at(digits[0], cell)))
        else:
            present.update(label_at(n, cell) for n in digits)
    truth = {label_at(n, cell) for cell, n in enumerate(solution)}
    return frozenset(present), decided, sorted(present - truth)


def _bounds(masks, solution, g: bool, length: int) -> str:
    present, decided, targets = _fixpoint(masks, solution)
    kept = refused = gain = 0
    for z in targets:
        task = Relaxation(present, decided, z, g)
        depth = task.h_max([1] * len(task.pre))[1]
        if depth > length:
            continue
        kept += 1
        cut = task.lm_cut()
        refused += cut > length
        gain += cut - depth
    mean = f"{gain / kept:.2f}" if kept else "-"
    return f"{len(targets)} | {kept} | {refused} | {mean}"


def _check(puzzles: dict, lengths=(3, 6, 9), longest: int = 18) -> None:
    """LM-cut must never exceed the length of the shortest braid (g-braid) the engine finds on a
    target: on the fixpoints of the closures of `lengths` that leave the puzzle unsolved, each target
    with a braid (g-braid) of at most `longest` cells is compared (the search of _trial.State.braid
    is the engine's filter, permissive where the rules are strict: its shortest is never longer)."""
    checked = equal = 0
    for text in puzzles.values():
        puzzle = sudorules.parse_puzzle(text)
        solution = unique_solution(puzzle)
        for length in lengths:
            for g in (False, True):
                answer = te._run(puzzle, "B", g=g, length_limit=length, solution=solution, state=True)
                if answer["value"] >= 0:
                    continue
                present, decided, targets = _fixpoint(answer["masks"], solution)
                state = _trial.State(sorted(present))
                for z in targets:
                    bound = Relaxation(present, decided, z, g).lm_cut()
                    shortest = next((n for n in range(1, longest + 1)
                                     if state.braid(z, g, n, 10 ** 6) == 1), None)
                    if shortest is None:
                        continue
                    assert bound <= shortest, f"LM-cut {bound} > a braid of {shortest} on {z} ({text}, g={g})"
                    checked += 1
                    equal += bound == shortest
    print(f"LM-cut <= the shortest braid on all {checked} targets compared; equal on {equal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="each time the least of so many runs")
    parser.add_argument("--file", type=Path, help="puzzles of this file (the first 81 characters of a line)")
    parser.add_argument("--lines", help="with --file: only these lines (1-based, comma-separated)")
    parser.add_argument("--bounds", action="store_true", help="also h_max against LM-cut at the fixpoint")
    parser.add_argument("--check", action="store_true",
                        help="only check LM-cut against the engine's shortest braids (see above)")
    args = parser.parse_args()
    if args.file:
        texts = args.file.read_text().splitlines()
        wanted = [int(n) for n in args.lines.split(",")] if args.lines else range(1, len(texts) + 1)
        puzzles = {f"{args.file.name} #{n}": texts[n - 1][:81] for n in wanted}
    else:
        puzzles = dict(HARD, **{name: text for name, text in PUBLISHED.items() if "no B" not in name
                                and "gW16" not in name})
    if args.check:
        _check(puzzles)
        return
    head = "| puzzle | B | B CPU s | gB | gB CPU s | gB / B | floor CPU s | floor / B |"
    if args.bounds:
        head += " targets | kept by h_max | refused by LM-cut | LM-cut - h_max |"
    print(head + "\n|" + "---|" * (head.count("|") - 1))
    for name, text in puzzles.items():
        try:
            puzzle = sudorules.parse_puzzle(text)
            solution = unique_solution(puzzle)
        except SudorulesError as error:  # told in its row, not rated
            print(f"| {name} | {error} |")
            continue
        b_time, b = _cpu(lambda: te.rate_braids(puzzle, solution=solution), args.rounds)
        gb_time, gb = _cpu(lambda: te.rate_braids(puzzle, g=True, solution=solution), args.rounds)
        if b.value is None or gb.value is None or gb.value < 2:
            print(f"| {name} | {b.value} | {b_time:.3f} | {gb.value} | {gb_time:.3f} | - | - | - |")
            continue
        length = gb.value - 1
        # te._run is the engine's own call: rate_braids does not hand out the state it leaves
        masks = te._run(puzzle, "B", g=True, length_limit=length, solution=solution, state=True)["masks"]
        stuck = Puzzle.from_marks(masks)
        floor, answer = _cpu(lambda: te._run(stuck, "B", g=True, length_limit=length, solution=solution),
                             args.rounds)
        assert answer["value"] < 0, "the closure of length gB - 1 solved the puzzle"
        row = (f"| {name} | {b.value} | {b_time:.3f} | {gb.value} | {gb_time:.3f} | "
               f"{gb_time / b_time:.1f}x | {floor:.3f} | {floor / b_time:.1f}x |")
        if args.bounds:
            row += " " + _bounds(masks, solution, True, length) + " |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
