"""``sudorules rate``: W and B ratings of every puzzle of a file, as CSV, on all cores."""

from __future__ import annotations

import re
import sys
from typing import Optional

import click

from ..batch.runner import RateOptions, rate_file
from ..errors import EXIT_INVALID, Interrupted
from ..batch.rating import STATUSES
from ..resolution.families import THEORIES
from . import main
from .theory_option import ratings_option

#: the statuses ``--retry`` can name: every failure a later run may fix
RETRY_STATUSES = tuple(s for s in STATUSES if s != "solved")
_SCHEDULER = re.compile(r"^(?:(tcp|tls|ws|wss|inproc|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def plural(count: int, noun: str) -> str:
    """``1 puzzle``, ``2 puzzles``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _list_option(choices: tuple[str, ...], what: str):
    """A click callback for a comma-separated list drawn from ``choices``, each at most once."""
    def parse(_ctx, _param, value: str) -> tuple[str, ...]:
        names = tuple(v.strip() for v in value.split(",") if v.strip())
        unknown = [n for n in names if n not in choices]
        if unknown:
            raise click.BadParameter(f"unknown {what} {unknown[0]!r}: choose among {', '.join(choices)} "
                                     "(comma-separated)")
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise click.BadParameter(f"{repeated[0]} is given twice")
        return names
    return parse


def _scheduler(_ctx, _param, value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    match = _SCHEDULER.match(value.strip())
    if not match or not 1 <= int(match.group(3)) <= 65535:
        raise click.BadParameter(f"{value!r} is not a scheduler address: expected tcp://HOST:PORT "
                                 "(e.g. tcp://10.0.0.5:8786)")
    return value.strip() if match.group(1) else f"tcp://{value.strip()}"


@main.command()
@click.argument("source", metavar="FILE|-")
@click.option("--rating", "ratings", default="W", show_default=True, callback=ratings_option,
              help="Ratings to compute, comma-separated: " + ", ".join(
                  f"{spec.rating} ({spec.description})" for spec in THEORIES.values() if spec.rating)
                   + ", or the rating of any theory, named as solve --theory names it (BC, Z, tW, S+W, default...); "
                     "each column is named as given.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes [all cores].")
@click.option("-o", "--output", default=None, metavar="OUT.csv|OUT.parquet",
              help="Output file; an existing one is resumed (only missing puzzles are rated), and a second "
                   "run on the same file is refused while the first one writes. Default: stdout.")
@click.option("--max-length", type=click.IntRange(1, 36), default=36, show_default=True,
              help="Longest whip / braid tried.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=None,
              help="Seconds per puzzle and rating; past it the row gets status timeout.")
@click.option("--memory-limit", type=click.IntRange(min=0), default=None, metavar="MiB",
              help="MiB a worker may grow by past its loaded rules; past it the worker is replaced and the row "
                   "gets status memory. Default: the available memory divided by --jobs. 0: no limit.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", callback=_scheduler,
              help="Rate on this dask.distributed cluster instead of local worker processes.")
@click.option("--retry", default="", metavar="STATUS[,STATUS]", callback=_list_option(RETRY_STATUSES, "status"),
              help=f"Rate again the rows of the -o file with these statuses ({', '.join(RETRY_STATUSES)}), "
                   "say with more memory or time, and put the new rows in their place.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def rate(source: str, ratings: tuple[str, ...], jobs: Optional[int], output: Optional[str], max_length: int,
         time_limit: Optional[float], memory_limit: Optional[int], retry: tuple[str, ...], scheduler: Optional[str],
         progress: Optional[bool]) -> None:
    """Rate every puzzle of FILE (or stdin) and write CSV rows in input order.

    With -o, rows are appended as they are produced and the same command run again after an
    interruption (Ctrl-C, kill, even kill -9) rates only what is missing.  An output name ending
    in .parquet gives a Parquet file.

    Columns: puzzle, clues, the requested ratings, status (solved, not-solved, timeout, memory,
    crashed, invalid), seconds, error (the reason for invalid and failed rows).  A rating is empty
    unless its theory solved the puzzle.  Exit status 1 when some row is invalid or crashed.
    """
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        summary = rate_file(source, output, RateOptions(
            ratings=ratings, jobs=jobs, max_length=max_length, time_limit=time_limit,
            memory_limit=None if memory_limit is None else memory_limit * 2**20, scheduler=scheduler, retry=retry,
            progress=progress))
    except ImportError as error:
        raise click.ClickException(f"{error.name} is not installed: pip install 'sudorules[distributed]'") from None
    except Interrupted as stop:
        done = getattr(stop, "summary", None)
        if done is not None:
            of = f" of {done.total}" if done.total else ""
            again = ("; run the same command again to resume" if output not in (None, "-") else "")
            click.echo(f"interrupted after {done.rows}{of} rows{again}", err=True)
        else:
            click.echo("interrupted", err=True)
        raise click.exceptions.Exit(stop.exit_code)
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(summary.statuses.items()))
    click.echo(f"rated {plural(summary.rated, 'puzzle')} in {summary.seconds:.1f} s"
               + (f" ({counts})" if counts else "")
               + (f"; {plural(summary.retried, 'earlier row')} replaced" if summary.retried else "")
               + (f"; {summary.skipped} already done" if summary.skipped else ""), err=True)
    if summary.statuses.get("invalid") or summary.statuses.get("crashed"):
        raise click.exceptions.Exit(EXIT_INVALID)
