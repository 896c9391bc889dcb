"""Reading SudoRules' printed notation (SPEC §6) back into :class:`~sudorules.steps.Step` objects.

Used to verify paths printed by SudoRules itself (or by us) with :mod:`sudorules.resolution.verify`.  Both the
current form ``r2c1≠6`` and the older spaced form ``r2c1 ≠ 6`` are accepted.  Each family's own parser
lives in :mod:`.lines`; :func:`parse_step` asks the registry which one a line is.
"""

from __future__ import annotations

import re

from ..reader import parse_puzzle
from .families import FAMILIES
from .lines import NotationError, is_step_line, parse_chain_cell
from .steps import Step

__all__ = ["NotationError", "is_step_line", "parse_chain_cell", "parse_step", "read_path"]


def parse_step(line: str) -> Step:
    """Parse one printed rule application into a Step: the parser of the family whose line it is
    (:mod:`sudorules.resolution.families`)."""
    for family in FAMILIES:
        step = family.parse(line)
        if step is not None:
            return step
    raise NotationError(f"not a rule application: {line.strip()!r}")


def read_path(text: str):
    """The puzzle and the steps of a printed resolution path (SudoRules' console output or ours).

    The puzzle is the first line made of exactly 81 grid characters; the steps are every line that
    prints a rule application, in order.  Returns ``(puzzle, steps)``.
    """
    puzzle = None
    steps = []
    for raw in text.splitlines():
        line = raw.replace("CLIPS> ", "").strip()
        if puzzle is None and re.fullmatch(r"[0-9.]{81}", line):
            puzzle = parse_puzzle(line)
        elif is_step_line(line):
            steps.append(parse_step(line))
    if puzzle is None:
        raise NotationError("no puzzle line (81 grid characters) in the path")
    return puzzle, steps
