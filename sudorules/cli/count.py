"""``sudorules count``: estimate the number of minimal puzzles per clue count (subsets / supersets)."""

from __future__ import annotations

import sys
from typing import Optional

import click
from tqdm import tqdm

from ..count import GRIDS, METHODS, NON_ISOMORPHIC_GRIDS, count_minimals
from . import main


@main.command()
@click.option("--method", "-m", type=click.Choice(METHODS), required=True,
              help="subsets: minimal puzzles inside a random SIZE-subset of a random grid (small clue "
                   "counts); supersets: those containing it (large clue counts).")
@click.option("--size", "-s", type=click.IntRange(17, 81), required=True,
              help="Size of the random subset (the post uses 30 for subsets).")
@click.option("--minutes", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Run for this long (every sample started is kept).")
@click.option("--samples", type=click.IntRange(min=1), default=None,
              help="Run this many samples (reproducible for any --jobs).")
@click.option("--max-clues", type=click.IntRange(17, 81), default=None,
              help="supersets only: largest clue count counted [default: size + 3].")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Sample i uses the random stream splitmix64(seed, i).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker threads.")
@click.option("--weighted/--unweighted", default=True, show_default=True,
              help="Weight each sample by its grid's importance weight, which makes the estimate "
                   "exactly unbiased for uniform grids (the grid sampler is not uniform).")
@click.option("--csv", "as_csv", is_flag=True, help="CSV table on stdout instead of text.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def count(method: str, size: int, minutes: Optional[float], samples: Optional[int],
          max_clues: Optional[int], seed: int, jobs: int, weighted: bool, as_csv: bool,
          progress: Optional[bool]) -> None:
    """Unbiased estimates of the number of c-clue minimal puzzles per complete grid, for every c met,
    with relative errors (one standard error), and the totals per grid and in all."""
    if minutes is None and samples is None:
        raise click.UsageError("give --minutes M or --samples K")
    if max_clues is not None and method != "supersets":
        raise click.UsageError("--max-clues applies to --method supersets only")
    if max_clues is not None and max_clues < size:
        raise click.UsageError(f"--max-clues {max_clues} is below --size {size}")
    bar = tqdm(total=samples, unit="sample", file=sys.stderr,
               disable=None if progress is None else not progress)

    def report(result) -> None:
        bar.update(result.samples - bar.n)
        bar.set_postfix(found=int(result.found.sum()), refresh=False)

    result = count_minimals(method, size, samples=samples, minutes=minutes, seed=seed, jobs=jobs,
                            max_clues=max_clues, weighted=weighted, progress=report)
    bar.close()
    table = result.table()
    header = (f"{method} method, size {size}"
              + (f", max clues {result.max_clues}" if method == "supersets" else "")
              + f", {'weighted' if weighted else 'unweighted'} grids"
              + f": {result.samples} samples in {result.seconds:.1f} s ({jobs} jobs, seed {seed})")
    if as_csv:
        click.echo(f"# {header}", err=True)
        sys.stdout.write(table.to_csv(index=False, float_format="%.6g"))
        return
    click.echo(f"# {header}")
    click.echo(table.to_string(index=False, formatters={
        "per_grid": "{:.4e}".format, "rel_err": lambda r: f"{100 * r:.2f}%", "total": "{:.4e}".format}))
    per_grid = float(table["per_grid"].iloc[-1])
    click.echo(f"# all minimal puzzles: {per_grid:.4e} per grid; {per_grid * GRIDS:.4e} in all "
               f"(x {GRIDS:,} grids); {per_grid * NON_ISOMORPHIC_GRIDS:.4e} non-isomorphic "
               f"(x {NON_ISOMORPHIC_GRIDS:,})")
