"""Reading SudoRules' printed notation (SPEC §6) back into :class:`~sudorules.steps.Step` objects.

Used to verify paths printed by SudoRules itself (or by us) with :mod:`sudorules.resolution.verify`.  Both the
current form ``r2c1≠6`` and the older spaced form ``r2c1 ≠ 6`` are accepted.
"""

from __future__ import annotations

import re
from typing import Optional, Union

from ..puzzle import Candidate, cell_at
from .steps import ChainCell, Context, CspVariable, GCandidate, Step, SubsetPattern

_ELIM = re.compile(r"r(\d)c(\d)\s*(?:≠|<>)\s*(\d)")
_ASSERT = re.compile(r"r(\d)c(\d)\s*=\s*(\d)")
_CHAIN_HEAD = re.compile(r"^([a-z-]+)\[(\d+)\]:\s*(.*?)\s*==>\s*(.*)$")
_SUBSET_HEAD = re.compile(
    r"^((?:naked|hidden)-(?:pairs|triplets|quads)-in-a-(row|column|block)"
    r"|(?:x-wing|swordfish|jellyfish)-in-(rows|columns)):\s*(\S.*?)\s*==>\s*(.*)$")
_SINGLE = re.compile(r"^(naked-single|hidden-single-in-a-(?:row|column|block))\s*==>\s*(.*)$")
_TE_HEAD = re.compile(r"^(g?T&E\((?:g?B(\d+),)?(\d+)\)):\s*r(\d)c(\d)=(\d)\s*==>\s*no candidate for "
                      r"([A-Z]{2})-CELL (\S+)\s*==>\s*(.*)$")
_TE_END = re.compile(r"^contradiction: no candidate for ([A-Z]{2})-CELL (\S+)$")

_CELLS = [
    (re.compile(r"^r(\d)c(\d)\{n(\d) (?:n(\d)|\.)\}$"), "rc"),
    (re.compile(r"^r(\d)n(\d)\{c(\d) (?:c(\d{3}|\d)|\.)\}$"), "rn"),
    (re.compile(r"^c(\d)n(\d)\{r(\d) (?:r(\d{3}|\d)|\.)\}$"), "cn"),
]
_BN_CELL = re.compile(r"^b(\d)n(\d)\{r(\d)c(\d) (?:r(\d{3}|\d)c(\d{3}|\d)|\.)\}$")


class NotationError(ValueError):
    """A line that is not in the supported notation."""


def _label(variable: CspVariable, element: str) -> Candidate:
    """The label of ``variable`` written ``element`` (digit, column, row or r_c_ pair)."""
    k, a, b = variable.kind, variable.first, variable.second
    if k == "rc":
        return Candidate(int(element), a, b)
    if k == "rn":
        return Candidate(b, a, int(element))
    if k == "cn":
        return Candidate(b, int(element), a)
    r, c = element
    return Candidate(b, int(r), int(c))


def _right(variable: CspVariable, element) -> Union[Candidate, GCandidate]:
    """The right-linking object written ``element``: a label, or a g-candidate in segment notation
    (``c456`` in an rn cell, ``r123`` in a cn cell, ``r1c456`` / ``r123c4`` in a bn cell)."""
    if variable.kind == "bn":
        rows, columns = element
        if len(rows) == 1 and len(columns) == 1:
            return _label(variable, rows + columns)
    else:
        if len(element) == 1:
            return _label(variable, element)
        rows, columns = (str(variable.first), element) if variable.kind == "rn" else (element, str(variable.first))
    digit = variable.second
    try:
        return GCandidate.of(variable, [Candidate(digit, int(r), int(c)) for r in rows for c in columns])
    except ValueError as error:
        raise NotationError(str(error)) from None


def parse_chain_cell(text: str) -> ChainCell:
    """Parse one ``{...}`` cell of a chain, e.g. ``c6n9{r2 r7}`` or ``b5n3{r4c6 .}``."""
    text = text.strip()
    for pattern, kind in _CELLS:
        m = pattern.match(text)
        if m:
            variable = CspVariable(kind, int(m.group(1)), int(m.group(2)))
            right = None if m.group(4) is None else _right(variable, m.group(4))
            return ChainCell(variable, _label(variable, m.group(3)), right)
    m = _BN_CELL.match(text)
    if m:
        variable = CspVariable("bn", int(m.group(1)), int(m.group(2)))
        right = None if m.group(5) is None else _right(variable, (m.group(5), m.group(6)))
        return ChainCell(variable, _label(variable, m.group(3) + m.group(4)), right)
    raise NotationError(f"not a chain cell: {text!r}")


def _eliminations(text: str) -> tuple[Candidate, ...]:
    found = tuple(Candidate(int(n), int(r), int(c)) for r, c, n in _ELIM.findall(text))
    if not found:
        raise NotationError(f"no elimination in {text!r}")
    return found


def _parse_subset(rule: str, unit_kind: Optional[str], fish_kind: Optional[str], pattern: str) -> SubsetPattern:
    groups = re.findall(r"\{([^}]*)\}", pattern)
    head = pattern.split("{", 1)[0]
    if len(groups) != 2:
        raise NotationError(f"bad subset pattern {pattern!r}")
    first, second = groups[0].split(), groups[1].split()
    if fish_kind:
        return SubsetPattern("fish", fish_kind, int(head[1:]),
                             bases=tuple(int(x[1:]) for x in first), covers=tuple(int(x[1:]) for x in second))
    family = "naked" if rule.startswith("naked") else "hidden"
    cells_text, digits_text = (first, second) if family == "naked" else (second, first)
    unit = int(head[1:])
    if unit_kind == "row":
        cells = tuple(cell_at(unit, int(x[1:])) for x in cells_text)
    elif unit_kind == "column":
        cells = tuple(cell_at(int(x[1:]), unit) for x in cells_text)
    else:
        cells = tuple(cell_at(int(x[1]), int(x[3])) for x in cells_text)
    return SubsetPattern(family, unit_kind or "", unit, cells=cells,
                         digits=tuple(int(x[1:]) for x in digits_text))


def parse_single(line: str) -> Optional[Step]:
    """A Single line (``hidden-single-in-a-row ==> r4c5=7``), or None."""
    m = _SINGLE.match(line.strip())
    if not m:
        return None
    a = _ASSERT.search(m.group(2))
    if not a:
        raise NotationError(f"no assertion in {line!r}")
    r, c, n = (int(x) for x in a.groups())
    return Step(m.group(1), 0, assertions=(Candidate(n, r, c),))


def subset_rule(rule: str) -> bool:
    """True for the printed name of a Subset rule (``naked-pairs-in-a-row``, ``x-wing-in-columns``...)."""
    return _SUBSET_HEAD.match(f"{rule}: x ==> ") is not None


def parse_subset_line(line: str) -> Optional[Step]:
    """A Subset line (``naked-pairs-in-a-row: r5{c2 c3}{n3 n8} ==> ...``), or None."""
    m = _SUBSET_HEAD.match(line.strip())
    if not m:
        return None
    rule, unit_kind, fish_kind, pattern, targets = m.groups()
    subset = _parse_subset(rule, unit_kind, fish_kind, pattern)
    return Step(rule, subset.size, _eliminations(targets), subset=subset)


def parse_chain_line(line: str, rule: str) -> Optional[Step]:
    """A chain line of rule ``rule`` (``whip[4]: r9c3{n2 n9} - ... ==> r1c3≠2``), or None."""
    m = _CHAIN_HEAD.match(line.strip())
    if not m or m.group(1) != rule:
        return None
    _, length, body, targets = m.groups()
    chain = tuple(parse_chain_cell(part) for part in re.split(r"\s+[-–]\s+", body))
    return Step(rule, int(length), _eliminations(targets), chain=chain)


def parse_te_line(line: str) -> Optional[Step]:
    """The header line of a T&E step (``T&E(B3,1): r1c2=5 ==> no candidate for CN-CELL c5n2 ==>
    r1c2≠5``), with its context's hypothesis and contradiction but not yet its steps (the indented
    lines under it: :func:`read_path` puts them in), or None."""
    m = _TE_HEAD.match(line.strip())
    if not m:
        return None
    rule, p, k, r, c, d, _, variable, targets = m.groups()
    hypothesis = Candidate(int(d), int(r), int(c))
    return Step(rule, int(p) if p else int(k), _eliminations(targets),
                context=Context(hypothesis, (), CspVariable.parse(variable)))


def parse_step(line: str) -> Step:
    """Parse one printed rule application into a Step: the parser of the family whose line it is
    (:mod:`sudorules.resolution.families`)."""
    from .families import FAMILIES  # the registry refers to the parsers above

    for family in FAMILIES:
        step = family.parse(line)
        if step is not None:
            return step
    raise NotationError(f"not a rule application: {line.strip()!r}")


def is_step_line(line: str) -> bool:
    """True for lines that print a rule application (as opposed to banners, grids, comments)."""
    line = line.strip()
    return bool(_SINGLE.match(line) or _SUBSET_HEAD.match(line) or _CHAIN_HEAD.match(line) or _TE_HEAD.match(line))


def read_path(text: str):
    """The puzzle and the steps of a printed resolution path (SudoRules' console output or ours).

    The puzzle is the first line made of exactly 81 grid characters; the steps are every line that
    prints a rule application, in order.  A T&E step's context is the lines indented under it, down
    to its ``contradiction: no candidate for ...`` line (contexts nest); a T&E line with nothing
    indented under it (``solve --brief``) keeps an empty context.  Returns ``(puzzle, steps)``.
    """
    from ..reader import parse_puzzle

    puzzle = None
    top: list[Step] = []
    open_contexts: list[tuple[int, Step, list[Step]]] = []  # (indent of the T&E line, its step, context steps)
    for raw in text.splitlines():
        line = raw.replace("CLIPS> ", "")
        indent = len(line) - len(line.lstrip(" "))
        line = line.strip()
        if puzzle is None and re.fullmatch(r"[0-9.]{81}", line):
            puzzle = parse_puzzle(line)
            continue
        end = _TE_END.match(line)
        if end and open_contexts and indent > open_contexts[-1][0]:
            _, step, inner = open_contexts.pop()
            closed = Step(step.rule, step.level, step.eliminations,
                          context=Context(step.context.hypothesis, tuple(inner), step.context.contradiction))
            (open_contexts[-1][2] if open_contexts else top).append(closed)
            continue
        if not is_step_line(line):
            continue
        while open_contexts and indent <= open_contexts[-1][0]:  # a brief path: a T&E line with no context
            _, brief, inner = open_contexts.pop()
            (open_contexts[-1][2] if open_contexts else top).append(brief)
        step = parse_step(line)
        if step.context is not None:
            open_contexts.append((indent, step, []))
        else:
            (open_contexts[-1][2] if open_contexts else top).append(step)
    while open_contexts:
        _, brief, _ = open_contexts.pop()
        (open_contexts[-1][2] if open_contexts else top).append(brief)
    if puzzle is None:
        raise NotationError("no puzzle line (81 grid characters) in the path")
    return puzzle, top
