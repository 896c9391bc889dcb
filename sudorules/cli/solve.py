"""``sudorules solve``: print the resolution path of each puzzle in SudoRules' notation."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import click

from ..output import check_output, check_output_directory, file_identity, is_stdout
from ..errors import (EXIT_INVALID, EXIT_MEMORY, EXIT_NOT_SOLVED, EXIT_TIMEOUT, InvalidPuzzleError,
                      OutputError, SudorulesError)
from ..resolution import families
from ..enums import TE_THEORIES, Status, Theory
from ..resolution.path import format_path
from ..resolution.steps import Resolution
from ..reader import names_file, records_from_argument
from ..engine.schedule import LEAN_BRAIDS_FROM
from ..engine.solver import Solver, unique_solution
from ..batch.watchdog import hard_limit, heartbeat, stop_after
from . import install_signal_handlers, main, note_earlier_files
from ..options import LEAN_BRAIDS_FROM_RANGE, MAX_LENGTH_RANGE, solve_memory_bytes
from .options import MEMORY_MIB, TIME_LIMIT
from .theory_option import TheoryName, theories_help

THEORIES = [str(theory) for theory in families.THEORIES]
#: seconds between two "still solving" lines on stderr (with --progress)
HEARTBEAT_SECONDS = 10.0


@main.command()
@click.argument("source", metavar="PUZZLE|FILE|-")
@click.option("--theory", type=TheoryName(), default="W", show_default=True, help=theories_help() + ".")
@click.option("--max-length", type=click.IntRange(*MAX_LENGTH_RANGE), default=36, show_default=True,
              help="Longest chain tried (each family's own longest too: bivalue-chains and z-chains 20).")
@click.option("--time-limit", type=TIME_LIMIT, default=None,
              help="Seconds per puzzle before the run is stopped (exit status 4).")
@click.option("--memory-limit", type=MEMORY_MIB, default=None, metavar="MiB",
              help="MiB the run may grow by on one puzzle before it is stopped (exit status 5). Default: three "
                   "quarters of the memory available at the start. 0: no limit.")
@click.option("--verify/--no-verify", default=False,
              help="Re-check every step with the independent checker and the core's solution (T&E steps: "
                   "their contexts replayed down to the contradiction).")
@click.option("--brief", is_flag=True, default=False,
              help="T&E theories (" + ", ".join(TE_THEORIES) + ") and the text path only: one line per T&E "
                   "elimination (hypothesis, contradiction, target), without the context's own path under it. "
                   "A usage error with another theory (no step has a context to leave out) or --format json "
                   "(which keeps the contexts).")
@click.option("--lean-braids-from", type=click.IntRange(*LEAN_BRAIDS_FROM_RANGE), default=LEAN_BRAIDS_FROM, show_default=True,
              help="B, gB: from this level on, braids of the newest lengths are tried one target at a time and "
                   "found by the compiled braid search (the rules' partial braids only where it runs out of budget): "
                   "far less memory and time, the same eliminations; whips of a level then come before braids of "
                   "these lengths; g-braids: 2 levels sooner, from 3 at least. 37: never (every partial braid "
                   "built by the rules, the strict order).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True,
              help="text: SudoRules' printed path; json: one JSON object per puzzle and line (JSON Lines) with "
                   "the steps, the status, the rating and the solution.")
@click.option("--html", "html_output", default=None, metavar="OUT.html",
              help="Also write one self-contained page (no network) showing every step drawn on the grid: "
                   "arrow keys or the slider to move, a puzzle selector for files.")
@click.option("--svg", "svg_output", default=None, metavar="DIR",
              help="Also write one SVG picture per step into DIR (DIR/puzzle-N/ for the puzzles of a file).")
@click.option("--progress/--no-progress", default=None,
              help=f"Every {HEARTBEAT_SECONDS:g} s of a long run, say on stderr which puzzle and level the "
                   "run is at [default: when stderr is a terminal].")
def solve(source: str, theory: str, max_length: int, time_limit: Optional[float], memory_limit: Optional[int],
          verify: bool, brief: bool, lean_braids_from: int, output_format: str, html_output: Optional[str], svg_output: Optional[str],
          progress: Optional[bool]) -> None:
    """Solve each puzzle by resolution rules and print its path, final grid and rating.

    A puzzle given on the command line is PUZZLE 0, as in SudoRules; the puzzles of a file are
    numbered 1, 2, ... in file order.  With --format json, each puzzle is one line of JSON:
    number, line, puzzle, theory, status, rating, solution, the counts after Singles and whips[1],
    and steps (rule, family, length, text, eliminations, assertions, chain as [variable,
    left-linking, right-linking] triples, subset).

    \b
    Exit status: 0 all solved; 1 an invalid puzzle (bad line, no or several solutions);
    2 bad arguments (no such file...); 3 the theory could not finish a puzzle (its partial path
    and remaining candidates are printed); 4 the time limit was reached; 5 the memory limit was
    reached; 130 / 143 / 129 interrupted, terminated, hung up (the paths printed so far are complete,
    and so is the --html page of them); 141 standard output closed by its reader (| head).
    """
    from ..resolution.verify import replay

    # --brief only leaves out T&E contexts from the text path: elsewhere it changed nothing, silently,
    # and a user took the full path for the brief one; refused before any work, as other misuse
    if brief and str(theory) not in TE_THEORIES:
        raise click.UsageError(f"--brief applies to the T&E theories ({', '.join(TE_THEORIES)}), whose steps "
                               f"have contexts to leave out: --theory {theory} has none")
    if brief and output_format == "json":
        raise click.UsageError("--brief shortens the text path only: --format json keeps every T&E step's "
                               "context, for Resolution.from_json to read back whole")
    records = records_from_argument(source)
    numbered = names_file(source)
    if not numbered:
        # a puzzle given as the argument is PUZZLE 0, its drawings step-N.svg: two lines of puzzles
        # there were both PUZZLE 0, the second's drawings over the first's (helper-43)
        records = list(records)
        if len(records) > 1:
            raise click.UsageError(f"the argument holds {len(records)} puzzles; solve takes one there: put them "
                                   "in a file (or - for standard input)")
    if numbered:
        check_output(None, inputs=[source])  # the paths printed onto the input file (solve in.txt >> in.txt)
    svg_files = r"puzzle-\d+/step-\d+\.svg" if numbered else r"step-\d+\.svg"
    if svg_output is not None:  # every problem of the directory said before any work
        check_output_directory(svg_output, inputs=[source], subdirectory=r"puzzle-\d+" if numbered else "",
                               file=svg_files)
    if html_output is not None:
        if is_stdout(html_output):
            raise click.BadParameter("the page would mix with the printed path: give a file name", param_hint="--html")
        from ..draw.html import HTML_START

        if svg_output is not None:  # found after every path was printed, or a drawing replaced by the page
            _check_apart(html_output, svg_output, svg_files)
        check_output(html_output, inputs=[source], kind=("an HTML page", HTML_START))
        if _is_a_standard_stream(html_output):  # /dev/stdout on a pipe or a terminal (helper-40)
            raise click.BadParameter("the page would mix with the printed path: give a file name", param_hint="--html")
    resolutions: list[tuple[int, Resolution]] = []
    drawn: list[Path] = []  # the directories of --svg drawings this run wrote
    if progress is None:
        progress = sys.stderr.isatty()
    where: dict = {"at": "", "level": 0, "done": 0}  # "at": where messages say the puzzle is (below)
    if html_output is not None:
        # The page is written at the end, but a file written at that name during the run (another
        # run's output, the user's notes) is kept, not replaced: its state is taken now (helper-38: a
        # rate CSV written there meanwhile was lost, status 0).  Interrupted, the page shows the
        # paths printed whole so far.
        page_since = file_identity(html_output)
        title = f"sudorules solve {source if numbered else ''}".strip()
        where["page"] = lambda: _write_page(resolutions, html_output, title, source, page_since)
    _stop_cleanly_on_signals(where)
    solver = Solver(max_length=max_length, lean_braids_from=lean_braids_from)
    memory_bytes = solve_memory_bytes(memory_limit)
    solver.level_hook = lambda level: where.__setitem__("level", level)
    status = 0
    with _page_kept_on_a_closed_stdout(where):
        for rank, record in enumerate(records, start=1):
            number = rank if numbered else 0
            # a file's puzzle by its line, the one given as the argument as its path names it (PUZZLE 0)
            at = where["at"] = record.where
            if record.puzzle is None:
                click.echo(f"{at}: {record.error}", err=True)
                if output_format == "json":
                    _invalid_json(number, record.line, record.cell, theory, max_length, record.error)
                status = max(status, EXIT_INVALID)
                continue
            try:
                solution = unique_solution(record.puzzle)
            except InvalidPuzzleError as error:
                click.echo(f"{at}: {error}", err=True)
                if output_format == "json":
                    _invalid_json(number, record.line, str(record.puzzle), theory, max_length, error.reason)
                status = max(status, EXIT_INVALID)
                continue
            where["level"] = 0
            beat = heartbeat(HEARTBEAT_SECONDS if progress else None,
                             lambda seconds: (f"{where['at']}: still solving under {theory}, "
                                              f"level {where['level']}, {seconds:.0f} s"),
                             _say)
            with beat, stop_after(hard_limit(time_limit), _time_is_up(at, time_limit)):
                resolution = solver.solve(record.puzzle, theory, time_limit=time_limit, solution=solution,
                                          memory_limit=memory_bytes)
            if output_format == "json":
                _json_line(number, record.line, resolution)
            else:
                sys.stdout.write(format_path(resolution, record.puzzle, number, brief=brief))
            sys.stdout.flush()
            if html_output is not None:  # before the count: a signal in between keeps the page's paths and the count alike
                resolutions.append((number, resolution))
            where["done"] += 1
            if svg_output is not None:
                from ..draw import svg_steps

                folder = Path(svg_output) / f"puzzle-{number}" if numbered else Path(svg_output)
                where["drawing"] = str(folder)  # an interrupt meanwhile leaves its drawings partial: said then
                note_earlier_files(folder, r"step-\d+\.svg", svg_steps(resolution, folder, inputs=[source]), str(folder),
                                   "not drawn by this one")
                where.pop("drawing", None)
                drawn.append(folder)
            if verify:
                report = replay(record.puzzle, resolution.steps, solution)
                if not report.ok:
                    index, text, problem = report.problems[0]
                    raise SudorulesError(f"{at}: step {index + 1} failed verification: {text}: {problem}")
                # a file's lines say whose path (they were all alike: helper-43)
                click.echo(f"{at + ': ' if numbered else ''}verified: {report.steps_checked} steps", err=True)
            if resolution.status == "timeout":  # said as a memory stop is (the path alone said it: helper-38)
                click.echo(f"{at}: time limit of {time_limit:g} s reached; stopped", err=True)
                status = max(status, EXIT_TIMEOUT)
            elif resolution.status == "memory":
                said = resolution.error or f"memory limit of {(memory_bytes or 0) // 2**20} MiB reached"
                click.echo(f"{at}: {said}; stopped", err=True)
                status = max(status, EXIT_MEMORY)
            elif resolution.status != "solved":
                status = max(status, EXIT_NOT_SOLVED)
    if svg_output is not None:
        # and the other layout's entries: a file's puzzle-N folders beside a lone puzzle's step files
        # (or the reverse) went unmentioned, as if they were this run's
        note_earlier_files(svg_output, r"step-\d+\.svg" if numbered else r"puzzle-\d+", [],
                           svg_output, "not drawn by this one")
    if svg_output is not None and numbered:
        note_earlier_files(svg_output, r"puzzle-\d+", drawn, svg_output, "not drawn by this one")
    if html_output is not None:
        if resolutions:
            where["page"]()
        else:  # an earlier page there would pass for this run's
            click.echo(f"--html {html_output}: no page written: no puzzle to show", err=True)
    raise click.exceptions.Exit(status)


def _is_a_standard_stream(name: str) -> bool:
    """Is ``name`` the file standard output or standard error writes to (``/dev/stdout``, a path to
    the same terminal or file)?"""
    try:
        target = os.stat(name)
    except OSError:
        return False
    for descriptor in (1, 2):
        try:
            stream = os.fstat(descriptor)
        except OSError:
            continue
        if (stream.st_dev, stream.st_ino) == (target.st_dev, target.st_ino):
            return True
    return False


def _write_page(resolutions: list[tuple[int, Resolution]], html_output: str, title: str, source: str,
                since: object) -> bool:
    """The --html page of ``resolutions`` (numbered), unless there are none; whether one was written."""
    if not resolutions:
        return False
    from ..draw import write_path_html

    write_path_html([r for _, r in resolutions], html_output, numbers=[n for n, _ in resolutions],
                    title=title, inputs=[source], since=since)
    return True


def _json_line(number: int, line: int, resolution: Resolution) -> None:
    """One puzzle's line of --format json: the resolution's own JSON with its number and line
    (:meth:`Resolution.to_json`), which :meth:`Resolution.from_json` reads back whole."""
    resolution.number, resolution.line = number, line
    sys.stdout.write(resolution.to_json() + "\n")


def _invalid_json(number: int, line: int, puzzle: str, theory: Theory, max_length: int,
                  reason: Optional[str]) -> None:
    """An invalid puzzle gets its line too, so that the output has one line per puzzle: the
    resolution the API gives such a record (status invalid, no steps), not a shorter object of its own
    (which lacked the theory, so that from_json could not read it)."""
    _json_line(number, line, Resolution(puzzle=puzzle, theory=theory, max_length=max_length,
                                        status=Status.INVALID, error=reason))


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _check_apart(html_output: str, svg_output: str, svg_files: str) -> None:
    """Refuse an --html page that is the --svg directory or one of the drawings it will hold; make the
    --svg directory now when the page goes into it (``--svg drawn --html drawn/page.html``)."""
    import re

    page, folder = os.path.realpath(html_output), os.path.realpath(svg_output)
    if page == folder:
        raise OutputError(f"--html {html_output}: is also the --svg directory; give them different names")
    relative = os.path.relpath(page, folder)
    if not relative.startswith("..") and re.fullmatch(svg_files, relative.replace(os.sep, "/")):
        raise OutputError(f"--html {html_output}: is a drawing --svg {svg_output} writes; give the page another name")
    if not relative.startswith("..") and not os.path.isdir(folder):  # the page beside its drawings
        os.makedirs(folder, exist_ok=True)  # (checked writable above): made now, for the page's check


def _stop_cleanly_on_signals(where: dict) -> None:
    """SIGINT / SIGTERM / SIGHUP end ``solve`` at once with one line and status 130 / 143 / 129 (unless
    ignored from the start: :func:`~sudorules.cli.install_signal_handlers`).

    Raising an exception (the other commands' way) does not work here: the signal is handled in the
    middle of a CLIPS run, inside one of the rules' Python callbacks, where cffi prints and ignores
    any exception ("Exception ignored from cffi callback") and CLIPS carries on.  The paths printed
    so far are complete: each one is written and flushed whole."""
    def stop(signum: int, _frame) -> None:
        try:
            sys.stdout.flush()  # complete paths only: each is written whole, then flushed
        except (OSError, ValueError):
            pass
        said = f"interrupted at {where['at'] or 'the start'} after {where['done']} puzzle{'' if where['done'] == 1 else 's'}"
        if "drawing" in where:
            said += f"; the drawings in {where['drawing']} are incomplete"
        if "page" in where:
            try:
                said += "; their paths are on the --html page" if where["page"]() else "; no --html page written"
            except Exception as error:  # the page is lost, not the message nor the exit status
                said += f"; the --html page is not in place ({error})"
        _say(said)
        os._exit(128 + signum)

    install_signal_handlers(stop)


@contextmanager
def _page_kept_on_a_closed_stdout(where: dict) -> Iterator[None]:
    """A reader that closes standard output (``| head -1``) ends the run quietly, status 141, as in
    every command; the --html page of the paths printed before is written first, as an interrupt
    writes it (it was lost: helper-43)."""
    try:
        yield
    except BrokenPipeError:
        if "page" in where:
            try:
                where["page"]()
            except Exception:  # the page is lost, not the run's quiet end
                pass
        raise


def _time_is_up(at: str, time_limit: Optional[float]):
    """The watchdog's action: the run could not stop itself in time (a level switch in progress)."""
    def stop() -> None:
        sys.stdout.flush()
        _say(f"{at}: time limit of {time_limit:g} s reached during a level switch; stopped")
        os._exit(EXIT_TIMEOUT)
    return stop
