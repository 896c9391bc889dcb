"""The theory names ``solve --theory`` accepts (``rate --rating`` takes them too: batch.rating's
``canonical_rating``): a named theory (W, B, gW, gB, SW, BRT, default, TE1...) or any ``+``-joined
composition of SudoRules' parts (``S+Fin+BC+Z+tW+W``, ``SFin+W``, ``BC``, ``Z``, ``tW``...;
:class:`~sudorules.enums.Theory`), in any case."""

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


__all__ = ["TheoryName", "theories_help"]
