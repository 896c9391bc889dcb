"""Trial propagation per target: Python (sudorules.engine.trial) against C (sudorules._trial).

The states are real ones: the first ``--puzzles`` puzzles of ../shared/oracle/cb-001/puzzles.txt
after BRT (``Engine("BRT").solve(p).candidates``; puzzles that BRT solves are skipped), every remaining
candidate a target, as the engine asks after a chain step.  For g False / True and limit 3 / 36 it
prints the microseconds per target of each (one call per state, building the state included), their
ratio, the share of targets with a depth within the limit, and checks that both give the same
depths.  Python is ``TrialState.contradiction_depth`` (stopped at the limit when it takes one; the
state built once per call, as the C does); C is ``_trial.depths``, best of ``--repeat`` runs.

Then ``_trial.State(labels).depth(assumed, g, limit)`` on the same states, the State built once per
state: up to ``--sets`` sets per state of 3, 6 and 9 assumptions, each a random target and the rlcs of a
random partial braid on it (with g: a partial g-braid, whose rlcs may be g-labels; see
partial_braids), microseconds per call including Python's call overhead (a Python loop of
``depth(s, g, limit)`` over the sets, best of ``--repeat``), the share of calls with a depth within the
limit and of those with depth 1, the share of g-labels among the rlcs; and, when trial.py's TrialState
has a ``depth`` method, its time per call (stopped at the limit) and a check that both give the same
depths.

    PYTHONPATH=. python benchmarks/bench_trial.py --puzzles 200
"""

from __future__ import annotations

import argparse
import inspect
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudorules import _trial  # noqa: E402
from sudorules.engine import Engine, trial  # noqa: E402
from sudorules.engine.labels import G_LABELS, G_LINKS, LINKS, glabel_variable, label_at, label_variables  # noqa: E402

G_OF_VARIABLE: dict[int, list[int]] = {}
for _gl in G_LABELS:
    G_OF_VARIABLE.setdefault(glabel_variable(_gl), []).append(_gl)

PUZZLES = ROOT.parent / "shared" / "oracle" / "cb-001" / "puzzles.txt"


def states(count: int) -> list[list[int]]:
    engine = Engine("BRT")
    out = []
    with open(PUZZLES) as lines:
        for line in lines:
            if len(out) >= count:
                break
            if not line.strip():
                continue
            candidates = engine.solve(line.split()[0]).candidates
            labels = [label_at(d, cell) for cell, ds in candidates.items() for d in ds]
            if labels:
                out.append(labels)
    return out


def python_depths(labels: list[int], g: bool, limit: int) -> list[int]:
    """The pure Python propagation (trial.depths itself now calls the C), stopped at the limit when
    contradiction_depth takes one, as the C is."""
    state = trial.TrialState(labels, LINKS)
    if "limit" in inspect.signature(state.contradiction_depth).parameters:
        return [state.contradiction_depth(z, g, limit) or 0 for z in labels]
    return [d if (d := state.contradiction_depth(z, g)) is not None and d <= limit else 0 for z in labels]


def partial_braids(labels: list[int], size: int, count: int, g: bool, rng: random.Random) -> list[list[int]]:
    """``count`` sets of ``size``: a target Z and the rlcs of a random partial braid (with ``g``, g-braid)
    on it.  Each step picks a variable without an assumed label whose candidates compatible with Z and the
    rlcs so far (present, not linked to any of them) are exactly one label, the rlc (or, with ``g``, two or
    three lying in one of its g-labels, the g-rlc, that g-label), uniformly among the variables so; the
    set is dropped when there is none before ``size`` (or a variable is emptied: a braid)."""
    present = set(labels)
    members: dict[int, list[int]] = {}
    for lab in labels:
        for v in label_variables(lab):
            members.setdefault(v, []).append(lab)
    out: list[list[int]] = []
    for _ in range(50 * count):
        if len(out) == count:
            break
        z = rng.choice(labels)
        chosen, removed = [z], set(LINKS[z]) & present
        decided = set(label_variables(z))
        while len(chosen) < size:
            options = []
            for v, ls in members.items():
                if v in decided:
                    continue
                left = [x for x in ls if x not in removed]
                if len(left) == 1:
                    options.append((v, left[0]))
                elif g and 2 <= len(left) <= 3 and v in G_OF_VARIABLE:
                    options += [(v, gl) for gl in G_OF_VARIABLE[v] if set(left) <= set(G_LABELS[gl])]
                elif not left:
                    options = []
                    break
            if not options:
                break
            v, r = rng.choice(options)
            chosen.append(r)
            decided.add(v)
            if r in G_LABELS:
                removed |= G_LINKS[r] & present
            else:
                removed |= LINKS[r] & present
                decided.update(label_variables(r))
        if len(chosen) == size:
            out.append(chosen)
    return out


def bench_state(sample: list[list[int]], sets_per_state: int, repeat: int) -> None:
    rng = random.Random(1)
    python_state = hasattr(trial.TrialState, "depth")
    print(f"\nState.depth: target + partial (g-)braid rlcs, up to {sets_per_state} sets a state, us per call "
          "(Python call included)" + ("" if python_state else "; trial.py has no TrialState.depth to compare"))
    print(f"{'size':>4} {'g':>5} {'limit':>5} {'sets':>6} {'g-rlcs':>6} {'Python us':>10} {'C us':>7} {'ratio':>6} "
          f"{'depth>0':>8} {'depth 1':>8}")
    c_states = [_trial.State(s) for s in sample]
    py_states = [trial.TrialState(s, LINKS) for s in sample] if python_state else []
    for size in (3, 6, 9):
        for g in (False, True):
            sets = [partial_braids(s, size, sets_per_state, g, rng) for s in sample]
            calls = sum(len(ss) for ss in sets)
            g_share = sum(x in G_LABELS for ss in sets for s in ss for x in s) / max(1, calls * (size - 1))
            for limit in (3, 36):
                best = float("inf")
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    for st, ss in zip(c_states, sets):
                        depth = st.depth
                        for s in ss:
                            depth(s, g, limit)
                    best = min(best, time.perf_counter() - t0)
                got = [[st.depth(s, g, limit) for s in ss] for st, ss in zip(c_states, sets)]
                python = ratio = ""
                if python_state:
                    t0 = time.perf_counter()
                    want = [[pst.depth(s, g, limit) or 0 for s in ss] for pst, ss in zip(py_states, sets)]
                    elapsed = time.perf_counter() - t0
                    if got != want:
                        sys.exit(f"State.depth and TrialState.depth differ (size={size}, g={g}, limit={limit})")
                    python, ratio = f"{1e6 * elapsed / calls:.1f}", f"{elapsed / best:.0f}x"
                flat = [d for ds in got for d in ds]
                print(f"{size:>4} {str(g):>5} {limit:>5} {calls:>6} {g_share:>6.0%} {python:>10} "
                      f"{1e6 * best / calls:>7.2f} {ratio:>6} {sum(d > 0 for d in flat) / calls:>7.1%} "
                      f"{sum(d == 1 for d in flat) / calls:>7.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=200, help="states (puzzles not solved by BRT)")
    parser.add_argument("--repeat", type=int, default=5, help="C runs, the best one kept")
    parser.add_argument("--sets", type=int, default=20, help="State.depth: assumption sets per state and size")
    args = parser.parse_args()
    if not PUZZLES.is_file():
        sys.exit(f"{PUZZLES} is not present")

    start = time.perf_counter()
    sample = states(args.puzzles)
    targets = sum(len(s) for s in sample)
    print(f"{len(sample)} states after BRT, {targets} targets ({targets / len(sample):.0f} a state), "
          f"made in {time.perf_counter() - start:.1f} s")
    print(f"{'g':>5} {'limit':>5} {'Python us':>10} {'C us':>7} {'ratio':>6} {'depth>0':>8}")
    for g in (False, True):
        for limit in (3, 36):
            t0 = time.perf_counter()
            want = [python_depths(s, g, limit) for s in sample]
            python = time.perf_counter() - t0
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                got = [_trial.depths(s, s, g, limit) for s in sample]
                best = min(best, time.perf_counter() - t0)
            if got != want:
                sys.exit(f"C and Python differ (g={g}, limit={limit})")
            hits = sum(d > 0 for ds in got for d in ds) / targets
            print(f"{str(g):>5} {limit:>5} {1e6 * python / targets:>10.1f} {1e6 * best / targets:>7.2f} "
                  f"{python / best:>5.0f}x {hits:>7.1%}")
    bench_state(sample, args.sets, args.repeat)


if __name__ == "__main__":
    main()
