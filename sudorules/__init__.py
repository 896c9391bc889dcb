"""sudorules: solve Sudoku puzzles by resolution rules, rate them (W, B), generate and study minimal puzzles.

A few functions cover most uses (README "Python API"):

* :func:`solve` - one puzzle, a theory, a :class:`Resolution` (steps in SudoRules' notation, rating);
* :func:`rate` and :func:`check` - many puzzles, a pandas table like ``sudorules rate`` / ``check``;
* :func:`generate_puzzles` and :func:`count_minimals` - the controlled-bias papers' generators and
  the estimate of the number of minimal puzzles;
* :func:`canonical` and :func:`automorphisms` - canonical (minlex) forms, for isomorph removal.

The types they speak: :class:`Puzzle`, :class:`Candidate`, :class:`Resolution` and its
:class:`Step` objects, the enums :class:`Theory` and :class:`Status`, and one error base,
:class:`SudorulesError`.  The compiled bitset solver is :mod:`sudorules.core`.
"""

from .api import check, rate, solve
from .generation.count import count_minimals
from .enums import Status, Theory
from .errors import (EngineError, InputError, Interrupted, InvalidPuzzleError, NotSolvedError, OutputError,
                     SudorulesError, TimeLimitError)
from .generation.generate import generate_frame as generate_puzzles
from .generation.canonical import automorphisms, canonical, canonicalize as _canonicalize
from .puzzle import Candidate, Puzzle, PuzzleError
from .reader import PuzzleRecord, parse_puzzle, read_puzzle_file, read_puzzles
from .engine.solver import Solver
from .resolution.steps import ChainCell, CspVariable, Resolution, Step

__all__ = [
    "Candidate", "ChainCell", "CspVariable", "EngineError", "InputError", "Interrupted", "InvalidPuzzleError",
    "NotSolvedError", "OutputError", "Puzzle", "PuzzleError", "PuzzleRecord", "Resolution", "Solver", "Status",
    "Step", "SudorulesError", "Theory", "TimeLimitError", "automorphisms", "canonical", "check", "count_minimals",
    "generate_puzzles",
    "parse_puzzle", "rate", "read_puzzle_file", "read_puzzles", "solve",
]
__version__ = "0.1.0"

# Notebooks show a Puzzle as its grid and a Resolution as the step viewer (sudorules.draw).  Attached
# here, at the API layer, so that puzzle.py and steps.py need not import the drawing code above them.
from .draw import puzzle_svg as _puzzle_svg, resolution_html as _resolution_html  # noqa: E402

Puzzle._repr_svg_ = _puzzle_svg  # type: ignore[attr-defined]
Resolution._repr_html_ = _resolution_html  # type: ignore[attr-defined]


def _canonical_form(self: Puzzle) -> Puzzle:
    """The canonical (minlex) form of this puzzle, grid or pencilmark puzzle: equivalent puzzles have
    the same (:mod:`sudorules.generation.canonical`, README "Canonical forms")."""
    return _canonicalize(self).form


# Puzzle.canonical() is attached here for the same reason: the compiled forms sit above puzzle.py.
Puzzle.canonical = _canonical_form  # type: ignore[attr-defined]
