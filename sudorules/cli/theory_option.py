"""The theory names ``solve --theory`` and ``rate --rating`` accept: a named theory (W, B, gW, gB, SW,
BRT, default) or any ``+``-joined composition of SudoRules' parts (``S+Fin+BC+Z+tW+W``, ``SFin+W``,
``BC``, ``Z``, ``tW``...; :class:`~sudorules.enums.Theory`)."""

from __future__ import annotations

from typing import Optional

import click

from ..enums import THEORY_PARTS, Theory
from ..resolution import families


class TheoryName(click.ParamType):
    """A click parameter type: a theory name, as a :class:`Theory` (a clear error for a bad one)."""

    name = "THEORY"

    def convert(self, value: object, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Theory:
        try:
            return Theory.of(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


def theories_help() -> str:
    """The help text of a theory option: the named theories, then how to compose one."""
    return (families.theories_help() + ". Or any +-joined parts, SudoRules' names (e.g. S+Fin+BC+Z+tW+W, SFin+W, "
            f"BC, Z, tW): {', '.join(THEORY_PARTS)}; SFin = S+Fin")


def ratings_option(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[str, ...]:
    """A click callback for ``rate --rating``: comma-separated rating names, each a named rating or
    any theory name (the column keeps the name as given), each at most once."""
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    if not names:
        raise click.BadParameter(f"choose among {', '.join(families.RATINGS)} or any theory (comma-separated)")
    for name in names:
        try:
            families.rating_theory(name)
        except ValueError as error:
            raise click.BadParameter(f"unknown rating {name!r}: {error}") from None
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise click.BadParameter(f"{repeated[0]} is given twice")
    return names


__all__ = ["TheoryName", "ratings_option", "theories_help"]
