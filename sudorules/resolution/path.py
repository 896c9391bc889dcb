"""Printing a resolution path the way SudoRules prints it (SPEC §6.3), from a :class:`Resolution`.

The intermediate resolution states ("after Singles", "after Singles and whips[1]") are recomputed by
replaying the steps on a plain :class:`ResolutionState`, so the printer needs nothing from the engine
but the steps.
"""

from __future__ import annotations

from typing import Iterator, Optional

from ..enums import Theory
from ..puzzle import Puzzle, format_grid
from .families import WHIPS, WHIPS1, family_of, theory_spec
from .state import ResolutionState
from . import steps
from .steps import Resolution, Step


def density(candidates: int, links: int) -> float:
    """SudoRules' link density in percent: 200·L / (K·(K−1)), rounded to 2 decimals, and printed as
    CLIPS prints that float (``7.7``, not ``7.70``: cb-001 line 1309's SudoRules path; Python's repr
    of a float is its shortest form, as CLIPS's ``%.15g``, both keeping a ``.0``)."""
    if candidates < 2:
        return 0.0
    return round(200.0 * links / (candidates * (candidates - 1)), 2)


def most_complex_rule(resolution: Resolution) -> str:
    """The label SudoRules prints after ``MOST COMPLEX RULE TRIED =``, e.g. ``W[5]``, ``B[4]``,
    ``BC[3]``, ``SHP``, ``FSHT``, ``HS``: at the hardest level of the path, the family tried last
    there (the highest rank, SPEC §5.3), which is the last one SudoRules activated."""
    steps = resolution.steps
    if not steps:
        return "BRT"
    hardest = max(step.level for step in steps)
    families = [f for f in (family_of(s) for s in steps if s.level == hardest) if f is not None]
    if not families:
        return f"S[{hardest}]"
    family = max(families, key=lambda f: f.rank)
    return family.label(steps, hardest) if family.label else f"{family.letter}[{hardest}]"


def rating_type(theory: str) -> str:
    """SudoRules' ``rating-type`` of a theory (``W``, ``W+SFin``, ``BC``...: :attr:`Theory.label`)."""
    return Theory.of(theory).label


def _apply(state: ResolutionState, step: Step) -> None:
    state.eliminate_all(step.eliminations)
    for candidate in step.assertions:
        state.assert_value(candidate)


def path_lines(resolution: Resolution, puzzle: Optional[Puzzle] = None, number: int = 0,
               brief: bool = False) -> Iterator[str]:
    """The lines of the printed path: puzzle, counts, steps with the intermediate states, the end.

    ``number`` is the puzzle's number in the ``PUZZLE n IS SOLVED`` line: SudoRules prints 0 for a
    puzzle given alone and the puzzle's rank for a puzzle read from a file.  A T&E step is followed by
    its context, indented (its hypothesis' own path down to the contradiction), unless ``brief``."""
    puzzle = puzzle if puzzle is not None else resolution.puzzle
    state = ResolutionState(puzzle)
    families = theory_spec(resolution.theory).families
    with_whips = WHIPS in families or WHIPS1 in families  # else no "after whips[1]" state
    yield str(puzzle)
    yield f"{puzzle.clues} givens, {state.candidate_count()} candidates"
    singles_done = whips1_done = False
    for step in resolution.steps:
        if not singles_done and step.level >= 1:
            singles_done = True
            candidates, links = state.candidate_count(), state.csp_link_count()
            yield "Resolution state after Singles:"
            yield from state.grid_text().splitlines()
            yield f"{candidates} candidates, {links} csp-links and {links} links. Density = {density(candidates, links)!r}%"
            yield "Starting non trivial part of solution."
        if not whips1_done and step.level >= 2 and with_whips:
            whips1_done = True
            yield ""
            yield "Resolution state after Singles and whips[1]:"
            yield from state.grid_text().splitlines()
            yield f"{state.candidate_count()} candidates."
            yield ""
        yield step.text()
        if step.context is not None and not brief:
            yield from step.context.lines()
        _apply(state, step)
    yield from _ending(resolution, state, number)


def solved_line(resolution: Resolution, number: int = 0) -> str:
    """``PUZZLE 1 IS SOLVED. rating-type = W, MOST COMPLEX RULE TRIED = W[2]`` (the path, the viewer)."""
    return (f"PUZZLE {number} IS SOLVED. rating-type = {rating_type(resolution.theory)}, "
            f"MOST COMPLEX RULE TRIED = {most_complex_rule(resolution)}")


def rating_line(resolution: Resolution) -> str:
    """The rating of a solved path under its rating-type's name (``W = 2``, ``Z+tW+SFin = 4``, the
    name the line above gives it: the canonical theory name reordered and dropped parts, ``SFin+Z+tW``),
    or why BxB (BxBB) does not apply to a puzzle of a lower T&E-depth."""
    theory = resolution.theory
    if resolution.rating is None:  # BxB, BxBB: solved at a lower T&E-depth, where they do not apply
        return f"{theory} does not apply: T&E-depth {resolution.te_depth} (no T&E(B_p, n) step)"
    return f"{theory_spec(theory).rating_name or rating_type(theory)} = {resolution.rating}"


def _ending(resolution: Resolution, state: ResolutionState, number: int = 0) -> Iterator[str]:
    if resolution.status == "solved":
        yield solved_line(resolution, number)
        yield format_grid([str(v) for v in state.values])
        yield rating_line(resolution)
    elif resolution.status == "contradiction":
        yield f"PUZZLE {number} HAS NO SOLUTION : NO CANDIDATE FOR {resolution.contradiction}"
    else:
        if resolution.status == "timeout":
            yield f"TIME LIMIT REACHED after {resolution.seconds:.2f}s."
        elif resolution.status == "memory":
            yield f"MEMORY LIMIT REACHED after {resolution.seconds:.2f}s."
        yield f"PUZZLE {number} IS NOT SOLVED. {state.missing_values()} VALUES MISSING."
        yield "Final resolution state:"
        yield from state.grid_text().splitlines()
        yield f"{state.candidate_count()} candidates."


def format_path(resolution: Resolution, puzzle: Optional[Puzzle] = None, number: int = 0, brief: bool = False) -> str:
    """The whole printed path as one string (lines joined by newlines, final newline included)."""
    return "\n".join(path_lines(resolution, puzzle, number, brief)) + "\n"


steps._PRINTER[:] = [format_path]  # str(resolution) prints its path (see steps._PRINTER)
