"""Progress on standard error while a command reads an input record by record (rate, classify,
check, canon): a tqdm bar whose total is the input's records where they can be counted ahead
(:func:`~sudorules.reader.count_records`), and the lines a command says meanwhile written above it
rather than through it."""

from __future__ import annotations

import sys
from typing import Iterable, Iterator, Optional, TypeVar

import click

from .reader import count_records

T = TypeVar("T")


def progress_bar(total: Optional[int], initial: int = 0, unit: str = "puzzle"):
    """A bar on stderr (``total`` None: a count without a percentage)."""
    from tqdm import tqdm  # only where a bar is drawn

    return tqdm(total=total, initial=initial, unit=unit, file=sys.stderr, dynamic_ncols=True, smoothing=0.05)


class RecordProgress:
    """The records of input ``source`` counted on a bar as a command takes them, or no bar when not
    ``shown``; :meth:`say` writes one line on stderr either way.  A context manager: the bar is
    closed (left as it ended) on the way out."""

    def __init__(self, source: str, shown: bool, unit: str = "puzzle"):
        self.bar = progress_bar(count_records(source), unit=unit) if shown else None

    def over(self, records: Iterable[T]) -> Iterator[T]:
        if self.bar is None:
            yield from records
            return
        update = self.bar.update
        for record in records:
            yield record
            update()

    def say(self, text: str) -> None:
        if self.bar is None:
            click.echo(text, err=True)
        else:
            self.bar.write(text, file=sys.stderr)

    def __enter__(self) -> "RecordProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()
