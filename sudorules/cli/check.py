"""``sudorules check FILE|-|PUZZLE``: a CSV row per input record (see :mod:`sudorules.check`)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

import click

from ..check import check_records, write_csv
from ..reader import records_from_argument
from . import main


@main.command()
@click.argument("source", metavar="FILE|-|PUZZLE")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the CSV here (atomically: a temporary file, then renamed) instead of stdout.")
def check(source: str, output: Optional[Path]) -> None:
    """Count solutions (0, 1, 2 = two or more), test minimality and give the unique solution of
    each puzzle.  CSV columns: puzzle,clues,solutions,minimal,solution,error.  Exit status 1 when
    some input record does not parse (its row names the line and the reason), 2 when the argument
    names no file (it contains letters, so it is no puzzle)."""
    if source != "-" and not Path(source).is_file() and any(c.isalpha() for c in source):
        raise click.BadParameter(f"no such file: {source}", param_hint="FILE|-|PUZZLE")
    rows = check_records(records_from_argument(source))
    if output is None:
        all_ok = write_csv(rows, sys.stdout)
    else:
        all_ok = _write_atomically(output, rows)
    if not all_ok:
        sys.exit(1)


def _write_atomically(path: Path, rows) -> bool:
    directory = path.resolve().parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            all_ok = write_csv(rows, stream)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return all_ok
