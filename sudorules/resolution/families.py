"""The rule families, one declarative entry each: the one place that says what a family is.

A :class:`Family` names the family, the theory part it implements (``S``, ``BC``, ``W``... of
:class:`~sudorules.enums.Theory`), its place in the simplest-first order of SPEC §5.3 (its ``rank``
inside a level: Subsets > finned fish > typed bivalue-chains > bivalue-chains > typed z-chains >
z-chains > typed t-whips > t-whips > typed whips > whips > g-bivalue-chains > g-whips > braids >
g-braids),
the salience groups it has at each level, the rule files it loads with the base
program and the templates it fills for each level (one rule per template file, filled once per
instance), the letter of its rating, and how its steps print, parse back and verify.  Everything
else reads from here:

* the engine's rule generation (:mod:`sudorules.engine.rulegen`): saliences, base program, level
  rules;
* the theories ``solve --theory`` and ``rate --rating`` accept (:func:`theory_spec`: any ``+``-joined
  composition of parts, :data:`THEORIES` the named ones);
* the independent checker (:func:`sudorules.resolution.verify.check_step`), the notation parser
  (:func:`sudorules.resolution.notation.parse_step`) and the label after ``MOST COMPLEX RULE TRIED``.

A step's family is found by its printed rule name (:func:`sudorules.resolution.steps.family_name`);
the families' parsers are in :mod:`.lines`, their checks in :mod:`.checks`.

Adding a family is adding an entry (and its rule files): the driver does not change.

The template fields are plain string builders (they need nothing of CLIPS at run time), so they live
with their family, at this layer, below the engine that loads the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Union

from ..enums import Theory
from . import checks, lines
from .state import ResolutionState
from .steps import Step, family_name, te_rule

#: salience of every group: name -> value
Saliences = dict[str, int]
#: the fields of one rule instance of a template at a level (``sal``: the saliences; ``max_length``)
FieldMaker = Callable[[int, Saliences, int], list[dict]]


@dataclass(frozen=True)
class Template:
    """A rule file with ``{...}`` fields holding one rule, and the fields of each of its instances at
    level n (``[]``: none at that level)."""

    file: str
    fields: FieldMaker


@dataclass(frozen=True)
class Generated:
    """CLIPS text made in Python for the base program (e.g. the deftemplates of partial whips, one
    per length): ``text(max_length)``."""

    text: Callable[[int], str]


#: a part of the base program: a rule file of ``rules/`` or generated text
BasePart = Union[str, Generated]


@dataclass(frozen=True)
class Family:
    """One rule family (see the module docstring)."""

    name: str                 #: ``single``, ``subset``, ``whip``, ``braid``: its steps' ``family_name``
    title: str                #: what it is, in a few words (help texts, documentation)
    letter: str               #: the rating letter printed after MOST COMPLEX RULE TRIED (``W[5]``)
    rank: int                 #: its place inside a level (SPEC §5.3): lower ranks are tried first
    groups: Callable[[int, int], list[str]]                #: its salience groups at level n (max_length)
    verify: Callable[[ResolutionState, Step], list[str]]   #: problems with a step in a state
    parse: Callable[[str], Optional[Step]]                 #: a printed line, if it is one of its steps
    base: Callable[[int], list[BasePart]] = lambda max_length: []  #: loaded with the base program
    level_files: dict[int, tuple[str, ...]] = field(default_factory=dict)  #: rule files loaded at level n
    templates: tuple[Template, ...] = ()                   #: filled at each level
    label: Optional[Callable[[list[Step], int], str]] = None  #: MOST COMPLEX RULE label (default letter[n])
    #: facts the driver hands over when level n starts, made in Python from the current candidates:
    #: ``neighbours`` (``nb``: each candidate's linked candidates) and ``touches`` (``tv``: the
    #: variables reachable from each candidate)
    handover: dict[int, tuple[str, ...]] = field(default_factory=dict)
    #: its partial chains grow one target at a time, in the order of the driver's schedule (braids),
    #: in this pass of each level (:class:`sudorules.engine.schedule.BraidSchedule`): the focus facts
    #: its rules wait for; None: its partial chains grow for every target at once
    focus_pass: Optional[int] = None
    #: its chains may hold g-candidates (the trial propagation that picks its targets assumes g-labels)
    g_labels: bool = False
    #: its partial chains are built only for the targets the driver focuses in pass WHIP_PASS: those
    #: whose trial propagation contradicts within the active level's number of rounds (with g-labels if
    #: a family of the theory with ``trial_focus`` has ``g_labels``), refreshed after every chain or
    #: Subset step (rules/whip-focus.clp); no chain of that length can exist on the others
    trial_focus: bool = False
    #: how many levels before the braids' lean level (``lean_braids_from``) its partial chains are kept
    #: for one target at a time (:class:`sudorules.engine.schedule.BraidSchedule`)
    lean_sooner: int = 0
    #: the theory part it implements (:data:`sudorules.enums.THEORY_PARTS`); None for Singles, in every
    #: theory
    part: Optional[str] = None
    #: the families it contains, left out of a theory that has it (whips contain whips[1])
    includes: tuple[str, ...] = ()
    #: its longest chain (or Subset) by default (SPEC §7.2, BUM §3.2): the engine's max_length caps it
    longest: int = 36
    #: in a few words, for the description of a theory (``Singles + whips``)
    short: str = ""
    #: found by the engine's compiled search (:mod:`sudorules.engine.seek`) rather than by rules
    #: of its own: how (None for the families with rules)
    search: Optional["Search"] = None


# -- Singles (and ECP, the basic resolution theory) --------------------------------------------------

SINGLES = Family(
    name="single", title="Singles (naked and hidden) with ECP", letter="", rank=0, short="Singles",
    groups=lambda n, max_length: (["top", "blocked", "blocked-end", "ecp", "cd", "naked-single", "hidden-single"]
                                  if n == 0 else []),
    verify=checks.check_single, parse=lines.parse_single,
    base=lambda max_length: ["templates.clp", "functions.clp", "ecp.clp", "singles.clp"],
    label=lambda steps, n: "HS" if any(s.rule.startswith("hidden-single") for s in steps) else "NS",
)


# -- Subsets: naked, hidden, fish (SPEC §3) ----------------------------------------------------------

SUBSET_KINDS = ("naked", "hidden", "fish")


def _subset_fields(p: int, kind: str, sal: Saliences) -> dict:
    ks = [f"?k{j}" for j in range(1, p + 1)]
    any_coord = "|".join(ks)
    variables = []
    for j in range(1, p + 1):
        order = f"&:(> ?i{j} ?i{j - 1})" if j > 1 else ""
        variables += [
            f"(sp (u ?u) (i ?i{j}{order}) (k ?x{j}&{any_coord}))",
            f"(not (sp (u ?u) (i ?i{j}) (k ?w&:(< ?w ?x{j}))))",
            f"(not (sp (u ?u) (i ?i{j}) (k {'&'.join('~' + k for k in ks)})))",
            f"(exists (sp (u ?u) (i ?i{j}) (k ~?x{j})))",
        ]
    return {
        "p": p, "family": kind,
        "salience": sal[f"{kind}-subsets-{p}"],
        "coords": " ".join(ks),
        "coords_present": "\n   ".join(f"(exists (sp (u ?u) (k {k})))" for k in ks),
        "variables": "\n   ".join(variables),
        "not_indices": "&".join(f"~?i{j}" for j in range(1, p + 1)),
        "any_coord": any_coord,
        "indices": " ".join(f"?i{j}" for j in range(1, p + 1)),
    }


def _subsets_at(n: int, sal: Saliences, max_length: int) -> list[dict]:
    return [_subset_fields(n, kind, sal) for kind in SUBSET_KINDS] if 2 <= n <= 4 else []


#: SudoRules' names of the Subsets after MOST COMPLEX RULE TRIED (S/SUBSETS/*.clp): naked, hidden and
#: super-hidden (fish) pairs, triplets, quads
_SUBSET_LABELS = {"naked": "N", "hidden": "H", "fish": "SH"}
_SIZE_LETTERS = {2: "P", 3: "T", 4: "Q"}


def _subset_label(steps: list[Step], n: int) -> str:
    """``NP``, ``HP``, ``SHP`` (x-wing), ``NT``... : the kind tried last (naked, then hidden, then
    fish, SPEC §5.3) among the Subsets of size n of the path."""
    kinds = [s.subset.family for s in steps if s.level == n and s.subset is not None and s.family == "subset"]
    kind = max(kinds, key=list(_SUBSET_LABELS).index)
    return _SUBSET_LABELS[kind] + _SIZE_LETTERS[n]


SUBSETS = Family(
    name="subset", title="Subsets: naked and hidden pairs, triplets, quads; x-wing, swordfish, jellyfish",
    letter="S", rank=10, part="S", longest=4, short="Subsets",
    groups=lambda n, max_length: [f"{kind}-subsets-{n}" for kind in SUBSET_KINDS] if 2 <= n <= 4 else [],
    verify=checks.check_subset, parse=lines.parse_subset_line,
    base=lambda max_length: ["subset-spaces.clp"],
    label=lambda steps, n: _subset_label(steps, n),
    templates=(Template("subset.clp", _subsets_at), Template("subset-more.clp", _subsets_at)),
)


# -- finned fish (SPEC §3.2) -------------------------------------------------------------------------

FINNED = Family(
    name="finned", title="finned fish: finned x-wing, swordfish, jellyfish", letter="FSH", rank=11, part="Fin",
    longest=4, short="finned fish",
    groups=lambda n, max_length: [f"finned-fish-{n}"] if 2 <= n <= 4 else [],
    verify=checks.check_finned, parse=lines.parse_finned_line,
    level_files={p: (f"finned-fish{p}.clp",) for p in (2, 3, 4)},
    label=lambda steps, n: "FSH" + _SIZE_LETTERS[n],
)


# -- chains found by the engine's compiled search: bivalue-chains, z-chains, t-whips, their typed
#    variants, typed whips, g-bivalue-chains (SPEC §4.3, §4.5) -------------------------------------------

@dataclass(frozen=True)
class Search:
    """How the engine finds the chains of a family (``sudorules.engine.seek``, the compiled
    ``State.chain`` of generator/trial.c): at level n, a rule of the family's salience (rules/seek.clp)
    asks the driver for one chain of length n in the current state; the driver searches the targets
    and applies the first chain found, all its targets at once when ``blocked``.

    Why not rules of their own: these families are special whips (SPEC §4.3), each a depth-first
    search over partial chains that the trial propagation prunes (a chain of length n on Z is a
    propagation from Z that contradicts within n rounds), at about a microsecond a node; partial
    chains kept by CLIPS for every target and family would be kept up to date through every step."""

    mode: str                 #: the search's mode: ``biv``, ``z``, ``t``, ``whip`` or ``g-biv``
    rule: str                 #: the printed rule name (``biv-chain``; typed: ``biv-chain-rc``...)
    typed: bool = False       #: all its variables of one type (rc, rn, cn or bn), printed in the rule name
    blocked: bool = True      #: every target of the chain eliminated in one step (SPEC §7.4)
    g: bool = False           #: its right-linking objects may be g-candidates


def _search_family(name: str, title: str, letter: str, rank: int, part: str, search: Search, longest: int,
                   short: str, verify: Callable[[ResolutionState, Step], list[str]]) -> Family:
    """A family found by the engine's search: one seek rule per length (rules/seek.clp)."""
    rules = tuple(f"{search.rule}-{kind}" for kind in ("rc", "rn", "cn", "bn")) if search.typed else search.rule
    return Family(
        name=name, title=title, letter=letter, rank=rank, part=part, longest=longest, short=short, search=search,
        base=lambda max_length: ["seek-state.clp"],
        groups=lambda n, top: [f"{name}-{n}"] if 2 <= n <= min(top, longest) else [],
        verify=verify, parse=lambda line: lines.parse_chain_line(line, rules),
        templates=(Template("seek.clp", lambda n, sal, top: (
            [{"family": name, "n": n, "salience": sal[f"{name}-{n}"]}] if 2 <= n <= min(top, longest) else [])),),
    )


TYPED_BIVALUE_CHAINS = _search_family(
    "typed-biv-chain", "typed bivalue-chains (all variables of one type: rc, rn, cn or bn)", "TyBC", 12, "TyBC",
    Search("biv", "biv-chain", typed=True), 20, "typed bivalue-chains", checks.check_special_chain)
BIVALUE_CHAINS = _search_family(
    "biv-chain", "bivalue-chains", "BC", 13, "BC", Search("biv", "biv-chain"), 20, "bivalue-chains",
    checks.check_special_chain)
TYPED_Z_CHAINS = _search_family(
    "typed-z-chain", "typed z-chains", "TyZ", 14, "TyZ", Search("z", "z-chain", typed=True), 20, "typed z-chains",
    checks.check_special_chain)
Z_CHAINS = _search_family(
    "z-chain", "z-chains", "Z", 15, "Z", Search("z", "z-chain"), 20, "z-chains", checks.check_special_chain)
TYPED_T_WHIPS = _search_family(
    "typed-t-whip", "typed t-whips", "TytW", 16, "TytW", Search("t", "t-whip", typed=True), 36, "typed t-whips",
    checks.check_special_chain)
T_WHIPS = _search_family(
    "t-whip", "t-whips", "tW", 17, "tW", Search("t", "t-whip"), 36, "t-whips", checks.check_special_chain)
TYPED_WHIPS = _search_family(
    "typed-whip", "typed whips", "TyW", 18, "TyW", Search("whip", "whip", typed=True, blocked=False), 36,
    "typed whips", checks.check_typed_whip)
G_BIVALUE_CHAINS = _search_family(
    "g-biv-chain", "g-bivalue-chains (bivalue-chains whose right-linking objects may be g-candidates)", "gBC", 22,
    "gBC", Search("g-biv", "g-biv-chain", blocked=False, g=True), 20, "g-bivalue-chains", checks.check_special_chain)


# -- Whips (SPEC §4.2) -------------------------------------------------------------------------------

#: the focus pass of whips and g-whips (rules/partial-whip1.clp, rules/partial-g-whip1.clp): a target's
#: partial (g-)whips are built once a (focus (z Z) (level L) (pass 0)) fact holds (Family.trial_focus;
#: the levels L below)
WHIP_PASS = 0
#: the levels of the focus facts of WHIP_PASS: a target focused for whips has all its partial whips, one
#: focused for g-whips all its partial whips and g-whips (the driver's whip search decides which:
#: Engine._whip_targets); a braid root (a target of braids or g-braids not focused for them) has those
#: of length 1 only, from which its partial (g-)braids start (rules/partial-braid1.clp)
WHIP_FOCUS, G_WHIP_FOCUS, BRAID_ROOT = 2, 3, 1

def _focus_pattern(*levels: int) -> str:
    """The pattern of a target's WHIP_PASS focus fact at one of ``levels``, on a line of its own."""
    return f"\n      (focus (z ?z) (level {'|'.join(map(str, levels))}) (pass {WHIP_PASS}))"


def _whip_fields(n: int, sal: Saliences) -> dict:
    m = n - 1
    labels = ["?z"] + [f"?{p}{i}" for i in range(1, m + 1) for p in ("l", "r")]
    return {
        "n": n, "m": m, "k": n + 1,
        "s_whip": sal[f"whip-{n}"],
        "s_partial_whip": sal.get(f"partial-whip-{n}", 0),
        "bind_m": " ".join(f"(v{i} ?v{i}) (l{i} ?l{i}) (r{i} ?r{i})" for i in range(1, m + 1)),
        "not_labels_m": "&".join("~" + x for x in labels),
        "not_llcs_m": "&".join(f"~?l{i}" for i in range(1, m + 1)),
        "any_rlc_m": "|".join(f"?r{i}" for i in range(1, m + 1)),
        "chain_m": " ".join(f"?v{i} ?l{i} ?r{i}" for i in range(1, m + 1)),
        "rlc_key_m": " ".join(f"(r{i} ?r{i})" for i in range(1, m + 1)),
        "whip_block": ("\n   (assert (blocked (rule whip-2) (pattern ?v1 ?l1 ?r1 ?v ?l)))" if n == 2 else ""),
        # partial whips of length 2 grow from those of length 1 of the targets focused for whips (or
        # g-whips) only (a braid's root has its partial chains of length 1 only: rules/partial-whip1.clp)
        "whip_focus": _focus_pattern(WHIP_FOCUS, G_WHIP_FOCUS) if n == 2 else "",
    }


def _whip_search_fields(k: int, sal: Saliences, g: bool = False) -> dict:
    name = f"{'g-' if g else ''}whip-focus-{k}"
    return {"k": k, "level": k + 1, "name": name, "s_focus": sal[name], "g": "TRUE" if g else "FALSE",
            "focus_level": G_WHIP_FOCUS if g else WHIP_FOCUS, "focus_pass": WHIP_PASS,
            "chains": "g-whips (with a g-candidate)" if g else "whips"}


def _pw_template(k: int) -> str:
    slots = " ".join(f"(slot v{i}) (slot l{i}) (slot r{i})" for i in range(1, k + 1))
    return f"(deftemplate pw{k} (slot z) {slots} (multislot inc))\n"


def _whip_base(max_length: int) -> list[BasePart]:
    parts: list[BasePart] = ["links.clp", "whip1.clp",
                             Generated(lambda top: "".join(_pw_template(k) for k in range(1, top)))]
    if max_length >= 2:
        parts += ["partial-whip1.clp", "whip2-blocked.clp", "whip-focus.clp"]
    return parts


WHIPS = Family(
    name="whip", title="whips (zt-whips, formerly nrczt-whips)", letter="W", rank=20, part="W",
    includes=("whip1",), short="whips",
    groups=lambda n, max_length: (["whip1", "whip-focus"] if n == 1 else
                                  [f"whip-focus-{n}", f"whip-{n}", f"partial-whip-{n - 1}"] if n >= 2 else []),
    verify=lambda state, step: checks.check_chain(state, step, braid=False),
    parse=lambda line: lines.parse_chain_line(line, "whip"),
    base=_whip_base,
    handover={2: ("neighbours",)},
    trial_focus=True,
    templates=(
        Template("whip.clp", lambda n, sal, top: [_whip_fields(n, sal)] if n >= 2 else []),
        # the search for chains of length n - 1 or less after a step, first needed at level n
        Template("whip-search.clp", lambda n, sal, top: [_whip_search_fields(n - 1, sal)] if n >= 3 else []),
        # no partial-whip[n] at the longest length: nothing would extend it
        Template("partial-whip.clp", lambda n, sal, top: [_whip_fields(n, sal)] if 2 <= n < top else []),
    ),
)


#: whips[1] alone (``W1``), in a theory without whips: every theory but BRT has them (SudoRules
#: loads them for Subsets and every chain rule); the whips family contains them.  whip-focus.clp turns
#: a step's (dirty) fact into the (whip-search) fact the seek rules wait for (rules/seek.clp).
WHIPS1 = Family(
    name="whip1", title="whips[1] (the intersections)", letter="W", rank=9, part="W1", longest=1,
    short="whips[1]",
    groups=lambda n, max_length: ["whip1", "whip-focus"] if n == 1 else [],
    verify=lambda state, step: checks.check_chain(state, step, braid=False),
    parse=lambda line: None,  # its lines are whip[1] lines, read by the whips' entry
    base=lambda max_length: ["whip1.clp", "whip-focus.clp"],
)


# -- g-whips (SPEC §4.5) -----------------------------------------------------------------------------
#
# gW1 = W1: no g-whip[1] rule.  A pgwK fact is a partial whip of length K with at least one g-rlc
# (a right-linking slot holding a g-label, labels.py); the pw facts of the whips are reused as they
# are: partial-g-whip[n] extends a pw[n-1] with a g-rlc, or a pgw[n-1] with a candidate or a g-rlc,
# and g-whip[n] extends the pgw[n-1] only (one whose rlcs are all candidates is a whip, found first).

def _gwhip_fields(n: int, sal: Saliences, src: str = "") -> dict:
    fields = _whip_fields(n, sal)
    m = n - 1
    fields.update({
        "src": src,
        "s_gwhip": sal.get(f"g-whip-{n}", 0),
        "s_partial_gwhip": sal.get(f"partial-g-whip-{n}", 0),
        "not_vars_m": "&".join(f"~?v{i}" for i in range(1, m + 1)),
        "not_in_g_m": "".join(f"&:(not (member$ {x} ?gls))" for x in ["?z"] + [f"?r{i}" for i in range(1, m + 1)]),
        # the new variable: unused (implied when extending a pw fact, see partial-g-whip-g.clp)
        "v_constraint": ("?v&:(not (member$ ?v ?w))" if src == "pw" else
                         "?v&" + "&".join(f"~?v{i}" for i in range(1, m + 1)) + "&:(not (member$ ?v ?w))"),
        # partial g-whips grow only for the targets focused for g-whips: from a partial whip at every
        # length (a target focused for whips only has those too), from a partial g-whip at length 2
        # (a braid root has partial g-whips of length 1)
        "whip_focus": _focus_pattern(G_WHIP_FOCUS) if src == "pw" or n == 2 else "",
    })
    return fields


def _pgw_template(k: int) -> str:
    slots = " ".join(f"(slot v{i}) (slot l{i}) (slot r{i})" for i in range(1, k + 1))
    return f"(deftemplate pgw{k} (slot z) {slots} (multislot inc))\n"


GWHIPS = Family(
    name="g-whip", title="g-whips (whips whose right-linking objects may be g-candidates)", letter="gW", rank=25,
    part="gW", short="g-whips",
    groups=lambda n, max_length: ([f"g-whip-focus-{n}", f"g-whip-{n}", f"partial-g-whip-{n - 1}"]
                                  if n >= 2 else []),
    verify=lambda state, step: checks.check_chain(state, step, braid=False, g=True),
    parse=lambda line: lines.parse_chain_line(line, "g-whip"),
    base=lambda max_length: [Generated(lambda top: "".join(_pgw_template(k) for k in range(1, top))),
                             "g-links.clp"] + (["partial-g-whip1.clp"] if max_length >= 2 else []),
    handover={2: ("g-labels",)},
    g_labels=True,
    trial_focus=True,
    templates=(
        Template("g-whip.clp", lambda n, sal, top: [_gwhip_fields(n, sal)] if n >= 2 else []),
        # the search for g-whips of length n - 1 or less after a step, first needed at level n
        Template("whip-search.clp", lambda n, sal, top: [_whip_search_fields(n - 1, sal, g=True)] if n >= 3 else []),
        # partial-g-whip[n] (n >= 2), built at level n+1; none at the longest length
        Template("partial-g-whip.clp", lambda n, sal, top: [_gwhip_fields(n, sal)] if 2 <= n < top else []),
        Template("partial-g-whip-g.clp",
                 lambda n, sal, top: [_gwhip_fields(n, sal, src) for src in ("pw", "pgw")] if 2 <= n < top else []),
    ),
)


# -- Braids (SPEC §4.4) ------------------------------------------------------------------------------

#: the passes of a level in which the driver focuses targets for braids, then for g-braids
BRAID_PASS, GBRAID_PASS = 1, 2


def _braid_fields(n: int, sal: Saliences, anchor: str) -> dict:
    m = n - 1
    s = [f"?s{i}" for i in range(1, m + 1)]
    return {
        "n": n, "m": m, "k": n + 1, "j": anchor,
        "s_braid": sal.get(f"braid-{n}", 0),
        "s_partial_braid": sal.get(f"partial-braid-{n}", 0),
        "bind_s": " ".join(f"(s{i} ?s{i})" for i in range(1, m + 1)),
        "any_s": "|".join(s),
        "list_s": " ".join(s),
        "not_s": "&".join("~" + x for x in s),
        "assert_s": " ".join(f"(s{i} (nth$ {i} ?s))" for i in range(1, n + 1)),
        "focus_pass": BRAID_PASS,
    }


def _anchors(n: int) -> list[str]:
    """The anchors of the new left-linking candidate of a braid of length n: z or one rlc."""
    return ["z"] + [f"s{i}" for i in range(1, n)]


def _pb_template(k: int) -> str:
    slots = " ".join(f"(slot s{i})" for i in range(1, k + 1))
    return f"(deftemplate pb{k} (slot z) {slots} (multislot inc) (multislot lens))\n"


BRAIDS = Family(
    name="braid", title="braids", letter="B", rank=30, part="B", short="braids",
    groups=lambda n, max_length: ([f"braid-{n}"] + (["partial-braid-1"] if n == 3 else []) + [f"partial-braid-{n - 1}"]
                                  if n >= 3 else []),
    verify=lambda state, step: checks.check_chain(state, step, braid=True),
    parse=lambda line: lines.parse_chain_line(line, "braid"),
    base=lambda max_length: [Generated(lambda top: "".join(_pb_template(k) for k in range(1, top))),
                             "braid-touch.clp"],
    level_files={3: ("partial-braid1.clp",)},  # partial-braid[1], built when braids start (B2 = W2)
    handover={3: ("touches",)},
    focus_pass=BRAID_PASS,
    templates=(
        Template("braid.clp", lambda n, sal, top: [_braid_fields(n, sal, j) for j in _anchors(n)] if n >= 3 else []),
        # partial-braid[n-1], built at level n for braid[n]
        Template("partial-braid.clp",
                 lambda n, sal, top: [_braid_fields(n - 1, sal, j) for j in _anchors(n - 1)] if n >= 3 else []),
    ),
)


# -- g-braids (SPEC §4.5) ----------------------------------------------------------------------------
#
# The braid analogue of g-whips, as g-whips are of whips: a pgbK fact is a partial braid (a set of rlcs,
# braid.clp) with at least one g-rlc; the pb facts of the braids are reused as they are.  g-braid[n]
# (n >= 3: gB2 = gW2, SPEC §5.1) extends pgb[n-1] facts only; partial-g-braid[n] extends a pb[n-1] or
# a pgb[n-1] with a g-rlc, or a pgb[n-1] with a candidate, one rule per anchor of the new left-linking
# candidate, grown target by target with the braids (the driver's focus facts).

def _gbraid_fields(n: int, sal: Saliences, anchor: str, src: str = "pgb") -> dict:
    fields = _braid_fields(n, sal, anchor)
    fields.update({
        "src": src,
        "focus_pass": GBRAID_PASS,
        "s_gbraid": sal.get(f"g-braid-{n}", 0),
        "s_partial_gbraid": sal.get(f"partial-g-braid-{n}", 0),
        "bind_gv": " (gv $?gv)" if src == "pgb" else "",
        "test_gv": "&:(not (member$ ?v ?gv))" if src == "pgb" else "",
        "not_in_g_s": "".join(f"&:(not (member$ {x} ?gls))"
                              for x in ["?z"] + [f"?s{i}" for i in range(1, n)]),
    })
    return fields


def _pgb_template(k: int) -> str:
    slots = " ".join(f"(slot s{i})" for i in range(1, k + 1))
    return f"(deftemplate pgb{k} (slot z) {slots} (multislot inc) (multislot lens) (multislot gv))\n"


GBRAIDS = Family(
    name="g-braid", title="g-braids (braids whose right-linking objects may be g-candidates)", letter="gB",
    rank=35, part="gB", short="g-braids",
    groups=lambda n, max_length: ([f"g-braid-{n}"] + (["partial-g-braid-1"] if n == 3 else [])
                                  + [f"partial-g-braid-{n - 1}"] if n >= 3 else []),
    verify=lambda state, step: checks.check_chain(state, step, braid=True, g=True),
    parse=lambda line: lines.parse_chain_line(line, "g-braid"),
    base=lambda max_length: [Generated(lambda top: "".join(_pgb_template(k) for k in range(1, top))),
                             "g-braid-vars.clp"],
    level_files={3: ("partial-g-braid1.clp",)},  # partial-g-braid[1] = partial-g-whip[1], from level 3
    handover={3: ("g-touches",)},
    focus_pass=GBRAID_PASS,
    g_labels=True,
    # about four times as many partial g-braids as partial braids at lengths 3-4 (line 5387 after
    # level 4: 12,756 pgb3, 4,584 pb3); kept for every target at once, gB6 puzzles reached 3.8 GB
    lean_sooner=2,
    templates=(
        Template("g-braid.clp",
                 lambda n, sal, top: [_gbraid_fields(n, sal, j) for j in _anchors(n)] if n >= 3 else []),
        # partial-g-braid[n-1], built at level n for g-braid[n]: a candidate after a pgb, a g-rlc after
        # a pb or a pgb
        Template("partial-g-braid.clp",
                 lambda n, sal, top: ([_gbraid_fields(n - 1, sal, j) for j in _anchors(n - 1)]
                                      if n >= 3 else [])),
        Template("partial-g-braid-g.clp",
                 lambda n, sal, top: ([_gbraid_fields(n - 1, sal, j, src) for src in ("pb", "pgb")
                                       for j in _anchors(n - 1)] if n >= 3 else [])),
    ),
)


# -- T&E steps (SPEC §10) -----------------------------------------------------------------------------
#
# No rules: the compiled T&E engine (sudorules/engine/te.py, generator/te.c) makes these steps.  A T&E
# step eliminates its hypothesis, carrying the context that justifies it (a path of its own ending in
# a contradiction); its rule name says its theory: T&E(k) is T&E(BRT, k), T&E(Bp,k) is T&E(B_p, k).

TE = Family(
    name="t&e", title="T&E: a hypothesis whose context ends in a contradiction", letter="T&E", rank=90,
    groups=lambda n, max_length: [],
    verify=lambda state, step: checks.check_te(state, step, check_step), parse=lines.parse_te_line,
    label=lambda steps, n: max((s for s in steps if s.context is not None and s.level == n),
                               key=lambda s: te_rule(s.rule), default=steps[-1]).rule,
)


#: every family, in rank order
FAMILIES: tuple[Family, ...] = tuple(sorted(
    (SINGLES, SUBSETS, FINNED, TYPED_BIVALUE_CHAINS, BIVALUE_CHAINS, TYPED_Z_CHAINS, Z_CHAINS, TYPED_T_WHIPS, T_WHIPS,
     TYPED_WHIPS, WHIPS1, WHIPS, G_BIVALUE_CHAINS, GWHIPS, BRAIDS, GBRAIDS, TE), key=lambda f: f.rank))
_BY_NAME = {family.name: family for family in FAMILIES}


@dataclass(frozen=True)
class TheorySpec:
    """A resolution theory: its families and what it is for."""

    theory: Theory
    families: tuple[Family, ...]
    description: str
    rating: Optional[str] = None  #: the rating it gives (a ``rate --rating`` column), if any
    #: what runs it: ``rules`` (the CLIPS engine, sudorules/engine/driver.py) or ``te`` (the compiled
    #: T&E engine, sudorules/engine/te.py)
    engine: str = "rules"
    #: the name of the value printed at the end of a solved path (``W = 5``); the theory's by default
    rating_name: Optional[str] = None

    def top(self, max_length: int) -> int:
        """Its highest level with chains of at most ``max_length``: the longest chain or Subset of
        its families (4 for Subsets alone, 20 for bivalue-chains...), 0 for BRT."""
        lengths = [f.longest for f in self.families if f is not SINGLES]
        return min(max_length, max(lengths)) if lengths else 0


def _families_of(theory: Theory) -> tuple[Family, ...]:
    """The families of a theory's parts, Singles first, in rank order; none that another one contains."""
    chosen = [f for f in FAMILIES if f is SINGLES or f.part in theory.parts]
    contained = {name for f in chosen for name in f.includes}
    return tuple(f for f in chosen if f.name not in contained)


def _spec(theory: Theory, rating: Optional[str] = None) -> TheorySpec:
    chosen = _families_of(theory)
    description = ("Singles only (the basic resolution theory)" if len(chosen) == 1
                   else " + ".join(f.short for f in chosen))
    return TheorySpec(theory, chosen, description, rating)


#: the named theories (``solve --theory`` lists them; any composition of parts is accepted too)
THEORIES: dict[Theory, TheorySpec] = {spec.theory: spec for spec in (
    _spec(Theory.W, rating="W"), _spec(Theory.B, rating="B"), _spec(Theory.GW, rating="gW"),
    _spec(Theory.GB, rating="gB"), _spec(Theory.SW), _spec(Theory.BRT), _spec(Theory.DEFAULT),
    *(TheorySpec(theory, (SINGLES, TE), "T&E(BRT, 1)" if n == 1 else f"T&E(BRT, 1) ... T&E(BRT, {n}), level by level",
                 engine="te",
                 rating_name="T&E-depth")
      for n, theory in enumerate((Theory.TE1, Theory.TE2, Theory.TE3), start=1)),
    TheorySpec(Theory.BXB, (SINGLES, WHIPS, BRAIDS, TE), "T&E(1), then T&E(B_p, 1) for p = 1, 2, ...", engine="te"),
    TheorySpec(Theory.BXBB, (SINGLES, WHIPS, BRAIDS, TE), "T&E(1), T&E(2), then T&E(B_p, 2) for p = 1, 2, ...",
               engine="te"),
)}

#: the named ratings ``rate`` offers, and the theory of each (``rate --rating`` takes any theory name:
#: :func:`rating_theory`)
RATINGS: dict[str, Theory] = {spec.rating: spec.theory for spec in THEORIES.values() if spec.rating}

#: the entries of the other theories asked for, made once
_COMPOSED: dict[Theory, TheorySpec] = {}


def theory_spec(theory: Union[Theory, str]) -> TheorySpec:
    """The entry of a theory: a named one or any ``+``-joined composition of parts (ValueError naming
    the parts for an unknown name)."""
    theory = Theory.of(theory)
    if theory in THEORIES:
        return THEORIES[theory]
    if theory not in _COMPOSED:
        _COMPOSED[theory] = _spec(theory)
    return _COMPOSED[theory]


def rating_theory(name: str) -> Theory:
    """The theory of a ``rate --rating`` column: a named rating (W, B, gW, gB) or any theory name
    (``BC``, ``Z``, ``tW``, ``S+W``, ``default``...); ValueError for an unknown one."""
    return RATINGS.get(name) or Theory.of(name)


def family_of(step: Step) -> Optional[Family]:
    """The family a step belongs to (by its printed rule name: :func:`~.steps.family_name`), None for
    an unknown rule."""
    return _BY_NAME.get(family_name(step.rule))


def check_step(state: ResolutionState, step: Step) -> list[str]:
    """Problems with one step in the state where it is applied (empty when the step is valid): the
    check of the step's family (a T&E step's context is checked step by step with this too)."""
    family = family_of(step)
    if family is None:
        return [f"no checker for rule {step.rule!r}"]
    return family.verify(state, step)


def family_named(name: str) -> Family:
    """The family called ``name`` (KeyError if none)."""
    return _BY_NAME[name]


def theories_help() -> str:
    """``W: Singles + whips; B: ...`` for option help texts."""
    return "; ".join(f"{spec.theory}: {spec.description}" for spec in THEORIES.values())
