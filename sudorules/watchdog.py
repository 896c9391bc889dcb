"""A hard stop for one engine run: the engine's own time limit is checked between rule-firing chunks
and between braid targets, but a single CLIPS assertion (switching a level on) cannot be
interrupted and can last seconds on the hardest puzzles.  clipspy releases the GIL while CLIPS
runs, so a timer thread can end the process when a run overshoots its limit by far."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator, Optional


def hard_limit(time_limit: Optional[float]) -> Optional[float]:
    """The seconds after which a run given ``time_limit`` is stopped from outside: half as long
    again, and at least two seconds more (None: no limit)."""
    if time_limit is None:
        return None
    return time_limit + max(2.0, 0.5 * time_limit)


@contextmanager
def stop_after(seconds: Optional[float], on_expiry: Callable[[], None]) -> Iterator[None]:
    """Run the body; if it is still running after ``seconds``, call ``on_expiry`` from a timer
    thread (which should end the process, e.g. with ``os._exit``).  ``None``: no timer."""
    if seconds is None:
        yield
        return
    timer = threading.Timer(seconds, on_expiry)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
