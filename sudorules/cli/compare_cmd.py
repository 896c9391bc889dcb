"""``sudorules compare``: two ratings of the same puzzles side by side (e.g. W and B)."""

from __future__ import annotations

import json

import click

from . import main
from .stats_cmd import echo_notes


@main.command("compare")
@click.argument("files", nargs=-1, metavar="[FILE|-]...")
@click.option("--column", "columns", multiple=True, metavar="NAME=FILE",
              help="Add a column from a line-aligned file of one value per line (line k = puzzle k, "
                   "in the order of the first input).")
@click.option("--weights", default=None, metavar="FILE",
              help="Each puzzle's importance weight, one per line (generate --weights), as for stats.")
@click.option("--ratings", nargs=2, required=True, metavar="A B",
              help="The two columns to compare: any numeric column of the inputs (W, B, SER, seconds...).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the same numbers.")
def compare(files: tuple[str, ...], columns: tuple[str, ...], weights: str | None, ratings: tuple[str, str],
            as_json: bool) -> None:
    """Cross-table of two ratings, the puzzles where they differ and the share of differences.

    Inputs as for `sudorules stats` (- is standard input).  A and B may name any numeric column,
    a rating or not; an unknown name is an error listing the numeric columns.  Only puzzles with
    both values are compared (a value counts for its own rating whatever the row's status, as in
    stats); the cross-table is left out when a column has more than 100 distinct values
    (seconds, a continuous value file), the share and the list of differences stay.  The unbiased share
    weights each puzzle by cf(clues) = C(81,clues)/C(81,26) (000 §1.3), and with importance weights
    (--weights, or a weight column) both shares weight it by them too; 002 §VI.B reports 20
    differences in 10,000 puzzles for whips vs braids.  Differing puzzles are listed by line number
    in their source file (as file:line when there are several inputs).

    Exit status: 0 compared; 1 an input's content cannot be used, or no puzzle has both values;
    2 bad arguments (a missing, unreadable or directory input, UTF-16 text, an unknown column).
    """
    from ..stats import compare_ratings, load_collection, parse_column_option  # pandas: only when run
    from ..stats.text import format_comparison

    collection = load_collection(files, [parse_column_option(text) for text in columns], weights=weights)
    echo_notes(collection)
    result = compare_ratings(collection, *ratings)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False, allow_nan=False) if as_json
               else format_comparison(result), nl=as_json)
