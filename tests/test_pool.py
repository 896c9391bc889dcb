"""The ordered worker pool: order kept, per-process state built once, failures isolated."""

import os
import time

from sudorules.batch.pool import OrderedPool


def _factory(offset):
    pid = os.getpid()

    def handle(payload):
        if payload == "crash":
            os._exit(3)
        if payload == "hang":
            time.sleep(60)
        if payload == "raise":
            raise ValueError("bad payload")
        if payload == "memory":
            raise MemoryError
        return (payload + offset, pid)

    return handle


def _failure(payload, kind, detail, partial, seconds):
    return (kind, detail, seconds)


def test_results_come_in_task_order_from_several_workers():
    pool = OrderedPool(_factory, (100,), jobs=2, on_failure=_failure)
    results = list(pool.imap(enumerate(range(50))))
    assert [r[0] for r in results] == [100 + i for i in range(50)]
    pids = [r[1] for r in results]
    # At most two processes, and a worker handles many tasks with the state it built once at start
    # (on a loaded machine one worker may take a single task, or none, before the other is done).
    assert 1 <= len(set(pids)) <= 2 and max(pids.count(pid) for pid in set(pids)) > 1
    assert os.getpid() not in pids


def test_failures_are_recorded_and_the_batch_goes_on():
    payloads = [1, "crash", 2, "hang", 3, "raise", 4, "memory", 5]
    pool = OrderedPool(_factory, (0,), jobs=2, on_failure=_failure, task_timeout=1.0)
    results = list(pool.imap(enumerate(payloads)))
    assert [r[0] for r in results] == [1, "crashed", 2, "timeout", 3, "error", 4, "memory", 5]
    assert "bad payload" in results[5][1]
    assert results[3][2] >= 1.0 > results[5][2]  # the hung task's seconds: killed past its 1 s
    # the crashed and the hung workers, and the one that ran out of memory, twice: it had served other
    # tasks, so its task ran again on a fresh worker, and ran out of memory there too
    assert pool.replaced == 4 and pool.memory_retried == {7}


def test_empty_input_gives_nothing():
    assert list(OrderedPool(_factory, (0,), jobs=2).imap([])) == []


_KEPT = []


def _keeper(_):
    pid = os.getpid()

    def handle(payload):
        if payload == "keep":  # a task that keeps what it took, as CLIPS keeps its freed memory
            _KEPT.append(b"\x01" * (150 * 2**20))
        return (payload, pid)

    return handle


def test_a_worker_grown_past_half_its_limit_is_replaced_before_its_next_task():
    """A worker keeps the memory a task took; past half its limit, the next task gets a fresh worker,
    so that no row depends on what its worker rated before (top1465 #182: W 22 in 1 GB alone, a memory
    row after its worker's 2.5 GB gW of another puzzle)."""
    pool = OrderedPool(_keeper, (0,), jobs=1, memory_limit=256 * 2**20, on_failure=_failure)
    (_, first), (_, kept), (_, after), (_, later) = pool.imap(enumerate(["a", "keep", "b", "c"]))
    assert first == kept != after == later  # replaced once, after the task that grew it by 150 MiB
    assert pool.replaced == 1


def _holder(_):
    pid = os.getpid()
    kept = []

    def handle(payload):
        if payload == "keep":  # kept past the task (under half the limit: the worker is not replaced)
            kept.append(b"\x01" * (40 * 2**20))
        elif payload in ("take", "huge"):  # taken for the task only
            return (len(b"\x01" * ((80 if payload == "take" else 150) * 2**20)), pid)
        return (payload, pid)

    return handle


def _served_holder(_):
    from sudorules.batch.pool import tasks_served

    kept = []

    def handle(payload):
        if payload == "keep":
            kept.append(b"\x01" * (40 * 2**20))
        elif payload == "take":
            return (len(b"\x01" * (80 * 2**20)), tasks_served())
        return (payload, tasks_served())

    return handle


def test_with_two_workers_a_task_out_of_memory_goes_to_a_fresh_worker_not_an_idle_used_one():
    """The task went to the first idle worker, a used one, while the replacement started (helper-51)."""
    from sudorules import oscompat

    if not oscompat.kernel_limits_memory():
        import pytest

        pytest.skip("no kernel memory cap here (the pool's RSS watch)")
    # forked workers, ready at once: with spawn (CI's second pass) one worker could take both "keep"
    # tasks before the other was up, be replaced for its growth, and no task would run out of memory
    pool = OrderedPool(_served_holder, (0,), jobs=2, memory_limit=100 * 2**20, on_failure=_failure,
                       start_method="fork")
    results = list(pool.imap(enumerate(["keep", "keep", "take", "take", "a", "b"])))
    takes = [r for r, p in zip(results, ["keep", "keep", "take", "take", "a", "b"]) if p == "take"]
    assert all(r == (80 * 2**20, 0) for r in takes), results  # each ran on a worker that had served none
    assert pool.memory_retried <= {2, 3} and len(pool.memory_retried) >= 1


def test_a_task_out_of_memory_on_a_used_worker_runs_again_on_a_fresh_one():
    """What a task kept took from the next tasks' room under the cap: the same puzzle was solved alone
    and a memory row after another (helper-47).  A task out of memory on a worker that served others
    runs again, once, on a fresh worker, so that a row is what the puzzle gives alone; one out of
    memory alone stays a memory row."""
    from sudorules import oscompat

    if not oscompat.kernel_limits_memory():
        import pytest

        pytest.skip("no kernel memory cap here (the pool's RSS watch)")
    pool = OrderedPool(_holder, (0,), jobs=1, memory_limit=100 * 2**20, on_failure=_failure)
    results = list(pool.imap(enumerate(["take", "keep", "take", "huge", "keep", "take"])))
    assert [r[0] for r in results] == [80 * 2**20, "keep", 80 * 2**20, "memory", "keep", 80 * 2**20], results
    assert pool.memory_retried == {2, 3, 5}  # each after a kept 40 MB; "huge" out of memory alone too
    assert len({r[1] for r in results if r[0] != "memory"}) == 4  # a fresh worker after each memory end


def test_kept_workers_serve_the_next_call_and_a_dead_one_is_replaced():
    """``keep_workers``: the workers (and the state they built) outlive a call for the next one, as a
    dask worker thread's pool does between its tasks; one that died while idle is replaced; close()
    stops them."""
    import signal

    pool = OrderedPool(_factory, (0,), jobs=1, on_failure=_failure)
    try:
        [(_, first)] = pool.imap([(0, 1)], keep_workers=True)
        [(_, again)] = pool.imap([(0, 2)], keep_workers=True)
        assert first == again and pool.replaced == 0
        os.kill(again, signal.SIGKILL)
        time.sleep(0.2)
        assert [r[0] for r in pool.imap(enumerate([3, "crash", 4]), keep_workers=True)] == [3, "crashed", 4]
        [(_, later)] = pool.imap([(0, 5)])  # without keep_workers: stopped at the end
        assert later != again
    finally:
        pool.close(kill=True)
    assert pool._workers == []


def test_a_rating_out_of_memory_in_the_rules_is_rated_again_only_from_a_used_worker(monkeypatch):
    """The rules' own out-of-memory (a memory row with the other ratings done) comes back as a row, not
    a death: on a worker that rated others it is raised as one, for a fresh worker; fresh, it is the row."""
    import pytest

    from sudorules.batch import pool, rating
    from sudorules.enums import Status

    memory_row = rating.failed_row("p", 25, ("W",), "memory", "W: out of memory")
    monkeypatch.setattr(rating.Rater, "rate", lambda self, record, on_rating=None: memory_row)
    handle = rating._make_rater_handle(("W",), 36, None)
    monkeypatch.setattr(pool, "_served", 0)
    assert handle(None).status == Status.MEMORY
    monkeypatch.setattr(pool, "_served", 3)
    with pytest.raises(MemoryError):
        handle(None)
