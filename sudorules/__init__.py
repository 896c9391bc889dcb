"""sudorules: solve Sudoku puzzles by resolution rules, rate them (W, B), generate and study minimal puzzles.

A few functions cover most uses (README "Python API"):

* :func:`solve` - one puzzle, a theory, a :class:`Resolution` (steps in SudoRules' notation, rating);
* :func:`rate`, :func:`classify` and :func:`check` - many puzzles, a pandas table like ``sudorules rate`` /
  ``classify`` / ``check``;
* :func:`generate_puzzles` and :func:`count_minimals` - the controlled-bias papers' generators and
  the estimate of the number of minimal puzzles;
* :func:`canonical` and :func:`automorphisms` - canonical (minlex) forms, for isomorph removal.

The types they speak: :class:`Puzzle`, :class:`Candidate`, :class:`Resolution` and its
:class:`Step` objects, the enums :class:`Theory` and :class:`Status`, and one error base,
:class:`SudorulesError`.  The compiled bitset solver is :mod:`sudorules.core`.

The names are loaded on first use (PEP 562): ``import sudorules`` itself imports nothing heavy, so
that the ``sudorules`` command can guard its start-up against Ctrl-C before pandas, numpy and the
rule engine are imported (``sudorules.__main__``); the first attribute asked for loads them all.
"""


from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Candidate", "ChainCell", "CspVariable", "EngineError", "InputError", "Interrupted", "InvalidPuzzleError",
    "MemoryLimitError", "NotSolvedError", "NotationError", "OptionError", "OutputError", "Puzzle", "PuzzleError", "PuzzleRecord", "Resolution", "Solver",
    "Status", "Step", "SudorulesError", "Theory", "TimeLimitError", "automorphisms", "canonical", "check", "classify",
    "count_minimals", "generate_puzzles", "parse_puzzle", "rate", "read_path", "read_puzzle_file", "read_puzzles",
    "solve",
]

if TYPE_CHECKING:  # what _load() binds, for type checkers and editors
    from .api import check, classify, rate, solve
    from .engine.solver import Solver
    from .enums import Status, Theory
    from .errors import (EngineError, InputError, Interrupted, InvalidPuzzleError, MemoryLimitError, NotationError,
                         NotSolvedError, OptionError, OutputError, PuzzleError, SudorulesError, TimeLimitError)
    from .generation.canonical import automorphisms, canonical
    from .generation.count import count_minimals
    from .generation.generate import generate_frame as generate_puzzles
    from .puzzle import Candidate, Puzzle
    from .reader import PuzzleRecord, parse_puzzle, read_puzzle_file, read_puzzles
    from .resolution.notation import read_path
    from .resolution.steps import ChainCell, CspVariable, Resolution, Step


def _load() -> None:
    """Bind the public names (and the submodules they come from) in this package."""
    from .api import check, classify, rate, solve
    from .engine.solver import Solver
    from .enums import Status, Theory
    from .errors import (EngineError, InputError, Interrupted, InvalidPuzzleError, MemoryLimitError, NotationError,
                         NotSolvedError, OptionError, OutputError, PuzzleError, SudorulesError, TimeLimitError)
    from .generation.canonical import automorphisms, canonical, canonicalize
    from .generation.count import count_minimals
    from .generation.generate import generate_frame as generate_puzzles
    from .puzzle import Candidate, Puzzle
    from .reader import PuzzleRecord, parse_puzzle, read_puzzle_file, read_puzzles
    from .resolution.notation import read_path
    from .resolution.steps import ChainCell, CspVariable, Resolution, Step

    # Notebooks show a Puzzle as its grid and a Resolution as the step viewer (sudorules.draw).  Attached
    # here, at the API layer, so that puzzle.py and steps.py need not import the drawing code above them.
    from .draw import puzzle_svg, resolution_html

    Puzzle._repr_svg_ = puzzle_svg  # type: ignore[attr-defined]
    Resolution._repr_html_ = resolution_html  # type: ignore[attr-defined]

    def canonical_form(self: Puzzle) -> Puzzle:
        """The canonical (minlex) form of this puzzle, grid or pencilmark puzzle: equivalent puzzles
        have the same (:mod:`sudorules.generation.canonical`, README "Canonical forms")."""
        return canonicalize(self).form

    # Puzzle.canonical() is attached here for the same reason: the compiled forms sit above puzzle.py.
    Puzzle.canonical = canonical_form  # type: ignore[attr-defined]
    names = locals()
    globals().update({name: names[name] for name in __all__})


def __getattr__(name: str) -> Any:
    """A public name (loading them all on first use) or a submodule (``sudorules.core``...)."""
    if name.startswith("__"):
        raise AttributeError(name)
    if name in __all__:
        _load()
        return globals()[name]
    import importlib

    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    return module


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
