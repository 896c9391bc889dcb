"""The named values of the domain: the theories (resolution theories, SPEC §5) and the statuses a
resolution or a rated row ends with.

Both are string-valued enums: ``Status.SOLVED == "solved"`` and ``str(Status.SOLVED) == "solved"``,
so CSV and JSON outputs read exactly as before and plain strings are accepted wherever a member is.
"""

from __future__ import annotations

from enum import Enum


class _StrEnum(str, Enum):
    """A str-valued enum printed as its value (``enum.StrEnum`` needs Python 3.11; we support 3.10)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Theory(_StrEnum):
    """A resolution theory: the rules allowed, applied simplest-first (SPEC §5.3).  Its families,
    description and rating are its entry in :data:`sudorules.resolution.families.THEORIES`."""

    BRT = "BRT"  #: Singles only (the basic resolution theory)
    W = "W"      #: Singles + whips: the W rating
    B = "B"      #: Singles + whips + braids: the B rating
    SW = "SW"    #: Singles + Subsets + whips
    GW = "gW"    #: Singles + whips + g-whips: the gW rating
    GB = "gB"    #: Singles + whips + g-whips + braids + g-braids: the gB rating
    TE1 = "TE1"  #: T&E(BRT, 1) (SPEC §10.1): what braids eliminate
    TE2 = "TE2"  #: T&E(BRT, 1), then T&E(BRT, 2)
    TE3 = "TE3"  #: T&E(BRT, 1), T&E(BRT, 2), then T&E(BRT, 3)
    BXB = "BxB"    #: T&E(1), then T&E(B_p, 1) for p = 1, 2, ...: the BxB value (SPEC §10.3)
    BXBB = "BxBB"  #: T&E(1), T&E(2), then T&E(B_p, 2): the BxBB value

    @classmethod
    def of(cls, value: "Theory | str") -> "Theory":
        """The member named ``value`` in any case (``gw`` is ``gW``), or ``ValueError`` listing the
        theories."""
        try:
            return cls(value)
        except ValueError:
            pass
        for theory in cls:
            if isinstance(value, str) and theory.value.lower() == value.lower():
                return theory
        raise ValueError(f"unknown theory {value!r}: choose among {', '.join(t.value for t in cls)}")


class Status(_StrEnum):
    """How a resolution or a rated row ended, from best to worst (a row's status is the worst over
    its ratings)."""

    SOLVED = "solved"                #: every cell decided
    NOT_SOLVED = "not-solved"        #: the theory is too weak: candidates remain
    BEYOND_TE1 = "beyond-te1"        #: not in T&E(1): no braid (no whip) can solve it (SPEC §10.2)
    BEYOND_TE2 = "beyond-te2"        #: not in T&E(2): BxB does not apply (T&E-depth 3 or more)
    BEYOND_TE3 = "beyond-te3"        #: not in T&E(3): beyond the classification (no such puzzle is known)
    CONTRADICTION = "contradiction"  #: a CSP variable lost all its candidates (no solution)
    TIMEOUT = "timeout"              #: the time limit was reached
    MEMORY = "memory"                #: a batch worker passed its memory limit
    CRASHED = "crashed"              #: a batch worker died
    INVALID = "invalid"              #: the input is no puzzle, or has no or several solutions

    @property
    def rank(self) -> int:
        """0 for the best status, larger for worse ones."""
        return list(Status).index(self)
