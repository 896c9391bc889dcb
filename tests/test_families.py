"""The registry of rule families (issue 12): one declarative entry per family, read by the rule
generation, the theories offered, the checker, the notation parser and the rating label."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import sudorules
from conftest import TOP_DOWN_14
from sudorules.engine import rulegen
from sudorules.enums import Theory
from sudorules.resolution import families
from sudorules.resolution.families import BRAIDS, SUBSETS, WHIPS, Family, Generated, Template
from sudorules.resolution.notation import parse_step
from sudorules.resolution.path import most_complex_rule

ROOT = Path(__file__).resolve().parent.parent


def test_every_theory_has_an_entry_and_the_commands_offer_them():
    assert set(families.THEORIES) == set(Theory) == set(Theory.NAMED)
    from sudorules.batch.rating import RATING_THEORIES
    from sudorules.cli.solve import THEORIES as SOLVE_THEORIES

    assert SOLVE_THEORIES == [str(t) for t in families.THEORIES]
    assert dict(RATING_THEORIES) == {spec.rating: spec.theory for spec in families.THEORIES.values() if spec.rating}
    for spec in families.THEORIES.values():
        assert spec.families[0] is families.SINGLES  # every theory has Singles


def test_the_salience_order_is_simplest_first():
    """SPEC §5.3 inside each level: Subsets, then whip[n] (then the partial whips it extends for the
    next level), then braid[n]; every group of level n before those of level n+1."""
    order = rulegen.salience_order("B", 6)
    for n in range(3, 7):
        assert order.index(f"whip-{n}") < order.index(f"braid-{n}") < order.index(f"whip-{n + 1}") \
            if n < 6 else order.index(f"whip-{n}") < order.index(f"braid-{n}")
    sw = rulegen.salience_order("SW", 4)
    for n in (2, 3, 4):
        assert sw.index(f"fish-subsets-{n}") < sw.index(f"whip-{n}") < (sw.index(f"naked-subsets-{n + 1}")
                                                                         if n < 4 else len(sw))
    assert rulegen.salience_order("BRT", 36)[-1] == "hidden-single"


def test_rulegen_knows_no_family_by_name():
    """The rule generation reads everything from the registry: no family name in its code."""
    source = (ROOT / "sudorules" / "engine" / "rulegen.py").read_text(encoding="utf-8")
    code = re.sub(r'"""(?:.|\n)*?"""|#.*', "", source)
    assert not re.search(r"whip|braid|subset|single", code, re.IGNORECASE), code


def test_a_new_family_goes_in_through_the_registry_alone(monkeypatch):
    """A toy family between whips and braids: its salience group, base part and template instances
    appear where the registry says, with no change to rulegen or the driver."""
    toy = Family(
        name="toy", title="a toy family", letter="T", rank=25, groups=lambda n, top: [f"toy-{n}"] if n >= 2 else [],
        verify=lambda state, step: [], parse=lambda line: None,
        base=lambda top: [Generated(lambda top: ";;; toy base part\n")],
        templates=(Template("subset-more.clp", lambda n, sal, top: [
            {"p": n, "family": "toy", "indices": "?i1", "coords": "?k1", "not_indices": "~?i1",
             "any_coord": "?k1"}] if n == 2 else []),),
    )
    spec = families.THEORIES[Theory.W]
    monkeypatch.setitem(families.THEORIES, Theory.W, dataclasses.replace(spec, families=spec.families + (toy,)))
    order = rulegen.salience_order("W", 3)
    assert order.index("partial-whip-1") < order.index("toy-2") < order.index("whip-3")
    assert ";;; toy base part" in rulegen.base_program("W", 3)
    assert "(defrule toy-subsets-2-more" in rulegen.level_rules("W", 2, 3)
    assert "toy-subsets" not in rulegen.level_rules("W", 3, 3)


@pytest.fixture(scope="module")
def paths() -> list[sudorules.Resolution]:
    puzzles = TOP_DOWN_14  # generated puzzles kept as text (see TOP_DOWN_14)
    return [sudorules.solve(p, theory) for p in puzzles[:6] for theory in ("B", "SW")]


def test_each_family_parses_back_what_it_prints_and_owns_its_steps(paths):
    seen = set()
    for resolution in paths:
        for step in resolution.steps:
            family = families.family_of(step)
            assert family is not None and step.family == family.name
            assert family.parse(step.text()) == step == parse_step(step.text())
            seen.add(family.name)
    assert {"single", "whip", "subset"} <= seen


def test_the_rating_label_comes_from_the_family_tried_last(paths):
    for resolution in paths:
        if not resolution.solved:
            continue
        label = most_complex_rule(resolution)
        hardest = [s for s in resolution.steps if s.level == resolution.rating]
        ranks = {families.family_of(s).rank: families.family_of(s) for s in hardest}
        top = ranks[max(ranks)]
        assert label == (top.label(resolution.steps, resolution.rating) if top.label
                         else f"{top.letter}[{resolution.rating}]")
    assert WHIPS.letter == "W" and BRAIDS.letter == "B" and SUBSETS.letter == "S"
