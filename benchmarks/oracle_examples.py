"""Our rating label and MOST COMPLEX RULE TRIED against SudoRules' own, on the published examples.

The public repository denis-berthier/CSP-Rules-Examples holds SudoRules outputs (GPL data: read where
they lie, never copied here), each run with its configuration banner (``config = W+SFin``), its
puzzle, its path and ``PUZZLE 0 IS SOLVED. rating-type = ..., MOST COMPLEX RULE TRIED = ...``.  This
script lists the runs of 9x9 puzzles given by their 81 characters whose configuration is a theory we
support, solves a sample of them with that theory, and compares; for every difference it prints our
path's verification and SudoRules' path replayed by our checker.

    python benchmarks/oracle_examples.py GIT_DIR [--sample 100] [--time-limit 120] [--memory-limit 6000] [--list]

GIT_DIR is the git directory of a copy of the repository (``fetch`` gives one); the files are read
with ``git show``.  SudoRules' default configuration prints ``config = W+SFin``: those runs are
solved with our ``default`` theory (Subsets, finned fish, bivalue-chains, z-chains, t-whips, whips).
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import re
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

from sudorules.engine.solver import Solver, unique_solution
from sudorules.enums import Theory
from sudorules.errors import SudorulesError
from sudorules.reader import parse_puzzle
from sudorules.resolution.lines import is_step_line
from sudorules.resolution.notation import NotationError, parse_step
from sudorules.resolution.path import most_complex_rule
from sudorules.resolution.steps import Step
from sudorules.resolution.verify import replay

#: SudoRules' configuration label -> our theory (the default configuration prints W+SFin)
CONFIG_THEORY = {"W+SFin": "default"}
#: the untyped chains whose steps show that SudoRules' default rule set was on (the label does not
#: name bivalue-chains, z-chains or t-whips once whips are in the theory)
_DEFAULT_CHAINS = re.compile(r"^(biv-chain|z-chain|t-whip)\[")
_BANNER = re.compile(r"config = (\S+)")
_END = re.compile(r"(?:PUZZLE|GRID) \S+ (IS SOLVED|SOLVED|IS NOT SOLVED|NOT SOLVED|HAS NO SOLUTION)"
                  r"(?:\. rating-type = ([^,]+), MOST COMPLEX RULE TRIED = (\S+))?")


@dataclass
class Run:
    """One SudoRules run found in an example file."""

    path: str
    index: int                      #: its rank in the file
    config: str                     #: the banner's configuration label
    puzzle: str                     #: 81 characters
    outcome: str                    #: IS SOLVED, IS NOT SOLVED...
    rating_type: Optional[str]      #: when solved
    technique: Optional[str]        #: MOST COMPLEX RULE TRIED, when solved
    lines: list[str] = field(default_factory=list)  #: its step lines

    @property
    def theory(self) -> Optional[Theory]:
        """Our theory for its configuration, None if we have none: the configuration's label, read as
        parts; ``W+SFin`` is SudoRules' default configuration; a label with whips whose path shows
        untyped bivalue-chains, z-chains or t-whips had those on (``TyW+W+SFin`` is the default
        configuration with typed whips added: once whips are in, the label names none of them)."""
        try:
            theory = Theory.of(CONFIG_THEORY.get(self.config, self.config))
        except ValueError:
            return None
        if "W" in theory.parts:
            seen = {_DEFAULT_CHAINS.match(line).group(1) for line in self.lines if _DEFAULT_CHAINS.match(line)}
            parts = [part for rule, part in (("biv-chain", "BC"), ("z-chain", "Z"), ("t-whip", "tW")) if rule in seen]
            theory = Theory.of("+".join([str(theory)] + parts))
        return theory


def current_names(rating_type: Optional[str], technique: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """SudoRules' labels as the V2.1 code prints them (SPEC §5.4) from those of older versions found
    in the examples: ``z-chain[n]`` for Z[n], ``TBC`` / ``TW`` for TyBC / TyW, and typed-only
    configurations without the W1 that the current code adds (``TyBC+SFin`` is now ``TyBC+W1+SFin``)."""
    if technique:
        technique = re.sub(r"^z-chain\[", "Z[", technique)
        technique = re.sub(r"^TBC\[", "TyBC[", technique)
    if rating_type:
        rating_type = re.sub(r"^TBC\b", "TyBC", rating_type)
        rating_type = re.sub(r"^TW\b", "TyW", rating_type)
        typed = re.match(r"^(TyBC|TyZ|TytW|TyZ\+TytW|TyW)\+(SFin|S)$", rating_type)
        if typed:
            rating_type = f"{typed.group(1)}+W1+{typed.group(2)}"
    return rating_type, technique


def git_files(git_dir: str) -> list[str]:
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    return [n for n in names if n.startswith(("Sudoku-a/", "Sudoku-b/"))
            and not re.search(r"16x16|25x25|CLIPS-puzzles|\.(txt|rtf)$", n)]


def runs_of(git_dir: str, path: str) -> list[Run]:
    """The runs of one example file: each from a banner's configuration to its PUZZLE line."""
    text = subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], capture_output=True,
                          check=True).stdout.decode("utf-8", "replace").replace("\r", "")
    found, banner, config, puzzle, lines = [], None, None, None, []
    for raw in text.splitlines():
        line = raw.replace("CLIPS> ", "").strip()
        seen = _BANNER.search(line)
        if seen and line.startswith("***"):  # a run's opening banner (its closing one repeats it)
            banner = seen.group(1).strip("*")
            continue
        if puzzle is None:
            if banner is not None and re.fullmatch(r"[0-9.]{81}", line):
                config, puzzle, lines, banner = banner, line, [], None
            continue
        end = _END.search(line)
        if end:
            outcome = "IS " + end.group(1).replace("IS ", "")
            found.append(Run(path, len(found), config, puzzle, outcome, end.group(2), end.group(3), lines))
            puzzle = None
        elif "==>" in line:  # a rule application, ours or not (uniqueness, oddagons... lines too)
            lines.append(line)
    return found


def supported(runs: list[Run]) -> list[Run]:
    """The solved runs whose configuration we support, from a puzzle with one solution, whose path
    uses only rules we have (no uniqueness or exotic rule printed under a banner that does not name
    it), each (puzzle, configuration) once."""
    seen, out = set(), []
    for run in runs:
        if run.outcome != "IS SOLVED" or run.theory is None or (run.puzzle, run.config) in seen:
            continue
        if not all(is_step_line(line) for line in run.lines):  # a rule of a family we do not have
            continue
        try:
            unique_solution(run.puzzle)
        except SudorulesError:
            continue
        seen.add((run.puzzle, run.config))
        out.append(run)
    return out


def sudorules_path_check(run: Run) -> str:
    """SudoRules' own path, parsed back and replayed by our checker."""
    try:
        steps = [parse_step(line) for line in run.lines]
    except NotationError as error:
        return f"not parsed: {error}"
    report = replay(parse_puzzle(run.puzzle), steps, unique_solution(run.puzzle))
    if report.ok:
        return f"re-verified ({report.steps_checked} steps)"
    index, text, problem = report.problems[0]
    return f"step {index + 1} rejected: {text}: {problem}"


def _solve(run: Run, time_limit: float, memory_limit: int, answer: "multiprocessing.Queue") -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_limit * 2**20, memory_limit * 2**20))
    start = time.process_time()
    resolution = Solver().solve(run.puzzle, run.theory, time_limit=time_limit)
    seconds = time.process_time() - start
    label = most_complex_rule(resolution) if resolution.solved else str(resolution.status)
    answer.put((label, seconds, [step.to_dict() for step in resolution.steps]))


def solve_apart(run: Run, time_limit: float, memory_limit: int) -> tuple[str, float, Optional[list[Step]]]:
    """Our MOST COMPLEX RULE TRIED (or status), CPU seconds and path for one run, solved in a child
    process capped at ``memory_limit`` MiB (a g-whip[16] puzzle can take more than the machine has);
    ``memory`` and no path when the child dies."""
    answer: multiprocessing.Queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_solve, args=(run, time_limit, memory_limit, answer))
    child.start()
    deadline = time.monotonic() + time_limit * 3 + 60
    while True:
        try:
            label, seconds, steps = answer.get(timeout=1.0)
            break
        except queue.Empty:
            if not child.is_alive() or time.monotonic() > deadline:
                child.kill()
                child.join()
                return f"no answer (exit code {child.exitcode}: memory?)", 0.0, None
    child.join()
    return label, seconds, [Step.from_dict(step) for step in steps]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("git_dir")
    parser.add_argument("--sample", type=int, default=50, help="runs compared (the first of the list)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per run")
    parser.add_argument("--memory-limit", type=int, default=6000, help="MiB per run (each in its own process)")
    parser.add_argument("--list", action="store_true", help="only list the supported runs")
    args = parser.parse_args()
    runs = [run for path in git_files(args.git_dir) for run in runs_of(args.git_dir, path)]
    usable = supported(runs)
    print(f"{len(runs)} runs in {len({r.path for r in runs})} files; {len(usable)} solved runs of a configuration "
          f"we support ({len({r.puzzle for r in usable})} puzzles)", flush=True)
    if args.list:
        for run in usable:
            print(f"{run.path}#{run.index}\t{run.config}\t{run.rating_type}\t{run.technique}\t{run.puzzle}")
        return 0
    equal = renamed = 0
    compared = usable[:args.sample]
    for run in compared:
        ours, seconds, steps = solve_apart(run, args.time_limit, args.memory_limit)
        ours_type = run.theory.label
        same = ours_type == run.rating_type and ours == run.technique
        same_named = (ours_type, ours) == current_names(run.rating_type, run.technique)
        equal += same
        renamed += same_named
        mark = "=" if same else "~" if same_named else "!"
        print(f"{mark} {run.path}#{run.index} config {run.config} (ours {run.theory}): SudoRules {run.rating_type}, "
              f"{run.technique}; ours {ours_type}, {ours} ({seconds:.2f} s CPU)", flush=True)
        if not same:
            if steps is None:
                verdict = "none"
            else:
                report = replay(parse_puzzle(run.puzzle), steps, unique_solution(run.puzzle))
                verdict = f"{'re-verified' if report.ok else report.problems[0]} ({len(steps)} steps)"
            print(f"    our path: {verdict}; SudoRules' path: {sudorules_path_check(run)}", flush=True)
    print(f"{equal} of {len(compared)} equal (rating type and MOST COMPLEX RULE TRIED), {renamed} with the older "
          "versions' names read as the current ones (~)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
