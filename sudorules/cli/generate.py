"""``sudorules generate``: minimal puzzles by the bottom-up, top-down or controlled-bias generator."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Optional

import click
from tqdm import tqdm

from ..generate import DEFAULT_UNTESTED, METHODS, GridsExhausted, iter_generate, puzzle_strings
from ..reader import open_lines
from . import main


@main.command()
@click.option("--method", "-m", type=click.Choice(METHODS), required=True, help="The generator.")
@click.option("-n", "count", type=click.IntRange(min=1), required=True, help="Number of puzzles.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Run seed: puzzle i (or given grid i) uses the random stream splitmix64(seed, i).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker threads (the C code runs without the GIL); the output does not depend on it.")
@click.option("--grids", type=str, default=None, metavar="FILE|-",
              help="Complete grids to use in order, one per line (- = stdin), instead of the seeded "
                   "grid generator (top-down: one grid per puzzle; controlled-bias: as many as needed).")
@click.option("--untested", type=click.IntRange(0, 64), default=None,
              help=f"Controlled-bias only: delete the first N clues without testing "
                   f"[default: {DEFAULT_UNTESTED}, as in the papers].")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write here (a temporary file renamed at the end) instead of stdout.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (puzzles, tries, rate) [default: when stderr is a terminal].")
def generate(method: str, count: int, seed: int, jobs: int, grids: Optional[str],
             untested: Optional[int], output: Optional[Path], progress: Optional[bool]) -> None:
    """Generate N minimal puzzles, one per line.  Controlled-bias lines are ``puzzle tries`` (tries =
    complete grids used for that puzzle, the format of the published collection)."""
    if grids is not None and method == "bottom-up":
        raise click.UsageError("--grids: bottom-up starts from the empty grid and takes no complete grids")
    if untested is not None and method != "controlled-bias":
        raise click.UsageError("--untested applies to --method controlled-bias only")
    if grids is not None and grids != "-" and not Path(grids).is_file():
        raise click.UsageError(f"--grids: no such file: {grids}")
    source = open_lines(grids) if grids is not None else None
    bar = tqdm(total=count, unit="puzzle", file=sys.stderr, disable=_disabled(progress), smoothing=0.1)
    started = time.monotonic()

    def report(done: int, tries: int) -> None:
        bar.update(done - bar.n)
        if method == "controlled-bias":
            rate = tries / max(time.monotonic() - started, 1e-9)
            bar.set_postfix(tries=tries, grids_per_s=f"{rate:,.0f}", refresh=False)

    batches = iter_generate(method, count, seed, untested=DEFAULT_UNTESTED if untested is None else untested,
                            grids=source, jobs=jobs, progress=report)
    with_tries = method == "controlled-bias"
    try:
        if output is None:
            _write(batches, sys.stdout, with_tries)
        else:
            _write_atomically(output, batches, with_tries)
    except GridsExhausted as error:
        bar.close()
        click.echo(f"error: {error}; the puzzles made are written", err=True)
        sys.exit(1)
    except ValueError as error:  # a bad line in --grids
        bar.close()
        click.echo(f"error: --grids: {error}", err=True)
        sys.exit(1)
    bar.close()


def _disabled(progress: Optional[bool]) -> Optional[bool]:
    return None if progress is None else not progress


def _write(batches, stream: IO[str], with_tries: bool) -> None:
    """Write every batch as complete lines, flushing after each batch."""
    for batch in batches:
        lines = puzzle_strings(batch.puzzles)
        if with_tries:
            lines = [f"{line} {tries}" for line, tries in zip(lines, batch.tries.tolist())]
        if lines:
            stream.write("\n".join(lines) + "\n")
            stream.flush()


def _write_atomically(path: Path, batches, with_tries: bool) -> None:
    """Write to a temporary file beside ``path`` and rename it at the end (also when the given grids
    run out: the puzzles made are complete); any other failure removes the temporary file."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.resolve().parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            try:
                _write(batches, stream, with_tries)
            except GridsExhausted:
                stream.close()
                os.replace(temporary, path)
                raise
        os.replace(temporary, path)
    except GridsExhausted:
        raise
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
