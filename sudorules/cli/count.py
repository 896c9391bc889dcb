"""``sudorules count``: estimate the number of minimal puzzles per clue count (subsets / supersets)."""

from __future__ import annotations

import sys
from typing import Optional

import click
from tqdm import tqdm

from ..generation.count import (GRIDS, METHODS, NON_ISOMORPHIC_GRIDS, CountResult, Stop, clue_range, count_minimals,
                                expensive_sample)
from ..errors import OptionError, SudorulesError
from ..options import CLUES_RANGE, SEED_RANGE, check_method_option
from ..output import open_output
from . import main, plural
from .generate import stop_on_signals
from .options import JOBS, MINUTES, progress_option, shows_progress


@main.command()
@click.option("--method", "-m", type=click.Choice(METHODS), required=True,
              help="subsets: minimal puzzles inside a random SIZE-subset of a random grid (small clue "
                   "counts); supersets: those containing it (large clue counts).")
@click.option("--size", "-s", type=click.IntRange(*CLUES_RANGE), required=True,
              help="Size of the random subset (the post uses 30 for subsets).")
@click.option("--minutes", type=MINUTES, default=None,
              help="Run for this long; the samples still in progress then are dropped (only complete "
                   "samples are counted).")
@click.option("--samples", type=click.IntRange(min=1), default=None,
              help="Run this many samples (reproducible for any --jobs).")
@click.option("--max-clues", type=click.IntRange(*CLUES_RANGE), default=None,
              help="supersets only: largest clue count counted [default: size + 3].")
@click.option("--seed", type=click.IntRange(*SEED_RANGE), default=0, show_default=True,
              help="Sample i uses the random stream splitmix64(seed, i).")
@click.option("--jobs", "-j", type=JOBS, default=1, show_default=True,
              help="Worker threads.")
@click.option("--weighted/--unweighted", default=True, show_default=True,
              help="Weight each sample by its grid's importance weight, which makes the estimate "
                   "exactly unbiased for uniform grids (the grid sampler is not uniform), with a larger error "
                   "than --unweighted for as many samples (README).")
@click.option("--csv", "as_csv", is_flag=True, help="CSV table on stdout instead of text.")
@progress_option()
def count(method: str, size: int, minutes: Optional[float], samples: Optional[int],
          max_clues: Optional[int], seed: int, jobs: int, weighted: bool, as_csv: bool,
          progress: Optional[bool]) -> None:
    """Unbiased estimates of the number of c-clue minimal puzzles per complete grid, for every c met,
    with relative errors (one standard error), and the totals per grid and in all.

    Ctrl-C (or SIGTERM) stops the run within milliseconds, even inside a long sample, and prints the
    table of the samples completed; the exit status is then 130 (143)."""
    if minutes is None and samples is None:
        raise click.UsageError("give --minutes M or --samples K")
    try:  # the API's check (count_minimals)
        check_method_option("max_clues", max_clues, method, cli=True)
    except OptionError as error:
        raise click.UsageError(str(error)) from None
    if max_clues is not None and max_clues < size:
        raise click.UsageError(f"--max-clues {max_clues} is below --size {size}")
    expensive = expensive_sample(method, size, max_clues)
    if expensive is not None:
        click.echo(f"Warning: {expensive}: expect few samples and large errors"
                   + ("; --minutes counts only the samples it completes" if minutes is not None else ""),
                   err=True)
    stop = Stop()
    with stop_on_signals(stop) as caught:
        bar = tqdm(total=samples, unit="sample", file=sys.stderr,
                   disable=not shows_progress(progress, rows_on_stdout=False))  # its table comes at the end

        def report(result: CountResult) -> None:
            bar.update(result.samples - bar.n)
            bar.set_postfix(found=int(result.found.sum()), refresh=False)

        try:
            result = count_minimals(method, size, samples=samples, minutes=minutes, seed=seed, jobs=jobs,
                                    max_clues=max_clues, weighted=weighted, progress=report, stop=stop)
        except MemoryError:  # rare since the enumeration's cache is capped (generator/generate.c): a full machine
            raise SudorulesError("out of memory (fewer --jobs need less)") from None
        finally:
            bar.close()
    if result.samples:  # else every estimate would be nan: no table
        _print_table(result, method, size, weighted, jobs, seed, as_csv)
    if caught.signum is not None:
        click.echo(f"interrupted after {plural(result.samples, 'sample')}", err=True)
        raise click.exceptions.Exit(caught.exit_code)
    in_progress = f" ({plural(result.abandoned, 'sample')} in progress abandoned)" if result.abandoned else ""
    if not result.samples:  # no estimate at all: the run failed, as one that ran out of grids (status 1)
        raise SudorulesError(f"time limit: no sample completed in --minutes {minutes:g}{in_progress}; "
                             "give more time")
    if result.abandoned:
        click.echo(f"time limit: {plural(result.abandoned, 'sample')} in progress abandoned, "
                   f"{plural(result.samples, 'complete sample')} counted; dropping slow samples may bias "
                   "the estimate low" + ("" if samples is not None else " (use --samples K for an exact sample count)"),
                   err=True)


def _print_table(result: CountResult, method: str, size: int, weighted: bool, jobs: int, seed: int,
                 as_csv: bool) -> None:
    table = result.table()
    header = (f"{method} method, size {size}"
              + (f", max clues {result.max_clues}" if method == "supersets" else "")
              + f", {'weighted' if weighted else 'unweighted'} grids"
              + f": {plural(result.samples, 'sample')} in {result.seconds:.1f} s "
              + f"({plural(jobs, 'job')}, seed {seed})")
    low, high = clue_range(method, size, result.max_clues)  # not "all minimal puzzles": only these were counted
    clues = f"{low}-{high} clues" if low < high else plural(low, "clue")
    # None found: "0.0000e+00 per grid", status 0, read as an estimate of none (helper-39: supersets of
    # size 28, about 5 puzzles a million samples); it is no estimate at all
    none_found = int(table["count"].iloc[-1]) == 0
    if none_found:
        nearer = "a smaller --size" if method == "supersets" else "a larger --size"
        said = (f"no minimal puzzle of {clues} found in {plural(result.samples, 'sample', grouped=True)}: no "
                f"estimate (0 with no error bound); take more samples (--samples, --minutes) or {nearer}")
        if result.abandoned:
            # the samples that hold puzzles are the slow ones, the ones the deadline cut (helper-45: size
            # 40 in 0.5 min completed 11 empty samples, and the advice pointed the other way)
            said = (f"no minimal puzzle of {clues} found in the {plural(result.samples, 'sample', grouped=True)} "
                    f"completed, and {plural(result.abandoned, 'sample')} in progress dropped at the --minutes "
                    "deadline: the samples that hold puzzles are the slow ones; give --samples K, which waits for "
                    "each, or more --minutes")
    if as_csv:
        click.echo(f"# {header}", err=True)
        with open_output(None) as stream:
            stream.write(table.to_csv(index=False, float_format="%.6g"))
        if none_found:
            click.echo(f"# {said}", err=True)
        return
    per_grid = float(table["per_grid"].iloc[-1])
    text = table.to_string(index=False, formatters={
        "per_grid": "{:.4e}".format, "rel_err": lambda r: f"{100 * r:.2f}%", "total": "{:.4e}".format})
    with open_output(None) as stream:
        stream.write(f"# {header}\n{text}\n" + (f"# {said}\n" if none_found else
                     f"# minimal puzzles of {clues}: {per_grid:.4e} per grid; {per_grid * GRIDS:.4e} in all "
                     f"(x {GRIDS:,} grids); {per_grid * NON_ISOMORPHIC_GRIDS:.4e} non-isomorphic "
                     f"(x {NON_ISOMORPHIC_GRIDS:,})\n"))
