"""Independent verification of resolution paths, written from the definitions (SPEC §2-§4).

Nothing here uses the CLIPS rules: a path is replayed on a plain :class:`ResolutionState` and each
step is checked against the definition of its rule in the state where it was applied, by its
family's check (:mod:`.checks`, found through the registry :mod:`.families`): Singles, Subsets and
finned fish, whips, braids and their g- and special forms (SPEC §4), T&E steps (SPEC §10.1: the
hypothesis asserted in a copy of the state, the context's own steps replayed there, each checked the
same way within the inner theory, and the variable named at the end left with no candidate).

A path is also checked against a known solution: no elimination may remove a digit of the solution,
and a solved path must end in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..puzzle import Puzzle
from .checks import check_chain, check_chain_target, check_single, check_subset, subset_targets
from .families import TE, check_step
from .state import ResolutionState
from .steps import Step, te_rule

__all__ = ["PathReport", "check_chain", "check_chain_target", "check_single", "check_step", "check_subset",
           "check_te", "replay", "subset_targets", "te_rule"]


def check_te(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a T&E step (SPEC §10.1): its family's check (:func:`.checks.check_te`), each step
    of its context checked by its own family."""
    return TE.verify(state, step)


@dataclass
class PathReport:
    """The result of replaying a path: problems per step, the final state and solution agreement."""

    state: ResolutionState
    problems: list[tuple[int, str, str]] = field(default_factory=list)  #: (step index, step text, reason)
    steps_checked: int = 0

    @property
    def ok(self) -> bool:
        """True when every step was valid (and consistent with the solution, if one was given)."""
        return not self.problems


def replay(puzzle: Puzzle, steps: Sequence[Step], solution: Optional[Sequence[int]] = None) -> PathReport:
    """Replay ``steps`` from the puzzle's initial state, checking each one; stop at the first invalid step.

    With ``solution`` (81 digits), also check that no elimination removes a solution digit, that every
    assertion is a solution digit, and, when the path solves the puzzle, that it ends in the solution.
    """
    state = ResolutionState(puzzle)
    report = PathReport(state)
    for index, step in enumerate(steps):
        problems = check_step(state, step)
        if solution is not None:
            problems += [f"{c} eliminated but it is in the solution" for c in step.eliminations
                         if solution[c.cell] == c.digit]
            problems += [f"{c} asserted but the solution has {solution[c.cell]}" for c in step.assertions
                         if solution[c.cell] != c.digit]
        if problems:
            report.problems.extend((index, step.text(), p) for p in problems)
            break
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)
        report.steps_checked += 1
    if solution is not None and not report.problems and state.is_solved():
        if list(state.values) != list(solution):
            report.problems.append((len(steps), "", "the final grid differs from the solution"))
    return report
