"""g-braids and the gB theory (issue 12, SPEC §4.5): the registry entry and its place in the SPEC
§5.3 order, the printed notation, the engine on positions where g-braids are needed, the
independent checker and the published gB ratings of cb-001."""

from __future__ import annotations

import random

import pytest

import sudorules
from conftest import CB001, unique_solution
from sudorules.engine import rulegen
from sudorules.enums import Theory
from sudorules.puzzle import Puzzle
from sudorules.resolution import families
from sudorules.resolution.notation import parse_step
from sudorules.resolution.path import most_complex_rule
from sudorules.resolution.state import ResolutionState
from sudorules.resolution.steps import ChainCell, GCandidate, Step
from sudorules.resolution.verify import check_step, replay

ORACLE = CB001

#: Two positions as 729-character pencilmark lines: the states of our gB paths of cb-001 lines
#: 10222 and 4882 (published gB 4, B 5, gW 5) just before their g-braid[4] (a small sample of the
#: published data, so the engine tests run without ../shared).  From them, g-braids of length 4
#: finish the puzzle; braids and g-whips of length 4 do not.
POSITIONS = {
    10222: "12......9.2......9..3......12.4...8.....5.........6.........7.....4...8........89...4......2..5.7.912..5.7.912.....8..23....89..3.....912..5......3....8......6........6..........8.1...5...9......7...234....9..34....912..5.....234.......3.5...9.23...7...23..6....2.....8.........9..34.67....34..7....34...8.....5....1..........3.....9....56..9....5..89...4.6...1.........2.........34...8...3...78...3...78.1.3...7.....4.....1.....7......5......3...7.........8.........9.....6....2...........5.....23...7.......6....2.....8..2....78.1.........23....8.........9...4............8.1...........4.......3.......2....7.9....5.7.9.....6....2....7......5.7...23...7.9.23...7.9.2....7.9.2.4.6.8..2.4.678....45.7...23.5..8.1..........3.5.78.",
    4882: "1.........2.........3.........4.........5..8......6.......5.7.9....5.789....5...9...4.........5..8......6.......5.78.....5..89......7.91..........3.......2...........5..8.......7..........9.2.......1.3......1.3..........56.......56.8....4......2.........3.............8.....567.......6..9....5.7.9...4567.....4567.91............5...9....56...1..........3...7.....4......2.........3...7.9.....67.9.......8......6..9...4...........7..1.3.56.8.1.3.5..89..3.5..89..3.56..9.2...........5...9..3...........6.8.....5............91....6...1..4...8..2.......1..4...........7.......6.8.1.........2...........56.8.......7.....45..8....45...9...45...9..3............7..........9...4.....1.3.5.....2.......1.3.5...........8.1...5.........6...",
}


@pytest.fixture(scope="module")
def solver():
    with sudorules.engine.Solver(max_length=4) as s:
        yield s


# -- the registry ---------------------------------------------------------------------------------

def test_gb_is_a_theory_with_its_rating_and_the_spec_order():
    spec = families.THEORIES[Theory.GB]
    assert spec.rating == "gB" and families.RATINGS["gB"] == Theory.GB
    assert spec.families == (families.SINGLES, families.WHIPS, families.GWHIPS, families.BRAIDS, families.GBRAIDS)
    order = rulegen.salience_order("gB", 7)
    assert not any(g.startswith("g-braid-") and int(g.rsplit("-", 1)[1]) < 3 for g in order)  # gB2 = gW2
    for n in range(3, 7):  # SPEC §5.3: whip[n] > g-whip[n] > braid[n] > g-braid[n] > level n+1
        assert (order.index(f"whip-{n}") < order.index(f"g-whip-{n}") < order.index(f"braid-{n}")
                < order.index(f"g-braid-{n}") < order.index(f"partial-g-braid-{n - 1}") < order.index(f"whip-{n + 1}"))
    assert families.BRAIDS.rank < families.GBRAIDS.rank


# -- the engine where g-braids are needed -----------------------------------------------------------

@pytest.mark.parametrize("line", sorted(POSITIONS))
def test_g_braids_finish_what_braids_and_g_whips_of_the_same_length_cannot(solver, line):
    puzzle = Puzzle.from_string(POSITIONS[line])
    solution = unique_solution(puzzle)
    for theory in ("B", "gW"):
        assert solver.solve(puzzle, theory).status == "not-solved", theory
    resolution = solver.solve(puzzle, "gB")
    assert resolution.solved and resolution.rating == 4
    assert most_complex_rule(resolution) == "gB[4]"
    report = replay(resolution.puzzle, resolution.steps, solution)
    assert report.ok, report.problems[:2]
    assert "".join(map(str, report.state.values)) == "".join(map(str, solution))
    g_braids = [s for s in resolution.steps if s.rule == "g-braid"]
    assert g_braids and all(any(cell.is_g for cell in s.chain) for s in g_braids)
    # a g-braid, not a g-whip: some left-linking candidate is not linked to the previous rlc
    assert any(not _linked(cell.left, prev.right) for s in g_braids for prev, cell in zip(s.chain, s.chain[1:]))
    for s in g_braids:
        assert parse_step(s.text()) == s
        assert Step.from_dict(s.to_dict()) == s
        assert s.family == "g-braid"
    # the checker: the first g-braid holds in its state, and fails with each g-candidate replaced by
    # another g-label of its variable, and as a plain braid or a g-whip
    state = ResolutionState(resolution.puzzle)
    for step in resolution.steps:
        if step.rule == "g-braid":
            break
        state.eliminate_all(step.eliminations)
        for a in step.assertions:
            state.assert_value(a)
    assert check_step(state, step) == []
    assert check_step(state, Step("braid", step.level, step.eliminations, chain=step.chain))
    assert check_step(state, Step("g-whip", step.level, step.eliminations, chain=step.chain))
    for k, cell in enumerate(step.chain):
        if not cell.is_g:
            continue
        for other in _other_g_labels(cell):
            bad = Step(step.rule, step.level, step.eliminations,
                       chain=step.chain[:k] + (ChainCell(cell.variable, cell.left, other),) + step.chain[k + 1:])
            assert check_step(state, bad), bad.text()


def _linked(left, right) -> bool:
    if isinstance(right, GCandidate):
        return all(left.is_linked(label) for label in right.labels)
    return left.is_linked(right)


def _other_g_labels(cell: ChainCell) -> list[GCandidate]:
    from sudorules.engine.labels import G_LABELS, candidate_of_label, glabel_variable, variable_id

    vid = variable_id(cell.variable)
    return [GCandidate.of(cell.variable, [candidate_of_label(lab) for lab in labels])
            for g, labels in G_LABELS.items()
            if glabel_variable(g) == vid and set(map(candidate_of_label, labels)) != set(cell.right.labels)]


def test_generated_puzzles_under_gb_reverify_and_rate_at_most_b_and_gw(solver):
    puzzles = list(sudorules.generate_puzzles("top-down", 6, seed=1213)["puzzle"])  # any puzzles do here
    for text in puzzles:
        puzzle = Puzzle.from_string(text)
        gb = solver.solve(puzzle, "gB")
        report = replay(gb.puzzle, gb.steps, unique_solution(puzzle))
        assert report.ok, (text, report.problems[:2])
        for theory in ("B", "gW"):  # SPEC §5.1: gB <= min(gW, B)
            other = solver.solve(puzzle, theory)
            if other.solved:
                assert gb.solved and gb.rating <= other.rating, (text, theory)


# -- the published gB ratings ---------------------------------------------------------------------

def _published(name: str) -> list[str]:
    return (ORACLE / name).read_text().split("\n")


needs_oracle = pytest.mark.skipif(not (ORACLE / "gB-ratings.txt").exists(), reason="no ../shared/oracle/cb-001")


def _check_published(lines: list[int]) -> None:
    gb = _published("gB-ratings.txt")
    puzzles = _published("puzzles.txt")
    wrong = []
    with sudorules.engine.Solver() as full:
        for line in lines:
            puzzle = Puzzle.from_string(puzzles[line - 1].split()[0])
            resolution = full.solve(puzzle, "gB")
            if resolution.rating != int(gb[line - 1]):
                wrong.append((line, resolution.rating, gb[line - 1]))
            assert replay(resolution.puzzle, resolution.steps, unique_solution(puzzle)).ok
    assert not wrong


def _stratified(per_level: int, levels: range, seed: int) -> list[int]:
    gb = _published("gB-ratings.txt")
    rng = random.Random(seed)
    return [line for level in levels
            for line in rng.sample([k + 1 for k, g in enumerate(gb) if g.strip() == str(level)], per_level)]


@needs_oracle
def test_published_gb_ratings_on_a_stratified_sample():
    _check_published(_stratified(2, range(0, 4), seed=8) + _stratified(1, range(4, 5), seed=8))


@needs_oracle
def test_published_gb_below_both_b_and_gw():
    """Lines where the published gB is below both B and gW (g-braids make the difference), the
    quick ones (gB 4)."""
    _check_published([4882, 10222])


@needs_oracle
@pytest.mark.slow
def test_published_gb_ratings_on_a_wider_sample():
    _check_published(_stratified(4, range(0, 6), seed=9) + [7790, 20307, 20514])


@pytest.mark.parametrize("line", sorted(POSITIONS))
def test_every_chain_of_a_path_is_within_its_trial_depth(solver, line):
    """The schedule skips the targets whose trial propagation does not contradict within n rounds
    at level n (engine/trial.py): check on every whip, braid, g-whip and g-braid of a gB path that
    its target's depth (with g-labels for g-chains) is at most its length."""
    from sudorules.engine.labels import LINKS
    from sudorules.engine.trial import TrialState

    resolution = solver.solve(Puzzle.from_string(POSITIONS[line]), "gB")
    state = ResolutionState(resolution.puzzle)
    checked = 0
    for step in resolution.steps:
        if step.rule in ("whip", "braid", "g-whip", "g-braid") and step.level >= 2:
            labels = [100 * c.digit + 10 * c.row + c.column for c in state.all_candidates()]
            trial = TrialState(labels, LINKS)
            for z in step.eliminations:
                depth = trial.contradiction_depth(100 * z.digit + 10 * z.row + z.column, g=step.rule.startswith("g-"))
                assert depth is not None and depth <= step.level, (step.text(), depth)
                checked += 1
        state.eliminate_all(step.eliminations)
        for a in step.assertions:
            state.assert_value(a)
    assert checked >= 3
