"""The errors sudorules raises on purpose, and how the command line ends on each.

Every error a user can cause (a bad puzzle, a missing file, an output that cannot be written) is a
:class:`SudorulesError` whose message is one line naming what the user gave and why it fails; the
command line prints it as ``Error: <message>`` and exits with the error's :attr:`exit_code`, never
with a traceback.  An interruption (SIGINT, SIGTERM, SIGHUP) is :class:`Interrupted`, a ``BaseException``
like ``KeyboardInterrupt`` so that no ``except Exception`` swallows it on its way out.
"""

from __future__ import annotations

import signal
from typing import Optional

#: Exit statuses, the same for every command (README "Exit statuses").
EXIT_OK = 0
EXIT_INVALID = 1       #: some input record is invalid (or the run failed part-way)
EXIT_USAGE = 2         #: bad arguments: an option value, a missing input file, an unwritable output
EXIT_NOT_SOLVED = 3    #: solve: the theory could not finish a puzzle
EXIT_TIMEOUT = 4       #: solve: the time limit was reached
EXIT_MEMORY = 5        #: solve: the memory limit was reached
EXIT_SIGINT = 128 + signal.SIGINT    #: 130: interrupted (Ctrl-C)
EXIT_SIGTERM = 128 + signal.SIGTERM  #: 143: terminated (kill PID)
#: the signals that stop a run as Ctrl-C does, each with status 128 + its number: SIGINT, SIGTERM and,
#: where there is one, SIGHUP (129: the terminal closed, an ssh connection dropped), which killed
#: `generate -o` with the puzzles it had made, `count` with its samples, and left `check -o`'s
#: temporary file of megabytes behind
STOP_SIGNALS: tuple[int, ...] = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))
                                      if s is not None)


def catch_stop_signals(handler) -> dict:
    """Make each of :data:`STOP_SIGNALS` call ``handler``, but one that whoever started us ignores,
    which stays ignored as in any POSIX program (``nohup``: SIGHUP; a script's ``cmd &``: SIGINT);
    the previous handlers of those set.  The one place of that rule: the start-up guard
    (``__main__``) and every command's handlers (``cli.install_signal_handlers``)."""
    return {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS
            if signal.getsignal(signum) is not signal.SIG_IGN}
#: 141: standard output was closed by its reader (``| head``): the output was cut, nothing failed;
#: the status a shell shows for a program killed by SIGPIPE (13 on every POSIX system; Windows has
#: no SIGPIPE, and a closed stdout ends the run with the same status there)
EXIT_SIGPIPE = 128 + getattr(signal, "SIGPIPE", 13)


class SudorulesError(Exception):
    """Base of the errors sudorules raises on purpose; the message is one line for the user."""

    exit_code = EXIT_INVALID


class InputError(SudorulesError):
    """An input source that cannot be read: a missing file, a directory, an unreadable file, an
    empty argument."""

    exit_code = EXIT_USAGE


class OutputError(SudorulesError):
    """An output that cannot or must not be written (a missing directory, no permission, one of the
    run's own input files); the message names the path as the user gave it."""

    exit_code = EXIT_USAGE


class OptionError(SudorulesError, ValueError):
    """An option value that cannot be used, found before any work: ``jobs=0``, ``time_limit=nan``, a
    negative memory limit (:mod:`sudorules.options`), a ``--format`` template naming an unknown
    column, a ``--where`` expression that does not parse or names an unknown column.  ``reason`` is
    what is wrong without the option's name (click's usage line names the option itself)."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, reason: Optional[str] = None):
        super().__init__(message)
        self.reason = reason if reason is not None else message


class DiskFullError(OutputError):
    """The output's disk (or quota) filled up while the run was writing: the run failed part-way,
    its arguments were fine, so exit status 1, not 2.  What was written is complete (``rate -o``
    keeps its complete rows and resumes; a file written under a temporary name is left as it was)."""

    exit_code = EXIT_INVALID


class MissingDependencyError(SudorulesError):
    """An optional dependency (an extra of the package) that the options asked for is not installed;
    checked before any work (:func:`sudorules.extras.require`)."""

    exit_code = EXIT_USAGE


class PuzzleError(SudorulesError, ValueError):
    """A puzzle that cannot be made: a text that is no puzzle (a bad character, a wrong length, a
    repeated digit), cell values or pencilmark masks out of range, a cell with no candidate; the
    message gives the reason.  Defined here with the other errors (and :mod:`sudorules.puzzle`
    re-exports it) so that ``sudorules.errors`` holds the whole hierarchy."""


class PuzzleTypeError(PuzzleError, TypeError):
    """Something given as a puzzle that is of no puzzle's type (None, a number, bytes where a text
    is expected); a :class:`TypeError` too, as Python names a wrong type, and a
    :class:`PuzzleError`, so that one ``except PuzzleError`` covers every puzzle that cannot be made."""


class InvalidPuzzleError(SudorulesError):
    """A puzzle the rules must not be run on: it has no solution or several (``reason`` says which).

    The rules are sound and never assume uniqueness, so such a puzzle would only end "not solved";
    it is rejected up front with a clear reason instead (SPEC §9.13)."""

    def __init__(self, puzzle: object, reason: str):
        super().__init__(f"{puzzle}: {reason}")
        self.puzzle = puzzle
        self.reason = reason


class NotationError(SudorulesError, ValueError):
    """Text that is not in the notation read: a path line (:func:`~sudorules.resolution.read_path`),
    a resolution's JSON (:meth:`~sudorules.resolution.Resolution.from_json`)."""


class NotSolvedError(SudorulesError):
    """A resolution that did not end solved (``not-solved`` or ``contradiction``), from
    ``Resolution.raise_for_status()``."""


class TimeLimitError(SudorulesError):
    """A resolution stopped by its time limit, from ``Resolution.raise_for_status()``."""


class MemoryLimitError(SudorulesError):
    """A resolution stopped by its memory limit, from ``Resolution.raise_for_status()``."""


class EngineError(SudorulesError):
    """The rule engine cannot run: rule files that do not load, a CLIPS failure."""


class Interrupted(BaseException):
    """The run was stopped by a signal of :data:`STOP_SIGNALS`: SIGINT (exit status 130), SIGTERM (143),
    SIGHUP (129)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.exit_code = 128 + signum
