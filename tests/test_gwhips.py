"""g-labels, g-candidates, g-links and g-whips (issue 12, SPEC §4.5): the gW theory through the
registry of rule families, its printed notation, the independent checker and the published gW
ratings of cb-001."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import sudorules
from conftest import unique_solution
from sudorules.engine import rulegen
from sudorules.engine.labels import G_LABELS, G_LINKS, LINKS, glabel_variable, is_glabel, label_variables
from sudorules.enums import Theory
from sudorules.puzzle import Candidate
from sudorules.resolution import families
from sudorules.resolution.notation import NotationError, parse_chain_cell, parse_step
from sudorules.resolution.path import most_complex_rule
from sudorules.resolution.steps import ChainCell, CspVariable, GCandidate, Step
from sudorules.resolution.verify import check_step, replay
from sudorules.resolution.state import ResolutionState

ORACLE = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001"


def _lab(n: int, r: int, c: int) -> int:
    return 100 * n + 10 * r + c


# -- g-labels and g-links -------------------------------------------------------------------------

def test_there_are_972_g_labels_encoded_apart_from_labels_and_variables():
    assert len(G_LABELS) == 972
    assert all(is_glabel(g) and g > 999 for g in G_LABELS)
    assert not any(is_glabel(x) for x in LINKS)  # labels 111..999, variable ids 111..499
    kinds = {}
    for g, labels in G_LABELS.items():
        vid = glabel_variable(g)
        kinds[vid // 100] = kinds.get(vid // 100, 0) + 1
        assert len(set(labels)) == 3 and all(vid in label_variables(lab) for lab in labels)
    assert kinds == {2: 243, 3: 243, 4: 486}  # rn: 3 triplets, cn: 3, bn: 3 rows + 3 columns
    # an rn g-label and a bn row segment with the same labels are different g-labels
    # (so the 972 g-labels have 486 distinct label sets: each segment is one line's and one block's)
    assert len({frozenset(labels) for labels in G_LABELS.values()}) == 486


def test_g_links_on_hand_checked_examples():
    rn = 10 * (200 + 30 + 7) + 2  # r3n7, columns 4-6
    assert G_LABELS[rn] == (_lab(7, 3, 4), _lab(7, 3, 5), _lab(7, 3, 6))
    expected = {_lab(7, 3, c) for c in (1, 2, 3, 7, 8, 9)} | {_lab(7, r, c) for r in (1, 2) for c in (4, 5, 6)}
    assert G_LINKS[rn] == expected
    # linked to one label only (same cell, other digit; same column) is not g-linked
    assert _lab(5, 3, 4) in LINKS[_lab(7, 3, 4)] and _lab(5, 3, 4) not in G_LINKS[rn]
    assert _lab(7, 8, 4) in LINKS[_lab(7, 3, 4)] and _lab(7, 8, 4) not in G_LINKS[rn]
    bn = 10 * (400 + 50 + 3) + 4  # b5n3, its first column segment: column 4, rows 4-6
    assert G_LABELS[bn] == (_lab(3, 4, 4), _lab(3, 5, 4), _lab(3, 6, 4))
    assert G_LINKS[bn] == ({_lab(3, r, 4) for r in (1, 2, 3, 7, 8, 9)}
                           | {_lab(3, r, c) for r in (4, 5, 6) for c in (5, 6)})
    cn = 10 * (300 + 10 + 9) + 2  # c1n9, rows 4-6
    gc = GCandidate(CspVariable("cn", 1, 9), (Candidate(9, 4, 1), Candidate(9, 5, 1), Candidate(9, 6, 1)))
    rng = random.Random(4)
    for lab in rng.sample(sorted(LINKS), 200) + sorted(G_LINKS[cn]):
        cand = Candidate(lab // 100, lab // 10 % 10, lab % 10)
        assert gc.is_linked(cand) == (lab in G_LINKS[cn])


# -- notation and the Step model ------------------------------------------------------------------

SPEC_LINE = "g-whip[2]: r3n7{c1 c456} - c4n7{r1 .} ==> r6c1\u22607"


def test_segment_notation_parses_back():
    step = parse_step(SPEC_LINE)
    assert step.rule == "g-whip" and step.level == 2 and step.text() == SPEC_LINE
    right = step.chain[0].right
    assert isinstance(right, GCandidate) and right.labels == (Candidate(7, 3, 4), Candidate(7, 3, 5), Candidate(7, 3, 6))
    for text in ("c1n9{r8 r456}", "b2n3{r1c6 r123c4}", "b2n3{r1c6 r2c456}", "b6n5{r4c8 r5c9}"):
        assert parse_chain_cell(text).text() == text
    assert isinstance(parse_chain_cell("b2n3{r1c6 r123c4}").right, GCandidate)
    for bad in ("r3n7{c1 c459}", "c1n9{r8 r345}", "b2n3{r1c6 r123c7}", "b2n3{r1c6 r4c456}"):  # no segment of the variable
        with pytest.raises(NotationError):
            parse_chain_cell(bad)


def test_a_g_whip_step_round_trips_through_json():
    step = parse_step(SPEC_LINE)
    assert Step.from_dict(step.to_dict()) == step
    assert step.to_dict()["chain"][0] == ["r3n7", "n7r3c1", "n7r3c456"]
    assert step.family == "g-whip"


# -- the registry ---------------------------------------------------------------------------------

def test_gw_is_a_theory_with_its_rating_and_the_spec_order():
    spec = families.THEORIES[Theory.GW]
    assert spec.rating == "gW" and families.RATINGS["gW"] == Theory.GW
    assert spec.families == (families.SINGLES, families.WHIPS, families.GWHIPS)
    order = rulegen.salience_order("gW", 6)
    assert "g-whip-1" not in order  # gW1 = W1
    for n in range(2, 6):
        assert (order.index(f"whip-{n}") < order.index(f"partial-whip-{n - 1}") < order.index(f"g-whip-{n}")
                < order.index(f"partial-g-whip-{n - 1}") < order.index(f"whip-{n + 1}"))
    assert families.WHIPS.rank < families.GWHIPS.rank < families.BRAIDS.rank


# -- the engine on puzzles -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def solver():
    from sudorules.engine.solver import Solver  # not through the package: lazy, it may not be loaded yet

    with Solver() as s:
        yield s


def test_generated_puzzles_under_gw_reverify_and_rate_at_most_w(solver):
    puzzles = list(sudorules.generate_puzzles("top-down", 8, seed=1212)["puzzle"])  # any puzzles do here
    for puzzle in puzzles:
        w = solver.solve(puzzle, "W")
        gw = solver.solve(puzzle, "gW")
        report = replay(gw.puzzle, gw.steps, unique_solution(puzzle))
        assert report.ok, (puzzle, report.problems[:2])
        if w.solved:
            assert gw.solved and gw.rating <= w.rating
        if gw.solved:
            assert "".join(map(str, report.state.values)) == "".join(map(str, unique_solution(puzzle)))


def _published(name: str) -> list[str]:
    return (ORACLE / name).read_text().split("\n")


needs_oracle = pytest.mark.skipif(not (ORACLE / "gW-ratings.txt").exists(), reason="no ../shared/oracle/cb-001")


def _gw_run(solver, line: int):
    puzzle = _published("puzzles.txt")[line - 1].split()[0]
    return puzzle, solver.solve(puzzle, "gW")


@needs_oracle
def test_g_whips_make_the_difference_on_published_puzzles(solver):
    """Lines 651 (W 4, gW 3) and 1160 (W 5, gW 4): the g-whip steps print, parse back to the
    same steps, re-verify, and the checker rejects them mutated."""
    gw, w = _published("gW-ratings.txt"), _published("W-ratings.txt")
    for line in (651, 1160):
        assert int(gw[line - 1]) < int(w[line - 1])
        puzzle, resolution = _gw_run(solver, line)
        assert resolution.rating == int(gw[line - 1])
        assert most_complex_rule(resolution) == f"gW[{resolution.rating}]"
        g_steps = [s for s in resolution.steps if s.rule == "g-whip"]
        assert g_steps and any(cell.is_g for s in g_steps for cell in s.chain)
        for s in g_steps:
            assert parse_step(s.text()) == s
        assert replay(resolution.puzzle, resolution.steps, unique_solution(puzzle)).ok
        # the state before the first g-whip, then the g-whip with its g-candidate moved
        state = ResolutionState(resolution.puzzle)
        for s in resolution.steps:
            if s.rule == "g-whip":
                break
            state.eliminate_all(s.eliminations)
            for a in s.assertions:
                state.assert_value(a)
        assert check_step(state, s) == []
        k = next(i for i, cell in enumerate(s.chain) if cell.is_g)
        cell = s.chain[k]
        others = [GCandidate.of(cell.variable, [Candidate(lab // 100, lab // 10 % 10, lab % 10)
                                                for lab in G_LABELS[g]])
                  for g in G_LABELS if glabel_variable(g) == _vid(cell.variable)]
        for other in others:
            if other != cell.right:
                bad = Step(s.rule, s.level, s.eliminations,
                           chain=s.chain[:k] + (ChainCell(cell.variable, cell.left, other),) + s.chain[k + 1:])
                assert check_step(state, bad), bad.text()
        # a g-candidate is no right-linking candidate of a plain whip
        assert check_step(state, Step("whip", s.level, s.eliminations, chain=s.chain))


def _vid(variable: CspVariable) -> int:
    return 100 * {"rc": 1, "rn": 2, "cn": 3, "bn": 4}[variable.kind] + 10 * variable.first + variable.second


def _stratified(per_level: int, top: int, seed: int) -> list[int]:
    gw = _published("gW-ratings.txt")
    rng = random.Random(seed)
    lines = []
    for level in range(top + 1):
        at = [k + 1 for k, g in enumerate(gw) if g.strip() == str(level)]
        lines += rng.sample(at, per_level)
    return lines


def _check_published(solver, lines: list[int]) -> None:
    gw = _published("gW-ratings.txt")
    wrong = []
    for line in lines:
        puzzle, resolution = _gw_run(solver, line)
        if resolution.rating != int(gw[line - 1]):
            wrong.append((line, resolution.rating, gw[line - 1]))
        assert replay(resolution.puzzle, resolution.steps, unique_solution(puzzle)).ok
    assert not wrong


@needs_oracle
def test_published_gw_ratings_on_a_stratified_sample(solver):
    _check_published(solver, _stratified(2, 5, seed=5) + _stratified(1, 6, seed=6)[-1:])


@needs_oracle
@pytest.mark.slow
def test_published_gw_ratings_on_a_wider_sample(solver):
    _check_published(solver, _stratified(8, 6, seed=7))


def _rated(name: str, puzzles: list[str]) -> list:
    from sudorules.batch.rating import Rater
    from sudorules.reader import PuzzleRecord

    rater = Rater((name,))
    return [rater.rate(PuzzleRecord(n + 1, p, sudorules.Puzzle.from_string(p))).ratings[name]
            for n, p in enumerate(puzzles)]


def test_rate_starts_gw_from_the_closure_of_short_g_braids_with_the_same_rating(solver):
    """`rate` takes the closure of g-braids of length <= 3 as gW's start (gW3 = gB3: confluent,
    te.CONFLUENT_WHIPS; docs/engine.md argues it): the rating of gW0-3 puzzles without the rules, and
    from that state the rules give the rating of the whole path from the puzzle, gW 4 and more too."""
    puzzles = list(sudorules.generate_puzzles("controlled-bias", 6, seed=1306)["puzzle"])
    from_rate = _rated("gW", puzzles)
    from_rules = [solver.solve(p, "gW").rating for p in puzzles]
    assert from_rate == from_rules
    assert 3 in from_rules and max(from_rules) >= 4, from_rules  # both kinds are in the sample


@needs_oracle
def test_rate_gives_the_published_gw_on_a_stratified_sample():
    lines = _stratified(3, 6, seed=8)
    puzzles = [_published("puzzles.txt")[line - 1].split()[0] for line in lines]
    gw = _published("gW-ratings.txt")
    assert _rated("gW", puzzles) == [int(gw[line - 1]) for line in lines]
