"""The watchdog that stops a run its own time limit cannot (a long CLIPS call in progress)."""

import time

import clips

from sudorules.batch.watchdog import hard_limit, stop_after


def test_the_timer_fires_while_clips_is_busy():
    """The timer runs during one long call into CLIPS (clipspy releases the GIL), not after it."""
    env = clips.Environment()
    fired_at = []
    call = "(loop-for-count (?i 1 %d) (bind ?x ?i))"
    # The speed of the loop, the best of three: one slowed by the other tests of a parallel run made
    # the long call below shorter than planned (0.44 s once in CI), and the test failed.
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        env.eval(call % 300000)
        timings.append(time.perf_counter() - started)
    per_million = min(timings) / 0.3
    iterations = int(1e6 * max(1.0, 1.5 / per_million))  # a call of at least a second and a half
    started = time.perf_counter()
    with stop_after(0.2, lambda: fired_at.append(time.perf_counter())):
        env.eval(call % iterations)
    ended = time.perf_counter()
    assert ended - started > 0.6
    assert fired_at and fired_at[0] < ended - 0.2


def test_no_timer_without_a_limit_and_none_after_the_body():
    called = []
    with stop_after(None, lambda: called.append(1)):
        pass
    with stop_after(0.05, lambda: called.append(2)):
        pass
    time.sleep(0.2)
    assert called == []
    assert hard_limit(None) is None and hard_limit(1) == 3.0 and hard_limit(100) == 150.0


#: a W6 puzzle of the controlled-bias collection (cb-001) whose gBC path stalled: g-bivalue-chain
#: searches of seconds a level from level 10 up, never an elimination (SudoRules' gBC as well); since
#: the distance bound of those searches (generator/trial.c), its gBC run ends not-solved in 0.3 s
GBC_STALL = "..34...8....7.9.23..9.2.4...15.7.9.........4..6....5...9.......6..8....28.25..6.1"


def test_the_time_limit_stops_the_searches_the_rules_call(monkeypatch):
    """The driver reads the clock between chunks of rule firings, but one firing of the gBC seek rule
    searched a thousand targets (seconds at level 10 and more, before the distance bound): `solve
    --theory gBC --time-limit 20` of this puzzle ended after 29.7 s.  The searches the rules' callbacks
    make now take the deadline.  Here the clock the driver gives them says it has long passed, while
    the driver's own clock and the callbacks' (perf_counter, time) see time left: the first chain
    search of a seek rule that visits a node stops the run, and the path before it is sound."""
    import types

    from sudorules import Puzzle
    from sudorules.engine import driver
    from sudorules.enums import Status
    from sudorules.resolution.verify import replay

    clock = types.SimpleNamespace(perf_counter=time.perf_counter, time=lambda: 0.0)
    monkeypatch.setattr(driver, "time", clock)
    result = driver.Engine("gBC").solve(GBC_STALL, time_limit=60)
    assert result.status is Status.TIMEOUT
    assert result.seconds < 30
    report = replay(Puzzle.from_string(GBC_STALL), result.steps)
    assert report.ok and report.steps_checked == len(result.steps), report


def test_a_chain_search_past_its_deadline_raises_timeout_error():
    """The compiled chain methods the rules' callbacks use stop at a deadline given as their last
    argument (time.time()'s clock), and answer as before without one."""
    import pytest

    from sudorules import Puzzle
    from sudorules.engine.labels import label_at
    from sudorules.engine.trial import State

    puzzle = Puzzle.from_string(GBC_STALL)
    labels = [label_at(d, cell) for cell, digits in puzzle.candidates().items() for d in digits]
    state = State(labels)
    past = time.time() - 1
    calls = {"chain": (lambda z, *deadline: state.chain(z, "g-biv", 6, False, 10**6, *deadline)),
             "braid_chain": (lambda z, *deadline: state.braid_chain(z, True, 8, 10**6, *deadline)),
             "whip_chain": (lambda z, *deadline: state.whip_chain(z, True, True, True, 8, 10**6, *deadline))}
    for name, call in calls.items():
        # a target the search finds a chain for, so that it visits nodes (one whose root fails the
        # lean test answers 0 at once, with no node and no look at the clock)
        target = next(z for z in labels if call(z) not in (0, -1))
        assert call(target) == call(target, 0) == call(target, time.time() + 3600), name  # none, or far off
        with pytest.raises(TimeoutError):
            call(target, past)


def test_a_deadline_met_in_a_search_the_driver_calls_itself_is_a_timeout(monkeypatch):
    """The driver calls some compiled searches itself, outside the rules' callbacks (the lean whips
    of a level, from level 4 under B and gB): their TimeoutError ended `solve` of top1465 #182 under
    gB with an internal error, the partial path and the puzzles after it lost (`--time-limit 3`, and
    at most other limits from 0.1 to 4 s under B, gB, B+gBC and gB+gBC).  Here the clock the driver
    gives the searches says the deadline has long passed, so the first search that visits a node
    stops, wherever it was called from, while the driver's own clock (perf_counter) sees time left."""
    import types

    from sudorules import Puzzle
    from sudorules.engine import driver
    from sudorules.enums import Status
    from sudorules.resolution.verify import replay

    top1465_182 = "......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3"
    monkeypatch.setattr(driver, "time", types.SimpleNamespace(perf_counter=time.perf_counter, time=lambda: 0.0))
    for theory in ("B", "gB"):
        result = driver.Engine(theory).solve(top1465_182, time_limit=60)
        assert result.status is Status.TIMEOUT, theory
        assert result.seconds < 30  # stopped by the searches' deadline, not by the driver's clock
        report = replay(Puzzle.from_string(top1465_182), result.steps)
        assert report.ok and report.steps_checked == len(result.steps) > 0, theory  # a sound partial path
