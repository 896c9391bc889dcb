"""The rule engine against the published SudoRules results, and its statuses.

* candidates after BRT and after BRT + whips[1] equal SudoRules' counts (nb-cands-after-*.txt);
* W ratings equal the published ones on a stratified sample (every W level 0..6), every path
  replays under the independent checker and never eliminates a digit of the solution;
* B ratings on puzzles where braids beat whips (published W = 5, B = 4);
* SW (Subsets + whips) paths are sound and re-verified, and never rate above W;
* contradictions name an empty CSP variable; the time limit stops a run; engines are reusable.
"""

import csv
import re

import pytest

from sudorules import Puzzle, core, parse_puzzle
from sudorules.resolution.verify import replay
from sudorules.engine import Engine, candidate_of_label, label_variables, variable_of_id
from sudorules.engine.rulegen import salience_order

COUNT_SAMPLE = 200  # puzzles checked for the BRT / whip[1] counts (every 70th line)


def _lines(cb001):
    return [line.split()[0] for line in (cb001 / "puzzles.txt").read_text().splitlines() if line.strip()]


def _ints(cb001, name):
    return [int(v) for v in (cb001 / name).read_text().split()]


def _cheapest_by_level(cb001, column, per_level, levels):
    """Lines of the SudoRules sample (index.csv) that SudoRules solved fastest, per published level."""
    index = cb001.parent / "cb-001-sudorules" / "index.csv"
    if not index.is_file():
        pytest.skip("cb-001-sudorules/index.csv is not present")
    rows = list(csv.DictReader(index.open()))
    picked = []
    for level in levels:
        rows_at = [r for r in rows if r[column] == str(level) and r["W_cpu_seconds"]]
        rows_at.sort(key=lambda r: float(r["W_cpu_seconds"]))
        picked += [int(r["line"]) for r in rows_at[:per_level]]
    return picked


@pytest.fixture(scope="module")
def w_engine():
    return Engine("W")


def _check_path(text, resolution):
    """The path replays under the checker and keeps every digit of the unique solution."""
    puzzle = parse_puzzle(text)
    count, solution = core.solution_status(puzzle)
    assert count == 1
    for step in resolution.steps:
        for candidate in step.eliminations:
            assert solution[candidate.cell] != candidate.digit, step.text()
    report = replay(puzzle, resolution.steps, list(solution))
    assert report.ok, report.problems[:2]
    return solution


def test_counts_after_singles_and_whips1_equal_sudorules(cb001):
    lines = _lines(cb001)
    after_brt = _ints(cb001, "nb-cands-after-BRT.txt")
    after_w1 = _ints(cb001, "nb-cands-after-W1.txt")
    engine = Engine("W", max_length=1)
    step = len(lines) // COUNT_SAMPLE
    for i in range(0, len(lines), step):
        resolution = engine.solve(lines[i])
        assert resolution.candidates_after_singles == after_brt[i], i + 1
        assert resolution.candidates_after_whips1 == after_w1[i], i + 1


def test_links_after_singles_match_a_sudorules_path(cb001):
    # 01160-W.txt prints "158 candidates, 848 csp-links and 848 links."
    resolution = Engine("BRT").solve(_lines(cb001)[1159])  # BRT loads no chain rule: fast
    assert resolution.status == "not-solved"
    assert (resolution.candidates_after_singles, resolution.links_after_singles) == (158, 848)


def test_w_ratings_equal_published_on_every_level(cb001, w_engine):
    lines, published = _lines(cb001), _ints(cb001, "W-ratings.txt")
    sample = _cheapest_by_level(cb001, "published_W", 3, range(0, 6)) + \
        _cheapest_by_level(cb001, "published_W", 1, [6])
    assert {published[line - 1] for line in sample} == set(range(0, 7))
    for line in sample:
        text = lines[line - 1]
        resolution = w_engine.solve(text, solution=core.solve(text))
        assert resolution.rating == published[line - 1], line
        solution = _check_path(text, resolution)
        assert resolution.values == tuple(solution)


def test_known_solution_gives_the_same_path(cb001, w_engine):
    text = _lines(cb001)[_cheapest_by_level(cb001, "published_W", 1, [4])[0] - 1]
    plain = w_engine.solve(text)
    pruned = w_engine.solve(text, solution=core.solve(text))
    assert [s.text() for s in plain.steps] == [s.text() for s in pruned.steps]


def test_partial_chains_carry_exactly_their_incompatible_candidates(cb001):
    """Each partial whip / braid lists, in its inc slot, candidates linked to its target or an rlc,
    and among the current candidates it misses none of them (checked with Candidate.is_linked)."""
    text = _lines(cb001)[3885 - 1]  # published W = 5, B = 4
    engine = Engine("B", max_length=4, lean_braids_from=37)  # partial braids kept, to be seen
    # every target the trial filter lets through gets its partial whips (with the whip search, only
    # those with a whip do, and they are gone with their target when a level starts)
    engine.whip_search = False
    seen = []

    def inspect(level):  # when levels 3 and 4 start
        if level < 3:
            return
        current = [candidate_of_label(lab) for lab in engine.current_labels()]
        for fact in engine.env.facts():
            name = fact.template.name
            if not re.fullmatch(r"p[wb]\d+", name):
                continue
            k = int(name[2:])
            anchors = [fact["z"]] + [fact[("r" if name[1] == "w" else "s") + str(i)] for i in range(1, k + 1)]
            anchors = [candidate_of_label(lab) for lab in anchors]
            listed = {candidate_of_label(lab) for lab in fact["inc"]}
            assert all(any(c.is_linked(a) for a in anchors) for c in listed), name
            assert listed >= {c for c in current if any(c.is_linked(a) for a in anchors)}, name
            seen.append(name)

    engine.level_hook = inspect
    assert engine.solve(text).rating == 4
    assert {"pw1", "pw2", "pb1", "pb2"} <= set(seen)


def test_rules_of_a_level_are_built_when_first_reached(cb001):
    lines, published_w = _lines(cb001), _ints(cb001, "W-ratings.txt")
    engine = Engine("W")
    easy = lines[published_w.index(0)]
    assert engine.solve(easy).rating == 0 and engine.levels_loaded == 1
    hard = lines[3885 - 1]  # published W = 5
    assert engine.solve(hard).rating == 5 and engine.levels_loaded == 5
    assert engine.solve(easy).rating == 0 and engine.levels_loaded == 5


def test_a_long_lived_engine_does_not_grow(cb001):
    """Solving the same puzzles again leaves CLIPS's memory where it was: nothing retracted is kept
    (facts handed back to Python used to stay in CLIPS's garbage and slow every later puzzle)."""
    lines, published_w = _lines(cb001), _ints(cb001, "W-ratings.txt")
    puzzles = [text for text, w in zip(lines, published_w) if w == 2][:20]
    engine = Engine("W")

    def memory_after_a_pass():
        for text in puzzles:
            engine.solve(text, solution=core.solve(text))
        return int(engine.env.eval("(mem-used)"))

    first = memory_after_a_pass()
    assert memory_after_a_pass() <= first * 1.002
    assert memory_after_a_pass() <= first * 1.002


def test_b_rating_beats_w_where_published(cb001):
    lines, published_b = _lines(cb001), _ints(cb001, "B-ratings.txt")
    line = 3885  # published W = 5, B = 4 (SudoRules B run: 8.9 s)
    text = lines[line - 1]
    resolution = Engine("B", max_length=4).solve(text, solution=core.solve(text))
    assert resolution.rating == published_b[line - 1] == 4
    assert any(step.rule == "braid" for step in resolution.steps)
    _check_path(text, resolution)


def test_subsets_and_whips_are_sound_and_never_harder_than_whips(cb001, w_engine):
    lines, published = _lines(cb001), _ints(cb001, "W-ratings.txt")
    engine = Engine("SW", max_length=6)
    names = set()
    for line in _cheapest_by_level(cb001, "published_W", 2, range(2, 5)):
        text = lines[line - 1]
        resolution = engine.solve(text)
        assert resolution.solved and resolution.rating <= published[line - 1], line
        _check_path(text, resolution)
        names |= {step.rule for step in resolution.steps if step.subset is not None}
    assert any(re.fullmatch(r"(naked|hidden)-(pairs|triplets|quads)-in-a-(row|column|block)", n) for n in names)


def test_contradiction_names_an_empty_variable(w_engine):
    # r1c1 can hold no digit: 1..8 are in its row and 9 in its column.
    text = ".12345678" + "9" + "." * 71
    # built as it is: reading its text refuses it at once ("no candidate in r1c1"), before any rule
    resolution = w_engine.solve(Puzzle([0 if c == "." else int(c) for c in text]))
    assert resolution.status == "contradiction"
    kind, name = resolution.contradiction.split("-CELL ")
    assert kind in {"RC", "RN", "CN", "BN"}
    empty = [variable_of_id(v) for v in {v for lab in (100 * n + 11 for n in range(1, 10))
                                         for v in label_variables(lab)}]
    assert name in {v.name for v in empty}


def test_time_limit_stops_the_run(cb001, w_engine):
    # the highest published W (W10, seconds on any machine: W6 puzzles came within 0.05 s on a fast one)
    published = _ints(cb001, "W-ratings.txt")
    text = _lines(cb001)[published.index(max(published))]
    resolution = w_engine.solve(text, time_limit=0.05)
    assert resolution.status == "timeout"
    assert resolution.seconds < 5


def test_brt_theory_stops_after_singles(cb001):
    lines, published = _lines(cb001), _ints(cb001, "W-ratings.txt")
    engine = Engine("BRT")
    w0 = next(i for i, w in enumerate(published) if w == 0)
    w1 = next(i for i, w in enumerate(published) if w == 1)
    assert engine.solve(lines[w0]).rating == 0
    stuck = engine.solve(lines[w1])
    assert stuck.status == "not-solved" and stuck.rating is None
    assert sum(len(ds) for ds in stuck.candidates.values()) == stuck.candidates_after_singles


def test_simplest_first_order():
    order = salience_order("B", 5)
    for n in range(3, 6):
        assert order.index(f"whip-{n}") < order.index(f"partial-whip-{n - 1}") < order.index(f"braid-{n}")
        assert order.index(f"braid-{n}") < order.index(f"whip-{n + 1}" if n < 5 else "braid-5") + 1
    sw = salience_order("SW", 4)
    assert sw.index("whip1") < sw.index("naked-subsets-2") < sw.index("fish-subsets-2") < sw.index("whip-2")
    assert sw.index("naked-single") < sw.index("hidden-single") < sw.index("whip1")


def _state_labels(state):
    return [c.label for c in state.all_candidates()]


def test_trial_depth_is_at_most_every_chain_length_and_none_for_the_solution(cb001):
    """The trial propagation that orders braid targets (sudorules.trial) contradicts a whip or braid
    target of length n within n rounds, and never contradicts a candidate of the solution."""
    from sudorules.engine import LINKS
    from sudorules.resolution.state import ResolutionState
    from sudorules.engine.trial import TrialState

    line = 3885  # published W = 5, B = 4
    text = _lines(cb001)[line - 1]
    puzzle = parse_puzzle(text)
    solution = core.solve(text)
    resolution = Engine("B", max_length=4).solve(text, solution=solution)
    state = ResolutionState(puzzle)
    chains = 0
    for step in resolution.steps:
        if step.chain and step.level >= 2:
            trial = TrialState(_state_labels(state), LINKS)
            for target in step.eliminations:
                depth = trial.contradiction_depth(target.label)
                assert depth is not None and depth <= step.level, (step.text(), depth)
            for candidate in state.all_candidates():
                if int(solution[candidate.cell]) == candidate.digit:
                    assert trial.contradiction_depth(candidate.label) is None, candidate
            chains += 1
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)
    assert chains >= 3


def test_lean_braids_keep_one_target_at_a_time_and_the_same_rating(cb001, monkeypatch):
    """From lean_braids_from on, partial braids of the lean lengths exist for at most one target at
    a time, and the rating and the re-verified path are still those of the puzzle."""
    import sudorules.engine.driver as engine_module

    line = 3885  # published W = 5, B = 4
    text = _lines(cb001)[line - 1]
    engine = Engine("B", max_length=4, lean_braids_from=3)
    engine.braid_search = False  # every target the trial filter lets through is tried
    engine.env.build("""
        (deffunction test-lean-targets ()
           (bind ?zs (create$))
           (do-for-all-facts ((?f pb2)) (not (member$ ?f:z ?zs)) (bind ?zs (create$ ?zs ?f:z)))
           (do-for-all-facts ((?f pb3)) (not (member$ ?f:z ?zs)) (bind ?zs (create$ ?zs ?f:z)))
           (length$ ?zs))""")
    targets_seen = []
    original = engine_module.BraidSchedule.focus_next

    def focus_next(schedule, records):
        targets_seen.append(engine.env.eval("(test-lean-targets)"))
        return original(schedule, records)

    monkeypatch.setattr(engine_module.BraidSchedule, "focus_next", focus_next)
    resolution = engine.solve(text, solution=core.solve(text))
    assert resolution.rating == _ints(cb001, "B-ratings.txt")[line - 1] == 4
    assert any(step.rule == "braid" and step.level == 4 for step in resolution.steps)
    _check_path(text, resolution)
    # (most partial braids of a lean target are not built at all: they could not complete in time)
    assert max(targets_seen) == 1 and targets_seen.count(1) >= 3


class _FakeClips:
    """Records the driver's focus calls instead of asserting facts."""

    def __init__(self):
        self.calls = []

    def find_function(self, name):
        return lambda *args: self.calls.append((name, *args))


def test_braid_schedule_tries_targets_then_longer_braids_and_restarts_after_a_change():
    from sudorules.engine.schedule import BraidSchedule

    env = _FakeClips()
    schedule = BraidSchedule(env, lean_from=4, targets=lambda pass_, length: [30, 20, 10])  # 10 is tried first
    # Below the lean levels: each target focused once (from level 3, for one skipped so far), and kept.
    schedule.start_level(3, records=0)
    assert [schedule.focus_next(0) for _ in range(4)] == [True, True, True, False]
    assert env.calls == [("sr-focus-range", z, 3, 3, 1) for z in (10, 20, 30)]
    # Level 5, lean: the level's own rules changed nothing, so sub-passes start at length 5.
    env.calls.clear()
    schedule.start_level(5, records=7)
    assert schedule.focus_next(7)
    assert env.calls[-1] == ("sr-focus-range", 10, 3, 5, 1)
    assert schedule.focus_next(8)  # trying 10 changed the state: every target again from length 4
    assert env.calls[-2:] == [("sr-unfocus", 10, 4, 1), ("sr-focus-range", 10, 3, 4, 1)]
    for target in (20, 30):
        assert schedule.focus_next(8)
        assert env.calls[-1] == ("sr-focus-range", target, 3, 4, 1)
    for target in (10, 20, 30):  # length 4 found nothing: length 5
        assert schedule.focus_next(8)
        assert env.calls[-1] == ("sr-focus-range", target, 3, 5, 1)
    assert not schedule.focus_next(8)  # a whole sub-pass at the level's length found nothing
    assert env.calls[-1] == ("sr-unfocus", 30, 4, 1)


def test_braid_schedule_runs_the_braid_pass_over_every_target_before_the_g_braid_pass():
    """gB: at a level below the lean ones, braid[n] is tried on every target before g-braid[n]
    (SPEC §5.3); in lean levels each sub-pass runs both passes."""
    from sudorules.engine.schedule import BraidSchedule

    env = _FakeClips()
    schedule = BraidSchedule(env, lean_from=5, targets=lambda pass_, length: [30, 20, 10], passes=(1, 2))
    schedule.start_level(4, records=0)
    assert [schedule.focus_next(0) for _ in range(7)] == [True] * 6 + [False]
    assert env.calls == [("sr-focus-range", z, 3, 4, p) for p in (1, 2) for z in (10, 20, 30)]
    env.calls.clear()
    schedule.start_level(5, records=0)
    assert [schedule.focus_next(0) for _ in range(7)] == [True] * 6 + [False]
    # a lean g-braid target grows its partial braids again too (partial g-braids extend them), one
    # length short of the stage (one of length 4 could only close a braid[5]: the braid stage found none)
    assert [c for c in env.calls if c[0] == "sr-focus-range"] == (
        [("sr-focus-range", z, 3, 5, 1) for z in (10, 20, 30)]
        + [c for z in (10, 20, 30) for c in (("sr-focus-range", z, 3, 4, 1), ("sr-focus-range", z, 3, 5, 2))])
    assert [c for c in env.calls if c[0] == "sr-unfocus"] == (
        [("sr-unfocus", z, 5, 1) for z in (10, 20, 30)] + [("sr-unfocus", z, 5, p) for z in (10, 20, 30) for p in (1, 2)])


def test_braid_schedule_with_g_braids_lean_sooner_orders_stages_by_length_then_pass():
    """g-braids lean from level 4, braids kept below 6: at level 5, the g-braid[4] sub-pass is
    skipped (searched at level 4 in the same state), braids keep their chains, g-braids of length 5
    are tried one target at a time and dropped (for the g-braid pass only); after a change the
    g-braid sub-passes start again at length 4."""
    from sudorules.engine.schedule import BraidSchedule

    env = _FakeClips()
    schedule = BraidSchedule(env, lean_from={1: 6, 2: 4}, targets=lambda pass_, length: [20, 10], passes=(1, 2))
    schedule.start_level(5, records=0)
    assert [schedule.focus_next(0) for _ in range(4)] == [True] * 4
    assert env.calls == [("sr-focus-range", 10, 3, 5, 1), ("sr-focus-range", 20, 3, 5, 1),
                         ("sr-focus-range", 10, 3, 4, 1), ("sr-focus-range", 10, 3, 5, 2),
                         ("sr-unfocus", 10, 6, 1), ("sr-unfocus", 10, 4, 2),
                         ("sr-focus-range", 20, 3, 4, 1), ("sr-focus-range", 20, 3, 5, 2)]
    assert schedule.focus_next(1)  # trying 20 in pass 2 changed the state
    assert env.calls[-4:] == [("sr-unfocus", 20, 6, 1), ("sr-unfocus", 20, 4, 2),
                              ("sr-focus-range", 10, 3, 3, 1), ("sr-focus-range", 10, 3, 4, 2)]


def test_braid_schedule_skips_targets_without_a_short_enough_trial_contradiction_until_they_have_one():
    """Only the targets the trial propagation allows are focused; one that becomes possible after a
    change of the state is focused before the level ends, even after its pass (its partial braids
    are not maintained otherwise)."""
    from sudorules.engine.schedule import BraidSchedule

    env = _FakeClips()
    possible = {1: [20, 10], 2: [10]}
    schedule = BraidSchedule(env, lean_from=9, targets=lambda pass_, length: list(possible[pass_]), passes=(1, 2))
    schedule.start_level(4, records=0)
    assert schedule.focus_next(0) and schedule.focus_next(0)  # pass 1: 10, 20
    assert schedule.focus_next(0)  # pass 2: 10, which finds something
    possible[1] = [30, 20, 10]  # the state changed: 30 may now carry a braid
    assert schedule.focus_next(1)
    assert env.calls == [("sr-focus-range", 10, 3, 4, 1), ("sr-focus-range", 20, 3, 4, 1),
                         ("sr-focus-range", 10, 3, 4, 2), ("sr-focus-range", 30, 3, 4, 1)]
    assert not schedule.focus_next(1)


def test_clips_out_of_memory_line_is_dropped_and_other_error_lines_pass(capfd):
    """CLIPS prints "[MEMORY1] Out of memory." (then exits) when an allocation fails in a rating
    worker under its memory limit, whose row already says ``memory``: that line is dropped, any other
    line of CLIPS's error output still reaches the terminal and clipspy's CLIPSError messages."""
    import clips
    from sudorules.engine.bridge import QuietOutOfMemory

    env = clips.Environment()
    env.add_router(QuietOutOfMemory())
    env.eval('(printout stderr "[MEMORY1] " "Out of memory." crlf)')
    env.eval('(printout stderr "kept" crlf)')
    with pytest.raises(clips.CLIPSError, match="nosuchfunction"):
        env.eval("(nosuchfunction)")
    err = capfd.readouterr().err
    assert "Out of memory" not in err and "kept" in err and "nosuchfunction" in err


def test_the_engine_names_what_is_no_puzzle(w_engine):
    """Engine.solve takes a Puzzle or its text; anything else is the package's PuzzleTypeError (a
    number was an AttributeError from inside the driver)."""
    from sudorules.errors import PuzzleTypeError

    for wrong in (5, None, b"." * 81):
        with pytest.raises(PuzzleTypeError, match=type(wrong).__name__):
            w_engine.solve(wrong)
