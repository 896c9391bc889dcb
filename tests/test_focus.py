"""The trial filter (issue 13): partial whips are built only for the targets whose trial propagation
contradicts within the active level (rules/whip-focus.clp), and a lean braid stage builds a partial
braid only if the propagation from its target and rlcs still contradicts in time
(``Engine._viable``).  Both rest on one bound, checked here on real chains; the first must also keep
the order of SPEC §5.3 exactly, checked by replaying paths.  Runs without ../shared (generated
puzzles), plus the two pencilmark positions of test_gbraids.py for g-braids.
"""

from __future__ import annotations

from collections import Counter

import pytest

import sudorules
from sudorules import core
from sudorules.engine import Engine
from sudorules.engine.labels import LINKS, glabel_of, variable_id
from sudorules.engine.trial import State, TrialState
from sudorules.puzzle import Puzzle
from sudorules.resolution.state import ResolutionState
from sudorules.resolution.steps import GCandidate
from sudorules.resolution.verify import replay

from conftest import unique_solution
from test_gbraids import POSITIONS


@pytest.fixture(scope="module")
def hard_puzzles() -> list[str]:
    """Generated puzzles that need whips of length 4 or more (top-down, seed 77: 7 of its first 60)."""
    puzzles = list(sudorules.generate_puzzles("top-down", 60, seed=77)["puzzle"])
    engine = Engine("W")
    hard = [p for p in puzzles if (engine.solve(p).rating or 0) >= 4]
    assert len(hard) >= 5
    return hard


#: cb-001 puzzles (../shared/oracle, published ratings) whose B path or gB path has braids or g-braids:
#: generated puzzles seldom need them (none of the hard ones above).  Line: (puzzle, W, B, gW, gB).
BRAID_PUZZLES = {
    1160: ("1...5.7.9...7..........25.62.1...6....5.9....6.....3.1..4..8.3.83....21....3.7...", 5, 4, 4, 4),
    3885: ("...4.6..9....8.1..7.....64....86....3.7...8.4.1.......6..5..92...5.21..3..2.4...1", 5, 4, 5, 4),
    9772: ("..34.6..9..7...23.68...2.5.2..8.3.9.....648.27..9...4......8......2....594.......", 5, 4, 4, 4),
    5315: ("12.4...8......92.17...1.6...1...8...5....2..6....375...........675...498.8....35.", 5, 4, 5, 4),
    4902: ("..3...7.9...7....2.....1.6..4...3..5..8.7.4.1.9....32.682.1......5..8.....4..7..3", 6, 5, 5, 5),
    8291: (".2.4.6.........2....9.2..1....7.5..8...8.13...6....59..7...2.5......3..794.67....", 5, 4, 5, 4),
    10664: ("...4..7..4...89........351.2.4.6...5..6...8.1.7...4.2..61.7...........5....9.21.7", 6, 5, 6, 5),
}


#: cb-001 puzzles whose gB path has a g-whip[k] after a chain longer than k, so found by the search for
#: g-whips after a step (rules/whip-search.clp), not when a level starts.  Line: (puzzle, W, B, gW, gB).
G_WHIP_PUZZLES = {
    27: ("..34...8....7.9.23..9.2.4...15.7.9.........4..6....5...9.......6..8....28.25..6.1", 6, 6, 6, 6),
    735: (".....6....567..1..7..132..4....98.3.3..2.18....1.7....5.2...9..6.7....5.........2", 4, 4, 4, 4),
    1342: ("1.....78945.7.9..3..........3.9.7.5.6.....9...1..6........2...1...3....898...14..", 5, 5, 5, 5),
}


def _braid_puzzles(theory: str) -> list[Puzzle]:
    """The puzzles of BRAID_PUZZLES whose published rating in ``theory`` (B or gB) is below the one
    without braids (W or gW), and with gB the two pencilmark positions of test_gbraids.py."""
    at = {"B": (1, 2), "gB": (3, 4)}[theory]
    chosen = [Puzzle.from_string(row[0]) for row in BRAID_PUZZLES.values() if row[at[1]] < row[at[0]]]
    return chosen + ([Puzzle.from_string(POSITIONS[line]) for line in sorted(POSITIONS)] if theory == "gB" else [])


def _label(candidate) -> int:
    return 100 * candidate.digit + 10 * candidate.row + candidate.column


def _rlc_id(right) -> int:
    """The integer of a right-linking object: a label, or a g-label id."""
    if isinstance(right, GCandidate):
        return glabel_of(variable_id(right.variable), [_label(c) for c in right.labels])
    return _label(right)


def _states(puzzle: Puzzle, steps):
    """Each step with the state just before it (its candidate labels, and the state)."""
    state = ResolutionState(puzzle)
    for step in steps:
        yield step, [_label(c) for c in state.all_candidates()], state
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)


def _check_prefix_bound(puzzle: Puzzle, steps) -> int:
    """For every chain of length n on Z with rlcs R1..R(n-1) in order: the propagation from Z and
    R1..Rk contradicts within n - k rounds, for every k (Python reference and compiled State agree)."""
    checked = 0
    for step, labels, _ in _states(puzzle, steps):
        if not step.chain or step.level < 2:
            continue
        g = step.rule.startswith("g-")
        reference, compiled = TrialState(labels, LINKS), State(labels)
        target = _label(step.eliminations[0])
        rlcs = [_rlc_id(cell.right) for cell in step.chain[:-1]]
        for k in range(len(rlcs) + 1):
            assumed = [target, *rlcs[:k]]
            depth = reference.depth(assumed, g)
            assert depth is not None and depth <= step.level - k, (step.text(), k, depth)
            assert compiled.depth(assumed, g, step.level - k) == depth
            checked += 1
    return checked


@pytest.mark.parametrize("theory", ["W", "gW"])
def test_whips_keep_the_simplest_first_order_with_the_trial_filter(hard_puzzles, theory):
    """Before every chain step of length k >= 3, an engine without the trial filter and capped at
    length k - 1 finds no chain in the same state: no shorter chain was missed or put off."""
    engine = Engine(theory)
    capped = {}
    steps_checked = 0
    for text in hard_puzzles[:5]:
        resolution = engine.solve(text, solution=core.solve(text))
        assert resolution.solved
        for step, _, state in _states(resolution.puzzle, resolution.steps):
            if not step.chain or step.level < 3:
                continue
            if step.level not in capped:
                capped[step.level] = Engine(theory, max_length=step.level - 1)
                capped[step.level].trial_filter = False
            marks = [state.candidates[cell] or {state.values[cell]} for cell in range(81)]
            before = capped[step.level].solve(Puzzle.from_candidates(marks))
            shorter = [s.text() for s in before.steps if s.chain]
            assert not shorter, (text, step.text(), shorter[0])
            steps_checked += 1
    assert steps_checked >= 10


def test_g_chains_keep_the_simplest_first_order(hard_puzzles):
    """SPEC §5.3: whip[k] > g-whip[k] > braid[k] > g-braid[k], shorter first.  A target gets partial
    g-whips only once the search finds a g-whip on it when no whip of that length is left to fire
    (rules/whip-search.clp).  Before every chain step of length k >= 3 of a gB path, a gW engine
    without the trial filter capped at length k - 1 finds no chain in the same state; before a
    g-whip[k] a W engine capped at k finds none; before a braid[k] or g-braid[k] a gW engine capped
    at k finds none.  On BRAID_PUZZLES (g-whips in 3 of their gB paths), G_WHIP_PUZZLES, the two
    pencilmark positions and two generated puzzles."""
    capped: dict[tuple[str, int], Engine] = {}

    def chains_in(theory: str, length: int, state) -> list[str]:
        if (theory, length) not in capped:
            capped[theory, length] = Engine(theory, max_length=length)
            capped[theory, length].trial_filter = False
        marks = [state.candidates[cell] or {state.values[cell]} for cell in range(81)]
        return [s.text() for s in capped[theory, length].solve(Puzzle.from_candidates(marks)).steps if s.chain]

    engine, checked = Engine("gB"), Counter()
    puzzles = [row[0] for row in [*BRAID_PUZZLES.values(), *G_WHIP_PUZZLES.values()]]
    for puzzle in [Puzzle.from_string(p) for p in puzzles + [POSITIONS[n] for n in sorted(POSITIONS)] + hard_puzzles[:2]]:
        resolution = engine.solve(puzzle)
        assert resolution.solved
        longest = 0
        for step, _, state in _states(resolution.puzzle, resolution.steps):
            if step.chain:
                checked["g-whip after a longer chain"] += step.rule == "g-whip" and step.level < longest
                longest = max(longest, step.level)
            if not step.chain or step.level < 3:
                continue
            assert not chains_in("gW", step.level - 1, state), step.text()
            if step.rule == "g-whip":
                assert not chains_in("W", step.level, state), step.text()
            elif step.rule in ("braid", "g-braid"):
                assert not chains_in("gW", step.level, state), step.text()
            checked[step.rule] += 1
    assert checked["g-whip after a longer chain"] >= 3 and checked["braid"] + checked["g-braid"] >= 3, checked
    assert checked["whip"] >= 20, checked


def _assert_same_ratings(engine: Engine, reference: Engine, puzzles: list[str]) -> None:
    """``engine`` rates every puzzle as ``reference`` does, with a path that re-verifies."""
    for text in puzzles:
        solution = unique_solution(text if isinstance(text, Puzzle) else Puzzle.from_string(text))
        ours, theirs = engine.solve(text, solution=solution), reference.solve(text, solution=solution)
        assert ours.rating == theirs.rating, text
        assert replay(ours.puzzle, ours.steps, unique_solution(ours.puzzle)).ok


@pytest.mark.parametrize("theory", ["W", "gW", "B"])
def test_the_trial_filter_changes_no_rating(hard_puzzles, theory):
    everyone = Engine(theory)
    everyone.trial_filter = False
    _assert_same_ratings(Engine(theory), everyone, hard_puzzles)


def test_partial_chain_bound_on_whip_and_braid_paths(hard_puzzles):
    checked = 0
    for text in hard_puzzles:
        for theory in ("W", "B"):
            resolution = Engine(theory).solve(text)
            checked += _check_prefix_bound(resolution.puzzle, resolution.steps)
    assert checked >= 100


@pytest.mark.parametrize("line", sorted(POSITIONS))
def test_partial_chain_bound_on_g_braid_paths(line):
    puzzle = Puzzle.from_string(POSITIONS[line])
    resolution = Engine("gB").solve(puzzle)
    assert any(step.rule == "g-braid" for step in resolution.steps)
    assert _check_prefix_bound(puzzle, resolution.steps) >= 5


def test_lean_stages_prune_partial_braids_and_find_the_same_braids(hard_puzzles):
    """Lean from level 3 (every partial braid of length 2 and more tested before it is built) gives
    the ratings of the schedule that keeps every partial braid, and prunes most of them."""
    lean, kept = Engine("B", lean_braids_from=3), Engine("B", lean_braids_from=37)
    lean.braid_search = False  # every target the trial filter lets through is tried
    asked = []
    viable = lean._viable

    def counting(pass_, length, target, rlcs):
        answer = viable(pass_, length, target, rlcs)
        if target == lean._lean_target and length >= 2:
            asked.append(answer)
        return answer

    lean._viable = counting
    _assert_same_ratings(lean, kept, hard_puzzles)
    assert len(asked) > 100 and asked.count(False) > asked.count(True)


@pytest.mark.parametrize("search, theory", [("whip", "W"), ("whip", "gW"), ("whip", "B"),
                                            ("braid", "B"), ("braid", "gB")])
def test_the_compiled_searches_find_every_chain_of_a_path(hard_puzzles, search, theory):
    """The engine builds partial whips only for the targets on which the compiled whip search
    (``State.whip``) finds a whip (g-whip) of the level's length or less, and a lean braid stage tries
    only the targets on which the braid search (``State.braid``) may find a braid (with gB, a braid or
    g-braid) of the stage's length: on real paths every such chain of length k on Z is found with
    limit k, and, the path being simplest-first, none shorter on Z.  (Without the searches,
    test_the_trial_filter_changes_no_rating and test_the_braid_search_changes_no_rating: same ratings.)"""
    engine, g = Engine(theory), theory in ("gW", "gB")
    rules = ("whip", "g-whip") if search == "whip" else ("braid", "g-braid")
    puzzles = hard_puzzles + (_braid_puzzles(theory) if search == "braid" else [])
    found = 0
    for text in puzzles:
        resolution = engine.solve(text)
        for step, labels, _ in _states(resolution.puzzle, resolution.steps):
            if step.rule not in rules or step.level < 2:
                continue
            state, target = State(labels), _label(step.eliminations[0])
            assert getattr(state, search)(target, g, step.level, 10**7) == 1, step.text()
            assert getattr(state, search)(target, g, step.level - 1, 10**7) == 0, step.text()
            if step.rule == "g-whip":  # what decides the focus for g-whips: a whip with a g-rlc
                assert state.g_whip(target, step.level, 10**7) == 1, step.text()
            found += 1
    assert found >= (20 if search == "whip" else 5)


@pytest.mark.parametrize("theory", ["B", "gB"])
def test_the_braid_search_changes_no_rating(hard_puzzles, theory):
    """Skipping the targets the braid search proves carry no braid of a stage's length gives the
    ratings of trying them all, with paths that re-verify, and skips most of them (the rules find
    the braids of the others here: ``compiled_braids`` off)."""
    everyone, searched = Engine(theory), Engine(theory)
    everyone.braid_search = False
    searched.compiled_braids = False
    attempt, answers = searched._lean_braid, []

    def counting(pass_, length, target):
        answers.append(attempt(pass_, length, target))
        return answers[-1]

    searched._lean_braid = counting
    _assert_same_ratings(searched, everyone, hard_puzzles + _braid_puzzles(theory))
    assert set(answers) == {"none", "open"}
    assert answers.count("none") > 2 * answers.count("open") > 0


@pytest.mark.parametrize("theory", ["B", "gB"])
def test_braids_found_by_the_search_keep_the_rules_eliminations(hard_puzzles, theory):
    """A lean stage takes the braid the compiled search (strict: the definitions) finds on its target
    rather than have CLIPS build the target's partial braids (``compiled_braids``, the default).  The
    path makes the same eliminations in the same order as the rules', each braid of the same length
    (only which braid is printed may differ), and re-verifies."""
    rules, searched = Engine(theory), Engine(theory)
    rules.compiled_braids = False
    applied = 0
    for puzzle in hard_puzzles + _braid_puzzles(theory):
        solution = unique_solution(puzzle if isinstance(puzzle, Puzzle) else Puzzle.from_string(puzzle))
        ours, theirs = searched.solve(puzzle, solution=solution), rules.solve(puzzle, solution=solution)
        assert ours.status == theirs.status and ours.rating == theirs.rating
        assert [(s.level, s.eliminations, s.assertions) for s in ours.steps] == \
            [(s.level, s.eliminations, s.assertions) for s in theirs.steps]
        assert replay(ours.puzzle, ours.steps, unique_solution(ours.puzzle)).ok
        applied += sum(1 for s in ours.steps if s.rule in ("braid", "g-braid"))
    assert applied >= 5


@pytest.mark.parametrize("theory", ["B", "gB"])
def test_whips_found_by_the_search_keep_the_braid_ratings(hard_puzzles, theory):
    """From its lean whip level on (Engine.lean_whips_from: 4 by default in theories with braids), the
    engine records the whips (g-whips) the compiled search finds, loopless, rather than build partial
    whips in CLIPS.  Lean from level 2 (every whip from the search, whip[2]s blocked as the rules'),
    the ratings are those of the rules' whips, and every path re-verifies."""
    lean, rules = Engine(theory, lean_whips_from=2), Engine(theory, lean_whips_from=37)
    assert Engine(theory).lean_whips_from == 4 and Engine("W").lean_whips_from == Engine("gW").lean_whips_from == 37
    _assert_same_ratings(lean, rules, hard_puzzles + _braid_puzzles(theory))
    steps = [s for p in hard_puzzles for s in lean.solve(p).steps if s.rule in ("whip", "g-whip") and s.level >= 2]
    assert len(steps) > 20 and any(s.level == 2 and len(s.eliminations) > 1 for s in steps)


def test_a_memory_limit_stops_the_rules_with_a_path_that_verifies():
    """Engine.solve(memory_limit=...): the process's growth is read between chunks of rule firings; past
    the limit the run ends with status memory, its steps so far valid, and raise_for_status says so."""
    from test_cli_edges import GW_HEAVY

    engine = Engine("gW")
    stopped = engine.solve(GW_HEAVY, memory_limit=1)
    assert stopped.status == "memory" and not stopped.solved
    report = replay(stopped.puzzle, stopped.steps, unique_solution(stopped.puzzle))
    assert report.ok and not report.state.is_solved()
    with pytest.raises(sudorules.MemoryLimitError, match="memory limit reached"):
        stopped.raise_for_status()
    assert engine.solve(GW_HEAVY, memory_limit=2**34).solved  # and the next run is whole


def test_whips_from_the_search_are_not_the_rules_whips(cb001):
    """Why W and gW keep the rules' whips: the rules keep one partial whip per sequence of rlcs (the
    first built), whose left-linking candidates decide which loopless extensions exist, so they miss
    whips the definition allows.  cb-001 line 3753: W 9, published and by the rules; whips from the
    compiled search solve it with whips of 8 cells at most, in a path the checker accepts."""
    text = (cb001 / "puzzles.txt").read_text().splitlines()[3752].split()[0]
    assert (cb001 / "W-ratings.txt").read_text().split()[3752] == "9"
    assert Engine("W").solve(text).rating == 9
    lean = Engine("W", lean_whips_from=2).solve(text)
    assert lean.rating == 8 and replay(lean.puzzle, lean.steps, unique_solution(lean.puzzle)).ok


@pytest.mark.parametrize("theory", ["B", "gB"])
def test_the_whip_search_is_not_repeated_in_a_state_it_found_nothing_in(hard_puzzles, theory):
    """A braid stage reaches quiescence once per target it tries, most of them changing nothing; the
    whip search at a level's length runs again only after a change (the targets left are a subset of
    those it found no whip for), and the paths still re-verify."""
    engine = Engine(theory)
    search = engine._whip_targets
    keys: list[tuple[int, int]] = []

    def recording(limit, first=False, **kinds):
        if first:
            keys.append((limit, len(engine._recorder.changes)))
        return search(limit, first, **kinds)

    engine._whip_targets = recording
    for text in hard_puzzles:
        keys.clear()
        resolution = engine.solve(text)
        assert resolution.solved and replay(resolution.puzzle, resolution.steps, unique_solution(resolution.puzzle)).ok
        assert len(keys) == len(set(keys)), text


def test_g_whips_fire_only_when_no_whip_of_their_length_exists(cb001):
    """SPEC §5.3 puts whip[n] before g-whip[n]; the driver focuses one target at a time at a level's
    own length, plain whips first (Engine._first_whip).  So before every g-whip[k] of a gW path, the
    compiled search finds no whip of length k or less on any target of that state.  On the first 8
    published puzzles whose gW is below their W (generated puzzles seldom need a g-whip: none of 60)."""
    w, gw = ((cb001 / name).read_text().split() for name in ("W-ratings.txt", "gW-ratings.txt"))
    puzzles = [line.split()[0] for line in (cb001 / "puzzles.txt").read_text().splitlines()]
    lines = [i for i in range(len(w)) if int(gw[i]) < int(w[i])][:8]
    assert len(lines) == 8
    engine = Engine("gW")
    g_whips = 0
    for text in [puzzles[i] for i in lines]:
        resolution = engine.solve(text, solution=core.solve(text))
        for step, labels, _ in _states(resolution.puzzle, resolution.steps):
            if step.rule != "g-whip":
                continue
            state = State(labels)
            assert not [z for z in labels if state.whip(z, False, step.level, 10**7)], step.text()
            g_whips += 1
    assert g_whips >= 3


def test_an_error_in_the_whip_search_stops_the_solve_and_the_next_one_is_right(hard_puzzles):
    """A MemoryError in a function the rules call (here the whip search, as under a worker's memory
    cap) ends the solve as status memory ("out of memory"); clipspy alone would print it and halt
    the run, which the driver took for quiescence (next level: a wrong rating).  The engine then
    solves as before."""
    engine, text = Engine("W"), hard_puzzles[0]
    expected = engine.solve(text).rating
    search = engine._whip_targets

    def failing(limit, first=False, **kinds):  # the driver's own calls pass; the rules' call fails
        if not first:
            raise MemoryError
        return search(limit, first, **kinds)

    engine._whip_targets = failing
    stopped = engine.solve(text)
    assert (stopped.status, stopped.error, stopped.rating) == ("memory", "out of memory", None)
    engine._whip_targets = search
    assert engine.solve(text).rating == expected
