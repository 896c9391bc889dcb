"""The checks of each rule family, written from the definitions (SPEC §2-§4): a step against the
resolution state where it is applied.

Nothing here uses the CLIPS rules.  The registry (:mod:`.families`) gives each family its check;
:func:`sudorules.resolution.verify.check_step` and :func:`~sudorules.resolution.verify.replay` apply
them along a path:

* Singles: the CSP variable has exactly one candidate, the asserted one;
* whips and braids (SPEC §4.2, §4.4): targets, links, continuity (whips) or braid links, the
  "only candidate compatible with Z and the earlier right-linking candidates" condition
  (z- and t-candidates), Z in no variable, distinct variables, loopless, length, last variable
  with at least two candidates and none compatible;
* bivalue-chains, z-chains, t-whips, g-bivalue-chains and the typed variants (SPEC §4.3): the same
  regular chain, with each family's own condition on the candidates of its cells;
* Subsets (SPEC §3): the p variables' candidates cover exactly p values and every elimination is a
  target of the pattern; finned fish likewise, with the fin's block;
* T&E steps (SPEC §10.1): the hypothesis is asserted in a copy of the state, the context's own steps
  are replayed there (each checked by its family, within the inner theory: chains no longer than its
  p, deeper T&E steps of lower levels), and the variable named at the end has no candidate left.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Union

from ..puzzle import Candidate, block_cells, block_of, cell_at, column_cells, row_cells
from .state import ResolutionState
from .steps import ChainCell, CspVariable, GCandidate, Step, te_rule, typed_rule

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


def _objects_problems(state: ResolutionState, chain: Iterable[ChainCell]) -> list[str]:
    """What is wrong with the cells' own objects in ``state`` (the first cell found, checked before any
    link): each left-linking candidate is a candidate of its variable; each right-linking object another
    candidate of it, or a g-candidate of it (at least two of its labels present, the left-linking
    candidate not among them)."""
    for k, cell in enumerate(chain, start=1):
        variable, left, right = cell.variable, cell.left, cell.right
        if left not in variable or not state.is_candidate(left):
            return [f"cell {k}: {left} is not a candidate of {variable.name}"]
        if isinstance(right, GCandidate):
            if right.variable != variable:
                return [f"cell {k}: the g-candidate is not one of {variable.name}"]
            if sum(state.is_candidate(c) for c in right.labels) < 2:
                return [f"cell {k}: the g-label {right} has fewer than two candidates (no g-candidate)"]
            if left in right.labels:
                return [f"cell {k}: the left-linking candidate {left} is a label of the g-candidate"]
        elif right is not None and (right not in variable or not state.is_candidate(right) or right == left):
            return [f"cell {k}: {right} is not another candidate of {variable.name}"]
    return []


def _regular_chain_problems(state: ResolutionState, step: Step, target: Candidate,
                            variables: list[CspVariable]) -> list[str]:
    """What every chain line must hold whatever its family: the printed length is its number of
    variables, the target is a candidate, no variable is used twice."""
    problems: list[str] = []
    if len(variables) != step.level:
        problems.append(f"length {step.level} printed but {len(variables)} CSP variables")
    if not state.is_candidate(target):
        problems.append(f"target {target} is not a candidate")
    if len(set(variables)) != len(variables):
        problems.append("a CSP variable is used twice")
    return problems


def check_chain_target(state: ResolutionState, step: Step, target: Candidate, braid: bool,
                       g: bool = False) -> list[str]:
    """Problems with one target of a whip (``braid=False``) or braid, in ``state`` before the step;
    with ``g``, of a g-whip (g-braid): a right-linking object may be a g-candidate of its variable
    (SPEC §4.5), and "linked" to it means linked to each of its three labels."""
    chain = step.chain
    variables = [cell.variable for cell in chain]
    problems = _regular_chain_problems(state, step, target, variables)
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
    problems += _objects_problems(state, chain)
    if problems:
        return problems
    rights: list[Union[Candidate, GCandidate]] = []
    for k, cell in enumerate(chain, start=1):
        variable, left, right = cell.variable, cell.left, cell.right
        candidates = state.candidates_of(variable)
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
            others = [c for c in compatible if c not in right.labels]
            if others:
                problems.append(f"cell {k}: {[str(c) for c in others]} outside the g-candidate {right} are "
                                f"compatible with the target and earlier right-linking objects")
            rights.append(right)
        elif right is not None:
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
    return _check_pattern(state, step, subset_targets, "a Subset")


def _check_pattern(state: ResolutionState, step: Step, targets_of, what: str) -> list[str]:
    """Problems with a Subset or finned fish line: ``targets_of`` (:func:`subset_targets`,
    :func:`finned_targets`) says whether its pattern holds and which candidates are its targets; the
    line must eliminate some of them and nothing else."""
    if step.subset is None or not step.eliminations:
        return [f"{what} line names its pattern and eliminates something"]
    targets, problems = targets_of(state, step)
    if targets is None:
        return problems
    extra = [str(c) for c in step.eliminations if c not in targets]
    return [f"{', '.join(extra)} not targets of the pattern"] if extra else []



#: the special chains of SPEC §4.3 (and g-bivalue-chains), by family
SPECIAL_CHAINS = ("biv-chain", "z-chain", "t-whip", "g-biv-chain")


def check_special_chain_target(state: ResolutionState, step: Step, target: Candidate, kind: str) -> list[str]:
    """Problems with one target of a bivalue-chain (``kind`` ``biv-chain``), z-chain, t-whip or
    g-bivalue-chain, or of a typed variant (``biv-chain-rc``...: all variables of that kind), in
    ``state`` before the step.

    Common to all (a regular chain, SPEC §4.1): the printed length, distinct variables, no candidate
    twice, the target a candidate outside the chain, each left-linking candidate a candidate of its
    variable, L1 linked to the target and each L_k linked (g-linked) to R_(k-1).  Then each family's
    condition on the other candidates of its cells (those neither L_k nor R_k, nor in a g-rlc R_k):

    * biv-chain (SPEC §4.3): none (every variable holds exactly L_k and R_k); the target linked to R_n;
    * z-chain: all linked to the target, R_k (k < n) not; the last variable (printed with a dot)
      without the target among its labels and with at least two candidates;
    * t-whip (SudoRules' t-whips, G/CHAIN-RULES-SPEED/T-WHIPS: a partial whip[1] on the target glued to
      a partial whip on R_1): in V_1 linked to the target, R_1 not; in V_k (1 < k < n) linked to an
      earlier R_i; in the last variable (with a dot, at least two candidates) linked to the target
      or an earlier R_i;
    * g-biv-chain (SudoRules' g-bivalue-chains, G/CHAIN-RULES-SPEED/G-BIVALUE-CHAINS): each R_k a
      candidate or a g-candidate of V_k not holding L_k; in V_1 linked to the target, in V_k linked
      (g-linked) to R_(k-1); the target linked (g-linked) to R_n and not a label of V_n.

    Each makes the target false: if it were true, the cells would force R_1, R_2, ... in turn and the
    last one would contradict it (R_n linked to it) or leave V_n empty."""
    chain = step.chain
    n = len(chain)
    family = kind.rsplit("-", 1)[0] if typed_rule(kind) else kind
    variables = [cell.variable for cell in chain]
    problems = _regular_chain_problems(state, step, target, variables)
    vtype = typed_rule(kind)
    if vtype and any(v.kind != vtype for v in variables):
        problems.append(f"a variable of {kind} is not of type {vtype}")
    closed = family in ("biv-chain", "g-biv-chain")  # printed with a final right-linking object
    if any(cell.right is None for cell in (chain if closed else chain[:-1])):
        problems.append("a cell without a right-linking object where the chain needs one")
    if not closed and chain and chain[-1].right is not None:
        problems.append(f"the last cell of a {family} has no right-linking candidate (a dot)")
    if family != "g-biv-chain" and any(isinstance(cell.right, GCandidate) for cell in chain):
        problems.append(f"a g-candidate in a {family}")
    pattern = [c.left for c in chain] + [c.right for c in chain if isinstance(c.right, Candidate)]
    if len(set(pattern)) != len(pattern):
        problems.append("a candidate repeats in the chain (not loopless)")
    if target in pattern or any(isinstance(c.right, GCandidate) and target in c.right.labels for c in chain):
        problems.append("the target is one of the chain's candidates")
    problems += _objects_problems(state, chain)
    if problems:
        return problems
    rights: list[Union[Candidate, GCandidate]] = []
    for k, cell in enumerate(chain, start=1):
        variable, left, right = cell.variable, cell.left, cell.right
        candidates = state.candidates_of(variable)
        previous = target if k == 1 else rights[-1]
        if not _linked(left, previous):
            problems.append(f"cell {k}: {left} is not linked to {'the target' if k == 1 else 'R' + str(k - 1)} "
                            f"{previous}")
        others = [c for c in candidates if c != left and c != right
                  and not (isinstance(right, GCandidate) and c in right.labels)]
        last = k == n
        if family == "biv-chain":
            if others:
                problems.append(f"cell {k}: {variable.name} holds {[str(c) for c in others]} besides "
                                f"{left} and {right} (not bivalue)")
        elif family == "z-chain" or (family == "t-whip" and k == 1):
            loose = [c for c in others if not c.is_linked(target)]
            if loose:
                problems.append(f"cell {k}: {[str(c) for c in loose]} not linked to the target")
            if right is not None and _linked(right, target):
                problems.append(f"cell {k}: R{k} {right} is linked to the target")
        elif family == "t-whip":
            loose = [c for c in others if not (_linked_to_any(c, rights) or (last and c.is_linked(target)))]
            if loose:
                problems.append(f"cell {k}: {[str(c) for c in loose]} linked to no earlier right-linking "
                                f"candidate{' nor to the target' if last else ''}")
        else:  # g-biv-chain
            loose = [c for c in others if not _linked(c, previous)]
            if loose:
                problems.append(f"cell {k}: {[str(c) for c in loose]} not linked to "
                                f"{'the target' if k == 1 else 'R' + str(k - 1)}")
        if last:
            if family in ("biv-chain", "g-biv-chain"):
                if not _linked(target, right):
                    problems.append(f"the target is not linked to the last right-linking object {right}")
            elif len(candidates) < 2:
                problems.append(f"cell {k}: the last variable {variable.name} has fewer than two candidates")
            if family in ("z-chain", "g-biv-chain") and target in variable:
                problems.append(f"the target is a label of the last variable {variable.name}")
        rights.append(right)
    return problems


def check_special_chain(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a bivalue-chain, z-chain, t-whip or g-bivalue-chain line (or a typed one): each
    target checked on its own (:func:`check_special_chain_target`)."""
    if not step.eliminations or not step.chain:
        return ["a chain line names its chain and eliminates something"]
    problems = []
    for target in step.eliminations:
        problems += [f"{target}: {p}" for p in check_special_chain_target(state, step, target, step.rule)]
    return problems


def finned_targets(state: ResolutionState, step: Step) -> tuple[Optional[set[Candidate]], list[str]]:
    """The targets of a finned fish (SPEC §3.2) in ``state``, None and the problems if it does not hold.

    Pattern (in rows; columns by transposition), as printed: digit n, base rows r1..rp, cover columns
    c1..cp, the fin in the block B of (rp, cp).  Rows r1..r(p-1) hold n only in the cover columns,
    row rp only in the cover columns and in B, and at least once in B.  Targets: n in B, in a cover
    column, outside the base rows.  (If rp's n is in B, B has it in rp; if not, the p rows make a fish
    on the cover columns: either way the targets go.)"""
    pattern = step.subset
    assert pattern is not None
    p = pattern.size
    problems: list[str] = []
    if step.level != p:
        problems.append(f"level {step.level} for a finned fish of size {p}")
    digit = pattern.unit
    bases, covers = list(pattern.bases), list(pattern.covers)
    if len(set(bases)) != p or len(set(covers)) != p or len(covers) != p:
        return None, problems + ["a finned fish needs p distinct base and cover lines"]
    in_rows = pattern.unit_kind == "rows"

    def at(base: int, other: int) -> int:
        return cell_at(base, other) if in_rows else cell_at(other, base)

    fin_block = block_of(at(bases[-1], covers[-1]))
    fin_cells = set(block_cells(fin_block))
    for i, base in enumerate(bases):
        held = [o for o in range(1, 10) if digit in state.candidates[at(base, o)]]
        outside = [o for o in held if o not in covers and not (i == p - 1 and at(base, o) in fin_cells)]
        if outside:
            problems.append(f"base line {base} holds {digit} outside the cover lines"
                            + (" and the fin's block" if i == p - 1 else ""))
        if i == p - 1 and not any(at(base, o) in fin_cells for o in held):
            problems.append(f"the fin line {base} holds no {digit} in block {fin_block}")
    targets = {Candidate.of(digit, cell) for cell in fin_cells
               if digit in state.candidates[cell]
               and ((cell % 9 + 1) if in_rows else (cell // 9 + 1)) in covers
               and ((cell // 9 + 1) if in_rows else (cell % 9 + 1)) not in bases}
    return (None if problems else targets), problems


def check_finned(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a finned fish line: a pattern that holds, and only its targets eliminated."""
    return _check_pattern(state, step, finned_targets, "a finned fish")


def check_typed_whip(state: ResolutionState, step: Step) -> list[str]:
    """Problems with a typed whip line (``whip-rc[5]``...): a whip (:func:`check_chain`) whose variables
    are all of the rule's type (SPEC §4.3)."""
    vtype = typed_rule(step.rule)
    wrong = [cell.variable.name for cell in step.chain if cell.variable.kind != vtype]
    return check_chain(state, step, braid=False) + ([f"variables {wrong} are not of type {vtype}"] if wrong else [])


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


def check_te(state: ResolutionState, step: Step,
             check_step: Callable[[ResolutionState, Step], list[str]]) -> list[str]:
    """Problems with a T&E step (SPEC §10.1): its target is the hypothesis; asserted in a copy of the
    state, the context's steps hold one after the other (each by ``check_step``, the registry's check
    of its family) and leave the named variable with no candidate."""
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
        if not context.steps:  # what read_path gives for a line of `solve --brief`: nothing to check
            return [f"the context of {context.hypothesis} is not in the path (a --brief path?), and the "
                    f"hypothesis alone leaves {emptied.name} a value or a candidate: print the path "
                    "without --brief to check it"]
        return [f"in the context of {context.hypothesis}, {emptied.name} still has a value or a candidate"]
    return []
