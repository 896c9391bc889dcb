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
