"""``--theory default`` (or ``W``) beside SudoRules' same configuration, on the same cb-001 puzzles, side by side.

For each published W level, draws ``--per-level`` puzzles of ../shared/oracle/cb-001 (``--seed``) and
solves each with our ``--theory`` in this process pinned to one core, while SudoRules 20.1 solves it
in one persistent CLIPS process pinned to the other core, configured alike:

- ``--theory default`` (the default): Subsets, finned fish, bivalue-chains, z-chains, t-whips, whips,
  label W+SFin; SudoRules: its stock configuration file, only the installation path set.
- ``--theory W``: Singles + whips, label W; SudoRules: the stock file with Subsets, FinnedFish,
  Bivalue-Chains, z-Chains and t-Whips commented out (whips kept), the W configuration of
  ../shared/oracle/cb-001-sudorules.

Prints, per puzzle, both ratings (rating type and MOST COMPLEX RULE TRIED) and CPU seconds (ours:
``process_time`` around the core's uniqueness check and the solve; SudoRules: user + system CPU of the
CLIPS process across its ``(solve ...)``, from /proc), then per level the medians.

    PYTHONPATH=. python benchmarks/bench_default.py --per-level 10 --levels 0-6 \\
        --csp-rules /tmp/srun/CSP-Rules-V2.1 --clips /tmp/clips/clips
    PYTHONPATH=. python benchmarks/bench_default.py --theory W --per-level 8 --levels 7-9 \\
        --csp-rules /tmp/srun/CSP-Rules-V2.1 --clips /tmp/clips/clips

``--csp-rules``: a checkout of denis-berthier/CSP-Rules-V2.1 (``fetch`` it, extract it); ``--clips``: the
CLIPS 6.4.3 binary built from its ``CLIPS/core-64`` sources (``make`` in a copy of that folder, in
/tmp; never committed).  The configuration file is copied to a temporary folder with its installation
path set (and, for ``W``, the rules switched off); nothing of SudoRules is written into the project.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudorules.engine.solver import Solver, unique_solution
from sudorules.resolution.path import most_complex_rule, rating_type

ORACLE = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"
_RESULT = re.compile(r"PUZZLE \S+ (IS SOLVED|IS NOT SOLVED|HAS NO SOLUTION)"
                     r"(?:\. rating-type = ([^,]+), MOST COMPLEX RULE TRIED = (\S+))?")
SENTINEL = "@@sudorules-bench-done@@"
# The rule families to comment out of SudoRules' stock configuration for each of our theories: the
# stock file is SudoRules' default (= ours); W keeps only whips (Singles and whips[1] are always on),
# as ../shared/oracle/cb-001-sudorules was run.
SWITCHED_OFF = {"default": (), "W": ("Subsets", "FinnedFish", "Bivalue-Chains", "z-Chains", "t-Whips")}


class SudoRules:
    """One CLIPS process with SudoRules' configuration for ``theory`` loaded, pinned to ``cpu``."""

    def __init__(self, csp_rules: Path, clips: Path, cpu: int, theory: str = "default"):
        config = (csp_rules / "SudoRules-V20.1-config.clp").read_text(encoding="utf-8", errors="replace")
        config = re.sub(r'\(defglobal \?\*CSP-Rules\* = "[^"]*"\)',
                        f'(defglobal ?*CSP-Rules* = "{csp_rules.absolute().parent}/")', config, count=1)
        for family in SWITCHED_OFF[theory]:
            # only the active line of the standard config (leading space, nothing after); the file's
            # other mentions are already comments.  Exactly one, else another file would keep the rule on
            config, found = re.subn(rf"^ \(bind \?\*{re.escape(family)}\* TRUE\)$", r";\g<0>", config,
                                    flags=re.MULTILINE)
            if found != 1:
                raise ValueError(f"{found} active lines (bind ?*{family}* TRUE) in the configuration, expected 1")
        self.folder = tempfile.TemporaryDirectory(prefix="sudorules-config-")
        path = Path(self.folder.name) / "config.clp"
        path.write_text(config, encoding="utf-8")
        self.process = subprocess.Popen(["taskset", "-c", str(cpu), "stdbuf", "-oL", str(clips)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        encoding="utf-8", errors="replace", bufsize=1)
        self._send(f'(batch "{path}")')
        self._read()

    def _send(self, command: str) -> None:
        self.process.stdin.write(f'{command}\n(printout t "{SENTINEL}" crlf)\n')
        self.process.stdin.flush()

    def _read(self) -> list[str]:
        lines = []
        for line in self.process.stdout:
            if SENTINEL in line and "printout" not in line:
                return lines
            lines.append(line)
        raise RuntimeError("CLIPS ended: " + "".join(lines[-20:]))

    def cpu(self) -> float:
        """User + system CPU seconds of the CLIPS process so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def start(self, puzzle: str) -> float:
        """Send one puzzle; returns the CPU used so far (the start of its count)."""
        before = self.cpu()
        self._send(f'(solve "{puzzle}")')
        return before

    def finish(self, before: float) -> tuple[str, float]:
        """Read the answer to the puzzle sent: (``rating-type, MOST COMPLEX`` or the outcome, CPU seconds)."""
        lines = self._read()
        seconds = self.cpu() - before
        for line in lines:
            found = _RESULT.search(line)
            if found:
                return (f"{found.group(2)}, {found.group(3)}" if found.group(2) else found.group(1)), seconds
        return "no result line", seconds

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self.folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theory", choices=sorted(SWITCHED_OFF), default="default",
                        help="our theory, and SudoRules configured alike (default: default)")
    parser.add_argument("--per-level", type=int, default=10)
    parser.add_argument("--levels", default="0-6", help="published W levels, e.g. 0-6")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--csp-rules", type=Path, required=True, help="the CSP-Rules-V2.1 folder")
    parser.add_argument("--clips", type=Path, required=True, help="the CLIPS 6.4.3 binary")
    parser.add_argument("--our-cpu", type=int, default=0)
    parser.add_argument("--sudorules-cpu", type=int, default=1)
    args = parser.parse_args()
    os.sched_setaffinity(0, {args.our_cpu})
    low, high = (int(x) for x in args.levels.split("-"))
    lines = [line.split()[0] for line in (ORACLE / "puzzles.txt").read_text().splitlines() if line.strip()]
    published = [int(v) for v in (ORACLE / "W-ratings.txt").read_text().split()]
    rng = random.Random(args.seed)
    solver = Solver()
    solver.engine(args.theory)  # rules loaded before timing (SudoRules loads its own at start too)
    sudorules = SudoRules(args.csp_rules, args.clips, args.sudorules_cpu, args.theory)
    print(f"cb-001, theory {args.theory}, {args.per_level} puzzles per published W level {low}-{high}, seed "
          f"{args.seed}; ours on CPU {args.our_cpu}, SudoRules on CPU {args.sudorules_cpu}; CPU seconds", flush=True)
    print("line   W  ours (rating type, MOST COMPLEX)  SudoRules                  ours s   SudoRules s", flush=True)
    per_level: dict[int, list[tuple[float, float]]] = {}
    equal = total = 0
    try:
        for level in range(low, high + 1):
            rows = [i for i, w in enumerate(published) if w == level]
            for i in sorted(rng.sample(rows, min(args.per_level, len(rows)))):
                before = sudorules.start(lines[i])
                start = time.process_time()
                resolution = solver.solve(lines[i], args.theory, solution=unique_solution(lines[i]))
                ours_seconds = time.process_time() - start
                ours = (f"{rating_type(resolution.theory)}, {most_complex_rule(resolution)}" if resolution.solved
                        else str(resolution.status))
                theirs, their_seconds = sudorules.finish(before)
                total += 1
                equal += ours == theirs
                per_level.setdefault(level, []).append((ours_seconds, their_seconds))
                print(f"{i + 1:<6} {level:<2} {ours:<32} {theirs:<26} {ours_seconds:<8.3f} {their_seconds:.3f}"
                      + ("" if ours == theirs else "   <- differs"), flush=True)
    finally:
        sudorules.close()
    print(f"\n{equal} of {total} equal (rating type and MOST COMPLEX RULE TRIED)")
    print("W  n   ours median s   SudoRules median s   SudoRules / ours")
    for level, pairs in sorted(per_level.items()):
        ours_median = statistics.median(p[0] for p in pairs)
        their_median = statistics.median(p[1] for p in pairs)
        print(f"{level}  {len(pairs):<3} {ours_median:<15.3f} {their_median:<20.3f} {their_median / ours_median:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
