"""Checking a puzzle with the compiled core before the rule engine sees it.

The rules are sound and never assume uniqueness, so a puzzle with no or several solutions would only
end "not solved"; we reject it up front with a clear reason instead (SPEC §9.13).
"""

from __future__ import annotations

from typing import Optional

from .puzzle import Puzzle


def uniqueness_problem(puzzle: Puzzle) -> tuple[Optional[str], Optional[tuple[int, ...]]]:
    """``(reason, solution)``: reason is None for a puzzle with exactly one solution, which is returned.

    Otherwise reason is ``no solution`` or ``several solutions`` and the solution is None.
    """
    from . import core

    count, solution = core.solution_status(puzzle)
    if count == 0:
        return "no solution", None
    if count > 1:
        return "several solutions", None
    return None, tuple(solution)
