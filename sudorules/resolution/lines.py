"""The printed lines of each rule family (SPEC §6), read back into :class:`~.steps.Step` objects.

One parser per family, used by the registry (:mod:`.families`); :func:`sudorules.resolution.notation.parse_step`
tries them all.  Both the current form ``r2c1≠6`` and the older spaced form ``r2c1 ≠ 6`` are accepted.
"""

from __future__ import annotations

import re
from typing import Collection, Optional, Union

from ..errors import NotationError
from ..puzzle import Candidate, cell_at
from .steps import ChainCell, Context, CspVariable, GCandidate, Step, SubsetPattern

_ELIM = re.compile(r"r(\d)c(\d)\s*(?:≠|<>)\s*(\d)")
_ASSERT = re.compile(r"r(\d)c(\d)\s*=\s*(\d)")
_CHAIN_HEAD = re.compile(r"^([a-z-]+)\[(\d+)\]:\s*(.*?)\s*==>\s*(.*)$")
_SUBSET_HEAD = re.compile(
    r"^((?:naked|hidden)-(?:pairs|triplets|quads)-in-a-(row|column|block)"
    r"|(?:x-wing|swordfish|jellyfish)-in-(rows|columns)):\s*(\S.*?)\s*==>\s*(.*)$")
_TE_HEAD = re.compile(r"^(g?T&E\((?:g?B(\d+),)?(\d+)\)):\s*r(\d)c(\d)=(\d)\s*==>\s*no candidate for "
                      r"([A-Z]{2})-CELL (\S+)\s*==>\s*(.*)$")
_TE_END = re.compile(r"^contradiction: no candidate for ([A-Z]{2})-CELL (\S+)$")
_FINNED_HEAD = re.compile(r"^(finned-(?:x-wing|swordfish|jellyfish)-in-(rows|columns)):\s*(\S.*?)\s*==>\s*(.*)$")
_SINGLE = re.compile(r"^(naked-single|hidden-single-in-a-(?:row|column|block))\s*==>\s*(.*)$")

_CELLS = [
    (re.compile(r"^r(\d)c(\d)\{n(\d) (?:n(\d)|\.)\}$"), "rc"),
    (re.compile(r"^r(\d)n(\d)\{c(\d) (?:c(\d{3}|\d)|\.)\}$"), "rn"),
    (re.compile(r"^c(\d)n(\d)\{r(\d) (?:r(\d{3}|\d)|\.)\}$"), "cn"),
]
_BN_CELL = re.compile(r"^b(\d)n(\d)\{r(\d)c(\d) (?:r(\d{3}|\d)c(\d{3}|\d)|\.)\}$")


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


def _parse_subset(rule: str, unit_kind: Optional[str], fish_kind: Optional[str], pattern: str,
                  family: str = "fish") -> SubsetPattern:
    groups = re.findall(r"\{([^}]*)\}", pattern)
    head = pattern.split("{", 1)[0]
    if len(groups) != 2:
        raise NotationError(f"bad subset pattern {pattern!r}")
    first, second = groups[0].split(), groups[1].split()
    element = r"[rcn][1-9]|r[1-9]c[1-9]"
    if not re.fullmatch(r"[rcnb][1-9]", head) or not all(re.fullmatch(element, x) for x in first + second):
        raise NotationError(f"bad subset pattern {pattern!r}")
    if fish_kind:
        return SubsetPattern(family, fish_kind, int(head[1:]),
                             bases=tuple(int(x[1:]) for x in first), covers=tuple(int(x[1:]) for x in second))
    family = "naked" if rule.startswith("naked") else "hidden"
    # naked: cells then digits, hidden: digits then cells; some older outputs print a hidden Subset's
    # cells first (SPEC §6.2): the digits are the group written n1 n2...
    cells_text, digits_text = (second, first) if first[0].startswith("n") else (first, second)
    unit = int(head[1:])
    try:
        if unit_kind == "row":
            cells = tuple(cell_at(unit, int(x[1:])) for x in cells_text)
        elif unit_kind == "column":
            cells = tuple(cell_at(int(x[1:]), unit) for x in cells_text)
        else:
            cells = tuple(cell_at(int(x[1]), int(x[3])) for x in cells_text)
        digits = tuple(int(x[1:]) for x in digits_text)
    except (IndexError, ValueError):
        raise NotationError(f"bad subset pattern {pattern!r}") from None
    return SubsetPattern(family, unit_kind or "", unit, cells=cells, digits=digits)


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


def parse_finned_line(line: str) -> Optional[Step]:
    """A finned fish line (``finned-x-wing-in-columns: n2{c9 c3}{r2 r7} ==> r7c2≠2``), or None."""
    m = _FINNED_HEAD.match(line.strip())
    if not m:
        return None
    rule, kind, pattern, targets = m.groups()
    subset = _parse_subset(rule, None, kind, pattern, family="finned")
    return Step(rule, subset.size, _eliminations(targets), subset=subset)


def parse_chain_line(line: str, rule: Union[str, Collection[str]]) -> Optional[Step]:
    """A chain line of rule ``rule`` (``whip[4]: r9c3{n2 n9} - ... ==> r1c3≠2``), or of one of the
    rules of a collection (the typed variants ``biv-chain-rc``...), or None."""
    m = _CHAIN_HEAD.match(line.strip())
    if not m or (m.group(1) != rule if isinstance(rule, str) else m.group(1) not in rule):
        return None
    name, length, body, targets = m.groups()
    chain = tuple(parse_chain_cell(part) for part in re.split(r"\s+[-–]\s+", body))
    return Step(name, int(length), _eliminations(targets), chain=chain)


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


def te_end(line: str) -> bool:
    """True for the last line of a T&E step's context (``contradiction: no candidate for ...``)."""
    return _TE_END.match(line.strip()) is not None


def is_step_line(line: str) -> bool:
    """True for lines that print a rule application (as opposed to banners, grids, comments)."""
    line = line.strip()
    return bool(_SINGLE.match(line) or _SUBSET_HEAD.match(line) or _FINNED_HEAD.match(line) or _CHAIN_HEAD.match(line)
                or _TE_HEAD.match(line))


