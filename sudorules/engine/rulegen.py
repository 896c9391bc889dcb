"""Build the CLIPS program of a theory from the registry of rule families
(:mod:`sudorules.resolution.families`): saliences, base program, per-level rules.

Nothing here knows a family by name: each family's entry says its salience groups at each level, its
base parts and the templates it fills per level (SPEC §7.5).  Saliences are computed by walking the
simplest-first order of SPEC §5.3 from the top and decrementing a counter, then injected as
defglobals (static files) or literals (generated rules).  The rule files live in the top-level
``rules/`` folder of the source tree and are installed as the package data of ``sudorules.rules``;
they are read through :mod:`importlib.resources`, so the same code works from a checkout, an
editable install and a wheel.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from ..resolution import families

def _families(theory: str) -> tuple[families.Family, ...]:
    return tuple(sorted(families.theory_spec(theory).families, key=lambda f: f.rank))


def salience_order(theory: str, max_length: int) -> list[str]:
    """The rule groups of ``theory`` from the highest priority to the lowest (SPEC §5.3): level by
    level up to the theory's top level (its longest chain within ``max_length``), and inside a level
    the theory's families in the order of their rank."""
    top = families.theory_spec(theory).top(max_length)
    return [group for n in range(0, top + 1) for family in _families(theory) for group in family.groups(n, top)]


def saliences(theory: str, max_length: int) -> dict[str, int]:
    """Salience of every rule group: 10000 for the first, then one less for each next group."""
    return {name: 10000 - i for i, name in enumerate(salience_order(theory, max_length))}


@lru_cache(maxsize=None)
def _read(name: str) -> str:
    """The text of one rule file of the ``sudorules.rules`` package."""
    return resources.files("sudorules.rules").joinpath(name).read_text(encoding="utf-8")


def _check(theory: str, max_length: int) -> int:
    """The theory's top level with chains of at most ``max_length`` (ValueError for an unknown theory
    or a max_length below 1)."""
    spec = families.theory_spec(theory)
    if max_length < 1 and spec.top(36):
        raise ValueError("max_length must be at least 1")
    return spec.top(max_length)


def base_program(theory: str, max_length: int) -> str:
    """The CLIPS text of ``theory`` without the rules generated per level (see :func:`level_rules`):
    the saliences, then each family's base parts (rule files, each once, and generated text), by rank."""
    max_length = _check(theory, max_length)
    sal = saliences(theory, max_length)
    parts = ["(defglobal " + " ".join(f"?*s-{name}* = {value}" for name, value in sal.items()) + ")\n"]
    files: set[str] = set()
    for family in _families(theory):
        for part in family.base(max_length):
            if isinstance(part, families.Generated):
                parts.append(part.text(max_length))
            elif part not in files:  # a rule file several families need is loaded once
                files.add(part)
                parts.append(_read(part))
    return "\n".join(parts)


def level_rules(theory: str, n: int, max_length: int) -> str:
    """The rules first needed when level ``n`` (2 <= n <= max_length) is switched on: for each family
    of the theory, by rank, its rule files of that level, then each of its templates filled for every
    instance of that level (e.g. Subsets of size n, whip[n] and partial-whip[n], braid[n] and
    partial-braid[n-1] with one rule per anchor).

    Every one of them waits for facts or an ``(active (level n))`` that exist only from level n on,
    so loading them then, rather than with the base, changes no firing; it spares every puzzle the
    matching cost of hundreds of rules for lengths it never reaches."""
    max_length = _check(theory, max_length)
    if not 2 <= n <= max_length:
        raise ValueError(f"no level {n} rules in {theory} with max_length {max_length}")
    sal = saliences(theory, max_length)
    parts = []
    for family in _families(theory):
        parts += [_read(name) for name in family.level_files.get(n, ())]
        for template in family.templates:
            text = _read(template.file)
            parts += [text.format(**fields) for fields in template.fields(n, sal, max_length)]
    return "\n".join(parts)


def program(theory: str, max_length: int) -> str:
    """The whole CLIPS text of ``theory`` with chains up to ``max_length`` (base and every level)."""
    max_length = _check(theory, max_length)
    return "\n".join([base_program(theory, max_length)]
                     + [level_rules(theory, n, max_length) for n in range(2, max_length + 1)])
