"""click types for the option values every command shares (``--jobs``, ``--time-limit``,
``--minutes``, ``--memory-limit``): thin wrappers over :mod:`sudorules.options`, the one place
where the values are checked, so that a bad value is refused with click's usual ``Invalid value for
'--jobs'`` line and the same reason as in the Python API."""

from __future__ import annotations

from typing import Any, Optional

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
