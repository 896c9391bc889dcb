"""Reading SudoRules' printed notation (SPEC §6) back into :class:`~sudorules.steps.Step` objects.

Used to verify paths printed by SudoRules itself (or by us) with :mod:`sudorules.resolution.verify`.  Both the
current form ``r2c1≠6`` and the older spaced form ``r2c1 ≠ 6`` are accepted.  Each family's own parser
lives in :mod:`.lines`; :func:`parse_step` asks the registry which one a line is.
"""

from __future__ import annotations

import re

from ..reader import parse_puzzle
from .families import FAMILIES
from .lines import NotationError, is_step_line, parse_chain_cell, te_end
from .steps import Context, Step

__all__ = ["NotationError", "is_step_line", "parse_chain_cell", "parse_step", "read_path"]


def parse_step(line: str) -> Step:
    """Parse one printed rule application into a Step: the parser of the family whose line it is
    (:mod:`sudorules.resolution.families`)."""
    for family in FAMILIES:
        step = family.parse(line)
        if step is not None:
            return step
    raise NotationError(f"not a rule application: {line.strip()!r}")


#: The line that ends a path, ours and SudoRules': "PUZZLE 1 IS SOLVED. ...", "PUZZLE 0 IS NOT SOLVED. ..."
_END = re.compile(r"PUZZLE \d+ IS ")


def read_path(text: str):
    """The puzzle and the steps of a printed resolution path (SudoRules' console output or ours).

    The puzzle is the first line made of exactly 81 grid characters (729 for a pencilmark puzzle, as
    ``solve`` prints one); the steps are every line that
    prints a rule application, in order.  A T&E step's context is the lines indented under it, down
    to its ``contradiction: no candidate for ...`` line (contexts nest); a T&E line with nothing
    indented under it (``solve --brief``) keeps an empty context.  Returns ``(puzzle, steps)``.  The
    text of several paths (``solve FILE``'s) is a :class:`NotationError` naming the second puzzle's line,
    and so is anything but a text (``read_path(None)`` was an AttributeError, bytes a TypeError:
    helper-43).
    """
    if not isinstance(text, str):
        raise NotationError(f"read_path reads the text of a printed path (a str), not {type(text).__name__}"
                            + (": decode the bytes first" if isinstance(text, (bytes, bytearray)) else ""))
    puzzle = None
    ended = 0  # the line of the path's "PUZZLE n IS ..." line, once read
    top: list[Step] = []
    open_contexts: list[tuple[int, Step, list[Step]]] = []  # (indent of the T&E line, its step, context steps)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.replace("CLIPS> ", "")
        indent = len(line) - len(line.lstrip(" "))
        line = line.strip()
        if re.fullmatch(r"[0-9.]{81}", line) or re.fullmatch(r"[0-9.]{729}", line):
            if puzzle is None:
                puzzle = parse_puzzle(line)
                continue
            if ended or top or open_contexts:
                # the output of `solve FILE`: its paths were read as one (630 steps of 6 puzzles); a
                # first path without its end line (a run stopped) too (helper-40)
                first = f"the first one ends at line {ended}" if ended else "after the first one's steps"
                raise NotationError(f"line {number}: a second puzzle's path ({first}); give one path at a time")
        if _END.match(line):
            ended = ended or number
            continue
        end = te_end(line)
        if end and open_contexts and indent > open_contexts[-1][0]:
            _, step, inner = open_contexts.pop()
            closed = Step(step.rule, step.level, step.eliminations,
                          context=Context(step.context.hypothesis, tuple(inner), step.context.contradiction))
            (open_contexts[-1][2] if open_contexts else top).append(closed)
            continue
        if not is_step_line(line):
            continue
        if ended:  # a step past the path's end line was taken into it (helper-40)
            raise NotationError(f"line {number}: a step after the path's end (line {ended}); give one path at a time")
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
        raise NotationError("no puzzle line (81 grid characters, or 729 for pencilmarks) in the path")
    return puzzle, top
