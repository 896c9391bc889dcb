"""``sudorules rate``: W and B ratings of every puzzle of a file, as CSV, on all cores."""

from __future__ import annotations

import os
import re
import tempfile
from typing import Optional

import click

from ..batch.runner import RateOptions, rate_file
from ..enums import Status
from ..errors import EXIT_INVALID, Interrupted, OptionError
from ..batch.rating import STATUSES, all_ratings, canonical_rating, header
from ..collection.template import RowTemplate, output_template
from ..reader import ARGUMENT_PUZZLE, looks_like_puzzle, names_file, records_from_argument
from ..output import is_stream
from . import main, plural
from ..options import MAX_LENGTH_RANGE
from .options import JOBS, MEMORY_MIB, TIME_LIMIT, LazyHelpOption, progress_option, shows_progress, to_stdout
from .template_option import format_option

#: the statuses ``--retry`` can name: every failure a later run may fix
RETRY_STATUSES = tuple(s for s in STATUSES if s != "solved")
_SCHEDULER = re.compile(r"^(?:(tcp|tls|ws|wss|inproc|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def _items(value: str) -> tuple[str, ...]:
    """The names of a comma-separated option value, stripped; an empty one (``W,,B``, ``W,``) is
    refused, as a slip of the keyboard rather than something to pass over silently."""
    names = tuple(v.strip() for v in value.split(","))
    if any(not name for name in names) and any(names):
        raise click.BadParameter(f"{value!r} has an empty name between commas")
    return tuple(name for name in names if name)


def _list_option(choices: tuple[str, ...], what: str):
    """A click callback for a comma-separated list drawn from ``choices`` (in any case: ``w,gb`` is
    ``W,gB``), each at most once."""
    spelt = {choice.lower(): choice for choice in choices}

    def parse(_ctx, _param, value: str) -> tuple[str, ...]:
        names = tuple(spelt.get(v.lower(), v) for v in _items(value))
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


def no_jobs_on_cluster(jobs: Optional[int], scheduler: Optional[str]) -> None:
    """``--jobs`` with ``--scheduler``: refused (status 2), not ignored: on a cluster the parallelism
    is its dask workers' threads, and a --jobs kept from a local command line would silently say
    otherwise."""
    if scheduler is not None and jobs is not None:
        raise click.UsageError("--jobs sets local worker processes, not with --scheduler: the cluster's dask "
                               "workers rate, one puzzle at a time per worker thread (start them with dask worker "
                               "--nworkers N --nthreads 1); leave out --jobs")


def _ratings(ctx, param, value: str) -> tuple[str, ...]:
    """The ratings asked for: named ones in any case, or any theory's name (its column as given)."""
    names = _items(value)
    if not names:
        raise click.BadParameter(f"choose among {', '.join(all_ratings())} or a theory (comma-separated)")
    try:
        names = tuple(canonical_rating(name) for name in names)
    except OptionError as error:
        raise click.BadParameter(error.reason) from None
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise click.BadParameter(f"{repeated[0]} is given twice")
    return names


def _rating_help() -> str:
    from ..resolution.families import THEORIES

    return ("Ratings to compute, comma-separated: "
            + ", ".join(f"{spec.rating} ({spec.description})" for spec in THEORIES.values() if spec.rating)
            + ", TE (the T&E-depth), BxB, BxBB (for puzzles of T&E-depth 2 and 3: README, 'Beyond braids'). B, gB, TE, "
              "BxB and BxBB come from the compiled T&E engine; a puzzle outside T&E(1) is rated "
              "beyond-te1 by B at once (outside gT&E(1), by gB; by W, gW when they fail); a row's status "
              "is the worst of its ratings'.  Or the rating of any "
              "theory, named as solve --theory names it (BC, Z, tW, S+W, default...), its column named "
              "as given.")


@main.command()
@click.argument("source", metavar="FILE|-|PUZZLE")
@click.option("--rating", "ratings", default="W", show_default=True, callback=_ratings, cls=LazyHelpOption,
              help_text=_rating_help)
@click.option("--jobs", "-j", type=JOBS, default=None,
              help="Worker processes [all cores; at most 4 per core].")
@click.option("-o", "--output", default=None, metavar="OUT.csv|OUT.parquet",
              help="Output file; an existing one is resumed (only missing puzzles are rated), and a second "
                   "run on the same file is refused while the first one writes. Default: stdout.")
@click.option("--max-length", type=click.IntRange(*MAX_LENGTH_RANGE), default=36, show_default=True,
              help="Longest whip / braid tried.")
@click.option("--time-limit", type=TIME_LIMIT, default=None,
              help="Seconds per puzzle and rating; past it the row gets status timeout.")
@click.option("--memory-limit", type=MEMORY_MIB, default=None, metavar="MiB",
              help="MiB a worker may grow by past its loaded rules; past it the worker is replaced and the row "
                   "gets status memory. Default: three quarters of the available memory, divided by --jobs. 0: no limit.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", callback=_scheduler,
              help="Rate on this dask.distributed cluster instead of local worker processes (no --jobs: each "
                   "dask worker thread rates one puzzle at a time, --memory-limit capping its rating process).")
@click.option("--retry", default="", metavar="STATUS[,STATUS]", callback=_list_option(RETRY_STATUSES, "status"),
              help=f"Rate again the rows of the -o file with these statuses ({', '.join(RETRY_STATUSES)}), "
                   "say with more memory or time, and put the new rows in their place.")
@format_option("{puzzle} {W} {tail}", "; standard output only (-o writes the resumable CSV)")
@progress_option()
@click.option("--canonical", is_flag=True,
              help="Add a column 'canonical' (before 'status'): each puzzle's minlex form, the same for "
                   "equivalent puzzles (see 'sudorules canon').")
def rate(source: str, ratings: tuple[str, ...], jobs: Optional[int], output: Optional[str], max_length: int,
         time_limit: Optional[float], memory_limit: Optional[int], retry: tuple[str, ...], scheduler: Optional[str],
         progress: Optional[bool], canonical: bool, template: Optional[str]) -> None:
    """Rate every puzzle of FILE (or stdin, or the PUZZLE given) and write CSV rows in input order.

    With -o, rows are appended as they are produced and the same command run again after an
    interruption (Ctrl-C, kill, even kill -9) rates only what is missing.  An output name ending
    in .parquet gives a Parquet file.

    Columns: puzzle, clues, the requested ratings, status (solved, not-solved, beyond-te1: outside
    T&E(1), so no whip or braid solves it, timeout, memory, crashed, invalid), seconds, tail (whatever followed the puzzle on its input line), error (the
    reason for invalid and failed rows; for a B or gB rating stopped by --time-limit, the lengths
    known not to solve it, and for gB its B as an upper bound).  A rating is empty unless its theory solved the puzzle.
    Exit status 1 when some row of the output is invalid or crashed, earlier rows of a resumed output too.
    """
    no_jobs_on_cluster(jobs, scheduler)
    # an unknown column, or a spec its cells cannot take: an error before any work
    formatted = output_template(template, header(ratings, canonical))
    run_batch(source, output, RateOptions(
        ratings=ratings, jobs=jobs, max_length=max_length, time_limit=time_limit,
        memory_limit=memory_limit, scheduler=scheduler, retry=retry,
        progress=shows_progress(progress, to_stdout(output)), canonical=canonical), verb="rated",
        template=formatted)


def run_batch(source: str, output: Optional[str], options: RateOptions, verb: str,
              template: Optional[RowTemplate] = None, origin: Optional[str] = None) -> None:
    """Run a batch (``rate``, ``classify``) and end as they end: a summary line on stderr, exit status 1
    when some row is invalid or crashed, the interrupted run's count on Ctrl-C.  ``template``
    (``--format``): text lines on standard output instead of the CSV.  ``source``: a file, ``-``, or
    a puzzle given as the argument (written to a one-puzzle file of our own, so that the batch, and
    ``-o``, work as usual)."""
    if source != "-" and not names_file(source) and looks_like_puzzle(source):
        with tempfile.TemporaryDirectory(prefix="sudorules-") as folder:
            path = os.path.join(folder, "puzzle.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(source + "\n")
            run_batch(path, output, options, verb, template, origin=ARGUMENT_PUZZLE)  # its rows: PUZZLE 0
        return
    if source != "-" and not names_file(source):
        records_from_argument(source)  # neither a file nor a puzzle: the InputError check and solve give
    try:
        summary = rate_file(source, output, options, template, origin)
    except Interrupted as stop:
        done = getattr(stop, "summary", None)
        if done is not None:
            of = f" of {done.total}" if done.total else ""
            again = ("; run the same command again to resume" if output not in (None, "-") and not is_stream(output)
                     else "")  # a FIFO or a device holds nothing to resume from
            if done.reading_output:  # nothing rated yet, and the earlier rows not yet counted
                click.echo(f"interrupted while reading the rows already in {output}, which are kept{again}", err=True)
            elif done.retrying is not None and done.retried < done.retrying:  # stopped inside --retry
                click.echo(f"interrupted inside --retry after {done.retried} of {done.retrying} rows{again}", err=True)
            else:
                click.echo(f"interrupted after {done.rows}{of} rows{again}", err=True)
        else:
            click.echo("interrupted", err=True)
        raise click.exceptions.Exit(stop.exit_code)
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(summary.statuses.items()))
    click.echo(f"{verb} {plural(summary.rated, 'puzzle')} in {summary.seconds:.1f} s"
               + (f" ({counts})" if counts else "")
               + (f"; {plural(summary.retried, 'earlier row')} replaced" if summary.retried else "")
               + (f"; {summary.skipped} already done" if summary.skipped else ""), err=True)
    for note in summary.notes:
        click.echo(f"note: {note}", err=True)
    failed = {status: n for status, n in summary.earlier.items() if Status.fails_run(status)}
    if summary.skipped and failed:  # rows of an earlier run: the output holds them all the same
        click.echo(f"note: {output} holds earlier rows {', '.join(f'{k}: {v}' for k, v in sorted(failed.items()))}",
                   err=True)
    # Rows an earlier run's limits stopped are kept as they are, whatever this run's --time-limit or
    # --memory-limit: say so, and how to rate them again (a resume that only said "327 already done"
    # left 68 timeout rows of a 20 s limit among the rows of a 60 s one)
    stopped = {status: n for status, n in summary.earlier.items() if status in (Status.TIMEOUT, Status.MEMORY)}
    if summary.skipped and stopped:
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(stopped.items()))
        click.echo(f"note: {output} holds earlier rows {counts}, kept as they were: --retry "
                   f"{','.join(sorted(stopped))} rates them again with this run's limits", err=True)
    if any(Status.fails_run(status) for status in summary.statuses) or failed:
        raise click.exceptions.Exit(EXIT_INVALID)
