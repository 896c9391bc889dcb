"""Batch rating of puzzle files: ordered, on all cores, resumable, never a half-written row.

Rows are appended to the output as they are produced, in input order, each with one ``write`` call
on a file opened in append mode, so a process killed at any moment (even ``kill -9``) leaves only
complete rows (:func:`~sudorules.output.write_all`: a short write on a nearly full disk is completed,
and a full disk cuts the file back to its last complete row and stops the run).  Running the same command again reads the rows already there, checks they belong to
this input, and rates only what is missing.

``retry`` rates again the rows that ended with some statuses (``memory``, ``timeout``...), say with
more memory or a longer time limit.  Their new rows are appended, with their row numbers, to a side
file ``OUT.retry.csv`` as they come (so an interrupted retry resumes too), and the output is then
rewritten once, under a temporary name renamed over it, with the new rows in place.

One run at a time per output: a run holds an exclusive lock (:func:`~sudorules.oscompat.lock`:
``flock``, ``msvcrt.locking`` on Windows) on its output file for as long as it writes (the system
drops it with the process, even on SIGKILL), and a second run on the same output refuses at once.
When ``retry`` renames a rewritten file over the output, the new file is locked before the rename,
so the output is never unlocked in between; Windows renames no open file, so there the output is
unlocked while it is rewritten, and locked again after.  The input is checked before the
output is created, and an output that is one of the inputs is refused.  An output that is not a
regular file (``/dev/null``, ``/dev/stdout``, a FIFO) is written directly, like standard output:
no resume, no lock.

The input is read once, as it comes: a pipe or a FIFO (``head -20 big.txt | sudorules rate
/dev/stdin``, ``rate <(...)``) is rated whole.  Only a regular file, which can be read again, is
counted ahead for the progress total, line by line.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, Sequence

from ..enums import Status
from ..errors import DiskFullError, EXIT_USAGE, Interrupted, OptionError, OutputError, SudorulesError
from ..extras import require
from ..options import (MAX_DEPTH_RANGE, MAX_LENGTH_RANGE, capped_jobs, check_memory_mib, check_time_limit,
                       check_whole)
from ..oscompat import O_BINARY, cpu_count, lock as lock_file, renames_open_files, start_method
from ..output import (aside_name, check_output, csv_line, csv_reader, csv_text, file_identity, is_parquet_name, is_stream,
                      open_output, stream_descriptor, write_all)
from .rating import RatingRow, Rater, compiled_only, header, is_classification, rating_pool
from ..progress import progress_bar
from ..reader import PuzzleRecord, check_source, clipped, count_records, printable_message, read_puzzle_file

if TYPE_CHECKING:
    from ..collection.template import RowTemplate

# The pool of worker processes is imported where workers are started, and the output is a path name
# (no pathlib): `rate --jobs 1` of the compiled engine's ratings into a CSV needs neither (with
# --format's tables, 10 of its 70 ms of start-up, issue 23: B against SHC at B0).


class BatchError(SudorulesError):
    """A batch that cannot start or resume (e.g. an output written for another input, or one that
    another run is writing): an output the user must change, so exit status 2."""

    exit_code = EXIT_USAGE


class OutputLock:
    """An exclusive lock (:func:`~sudorules.oscompat.lock`) on the file at ``path``, held while a run
    writes it.

    The lock belongs to the open file, so the system releases it when the process ends in any way;
    a second run asking for it is refused at once (no waiting)."""

    def __init__(self, path: str):
        self.path = path
        self.fd: Optional[int] = None
        self.size: Optional[int] = None  #: the file's size as this run's writes leave it, where it counts them

    def acquire(self) -> "OutputLock":
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | O_BINARY, 0o666)  # 0o666 less the umask, like open()
        try:
            taken = lock_file(fd)
        except OSError:
            os.close(fd)
            raise
        if not taken:
            os.close(fd)
            raise BatchError(f"{self.path} is being written by another sudorules rate or classify run: wait for it "
                             "to end, or choose another -o")
        self.fd = fd
        return self

    def take(self, fd: int) -> None:
        """Hold the lock through ``fd`` from now on, a descriptor of the file renamed over the locked
        one, locked before the rename (so that the output was never unlocked); drop the old one."""
        self.release()
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _without_tail(path: str, ratings: Sequence[str], canonical: bool = False) -> bool:
    """True when ``path`` starts with the header of an output written before the ``tail`` column
    existed (``puzzle,clues,W,status,seconds,error``): such a file is resumed in its own columns
    rather than refused, so a long run started by an older sudorules can still be finished."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline()
    except OSError:
        return False
    return first == csv_line(header(ratings, canonical, tail=False)).encode("utf-8")


def completed_rows(path: str, columns: Sequence[str]) -> list[list[str]]:
    """The complete rows already in an output file (none if it does not exist or is empty), as a
    list: :func:`_rows_after_header` checked and read whole (``--retry`` rewrites them all)."""
    return list(_rows_after_header(path, columns))


def _rows_after_header(path: str, columns: Sequence[str]) -> Iterator[list[str]]:
    """The complete rows already in an output file (none if it does not exist or is empty), read one
    at a time: a resume of 600,000 rows held them all, 626 MB before its first new row.

    The file must start with the header line of ``columns`` (else :class:`BatchError`: another
    rating's output, or not our file at all; it is left untouched), checked here, at the call.  Then a
    trailing line without its newline (impossible with our writer, possible after a disk error) is
    cut off the file so that the next row starts cleanly.  A byte that is not UTF-8 or a broken CSV
    quote is a BatchError met when its row is read.
    """
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return iter(())
    header = csv_line(columns).encode("utf-8")
    with open(path, "r+b") as handle:
        first = handle.readline()
        if first == header.rstrip(b"\n") and not handle.read(1):  # the header's own write cut short of
            handle.truncate(0)                                      # its newline: no row yet, written again
            return iter(())
        if first != header:
            # bytes that are no UTF-8 shown as \xe9, as in the file's name (they were U+FFFD here)
            shown = first.split(b"\n", 1)[0].decode("utf-8", errors="surrogateescape").strip()
            if shown == header.decode("utf-8").strip():  # the columns are right, not the line ends
                raise BatchError(f"{path} has Windows line ends (CRLF), which 'sudorules rate' never writes: "
                                 "convert it back (dos2unix), or use another output file")
            if shown.startswith("puzzle,clues,") and shown.endswith((",status,seconds,error", ",status,seconds,tail,error")):
                raise BatchError(f"{path} has columns {shown}, expected {','.join(columns)}: "
                                 f"use another output file, or {SAME_OPTIONS}")
            raise BatchError(printable_message(f"{path} is not an output of sudorules rate or classify (its first line "
                                               f"is {shown[:60]!r}): use another output file, or remove this one"))
        _cut_an_unfinished_line(handle)
    return _read_rows(path, len(header))


def _cut_an_unfinished_line(handle) -> None:
    """Cut a last line without its newline off the file (read backwards, a block at a time)."""
    end = handle.seek(0, os.SEEK_END)
    handle.seek(end - 1)
    if handle.read(1) == b"\n":
        return
    position = end
    while position > 0:
        start = max(0, position - 65536)
        handle.seek(start)
        block = handle.read(position - start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            handle.truncate(start + newline + 1)
            return
        position = start
    handle.truncate(0)  # cannot happen: the header ends with a newline


#: how to resume an output whose columns are not this run's (its ratings and options make them)
SAME_OPTIONS = "the ratings and options that made it (rate --rating, --canonical; classify --g)"


def _read_rows(path: str, skip: int) -> Iterator[list[str]]:
    with open(path, "rb") as raw:
        raw.seek(skip)
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        try:
            for row in csv_reader(text):
                yield [csv_text(cell) for cell in row]
        except (UnicodeDecodeError, csv.Error) as error:  # found by the CLI fuzz test
            raise BatchError(f"{path} is not a CSV written by sudorules rate or classify ({error}): use another "
                             "output file, or remove this one") from None


@dataclass
class BatchSummary:
    """What a batch run did."""

    rated: int = 0
    skipped: int = 0  #: rows already present (resumed)
    statuses: dict[str, int] | None = None
    seconds: float = 0.0
    workers_replaced: int = 0
    retried: int = 0  #: earlier rows replaced by a new rating (``retry``)
    total: Optional[int] = None  #: puzzle records in the input, where it can be counted ahead
    notes: list[str] = field(default_factory=list)  #: what the user should know about the output
    #: while a ``--retry`` runs, the number of rows it rates again (its "N of M" when interrupted)
    retrying: Optional[int] = None
    #: the statuses of the rows found in the output (resumed; after a retry, as it left them): the
    #: exit status is the whole output's, not only this run's rows'
    earlier: dict[str, int] = field(default_factory=dict)
    #: True while the rows already in the output are read and checked against the input (before
    #: they are counted in ``skipped``): an interrupt then said "after 0 rows" of an output that held
    #: 200,000 (helper-44)
    reading_output: bool = False

    @property
    def rows(self) -> int:
        """Rows in the output now: those kept from an earlier run and those rated by this one."""
        return self.skipped + self.rated

    def count(self, row: RatingRow) -> None:
        """Count one newly rated row."""
        self.rated += 1
        self.statuses[row.status] = self.statuses.get(row.status, 0) + 1


@dataclass(frozen=True)
class RateOptions:
    """How a batch is rated: which ratings, where, with which limits."""

    ratings: tuple[str, ...] = ("W",)  #: the ratings to compute (columns), e.g. ("W", "B")
    jobs: Optional[int] = None  #: local worker processes (None: every core)
    max_length: int = 36  #: longest whip / braid tried
    time_limit: Optional[float] = None  #: seconds per puzzle and rating (status timeout past it)
    #: MiB a local worker may grow past its loaded rules (None: the available memory shared by the
    #: workers, :func:`~sudorules.batch.pool.default_memory_limit`; 0: no limit)
    memory_limit: Optional[int] = None
    scheduler: Optional[str] = None  #: ``tcp://HOST:PORT`` of a dask.distributed cluster, or None
    max_depth: int = 3  #: classify: the deepest T&E level tried (ratings = classify_columns())
    retry: tuple[str, ...] = ()  #: statuses whose rows of an existing output are rated again
    progress: bool = False  #: a progress bar on stderr
    canonical: bool = False  #: a ``canonical`` column: each puzzle's minlex form

    def __post_init__(self) -> None:
        """Check the values (:mod:`sudorules.options`, as the command line does); cap ``jobs``."""
        if not self.ratings:
            raise OptionError("ratings: none asked for", "none asked for")
        twice = sorted({name for name in self.ratings if self.ratings.count(name) > 1})
        if twice:
            raise OptionError(f"ratings: {twice[0]} is given twice", f"{twice[0]} is given twice")
        object.__setattr__(self, "max_length", check_whole(self.max_length, "max_length", *MAX_LENGTH_RANGE))
        object.__setattr__(self, "max_depth", check_whole(self.max_depth, "max_depth", *MAX_DEPTH_RANGE))
        if self.jobs is not None:
            jobs, message = capped_jobs(self.jobs)
            if message is not None:
                warnings.warn(message, stacklevel=3)
            object.__setattr__(self, "jobs", jobs)
        object.__setattr__(self, "time_limit", check_time_limit(self.time_limit))
        object.__setattr__(self, "memory_limit", check_memory_mib(self.memory_limit))
        if self.scheduler is not None and self.jobs is not None:
            # Refused, not ignored: on a cluster the parallelism is its dask workers' threads (dask
            # worker --nworkers N --nthreads 1); a --jobs kept from a local command line would say
            # otherwise, and silently (the output is the same whatever it is).
            raise OptionError("jobs is for local worker processes, not with a scheduler: the cluster's dask workers "
                              "rate, one puzzle at a time per worker thread (dask worker --nworkers N --nthreads 1)")


def _rater(options: RateOptions, client=None) -> Callable:
    """A function from records to their rows in order: local worker processes, or the dask cluster
    of ``client`` (connected by :func:`rate_file`)."""
    def rate(records: Iterable[PuzzleRecord]) -> Iterator[RatingRow]:
        if client is not None:
            from .distributed import rate_records_on_cluster

            return rate_records_on_cluster(records, client, options.ratings, options.max_length,
                                           options.time_limit, max_depth=options.max_depth,
                                           memory_limit=options.memory_limit)
        return rate_records(records, options)
    return rate


#: the limits an unfinished row's error names (rating.py, engine/te.py): ``braids of length <= 3 do
#: not solve it``, ``whips of length <= 3 ...``, ``BxB above 5 (--max-length)``; ``T&E-depth above 1
#: (--max-depth)`` (a ``beyond-te2`` row of BxB, ``T&E-depth above 2``, names no option: BxB is for
#: depth 2 whatever the options, and the note told to rate such rows again, for the same answer)
_LENGTH_NAMED = re.compile(r"length <= (\d+) do not solve it|above (\d+) \(--max-length\)")
_DEPTH_NAMED = re.compile(r"T&E-depth above (\d+)(?: \(gT&E\))? \(--max-depth\)")


def _earlier_rows(rows: Iterable[list[str]], status_at: int,
                  options: "RateOptions") -> tuple[int, dict[str, int], Optional[str]]:
    """One pass over the rows of a resumed output: their number, their statuses, and the note on
    those rated under other limits (:func:`_other_limits`), for which only the rows such a note may
    name are kept (an error cell, or a value above this run's limits): the rows themselves are read
    from the file as they come, not held."""
    count, statuses, notable = 0, {}, []
    for count, row in enumerate(rows, start=1):
        if len(row) > status_at:
            statuses[row[status_at]] = statuses.get(row[status_at], 0) + 1
        if row[-1] or _value_above_limits(row, options):
            notable.append((count + 1, row))  # its line in the output: the header is line 1
    return count, statuses, _other_limits(notable, status_at, options)


def _other_limits(done: list[tuple[int, list[str]]], status_at: int, options: "RateOptions") -> Optional[str]:
    """A note when rows of the resumed output stopped at a lower --max-length or --max-depth than
    this run's: the output does not record its options, and those rows would stay as they are among
    rows rated with the new limits.  Read from their error cells (the last column), which name the
    limit they stopped at; the note says how to rate them again.  ``done``: (line, row) pairs."""
    statuses: dict[str, int] = {}
    limits: set[str] = set()
    for _, row in done:
        error, status = (row[-1], row[status_at]) if len(row) > status_at else ("", "")
        if status == "timeout":  # its lengths are where the clock stopped it ("B: at least 14 (braids of
            continue             # length <= 13 do not solve it)"), no limit; --retry timeout is its own
        # only a lower limit than this run's: a row stopped at a higher one is still true under it (not
        # within 5 cells, so not within 4), and the note advised a --retry that gave it back unchanged
        lengths = {n for a, b in _LENGTH_NAMED.findall(error) if (n := int(a or b)) < options.max_length}
        depths = {n for d in _DEPTH_NAMED.findall(error) if (n := int(d)) < options.max_depth}
        if lengths or depths:
            statuses[status] = statuses.get(status, 0) + 1
            limits |= {f"--max-length {n}" for n in lengths} | {f"--max-depth {n}" for n in depths}
    notes = [_above_limits(done, options)]
    if statuses:
        rows = sum(statuses.values())
        notes.insert(0, f"{rows} earlier row{'s' if rows > 1 else ''} of the output stopped at other limits "
                        f"({', '.join(sorted(limits))}) than this run's: "
                        f"{'classify' if is_classification(options.ratings) else 'rate'} "
                        f"{'them' if rows > 1 else 'it'} again with --retry {','.join(sorted(statuses))}")
    return "; ".join(note for note in notes if note) or None


#: the rating columns whose value is a depth (bounded by --max-depth), not a length
_DEPTH_COLUMNS = ("TE", "te_depth", "gte_depth")


def _value_above_limits(row: list[str], options: "RateOptions") -> Optional[str]:
    """``NAME VALUE`` of the first rating cell of ``row`` above this run's limits (a rating's value is
    at most --max-length, a T&E-depth at most --max-depth), else None."""
    for name, cell in zip(options.ratings, row[2:]):
        limit = options.max_depth if name in _DEPTH_COLUMNS else options.max_length
        if cell.strip().isdigit() and int(cell) > limit:
            return f"{name} {int(cell)}"
    return None


def _above_limits(done: list[tuple[int, list[str]]], options: "RateOptions") -> Optional[str]:
    """A note when rows of the resumed output hold a value this run's limits cannot give: a W of 8
    under --max-length 5 was rated under a higher limit, and it stays among rows where the same
    puzzle would be not-solved.  No --retry can pick them out by status: the note names the first
    and says how to rate every row under this run's limits.  ``done``: (line, row) pairs."""
    found, first = 0, ""
    for number, row in done:
        above = _value_above_limits(row, options)
        if above:
            found += 1
            first = first or f"line {number}: {above}"
    if not found:
        return None
    limits = f"--max-length {options.max_length}" + (f", --max-depth {options.max_depth}"
                                                       if is_classification(options.ratings) else "")
    return (f"{found} earlier row{'s' if found > 1 else ''} of the output hold{'s' if found == 1 else ''} a value "
            f"above this run's limits ({limits}; {first}): made under higher limits, kept as "
            f"{'they are' if found > 1 else 'it is'}; write to a new output to rate every row under these limits")


def _tail_at(columns: Sequence[str]) -> Optional[int]:
    """The index of the ``tail`` column, None in an output written before tails were kept."""
    return list(columns).index("tail") if "tail" in columns else None


def _retry_rows(records: Iterator[PuzzleRecord], path: str, ratings: Sequence[str], statuses: set[str],
                rate: Callable, summary: BatchSummary, lock: OutputLock, canonical: bool = False,
                tail: bool = True) -> None:
    """Rate again the rows of ``path`` whose status is in ``statuses`` and put the new rows in place
    (see the module docstring: a side file keeps them until the output is rewritten).  ``records``
    is the input from its start: the records of the rows already written are read (and checked)
    here, the rest is left for the caller, so that the input is read once."""
    columns = header(ratings, canonical, tail)
    done = completed_rows(path, columns)
    status_at = list(columns).index("status")
    wanted = {i for i, row in enumerate(done) if row[status_at] in statuses}
    side = path + ".retry.csv"
    # every row of a side file left by an interrupted retry is kept, not only those this one asks for:
    # a --retry memory after an interrupted --retry timeout removed the rows it had rated, unsaid
    # (helper-47); they are rows of this output's puzzles (checked below), rated again
    finished = {int(row[0]): row[1:] for row in completed_rows(side, ["row", *columns]) if int(row[0]) < len(done)}
    # A side file left by a killed retry of another input into an output of this name was taken for
    # this one's, row by row (demo's 100 rows replaced by cb-001's, status 0): its rows must be for the
    # output's puzzles, with their tails, else it is another run's and goes.
    at = _tail_at(columns)
    stale = [i for i, cells in finished.items()
             if cells[0] != done[i][0] or (at is not None and cells[at] != done[i][at])]
    if stale:
        os.remove(side)
        summary.notes.append(f"{side} was left by a retry of another input (its row {stale[0] + 1} "
                             "is for another puzzle): removed, every row asked for is rated again")
        finished = {}
    todo = [(index, record) for index, record in enumerate(_checked(records, done, at))
            if index in wanted and index not in finished]
    earlier = len(set(finished) - wanted)
    if earlier:
        summary.notes.append(f"{earlier} row{'s' if earlier > 1 else ''} rated again by an earlier --retry that was "
                             "interrupted, left in its side file, now written into the output")
    if not wanted and not finished:
        if os.path.exists(side):
            os.remove(side)
        return
    try:
        fd = os.open(side, os.O_WRONLY | os.O_APPEND | os.O_CREAT | O_BINARY, 0o666)
    except OSError as error:  # a name the file system refuses once ".retry.csv" is added (too long)
        raise BatchError(f"{side}: {error.strerror or error} (the side file of --retry): use a shorter -o name") from None
    summary.retrying = len(wanted) + earlier  # an interrupted retry says "N of M rows", N counting the
    summary.retried = len(finished)  # rows a killed retry left in the side file
    try:
        if os.fstat(fd).st_size == 0:
            write_all(fd, csv_line(["row", *columns]).encode(), side, cut_back=True)
        for (index, _), new in zip(todo, rate(record for _, record in todo)):
            cells = new.values(ratings, canonical, tail)
            write_all(fd, csv_line([str(index), *cells]).encode("utf-8"), side, cut_back=True)
            finished[index] = cells
            summary.count(new)
            summary.retried = len(finished)
    finally:
        os.close(fd)
    for index, cells in finished.items():
        done[index] = cells
    _still_ours(lock, path)  # a file moved in meanwhile is not rewritten (the rows retried stay in the side file)
    locked: Optional[int] = None
    keep_locked = renames_open_files()
    if not keep_locked:  # Windows renames no file that is open: the output is unlocked while it is rewritten
        lock.release()
    try:
        with open_output(path, locked_here=keep_locked) as handle:  # a temporary file, locked, renamed over it
            handle.write(csv_line(columns))
            handle.writelines(csv_line(row) for row in done)
            handle.flush()
            os.fsync(handle.fileno())
            if keep_locked:
                locked = os.dup(handle.fileno())  # its lock, kept past the rename
    except BaseException:
        if locked is not None:
            os.close(locked)
        raise
    if keep_locked:
        lock.take(locked)
    else:
        lock.acquire()
    os.remove(side)
    summary.retried = len(finished)


def rate_records(records: Iterable[PuzzleRecord], options: RateOptions = RateOptions()) -> Iterator[RatingRow]:
    """Rate records on ``options.jobs`` worker processes (default: all cores); yield rows in input order."""
    ratings = tuple(options.ratings)
    time_limit = options.time_limit
    jobs = options.jobs or cpu_count()
    if jobs == 1 and compiled_only(ratings):
        # The compiled engine's ratings need no worker process: their memory is bounded (the engine's
        # static tables, about 25 MB), they stop themselves at the time limit, and a worker's start
        # was half the CPU of rating 10 easy puzzles (issue 23: B against SHC at B0-B1).
        rater = Rater(ratings, max_length=options.max_length, time_limit=time_limit, max_depth=options.max_depth)
        yield from (rater.rate(record) for record in records)
        return
    from .pool import default_memory_limit

    memory_limit = default_memory_limit(jobs) if options.memory_limit is None else options.memory_limit * 2**20
    pool = rating_pool(ratings, options.max_length, time_limit, options.max_depth, jobs, memory_limit)
    yield from pool.imap(enumerate(records))


def rate_file(source: str, output: Optional[str], options: RateOptions = RateOptions(),
              template: Optional[RowTemplate] = None, origin: Optional[str] = None) -> BatchSummary:
    """Rate every record of ``source`` (a file or ``-``) into ``output`` (CSV; stdout when None or ``-``).
    ``origin``: how rows name where their records are, when ``source`` holds a puzzle given as the
    command-line argument (:data:`~sudorules.reader.ARGUMENT_PUZZLE`, not ``line 1`` of a file of ours).

    With an output file, resumes: rows already there are kept and their puzzles skipped, except
    those whose status is in ``retry``, which are rated again and replaced.  An output name ending
    in ``.parquet`` is built from a resumable CSV beside it (``NAME.parquet.partial.csv``) and
    written at the end.  With ``scheduler`` (``tcp://HOST:PORT``), the puzzles are rated on that
    dask.distributed cluster instead of local worker processes (see :class:`RateOptions`), reached
    before any output file is made (:mod:`~sudorules.batch.distributed`: ``ClusterError`` when no
    scheduler answers there, ``NotSchedulerError`` for a dask worker's or nanny's address).

    ``template`` (``--format``) writes one text line per row instead of the CSV, to standard output
    or a stream only (an output file is the resumable CSV), and each ``invalid`` row's reason on
    stderr (:meth:`~sudorules.collection.template.RowTemplate.tell_invalid`).

    On SIGINT / SIGTERM (:class:`Interrupted`), the workers are stopped, every row written is
    complete, and the exception goes on with the run's summary in its ``summary`` attribute.
    """
    if str(source) != "-":
        check_source(source)  # before any output file is created
    if output == "-":
        output = None
    check_output(output, inputs=[source])
    if template is not None and not (output is None or is_stream(output)):
        raise BatchError(f"--format writes text lines to standard output; -o {output} is the resumable CSV: "
                         f"leave out one of them (sudorules select {output} --format ... formats it afterwards)")
    if options.scheduler is not None:
        require("distributed", "--scheduler")
    else:
        start_method()  # a bad SUDORULES_START_METHOD: an OptionError before any output is made
    if output is not None and is_parquet_name(output):
        require("pyarrow", f"writing {output}")
    if options.retry and (output is None or is_stream(output)):
        raise BatchError("--retry needs the output file (-o OUT.csv) whose rows are to be rated again")
    if options.retry and not os.path.exists(output):  # a mistyped name (or a link to nothing) rated every puzzle anew, unsaid
        raise BatchError(f"--retry: {output} does not exist, so it has no rows to rate again (leave --retry out "
                         "to rate every puzzle into it)")
    if options.scheduler is None:
        return _rate_file(source, output, options, template, origin, None)
    from .distributed import cluster_client

    # The cluster is reached (a scheduler, answering within CONNECT_SECONDS) before any output file is
    # made: an unreachable one left an output holding only its header (or a Parquet's side CSV).
    with cluster_client(options.scheduler) as client:
        return _rate_file(source, output, options, template, origin, client)


def _rate_file(source: str, output: Optional[str], options: RateOptions, template: Optional[RowTemplate],
               origin: Optional[str], client) -> BatchSummary:
    """:func:`rate_file` once its arguments are checked (and the cluster reached: ``client``, a
    connected ``distributed.Client``, or None for local worker processes)."""
    if output is not None and is_parquet_name(output):
        return _rate_to_parquet(source, output, options, origin, client)
    ratings, retry = tuple(options.ratings), tuple(options.retry)
    tail = True  # the tail column, except in an output written before it existed (resumed as it is)
    summary = BatchSummary(statuses={})
    started = time.perf_counter()
    rate = _rater(options, client)
    lock: Optional[OutputLock] = None
    handle_fd: Optional[int] = None
    bar = None
    try:
        records = read_puzzle_file(source)  # read once, as it comes (a pipe cannot be read again)
        if origin is not None:
            records = (replace(record, origin=origin) for record in records)
        if output is None or is_stream(output):
            handle_fd = _opened(lambda: stream_descriptor(output or "-"), output)
            if template is None:
                _write(handle_fd, csv_line(header(ratings, options.canonical)), output)
        else:
            path = output
            lock = _opened(OutputLock(path).acquire, output)
            tail = not _without_tail(path, ratings, options.canonical)
            if not tail:
                summary.notes.append(f"{output} has no tail column (written before tails were kept): "
                                     "resumed in its own columns, without the tails")
            columns = header(ratings, options.canonical, tail)
            if retry:  # its records are read, the rows rewritten
                _retry_rows(records, path, ratings, set(retry), rate, summary, lock, options.canonical, tail)
            # the rows already there, read twice from the file rather than held (a resume of 600,000
            # rows held them all, 626 MB): once for their statuses and notes, then one at a time
            # beside the input's records, whose puzzles and tails they must match
            summary.reading_output = True
            count, earlier, other = _earlier_rows(_rows_after_header(path, columns), columns.index("status"), options)
            summary.reading_output = False
            if not retry:
                records = _skip_done(records, islice(_rows_after_header(path, columns), count), _tail_at(columns))
            handle_fd = _opened(lambda: os.open(path, os.O_WRONLY | os.O_APPEND | O_BINARY), output)
            if not count and os.stat(path).st_size == 0:
                _write(handle_fd, csv_line(header(ratings, options.canonical)), output, cut_back=True)
            summary.skipped = count - summary.retried  # rows kept as they were
            # the rows a --retry just rated are no earlier rows "kept as they were" (helper-51): their
            # statuses are this run's (summary.statuses), and only the others are the earlier ones
            summary.earlier = {k: n for k, n in ((k, v - summary.statuses.get(k, 0)) for k, v in earlier.items()) if n > 0}
            if other:
                summary.notes.append(other)
        summary.total = count_records(source)
        bar = progress_bar(summary.total, summary.skipped) if options.progress else None
        looked = time.monotonic()
        if lock is not None:
            lock.size = os.fstat(lock.fd).st_size  # what the file holds now; then what this run adds
        for row in rate(records):
            written = _write(handle_fd, csv_line(row.values(ratings, options.canonical, tail)) if template is None
                             else template.line(row.as_dict(ratings, options.canonical)), output,
                             cut_back=lock is not None)
            summary.count(row)
            if template is not None and Status.fails_run(row.status):
                template.tell_invalid(row.failure, None if bar is None
                                      else lambda text: bar.write(text, file=sys.stderr))
            if lock is not None:
                lock.size += written
                if time.monotonic() - looked >= STILL_OURS_SECONDS:
                    _still_ours(lock, output)
                    looked = time.monotonic()
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(", ".join(f"{k} {v}" for k, v in summary.statuses.items()), refresh=False)
        if lock is not None:
            _still_ours(lock, output)
    except DiskFullError as error:
        kept = (f"; the {summary.rows} complete rows written are kept: free some space and run the same "
                "command again to resume") if lock is not None else ""
        raise DiskFullError(f"{error}{kept}") from None
    except Interrupted as stop:
        summary.seconds = time.perf_counter() - started
        stop.summary = summary  # type: ignore[attr-defined]
        raise
    finally:
        if bar is not None:
            bar.close()
        if handle_fd is not None:
            os.close(handle_fd)
        if lock is not None:
            lock.release()
    summary.seconds = time.perf_counter() - started
    return summary


#: how often a run looks whether its output file is still the one it writes (a stat call)
STILL_OURS_SECONDS = 1.0


def _still_ours(lock: OutputLock, output: Optional[str]) -> None:
    """Raise :class:`OutputError` if the output file is no longer the one this run appends to: another
    program renamed a file over it or removed it (``mv``, an editor), and the rows went with the old
    file while the run went on to status 0.  They are saved first, from the open file, beside the
    output (``out.kept-PID.csv``).  Also if the file is not the size this run's writes left it
    (``lock.size``, where counted): written in place by another program."""
    path = lock.path
    try:
        here, ours = os.stat(path), os.fstat(lock.fd)
        if (here.st_dev, here.st_ino) == (ours.st_dev, ours.st_ino):
            if lock.size is None or ours.st_size == lock.size:
                return
            # written in place (check > out.csv, echo >> out.csv): rows cut or mixed with another's,
            # and the run went on to status 0; nothing sound is left to save
            raise OutputError(f"{output or path} was changed by another program while this run wrote it (it holds "
                              f"{ours.st_size:,} bytes where this run left {lock.size:,}): stopped; its rows cannot "
                              "be trusted, rate into another file")
    except FileNotFoundError:
        pass
    except OSError:
        return  # cannot tell: go on
    try:
        kept = aside_name(path)
        os.lseek(lock.fd, 0, os.SEEK_SET)
        saved = os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_BINARY, 0o666)
        try:
            while True:
                chunk = os.read(lock.fd, 1 << 20)
                if not chunk:
                    break
                write_all(saved, chunk, kept)
        finally:
            os.close(saved)
    except (OSError, SudorulesError) as error:
        raise OutputError(f"{output or path} was replaced or removed by another program while this run wrote it, "
                          f"and its rows could not be saved ({error})") from None
    raise OutputError(f"{output or path} was replaced or removed by another program while this run wrote it; "
                      f"the rows written are saved in {kept} (rename it to {path} to resume)")


def _opened(opener: Callable, output: Optional[str]):
    """``opener()``, its OSError turned into a one-line :class:`OutputError` naming ``output``."""
    try:
        return opener()
    except OSError as error:
        raise OutputError(f"{output or 'standard output'}: {error.strerror or error}") from None


def _write(fd: int, line: str, output: Optional[str], cut_back: bool = False) -> int:
    """Write one row with one ``write`` call (so a kill leaves only complete rows), completing a
    short write; an error (a full disk) cuts a file of ours (``cut_back``) back to its last complete
    row and becomes a one-line :class:`OutputError` naming ``output``; see
    :func:`~sudorules.output.write_all`.  The number of bytes written."""
    data = line.encode("utf-8")
    write_all(fd, data, output or "standard output", cut_back=cut_back)
    return len(data)


def _rate_to_parquet(source: str, output: str, options: RateOptions, origin: Optional[str] = None,
                     client=None) -> BatchSummary:
    """Rate into a resumable CSV beside ``output``, then write the Parquet file (atomically) from it."""
    import pandas as pd

    partial = output + ".partial.csv"
    check_output(partial, inputs=[source])
    seen = file_identity(output)  # another program writing it during the run: not replaced at the end
    made = None
    if os.path.exists(output) and not os.path.exists(partial):  # resume from a finished file
        made = _partial_from_parquet(output, partial, [header(options.ratings, options.canonical, tail)
                                                       for tail in (True, False)])
    try:
        summary = _rate_file(source, partial, options, None, origin, client)
    except BatchError:
        # Refused (the Parquet is another input's): the CSV made from it here holds nothing the Parquet
        # does not, and was left behind (mp.parquet.partial.csv after "is it another input's output?").
        _discard_made(partial, made)
        raise
    table = pd.read_csv(partial, dtype={"puzzle": str, "canonical": str, "status": str, "tail": str, "error": str},
                        keep_default_na=False)
    for column in ("puzzle", "tail", "error"):  # the texts themselves: the ' before a formula-like cell is for CSV
        if column in table:
            table[column] = table[column].map(csv_text)
    for column in ["clues", *options.ratings]:
        table[column] = pd.to_numeric(table[column], errors="coerce").astype("Int64")
    # typed even with no row: an empty input's seconds were a null column, and pyarrow refused to
    # concatenate that output with another's (helper-47)
    table["seconds"] = pd.to_numeric(table["seconds"], errors="coerce").astype("float64")
    with open_output(output, binary=True, inputs=[source], since=seen) as stream:
        table.to_parquet(stream, index=False)
    os.remove(partial)
    return summary


def _discard_made(partial: str, made: Optional[os.stat_result]) -> None:
    """Remove ``partial``, the side CSV this run made from a finished Parquet file (``made``: its stat
    then), if it is still that file, unchanged, and no other run holds its lock: one that resumed the
    same output meanwhile and appends to it keeps it."""
    if made is None or not os.path.exists(partial):  # (acquiring the lock of a missing file would create it)
        return
    try:
        lock = OutputLock(partial).acquire()
    except (BatchError, OSError):
        return  # another run writes it (or it is gone): theirs
    try:
        now = os.fstat(lock.fd)
        if (now.st_dev, now.st_ino, now.st_size) == (made.st_dev, made.st_ino, made.st_size):
            os.remove(partial)
    except OSError:
        pass
    finally:
        lock.release()


def _partial_from_parquet(output: str, partial: str, headers: Sequence[Sequence[str]]) -> Optional[os.stat_result]:
    """The resumable CSV of a finished Parquet output, made under a name of this process's and put in
    place only if none is there yet (a hard link: atomic, and never over another's).  Written in place,
    a second run started within milliseconds truncated it while the first appended to it (a Parquet
    file of 36,656 rows for 21,695 puzzles, status 0), and a run killed while writing it left a cut
    CSV that the next run took for rows already done.  A file whose columns are none of ``headers``
    (another rating's) is refused first, by its own name: the CSV made from it was refused under its
    name instead, and left behind.  The stat of the file this call put in place, or None (another
    run's was there first)."""
    import pandas as pd

    try:
        table = pd.read_parquet(output)
    except Exception as error:  # pyarrow raises many kinds (ArrowInvalid: no magic bytes...)
        raise BatchError(f"{output} exists and is not a readable Parquet file ({str(error).splitlines()[0]}): "
                         "use another output file, or remove this one") from None
    if [list(columns) for columns in headers].count(list(table.columns)) == 0:
        raise BatchError(f"{output} has columns {','.join(map(str, table.columns))}, expected "
                         f"{','.join(headers[0])}: use another output file, or {SAME_OPTIONS}")
    directory = os.path.dirname(os.path.abspath(partial))
    for name in os.listdir(directory):  # those of killed runs
        base, _, pid = name.rpartition(".pid")
        if base == os.path.basename(partial) and pid.isdigit() and not _alive(int(pid)):
            _discard_quietly(os.path.join(directory, name))
    mine = f"{partial}.pid{os.getpid()}"
    table.to_csv(mine, index=False)
    made = None
    try:
        os.link(mine, partial)
        made = os.stat(mine)
    except FileExistsError:
        pass  # another run made it first: rate_file's lock then decides which run goes on
    except OSError:  # a file system without hard links: the same, with a window between test and move
        if not os.path.exists(partial):
            made = os.stat(mine)
            os.replace(mine, partial)
    finally:
        _discard_quietly(mine)
    return made


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's: alive
    return True


def _discard_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _checked(records: Iterator[PuzzleRecord], done: Iterable[list[str]], tail_at: Optional[int]) -> Iterator[PuzzleRecord]:
    """The records that have rows in ``done``, checking that each row is for the same puzzle, with the
    same tail (column ``tail_at``, None in an output without tails): a tail edited since, such as a
    tries count, would otherwise stay stale in the output and go on into ``stats``."""
    for row in done:
        record = next(records, None)
        if record is None:
            raise BatchError("the output has more rows than the input has puzzles: is it another input's output?")
        expected = record.cell
        # before the twenty-first session, an invalid record's cell held its tail too, and a multi-line
        # grid's only its first row: both begin the record's text, and are still its rows
        if row[0] != expected and (record.ok or not row[0] or not record.text.strip().startswith(row[0])):
            raise BatchError(f"the output's row for input line {record.line} is for {row[0]!r}, not {expected!r}: "
                             "is it another input's output?")
        if tail_at is not None and len(row) > tail_at and row[tail_at] != record.tail:
            raise BatchError(f"the output's row for input line {record.line} has the tail {clipped(row[tail_at])!r}, "
                             f"the input {clipped(record.tail)!r}: the input changed since; rate it to another output")
        yield record


def _skip_done(records: Iterator[PuzzleRecord], done: Iterable[list[str]], tail_at: Optional[int]) -> Iterator[PuzzleRecord]:
    """Skip the records whose rows are already written, checking they are the same puzzles."""
    for _ in _checked(records, done, tail_at):
        pass
    yield from records
