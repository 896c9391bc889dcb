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
* writing over one of the run's input files is refused;
* every OS error becomes an :class:`~sudorules.errors.OutputError` whose one-line message names the
  path as the user gave it.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterable, Iterator, Optional, Union

from .errors import OutputError

PathLike = Union[str, Path]


def is_stdout(target: Optional[PathLike]) -> bool:
    """True for the targets that mean standard output: ``None`` and ``-``."""
    return target is None or str(target) == "-"


def _umask() -> int:
    """The process umask, read without changing it where /proc tells it (Linux), else set and reset."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
        if path.startswith(prefix) and path[len(prefix):].isdigit():
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
        return os.dup(1)
    descriptor = _descriptor_of(name)
    if descriptor is not None:
        return os.dup(descriptor)
    return os.open(name, os.O_WRONLY | os.O_APPEND)


def _same_file(a: str, b: PathLike) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_output(target: Optional[PathLike], inputs: Iterable[Optional[PathLike]] = ()) -> None:
    """Refuse, before any work is done, an output that cannot be written: an empty name, a directory,
    a missing or unwritable directory, or one of ``inputs`` (``-`` and ``None`` inputs are skipped)."""
    if is_stdout(target):
        return
    name = str(target)
    if name == "":
        raise OutputError("the output file name is empty (use - for standard output)")
    for source in inputs:
        if source is not None and str(source) not in ("", "-") and _same_file(name, source):
            raise OutputError(f"{name}: is an input of this run; refusing to write over it")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"{name}: {error.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{name}: is a directory")
    if _is_stream_name(name) or (info is not None and not stat.S_ISREG(info.st_mode)):
        if info is not None and not os.access(name, os.W_OK):
            raise OutputError(f"{name}: permission denied")
        return
    directory = os.path.dirname(os.path.realpath(name)) or "."
    if not os.path.isdir(directory):
        raise OutputError(f"{name}: no such directory: {os.path.dirname(name) or '.'}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(f"{name}: permission denied (cannot create a file in {os.path.dirname(name) or '.'})")


@contextmanager
def open_output(target: Optional[PathLike], *, binary: bool = False, inputs: Iterable[Optional[PathLike]] = (),
                encoding: str = "utf-8", newline: Optional[str] = "") -> Iterator[IO]:
    """Open ``target`` for writing by the rules of this module; yield the stream.

    The body's data reaches a regular file only if the body ends without an exception; an
    ``OSError`` about the output (opening, writing, renaming) becomes an :class:`OutputError` naming
    ``target`` as given.  Standard output is flushed, not closed."""
    if is_stdout(target):
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    check_output(target, inputs)
    name = str(target)
    mode = "wb" if binary else "w"
    text_args = {} if binary else {"encoding": encoding, "newline": newline}
    real = os.path.realpath(name)
    if is_stream(name):
        try:
            with os.fdopen(stream_descriptor(name), mode, **text_args) as stream:
                yield stream
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
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise OutputError(f"{name}: {error.strerror or error}") from None
    try:
        os.fchmod(handle, stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask())
        with os.fdopen(handle, mode, **text_args) as stream:
            yield stream
        os.replace(temporary, real)
    except OSError as error:
        _discard(temporary)
        raise _output_error(error, name, (name, real, temporary)) from None
    except BaseException:
        _discard(temporary)
        raise


def _output_error(error: OSError, name: str, ours: tuple[str, ...]) -> BaseException:
    """The error to raise for an ``OSError`` met while writing: an :class:`OutputError` naming the
    target when the error is about the output (no file name, or one of ours), else the error itself
    (an input file the body failed to read is not the output's fault)."""
    if error.filename is not None and str(error.filename) not in ours:
        return error
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
