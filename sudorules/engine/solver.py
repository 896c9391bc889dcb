"""Check, then solve: the one place where a puzzle meets the rule engine.

A :class:`Solver` first asks the compiled core whether the puzzle has exactly one solution (no or
several solutions: :class:`~sudorules.errors.InvalidPuzzleError`), then runs the rules of a theory
on it, handing the engine the known solution (no partial chain is ever built on a true candidate,
which only spares work: the eliminations are the same).  It keeps one
:class:`~sudorules.engine.Engine` per theory, built on first use, because loading a theory's rules
costs 0.1 to 1 s and a puzzle often costs less.  ``sudorules solve``, the batch rater and
:func:`sudorules.solve` all go through it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Optional, Sequence, Union

from ..enums import Theory
from ..errors import InvalidPuzzleError
from ..puzzle import Puzzle, as_puzzle
from .schedule import LEAN_BRAIDS_FROM

if TYPE_CHECKING:
    from .driver import Engine
    from ..resolution.steps import Resolution

PuzzleLike = Union[Puzzle, str]


def unique_solution(puzzle: PuzzleLike) -> tuple[int, ...]:
    """The 81 digits of the puzzle's unique solution; :class:`InvalidPuzzleError` when it has no
    solution or several."""
    from .. import core

    puzzle = as_puzzle(puzzle)
    count, solution = core.solution_status(puzzle)
    if count == 0:  # the first conflict if there is one (a digit twice, a cell with no candidate) says why
        raise InvalidPuzzleError(puzzle, (puzzle.conflicts() or ["no solution"])[0])
    if count > 1:
        raise InvalidPuzzleError(puzzle, "several solutions")
    return tuple(solution)


class Solver:
    """Engines for any theory, built once each; :meth:`solve` checks the puzzle first.

    ``max_length`` caps whips and braids (1..36), ``lean_braids_from`` is the B theory's memory
    setting (see :class:`~sudorules.engine.Engine`).  Usable as a context manager, which frees the
    engines at the end.  One thread at a time runs the rules of a solver: calls from other threads
    wait (a CLIPS environment is not for two threads at once); give each thread its own solver to
    run them in parallel, as :func:`sudorules.solve` does."""

    def __init__(self, *, max_length: int = 36, lean_braids_from: int = LEAN_BRAIDS_FROM):
        self.max_length = max_length
        self.lean_braids_from = lean_braids_from
        self._engines: dict[Theory, "Engine"] = {}
        #: optional callable(level) given to every engine: run when a level is switched on
        self.level_hook = None
        self._running = threading.Lock()  # one thread in the rules at a time (the class docstring)

    def engine(self, theory: Union[Theory, str]) -> "Engine":
        """The engine of ``theory``, loading its rules on first use."""
        from .driver import Engine
        from ..resolution.families import theory_spec

        theory = Theory.of(theory)
        if theory_spec(theory).engine != "rules":
            raise ValueError(f"{theory} runs on the compiled T&E engine, not on rules: use Solver.solve")
        if theory not in self._engines:
            engine = Engine(theory=theory.value, max_length=self.max_length, lean_braids_from=self.lean_braids_from)
            engine.level_hook = lambda level: self.level_hook(level) if self.level_hook is not None else None
            self._engines[theory] = engine
        return self._engines[theory]

    def solve(self, puzzle: PuzzleLike, theory: Union[Theory, str] = Theory.W, *,
              time_limit: Optional[float] = None, solution: Optional[Sequence[int]] = None,
              memory_limit: Optional[int] = None) -> "Resolution":
        """Check ``puzzle`` (unless its unique ``solution`` is given, from :func:`unique_solution`),
        then run ``theory`` on it; the :class:`~sudorules.steps.Resolution` tells how it ended.
        ``memory_limit``: bytes the rules may grow the process by (status ``memory``; the compiled
        T&E engine needs a few MB and takes none)."""
        from ..resolution.families import theory_spec

        spec = theory_spec(theory)  # an unknown theory is named before the puzzle is looked at
        puzzle = as_puzzle(puzzle)
        if spec.engine == "te":  # T&E theories: the compiled T&E engine, no rules
            from .te import te_resolution

            if solution is None:
                solution = unique_solution(puzzle)
            return te_resolution(puzzle, spec.theory, max_length=self.max_length, solution=solution,
                                 time_limit=time_limit)
        if solution is None:
            solution = unique_solution(puzzle)
        with self._running:
            engine = self.engine(theory)
            return engine.solve(puzzle, time_limit=time_limit, solution=solution, memory_limit=memory_limit)

    def release_memory(self) -> None:
        """What the last puzzle took, given back by each engine (:meth:`Engine.release_memory`)."""
        for engine in self._engines.values():
            engine.release_memory()

    def close(self) -> None:
        """Free the engines (they are built again if the solver is used after)."""
        with self._running:
            for engine in self._engines.values():
                engine.close()
            self._engines.clear()

    def __enter__(self) -> "Solver":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
