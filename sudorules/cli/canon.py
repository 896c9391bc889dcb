"""``sudorules canon FILE|-``: the canonical (minlex) form of each puzzle, and isomorph removal."""

from __future__ import annotations

from typing import IO, Callable, Iterable, Optional

import click
import numpy as np

from .. import core
from ..errors import EXIT_INVALID
from ..generation.canonical import canonical_batch
from ..output import check_csv_output, open_output
from ..progress import RecordProgress
from ..puzzle import Puzzle
from ..reader import PuzzleRecord, names_file, record_batches, records_from_argument
from . import main
from .options import progress_option, shows_progress, to_stdout

def _forms(puzzles: list[Puzzle], solution: bool) -> tuple[list[Optional[str]], list[int], list[str]]:
    """Forms (None where there is none), automorphism counts and per-puzzle errors ('' if fine)."""
    forms: list[Optional[str]] = [None] * len(puzzles)
    counts = [0] * len(puzzles)
    errors = [""] * len(puzzles)
    plain = [i for i, p in enumerate(puzzles) if not p.is_pencilmark]
    marked = [i for i, p in enumerate(puzzles) if p.is_pencilmark]
    if plain:
        grids = np.array([puzzles[i].givens for i in plain], dtype=np.uint8).reshape(len(plain), 81)
        keep = np.ones(len(plain), dtype=bool)
        if solution:
            found, grids = core.count_solutions_batch(grids, limit=2)
            keep = found == 1
            for k in np.flatnonzero(~keep):
                errors[plain[k]] = "no solution" if found[k] == 0 else "several solutions"
        done, automorphisms, _ = canonical_batch(grids[keep])
        texts = np.where(done == 0, ord("."), done + ord("0")).astype(np.uint8).tobytes().decode("ascii")
        for k, i in enumerate(np.array(plain)[keep]):
            forms[i] = texts[81 * k: 81 * k + 81]
            counts[i] = int(automorphisms[k])
    if marked:
        masks = np.array([puzzles[i].marks for i in marked], dtype=np.uint16)
        if solution:
            found, grids = core.count_solutions_masks(masks, limit=2)
            for k, i in enumerate(marked):
                if found[k] != 1:
                    errors[i] = "no solution" if found[k] == 0 else "several solutions"
                else:
                    done, automorphisms, _ = canonical_batch(grids[k: k + 1])
                    forms[i] = str(Puzzle(done[0].tolist()))
                    counts[i] = int(automorphisms[0])
        else:
            done, automorphisms, _ = canonical_batch(masks, marks=True)
            for k, i in enumerate(marked):
                forms[i] = str(Puzzle.from_marks(done[k].tolist()))
                counts[i] = int(automorphisms[k])
    return forms, counts, errors


def write_forms(records: Iterable[PuzzleRecord], stream: IO[str], *, unique: bool = False,
                automorphisms: bool = False, solution: bool = False,
                say: Callable[[str], object] = lambda text: click.echo(text, err=True)) -> tuple[int, int, int]:
    """Write one line per valid record: its form, its automorphisms if asked, its tail.  With
    ``unique``, a record whose form was already written is left out.  Bad records (and, with
    ``solution``, puzzles without a unique solution) get a line ``line N: reason`` on stderr
    (``say``).  Returns ``(records, written, bad)``."""
    seen: set[str] = set()
    total = written = bad = 0
    for batch in record_batches(records):
        valid = [r for r in batch if r.puzzle is not None]
        forms, counts, errors = _forms([r.puzzle for r in valid], solution)  # type: ignore[misc]
        result = {id(r): k for k, r in enumerate(valid)}
        for record in batch:
            total += 1
            k = result.get(id(record))
            reason = record.error if k is None else errors[k]
            if reason:
                bad += 1
                say(f"{record.where}: {reason}")
                continue
            form = forms[k]  # type: ignore[index]
            if unique:
                if form in seen:
                    continue
                seen.add(form)
            text = " ".join([form] + ([str(counts[k])] if automorphisms else []))  # type: ignore[list-item]
            stream.write(record.with_tail(text) + "\n")  # the tail as every text output keeps it
            written += 1
    return total, written, bad


@main.command()
@click.argument("source", metavar="FILE|-|PUZZLE")
@click.option("--unique", is_flag=True,
              help="Leave out every puzzle whose form was already written (isomorphs): the first occurrence "
                   "stays; the counts go to stderr.")
@click.option("--solution", is_flag=True,
              help="The form of each puzzle's solution grid instead (puzzles without a unique solution are "
                   "errors).")
@click.option("--automorphisms", is_flag=True,
              help="Write after each form the number of maps that give it back (1 for most puzzles).")
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write here instead of stdout (- = stdout; a regular file is written under a temporary name "
                   "and renamed at the end).")
@progress_option()
def canon(source: str, unique: bool, solution: bool, automorphisms: bool, output: Optional[str],
          progress: Optional[bool]) -> None:
    """The canonical (minlex) form of each puzzle, grid or pencilmark puzzle, one per line, with the
    input line's tail: the smallest string over the 3,359,232 maps (transposition, band, row, stack
    and column permutations) and digit renamings, '.' the smallest character (README "Canonical
    forms").  Equivalent puzzles have the same form.  Exit status 1 when some record is invalid (stderr
    names its line and reason)."""
    records = records_from_argument(source)
    check_csv_output(output, inputs=[source])
    with open_output(output, inputs=[source]) as stream, RecordProgress(source, shows_progress(progress, to_stdout(output)) and names_file(source)) as shown:
        total, written, bad = write_forms(shown.over(records), stream, unique=unique, automorphisms=automorphisms,
                                          solution=solution, say=shown.say)
    if unique:
        valid = total - bad
        click.echo(f"{valid} puzzle{'' if valid == 1 else 's'}, {written} distinct, {valid - written} "
                   f"isomorph{'' if valid - written == 1 else 's'} removed"
                   + (f"; {bad} invalid" if bad else ""), err=True)
    if bad:
        raise click.exceptions.Exit(EXIT_INVALID)
