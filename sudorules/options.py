"""The one place where option values are checked: job counts, time limits, memory limits.

The command line (``--jobs``, ``--time-limit``, ``--minutes``, ``--memory-limit``, through the click
types of :mod:`sudorules.cli.options`) and the Python API (``rate(jobs=...)``, ``solve(time_limit=...)``,
:class:`~sudorules.batch.runner.RateOptions`) call the same functions, so a value means the same thing
and is refused with the same words everywhere:

* a number of jobs is an integer from 1; more than :data:`JOBS_PER_CORE` times the cores is capped
  there, with a message: 10**20 workers would otherwise fork until the machine stops answering (331
  processes and 3.7 GB in 15 s, issue 27), and more processes than that only compete for the cores;
* a time in seconds is a finite number (``nan`` and ``inf`` are refused: ``nan`` passes every ``<``
  test and would have meant "no limit" in one place and "stop at once" in another);
* a memory limit is a whole number of MiB from 0 (0: no limit), the unit of the CLI and the API alike;
* an option of some generator methods only (``--untested``, ``--grids``, ``--max-clues``) is refused
  for the others (:func:`check_method_option`) rather than ignored.
"""

from __future__ import annotations

import math
import operator
from typing import Optional

from .errors import OptionError

#: at most this many jobs per core (``--jobs`` above it is capped, with a message)
JOBS_PER_CORE = 4
#: the shortest time limit, in seconds: below it a rule engine has not even started
MIN_TIME_LIMIT = 0.1
#: the longest duration, in seconds (about 31 years): past about 9.2e9 s a timer overflows the
#: platform's time_t (`solve --time-limit 1e10` printed a thread's traceback)
MAX_DURATION = 1e9
#: the seconds in each unit a duration may be given in
UNIT_SECONDS = {"seconds": 1, "minutes": 60}


#: the ranges of the whole-number options, the command line's and the API's alike
MAX_LENGTH_RANGE = (1, 36)        #: --max-length: the longest chain tried (SudoRules' own bound)
MAX_DEPTH_RANGE = (1, 3)          #: classify --max-depth: the deepest T&E level
LEAN_BRAIDS_FROM_RANGE = (3, 37)  #: solve --lean-braids-from (37: never)
SEED_RANGE = (0, 2**64 - 1)       #: --seed of generate and count: the generators' 64-bit seeds
CLUES_RANGE = (17, 81)            #: count --size and --max-clues: the clue counts of a minimal puzzle
PUZZLES_RANGE = (1, None)         #: generate -n: how many puzzles (n=0 gave the API an empty table)
#: generate --start: the index of a run's first puzzle in its seed's sequence (the C side's index is a
#: signed 64-bit number, and start + n must fit)
START_RANGE = (0, 2**62)
#: generate --untested: the clues of a controlled-bias grid deleted before any uniqueness test.  A grid
#: yields a puzzle only when the puzzle of its 81 - N remaining clues is unique, so the output has at
#: most 81 - N clues and N keeps only that share of controlled-bias puzzles (cb-001's 21,695: at most
#: 24 clues 13.8 %, 23 clues 2.0 %, 22 clues 0.1 %, 21 none).  Measured (--seed 1 -n 1 --jobs 1, about
#: 500,000 grids a second): N up to 55 the default's puzzle in 0.3 s; 56 in 0.4 s; 57 in 1.1 s; 58 in
#: 105 s (55 million grids; about 11 million expected); 59 to 64 none in 30 s (59: about 230 million
#: grids, minutes, expected; 60 and above hours or never: 64 asks for a unique 17-clue subset).  Up to
#: 57 a puzzle comes in seconds; from 58 (accepted before, up to 64) a run went on for minutes, hours
#: or for ever with no output and no word.
UNTESTED_RANGE = (0, 57)


#: the generators' options that belong to some methods only (``generate --untested``, ``--grids``,
#: ``count --max-clues``): the methods, and why when it is not plain.  Given for another method they
#: would be ignored (or fail inside), so the command line and the API refuse them alike, before any work.
METHOD_OPTIONS = {
    "untested": (("controlled-bias",), ""),
    "grids": (("top-down", "controlled-bias"), "bottom-up starts from the empty grid"),
    "max_clues": (("supersets",), ""),
}


def check_method_option(option: str, value: object, method: str, *, cli: bool = False) -> None:
    """:class:`OptionError` when ``value`` (None: not given) of ``option`` (a key of
    :data:`METHOD_OPTIONS`) is given for a ``method`` it does not belong to; ``cli``: the message names
    the command line's options (``--untested``, ``--method``), else the API's arguments."""
    methods, why = METHOD_OPTIONS[option]
    if value is None or method in methods:
        return
    name, method_name = ("--" + option.replace("_", "-"), "--method") if cli else (option, "method")
    reason = f"applies to {method_name} {' or '.join(methods)} only" + (f" ({why})" if why else "")
    raise OptionError(f"{name} {reason}", reason)


def check_start(start: object, grids: object, *, cli: bool = False) -> None:
    """:class:`OptionError` for a ``start`` other than 0 with given ``grids`` (not None): given grid i
    makes puzzle i, so the grids themselves are cut instead; ``cli`` as for :func:`check_method_option`."""
    if start and grids is not None:
        name, where = ("--start", "--grids, leave the first grids out of the file") if cli else \
            ("start", "given grids, leave the first ones out of them")
        raise OptionError(f"{name}: the seeded grids only; with {where}")


def check_weights(weights: object, method: str, grids: object, *, cli: bool = False) -> None:
    """:class:`OptionError` when grid weights are asked for (``weights`` true) where there are none:
    bottom-up draws no complete grid, and given ``grids`` carry no sampling weight (they are taken
    as they come); ``cli`` as for :func:`check_method_option`."""
    if not weights or (grids is None and method != "bottom-up"):
        return
    name, given = ("--weights", "--grids") if cli else ("weights", "given grids")
    raise OptionError(f"{name}: grid weights exist for top-down and controlled-bias with the seeded grids only "
                      f"({'bottom-up draws no complete grid' if method == 'bottom-up' else given + ' are not sampled'})")


def _bad(name: str, reason: str) -> OptionError:
    return OptionError(f"{name}: {reason}", reason)


def _whole(value: object) -> Optional[int]:
    """``value`` as a Python int when it is a whole number: an int or one of numpy's integers (a
    count taken from an array: ``jobs=np.int64(2)`` was refused where ``max_length`` took it); None
    for a bool, a float, a str or None.  The one test of every whole-number option."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_whole(value: object, name: str, low: int, high: Optional[int] = None) -> int:
    """``value`` when it is a whole number (not a bool) from ``low`` to ``high`` (None: no bound),
    else :class:`OptionError`: ``max_length=2.5``, ``"3"`` or ``0`` are told as the command line
    tells them, before any work."""
    number = _whole(value)
    if number is None:
        raise _bad(name, f"{value!r} is not a whole number")
    if number < low or (high is not None and number > high):
        raise _bad(name, f"{number} is not in {low}..{high}" if high is not None else f"{number} is below {low}")
    return number


def max_jobs() -> int:
    """The most jobs a run may use: :data:`JOBS_PER_CORE` times the cores this process may use."""
    from .oscompat import cpu_count

    return JOBS_PER_CORE * cpu_count()


def capped_jobs(jobs: int, name: str = "jobs") -> tuple[int, Optional[str]]:
    """``(jobs to use, message)``: ``jobs`` itself and None, or the cap and the message saying so;
    :class:`OptionError` for a value below 1 or not an integer."""
    jobs = check_whole(jobs, name, 1)
    most = max_jobs()
    if jobs <= most:
        return jobs, None
    return most, (f"{name} {jobs} is more than {JOBS_PER_CORE} per core "
                  f"({most // JOBS_PER_CORE} core{'s' if most > JOBS_PER_CORE else ''}): using {most}")


def check_duration(value: float, name: str = "time limit", minimum: float = MIN_TIME_LIMIT,
                   unit: str = "seconds") -> float:
    """``value`` as a float when it is a finite number of ``unit`` above 0, at least ``minimum`` and
    at most :data:`MAX_DURATION` seconds, else :class:`OptionError` (``nan``, ``inf``, text, a
    negative, too short or too long time)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise _bad(name, f"{value!r} is not a number of {unit}") from None
    if not math.isfinite(number):
        raise _bad(name, f"{value!r} is not a finite number of {unit}")
    if number <= 0:
        raise _bad(name, f"{value!r} is not a positive number of {unit}")
    if number < minimum:
        raise _bad(name, f"{value!r} is below the minimum of {minimum:g} {unit}")
    if number * UNIT_SECONDS[unit] > MAX_DURATION:
        most = MAX_DURATION / UNIT_SECONDS[unit]
        raise _bad(name, f"{value!r} is above the maximum of {most:g} {unit} (leave it out for no limit)")
    return number


def check_time_limit(value: Optional[float], name: str = "time limit") -> Optional[float]:
    """A time limit per puzzle in seconds (None: no limit), at least :data:`MIN_TIME_LIMIT`; a number,
    not its text (``time_limit="1"`` was taken where ``max_length="3"`` was refused: helper-43; the
    command line's own text goes through :func:`check_duration`)."""
    if isinstance(value, (str, bytes, bool)):
        raise _bad(name, f"{value!r} is not a number of seconds")
    return None if value is None else check_duration(value, name)


def check_memory_mib(value: Optional[int], name: str = "memory limit") -> Optional[int]:
    """A memory limit in MiB (None: the default, 0: no limit): a whole number from 0."""
    if value is None:
        return None
    number = _whole(value)
    if number is None:
        raise _bad(name, f"{value!r} is not a whole number of MiB")
    if number < 0:
        raise _bad(name, f"{number} is below 0 (0 means no limit)")
    return number


def solve_memory_bytes(value: Optional[int]) -> Optional[int]:
    """A solve's memory limit (``solve --memory-limit``, :func:`sudorules.solve`) in bytes, from MiB
    checked as above: by default three quarters of the memory available now
    (:func:`~sudorules.oscompat.usable_memory`: past it the kernel would kill a process, maybe
    another one; top1465 #182 under gW grows by about 130 MB a second); 0, or a system that does not
    say: none."""
    from . import oscompat

    value = check_memory_mib(value)
    if value is None:
        return oscompat.usable_memory()
    return value * 2**20 or None
