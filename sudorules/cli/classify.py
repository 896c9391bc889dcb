"""``sudorules classify``: the T&E-depth classification of every puzzle, with B, BxB or BxBB (SPEC §10)."""

from __future__ import annotations

from typing import Optional

import click

from ..batch.rating import classify_columns, header
from ..collection.template import output_template
from ..batch.runner import RateOptions
from . import main
from ..options import MAX_DEPTH_RANGE, MAX_LENGTH_RANGE
from .options import JOBS, MEMORY_MIB, TIME_LIMIT, progress_option, shows_progress, to_stdout
from .template_option import format_option
from .rate import RETRY_STATUSES, _list_option, _scheduler, no_jobs_on_cluster, run_batch


@main.command()
@click.argument("source", metavar="FILE|-|PUZZLE")
@click.option("--jobs", "-j", type=JOBS, default=None, help="Worker processes [all cores; at most 4 per core].")
@click.option("-o", "--output", default=None, metavar="OUT.csv|OUT.parquet",
              help="Output file; an existing one is resumed, as with rate. Default: stdout.")
@click.option("--max-depth", type=click.IntRange(*MAX_DEPTH_RANGE), default=3, show_default=True,
              help="Deepest T&E level tried; a puzzle beyond it gets status beyond-te1 / -te2 / -te3.")
@click.option("--max-length", type=click.IntRange(*MAX_LENGTH_RANGE), default=36, show_default=True,
              help="Largest p tried for B (braids), BxB (T&E(B_p, 1)) and BxBB (T&E(B_p, 2)); beyond it the "
                   "value is empty and the row not-solved.")
@click.option("--g", "gflag", is_flag=True, default=False,
              help="Also the gT&E-depth (T = BRT + whips[1]), in a column gte_depth.")
@click.option("--time-limit", type=TIME_LIMIT, default=None,
              help="Seconds per puzzle; past it the row gets status timeout.")
@click.option("--memory-limit", type=MEMORY_MIB, default=None, metavar="MiB",
              help="MiB a worker may grow by; past it the row gets status memory (default: as rate).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", callback=_scheduler,
              help="Classify on this dask.distributed cluster instead of local worker processes.")
@click.option("--retry", default="", metavar="STATUS[,STATUS]", callback=_list_option(RETRY_STATUSES, "status"),
              help="Classify again the rows of the -o file with these statuses, and put the new rows in place.")
@format_option("{puzzle} {te_depth} {B}{BxB}{BxBB} {tail}", "; standard output only (-o writes the resumable CSV)")
@progress_option()
def classify(source: str, jobs: Optional[int], output: Optional[str], max_depth: int, max_length: int, gflag: bool,
             time_limit: Optional[float], memory_limit: Optional[int], scheduler: Optional[str],
             retry: tuple[str, ...], template: Optional[str], progress: Optional[bool]) -> None:
    """Classify every puzzle of FILE (or stdin, or the PUZZLE given) by T&E-depth, with its B rating
    (depth 0 or 1), BxB (depth 2) or BxBB (depth 3), and write CSV rows in input order.

    Columns: puzzle, clues, te_depth (gte_depth with --g), B, BxB, BxBB (the one of the puzzle's depth,
    the others empty; B is 0 at depth 0), status (solved when classified; beyond-te1/-te2/-te3
    past --max-depth, not-solved past --max-length, timeout, memory, crashed, invalid), seconds,
    tail (whatever followed the puzzle on its input line), error.  Resumable with -o like rate; on all cores or a dask cluster.  Exit status 1 when some row
    of the output is invalid or crashed (earlier rows of a resumed output too).
    """
    no_jobs_on_cluster(jobs, scheduler)
    formatted = output_template(template, header(classify_columns(gflag)))  # checked before any work
    options = RateOptions(
        ratings=classify_columns(gflag), jobs=jobs, max_length=max_length, time_limit=time_limit,
        memory_limit=memory_limit, scheduler=scheduler, retry=retry,
        progress=shows_progress(progress, to_stdout(output)), max_depth=max_depth)
    run_batch(source, output, options, verb="classified", template=formatted)
