"""``sudorules check FILE|-|PUZZLE``: a CSV row per input record (see :mod:`sudorules.check`)."""

from __future__ import annotations

from typing import Optional

import click

from ..batch.check import check_records, columns, write_csv
from ..collection.template import output_template
from ..errors import EXIT_INVALID
from ..output import check_csv_output, open_output
from ..progress import RecordProgress
from ..reader import names_file, plural, records_from_argument
from . import main
from ..oscompat import cpu_count
from .options import JOBS, progress_option, shows_progress, to_stdout
from .template_option import format_option


@main.command()
@click.argument("source", metavar="FILE|-|PUZZLE")
@click.option("-o", "--output", default=None, metavar="OUT.csv",
              help="Write the CSV here instead of stdout (- = stdout; a regular file is written under a "
                   "temporary name and renamed at the end; a device is written directly).")
@click.option("--canonical", is_flag=True,
              help="Add a column 'canonical' (before 'tail' and 'error'): each puzzle's minlex form, the same "
                   "for equivalent puzzles (see 'sudorules canon').")
@format_option("{puzzle} {solutions} {tail}")
@click.option("--jobs", "-j", type=JOBS, default=None,
              help="Threads for the minimality tests [all cores; at most 4 per core].")
@progress_option()
def check(source: str, output: Optional[str], canonical: bool, template: Optional[str], jobs: Optional[int],
          progress: Optional[bool]) -> None:
    """Count solutions (0, 1, 2 = two or more), test minimality and give the unique solution of
    each puzzle.  CSV columns: puzzle,clues,solutions,minimal,solution,tail,error (tail: whatever
    followed the puzzle on its input line; canonical before tail with --canonical).  Exit status 1 when some input record does not parse
    (its row names the line and the reason), 2 when the input or the output cannot be used (no
    such file, a directory, an output that is an input...)."""
    formatted = output_template(template, columns(canonical))
    records = records_from_argument(source)
    check_csv_output(output, inputs=[source])
    with open_output(output, inputs=[source]) as stream, RecordProgress(source, shows_progress(progress, to_stdout(output)) and names_file(source)) as shown:
        total, invalid = write_csv(shown.over(check_records(records, canonical=canonical, jobs=jobs or cpu_count())), stream,
                                   canonical=canonical, template=formatted, say=shown.say)
    if invalid:
        # status 1 alone said nothing with -o (the reasons are in the rows), and --format's stderr
        # lines had no total: at a million lines, 100,000 of them
        click.echo(f"{plural(invalid, 'record')} of {total:,} did not parse "
                   f"({_where_said(formatted)})",
                   err=True)
        raise click.exceptions.Exit(EXIT_INVALID)


def _where_said(formatted) -> str:
    """Where the reasons of the records that did not parse are: their rows' error column, the lines
    of a template that shows it, or else stderr (with {error} in the template, "named on stderr
    above" named nothing: helper-42)."""
    if formatted is None:
        return "the error column of their rows says why"
    return "their lines say why" if formatted.shows_error else "each named on stderr above"
