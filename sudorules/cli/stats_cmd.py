"""``sudorules stats``: raw and unbiased statistics of a rated collection (issue #5)."""

from __future__ import annotations

import json

import click

from ..stats.columns import KNOWN_RATINGS
from . import main


def echo_notes(collection) -> None:
    """The collection's notes on how its inputs were read, one ``note:`` line each on stderr."""
    for note in collection.notes:
        click.echo(f"note: {note}", err=True)


@main.command("stats")
@click.argument("files", nargs=-1, metavar="[FILE|-]...")
@click.option("--column", "columns", multiple=True, metavar="NAME=FILE",
              help="Add a rating column from a line-aligned file of one value per line (line k = puzzle k, "
                   "in the order of the first input).")
@click.option("--weights", default=None, metavar="FILE",
              help="Weight each puzzle by its grid's importance weight, read from FILE (one per line, line k = "
                   "puzzle k: generate --weights writes it), so that the figures are those of uniform grids; "
                   "an input's own weight column is used without it.")
@click.option("--rating", "ratings", multiple=True, metavar="NAME",
              help=f"Also treat column NAME of the inputs as a rating (known ratings: {', '.join(KNOWN_RATINGS)} "
                   "and every rating rate writes: BC, Z, S+W, default...; --column ones are ratings too); "
                   "repeatable.")
@click.option("--unbiased/--raw", default=True, show_default=True,
              help="Add the controlled-bias corrected figures (needs clue counts), or only raw ones.")
@click.option("--by", type=click.Choice(["clues"]), default=None,
              help="Also print on(n), E(X,n), sd(X,n) per clue count n (always in --json).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the same numbers.")
@click.option("--plot", default=None, metavar="OUT.{png,pdf,svg}",
              help="Draw the raw vs unbiased distributions into OUT, in the format its extension names "
                   "(.png, .pdf or .svg; needs the 'plot' extra: matplotlib).")
@click.option("--plot-scale", type=click.Choice(["auto", "linear", "log"]), default="auto", show_default=True,
              help="y axis of --plot: log, linear, or auto = log when a panel's rarest bar is under 2% of its "
                   "largest (so rare levels stay visible).")
@click.option("--log", "log_columns", multiple=True, metavar="COLUMN",
              help="Correlate log(COLUMN) instead of COLUMN (003 §1.2); repeatable.")
def stats(files: tuple[str, ...], columns: tuple[str, ...], weights: str | None, ratings: tuple[str, ...], unbiased: bool,
          by: str | None, as_json: bool, plot: str | None, plot_scale: str, log_columns: tuple[str, ...]) -> None:
    """Statistics of rated puzzles: means, sds, distributions, correlations, numbers of minimals.

    FILE is one of our CSV (or .parquet) outputs (puzzle, clues, W, B, status...), a puzzle file
    (one puzzle per line; a numeric tail is the generator's tries count, as in the published
    puzzles.txt), or - for standard input.  Text must be UTF-8 (a byte-order mark is skipped).

    \b
    Rating columns: statistics are computed for the clue count and the
    rating columns only: a column whose name is a known rating (W, B, gW,
    gB, SER, FPGXnoU, ...) or any rating rate writes (BC, Z, tW, S+W,
    default...), every --column NAME=FILE, and every --rating NAME.
    Other numeric columns (seconds, solutions...) are listed, not rated.

    \b
    Rows not counted: a value counts for its own rating; a row whose status
    is not `solved` misses only the ratings that failed in it (rate leaves
    their cells empty) and keeps its clue count; an invalid puzzle line,
    an invalid row (rate: several solutions...) or an unreadable CSV row
    counts nowhere.  The report names their lines.
    Nothing to count at all (an empty file, every row invalid) is an error.

    \b
    Exit status: 0 report printed; 1 an input's content cannot be used (not
    UTF-8, a non-number in a counted row, a misaligned value file, nothing to
    count); 2 bad arguments (a missing, unreadable or directory input, a
    .parquet input that is no Parquet, UTF-16 text, a bad
    --column/--log/--rating, an unsupported or unwritable --plot file).

    The papers' conventions:

    \b
    * cf(n) = C(81,n)/C(81,26) exactly, cf(26) = 1 (000 §1.2).
    * mean = Σ w·E(X,n)/Σ w with w = on(n) (raw) or on(n)·cf(n) (unbiased) (000 §1.3).
    * sd = sqrt(Σ w·sd(X,n)²/Σ w): within clue classes, the papers' formula;
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
    * --weights (or a weight column): each puzzle counts for its weight w, on(n) becomes
      W(n) = Σ w, a mean or share weights by w (raw) or cf(n)·w (unbiased), and an error
      1/sqrt(on(n)) becomes 1/sqrt(n_eff(n)), n_eff = W(n)²/Σ w².
    """
    from ..stats import build_report, load_collection, parse_column_option  # pandas: only when run
    from ..stats.text import format_report

    if plot is None and plot_scale != "auto":  # accepted without a word, drawing nothing (helper-45)
        raise click.UsageError(f"--plot-scale {plot_scale} applies to the --plot drawing: give --plot OUT.png too")
    pairs = [parse_column_option(text) for text in columns]
    inputs = list(files) + [path for _, path in pairs] + ([weights] if weights is not None else [])
    from ..output import check_output

    check_output(None, inputs=inputs)  # the report printed onto an input (stats in.csv >> in.csv)
    if plot is not None:
        from ..stats.plot import check_plot_target  # matplotlib itself only when drawing
        check_plot_target(plot, inputs)  # a bad type or an unwritable path fails before any work
    collection = load_collection(files, pairs, ratings, weights)
    echo_notes(collection)
    report = build_report(collection, unbiased, log_columns)
    for note in report["notes"]:
        click.echo(f"note: {note}", err=True)
    figure = None
    if plot is not None:
        from ..stats.distributions import MAX_LEVELS
        from ..stats.plot import build_figure, close_figure, save_figure
        figure = build_figure(report, plot_scale)  # "nothing to draw" before any output
        # a rating of continuous values (SER) has no level distribution, hence no panel: it was left
        # out of the plot unsaid (helper-39)
        unplotted = [name for name in report["rating_columns"] if name not in report["level_distributions"]]
        if unplotted:
            click.echo(f"note: --plot draws the distributions by level; {', '.join(unplotted)} "
                       f"{'has' if len(unplotted) == 1 else 'have'} none (values that are not whole numbers, more "
                       f"than {MAX_LEVELS} levels, or no value), so no panel", err=True)
    try:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False) if as_json
                   else format_report(report, by_clues=by == "clues"), nl=as_json)
    except BaseException:  # an interrupt, a closed stdout: the drawing is not written
        if figure is not None:
            close_figure(figure)
        raise
    if figure is not None:
        # the plot's rename last, as every command's output file: written before the report, a Ctrl-C
        # while the report was printed ended the run with status 130 and the new plot in place, where
        # an interrupted run leaves the old file as it was
        save_figure(figure, plot, inputs)
