"""click types for the option values every command shares (``--jobs``, ``--time-limit``,
``--minutes``, ``--memory-limit``): thin wrappers over :mod:`sudorules.options`, the one place
where the values are checked, so that a bad value is refused with click's usual ``Invalid value for
'--jobs'`` line and the same reason as in the Python API."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

import click

from ..errors import OptionError
from ..options import capped_jobs, check_memory_mib, check_duration, MIN_TIME_LIMIT


class Jobs(click.ParamType):
    """A number of jobs from 1; above the cap (4 per core) it is capped with a warning on stderr."""

    name = "integer"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> int:
        number = click.INT.convert(value, param, ctx)
        try:
            jobs, message = capped_jobs(number, name=param.opts[0] if param is not None else "jobs")
        except OptionError as error:
            self.fail(error.reason, param, ctx)
        if message is not None:
            click.echo(f"Warning: {message}", err=True)
        return jobs


class Duration(click.ParamType):
    """A finite positive number of ``unit``, at least ``minimum`` (``nan``, ``inf`` refused)."""

    name = "float"

    def __init__(self, minimum: float = MIN_TIME_LIMIT, unit: str = "seconds"):
        self.minimum, self.unit = minimum, unit

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> float:
        try:
            return check_duration(value, name="", minimum=self.minimum, unit=self.unit)
        except OptionError as error:
            self.fail(error.reason, param, ctx)


class MemoryMiB(click.ParamType):
    """A whole number of MiB from 0 (0: no limit)."""

    name = "MiB"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> int:
        number = click.INT.convert(value, param, ctx)
        try:
            return check_memory_mib(number)
        except OptionError as error:
            self.fail(error.reason, param, ctx)


JOBS = Jobs()
TIME_LIMIT = Duration()
MINUTES = Duration(minimum=0, unit="minutes")
MEMORY_MIB = MemoryMiB()


class LazyHelpOption(click.Option):
    """An option whose help text is made when help is shown (``help_text()``), not when the command's
    module is imported: text drawn from the registry of rule families, which a run of compiled ratings
    never imports otherwise."""

    def __init__(self, *args: Any, help_text: Callable[[], str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._help_text = help_text

    def get_help_record(self, ctx: click.Context):
        if self.help is None:
            self.help = self._help_text()
        return super().get_help_record(ctx)


def progress_option(shows: str = ""):
    """``--progress/--no-progress``, the same in every command that draws a bar; the command gets None
    when neither is given and decides with :func:`shows_progress`.  ``shows``: what the bar shows
    beyond a count, for the help."""
    return click.option("--progress/--no-progress", default=None,
                        help=f"Progress bar on stderr{shows} [default: when stderr is a terminal and the "
                             "output goes elsewhere].")


def shows_progress(progress: Optional[bool], rows_on_stdout: bool) -> bool:
    """Whether a command draws its bar: as ``--progress/--no-progress`` says, else when stderr is a
    terminal (never into a pipe or a file) and the command's rows do not go to that terminal as
    well, where each line printed tore the bar (``check FILE`` in a terminal left bar pieces between
    its rows, and glued the first row onto the bar's line)."""
    if progress is not None:
        return progress
    return sys.stderr.isatty() and not (rows_on_stdout and sys.stdout.isatty())


def to_stdout(output: Optional[str]) -> bool:
    """An ``-o`` value that means standard output (none, or ``-``)."""
    return output in (None, "-")
