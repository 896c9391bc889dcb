"""A resolution state (SPEC §1.1): the decided values and the remaining candidates, in plain Python.

This is the model the independent checker and the path printer replay steps on; it knows nothing of
the CLIPS rules.  ECP is applied eagerly: asserting a value removes every candidate linked to it.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..puzzle import CELLS, PEERS, Candidate, Puzzle, format_grid
from .steps import CspVariable, VARIABLE_KINDS


class ResolutionState:
    """Values and candidates of a puzzle being solved.

    ``values[cell]`` is the decided digit (0 if undecided); ``candidates[cell]`` the set of digits still
    possible in an undecided cell (empty for a decided one).  Initial candidates are the digits not
    linked to any given (SPEC §1.4).
    """

    def __init__(self, puzzle: Puzzle):
        self.values = list(puzzle.givens)
        self.candidates: list[set[int]] = [set() for _ in CELLS]
        for cell, digits in puzzle.candidates().items():
            self.candidates[cell] = set(digits)

    def copy(self) -> "ResolutionState":
        """An independent copy (a T&E context starts from one)."""
        other = object.__new__(ResolutionState)
        other.values = list(self.values)
        other.candidates = [set(digits) for digits in self.candidates]
        return other

    # -- queries -------------------------------------------------------------------------------
    def is_candidate(self, candidate: Candidate) -> bool:
        """True when the label is a current candidate (not a value, not eliminated)."""
        return candidate.digit in self.candidates[candidate.cell]

    def candidates_of(self, variable: CspVariable) -> list[Candidate]:
        """The current candidates of a CSP variable."""
        return [label for label in variable.labels() if self.is_candidate(label)]

    def has_value(self, variable: CspVariable) -> bool:
        """True when one of the variable's labels is a decided value."""
        return any(self.values[label.cell] == label.digit for label in variable.labels())

    def candidate_count(self) -> int:
        """The number of current candidates."""
        return sum(len(digits) for digits in self.candidates)

    def all_candidates(self) -> list[Candidate]:
        """Every current candidate, by cell then digit."""
        return [Candidate.of(d, cell) for cell in CELLS for d in sorted(self.candidates[cell])]

    def csp_link_count(self) -> int:
        """Number of (unordered candidate pair, CSP variable) csp-links among current candidates."""
        total = 0
        for kind in VARIABLE_KINDS:
            for first in range(1, 10):
                for second in range(1, 10):
                    k = len(self.candidates_of(CspVariable(kind, first, second)))
                    total += k * (k - 1) // 2
        return total

    def is_solved(self) -> bool:
        """True when all 81 cells are decided."""
        return all(self.values)

    def empty_variable(self) -> Optional[CspVariable]:
        """A CSP variable with neither a value nor a candidate (a contradiction), or None."""
        for kind in VARIABLE_KINDS:
            for first in range(1, 10):
                for second in range(1, 10):
                    variable = CspVariable(kind, first, second)
                    if not self.has_value(variable) and not self.candidates_of(variable):
                        return variable
        return None

    # -- changes -------------------------------------------------------------------------------
    def eliminate(self, candidate: Candidate) -> None:
        """Remove a candidate; it must be a current candidate."""
        if not self.is_candidate(candidate):
            raise ValueError(f"{candidate} is not a candidate")
        self.candidates[candidate.cell].discard(candidate.digit)

    def assert_value(self, candidate: Candidate) -> None:
        """Make a candidate a value and apply ECP (remove every candidate linked to it)."""
        if not self.is_candidate(candidate):
            raise ValueError(f"{candidate} is not a candidate")
        cell, digit = candidate.cell, candidate.digit
        self.values[cell] = digit
        self.candidates[cell] = set()
        for peer in PEERS[cell]:
            self.candidates[peer].discard(digit)

    def eliminate_all(self, candidates: Iterable[Candidate]) -> None:
        """Remove several candidates."""
        for candidate in candidates:
            self.eliminate(candidate)

    # -- display -------------------------------------------------------------------------------
    def grid_text(self) -> str:
        """The candidate grid as SudoRules prints it: values as one digit, candidates concatenated."""
        texts = [str(self.values[cell]) if self.values[cell]
                 else "".join(str(d) for d in sorted(self.candidates[cell])) or "-"
                 for cell in CELLS]
        return format_grid(texts)

    def missing_values(self) -> int:
        """The number of undecided cells."""
        return sum(1 for v in self.values if not v)

