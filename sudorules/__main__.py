"""The ``sudorules`` command (its console script) and ``python -m sudorules``: the same command line.

Importing the command line takes most of a second (pandas, numpy, click, the rule engine), and a
Ctrl-C in that time used to print a ``KeyboardInterrupt`` traceback and end with status -2 (issue
27).  So the first thing the command does, before those imports, is to guard its start-up: SIGINT
or SIGTERM then end it at once with one line, ``interrupted``, and status 130 / 143 (nothing has
been read or written yet).  The command group replaces the guard with its own handlers when it
starts (:mod:`sudorules.cli`).  ``import sudorules`` imports nothing heavy, so the window before the
guard is the interpreter's own start-up (tens of milliseconds), in which Python behaves as it does
for any program.
"""

from __future__ import annotations

import os
from typing import Any


def _stop_at_start_up(signum: int, _frame: Any) -> None:
    # os._exit: the handler may run inside any import; nothing is open that needs closing
    os.write(2, b"interrupted\n")
    os._exit(128 + signum)


def guard_start_up() -> None:
    """SIGINT / SIGTERM / SIGHUP end the process at once with ``interrupted`` and 130 / 143 / 129,
    unless the signal is ignored (a background job of a script ignores SIGINT, ``nohup`` SIGHUP:
    it stays ignored)."""
    from .errors import catch_stop_signals  # signal and typing only: nothing heavy

    catch_stop_signals(_stop_at_start_up)


def main() -> None:
    """The ``sudorules`` command: guard the start-up, then import and run the command line."""
    guard_start_up()
    from .cli import main as command_line

    command_line()


if __name__ == "__main__":
    main()
