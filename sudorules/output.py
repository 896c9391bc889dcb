"""Writing output files: the one place where every command opens what it writes.

The rules, for ``check -o``, ``generate -o``, ``stats --plot``, the rewrites of ``rate`` and any
later writer:

* ``-`` (or ``None``) is standard output;
* a target that exists and is not a regular file (``/dev/null``, a FIFO, a terminal), or any name
  under ``/dev/`` or ``/proc/`` (``/dev/stdout`` redirected to a file), is opened and written
  directly: it is never replaced (as root, a rename over ``/dev/null`` would have put a regular file
  in its place);
* a regular file, new or existing, is written under a temporary name in its own directory and renamed
  over the target when the writing succeeded, so nobody ever sees half a file and a failed or
  interrupted run leaves the old file as it was.  A symbolic link is followed (the file it points to
  is replaced, the link stays).  The new file gets the mode a plain ``open()`` would give: an existing
  file keeps its mode, a new one gets 0666 less the umask (``mkstemp`` alone would give 0600);
* writing over one of the run's input files is refused, standard input included when it is a file
  (``check - -o in.txt < in.txt``);
* a temporary file is locked (:func:`sudorules.oscompat.lock`: ``flock``, on Windows
  ``msvcrt.locking``) while its run writes it; one that a killed run left behind (``kill -9``: no
  chance to remove it) is unlocked, and the next run writing the same target removes it.  Where an
  open file cannot be renamed (Windows) the temporary file is closed, and unlocked, just before its
  rename;
* every OS error becomes an :class:`~sudorules.errors.OutputError` whose one-line message names the
  path as the user gave it; a full disk is a :class:`~sudorules.errors.DiskFullError` (status 1: the
  run failed part-way);
* rows appended to a file as they come (``rate -o``) go through :func:`write_all`: a short write is
  completed, and on an error the file is cut back to its last complete row;
* a CSV cell that a spreadsheet would run as a formula (a text starting with ``= + - @``, a tab or a
  carriage return: the raw text of an invalid input line) is written with a ``'`` before it
  (:func:`csv_cell`; :func:`csv_text` reads it back).
"""

from __future__ import annotations

import csv
import errno
import io
import os
import stat
import sys
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Optional, Sequence, Union

from .errors import DiskFullError, OutputError
from .oscompat import O_BINARY, lock, renames_open_files, umask

if TYPE_CHECKING:
    from pathlib import Path

# pathlib is imported where a Path is made: importing it was 5 of the 70 ms of `rate --rating B`'s
# start-up (issue 23, B against SHC at B0); os.PathLike also covers a Path
PathLike = Union[str, "os.PathLike[str]"]


def is_stdout(target: Optional[PathLike]) -> bool:
    """True for the targets that mean standard output: ``None`` and ``-``."""
    return target is None or str(target) == "-"


def _is_stream_name(name: str) -> bool:
    """``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/1``...: names of an open stream, written
    directly even when they resolve to a regular file (``-o /dev/stdout > log`` must append to the
    shell's ``log``, not replace it with a new file the shell no longer writes to)."""
    return os.path.abspath(name).startswith(("/dev/", "/proc/"))


def _descriptor_of(name: str) -> Optional[int]:
    """The file descriptor that ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` or
    ``/proc/self/fd/N`` names, or None."""
    path = os.path.abspath(name)
    named = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
    if path in named:
        return named[path]
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        if path.startswith(prefix) and path[len(prefix):].isascii() and path[len(prefix):].isdigit():
            return int(path[len(prefix):])
    return None


def is_stream(target: Optional[PathLike]) -> bool:
    """True for targets written directly, never replaced: standard output, a name under /dev or
    /proc, an existing file that is not a regular file (device, FIFO)."""
    if is_stdout(target):
        return True
    name = str(target)
    if _is_stream_name(name):
        return True
    try:
        return not stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        return False


def stream_descriptor(target: PathLike) -> int:
    """A new file descriptor open for writing on a stream target (see :func:`is_stream`): a copy of
    the process's own descriptor for ``/dev/stdout``, ``/dev/fd/N``... (as the shell does), else the
    target opened for appending (never truncating what is there: a file behind /proc, a FIFO)."""
    name = str(target)
    if is_stdout(name):
        closed = getattr(sys.stdout, "closed_error", None)  # closed when we started (sudorules.cli)
        if isinstance(closed, Exception):  # rate >&- wrote its rows to the /dev/null holding it, status 0
            raise closed
        return os.dup(1)
    descriptor = _descriptor_of(name)
    if descriptor is not None:
        return os.dup(descriptor)
    return os.open(name, os.O_WRONLY | os.O_APPEND | O_BINARY)


def _same_file(a: str, b: PathLike) -> bool:
    """True when ``a`` and the input ``b`` are one file; ``-`` is standard input, compared by what
    it is open on (``< in.txt``)."""
    try:
        if str(b) == "-":
            there, here = os.stat(a), os.fstat(0)
            return stat.S_ISREG(here.st_mode) and (there.st_dev, there.st_ino) == (here.st_dev, here.st_ino)
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def same_output(a: Optional[PathLike], b: Optional[PathLike]) -> bool:
    """True when two outputs of one run are one destination: standard output however named (None,
    ``-``, ``/dev/stdout``, ``/dev/fd/1``, or the file it is redirected to), or one file, existing (a
    link, another name) or still to be made (the same real path).  Their lines would be mixed, or
    the second file written would replace the first (helper-41: ``-o - --weights /dev/stdout`` wrote
    both to standard output)."""
    identities = [_destination(target) for target in (a, b)]
    if None not in identities and identities[0] == identities[1]:
        return True
    if is_stdout(a) or is_stdout(b):
        return False
    return os.path.realpath(str(a)) == os.path.realpath(str(b))


def _destination(target: Optional[PathLike]) -> Optional[tuple[int, int]]:
    """(device, inode) of what an output target writes to, or None when it does not exist yet (or
    cannot be looked at): standard output's file for None and ``-``, a descriptor's for its names."""
    try:
        if is_stdout(target):
            info = os.fstat(1)
        else:
            descriptor = _descriptor_of(str(target))
            info = os.fstat(descriptor) if descriptor is not None else os.stat(str(target))
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


# --- locks and temporary files (oscompat.lock: the system drops the lock with the process) ---------


def _temporary_prefix(base: str) -> str:
    """How the temporary files of target ``base`` begin: ``.BASE.``, then mkstemp's 8 characters and
    ``.tmp``.  A name too long for that (over 241 bytes of the usual 255: ``rate`` wrote to a name
    that ``check -o`` and ``canon -o`` refused) keeps its first 160 bytes and a digest of the whole."""
    if len(os.fsencode(base)) <= NAME_MAX - 14:
        return f".{base}."
    import hashlib

    short = base
    while len(os.fsencode(short)) > 160:  # whole characters, not a UTF-8 sequence cut in two
        short = short[:-1]
    return f".{short}~{hashlib.sha1(os.fsencode(base)).hexdigest()[:12]}."


#: the longest file name most file systems take, in bytes (ext4, XFS, tmpfs, NTFS in UTF-16 units)
NAME_MAX = 255


#: the directories whose stale temporaries :func:`many_outputs` removed for the files it announced:
#: real path -> the bases announced, which open_output then does not look for again
_SWEPT: dict[str, set[str]] = {}


@contextmanager
def many_outputs(paths: Iterable[PathLike]) -> Iterator[None]:
    """While many files are written into a directory (``select --split-by``), look for their stale
    temporaries once, in one listing, rather than once a file: a listing per file made 20,000 files
    88 s (a quarter of it per doubling beyond the listing itself, 4,978 listings 4.2 s of 9.2 s)."""
    bases: dict[str, set[str]] = {}
    for path in paths:
        directory, base = os.path.split(os.path.realpath(str(path)))
        bases.setdefault(directory, set()).add(base)
    for directory, names in bases.items():
        _remove_stale_temporaries(directory, *names)
        _SWEPT[directory] = names
    try:
        yield
    finally:
        for directory in bases:
            _SWEPT.pop(directory, None)


def _remove_stale_temporaries(directory: str, *bases: str) -> None:
    """Remove the temporary files of ``bases`` that no live run holds (their run was killed)."""
    swept = _SWEPT.get(directory)
    if swept is not None and set(bases) <= swept:  # done once for the whole batch (many_outputs)
        return
    suffix = ".tmp"
    prefixes = {_temporary_prefix(base) for base in bases}
    try:
        # mkstemp's 8 random characters between the prefix and the suffix
        names = [n for n in os.listdir(directory)
                 if n.endswith(suffix) and n[:-len(suffix) - 8] in prefixes]
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode) and lock(fd):
                if not renames_open_files():
                    fd = _closed(fd)  # Windows cannot remove an open file
                os.unlink(path)
        except OSError:
            pass
        finally:
            _closed(fd)


def _locked_temporary(directory: str, base: str) -> tuple[int, str]:
    """A new temporary file for ``base`` in ``directory``, locked: ``(fd, path)``.  It is locked
    just after it is created; should another run have taken it for a stale one in between and
    removed it, a new one is made."""
    while True:
        import tempfile  # only where a file is replaced: not at every start-up

        fd, path = tempfile.mkstemp(prefix=_temporary_prefix(base), suffix=".tmp", dir=directory)
        lock(fd, wait=True)
        if os.fstat(fd).st_nlink > 0:
            return fd, path
        os.close(fd)


# --- writing ----------------------------------------------------------------------------------------

def write_all(fd: int, data: bytes, name: str, cut_back: bool = False) -> None:
    """Write all of ``data`` to ``fd``.  A write on a nearly full disk writes what fits and returns
    the count (3 runs of 11 beside a filling 2 MB tmpfs glued two rows together, issue 27): the rest
    is written by further calls.  On an error, with ``cut_back`` (a regular file only this run
    appends to) the file is truncated to where this write began, so it ends with its last complete
    row.  The error becomes a :class:`DiskFullError` (no space, quota) or :class:`OutputError`
    naming ``name``; BrokenPipeError (the reader of standard output has gone) goes on as it is."""
    start = os.fstat(fd).st_size if cut_back else 0
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        raise
    except OSError as error:
        if cut_back:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass
        raise _output_error(error, name, ()) from None


def csv_cell(text: str) -> str:
    """A text cell as written to CSV: a ``'`` before one that a spreadsheet would run as a formula
    (starting with ``= + - @``, a tab or a carriage return) or that starts with ``'`` itself, so that
    :func:`csv_text` gives the text back.  Only texts taken from the input need it (an invalid
    line's raw text); numbers and our own words never start so."""
    return "'" + text if text[:1] in _FORMULA_STARTS else text


def csv_text(cell: str) -> str:
    """The text of a cell written by :func:`csv_cell`."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in _FORMULA_STARTS else cell


_FORMULA_STARTS = frozenset("=+-@\t\r'")

#: The largest cell our CSV readers take.  Python's csv module refuses a field past 131,072
#: characters, and an input line's tail (or an invalid line, quoted whole in its row) can be longer:
#: `rate` wrote such a row and could then neither resume its own output nor let `select` and `stats`
#: read it.  2**31 - 1 is the largest limit a C long takes on every platform (Windows' is 32 bits).
CSV_FIELD_LIMIT = 2**31 - 1


def csv_reader(lines: Iterable[str]):
    """A ``csv.reader`` over ``lines`` that takes cells of any length our outputs write: the one
    reader of our CSVs (resume, select, stats, compare)."""
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    return csv.reader(lines)


def csv_line(cells: Sequence[str]) -> str:
    """One CSV line (with its newline) for a list of cells, as every CSV output writes it: each cell
    through :func:`csv_cell` (:func:`csv_text` of each cell read gives them back)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([csv_cell(cell) for cell in cells])
    return buffer.getvalue()


def check_output(target: Optional[PathLike], inputs: Iterable[Optional[PathLike]] = (),
                 kind: Optional[tuple[str, bytes]] = None, locked_here: bool = False) -> None:
    """Refuse, before any work is done, an output that cannot be written: an empty name, a directory,
    a missing or unwritable directory, or one of ``inputs`` (``-``: the file standard input reads, if
    it is one; ``None`` inputs are skipped).  With ``kind`` (what the output is, and how such a file
    starts), also an existing file that is not of that kind: ``solve --html puzzles.txt`` replaced a
    puzzle file with a page."""
    if is_stdout(target):
        _refuse_stdout_on_an_input(inputs)
        return
    name = str(target)
    if name == "":
        raise OutputError("the output file name is empty (use - for standard output)")
    for source in inputs:
        if source is not None and str(source) != "" and _same_file(name, source):
            what = "standard input" if str(source) == "-" else "an input of this run"
            raise OutputError(f"{name}: is {what}; refusing to write over it")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"{name}: {error.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{name}: is a directory")
    if info is not None and stat.S_ISREG(info.st_mode) and not _is_stream_name(name):  # -o /dev/stdout: written there
        if (info.st_dev, info.st_ino) == _stdout_file():
            # solve --html two.html > two.html: the page renamed over the file the paths went to
            raise OutputError(f"{name}: is also standard output (redirected there); give them different files")
    if info is not None and stat.S_ISREG(info.st_mode) and not locked_here:  # the caller's own lock (rate --retry)
        _refuse_a_locked_file(os.path.realpath(name), name)
    if kind is not None and info is not None and stat.S_ISREG(info.st_mode) and info.st_size:
        what, start = kind
        try:
            with open(name, "rb") as existing:
                head = existing.read(len(start))
        except OSError as error:
            raise OutputError(f"{name}: {error.strerror}") from None
        if head != start:
            raise OutputError(f"{name}: exists and is not {what}; refusing to replace it (remove it first)")
    if _is_stream_name(name) and info is None:
        # /dev and /proc hold streams and devices, which exist: a new name there is no file to make
        # (stats --plot /proc/x.png printed its report, then failed on the write)
        root = "/" + os.path.abspath(name).split("/")[1]
        raise OutputError(f"{name}: no such file ({root} holds streams and devices: a name there is written "
                          "only when it exists)")
    if _is_stream_name(name) or (info is not None and not stat.S_ISREG(info.st_mode)):
        if info is not None and not os.access(name, os.W_OK):
            raise OutputError(f"{name}: permission denied")
        return
    directory = os.path.dirname(os.path.realpath(name)) or "."
    if not os.path.isdir(directory):
        raise OutputError(f"{name}: no such directory: {os.path.dirname(name) or '.'}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(f"{name}: permission denied (cannot create a file in {os.path.dirname(name) or '.'})")
    _probe(directory, name)


def _probe(directory: str, name: str) -> None:
    """Make, and remove at once, one of the target's own temporary files: ``os.access`` answers yes
    where no file can be made (as root, on /proc or /sys: ``stats --plot /proc/x.png`` printed its
    whole report, then failed), and the file system's own answer is the one the write will get."""
    import tempfile

    try:
        fd, path = tempfile.mkstemp(prefix=_temporary_prefix(os.path.basename(name)), suffix=".tmp", dir=directory)
    except OSError as error:
        raise OutputError(f"{name}: {error.strerror or error} (cannot create a file in "
                          f"{os.path.dirname(name) or '.'})") from None
    os.close(fd)
    try:
        os.unlink(path)
    except OSError:  # gone already (another run took it for a stale temporary): nothing left behind
        pass


def _stdout_file() -> Optional[tuple[int, int]]:
    """``(device, inode)`` of the regular file standard output is redirected to, else None."""
    try:
        out = os.fstat(1)
    except OSError:
        return None
    return (out.st_dev, out.st_ino) if stat.S_ISREG(out.st_mode) else None


def _refuse_stdout_on_an_input(inputs: Iterable[Optional[PathLike]]) -> None:
    """Standard output redirected onto an input (``rate in.txt >> in.txt``) is refused as ``-o in.txt``
    is: every row written became input to be read again, and the file grew without end (637 MB in 10 s,
    each invalid row quoting the row before)."""
    out = _stdout_file()
    if out is None:
        return
    for source in inputs:
        if source is None or str(source) == "":
            continue
        try:
            info = os.fstat(0) if str(source) == "-" else os.stat(source)
        except (OSError, ValueError):
            continue
        if (info.st_dev, info.st_ino) == out:
            what = "standard input" if str(source) == "-" else source
            raise OutputError(f"standard output is {what}, an input of this run; refusing to write there")


def _refuse_a_locked_file(real: str, name: str) -> None:
    """An existing output that a running ``rate`` or ``classify`` holds locked (OutputLock) is not
    replaced: the run would go on appending its rows to the file renamed away, and report success
    (``check -o`` over a rate run's output lost its 21,695 rows).  Nor is one the system will not let
    anybody replace (immutable, append-only)."""
    try:
        held = _held_by_a_run(real)
    except OSError as error:
        if error.errno == errno.EPERM:
            # immutable or append-only (chattr +i, +a; BSD's schg): nothing may rename over it either,
            # and check -o found that out only after all its work
            raise OutputError(f"{name}: cannot be replaced (operation not permitted: an immutable or "
                              "append-only file?)") from None
        return  # not ours to write (read-only, another user's): the replacement itself will say so
    if held:
        raise OutputError(f"{name}: is being written by another sudorules run (rate, classify): wait for "
                          "it to end, or choose another output")


def _held_by_a_run(real: str) -> bool:
    """Does a running ``rate`` or ``classify`` hold the regular file ``real`` locked?  False when it
    does not exist; an OSError when it cannot be opened for writing."""
    try:
        fd = os.open(real, os.O_RDWR | O_BINARY)  # Windows locks (msvcrt) want it open for writing
    except FileNotFoundError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and not lock(fd)
    finally:
        os.close(fd)  # the lock, if taken, goes with it


#: open_output's ``since`` when it is not given: the target as it is when open_output begins
NOW = "now"


def file_identity(path: PathLike) -> Optional[tuple[int, int, int, int]]:
    """The state of the file at ``path`` now, for :func:`open_output`'s ``since``: a long run that
    writes its output only at its end (``rate -o OUT.parquet``) takes it when it starts."""
    return _identity(os.path.realpath(str(path)))


def _identity(real: str) -> Optional[tuple[int, int, int, int]]:
    """What tells whether a file changed while a run wrote its replacement: device, inode, size and
    modification time; None when there is no file."""
    try:
        info = os.stat(real)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def _changed_meanwhile(real: str, before: Optional[tuple[int, int, int, int]]) -> bool:
    """Did another program write ``real`` since ``before`` was taken, or does a running ``rate`` hold
    it now?  ``check -o y.csv`` started before ``rate -o y.csv`` renamed its result over the file the
    rate run was appending to: 120,000 rated rows went with the old file, and both ended with status 0."""
    if _identity(real) != before:
        return True
    try:
        return _held_by_a_run(real)
    except OSError:
        return False


def aside_name(path: str) -> str:
    """A free name beside ``path`` for what this run could not put there: ``y.kept-PID.csv``, then
    ``y.kept-PID-2.csv``...  (used where another program took the output from under the run)."""
    root, extension = os.path.splitext(path)
    for n in range(1, 1000):
        kept = f"{root}.kept-{os.getpid()}{'' if n == 1 else f'-{n}'}{extension}"
        if not os.path.lexists(kept):
            return kept
    raise OutputError(f"{path}: no free name beside it for this run's output")


def _keep_aside(temporary: str, real: str) -> str:
    """Give the finished ``temporary`` a name of its own beside ``real`` (:func:`aside_name`), never
    over another file; the name."""
    kept = aside_name(real)
    try:
        os.link(temporary, kept)
        os.unlink(temporary)
    except OSError:  # no hard links here (or the name was taken since): a plain rename
        if os.path.lexists(kept):
            raise
        os.replace(temporary, kept)
    return kept


def check_output_directory(directory: PathLike, inputs: Iterable[Optional[PathLike]] = (),
                           subdirectory: str = "", file: str = "") -> None:
    """Refuse, before any work is done, a directory to write files into that cannot be used: an
    empty name; something other than a directory (``/dev/null``, a file); one that cannot be written
    (read-only, no permission; for a directory still to be made, its nearest existing parent); an
    entry that should be a directory (a name matching the regular expression ``subdirectory``) but
    is not; an input of the run (``inputs``) lying where a file (relative path matching ``file``)
    would be written.  Each is an :class:`OutputError` (status 2) naming the path."""
    import re
    from pathlib import Path

    name = str(directory)
    if name == "":
        raise OutputError("the output directory name is empty")
    path = Path(name)
    existing = path
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        what = "is not a directory" if existing == path else f"cannot be made: {existing} is not a directory"
        raise OutputError(f"{name}: {what}")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"{name}: cannot write in {existing} (read-only or no permission)")
    if existing == path and subdirectory:
        for entry in sorted(os.listdir(path)):
            if re.fullmatch(subdirectory, entry) and not (path / entry).is_dir():
                raise OutputError(f"{name}: {path / entry} is in the way (not a directory); move it or choose "
                                  "another directory")
    root = os.path.realpath(name)
    for source in inputs:
        if source is None or str(source) in ("", "-") or not file:
            continue
        relative = os.path.relpath(os.path.realpath(source), root)
        if not relative.startswith("..") and re.fullmatch(file, relative):
            raise OutputError(f"{source}: is an input of this run and would be overwritten in {name}; "
                              "refusing to write there")


@contextmanager
def open_output(target: Optional[PathLike], *, binary: bool = False, inputs: Iterable[Optional[PathLike]] = (),
                encoding: str = "utf-8", newline: Optional[str] = "", locked_here: bool = False,
                since: object = NOW) -> Iterator[IO]:
    """Open ``target`` for writing by the rules of this module; yield the stream.  The target is not
    replaced if another program wrote it since ``since`` (:func:`file_identity` taken earlier; by
    default, since this call).

    The body's data reaches a regular file only if the body ends without an exception; an
    ``OSError`` about the output (opening, writing, renaming) becomes an :class:`OutputError` naming
    ``target`` as given.  Standard output is flushed, not closed."""
    if is_stdout(target):
        _refuse_stdout_on_an_input(inputs)
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    check_output(target, inputs, locked_here=locked_here)
    name = str(target)
    mode = "wb" if binary else "w"
    text_args = {} if binary else {"encoding": encoding, "newline": newline}
    real = os.path.realpath(name)
    if is_stream(name):
        try:
            with os.fdopen(stream_descriptor(name), mode, **text_args) as stream:
                yield stream
        except BrokenPipeError:  # the reader has gone (-o /dev/stdout | head): not an output error
            raise
        except OSError as error:
            raise _output_error(error, name, (name, real)) from None
        return
    try:
        info: Optional[os.stat_result] = os.stat(real)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"{name}: {error.strerror}") from None
    directory, base = os.path.split(real)
    before = _identity(real) if since == NOW else since
    _remove_stale_temporaries(directory, base)
    try:
        handle, temporary = _locked_temporary(directory, base)
    except OSError as error:
        raise _output_error(error, name, ()) from None
    held = os.dup(handle)  # holds the lock until the rename: the stream's close would drop it
    try:
        mode_bits = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~umask()
        if hasattr(os, "fchmod"):
            os.fchmod(handle, mode_bits)
        else:  # Windows before Python 3.13: only the read-only bit means anything there
            os.chmod(temporary, mode_bits)
        with os.fdopen(handle, mode, **text_args) as stream:
            yield stream
        if not renames_open_files():
            held = _closed(held)
        if not locked_here and _changed_meanwhile(real, before):
            kept = _keep_aside(temporary, real)
            raise OutputError(f"{name}: another program wrote it while this run did (a rate or classify run, "
                              f"or another run's output); not replaced: this run's output is in {kept}")
        os.replace(temporary, real)
    except BrokenPipeError:  # another stream's reader has gone (generate --weights F | head): not this file's error
        held = _closed(held)
        _discard(temporary)
        raise
    except OSError as error:
        held = _closed(held)  # before removing it (Windows cannot remove an open file)
        _discard(temporary)
        raise _output_error(error, name, (name, real, temporary)) from None
    except BaseException:
        held = _closed(held)
        _discard(temporary)
        raise
    finally:
        _closed(held)


def _closed(fd: int) -> int:
    """Close ``fd`` unless it is -1 (closed already); -1."""
    if fd >= 0:
        os.close(fd)
    return -1


def is_parquet_name(name: PathLike) -> bool:
    """Does a file's name say Parquet (``.parquet`` in any case)?  The one test of the writers
    (``rate -o``) and the readers (``stats``, ``select``): ``OUT.PARQUET`` was written as CSV and then
    read as Parquet."""
    return str(name).lower().endswith(".parquet")


def check_csv_output(target: Optional[PathLike], inputs: Iterable[Optional[PathLike]] = ()) -> None:
    """:func:`check_output` for a command that writes text only (CSV, puzzles): a Parquet name is
    refused too (the file would be text under that name, and the readers would take it for Parquet;
    ``canon -o`` and ``generate -o`` wrote it)."""
    if target is not None and not is_stdout(target) and is_parquet_name(target):
        raise OutputError(f"{target}: this command writes text, not Parquet: give another name "
                          "(rate and classify write Parquet)")
    check_output(target, inputs)


#: the errnos of a full disk (or quota): no EDQUOT on Windows
DISK_FULL = frozenset((errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)))


def _output_error(error: OSError, name: str, ours: tuple[str, ...]) -> BaseException:
    """The error to raise for an ``OSError`` met while writing: an :class:`OutputError` naming the
    target when the error is about the output (no file name, or one of ours), else the error itself
    (an input file the body failed to read is not the output's fault)."""
    if error.filename is not None and ours and str(error.filename) not in ours:
        return error
    if error.errno in DISK_FULL:
        return DiskFullError(f"{name}: no space left on device (disk full)")
    return OutputError(f"{name}: {error.strerror or error}")


def _discard(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def write_text(target: Optional[PathLike], text: str, *, inputs: Iterable[Optional[PathLike]] = ()) -> None:
    """Write ``text`` to ``target`` by the rules of this module."""
    with open_output(target, inputs=inputs) as stream:
        stream.write(text)
