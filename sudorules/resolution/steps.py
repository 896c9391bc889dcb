"""Resolution steps as data: CSP variables, chain cells, subset patterns and rule applications.

A :class:`Step` is one rule application of a resolution path, in the vocabulary of SPEC §4 and the
printed notation of SPEC §6.  The rule engine produces steps; the path printer, the independent
checker (:mod:`sudorules.checker`) and the rating read them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from ..enums import Status, Theory
from ..errors import InvalidPuzzleError, MemoryLimitError, NotationError, NotSolvedError, TimeLimitError
from ..puzzle import Candidate, Puzzle, block_cells, cell_at, row_of, column_of, block_of

#: The four kinds of CSP variables (SPEC §1.2), in SudoRules' order.
VARIABLE_KINDS = ("rc", "rn", "cn", "bn")


@dataclass(frozen=True, order=True)
class CspVariable:
    """One of the 324 CSP variables: ``rc`` (a cell), ``rn`` (a digit in a row), ``cn``, ``bn``.

    ``first`` is the row (rc, rn), the column (cn) or the block (bn); ``second`` is the column (rc)
    or the digit (rn, cn, bn).  Printed names: ``r3c7``, ``r3n5``, ``c7n5``, ``b3n5``.
    """

    kind: str
    first: int
    second: int

    @property
    def name(self) -> str:
        """The printed name of the variable."""
        prefix = {"rc": ("r", "c"), "rn": ("r", "n"), "cn": ("c", "n"), "bn": ("b", "n")}[self.kind]
        return f"{prefix[0]}{self.first}{prefix[1]}{self.second}"

    def labels(self) -> tuple[Candidate, ...]:
        """The nine labels (possible values) of this variable."""
        if self.kind == "rc":
            return tuple(Candidate(n, self.first, self.second) for n in range(1, 10))
        if self.kind == "rn":
            return tuple(Candidate(self.second, self.first, c) for c in range(1, 10))
        if self.kind == "cn":
            return tuple(Candidate(self.second, r, self.first) for r in range(1, 10))
        return tuple(Candidate.of(self.second, cell) for cell in block_cells(self.first))

    def __contains__(self, candidate: object) -> bool:
        return isinstance(candidate, Candidate) and self in variables_of(candidate)

    def element(self, candidate: Candidate) -> str:
        """How a label of this variable is printed inside braces: digit, column, row or cell."""
        if self.kind == "rc":
            return f"n{candidate.digit}"
        if self.kind == "rn":
            return f"c{candidate.column}"
        if self.kind == "cn":
            return f"r{candidate.row}"
        return f"r{candidate.row}c{candidate.column}"

    @property
    def cell_name(self) -> str:
        """SudoRules' name for the variable when it has no candidate left: ``RC-CELL r4c5``,
        ``RN-CELL r4n5``, ``CN-CELL c5n4``, ``BN-CELL b5n4``."""
        return f"{self.kind.upper()}-CELL {self.name}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> "CspVariable":
        """The variable printed ``name`` (``r3c7``, ``r3n5``, ``c7n5``, ``b3n5``)."""
        kinds = {("r", "c"): "rc", ("r", "n"): "rn", ("c", "n"): "cn", ("b", "n"): "bn"}
        if len(name) == 4 and (name[0], name[2]) in kinds and name[1] in "123456789" and name[3] in "123456789":
            return cls(kinds[(name[0], name[2])], int(name[1]), int(name[3]))
        raise ValueError(f"not a CSP variable name (like r3c7, r3n5, c7n5, b3n5): {name!r}")


def variables_of(candidate: Candidate) -> tuple[CspVariable, CspVariable, CspVariable, CspVariable]:
    """The four CSP variables a label belongs to: its rc, rn, cn and bn variables."""
    n, r, c = candidate.digit, candidate.row, candidate.column
    return (CspVariable("rc", r, c), CspVariable("rn", r, n), CspVariable("cn", c, n),
            CspVariable("bn", block_of(cell_at(r, c)), n))


@dataclass(frozen=True)
class GCandidate:
    """A g-candidate (SPEC §4.5): a g-label of an rn, cn or bn variable, i.e. the three labels of
    one row or column segment of that variable, at least two of them current candidates.  It can
    be the right-linking object of a g-whip cell.  A candidate is g-linked to it when linked to all
    three labels (:meth:`is_linked`)."""

    variable: CspVariable
    labels: tuple[Candidate, Candidate, Candidate]

    @property
    def digit(self) -> int:
        return self.labels[0].digit

    def is_linked(self, candidate: Candidate) -> bool:
        """True when ``candidate`` is g-linked to this g-candidate: linked to each of its labels."""
        return all(candidate.is_linked(label) for label in self.labels)

    def __contains__(self, candidate: object) -> bool:
        return candidate in self.labels

    def element(self) -> str:
        """The segment notation inside a cell's braces: ``c456`` (rn), ``r123`` (cn), ``r1c456`` or
        ``r123c4`` (bn)."""
        rows = "".join(str(r) for r in sorted({c.row for c in self.labels}))
        columns = "".join(str(c) for c in sorted({c.column for c in self.labels}))
        if self.variable.kind == "rn":
            return f"c{columns}"
        if self.variable.kind == "cn":
            return f"r{rows}"
        return f"r{rows}c{columns}"

    def __str__(self) -> str:
        """The name used in JSON chains: ``n7r3c456``, ``n7r123c4`` (the variable says which
        g-label it is when an rn and a bn g-label have the same three labels)."""
        rows = "".join(str(r) for r in sorted({c.row for c in self.labels}))
        columns = "".join(str(c) for c in sorted({c.column for c in self.labels}))
        return f"n{self.digit}r{rows}c{columns}"

    @classmethod
    def parse(cls, variable: CspVariable, text: str) -> "GCandidate":
        """The g-candidate of ``variable`` named ``text`` (``n7r3c456``, the inverse of ``str``)."""
        m = re.fullmatch(r"n([1-9])r([1-9]{1,3})c([1-9]{1,3})", text)
        if not m:
            raise ValueError(f"not a g-candidate name (like n7r3c456): {text!r}")
        digit = int(m.group(1))
        labels = tuple(Candidate(digit, int(r), int(c)) for r in m.group(2) for c in m.group(3))
        return cls.of(variable, labels)

    @classmethod
    def of(cls, variable: CspVariable, labels) -> "GCandidate":
        """Check that ``labels`` are the three labels of one g-label of ``variable`` (SPEC §4.5)."""
        labels = tuple(sorted(labels, key=lambda c: (c.row, c.column)))
        rows, columns = {c.row for c in labels}, {c.column for c in labels}
        ok = (variable.kind in ("rn", "cn", "bn") and len(set(labels)) == 3
              and all(c in variable for c in labels)
              and (len(rows) == 1 and len({(c - 1) // 3 for c in columns}) == 1
                   or len(columns) == 1 and len({(r - 1) // 3 for r in rows}) == 1)
              and (variable.kind != "rn" or len(rows) == 1) and (variable.kind != "cn" or len(columns) == 1))
        if not ok:
            raise ValueError(f"not a g-label of {variable.name}: {[str(c) for c in labels]}")
        return cls(variable, labels)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ChainCell:
    """One CSP variable of a whip/braid: its left-linking and right-linking candidates.

    ``right`` is None for the last cell of a whip or braid (printed ``.``); in a g-whip it may be a
    :class:`GCandidate` of the variable (printed in segment notation, ``r3n7{c1 c456}``).
    """

    variable: CspVariable
    left: Candidate
    right: Optional[Union[Candidate, GCandidate]]

    @property
    def is_g(self) -> bool:
        """True when the right-linking object is a g-candidate."""
        return isinstance(self.right, GCandidate)

    def text(self) -> str:
        """SudoRules' notation, e.g. ``r4n8{c9 c3}``, ``b5n3{r4c6 .}``, ``r3n7{c1 c456}``."""
        if self.right is None:
            right = "."
        elif isinstance(self.right, GCandidate):
            right = self.right.element()
        else:
            right = self.variable.element(self.right)
        return f"{self.variable.name}{{{self.variable.element(self.left)} {right}}}"

    def triple(self) -> tuple[str, str, Optional[str]]:
        """``(variable, left-linking, right-linking)`` by name, e.g. ``("r4n8", "n8r4c9", "n8r4c3")``."""
        return (self.variable.name, str(self.left), None if self.right is None else str(self.right))

    @classmethod
    def from_triple(cls, triple: Any) -> "ChainCell":
        """The inverse of :meth:`triple`."""
        name, left, right = triple
        variable = CspVariable.parse(name)
        if right is None:
            return cls(variable, Candidate.parse(left), None)
        if len(right) == 6:
            return cls(variable, Candidate.parse(left), Candidate.parse(right))
        return cls(variable, Candidate.parse(left), GCandidate.parse(variable, right))


@dataclass(frozen=True)
class SubsetPattern:
    """A Subset (SPEC §3): naked, hidden or super-hidden (fish) pattern of size p, or a finned fish.

    * naked: ``unit_kind`` row/column/block, ``unit`` its index, ``cells`` the p cells, ``digits`` the p digits;
    * hidden: same fields, printed digits first;
    * fish: ``unit_kind`` ``rows`` or ``columns`` (the base lines), ``unit`` the digit, ``bases`` and
      ``covers`` the base and cover line numbers;
    * finned (a finned fish, SPEC §3.2): the fields of a fish, in SudoRules' order: the last base line
      holds the fin, which lies in the block of that line and the last cover line.
    """

    family: str  #: "naked", "hidden", "fish" or "finned"
    unit_kind: str
    unit: int
    cells: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    bases: tuple[int, ...] = ()
    covers: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        """p: 2 (pairs, x-wing), 3 (triplets, swordfish) or 4 (quads, jellyfish)."""
        return len(self.bases) if self.family in ("fish", "finned") else len(self.cells)

    def text(self) -> str:
        """The pattern part of the printed line, e.g. ``r5{c2 c3}{n3 n8}`` or ``n7{r2 r5}{c3 c8}``."""
        if self.family in ("fish", "finned"):
            base, cover = ("r", "c") if self.unit_kind == "rows" else ("c", "r")
            return (f"n{self.unit}{{{' '.join(base + str(i) for i in self.bases)}}}"
                    f"{{{' '.join(cover + str(i) for i in self.covers)}}}")
        unit = {"row": "r", "column": "c", "block": "b"}[self.unit_kind] + str(self.unit)
        if self.unit_kind == "row":
            cells = " ".join(f"c{column_of(cell)}" for cell in self.cells)
        elif self.unit_kind == "column":
            cells = " ".join(f"r{row_of(cell)}" for cell in self.cells)
        else:
            cells = " ".join(f"r{row_of(cell)}c{column_of(cell)}" for cell in self.cells)
        digits = " ".join(f"n{d}" for d in self.digits)
        if self.family == "naked":
            return f"{unit}{{{cells}}}{{{digits}}}"
        return f"{unit}{{{digits}}}{{{cells}}}"


SUBSET_NAMES = {2: ("pairs", "x-wing"), 3: ("triplets", "swordfish"), 4: ("quads", "jellyfish")}

#: The rule names of the chain families (SPEC §4, §6.1) and their typed variants (``biv-chain-rc``...).
CHAIN_RULES = {"whip": "whip", "braid": "braid", "g-whip": "g-whip", "g-braid": "g-braid",
               "biv-chain": "biv-chain", "z-chain": "z-chain", "t-whip": "t-whip", "g-biv-chain": "g-biv-chain"}
_TYPED = re.compile(r"^(whip|biv-chain|z-chain|t-whip)-(rc|rn|cn|bn)$")
_SUBSET_RULE = re.compile(r"^(?:(?:naked|hidden)-(?:pairs|triplets|quads)-in-a-(?:row|column|block)"
                          r"|(?:x-wing|swordfish|jellyfish)-in-(?:rows|columns))$")
_FINNED_RULE = re.compile(r"^finned-(?:x-wing|swordfish|jellyfish)-in-(?:rows|columns)$")
_TE_RULE = re.compile(r"^(g?)T&E\((?:(g?)B(\d+),)?(\d+)\)$")


def family_name(rule: str) -> str:
    """The rule family of a printed rule name: ``single`` (naked and hidden singles), ``subset``,
    ``finned`` (finned fish), ``whip``, ``braid``, ``g-whip``, ``g-braid``, ``biv-chain``, ``z-chain``,
    ``t-whip``, ``g-biv-chain``, ``typed-whip`` (``whip-rc``...), ``typed-biv-chain``, ``typed-z-chain``,
    ``typed-t-whip``, ``t&e`` (``T&E(2)``, ``T&E(B3,1)``...); the rule name itself for any other rule.
    The one place where printed names meet family names: the registry
    (:mod:`sudorules.resolution.families`) finds a step's family by it."""
    if rule == "naked-single" or rule.startswith("hidden-single-in-a-"):
        return "single"
    if te_rule(rule) is not None:
        return "t&e"
    if rule in CHAIN_RULES:
        return CHAIN_RULES[rule]
    typed = _TYPED.match(rule)
    if typed:
        return f"typed-{typed.group(1)}"
    if _SUBSET_RULE.match(rule):
        return "subset"
    if _FINNED_RULE.match(rule):
        return "finned"
    return rule


def te_rule(rule: str) -> Optional[tuple[int, int, bool]]:
    """``(k, p, g)`` of a T&E rule name (``T&E(2)``: k = 2, p = 0; ``T&E(B3,1)``: k = 1, p = 3;
    ``gT&E(1)``, ``T&E(gB3,1)``: g), or None for another rule."""
    m = _TE_RULE.match(rule)
    if not m:
        return None
    g = bool(m.group(1) or m.group(2))
    return int(m.group(4)), int(m.group(3) or 0), g


def typed_rule(rule: str) -> Optional[str]:
    """The variable kind of a typed chain's rule name (``rc`` for ``biv-chain-rc``), else None."""
    typed = _TYPED.match(rule)
    return typed.group(2) if typed else None


@dataclass(frozen=True)
class Context:
    """Why a T&E step eliminates its target (SPEC §10.1): the hypothesis asserted in a copy of the
    state, the steps applied there (Singles, chains, deeper T&E steps), and the CSP variable they
    left with no candidate (the contradiction)."""

    hypothesis: Candidate
    steps: tuple["Step", ...]
    contradiction: CspVariable

    def lines(self, indent: str = "    ") -> list[str]:
        """The context's path, one line per step, each ``indent`` deeper than the step it justifies
        (a deeper T&E step's own context deeper still), ending with the contradiction."""
        out: list[str] = []
        for step in self.steps:
            out.append(indent + step.text())
            if step.context is not None:
                out += step.context.lines(indent + "    ")
        out.append(f"{indent}contradiction: no candidate for {self.contradiction.cell_name}")
        return out


@dataclass(frozen=True)
class Step:
    """One rule application.

    ``rule`` is the printed rule family: ``naked-single``, ``hidden-single-in-a-row`` (``-column``,
    ``-block``), ``whip``, ``braid``, ``naked-pairs-in-a-row``, ``x-wing-in-columns``, ...;
    ``level`` is its length (0 for Singles, n for whip[n] / braid[n], p for a Subset of size p).
    Chains carry ``chain``; Subsets carry ``subset``; Singles carry one ``assertions`` entry.
    """

    rule: str
    level: int
    eliminations: tuple[Candidate, ...] = ()
    assertions: tuple[Candidate, ...] = ()
    chain: tuple[ChainCell, ...] = ()
    subset: Optional[SubsetPattern] = None
    context: Optional[Context] = None  #: a T&E step's hypothesis, context path and contradiction

    @property
    def is_chain(self) -> bool:
        """True for whips, braids and other chain rules."""
        return bool(self.chain)

    @property
    def family(self) -> str:
        """The rule family (:func:`family_name`): ``single``, ``whip``, ``braid``, ``subset`` (its kind
        in :attr:`subset`), ``biv-chain``...; the rule name if unknown."""
        return family_name(self.rule)

    @property
    def length(self) -> int:
        """The step's length: n for whip[n] / braid[n], p for a Subset of size p, 0 for a Single."""
        return self.level

    @property
    def targets(self) -> tuple[Candidate, ...]:
        """The candidates the step eliminates (what a chain or Subset is *for*); empty for a Single."""
        return self.eliminations

    def to_dict(self) -> dict[str, Any]:
        """The step as JSON-ready data: ``rule, family, length, text``, the ``eliminations`` and
        ``assertions`` as candidate names (``n5r3c7``), a chain as ``[variable, left-linking,
        right-linking]`` triples (``right`` null for the last cell), a Subset's pattern fields."""
        data: dict[str, Any] = {"rule": self.rule, "family": self.family, "length": self.length, "text": self.text(),
                                "eliminations": [str(c) for c in self.eliminations],
                                "assertions": [str(c) for c in self.assertions]}
        if self.chain:
            data["chain"] = [list(cell.triple()) for cell in self.chain]
        if self.subset is not None:
            pattern = self.subset
            data["subset"] = {"family": pattern.family, "unit_kind": pattern.unit_kind, "unit": pattern.unit,
                              "cells": list(pattern.cells), "digits": list(pattern.digits),
                              "bases": list(pattern.bases), "covers": list(pattern.covers)}
        if self.context is not None:
            data["context"] = {"hypothesis": str(self.context.hypothesis),
                               "contradiction": self.context.contradiction.name,
                               "steps": [step.to_dict() for step in self.context.steps]}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Step":
        """The step that :meth:`to_dict` described (``text`` and ``family`` are derived, not read)."""
        subset = data.get("subset")
        context = data.get("context")
        return cls(
            rule=data["rule"], level=int(data["length"]),
            eliminations=tuple(Candidate.parse(c) for c in data.get("eliminations", ())),
            assertions=tuple(Candidate.parse(c) for c in data.get("assertions", ())),
            chain=tuple(ChainCell.from_triple(t) for t in data.get("chain", ())),
            subset=None if subset is None else SubsetPattern(
                subset["family"], subset["unit_kind"], int(subset["unit"]), tuple(subset.get("cells", ())),
                tuple(subset.get("digits", ())), tuple(subset.get("bases", ())), tuple(subset.get("covers", ()))),
            context=None if context is None else Context(
                Candidate.parse(context["hypothesis"]), tuple(cls.from_dict(step) for step in context["steps"]),
                CspVariable.parse(context["contradiction"])))

    def __str__(self) -> str:
        """The printed line (:meth:`text`): ``print(step)`` shows what ``sudorules solve`` prints."""
        return self.text()

    def text(self) -> str:
        """The printed line, in SudoRules' notation (SPEC §6)."""
        if self.assertions and not self.eliminations:
            return f"{self.rule} ==> " + ", ".join(_assertion(c) for c in self.assertions)
        targets = ", ".join(_elimination(c) for c in self.eliminations)
        if self.chain:
            body = " - ".join(cell.text() for cell in self.chain)
            return f"{self.rule}[{self.level}]: {body} ==> {targets}"
        if self.subset is not None:
            return f"{self.rule}: {self.subset.text()} ==> {targets}"
        if self.context is not None:
            return (f"{self.rule}: {_assertion(self.context.hypothesis)} ==> no candidate for "
                    f"{self.context.contradiction.cell_name} ==> {targets}")
        return f"{self.rule} ==> {targets}"


#: The path printer (:func:`sudorules.resolution.path.format_path`), set by that module when it is
#: imported (the package imports it): the printer reads this module, so this one does not import it back.
_PRINTER: list[Callable[["Resolution", Puzzle], str]] = []


def _elimination(candidate: Candidate) -> str:
    return f"r{candidate.row}c{candidate.column}\u2260{candidate.digit}"


def _assertion(candidate: Candidate) -> str:
    return f"r{candidate.row}c{candidate.column}={candidate.digit}"


#: the theories whose rating is the p of their T&E(B_p, n) steps (SPEC §10.3)
B_P_THEORIES = ("BxB", "BxBB")


@dataclass
class Resolution:
    """The outcome of running a theory on a puzzle.

    ``status`` is ``solved``, ``not-solved`` (the theory is too weak: the final state still has
    candidates), ``contradiction`` (some CSP variable lost all its candidates: invalid puzzle),
    ``timeout``, or ``invalid`` (a record of a file or list given to :func:`sudorules.solve` that is
    no puzzle or has no or several solutions: ``error`` says why; no rule was run).  ``rating`` is
    the largest step level when solved, else None.  ``values`` holds the 81 decided digits (0 where
    undecided) and ``candidates`` the remaining candidates of each undecided cell.

    ``str(resolution)`` is the path as ``sudorules solve`` prints it (``print(resolution)``).
    """

    puzzle: object
    theory: str
    max_length: int
    steps: list[Step] = field(default_factory=list)
    status: Status = Status.NOT_SOLVED  #: a name given (e.g. "solved") becomes the member
    values: tuple[int, ...] = ()
    candidates: dict[int, frozenset[int]] = field(default_factory=dict)
    candidates_after_singles: Optional[int] = None  #: candidates when BRT first stops (0 if solved by it)
    links_after_singles: Optional[int] = None  #: csp-links at that point (SPEC §6.3)
    candidates_after_whips1: Optional[int] = None  #: candidates when BRT + whips[1] first stop (0 if solved)
    #: how long the run took: not compared (two runs of one puzzle are the same resolution, and a JSON
    #: round trip, which keeps microseconds, gave an unequal one: helper-43)
    seconds: float = field(default=0.0, compare=False)
    contradiction: Optional[str] = None  #: e.g. "RC-CELL r4c5" when status is contradiction
    #: why the record is invalid (status invalid), e.g. "line 3: several solutions", or why the run
    #: stopped (status memory: "memory limit of 2048 MiB reached")
    error: Optional[str] = None
    #: the puzzle's number among those of its file or list (1, 2, ...: ``solve`` prints ``PUZZLE 2``), and
    #: the line it starts on; None for a puzzle given alone (printed as ``PUZZLE 0``)
    number: Optional[int] = None
    line: Optional[int] = None

    def __post_init__(self) -> None:
        # a name is the enum's member, whoever made the resolution: status.value, .name, isinstance
        # hold for every one (sudorules.solve's invalid records had the bare str)
        self.status = Status(self.status)

    def __str__(self) -> str:
        """The printed path (the puzzle numbered 0, as a puzzle given alone), or the reason an
        invalid record was not solved."""
        if self.status == Status.INVALID:
            return f"{self.puzzle}: {self.error}"
        puzzle = self.puzzle if isinstance(self.puzzle, Puzzle) else Puzzle.from_string(str(self.puzzle))
        return _PRINTER[0](self, puzzle, self.number or 0).rstrip("\n")

    @property
    def solved(self) -> bool:
        """True when every cell was decided."""
        return self.status == "solved"

    @property
    def rating(self) -> Optional[int]:
        """The hardest step's level when solved (0 when Singles suffice), else None.  Under BxB and BxBB
        (SPEC §10.3) the largest p of the T&E(B_p, n) steps, and None for a puzzle solved before them (a
        lower T&E-depth: its classification is its depth and B, not a BxB): the T&E(n) steps' levels
        are depths, not values of p (a depth-1 puzzle printed "BxB = 1")."""
        if not self.solved:
            return None
        if str(self.theory) in B_P_THEORIES:
            return max((te[1] for te in map(te_rule, (step.rule for step in self.steps)) if te and te[1]),
                       default=None)
        return max((step.level for step in self.steps), default=0)

    @property
    def te_depth(self) -> int:
        """The deepest T&E(n) step's n (0 if none): under BxB and BxBB, the T&E-depth of a puzzle solved
        before any T&E(B_p, n) step."""
        return max((te[0] for te in map(te_rule, (step.rule for step in self.steps)) if te and not te[1]),
                   default=0)

    @property
    def solution(self) -> Optional[str]:
        """The 81 digits of the solution when solved, else None."""
        return "".join(map(str, self.values)) if self.solved and self.values else None

    def raise_for_status(self) -> "Resolution":
        """Return ``self`` when solved; otherwise raise the matching :class:`SudorulesError`
        (:class:`TimeLimitError`, :class:`MemoryLimitError`, :class:`NotSolvedError`, :class:`InvalidPuzzleError`), as
        ``requests`` does for HTTP errors."""
        if self.status == Status.INVALID:
            raise InvalidPuzzleError(self.puzzle, self.error or "invalid")
        if self.status == "timeout":
            raise TimeLimitError(f"{self.puzzle}: time limit reached after {self.seconds:.2f} s under {self.theory}")
        if self.status == "memory":
            raise MemoryLimitError(f"{self.puzzle}: memory limit reached after {self.seconds:.2f} s under {self.theory}")
        if not self.solved:
            raise NotSolvedError(f"{self.puzzle}: {self.status} under {self.theory}"
                                 + (f" ({self.contradiction})" if self.contradiction else ""))
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``number, line`` (when known), ``puzzle, theory, status, rating, solution,
        seconds``, the counts after Singles and whips[1], and ``steps`` (see :meth:`Step.to_dict`)."""
        where = {name: value for name, value in (("number", self.number), ("line", self.line)) if value is not None}
        return where | {"puzzle": str(self.puzzle), "theory": str(self.theory), "max_length": self.max_length,
                "status": str(self.status), "rating": self.rating, "solution": self.solution,
                "seconds": round(self.seconds, 6), "contradiction": self.contradiction,
                "candidates_after_singles": self.candidates_after_singles,
                "links_after_singles": self.links_after_singles,
                "candidates_after_whips1": self.candidates_after_whips1,
                "steps": [step.to_dict() for step in self.steps]} | ({"error": self.error} if self.error else {})

    def to_json(self, **dumps: Any) -> str:
        """:meth:`to_dict` as one line of JSON (non-ASCII kept: ``≠``)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, **dumps)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Resolution":
        """The resolution that :meth:`to_dict` described (remaining candidates are not kept)."""
        solution = data.get("solution")
        invalid = data["status"] == Status.INVALID  # its puzzle is the raw text of the record
        return cls(puzzle=data["puzzle"] if invalid else Puzzle.from_string(data["puzzle"]), theory=Theory.of(data["theory"]),
                   max_length=int(data.get("max_length", 36)),
                   steps=[Step.from_dict(step) for step in data.get("steps", ())],
                   status=Status(data["status"]),
                   values=tuple(int(d) for d in solution) if solution else (),
                   candidates_after_singles=data.get("candidates_after_singles"),
                   links_after_singles=data.get("links_after_singles"),
                   candidates_after_whips1=data.get("candidates_after_whips1"),
                   seconds=float(data.get("seconds", 0.0)), contradiction=data.get("contradiction"),
                   error=data.get("error"), number=data.get("number"), line=data.get("line"))

    @classmethod
    def from_json(cls, text: str) -> "Resolution":
        """The inverse of :meth:`to_json` (a line of ``solve --format json`` too); a
        :class:`~sudorules.errors.NotationError` (a ValueError) ``not a resolution's JSON: ...`` for
        anything else: no JSON at all, JSON of another shape, not a text."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as error:  # "xx", bytes; None, a number; '[' * 10**5
            raise NotationError(f"not a resolution's JSON: {type(error).__name__}: {error}") from None
        if not isinstance(data, dict):
            raise NotationError(f"not a resolution's JSON: an object was expected, not {type(data).__name__}")
        try:
            return cls.from_dict(data)
        except (KeyError, TypeError, AttributeError, ValueError, RecursionError) as error:
            # a field missing or of another shape, or a value out of its range ("status": "weird", a bad
            # label, an unknown theory: ValueErrors, PuzzleError and OptionError among them; helper-40)
            raise NotationError(f"not a resolution's JSON: {type(error).__name__}: {error}") from None

