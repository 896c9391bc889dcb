"""Where does the W theory's time go?  A per-level profile of a few published cb-001 puzzles.

    python benchmarks/profile_w.py                  # W3, W4, W6 puzzles (cb-001 lines 3 5 2 6 27 40)
    python benchmarks/profile_w.py --lines 2 6      # chosen lines of puzzles.txt / W-ratings.txt

Three passes per puzzle, each after a warm-up puzzle (so rule loading is excluded unless said):

1. timing: CPU (``time.process_time``) of the solve and of each level, from the level switch to the
   next switch (rule loading for the level, the driver's hand-over, the CLIPS run to quiescence);
2. cProfile of the same solve (another engine, warmed up the same way): own time of ``env.run``
   (CLIPS matching and RHS, Python callbacks excluded) against the callbacks of bridge.py and the
   driver's Python work (neighbour hand-over, current_labels, csp-link count);
3. a fresh engine with CLIPS construct profiling (``(profile constructs)``): firings of every rule
   per level, and at each level's quiescence the partial-whip facts present (pwK counts, read as
   ``length$`` of a CLIPS query so no clipspy Fact object is made) and the facts asserted in the
   level (the fact-index delta).  CLIPS' profile times are wall-clock and include the join work of
   the facts a right-hand side asserts / retracts; they are given as shares only.

Nothing under sudorules/ or rules/ is changed: the script wraps methods of its own engines.
"""

from __future__ import annotations

import argparse
import cProfile
import collections
import pstats
import re
import sys
import time
from pathlib import Path

import clips

from sudorules.engine import Engine
from sudorules.engine.solver import unique_solution

ORACLE = Path(__file__).resolve().parents[2] / "shared" / "oracle" / "cb-001"
DEFAULT_LINES = [3, 5, 2, 6, 27, 40]      # W3 W3 W4 W4 W6 W6
WARMUP_LINE = 299                         # a W6 puzzle: loads the rules of levels 1..6


def read_line(name: str, k: int) -> str:
    with open(ORACLE / name, encoding="utf-8") as handle:
        for i, line in enumerate(handle, 1):
            if i == k:
                return line.split()[0]
    raise IndexError(k)


class Capture(clips.Router):
    """Captures CLIPS' standard output (profile-info) while ``on``."""

    def __init__(self):
        super().__init__("profile-w-capture", 60)
        self.on = False
        self.buf: list[str] = []

    def query(self, name: str) -> bool:
        return self.on and name in ("stdout", "wdisplay")

    def write(self, name: str, message: str) -> None:
        self.buf.append(message)


def warm(engine: Engine) -> None:
    text = read_line("puzzles.txt", WARMUP_LINE)
    engine.solve(text, solution=unique_solution(text))


# ---------------------------------------------------------------- pass 1: CPU per level
def timed(engine: Engine, text: str, solution, repeat: int = 5):
    """The fastest of ``repeat`` solves (total CPU), with its CPU per level."""
    best = None
    for _ in range(repeat):
        marks = []  # (level, cpu at switch)
        engine.level_hook = lambda level: marks.append((level, time.process_time()))
        t0 = time.process_time()
        res = engine.solve(text, solution=solution)
        t1 = time.process_time()
        engine.level_hook = None
        per_level = {}
        starts = [(0, t0)] + marks
        for i, (level, t) in enumerate(starts):
            end = starts[i + 1][1] if i + 1 < len(starts) else t1
            per_level[level] = end - t
        if best is None or t1 - t0 < best[1]:
            best = (res, t1 - t0, per_level)
    return best


# ---------------------------------------------------------------- pass 2: cProfile
def profiled(engine: Engine, text: str, solution):
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    engine.solve(text, solution=solution)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt
    groups = collections.Counter()
    for (file, _line, func), (_cc, _nc, tt, ct, _callers) in stats.stats.items():
        if "_clips.Run" in func:
            groups["CLIPS run (own)"] += tt
        elif "_clips.FCBCall" in func or "_clips.Eval" in func:
            groups["CLIPS functions called by the driver (sr-activate, sr-neighbours, sr-init, sr-labels; own)"] += tt
        elif func == "python_function" and "clips" in file:
            groups["Python callbacks (sr-chain, sr-single...; cum)"] += ct
    groups["other Python (driver, clipspy conversions, step decoding)"] = total - sum(groups.values())
    return total, groups


# ---------------------------------------------------------------- pass 3: CLIPS counts
_ROW = re.compile(r"^(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+)\s+([\d.]+)%")


def clips_counts(engine: Engine, cap: Capture, text: str, solution):
    env = engine.env
    probe = [0]

    def fact_index() -> int:
        probe[0] += 1
        index = int(env.eval(f"(fact-index (assert (profile-w-probe {probe[0]})))"))
        env.eval(f"(retract {index})")
        return index

    def pw_counts() -> dict[int, int]:
        out = {}
        for k in range(1, engine.max_length):
            try:
                out[k] = int(env.eval(f"(length$ (find-all-facts ((?f pw{k})) TRUE))"))
            except clips.CLIPSError:
                break
        return out

    def profile_rows() -> dict[str, tuple[int, float]]:
        cap.buf.clear()
        cap.on = True
        env.eval("(profile-info)")
        cap.on = False
        rows = {}
        for line in "".join(cap.buf).splitlines():
            m = _ROW.match(line)
            if m:
                rows[m.group(1)] = (int(m.group(2)), float(m.group(6)))
        return rows

    levels = []  # dicts per level
    state = {"level": 0, "index": None}

    def close_level():
        idx = fact_index()
        levels.append({"level": state["level"], "rules": profile_rows(), "pw": pw_counts(),
                       "asserted": idx - state["index"] if state["index"] is not None else None})
        env.eval("(profile-reset)")
        env.eval("(profile constructs)")  # profile-info prints nothing after a reset otherwise
        state["index"] = idx

    def hook(level):
        close_level()
        state["level"] = level

    env.eval("(profile constructs)")
    env.eval("(profile-reset)")
    state["index"] = fact_index()
    engine.level_hook = hook
    res = engine.solve(text, solution=solution)
    engine.level_hook = None
    close_level()
    env.eval("(profile off)")
    return res, levels


def family(rule: str) -> str:
    m = re.match(r"(partial-whip|whip)-(\d+)", rule)
    if m:
        return rule
    return re.sub(r"-\d+$", "", rule)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, nargs="*", default=DEFAULT_LINES)
    args = ap.parse_args(argv)

    cap = Capture()
    t = time.process_time()
    timing_engine = Engine("W")
    loads = []
    orig_load = timing_engine._load
    timing_engine._load = lambda text: (lambda s: (orig_load(text), loads.append(time.process_time() - s)))(time.process_time())
    base_cpu = time.process_time() - t
    warm(timing_engine)
    print(f"rule loading: base {base_cpu:.2f} s CPU (engine + base rules), "
          f"levels 2..6 {sum(loads[1:]):.2f} s ({', '.join(f'{x:.2f}' for x in loads[1:])})")
    timing_engine._load = orig_load
    prof_engine = Engine("W")
    warm(prof_engine)

    for k in args.lines:
        text = read_line("puzzles.txt", k)
        rating = read_line("W-ratings.txt", k)
        solution = unique_solution(text)
        res, total, per_level = timed(timing_engine, text, solution)
        ptotal, groups = profiled(prof_engine, text, solution)
        count_engine = Engine("W")
        count_engine.env.add_router(cap)
        warm(count_engine)
        res3, levels = clips_counts(count_engine, cap, text, solution)
        assert res3.rating == res.rating
        count_engine.close()

        lengths = collections.Counter(s.level for s in res.steps if s.rule.startswith("whip"))
        print(f"\n== cb-001 line {k}: published W{rating}, ours {res.rating}, {res.status.value}; "
              f"CPU {total:.3f} s (best of 5; the cProfile run: {ptotal:.3f} s)")
        print("   cProfile (process time): " + "; ".join(
            f"{name} {100 * v / ptotal:.0f}%" for name, v in sorted(groups.items(), key=lambda x: -x[1])))
        print(f"   {'level':>5} {'CPU s':>7} {'facts asserted':>14}  {'pw facts at quiescence':<28} "
              f"{'partial-whip fired':<26} {'whip firings':>12}  top rules by CLIPS profile share")
        for lv in levels:
            n = lv["level"]
            rules = lv["rules"]
            pw = " ".join(f"pw{k2}:{c}" for k2, c in lv["pw"].items() if c) or "-"
            pwf = " ".join(f"{r[len('partial-whip-'):]}:{e}" for r, (e, _) in sorted(rules.items())
                           if r.startswith("partial-whip-") and e) or "-"
            wf = sum(e for r, (e, _) in rules.items() if r.startswith("whip") and not r.startswith("whip2-") and e)
            fams = collections.Counter()
            for r, (e, share) in rules.items():
                fams[family(r)] += share
            top = ", ".join(f"{r} {s:.0f}%" for r, s in fams.most_common(3) if s >= 1)
            print(f"   {n:>5} {per_level.get(n, 0):>7.3f} {lv['asserted']:>14}  {pw:<28} {pwf:<26} "
                  f"{wf:>12}  {top}")
        print("   whip steps by length: " + " ".join(f"W{n}:{c}" for n, c in sorted(lengths.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
