"""``sudorules rate``: W and B ratings of every puzzle of a file, as CSV, on all cores."""

from __future__ import annotations

import click

from ..batch import BatchError, rate_file
from ..rating import RATING_THEORIES
from . import main


def _ratings(_ctx, _param, value: str) -> tuple[str, ...]:
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    unknown = [n for n in names if n not in RATING_THEORIES]
    if not names or unknown:
        raise click.BadParameter(f"choose among {', '.join(RATING_THEORIES)} (comma-separated)")
    return names


@main.command()
@click.argument("source", metavar="FILE|-")
@click.option("--rating", "ratings", default="W", show_default=True, callback=_ratings,
              help="Ratings to compute, comma-separated: W (whips), B (braids).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes [all cores].")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Output CSV; an existing one is resumed (only missing puzzles are rated). Default: stdout.")
@click.option("--max-length", type=click.IntRange(1, 36), default=36, show_default=True,
              help="Longest whip / braid tried.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=None,
              help="Seconds per puzzle and rating; past it the row gets status timeout.")
@click.option("--memory-limit", type=click.IntRange(min=64), default=None,
              help="MiB a worker may grow by past its loaded rules; a worker that exceeds it is replaced (status memory).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Rate on this dask.distributed cluster instead of local worker processes.")
@click.option("--retry", default="", metavar="STATUS[,STATUS]", callback=lambda _c, _p, v: tuple(
              x.strip() for x in v.split(",") if x.strip()),
              help="Rate again the rows of the -o file with these statuses (e.g. memory,timeout), "
                   "say with more memory or time, and put the new rows in their place.")
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
def rate(source: str, ratings: tuple[str, ...], jobs: int | None, output: str | None, max_length: int,
         time_limit: float | None, memory_limit: int | None, retry: tuple[str, ...], scheduler: str | None,
         progress: bool) -> None:
    """Rate every puzzle of FILE (or stdin) and write CSV rows in input order.

    With -o, rows are appended as they are produced and the same command run again after an
    interruption rates only what is missing.  An output name ending in .parquet gives a Parquet file.

    Columns: puzzle, clues, the requested ratings, status (solved, not-solved, timeout, memory,
    crashed, invalid), seconds, error (the reason for invalid and failed rows).  A rating is empty
    unless its theory solved the puzzle.
    """
    try:
        summary = rate_file(source, output, ratings, jobs, max_length, time_limit,
                            memory_limit * 2**20 if memory_limit else None, progress, scheduler, retry)
    except ImportError as error:
        raise click.ClickException(f"{error.name} is not installed: pip install 'sudorules[distributed]'") from error
    except (BatchError, OSError) as error:
        raise click.ClickException(str(error)) from error
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(summary.statuses.items()))
    click.echo(f"rated {summary.rated} puzzles in {summary.seconds:.1f}s ({counts})"
               + (f"; {summary.retried} earlier rows replaced" if summary.retried else "")
               + (f"; {summary.skipped} already done" if summary.skipped else ""), err=True)
