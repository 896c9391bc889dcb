"""A hard stop for one engine run: the engine's own time limit is checked between rule-firing chunks
and between braid targets, but a single CLIPS assertion (switching a level on) cannot be
interrupted and can last seconds on the hardest puzzles.  clipspy releases the GIL while CLIPS
runs, so a timer thread can end the process when a run overshoots its limit by far; the same
property lets :func:`heartbeat` say, during a long run, that the run is alive and where it is."""

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


@contextmanager
def heartbeat(interval: Optional[float], message: Callable[[float], str],
              write: Callable[[str], None]) -> Iterator[None]:
    """Run the body; every ``interval`` seconds while it runs, ``write(message(seconds so far))``
    from a timer thread (clipspy releases the GIL, so the thread speaks during a long CLIPS run).
    ``None``: no heartbeat."""
    if interval is None:
        yield
        return
    import time

    done = threading.Event()
    started = time.monotonic()

    def beat() -> None:
        while not done.wait(interval):
            write(message(time.monotonic() - started))

    thread = threading.Thread(target=beat, name="sudorules-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
