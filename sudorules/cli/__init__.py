"""The ``sudorules`` command line: a thin layer over the library API, one module per command.

Every command ends the same way (README "Exit statuses"): a :class:`~sudorules.errors.SudorulesError`
is printed as one ``Error: ...`` line with its exit status; SIGINT, SIGTERM and SIGHUP raise
:class:`~sudorules.errors.Interrupted` in the main thread, which a command may catch to say what it
kept, and which otherwise ends the run with ``interrupted`` and status 130 / 143 / 129; a closed standard
output (``| head``) ends the run quietly with status 141, as SIGPIPE ends other programs; no Python traceback reaches the user (an unexpected one is
reduced to one line, in full with ``SUDORULES_DEBUG=1``); a :class:`MemoryError` from any command is
``Error: out of memory ...``, status 1.
"""

from __future__ import annotations

import io
import os
import signal
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Optional

import click

from ..errors import (EXIT_INVALID, EXIT_SIGPIPE, DiskFullError, Interrupted, SudorulesError,
                      catch_stop_signals)
from ..reader import plural  # noqa: F401  (the commands' counts: from . import plural)


#: seconds after which a signal that came during a finalizer is sent again (see _raise_interrupted)
RESEND_SECONDS = 0.05


def _raise_interrupted(signum: int, frame: Any) -> None:
    """Raise :class:`Interrupted` where the main thread is, unless it is inside a finalizer
    (``__del__``): Python prints an exception raised there as "Exception ignored in ..." with its
    traceback, and goes on as if no signal had come (a SIGINT during start-up met a multiprocessing
    Connection's ``__del__``: the run printed a traceback, then rated all 100 puzzles).  There the
    signal is sent again a moment later, when the finalizer has returned."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            import threading

            timer = threading.Timer(RESEND_SECONDS, os.kill, (os.getpid(), signum))
            timer.daemon = True
            timer.start()
            return
        frame = frame.f_back
    raise Interrupted(signum)


def install_signal_handlers(handler: Callable[[int, Any], None] = _raise_interrupted) -> dict[int, Any]:
    """Make SIGINT, SIGTERM and SIGHUP call ``handler``: by default raise :class:`Interrupted` in the
    main thread (SIGTERM would otherwise kill the process at once, with no chance to stop workers or
    say what was kept).  The one place every command sets them (the group here; generate and count
    to stop their C loops, solve to stop inside CLIPS): a signal that whoever started us ignores
    stays ignored, as in any POSIX program (``nohup``: SIGHUP; a script's ``cmd &``: SIGINT), which
    generate, count and solve did not do, each setting its own handlers over the ignored ones.
    Returns the previous handlers (nothing is installed outside the main thread)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return {}
    return catch_stop_signals(handler)


class _ClosedStream(io.TextIOBase):
    """``sys.stdin`` or ``sys.stdout`` when whoever started us closed that descriptor (``<&-``, ``>&-``):
    Python starts with ``None`` there, and every read or write became an internal error
    (``'NoneType' object has no attribute 'flush'``), even after all the output went to ``-o``.  Now
    the first real read or write raises ``error``, one line; writing nothing, flushing, and asking
    for the descriptor (``/dev/null`` holds it: see :func:`_standard_streams`) are fine."""

    def __init__(self, fd: int, error: SudorulesError):
        super().__init__()
        self._fd = fd
        self.closed_error = error  #: also what a reader asks first (reader.stdin_text): told before any output

    @property
    def buffer(self) -> "_ClosedStream":  # binary reads and writes meet the same error
        return self

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if data:
            raise self.closed_error
        return 0

    def read(self, *_: Any) -> Any:
        raise self.closed_error

    read1 = readline = read

    def __iter__(self) -> Iterator[str]:
        raise self.closed_error

    def flush(self) -> None:
        pass


class _Messages(io.TextIOWrapper):
    """Standard error: a name quoted with ``!r`` in a message shows a byte that was no UTF-8 as
    ``\\xe9`` (:func:`sudorules.reader.printable_message`), as :data:`~sudorules.reader.PRINTABLE`
    shows the names printed as they are; ``unknown column '\\udce9t'`` before, in every message that
    quotes what was typed (stats, select, compare, --format, --where)."""

    def write(self, text: str) -> int:
        from ..reader import printable_message

        try:
            return super().write(printable_message(text))
        except OSError:
            # a standard error that cannot be written (2>/dev/full, a pipe whose reader left) drops
            # the messages, as a closed one does: check 2>/dev/full stopped after 3,001 of 6,026 rows
            # at its first bad record's message, and under a progress bar before its first row
            return len(text)

    def flush(self) -> None:
        try:
            super().flush()
        except (OSError, ValueError):
            pass


def _standard_streams() -> None:
    """Make the standard streams safe to use, whatever we were started with.

    * A closed descriptor 0, 1 or 2 gets ``/dev/null``, so that no file the run opens takes its
      number (``check in.txt >&-`` opened the input as descriptor 1 and refused "standard output
      is in.txt, an input").  A closed standard input or output then fails with one line when used
      (:class:`_ClosedStream`); a closed standard error drops the messages (a cron job's
      ``rate -o`` with ``2>&-`` did nothing and exited 1, on ``sys.stderr.isatty()``).
    * Standard output is written in UTF-8, as every file we write, whatever the locale: a path's
      ``≠`` under ``LC_ALL=C`` without UTF-8 mode or ``PYTHONIOENCODING=ascii`` was an internal
      error; a file name that is not UTF-8 goes out as the bytes it came as (``ls`` does the same).
    * Standard error, the messages, shows such a name's odd bytes as ``\\xe9``
      (:data:`sudorules.reader.PRINTABLE`).
    """
    from ..errors import InputError, OutputError

    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
        if name == "stdin":
            sys.stdin = _ClosedStream(0, InputError("standard input is closed: give a file name, not -"))
        elif name == "stdout":
            sys.stdout = _ClosedStream(1, OutputError("standard output is closed: nothing can be printed (write "
                                                      "to a file with -o where the command has it)"))
        else:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and (str(getattr(sys.stdout, "encoding", "")).lower().replace("-", "") != "utf8"
                                    or sys.stdout.errors != "surrogateescape"):
        try:
            reconfigure(encoding="utf-8", errors="surrogateescape")
        except (ValueError, OSError):  # written to already, or closed: left as it is
            pass
    # Messages show a file name's odd bytes as \xe9 (README "Output files"), here for all of them
    # rather than in each message that names a path: Python's stderr showed them as \udce9
    from ..reader import PRINTABLE

    stderr = sys.stderr
    if stderr is sys.__stderr__ and type(stderr) is io.TextIOWrapper:  # Python's own (not a test runner's,
        # nor the /dev/null above, which a stream on its descriptor would close when it is collected)
        try:
            stderr.flush()
            # a stream of its own on the descriptor: sys.__stderr__ stays whole for the interpreter
            sys.stderr = _Messages(io.FileIO(stderr.fileno(), "w", closefd=False), encoding=stderr.encoding,
                                   errors=PRINTABLE, line_buffering=True, write_through=True)
        except (ValueError, OSError):
            pass


def _current_directory() -> None:
    """A run started in a directory that was removed since (``cd d && rmdir ../d``) cannot name a
    relative file, nor start a spawned worker: one line rather than an internal error."""
    try:
        os.getcwd()
    except FileNotFoundError:
        from ..errors import InputError

        raise InputError("the current directory no longer exists (it was removed): cd to another one") from None


def note_earlier_files(folder: Any, pattern: str, written: Iterable[Any], where: str, what: str) -> None:
    """A directory is not emptied (``select --split-by``, ``solve --svg``): say on stderr which entries
    of ``folder`` named like this run's files (the regular expression ``pattern``) it did not write,
    as ``note: WHERE also holds ..., from an earlier run, WHAT``; an earlier, longer path's last steps
    read as this one's."""
    import re

    mine = {os.path.basename(str(path)) for path in written}
    try:
        earlier = sorted(name for name in os.listdir(folder) if re.fullmatch(pattern, name) and name not in mine)
    except OSError:
        return
    if earlier:
        shown = ", ".join(earlier[:5]) + (f" and {len(earlier) - 5} more" if len(earlier) > 5 else "")
        click.echo(f"note: {where} also holds {shown}, from an earlier run, {what}", err=True)


def fail(message: str, code: int = EXIT_INVALID) -> "click.exceptions.Exit":
    """Print ``Error: message`` on stderr; return the exit to raise (``raise fail(...)``)."""
    click.echo(f"Error: {message}", err=True)
    return click.exceptions.Exit(code)


def _quiet_broken_pipe() -> None:
    """stdout was closed by its reader: point it at /dev/null so the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@contextmanager
def _closed_stdout_ends_quietly() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        _quiet_broken_pipe()
        raise click.exceptions.Exit(EXIT_SIGPIPE) from None


#: the commands in the order of ``sudorules --help``: name -> (module of sudorules.cli, one-line help).
#: A command's module is imported only when it runs or shows its own help, so ``sudorules --help``
#: and every command pay only for what they use (issue 23: the group imported every command, and with
#: them pandas, numpy and the rule engine: 0.8 s before any work).
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("check", "Check puzzles: solutions, minimality, parse errors (CSV)."),
    "solve": ("solve", "Solve puzzles by resolution rules and print their paths."),
    "rate": ("rate", "Rate puzzles (W, B, gW, gB, TE, BxB, BxBB): CSV rows, resumable, on all cores."),
    "classify": ("classify", "T&E-depth classification with B, BxB or BxBB (CSV, resumable)."),
    "stats": ("stats_cmd", "Raw and unbiased statistics of rated collections."),
    "compare": ("compare_cmd", "Cross-table of two ratings of a collection."),
    "select": ("select", "Select rows of rated collections by an expression, or split them."),
    "canon": ("canon", "Canonical (minlex) forms; remove isomorphs."),
    "generate": ("generate", "Generate minimal puzzles (bottom-up, top-down, controlled-bias)."),
    "count": ("count", "Estimate the number of minimal puzzles (subsets / supersets)."),
}


class _Main(click.Group):
    """The command group, with the one place where errors and signals become exit statuses, and
    whose commands are loaded when used (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> Optional[click.Command]:
        if name in COMMANDS and name not in self.commands:
            import importlib

            importlib.import_module(f"{__name__}.{COMMANDS[name][0]}")  # registers itself on `main`
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of ``sudorules --help`` from :data:`COMMANDS`, importing no command."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, text) in COMMANDS.items()])

    # click turns EPIPE into its own exit status 1 inside main(); a closed stdout (``| head``) is
    # not a failure, so it is caught first, where options are parsed (--help) and commands run.
    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _closed_stdout_ends_quietly():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        _current_directory()
        from ..oscompat import start_method

        # a bad SUDORULES_START_METHOD is an error for every command, as the README says, not only for
        # those that start workers: a typo went unnoticed by check and solve until a rate run
        start_method()
        with _closed_stdout_ends_quietly():
            return super().invoke(ctx)

    def main(self, args: Optional[list[str]] = None, prog_name: Optional[str] = None, **extra: Any) -> Any:
        extra.pop("standalone_mode", None)
        _standard_streams()
        previous = install_signal_handlers()
        try:
            status = super().main(args, prog_name or "sudorules", standalone_mode=False, **extra)
            sys.stdout.flush()  # here, where a full disk is told as one, not at the interpreter's exit
            sys.exit(status if isinstance(status, int) else 0)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.exceptions.Abort:  # click's own Ctrl-C at a prompt
            click.echo("interrupted", err=True)
            sys.exit(128 + signal.SIGINT)
        except SudorulesError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)
        except (Interrupted, KeyboardInterrupt) as stop:
            code = stop.exit_code if isinstance(stop, Interrupted) else 128 + signal.SIGINT
            click.echo("interrupted", err=True)
            sys.exit(code)
        except BrokenPipeError:  # whatever the command was writing: its reader has gone
            _quiet_broken_pipe()
            sys.exit(EXIT_SIGPIPE)
        except OSError as error:
            from ..output import DISK_FULL

            if error.filename is not None or error.errno not in DISK_FULL:
                self._internal_error(error)
            # a command writing to standard output as it goes (check, solve, generate...): as rate -o -
            _quiet_broken_pipe()  # the final flush would fail again
            full = DiskFullError("standard output: no space left on device (disk full)")
            click.echo(f"Error: {full}", err=True)
            sys.exit(full.exit_code)
        except MemoryError as error:  # the machine's limit, not a bug: no "internal error", no report asked for
            if os.environ.get("SUDORULES_DEBUG"):
                raise
            # the frames of the traceback hold what filled memory: dropped before the message is written
            error.__traceback__ = None
            del error
            click.echo("Error: out of memory: the run needed more memory than this machine could give "
                       "(a smaller input, or fewer --jobs where the command has them, needs less)", err=True)
            sys.exit(EXIT_INVALID)
        except Exception as error:  # a bug: one line for the user, the traceback on request
            self._internal_error(error)
        finally:
            for signum, handler in previous.items():  # as they were (matters when called in-process)
                signal.signal(signum, handler)

    @staticmethod
    def _internal_error(error: Exception) -> None:
        """A bug: one line for the user, the traceback on request."""
        if os.environ.get("SUDORULES_DEBUG"):
            raise error
        click.echo(f"Error: internal error: {type(error).__name__}: {error} "
                   "(set SUDORULES_DEBUG=1 for the traceback, and please report it)", err=True)
        sys.exit(EXIT_INVALID)


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudorules")
def main() -> None:
    """Solve, rate and generate Sudoku puzzles by resolution rules (SudoRules-compatible).

    \b
    Exit statuses, the same for every command:
      0    all fine
      1    some input record is invalid (its row or line says why), or the run failed
      2    bad arguments: an option value, a missing input, an output that cannot be written
      3    solve: the theory could not finish a puzzle
      4    solve: the time limit was reached
      5    solve: the memory limit was reached
      130  interrupted (Ctrl-C); 143 terminated (kill); 129 hung up (terminal
           closed); complete output is kept
      141  standard output closed by its reader (| head): output cut, quietly
    """
