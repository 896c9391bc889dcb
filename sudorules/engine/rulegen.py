"""Build the CLIPS program of a theory: saliences, static rule files and per-length generated rules.

The rule files live in the top-level ``rules/`` folder of the source tree and are installed as the
package data of ``sudorules.rules``; they are read through :mod:`importlib.resources`, so the same code
works from a checkout, an editable install and a wheel (nothing reads the source tree at run time).  Files with ``{...}`` fields (whips.clp, braids.clp) are
templates filled here for every length (SPEC §7.5).  Saliences are computed by walking the
simplest-first order of SPEC §5.3 from the top and decrementing a counter, then injected as
defglobals (static files) or literals (generated rules).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

THEORIES = ("BRT", "W", "B", "SW")

#: static rule files loaded by every theory, in load order
BASE_FILES = ("templates.clp", "ecp.clp", "singles.clp")


def salience_order(theory: str, max_length: int) -> list[str]:
    """The rule groups of ``theory`` from the highest priority to the lowest (SPEC §5.3)."""
    order = ["top", "blocked", "blocked-end", "ecp", "cd", "naked-single", "hidden-single"]
    if theory == "BRT":
        return order
    order.append("whip1")
    for n in range(2, max_length + 1):
        if theory == "SW" and n <= 4:
            order += [f"naked-subsets-{n}", f"hidden-subsets-{n}", f"fish-subsets-{n}"]
        order += [f"whip-{n}", f"partial-whip-{n - 1}"]
        if theory == "B" and n >= 3:
            order.append(f"braid-{n}")
            if n == 3:
                order.append("partial-braid-1")
            order.append(f"partial-braid-{n - 1}")
    return order


def saliences(theory: str, max_length: int) -> dict[str, int]:
    """Salience of every rule group: 10000 for the first, then one less for each next group."""
    return {name: 10000 - i for i, name in enumerate(salience_order(theory, max_length))}


@lru_cache(maxsize=None)
def _read(name: str) -> str:
    """The text of one rule file of the ``sudorules.rules`` package."""
    return resources.files("sudorules.rules").joinpath(name).read_text(encoding="utf-8")


def functions() -> str:
    """The CLIPS functions the Python driver calls (rules/functions.clp), for every theory."""
    return _read("functions.clp")


def _template(name: str) -> str:
    """A template rule file without its leading comment block (the comments contain no fields)."""
    return _read(name)


def _pw_template(k: int) -> str:
    slots = " ".join(f"(slot v{i}) (slot l{i}) (slot r{i})" for i in range(1, k + 1))
    return f"(deftemplate pw{k} (slot z) {slots} (multislot inc))\n"


def _pb_template(k: int) -> str:
    slots = " ".join(f"(slot s{i})" for i in range(1, k + 1))
    return f"(deftemplate pb{k} (slot z) {slots} (multislot inc) (multislot lens))\n"


def whip_rules(n: int, sal: dict[str, int], max_length: int) -> str:
    """whip[n] and partial-whip[n] (the latter only if a whip[n+1] can be tried)."""
    m = n - 1
    labels = ["?z"] + [f"?{p}{i}" for i in range(1, m + 1) for p in ("l", "r")]
    fields = {
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
    }
    text = _template("whips.clp").format(**fields)
    if n == max_length:  # no partial-whip[n]: nothing would extend it
        text = text[: text.index(";;; partial-whip[")]
    return text


def _braid_fields(n: int, sal: dict[str, int]) -> dict:
    m = n - 1
    s = [f"?s{i}" for i in range(1, m + 1)]
    return {
        "n": n, "m": m, "k": n + 1,
        "s_braid": sal.get(f"braid-{n}", 0),
        "s_partial_braid": sal.get(f"partial-braid-{n}", 0),
        "bind_s": " ".join(f"(s{i} ?s{i})" for i in range(1, m + 1)),
        "any_s": "|".join(s),
        "list_s": " ".join(s),
        "not_s": "&".join("~" + x for x in s),
        "assert_s": " ".join(f"(s{i} (nth$ {i} ?s))" for i in range(1, n + 1)),
    }


def _braid_sections() -> tuple[str, str, str]:
    """The braids.clp template cut into its header, braid[n] rule and partial-braid[n] rule."""
    template = _template("braids.clp")
    head, rest = template.split("(defrule braid-", 1)
    braid_part, partial_part = ("(defrule braid-" + rest).split(";;; partial-braid[", 1)
    return head, braid_part, ";;; partial-braid[" + partial_part


def braid_rules(n: int, sal: dict[str, int]) -> str:
    """braid[n] (n >= 3), one rule per anchor of the last left-linking candidate (z or an rlc)."""
    head, braid_part, _ = _braid_sections()
    fields = _braid_fields(n, sal)
    anchors = ["z"] + [f"s{i}" for i in range(1, n)]
    return "\n".join([head.format(**fields, j="z")] + [braid_part.format(**fields, j=j) for j in anchors])


def partial_braid_rules(n: int, sal: dict[str, int]) -> str:
    """partial-braid[n] (n >= 2, built at level n+1), one rule per anchor of its new left-linking candidate."""
    _, _, partial_part = _braid_sections()
    fields = _braid_fields(n, sal)
    anchors = ["z"] + [f"s{i}" for i in range(1, n)]
    return "\n".join(partial_part.format(**fields, j=j) for j in anchors)


def subset_rules(p: int, family: str, sal: dict[str, int]) -> str:
    """The Subset rule of size ``p`` for one family (naked, hidden, fish) and its blocked completion."""
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
    fields = {
        "p": p, "family": family,
        "salience": sal[f"{family}-subsets-{p}"],
        "coords": " ".join(ks),
        "coords_present": "\n   ".join(f"(exists (sp (u ?u) (k {k})))" for k in ks),
        "variables": "\n   ".join(variables),
        "not_indices": "&".join(f"~?i{j}" for j in range(1, p + 1)),
        "any_coord": any_coord,
        "indices": " ".join(f"?i{j}" for j in range(1, p + 1)),
    }
    return _template("subsets.clp").format(**fields)


def _check(theory: str, max_length: int) -> int:
    if theory not in THEORIES:
        raise ValueError(f"unknown theory {theory!r}: expected one of {', '.join(THEORIES)}")
    if theory != "BRT" and max_length < 1:
        raise ValueError("max_length must be at least 1")
    return 0 if theory == "BRT" else max_length


def base_program(theory: str, max_length: int) -> str:
    """The CLIPS text of ``theory`` without the rules generated per length (see :func:`level_rules`):
    saliences, templates, ECP, Singles, whip[1], links, partial-whip[1] and whip[2]'s blocked part."""
    max_length = _check(theory, max_length)
    sal = saliences(theory, max_length)
    parts = ["(defglobal " + " ".join(f"?*s-{name}* = {value}" for name, value in sal.items()) + ")\n"]
    parts += [_read(name) for name in BASE_FILES]
    if theory == "BRT":
        return "\n".join(parts)
    parts.append(_read("links.clp"))
    parts.append(_read("whip1.clp"))
    parts += [_pw_template(k) for k in range(1, max_length)]
    if theory == "B":
        parts += [_pb_template(k) for k in range(1, max_length)]
        parts.append(_read("braid-touch.clp"))
    if max_length >= 2:
        parts.append(_read("partial-whip1.clp"))
        parts.append(_read("whip2-blocked.clp"))
    if theory == "SW":
        parts.append(_read("subset-spaces.clp"))
    return "\n".join(parts)


def level_rules(theory: str, n: int, max_length: int) -> str:
    """The rules first needed when level ``n`` (2 <= n <= max_length) is switched on: Subsets of size
    n (SW), whip[n] and partial-whip[n], braid[n] and partial-braid[n-1] (B).

    Every one of them waits for facts or an ``(active (level n))`` that exist only from level n on,
    so loading them then, rather than with the base, changes no firing; it spares every puzzle the
    matching cost of hundreds of rules for lengths it never reaches."""
    max_length = _check(theory, max_length)
    if not 2 <= n <= max_length:
        raise ValueError(f"no level {n} rules in {theory} with max_length {max_length}")
    sal = saliences(theory, max_length)
    parts = []
    if theory == "SW" and n <= 4:
        parts += [subset_rules(n, family, sal) for family in ("naked", "hidden", "fish")]
    parts.append(whip_rules(n, sal, max_length))
    if theory == "B" and n >= 3:
        if n == 3:
            parts.append(_read("partial-braid1.clp"))
        parts.append(braid_rules(n, sal))
        parts.append(partial_braid_rules(n - 1, sal))
    return "\n".join(parts)


def program(theory: str, max_length: int) -> str:
    """The whole CLIPS text of ``theory`` with chains up to ``max_length`` (base and every level)."""
    max_length = _check(theory, max_length)
    return "\n".join([base_program(theory, max_length)]
                     + [level_rules(theory, n, max_length) for n in range(2, max_length + 1)])
