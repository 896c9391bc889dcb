"""The ``--format TEMPLATE`` option of the commands that write rows (``check``, ``rate``, ``select``,
``classify``): one declaration, so that every command documents it alike; the template itself is
parsed and checked against the command's columns by :func:`sudorules.collection.template.row_template`."""

from __future__ import annotations

import click


def format_option(example: str, where: str = ""):
    """The click option ``--format TEMPLATE`` (stored as ``template``); ``example`` is a template
    shown in the help, ``where`` says where the lines go when that is restricted."""
    return click.option("--format", "template", default=None, metavar="TEMPLATE",
                        help=f"One text line per row instead of the CSV, e.g. '{example}': any column between "
                             f"braces, with an optional format spec ({{clues:>2}}, {{clues:03d}}){where}.")
