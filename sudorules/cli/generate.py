"""``sudorules generate``: minimal puzzles by the bottom-up, top-down or controlled-bias generator."""

from __future__ import annotations

import signal
import sys
import time
from contextlib import contextmanager, nullcontext
from typing import IO, Iterable, Iterator, Optional

import click
from tqdm import tqdm

from ..errors import InputError, Interrupted, OptionError, SudorulesError
from ..generation.generate import (DEFAULT_UNTESTED, METHODS, BadGrid, GridsExhausted, Stop, importance_weights,
                                   iter_generate, puzzle_strings)
from ..options import (PUZZLES_RANGE, SEED_RANGE, START_RANGE, UNTESTED_RANGE, check_method_option, check_start,
                       check_weights)
from ..output import check_csv_output, is_stream, open_output, same_output
from ..reader import TableGivenError, open_lines
from . import install_signal_handlers, main, plural
from .options import JOBS, progress_option, shows_progress, to_stdout


class Caught:
    """The signal that asked a run to stop, if any (see :func:`stop_on_signals`).  ``blocking`` is
    true while the main thread may wait on something a stop request does not end (reading standard
    input): a signal then raises at once."""

    signum: Optional[int] = None
    blocking: bool = False

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or signal.SIGINT)


@contextmanager
def stop_on_signals(stop: Stop, caught: Optional[Caught] = None) -> Iterator[Caught]:
    """While the body runs, the first SIGINT, SIGTERM or SIGHUP sets ``stop`` (the C loops then return
    within milliseconds with the work they completed, and the run ends normally with it) and is
    remembered in the yielded :class:`Caught`; a second one, or one that comes while
    ``caught.blocking``, raises :class:`Interrupted` at once, as outside the body.  The previous
    handlers come back at the end.  Installed as every command's (:func:`install_signal_handlers`:
    an ignored signal stays ignored, the main thread only)."""
    caught = Caught() if caught is None else caught

    def handler(signum: int, _frame) -> None:
        if caught.signum is None:
            caught.signum = signum
            stop.set()
            if not caught.blocking:
                return
        raise Interrupted(signum)

    previous = install_signal_handlers(handler)
    try:
        yield caught
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


@main.command()
@click.option("--method", "-m", type=click.Choice(METHODS), required=True, help="The generator.")
@click.option("-n", "count", type=click.IntRange(*PUZZLES_RANGE), required=True, help="Number of puzzles.")
@click.option("--seed", type=click.IntRange(*SEED_RANGE), default=0, show_default=True,
              help="Run seed: puzzle i (or given grid i) uses the random stream splitmix64(seed, i).")
@click.option("--start", type=click.IntRange(*START_RANGE), default=0, show_default=True, metavar="K",
              help="Begin at puzzle K of the seed's sequence (seeded grids only): runs of consecutive "
                   "ranges (--start 0 -n 300, --start 300 -n 300...), concatenated, are the one run of them all.")
@click.option("--jobs", "-j", type=JOBS, default=1, show_default=True,
              help="Worker threads (the C code runs without the GIL); the output does not depend on it.")
@click.option("--grids", type=str, default=None, metavar="FILE|-",
              help="Complete grids to use in order, one per line (- = stdin), instead of the seeded "
                   "grid generator (top-down: one grid per puzzle; controlled-bias: as many as needed).")
@click.option("--untested", type=click.IntRange(*UNTESTED_RANGE), default=None,
              help=f"Controlled-bias only: delete the first N clues without testing "
                   f"[default: {DEFAULT_UNTESTED}, as in the papers].")
@click.option("-o", "--output", type=str, default=None, metavar="FILE|-",
              help="Write here instead of stdout (a regular file is written under a temporary name and "
                   "renamed at the end).")
@click.option("--weights", type=str, default=None, metavar="FILE|-",
              help="Also write each puzzle's importance weight here, line k for puzzle k (seeded grids only): "
                   "the seeded grids are not uniform, and stats --weights FILE weights the puzzles back to "
                   "uniform grids.")
@progress_option(" (puzzles, tries, rate)")
def generate(method: str, count: int, seed: int, start: int, jobs: int, grids: Optional[str],
             untested: Optional[int], output: Optional[str], weights: Optional[str], progress: Optional[bool]) -> None:
    """Generate N minimal puzzles, one per line.  Controlled-bias lines are ``puzzle tries`` (tries =
    complete grids used for that puzzle, the format of the published collection).  ``--weights FILE``
    writes each puzzle's grid importance weight, line for line, for ``stats --weights FILE``.

    Ctrl-C (or SIGTERM) stops the run at once (between two puzzles, or two grids for controlled-bias)
    and keeps the puzzles made, in order (the first lines of the full run); the exit status is then
    130 (143)."""
    try:  # the API's checks (iter_generate), here before the grids and the output are opened
        check_method_option("grids", grids, method, cli=True)
        check_method_option("untested", untested, method, cli=True)
        check_start(start, grids, cli=True)
        check_weights(weights is not None, method, grids, cli=True)
    except OptionError as error:
        raise click.UsageError(str(error)) from None
    if weights is not None and same_output(weights, output):
        shown = "standard output" if to_stdout(output) else f"-o {output}"
        raise click.UsageError(f"--weights {weights}: the puzzles go there ({shown}); give the weights another file")
    check_csv_output(output, inputs=() if grids is None else (grids,))  # before the grids are read
    if weights is not None:
        check_csv_output(weights)
    caught = Caught()
    source = _grid_lines(grids, caught) if grids is not None else None
    stop = Stop()
    with_tries = method == "controlled-bias"
    written = [0]
    failure: Optional[GridsExhausted] = None
    left = ""  # what became of the output file, when the run made no puzzle
    try:
        with stop_on_signals(stop, caught), open_output(output, inputs=() if grids is None else (grids,)) as stream, \
                (open_output(weights) if weights is not None else nullcontext()) as weight_stream:
            bar = tqdm(total=count, unit="puzzle", file=sys.stderr,
                       disable=not shows_progress(progress, to_stdout(output)), smoothing=0.1)
            started = time.monotonic()

            def report(done: int, tries: int) -> None:
                bar.update(done - bar.n)
                if with_tries:
                    rate = tries / max(time.monotonic() - started, 1e-9)
                    bar.set_postfix(tries=tries, grids_per_s=f"{rate:,.0f}", refresh=False)

            batches = iter_generate(method, count, seed, untested=untested, grids=source, jobs=jobs,
                                    weights=weights is not None, progress=report, stop=stop, start=start)
            try:
                _write(batches, stream, with_tries, written, weight_stream)
            except GridsExhausted as error:  # the puzzles made are complete: keep them
                failure = error
            except BadGrid as error:  # nothing is kept (an output file is not created)
                raise SudorulesError(f"--grids {_shown(grids)}: {error}") from None
            except Interrupted as error:  # while reading --grids, or a second signal: keep the lines written
                caught.signum = error.signum
            finally:
                bar.close()
            if not written[0] and (failure is not None or caught.signum is not None):
                raise _NothingMade  # the run's output is discarded: an older file is not replaced by nothing
    except _NothingMade:
        left = "" if is_stream(output) else f"; {output} left as it was"
    if caught.signum is not None:
        click.echo(f"interrupted after {plural(written[0], 'puzzle')}{left}", err=True)
        raise click.exceptions.Exit(caught.exit_code)
    if failure is not None:
        raise SudorulesError(f"{failure}{'; the puzzles made are written' if written[0] else left}")


class _NothingMade(Exception):
    """Raised out of the output's block when a run that fails or is stopped made no puzzle, so that
    the output is not written: replacing an older ``-o`` file with an empty one lost it (README
    "Output files": a failed run leaves the old file as it was)."""


def _shown(grids: str) -> str:
    return "standard input" if grids == "-" else grids


def _grid_lines(grids: str, caught: Caught) -> Iterator[str]:
    """The lines of the --grids source, opened now: an empty name, a missing file, a directory or an
    unreadable file is an InputError here, before any output; so is a read error later.  While a
    line is awaited (standard input may never come), ``caught.blocking`` lets a signal interrupt."""
    if grids == "":
        raise InputError("--grids: the file name is empty (use - for standard input)")
    try:
        lines = open_lines(grids)
    except TableGivenError as error:  # its advice piped the table's puzzles, not grids, into rate
        name = _shown(grids)
        # a rate table has no solution column (the advice failed on one: helper-40); check gives it
        raise InputError(f"--grids {name}: {error.kind}, not a file of grids: take the solutions of its puzzles "
                         f"(sudorules select {name} --puzzles | sudorules check - --format '{{solution}}' | "
                         "sudorules generate ... --grids -)") from None
    except InputError as error:
        raise InputError(f"--grids {error}") from None
    except OSError as error:
        raise InputError(f"--grids {_shown(grids)}: {error.strerror or error}") from None
    return _read(lines, grids, caught)


def _read(lines: Iterator[str], grids: str, caught: Caught) -> Iterator[str]:
    try:
        while True:
            caught.blocking = True
            try:
                line = next(lines, None)
            finally:
                caught.blocking = False
            if line is None:
                return
            yield line
    except OSError as error:
        raise InputError(f"--grids {_shown(grids)}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"--grids {_shown(grids)}: not UTF-8 text ({error.reason})") from None


def _write(batches: Iterable, stream: IO[str], with_tries: bool, written: list,
           weight_stream: Optional[IO[str]] = None) -> None:
    """Write every batch as complete lines, flushing after each batch; ``written[0]`` counts them.
    With ``weight_stream``, each puzzle's importance weight goes there on the same line number: the
    two texts of a batch are made first and the puzzles written even when a second signal (the
    :class:`Interrupted` that ends the run at once) comes after the weights, so the files stay
    line-aligned."""
    for batch in batches:
        lines = puzzle_strings(batch.puzzles)
        if with_tries:
            lines = [f"{line} {tries}" for line, tries in zip(lines, batch.tries.tolist())]
        if not lines:
            continue
        text = "\n".join(lines) + "\n"
        if weight_stream is None:
            stream.write(text)
        else:  # repr: the shortest text that reads back as the same float
            weights = "".join(f"{w!r}\n" for w in importance_weights(batch.weights).tolist())
            try:
                weight_stream.write(weights)
                weight_stream.flush()
            finally:
                stream.write(text)
        stream.flush()
        written[0] += len(lines)
