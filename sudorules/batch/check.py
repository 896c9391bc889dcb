"""``sudorules check``: solution count, minimality and solution of every puzzle of an input.

One :class:`CheckRow` per input record, in input order.  Valid puzzles go to the compiled core in
batches (the batch API, one C call per batch); a record that does not parse keeps its error and gets
empty results, and the run goes on.
"""

from __future__ import annotations

import csv
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Callable, Iterable, Iterator, Optional

import numpy as np

from .. import core
from ..collection.template import RowTemplate
from ..generation.canonical import canonical_texts
from ..output import csv_cell
from ..reader import BATCH_SIZE, TAIL, PuzzleRecord, record_batches

#: CSV columns, in order; ``tail`` is the input record's tail, as it was; ``error`` is always the last
#: column, empty for a record that parsed.
COLUMNS = ("puzzle", "clues", "solutions", "minimal", "solution", TAIL, "error")


def columns(canonical: bool = False) -> tuple[str, ...]:
    """The CSV columns; with ``canonical``, the ``canonical`` column (the puzzle's minlex form,
    README "Canonical forms") comes before ``tail`` and ``error``."""
    return COLUMNS[:-2] + ("canonical", TAIL, "error") if canonical else COLUMNS

#: Puzzles sent to the core per call.


@dataclass(frozen=True)
class CheckRow:
    """The check of one input record.  For a record that did not parse, only ``puzzle`` (the raw
    line) and ``error`` (line number and reason) are set."""

    puzzle: str
    clues: Optional[int] = None
    solutions: Optional[int] = None  #: 0, 1 or 2 (two or more)
    minimal: Optional[bool] = None
    solution: Optional[str] = None  #: the 81 digits of the solution, only when it is unique
    error: Optional[str] = None
    tail: str = ""  #: the input record's tail
    canonical: Optional[str] = None  #: the puzzle's canonical form, when asked for

    @property
    def ok(self) -> bool:
        """True when the record parsed (whatever its solution count)."""
        return self.error is None

    def csv_fields(self, canonical: bool = False) -> list[str]:
        """The row's CSV fields, in :func:`columns` order (``true``/``false``, empty for unknown)."""
        return [
            self.puzzle,
            "" if self.clues is None else str(self.clues),
            "" if self.solutions is None else str(self.solutions),
            "" if self.minimal is None else ("true" if self.minimal else "false"),
            self.solution or "",
            *([self.canonical or ""] if canonical else []),
            self.tail,
            self.error or "",
        ]

    def as_dict(self, canonical: bool = False) -> dict[str, str]:
        """The row as ``{column: CSV cell}`` (what ``--format`` templates read)."""
        return dict(zip(columns(canonical), self.csv_fields(canonical)))


def check_records(records: Iterable[PuzzleRecord], batch_size: int = BATCH_SIZE,
                  canonical: bool = False, jobs: int = 1) -> Iterator[CheckRow]:
    """Check each record, yielding one :class:`CheckRow` per record in input order; with
    ``canonical``, each valid row also gets its puzzle's canonical form.  ``jobs`` threads share
    each batch's minimality tests (the core releases the GIL): they were 1.9 of the 2.1 s of checking
    cb-001, about 26 solver calls a minimal puzzle."""
    threads = ThreadPoolExecutor(jobs) if jobs > 1 else None
    try:
        for batch in record_batches(records, batch_size):
            yield from _check_batch(batch, canonical, threads, jobs)
    finally:
        if threads is not None:
            threads.shutdown(cancel_futures=True)


def _minimal(grids: np.ndarray, threads: Optional[ThreadPoolExecutor], jobs: int) -> np.ndarray:
    """core.is_minimal_batch of ``grids``, cut into ``jobs`` parts run on ``threads`` (if any)."""
    if threads is None or len(grids) < 2:
        return core.is_minimal_batch(grids)
    parts = np.array_split(grids, min(jobs, len(grids)))
    return np.concatenate(list(threads.map(core.is_minimal_batch, parts)))


def _check_batch(records: list[PuzzleRecord], canonical: bool = False,
                 threads: Optional[ThreadPoolExecutor] = None, jobs: int = 1) -> Iterator[CheckRow]:
    valid = [r.puzzle for r in records if r.puzzle is not None]
    grids = np.array([p.givens for p in valid], dtype=np.uint8).reshape(len(valid), 81)
    counts, solutions = core.count_solutions_batch(grids, limit=2)
    unique = np.flatnonzero(counts == 1)
    minimal = np.zeros(len(valid), dtype=bool)
    minimal[unique] = _minimal(grids[unique], threads, jobs)  # (pencilmark rows ignore theirs)
    # the texts and clue counts, vectorised: str(puzzle) and puzzle.clues cost more per puzzle
    characters = np.where(grids == 0, ord("."), grids + ord("0")).astype(np.uint8)
    puzzle_texts = characters.tobytes().decode("ascii")
    solution_texts = (solutions + ord("0")).tobytes().decode("ascii")
    clues = np.count_nonzero(grids, axis=1).tolist()
    # Pencilmark puzzles: their candidates, not their decided cells, say how many solutions there
    # are; minimality (of givens) does not apply to them and is left empty.
    pencilmark = np.array([p.is_pencilmark for p in valid], dtype=bool)
    if pencilmark.any():
        where = np.flatnonzero(pencilmark)
        masks = np.array([valid[i].marks for i in where], dtype=np.uint16)
        counts[where], solutions[where] = core.count_solutions_masks(masks, limit=2)
        solution_texts = (solutions + ord("0")).tobytes().decode("ascii")
    forms = canonical_texts(valid) if canonical else [None] * len(valid)
    index = 0
    for record in records:
        if record.puzzle is None:
            yield CheckRow(record.cell, error=f"{record.where}: {record.error}", tail=record.tail)
            continue
        count = int(counts[index])
        if pencilmark[index]:
            yield CheckRow(puzzle=str(record.puzzle), clues=record.puzzle.clues, solutions=count,
                           solution=solution_texts[81 * index: 81 * index + 81] if count == 1 else None,
                           canonical=forms[index], tail=record.tail)
            index += 1
            continue
        span = slice(81 * index, 81 * index + 81)
        yield CheckRow(
            puzzle=puzzle_texts[span],
            clues=clues[index],
            solutions=count,
            minimal=bool(minimal[index]),
            solution=solution_texts[span] if count == 1 else None,
            canonical=forms[index],
            tail=record.tail,
        )
        index += 1


def write_csv(rows: Iterable[CheckRow], stream: IO[str], canonical: bool = False,
              template: Optional[RowTemplate] = None, say: Optional[Callable[[str], object]] = None) -> tuple[int, int]:
    """Write the header and one CSV line per row, or with ``template`` (``--format``) one text line
    per row (and each invalid row's ``line N: reason`` on stderr: :meth:`RowTemplate.tell_invalid`,
    through ``say`` where given: a progress bar's); return the numbers of rows and of rows that did
    not parse.  CSV cells as
    :func:`~sudorules.output.csv_line` writes them (an invalid line's raw text made safe for
    spreadsheets)."""
    writer = csv.writer(stream, lineterminator="\n")
    if template is None:
        writer.writerow(columns(canonical))
    total = invalid = 0
    for row in rows:
        if template is None:
            writer.writerow([csv_cell(cell) for cell in row.csv_fields(canonical)])
        else:
            stream.write(template.line(row.as_dict(canonical)))
            if not row.ok:
                template.tell_invalid(row.error or "", say)
        total += 1
        invalid += not row.ok
    return total, invalid
