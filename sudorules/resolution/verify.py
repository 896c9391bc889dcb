"""Independent verification of resolution paths, written from the definitions (SPEC §2-§4).

Nothing here uses the CLIPS rules: a path is replayed on a plain :class:`ResolutionState` and each
step is checked against the definition of its rule in the state where it was applied:

* Singles: the CSP variable has exactly one candidate, the asserted one;
* whips and braids (SPEC §4.2, §4.4): targets, links, continuity (whips) or braid links, the
  "only candidate compatible with Z and the earlier right-linking candidates" condition
  (z- and t-candidates), Z in no variable, distinct variables, loopless, length, last variable
  with at least two candidates and none compatible;
* Subsets (SPEC §3): the p variables' candidates cover exactly p values and every elimination is a
  target of the pattern;
* T&E steps (SPEC §10.1): the hypothesis is asserted in a copy of the state, the context's own steps
  are replayed there (each checked as above, within the inner theory: chains no longer than its p,
  deeper T&E steps of lower levels), and the variable named at the end has no candidate left.

A path is also checked against a known solution: no elimination may remove a digit of the solution,
and a solved path must end in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence, Union

from ..puzzle import Candidate, Puzzle, block_cells, cell_at, column_cells, row_cells
from .state import ResolutionState
from .steps import CspVariable, GCandidate, Step

HIDDEN_SINGLE_KINDS = {
    "hidden-single-in-a-row": "rn",
    "hidden-single-in-a-column": "cn",
    "hidden-single-in-a-block": "bn",
}


def _variable_of_kind(candidate: Candidate, kind: str) -> CspVariable:
    if kind == "rc":
        return CspVariable("rc", candidate.row, candidate.column)
    if kind == "rn":
        return CspVariable("rn", candidate.row, candidate.digit)
    if kind == "cn":
        return CspVariable("cn", candidate.column, candidate.digit)
    return CspVariable("bn", candidate.block, candidate.digit)


def check_single(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a Single: its variable must hold exactly the asserted candidate."""
    if len(step.assertions) != 1 or step.eliminations:
        return ["a Single asserts exactly one value and eliminates nothing"]
    candidate = step.assertions[0]
    kind = "rc" if step.rule == "naked-single" else HIDDEN_SINGLE_KINDS.get(step.rule)
    if kind is None:
        return [f"unknown Single {step.rule!r}"]
    variable = _variable_of_kind(candidate, kind)
    remaining = state.candidates_of(variable)
    if remaining != [candidate]:
        return [f"{variable.name} has candidates {[str(c) for c in remaining]}, not only {candidate}"]
    return []


def _linked(candidate: Candidate, other: Union[Candidate, GCandidate]) -> bool:
    """Linked to a candidate, or g-linked to a g-candidate (linked to each of its labels, SPEC §4.5)."""
    if isinstance(other, GCandidate):
        return all(candidate.is_linked(label) for label in other.labels)
    return candidate.is_linked(other)


def _linked_to_any(candidate: Candidate, others: Iterable[Union[Candidate, GCandidate]]) -> bool:
    return any(_linked(candidate, other) for other in others)


def check_chain_target(state: ResolutionState, step: Step, target: Candidate, braid: bool,
                       g: bool = False) -> list[str]:
    """Problems with one target of a whip (``braid=False``) or braid, in ``state`` before the step;
    with ``g``, of a g-whip (g-braid): a right-linking object may be a g-candidate of its variable
    (SPEC §4.5), and "linked" to it means linked to each of its three labels."""
    problems: list[str] = []
    chain = step.chain
    n = len(chain)
    if n != step.level:
        problems.append(f"length {step.level} printed but {n} CSP variables")
    if not state.is_candidate(target):
        problems.append(f"target {target} is not a candidate")
    variables = [cell.variable for cell in chain]
    if len(set(variables)) != n:
        problems.append("a CSP variable is used twice")
    lefts = [c.left for c in chain]
    if not g and any(isinstance(c.right, GCandidate) for c in chain):
        problems.append("a g-candidate in a chain that is no g-chain")
    pattern = lefts + [c.right for c in chain if isinstance(c.right, Candidate)]
    # Loopless: no candidate repeats; a braid may reuse a left-linking candidate (it is linked to the
    # target or an earlier right-linking one wherever it appears), as SudoRules' braids do.
    repeats = len(set(lefts)) != len(lefts) if not braid else False
    if repeats or len(set(pattern)) != len(set(lefts)) + len(pattern) - len(lefts):
        problems.append("a candidate repeats in the chain (not loopless)")
    if target in pattern:
        problems.append("the target is one of the chain's candidates")
    if any(target in v for v in variables):
        problems.append("the target is a label of one of the chain's variables")
    if chain[-1].right is not None:
        problems.append("the last cell of a whip or braid has no right-linking candidate")
    if any(cell.right is None for cell in chain[:-1]):
        problems.append("only the last cell may lack a right-linking candidate")
    if problems:
        return problems
    rights: list[Union[Candidate, GCandidate]] = []
    for k, cell in enumerate(chain, start=1):
        variable, left, right = cell.variable, cell.left, cell.right
        candidates = state.candidates_of(variable)
        if left not in variable or not state.is_candidate(left):
            problems.append(f"cell {k}: {left} is not a candidate of {variable.name}")
            break
        if k == 1:
            if not left.is_linked(target):
                problems.append(f"cell 1: {left} is not linked to the target {target}")
        elif braid:
            if not (left.is_linked(target) or _linked_to_any(left, rights)):
                problems.append(f"cell {k}: {left} is linked neither to the target nor to an earlier right-linking candidate")
        elif not _linked(left, rights[-1]):
            problems.append(f"cell {k}: {left} is not linked to the previous right-linking candidate {rights[-1]}")
        context = [target] + rights
        compatible = [c for c in candidates if not _linked_to_any(c, context)]
        if isinstance(right, GCandidate):
            present = [c for c in right.labels if state.is_candidate(c)]
            if right.variable != variable:
                problems.append(f"cell {k}: the g-candidate is not one of {variable.name}")
                break
            if len(present) < 2:
                problems.append(f"cell {k}: the g-label {right} has fewer than two candidates (no g-candidate)")
                break
            if left in right.labels:
                problems.append(f"cell {k}: the left-linking candidate {left} is a label of the g-candidate")
                break
            others = [c for c in compatible if c not in right.labels]
            if others:
                problems.append(f"cell {k}: {[str(c) for c in others]} outside the g-candidate {right} are "
                                f"compatible with the target and earlier right-linking objects")
            rights.append(right)
        elif right is not None:
            if right not in variable or not state.is_candidate(right) or right == left:
                problems.append(f"cell {k}: {right} is not another candidate of {variable.name}")
                break
            if compatible != [right]:
                problems.append(f"cell {k}: candidates compatible with the target and earlier right-linking "
                                f"candidates are {[str(c) for c in compatible]}, not only {right}")
            rights.append(right)
        else:
            if len(candidates) < 2:
                problems.append(f"cell {k}: the last variable {variable.name} has fewer than two candidates")
            if compatible:
                problems.append(f"cell {k}: {[str(c) for c in compatible]} of the last variable are compatible "
                                f"with the target and the right-linking candidates")
    return problems


def _subset_unit_cells(step: Step) -> tuple[int, ...]:
    pattern = step.subset
    assert pattern is not None
    return {"row": row_cells, "column": column_cells, "block": block_cells}[pattern.unit_kind](pattern.unit)


def subset_targets(state: ResolutionState, step: Step) -> tuple[Optional[set[Candidate]], list[str]]:
    """The targets of a Subset pattern in ``state`` (None and problems if the pattern does not hold)."""
    pattern = step.subset
    assert pattern is not None
    p = pattern.size
    problems: list[str] = []
    if step.level != p:
        problems.append(f"level {step.level} for a Subset of size {p}")
    if pattern.family in ("naked", "hidden"):
        unit = _subset_unit_cells(step)
        cells, digits = set(pattern.cells), set(pattern.digits)
        if len(cells) != p or len(digits) != p or not cells <= set(unit):
            return None, problems + ["the pattern's cells or digits are not p distinct ones of the unit"]
        if pattern.family == "naked":
            union: set[int] = set()
            for cell in cells:
                if len(state.candidates[cell]) < 2:
                    problems.append(f"cell {cell} has fewer than two candidates")
                union |= state.candidates[cell]
            if union != digits:
                problems.append(f"the cells' candidates are {sorted(union)}, not the digits {sorted(digits)}")
            targets = {Candidate.of(d, c) for c in unit if c not in cells for d in digits
                       if d in state.candidates[c]}
        else:
            covered: set[int] = set()
            for digit in digits:
                where = {c for c in unit if digit in state.candidates[c]}
                if len(where) < 2:
                    problems.append(f"digit {digit} has fewer than two cells in the unit")
                covered |= where
            if covered != cells:
                problems.append(f"the digits' cells are {sorted(covered)}, not the pattern's cells")
            targets = {Candidate.of(d, c) for c in cells for d in state.candidates[c] if d not in digits}
    else:
        digit = pattern.unit
        bases, covers = set(pattern.bases), set(pattern.covers)
        if len(bases) != p or len(covers) != p:
            return None, problems + ["a fish needs p distinct base and cover lines"]
        in_rows = pattern.unit_kind == "rows"

        def at(base: int, other: int) -> int:
            return cell_at(base, other) if in_rows else cell_at(other, base)

        covered = set()
        for base in bases:
            where = {o for o in range(1, 10) if digit in state.candidates[at(base, o)]}
            if len(where) < 2:
                problems.append(f"base line {base} has fewer than two candidates for {digit}")
            covered |= where
        if covered != covers:
            problems.append(f"the base lines' candidates lie in lines {sorted(covered)}, not {sorted(covers)}")
        targets = {Candidate.of(digit, at(b, o)) for o in covers for b in range(1, 10)
                   if b not in bases and digit in state.candidates[at(b, o)]}
    return (None if problems else targets), problems


def check_chain(state: ResolutionState, step: Step, braid: bool, g: bool = False) -> list[str]:
    """Problems with a whip (``braid`` False) or braid line (``g``: g-whip, g-braid): each target
    checked on its own."""
    rule = ("g-" if g else "") + ("braid" if braid else "whip")
    if not step.eliminations:
        return ["a step that eliminates nothing"]
    if step.level >= 3 and len(step.eliminations) != 1:
        return [f"{rule}[{step.level}] lines have exactly one target"]
    problems = []
    for target in step.eliminations:
        problems += [f"{target}: {p}" for p in check_chain_target(state, step, target, braid, g)]
    return problems


def check_subset(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a Subset line: a pattern that holds, and only its targets eliminated."""
    if step.subset is None or not step.eliminations:
        return ["a Subset line names its pattern and eliminates something"]
    targets, problems = subset_targets(state, step)
    if targets is None:
        return problems
    extra = [str(c) for c in step.eliminations if c not in targets]
    return [f"{', '.join(extra)} not targets of the pattern"] if extra else []


_TE_RULE = re.compile(r"^(g?)T&E\((?:(g?)B(\d+),)?(\d+)\)$")


def te_rule(rule: str) -> Optional[tuple[int, int, bool]]:
    """``(k, p, g)`` of a T&E rule name (``T&E(2)``: k = 2, p = 0; ``T&E(B3,1)``: k = 1, p = 3;
    ``gT&E(1)``, ``T&E(gB3,1)``: g), or None for another rule."""
    m = _TE_RULE.match(rule)
    if not m:
        return None
    g = bool(m.group(1) or m.group(2))
    return int(m.group(4)), int(m.group(3) or 0), g


def _allowed_in_context(inner: Step, k: int, p: int, g: bool) -> Optional[str]:
    """Why ``inner`` may not appear in the context of a T&E(T, k) step (T = BRT, BRT + whips[1] with
    g, or braids up to p), or None."""
    if inner.context is not None:
        spec = te_rule(inner.rule)
        if spec is None or spec[1:] != (p, g) or spec[0] >= k:
            return f"{inner.rule} inside a {k}-level T&E context of another theory or level"
        return None
    if inner.chain:
        longest = p if p else (1 if g else 0)
        if inner.level > longest:
            return f"{inner.rule}[{inner.level}] inside a context whose chains stop at length {longest}"
        if not g and inner.rule.startswith("g-"):
            return f"{inner.rule} inside a context without g-chains"
        return None
    if inner.level != 0:
        return f"{inner.rule} is not a rule of the context's theory"
    return None


def check_te(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a T&E step (SPEC §10.1): its target is the hypothesis; asserted in a copy of the
    state, the context's steps hold one after the other and leave the named variable with no
    candidate."""
    spec = te_rule(step.rule)
    context = step.context
    if spec is None or context is None:
        return ["a T&E step names its theory and carries its context"]
    k, p, g = spec
    if step.eliminations != (context.hypothesis,):
        return ["a T&E step eliminates its hypothesis, and nothing else"]
    if not state.is_candidate(context.hypothesis):
        return [f"the hypothesis {context.hypothesis} is not a candidate"]
    inner = state.copy()
    inner.assert_value(context.hypothesis)
    for index, inner_step in enumerate(context.steps, start=1):
        problems = [why for why in [_allowed_in_context(inner_step, k, p, g)] if why]
        problems = problems or check_step(inner, inner_step)
        if problems:
            return [f"in the context of {context.hypothesis}, step {index} ({inner_step.text()}): {problems[0]}"]
        inner.eliminate_all(inner_step.eliminations)
        for candidate in inner_step.assertions:
            inner.assert_value(candidate)
    emptied = context.contradiction
    if inner.has_value(emptied) or inner.candidates_of(emptied):
        return [f"in the context of {context.hypothesis}, {emptied.name} still has a value or a candidate"]
    return []


def check_step(state: ResolutionState, step: Step) -> list[str]:
    """Problems with one step in the state where it is applied (empty when the step is valid): the
    check of the step's family (:mod:`sudorules.resolution.families`)."""
    from .families import family_of  # the registry refers to the checks above

    family = family_of(step)
    if family is None:
        return [f"no checker for rule {step.rule!r}"]
    return family.verify(state, step)


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
