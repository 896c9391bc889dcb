"""Batch rating of puzzle files: ordered, on all cores, resumable, never a half-written row.

Rows are appended to the output as they are produced, in input order, each with one ``write`` call
on a file opened in append mode, so a process killed at any moment (even ``kill -9``) leaves only
complete rows.  Running the same command again reads the rows already there, checks they belong to
this input, and rates only what is missing.
"""

from __future__ import annotations

import csv
import io
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Sequence

from .pool import OrderedPool, cpu_count
from .rating import RatingRow, Rater, header, record_failed_row
from .reader import PuzzleRecord, read_puzzle_file


def csv_line(cells: Sequence[str]) -> str:
    """One CSV line (with its newline) for a list of cells."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()


class BatchError(Exception):
    """A batch that cannot start or resume (e.g. an output written for another input)."""


def completed_rows(path: Path, columns: Sequence[str]) -> list[list[str]]:
    """The complete rows already in an output file (none if it does not exist).

    A trailing line without its newline (impossible with our writer, possible after a disk error) is
    cut off the file so that the next row starts cleanly.
    """
    if not path.exists() or path.stat().st_size == 0:
        return []
    data = path.read_bytes()
    if not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with open(path, "r+b") as handle:
            handle.truncate(keep)
        data = data[:keep]
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    if not rows:
        return []
    if rows[0] != list(columns):
        raise BatchError(f"{path} has columns {','.join(rows[0])}, expected {','.join(columns)}: "
                         "use another output file or the same --rating as before")
    return rows[1:]


@dataclass
class BatchSummary:
    """What a batch run did."""

    rated: int = 0
    skipped: int = 0  #: rows already present (resumed)
    statuses: dict[str, int] | None = None
    seconds: float = 0.0
    workers_replaced: int = 0


def _make_rater_handle(ratings: Sequence[str], max_length: int, time_limit: Optional[float]) -> Callable:
    """Worker factory for the pool: build the rater once per process, return its per-record function."""
    rater = Rater(ratings, max_length=max_length, time_limit=time_limit)
    return rater.rate


def rate_records(records: Iterable[PuzzleRecord], ratings: Sequence[str] = ("W",), jobs: Optional[int] = None,
                 max_length: int = 36, time_limit: Optional[float] = None,
                 memory_limit: Optional[int] = None) -> Iterator[RatingRow]:
    """Rate records on ``jobs`` worker processes (default: all cores); yield rows in input order."""
    ratings = tuple(ratings)

    def on_failure(record: PuzzleRecord, kind: str, detail: str) -> RatingRow:
        status = kind if kind in ("timeout", "memory") else "crashed"
        return record_failed_row(record, ratings, status, detail,
                                 (time_limit or 0.0) if kind == "timeout" else 0.0)

    # The hard limit is a backstop: the engine stops itself at time_limit and reports "timeout".
    hard_limit = None if time_limit is None else 2 * time_limit + 10
    pool = OrderedPool(_make_rater_handle, (ratings, max_length, time_limit), jobs or cpu_count(),
                       on_failure, task_timeout=hard_limit, memory_limit=memory_limit)
    yield from pool.imap(enumerate(records))


def rate_file(source: str, output: Optional[str], ratings: Sequence[str] = ("W",), jobs: Optional[int] = None,
              max_length: int = 36, time_limit: Optional[float] = None, memory_limit: Optional[int] = None,
              progress: bool = True, scheduler: Optional[str] = None) -> BatchSummary:
    """Rate every record of ``source`` (a file or ``-``) into ``output`` (CSV; stdout when None).

    With an output file, resumes: rows already there are kept and their puzzles skipped.  An output
    name ending in ``.parquet`` is built from a resumable CSV beside it (``NAME.parquet.partial.csv``)
    and written at the end.  With ``scheduler`` (``tcp://HOST:PORT``), the puzzles are rated on that
    dask.distributed cluster instead of local worker processes.
    """
    if output is not None and output.endswith(".parquet"):
        return _rate_to_parquet(source, output, ratings, jobs, max_length, time_limit, memory_limit,
                                progress, scheduler)
    columns = header(ratings)
    summary = BatchSummary(statuses={})
    started = time.perf_counter()
    records = read_puzzle_file(source)
    if output is None:
        handle_fd = sys.stdout.fileno()
        sys.stdout.flush()
        os.write(handle_fd, csv_line(columns).encode())
    else:
        path = Path(output)
        done = completed_rows(path, columns)
        handle_fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if not done and path.stat().st_size == 0:
            os.write(handle_fd, csv_line(columns).encode())
        records = _skip_done(records, done)
        summary.skipped = len(done)
    total = _count_records(source) if progress and source != "-" else None
    bar = _progress_bar(total, summary.skipped) if progress else None
    try:
        if scheduler is not None:
            from .distributed import rate_records_on_cluster

            rows = rate_records_on_cluster(records, scheduler, ratings, max_length, time_limit)
        else:
            rows = rate_records(records, ratings, jobs, max_length, time_limit, memory_limit)
        for row in rows:
            os.write(handle_fd, csv_line(row.values(ratings)).encode("utf-8"))
            summary.rated += 1
            summary.statuses[row.status] = summary.statuses.get(row.status, 0) + 1
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(", ".join(f"{k} {v}" for k, v in summary.statuses.items()), refresh=False)
    finally:
        if bar is not None:
            bar.close()
        if output is not None:
            os.close(handle_fd)
    summary.seconds = time.perf_counter() - started
    return summary


def _rate_to_parquet(source, output, ratings, jobs, max_length, time_limit, memory_limit, progress,
                     scheduler) -> BatchSummary:
    """Rate into a resumable CSV beside ``output``, then write the Parquet file (atomically) from it."""
    import pandas as pd

    partial = output + ".partial.csv"
    if Path(output).exists() and not Path(partial).exists():
        pd.read_parquet(output).to_csv(partial, index=False)  # resume from a finished file
    summary = rate_file(source, partial, ratings, jobs, max_length, time_limit, memory_limit, progress, scheduler)
    table = pd.read_csv(partial, dtype={"puzzle": str, "status": str, "error": str}, keep_default_na=False)
    for column in ["clues", *ratings]:
        table[column] = pd.to_numeric(table[column], errors="coerce").astype("Int64")
    temporary = output + ".tmp"
    table.to_parquet(temporary, index=False)
    os.replace(temporary, output)
    os.remove(partial)
    return summary


def _skip_done(records: Iterator[PuzzleRecord], done: list[list[str]]) -> Iterator[PuzzleRecord]:
    """Skip the records whose rows are already written, checking they are the same puzzles."""
    for row in done:
        record = next(records, None)
        if record is None:
            raise BatchError("the output has more rows than the input has puzzles: is it another input's output?")
        expected = str(record.puzzle) if record.puzzle is not None else record.text.strip()
        if row[0] != expected:
            raise BatchError(f"the output's row for input line {record.line} is for {row[0]!r}, not {expected!r}: "
                             "is it another input's output?")
    yield from records


def _count_records(source: str) -> Optional[int]:
    """The number of puzzle lines, for the progress bar (grid-form files count 9 lines a puzzle)."""
    try:
        with open(source, "rb") as handle:
            lines = [line.strip() for line in handle]
    except OSError:
        return None
    one_line = sum(1 for line in lines if len(line) >= 81 and not line.startswith(b"#"))
    return one_line or None


def _progress_bar(total: Optional[int], initial: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="puzzle", file=sys.stderr, dynamic_ncols=True,
                smoothing=0.05)
