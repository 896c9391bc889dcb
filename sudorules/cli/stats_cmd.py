"""``sudorules stats``: raw and unbiased statistics of a rated collection (issue #5)."""

from __future__ import annotations

import json

import click

from ..stats import StatsInputError, build_report, load_collection, parse_column_option
from ..stats.text import format_report
from . import main


@main.command("stats")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--column", "columns", multiple=True, metavar="NAME=FILE",
              help="Add a column from a line-aligned file of one value per line (line k = puzzle k).")
@click.option("--unbiased/--raw", default=True, show_default=True,
              help="Add the controlled-bias corrected figures (needs clue counts), or only raw ones.")
@click.option("--by", type=click.Choice(["clues"]), default=None,
              help="Also print on(n), E(X,n), sd(X,n) per clue count n (always in --json).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the same numbers.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="OUT.png",
              help="Draw the raw vs unbiased distributions (needs the 'plot' extra: matplotlib).")
@click.option("--log", "log_columns", multiple=True, metavar="COLUMN",
              help="Correlate log(COLUMN) instead of COLUMN (003 §1.2); repeatable.")
def stats(files: tuple[str, ...], columns: tuple[str, ...], unbiased: bool, by: str | None, as_json: bool,
          plot: str | None, log_columns: tuple[str, ...]) -> None:
    """Statistics of rated puzzles: means, sds, distributions, correlations, numbers of minimals.

    FILE is one of our CSV (or .parquet) outputs (puzzle, clues, W, B, status...) or a puzzle
    file (one puzzle per line; a numeric tail is the generator's tries count, as in the published
    puzzles.txt).  Rows
    whose status is not `solved` keep their clue count but are left out of every other statistic
    (counted and reported).  The papers' conventions:

    \b
    * cf(n) = C(81,n)/C(81,26) exactly, cf(26) = 1 (000 §1.2, SPEC §8.1).
    * mean = Σ w·E(X,n)/Σ w with w = on(n) (raw) or on(n)·cf(n) (unbiased) (000 §1.3).
    * sd = sqrt(Σ w·sd(X,n)²/Σ w): within clue classes, the papers' formula (SPEC §8.2, §9.16);
      for the clues column the plain sd; sd(mix) adds the spread of the class means.
      sd(X,n) and all moments divide by the count (population form).
    * clue distribution: raw % and unbiased % = on(n)·cf(n) normalised, ± unbiased %/sqrt(on(n))
      (002 Table 4).
    * level distribution of each integer rating: raw % and unbiased % ∝ Σn cf(n)·count(X=v, n)
      (002 Table 3).
    * correlation: Pearson with population moments on rows where both values exist (003 §1.2);
      unbiased = each puzzle weighted by cf(clues) (000 §2.1.1 gives both).
    * mean distance of a rating to the others: sqrt(2·(1 - mean r)), the quadratic mean of the
      distances between unit vectors (003 §1.3).
    * minimal puzzles per grid (with a tries column): on(n)·C(81,n)/T, T = total tries, relative
      error 1/sqrt(on(n)) (000 §2.1.5, 002 Table 5); tries per minimal T/on(n) (002 Table 6).
    """
    try:
        collection = load_collection(files, [parse_column_option(text) for text in columns])
        report = build_report(collection, unbiased, log_columns)
        if plot:
            from ..stats.plot import plot_distributions  # matplotlib only when asked for
            plot_distributions(report, plot)
    except StatsInputError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"{error.filename or ''}: {error.strerror or error}") from None
    click.echo(json.dumps(report, indent=2, ensure_ascii=False) if as_json
               else format_report(report, by_clues=by == "clues"), nl=as_json)
