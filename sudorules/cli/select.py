"""``sudorules select RATED.csv|- --where CONDITION [--split-by COLUMN -o DIR]``: filter and split
rated collections (see :mod:`sudorules.collection.select`)."""

from __future__ import annotations

from typing import Optional

import click

from ..collection.expression import where
from ..collection.select import Writer, file_part, selected, write_split
from ..collection.table import read_table
from ..collection.template import row_template
from ..errors import Interrupted, OptionError
from ..output import check_csv_output, open_output
from . import main, note_earlier_files, plural
from .template_option import format_option


#: the files a --split-by summary names before "and N more"
SUMMARY_FILES = 20


@main.command()
@click.argument("source", metavar="FILE|-")
@click.option("--where", "condition", default=None, metavar="CONDITION",
              help="Keep the rows that satisfy it, e.g. 'W >= 7 and B < W', \"status != 'solved'\": "
                   "comparisons (== != < <= > >=) of columns, numbers and quoted texts, with and, or, not "
                   "and parentheses.")
@click.option("--split-by", "split_by", default=None, metavar="COLUMN",
              help="One file per value of COLUMN (W-7.csv, W-8.csv, W-none.csv for unrated rows...) in the "
                   "directory given by -o.")
@click.option("-o", "--output", default=None, metavar="OUT|DIR",
              help="Output file (default: stdout); with --split-by, the directory of the files (created "
                   "if missing).")
@click.option("--puzzles", is_flag=True, default=False,
              help="Write a puzzle file (one 'puzzle tail' line per row) instead of the CSV.")
@format_option("{puzzle} {W} {tail}")
def select(source: str, condition: Optional[str], split_by: Optional[str], output: Optional[str], puzzles: bool,
           template: Optional[str]) -> None:
    """Select the rows of a CSV or Parquet output (rate, check, classify, select) that satisfy
    --where, and write them whole (every column, the tail included) as CSV, as a puzzle file
    (--puzzles) or in a --format layout; --split-by COLUMN -o DIR writes one file per level.

    A column named in --where, --split-by or --format that the file does not have is an error
    (status 2) before anything is written; so is a condition that does not parse."""
    if puzzles and template is not None:
        raise OptionError("--puzzles and --format both choose the lines written: give one of them")
    if split_by is not None and output in (None, "-"):
        raise OptionError("--split-by writes one file per level: give the directory with -o DIR")
    if split_by is None:
        check_csv_output(output, inputs=[source])
    table = read_table(source)
    chosen = selected(table, where(condition, table.columns))
    writer = Writer("puzzles" if puzzles else "template" if template is not None else "csv",
                    row_template(template, table.columns))
    writer.check(table, chosen)
    if split_by is None:
        with open_output(output, inputs=[source]) as stream:
            writer.write(table, chosen, stream)
        click.echo(f"selected {len(chosen)} of {len(table.rows)} rows", err=True)
        return
    assert output is not None
    try:
        files = write_split(table, split_by, chosen, output, writer, inputs=[source])
    except Interrupted as stop:  # which levels are there, complete, and that the others are not
        done = getattr(stop, "written", [])
        names = ", ".join(path.name for path, _ in done[:SUMMARY_FILES]) or "none"
        names += f" and {len(done) - SUMMARY_FILES:,} more" if len(done) > SUMMARY_FILES else ""
        click.echo(f"interrupted after {len(done)} of {getattr(stop, 'total', '?')} files in {output} "
                   f"(written whole: {names}); run the same command again for all of them", err=True)
        raise click.exceptions.Exit(stop.exit_code) from None
    # the first files by name, then how many more: a split by a column of 19,584 values wrote one
    # summary line of 406 KB
    shown = ", ".join(f"{path.name} ({rows})" for path, rows in files[:SUMMARY_FILES])
    more = f" and {len(files) - SUMMARY_FILES:,} more" if len(files) > SUMMARY_FILES else ""
    click.echo(f"selected {len(chosen)} of {plural(len(table.rows), 'row')} into {plural(len(files), 'file')} "
               f"in {output}" + (f": {shown}{more}" if files else ""), err=True)
    if files:  # files of an earlier split stay: they are not this run's levels
        import re

        note_earlier_files(output, f"{re.escape(file_part(split_by))}-.*{re.escape(files[0][0].suffix)}",
                           [path for path, _ in files], output, "not this one's levels")
