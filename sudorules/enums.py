"""The named values of the domain: the theories (resolution theories, SPEC §5) and the statuses a
resolution or a rated row ends with.

Both are string-valued enums: ``Status.SOLVED == "solved"`` and ``str(Status.SOLVED) == "solved"``,
so CSV and JSON outputs read exactly as before and plain strings are accepted wherever a member is.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

from .errors import OptionError


class _StrEnum(str, Enum):
    """A str-valued enum printed as its value (``enum.StrEnum`` needs Python 3.11; we support 3.10)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


#: The parts a theory is made of, as SudoRules names its rule sets (SPEC §5.4), in the order of the
#: simplest-first salience order (SPEC §5.3): whips[1], Subsets, finned fish, (typed) bivalue-chains,
#: (typed) z-chains, (typed) t-whips, (typed) whips, g-bivalue-chains, g-whips, braids, g-braids.
THEORY_PARTS = ("W1", "S", "Fin", "TyBC", "BC", "TyZ", "Z", "TytW", "tW", "TyW", "W", "gBC", "gW", "B", "gB")

#: What a part brings with it, as SudoRules' configuration does (CSP-Rules-Generic globals.clp:
#: z-chains imply bivalue-chains, g-whips and braids imply whips, g-braids imply g-whips and braids;
#: finned fish are an extension of Subsets, hence SudoRules' application label ``SFin``).  Every part
#: brings whips[1] (``W1``): all theories but BRT have them.
THEORY_IMPLIES = {"Fin": ("S",), "Z": ("BC",), "TyZ": ("TyBC",), "gBC": ("BC",), "gW": ("W",), "B": ("W",),
                  "gB": ("gW", "B")}

#: Names that stand for several parts: ``SFin`` (SudoRules' label for Subsets + finned fish), the
#: older name ``SW`` (Subsets + whips), ``default`` (SudoRules' default configuration: Subsets, finned
#: fish, bivalue-chains, z-chains, t-whips, whips; its label is ``W+SFin``) and ``BRT`` (no part).
THEORY_ALIASES = {"SFin": ("S", "Fin"), "SW": ("S", "W"), "default": ("S", "Fin", "BC", "Z", "tW", "W"), "BRT": ()}


#: The theories of the compiled T&E engine (SPEC §10): T&E(BRT, 1..3) level by level, BxB and BxBB.
#: They are named alone, not composed with parts.
TE_THEORIES = ("TE1", "TE2", "TE3", "BxB", "BxBB")

#: every name, by its lower case: names are read in any case (``gw`` is ``gW``); no two differ by case only
_NAMES = {name.lower(): name for name in THEORY_PARTS + tuple(THEORY_ALIASES) + TE_THEORIES}


def theory_spelling(value: str) -> str:
    """A theory name as given, each ``+``-joined part in its own spelling (``s+w`` is ``S+W``, ``bc``
    is ``BC``): a ``rate --rating`` column keeps the name given, and the same name typed in another
    case must name the same column when an output is resumed."""
    return "+".join(_NAMES.get(token.strip().lower(), token.strip()) for token in str(value).split("+"))


# cached: a solve asks a theory for its parts, label and families about 160 times a puzzle (0.8 % of
# `rate`'s Python calls before the cache)
@lru_cache(maxsize=1024)
def _theory_parts(value: str) -> frozenset[str]:
    """The parts named by a theory name (``+``-joined parts and aliases, in any case), with what they
    imply; a T&E theory's name alone; :class:`~sudorules.errors.OptionError` (a ValueError) for an
    unknown part."""
    named = [_NAMES.get(token.strip().lower(), token.strip()) for token in str(value).split("+")]
    if not value or not all(named):
        raise OptionError(f"unknown theory {value!r}: an empty part")
    if any(token in TE_THEORIES for token in named):
        if len(named) > 1:
            raise OptionError(f"unknown theory {value!r}: {', '.join(TE_THEORIES)} are named alone")
        return frozenset(named)
    parts: set[str] = set()
    todo: list[str] = []
    for token in named:
        if token in THEORY_ALIASES:
            todo += THEORY_ALIASES[token]
        elif token in THEORY_PARTS:
            todo.append(token)
        else:
            raise OptionError(f"unknown theory {value!r}: {token!r} is none of "
                             f"{', '.join(THEORY_PARTS + tuple(THEORY_ALIASES))} (parts joined by +), "
                             f"nor {', '.join(TE_THEORIES)}")
    while todo:
        part = todo.pop()
        if part not in parts:
            parts.add(part)
            todo += THEORY_IMPLIES.get(part, ())
    if parts:
        parts.add("W1")
    return frozenset(parts)


class _Named(type):
    """Iterating over :class:`Theory` gives the named theories, as over an enum's members."""

    def __iter__(cls):
        return iter(cls.NAMED)

    def __len__(cls) -> int:
        return len(cls.NAMED)


class Theory(str, metaclass=_Named):
    """A resolution theory as SudoRules composes it (SPEC §5.3-§5.4): ``+``-joined parts from
    :data:`THEORY_PARTS` and names from :data:`THEORY_ALIASES`, e.g. ``W``, ``B``, ``S+Fin+BC+Z+tW+W``,
    ``SFin+W``, ``BC``, ``default``; applied simplest-first.  Its families are given by
    :func:`sudorules.resolution.families.theory_spec`.

    A theory is its canonical name (a ``str``): the fewest parts that imply all the others, in the
    order of :data:`THEORY_PARTS`, ``S`` and ``Fin`` written ``SFin``; the part sets of the older
    names keep those names (``W``, ``B``, ``gW``, ``gB``, ``SW``, ``BRT``), and that of SudoRules'
    default configuration is ``default``.  So ``Theory("S+W") == "SW"``,
    ``Theory("W+B") == Theory.B`` and ``Theory("S+Fin+BC+Z+tW+W") == "default"``.  Names are read
    in any case (``gw+s`` is ``gW+S``).  The theories of the compiled T&E engine, :data:`TE_THEORIES`
    (TE1, TE2, TE3, BxB, BxBB, SPEC §10), are named alone.  ``for theory in Theory`` gives the named
    theories (:attr:`NAMED`), as the enum it replaces did."""

    __slots__ = ()

    #: the named theories (class attributes, set below)
    BRT: "Theory"  #: Singles only (the basic resolution theory)
    W: "Theory"    #: Singles + whips: the W rating
    B: "Theory"    #: Singles + whips + braids: the B rating
    SW: "Theory"   #: Singles + Subsets + whips
    GW: "Theory"   #: Singles + whips + g-whips: the gW rating
    GB: "Theory"   #: Singles + whips + g-whips + braids + g-braids: the gB rating
    DEFAULT: "Theory"  #: SudoRules' default configuration (rating type W+SFin)
    TE1: "Theory"  #: T&E(BRT, 1) (SPEC §10.1): what braids eliminate
    TE2: "Theory"  #: T&E(BRT, 1), then T&E(BRT, 2)
    TE3: "Theory"  #: T&E(BRT, 1), T&E(BRT, 2), then T&E(BRT, 3)
    BXB: "Theory"  #: T&E(1), then T&E(B_p, 1) for p = 1, 2, ...: the BxB value (SPEC §10.3)
    BXBB: "Theory"  #: T&E(1), T&E(2), then T&E(B_p, 2): the BxBB value
    #: the named theories, in this order
    NAMED: "tuple[Theory, ...]"

    def __new__(cls, value: "Theory | str") -> "Theory":
        return super().__new__(cls, _canonical(_theory_parts(value)))

    @classmethod
    def of(cls, value: "Theory | str") -> "Theory":
        """The theory named ``value`` (ValueError naming the parts for an unknown one)."""
        return value if isinstance(value, cls) else cls(value)

    @property
    def value(self) -> str:
        """The canonical name (as an enum member's value)."""
        return str(self)

    @property
    def parts(self) -> frozenset[str]:
        """Its parts (:data:`THEORY_PARTS`), with those implied."""
        return _theory_parts(self)

    @property
    def label(self) -> str:
        """SudoRules' ``rating-type`` (G/GENERAL/globals.clp ``define-rating-type``): the typed
        chains' part, then the generic chains' (W1, BC, Z, tW, Z+tW, W, B, with g-bivalue-chains
        W+gBC..., gW, B+gW, gB), then the application part (S, SFin), ``+``-joined; the application
        part alone when the generic part is just W1; BRT for no part.  E.g. ``W+SFin`` for the
        default configuration, ``TyZ+TytW+W1+SFin``."""
        parts = self.parts
        if str(self) in TE_THEORIES:
            return str(self)
        typed, generic = _last_named(parts, _TYPED_NAMES), _last_named(parts, _GENERIC_NAMES)
        if typed:
            generic = f"{typed}+{generic}"
        application = "SFin" if "Fin" in parts else "S" if "S" in parts else ""
        if not application:
            return generic or "BRT"
        return application if generic in ("", "W1") else f"{generic}+{application}"


#: How define-rating-type names the typed and the generic chains: it goes down each list and keeps the
#: last name whose parts the theory has.
_TYPED_NAMES = (({"TyBC"}, "TyBC"), ({"TyZ"}, "TyZ"), ({"TytW"}, "TytW"), ({"TyZ", "TytW"}, "TyZ+TytW"),
                ({"TyW"}, "TyW"))
_GENERIC_NAMES = (({"W1"}, "W1"), ({"BC"}, "BC"), ({"Z"}, "Z"), ({"tW"}, "tW"), ({"Z", "tW"}, "Z+tW"),
                  ({"W"}, "W"), ({"B"}, "B"),
                  ({"gBC"}, "gBC"), ({"gBC", "Z"}, "Z+gBC"), ({"gBC", "tW"}, "tW+gBC"),
                  ({"gBC", "Z", "tW"}, "Z+tW+gBC"), ({"gBC", "W"}, "W+gBC"), ({"gBC", "B"}, "B+gBC"),
                  ({"gW"}, "gW"), ({"gW", "B"}, "B+gW"), ({"gB"}, "gB"))


def _last_named(parts: frozenset[str], names: tuple) -> str:
    found = ""
    for needed, name in names:
        if needed <= parts:
            found = name
    return found


def _canonical(parts: frozenset[str]) -> str:
    if len(parts) == 1 and next(iter(parts)) in TE_THEORIES:
        return next(iter(parts))
    for name in ("BRT", "W", "B", "gW", "gB", "SW", "default"):
        if _theory_parts(name) == parts:
            return name
    implied = {q for p in parts for q in THEORY_IMPLIES.get(p, ())} | ({"W1"} if len(parts) > 1 else set())
    names = [p for p in THEORY_PARTS if p in parts and p not in implied]
    if "Fin" in names:
        names[names.index("Fin")] = "SFin"
    return "+".join(names)


Theory.BRT, Theory.W, Theory.B, Theory.SW, Theory.GW, Theory.GB, Theory.DEFAULT = (
    Theory(name) for name in ("BRT", "W", "B", "SW", "gW", "gB", "default"))
Theory.TE1, Theory.TE2, Theory.TE3, Theory.BXB, Theory.BXBB = (Theory(name) for name in TE_THEORIES)
Theory.NAMED = (Theory.BRT, Theory.W, Theory.B, Theory.SW, Theory.GW, Theory.GB, Theory.DEFAULT,
                Theory.TE1, Theory.TE2, Theory.TE3, Theory.BXB, Theory.BXBB)


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
    MEMORY = "memory"                #: a batch worker (or a solve) passed its memory limit
    CRASHED = "crashed"              #: a batch worker died
    INVALID = "invalid"              #: the input is no puzzle, or has no or several solutions

    @classmethod
    def fails_run(cls, status: str) -> bool:
        """A row whose status is ``status`` makes a batch run's exit status 1 (README "Exit
        statuses"): its input is no puzzle, or its worker died.  Any text: a resumed file's cells
        are read as they are."""
        return status in (cls.INVALID, cls.CRASHED)

    @property
    def rank(self) -> int:
        """0 for the best status, larger for worse ones."""
        return list(Status).index(self)
