"""``sudorules solve``: print the resolution path of each puzzle in SudoRules' notation."""

from __future__ import annotations

import os
import sys

import click

from ..path import format_path
from . import main
from ..reader import records_from_argument
from ..validation import uniqueness_problem
from ..watchdog import hard_limit, stop_after

#: Exit statuses: 0 solved; 1 invalid puzzle (unreadable, no or several solutions);
#: 3 the theory cannot finish it (partial path printed); 4 time limit reached.
EXIT_INVALID, EXIT_NOT_SOLVED, EXIT_TIMEOUT = 1, 3, 4
THEORIES = ["W", "B", "SW", "BRT"]


@main.command()
@click.argument("source", metavar="PUZZLE|FILE|-")
@click.option("--theory", type=click.Choice(THEORIES), default="W", show_default=True,
              help="W: Singles + whips; B: + braids; SW: Subsets + whips; BRT: Singles only.")
@click.option("--max-length", type=click.IntRange(1, 36), default=36, show_default=True,
              help="Longest whip / braid tried.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=None,
              help="Seconds per puzzle before the run is stopped (exit status 4).")
@click.option("--verify/--no-verify", default=False,
              help="Re-check every step with the independent checker and the core's solution.")
@click.option("--lean-braids-from", type=click.IntRange(3, 37), default=7, show_default=True,
              help="B: from this level on, the longest partial braids are kept for one target at a time "
                   "(far less memory; whips of a level then come before braids of these lengths). 37: never.")
def solve(source: str, theory: str, max_length: int, time_limit: float | None, verify: bool,
          lean_braids_from: int) -> None:
    """Solve each puzzle by resolution rules and print its path, final grid and rating.

    Exit status: 0 all solved; 1 an invalid puzzle (bad line, no or several solutions);
    3 the theory could not finish a puzzle (its partial path and remaining candidates are printed);
    4 the time limit was reached.
    """
    from ..checker import replay
    from ..engine import Engine

    engine = None
    status = 0
    for record in records_from_argument(source):
        if record.puzzle is None:
            click.echo(f"line {record.line}: {record.error}", err=True)
            status = max(status, EXIT_INVALID)
            continue
        reason, solution = uniqueness_problem(record.puzzle)
        if reason is not None:
            click.echo(f"line {record.line}: {record.puzzle}: {reason}", err=True)
            status = max(status, EXIT_INVALID)
            continue
        if engine is None:
            engine = Engine(theory=theory, max_length=max_length, lean_braids_from=lean_braids_from)
        with stop_after(hard_limit(time_limit), _time_is_up(record.line, time_limit)):
            resolution = engine.solve(record.puzzle, time_limit=time_limit, solution=solution)
        sys.stdout.write(format_path(resolution, record.puzzle))
        if verify:
            report = replay(record.puzzle, resolution.steps, solution)
            if not report.ok:
                index, text, problem = report.problems[0]
                raise click.ClickException(f"line {record.line}: step {index + 1} failed verification: {text}: {problem}")
            click.echo(f"verified: {report.steps_checked} steps", err=True)
        if resolution.status == "timeout":
            status = max(status, EXIT_TIMEOUT)
        elif resolution.status != "solved":
            status = max(status, EXIT_NOT_SOLVED)
    sys.exit(status)


def _time_is_up(line: int, time_limit: float | None):
    """The watchdog's action: the run could not stop itself in time (a level switch in progress)."""
    def stop() -> None:
        sys.stdout.flush()
        sys.stderr.write(f"line {line}: time limit of {time_limit:g} s reached during a level switch; stopped\n")
        sys.stderr.flush()
        os._exit(EXIT_TIMEOUT)
    return stop
