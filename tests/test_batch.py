"""Batch rating: rows in input order, bad input recorded, kill -9 and resume, Parquet, dask = local."""

import csv
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudorules.batch.runner import BatchError, RateOptions, rate_file


#: a W2 puzzle of the demo collection with r1c2 = 1 added, against its solution: no solution, though no
#: digit repeats and no cell is left without a candidate (those are refused as the line is read)
NO_SOLUTION = "71........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
SEVERAL = "1" + "." * 80


def _published(cb001, max_w, count):
    """The first ``count`` cb-001 puzzles with published W <= max_w, with their W and B."""
    lines = (cb001 / "puzzles.txt").read_text().splitlines()
    ws = (cb001 / "W-ratings.txt").read_text().split()
    bs = (cb001 / "B-ratings.txt").read_text().split()
    chosen = [(lines[i].split()[0], int(ws[i]), int(bs[i])) for i in range(len(lines)) if int(ws[i]) <= max_w]
    return chosen[:count]


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.reader(handle))


def _without_seconds(rows):
    at = rows[0].index("seconds")
    return [row[:at] + row[at + 1:] for row in rows]


def test_rows_follow_input_order_and_bad_input_is_recorded(cb001, tmp_path):
    puzzles = _published(cb001, 2, 6)
    source = tmp_path / "in.txt"
    source.write_text("\n".join([p for p, _, _ in puzzles[:3]] + ["12x", NO_SOLUTION, SEVERAL]
                                + [p for p, _, _ in puzzles[3:]]) + "\n")
    out = tmp_path / "out.csv"
    summary = rate_file(str(source), str(out), RateOptions(ratings=("W", "B"), jobs=2, progress=False))
    rows = _rows(out)
    assert rows[0] == ["puzzle", "clues", "W", "B", "status", "seconds", "tail", "error"]
    body = rows[1:]
    assert len(body) == 9 and summary.rated == 9
    good = body[:3] + body[6:]
    for (puzzle, w, b), row in zip(puzzles, good):
        assert row[0] == puzzle and row[4] == "solved"
        assert (int(row[2]), int(row[3])) == (w, b)
    assert body[3][4] == "invalid" and "line 4" in body[3][7] and "bad character" in body[3][7]
    assert body[4][4] == "invalid" and body[4][7] == "line 5: no solution"
    assert body[5][4] == "invalid" and body[5][7] == "line 6: several solutions"  # named like any bad line


def _start_rating(source, out):
    return subprocess.Popen([sys.executable, "-m", "sudorules", "rate", str(source), "-o", str(out), "--jobs", "2",
                             "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def _wait_for_rows(path, at_least, process, limit=120.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= at_least + 1:
            return
        if process.poll() is not None:
            return
        time.sleep(0.05)


def test_kill_minus_nine_then_resume_gives_the_uninterrupted_output(cb001, tmp_path):
    puzzles = _published(cb001, 1, 80)
    source = tmp_path / "in.txt"
    source.write_text("\n".join(p for p, _, _ in puzzles) + "\n")
    reference = tmp_path / "reference.csv"
    rate_file(str(source), str(reference), RateOptions(ratings=("W",), jobs=2, progress=False))

    out = tmp_path / "out.csv"
    kills = 0
    for stop_after in (15, 45):
        process = _start_rating(source, out)
        _wait_for_rows(out, stop_after, process)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # the parent and its workers, mid-batch
            kills += 1
        process.wait()
    assert kills >= 1, "the batch finished before it could be killed"
    finished = _start_rating(source, out)
    assert finished.wait(timeout=300) == 0, finished.stderr.read().decode()
    rows = _rows(out)
    assert _without_seconds(rows) == _without_seconds(_rows(reference))
    assert len({row[0] for row in rows[1:]}) == len(puzzles)


def test_resume_refuses_an_output_of_another_input(cb001, tmp_path):
    puzzles = _published(cb001, 0, 4)
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("\n".join(p for p, _, _ in puzzles[:2]) + "\n")
    second.write_text("\n".join(p for p, _, _ in puzzles[2:]) + "\n")
    out = tmp_path / "out.csv"
    rate_file(str(first), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    from sudorules.batch.runner import BatchError

    with pytest.raises(BatchError, match="another input"):
        rate_file(str(second), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))


def test_resume_and_retry_refuse_an_input_whose_tails_changed(tmp_path):
    """The same puzzles with another tail (a tries count edited): the rows kept would carry the old
    tails into stats, so the run is refused, and the output left as it was."""
    from sudorules.batch.runner import BatchError

    grid = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(f"{grid} 200314\n{grid} 17\n")
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))  # the same: resumed
    before = out.read_bytes()
    source.write_text(f"{grid} 200314\n{grid} 999\n")
    for retry in ((), ("solved",)):
        with pytest.raises(BatchError, match="line 2 has the tail '17', the input '999'"):
            rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False, retry=retry))
        assert out.read_bytes() == before
    missing = tmp_path / "mistyped.csv"
    with pytest.raises(BatchError, match="--retry: .*mistyped.csv does not exist, so it has no rows to rate again"):
        rate_file(str(source), str(missing), RateOptions(ratings=("W",), jobs=1, progress=False, retry=("solved",)))
    assert not missing.exists()  # every puzzle was rated into it, and nothing said


def test_parquet_output_holds_the_same_rows(cb001, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    puzzles = _published(cb001, 2, 5)
    source = tmp_path / "in.txt"
    source.write_text("\n".join(p for p, _, _ in puzzles) + "\n")
    out = tmp_path / "out.parquet"
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    table = pd.read_parquet(out)
    assert list(table["puzzle"]) == [p for p, _, _ in puzzles]
    assert list(table["W"]) == [w for _, w, _ in puzzles]
    assert not Path(str(out) + ".partial.csv").exists()


def test_a_parquet_output_of_an_empty_input_has_the_columns_types(tmp_path):
    """An empty input's seconds were a null column, and pyarrow refused to concatenate that output
    with another's (helper-47)."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    (tmp_path / "empty.txt").write_text("# nothing yet\n")
    (tmp_path / "two.txt").write_text("\n".join(demo[:2]) + "\n")
    for name in ("empty", "two"):
        rate_file(str(tmp_path / f"{name}.txt"), str(tmp_path / f"{name}.parquet"),
                  RateOptions(ratings=("W", "B"), jobs=1, progress=False))
    empty, two = pq.read_table(tmp_path / "empty.parquet"), pq.read_table(tmp_path / "two.parquet")
    assert empty.num_rows == 0 and empty.schema.equals(two.schema, check_metadata=False), (empty.schema, two.schema)
    assert pa.concat_tables([empty, two]).num_rows == 2


def test_a_parquet_output_resumes_from_a_partial_csv_made_whole_and_refuses_what_is_no_parquet(tmp_path):
    """Resuming a finished Parquet output wrote its CSV side file in place, unlocked: a second run
    started within milliseconds truncated it under the first (duplicated rows, status 0), and a kill
    left a cut CSV taken for rows done.  It is now made aside and linked in place whole; a run
    killed then leaves only its own file, removed by the next run.  A file that is no Parquet is
    refused in one line (an internal ArrowInvalid before)."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    from sudorules.batch.runner import BatchError

    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    source, out = tmp_path / "in.txt", tmp_path / "out.parquet"
    source.write_text("\n".join(demo[:4]) + "\n")
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    dead = tmp_path / "out.parquet.partial.csv.pid999999999"  # a killed run's, half written
    dead.write_text("puzzle,clues\n")
    source.write_text("\n".join(demo[:6]) + "\n")
    summary = rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    assert (summary.rated, summary.skipped) == (2, 4) and list(pd.read_parquet(out)["puzzle"]) == demo[:6]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.parquet"]
    other = tmp_path / "notes.parquet"
    other.write_text("hello\n")
    with pytest.raises(BatchError, match="is not a readable Parquet file"):
        rate_file(str(source), str(other), RateOptions(ratings=("W",), jobs=1, progress=False))
    assert other.read_text() == "hello\n"
    with pytest.raises(BatchError, match=r"out\.parquet has columns puzzle,clues,W,"):  # not its side CSV's name
        rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "notes.parquet", "out.parquet"]


def test_dask_cluster_gives_the_local_output(cb001, tmp_path):
    distributed = pytest.importorskip("distributed")
    puzzles = _published(cb001, 3, 12)
    source = tmp_path / "in.txt"
    source.write_text("\n".join([p for p, _, _ in puzzles] + ["bad line"]) + "\n")
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    rate_file(str(source), str(local), RateOptions(ratings=("W",), jobs=2, progress=False))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        rate_file(str(source), str(remote), RateOptions(ratings=("W",), progress=False, scheduler=cluster.scheduler_address))
    assert _without_seconds(_rows(remote)) == _without_seconds(_rows(local))


def _slowest(cb001, count):
    """The ``count`` cb-001 puzzles of highest published W (the slowest under W: about 0.2-1.8 s each)."""
    lines = (cb001 / "puzzles.txt").read_text().splitlines()
    ws = [int(v) for v in (cb001 / "W-ratings.txt").read_text().split()]
    return [lines[i].split()[0] for i in sorted(range(len(ws)), key=lambda i: -ws[i])[:count]]


def _one_worker_cluster():
    """A cluster of one dask worker process of one thread (and its nanny), as a user starts one."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)


def _rating_process(dask_worker_pid, seconds=30.0):
    """The rating process a dask worker started (a child, not multiprocessing's resource tracker)."""
    from test_cli_edges import children

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        kids = children(dask_worker_pid)
        if kids:
            return kids[0][0]
        time.sleep(0.05)
    pytest.fail(f"the dask worker {dask_worker_pid} started no rating process")


def test_dask_memory_limit_gives_the_local_memory_row_and_the_dask_worker_lives(cb001, tmp_path):
    """--memory-limit on a cluster: the row of a puzzle past it is ``memory``, as in a local run
    (test_a_worker_over_its_memory_limit...: the same puzzle, the same limit), its neighbours are rated,
    and the dask worker goes on (it was ignored: a ``solved`` row, or a blow-up killed the dask worker)."""
    distributed = pytest.importorskip("distributed")
    hardest = _slowest(cb001, 1)[0]
    easy = [p for p, _, _ in _published(cb001, 0, 2)]
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(f"{easy[0]}\n{hardest}\n{easy[1]}\n")
    with _one_worker_cluster() as cluster, distributed.Client(cluster) as client:
        before = client.run(os.getpid)
        rate_file(str(source), str(out), RateOptions(ratings=("W", "B"), memory_limit=16, progress=False,
                                                     scheduler=cluster.scheduler_address))
        assert client.run(os.getpid) == before, "the dask worker was restarted"
    header, *rows = _rows(out)
    rows = [dict(zip(header, row)) for row in rows]
    assert [r["status"] for r in rows] == ["solved", "memory", "solved"], rows
    assert rows[1]["error"].startswith("W: ") and rows[1]["error"].endswith("; B not rated"), rows[1]
    assert "memory limit" in rows[1]["error"] and rows[1]["W"] == rows[1]["B"] == "", rows[1]


def test_dask_a_killed_rating_process_gives_its_puzzle_alone_a_crashed_row(cb001, tmp_path):
    """A puzzle whose rating process dies (SIGKILL here; a SIGSEGV in CLIPS, the OOM killer) gets a
    ``crashed`` row naming the rating it was on, as in a local run; its neighbours are rated and the
    dask worker lives (it was the dask worker that died: its whole chunk of 16 crashed, with dask's
    KilledWorker text, or was silently rated again)."""
    distributed = pytest.importorskip("distributed")
    slow = _slowest(cb001, 2)  # W9-W10: 1.7 s each, time to kill
    easy = [p for p, _, _ in _published(cb001, 0, 2)]
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text("\n".join([easy[0], slow[0], easy[1]]) + "\n")
    outcome = {}

    def run():
        try:
            outcome["summary"] = rate_file(str(source), str(out), RateOptions(ratings=("W",), progress=False,
                                                                              scheduler=cluster.scheduler_address))
        except BaseException as error:  # noqa: BLE001  (said below)
            outcome["error"] = error

    with _one_worker_cluster() as cluster, distributed.Client(cluster) as client:
        [pid] = client.run(os.getpid).values()
        runner = threading.Thread(target=run, daemon=True)
        runner.start()
        deadline = time.monotonic() + 60
        while (not out.exists() or out.read_text().count("\n") < 2) and time.monotonic() < deadline:
            time.sleep(0.02)  # the first row (easy[0]) written: its next puzzle is slow[0]
        time.sleep(0.3)
        os.kill(_rating_process(pid), signal.SIGKILL)
        runner.join(60)
        assert not runner.is_alive() and "error" not in outcome, outcome
        assert list(client.run(os.getpid).values()) == [pid], "the dask worker was restarted"
    header, *rows = _rows(out)
    rows = [dict(zip(header, row)) for row in rows]
    assert [r["status"] for r in rows] == ["solved", "crashed", "solved"], rows
    assert rows[1]["error"] == "W: worker killed by SIGKILL", rows[1]


def test_dask_workers_lost_cost_no_neighbour_its_row_and_say_it_in_one_line(cb001, tmp_path):
    """A task whose dask workers all died (dask's KilledWorker; here allowed-failures 0 and one kill)
    is rated again one record per task, so that no neighbour of a puzzle fatal to its dask worker
    shares its fate (the whole chunk was ``crashed`` with dask's KilledWorker text, on several lines);
    a single record's task gets one ``crashed`` row saying so in one line."""
    distributed = pytest.importorskip("distributed")
    import dask
    from types import SimpleNamespace
    from distributed.scheduler import KilledWorker
    from sudorules.batch import distributed as ours
    from sudorules.reader import read_puzzles

    puzzles = _slowest(cb001, 3)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        with _one_worker_cluster() as cluster, distributed.Client(cluster) as client:
            [pid] = client.run(os.getpid).values()
            sizes, submit = [], client.submit  # the records of each task submitted
            client.submit = lambda function, chunk, *rest, **options: (
                sizes.append(len(chunk)), submit(function, chunk, *rest, **options))[1]
            rows = ours.rate_records_on_cluster(read_puzzles(puzzles), client, ("W",), chunk_size=3)
            got = {}
            runner = threading.Thread(target=lambda: got.update(rows=list(rows)), daemon=True)
            runner.start()
            deadline = time.monotonic() + 30
            while not any(client.processing().values()) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)  # the task runs (its rating process starts, then 3 puzzles of 0.4-1.8 s)
            os.kill(pid, signal.SIGKILL)
            runner.join(120)
            assert not runner.is_alive()
            assert list(client.run(os.getpid).values()) != [pid]  # the nanny started another
    assert [row.status for row in got["rows"]] == ["solved"] * 3, got["rows"]
    assert sizes == [3, 1, 1, 1], sizes  # the task of 3 whose worker died, then one per record
    assert [row.puzzle for row in got["rows"]] == puzzles

    # a lone record's task: its row, in one line
    record = next(iter(read_puzzles(puzzles[:1])))
    dead = SimpleNamespace(status="error", exception=lambda: KilledWorker("rate_chunk-1", SimpleNamespace(
        address="tcp://10.0.0.7:4242"), 3))
    cluster = ours._Cluster(None, "tcp://10.0.0.5:8786")
    [row] = ours._rows_of(ours._Task([record], dead), ("W", "B"), cluster)
    assert row.status == "crashed" and "\n" not in row.error, row
    assert row.error == ("the dask worker rating it died 4 times (dask's distributed.scheduler.allowed-failures), "
                         "the last tcp://10.0.0.7:4242; W, B not rated"), row.error
    assert ours._rows_of(ours._Task([record, record], dead), ("W",), cluster) is None  # split


def test_dask_rows_come_back_as_they_are_rated_and_workers_that_join_are_used(cb001, tmp_path):
    """Tasks are sized by the pace measured: hard puzzles go one or two to a task, so their rows come
    back (and are written, kept by an interruption) as they are rated, and the load is even; a worker
    that joins during the run gets work (chunks of 16 came back whole, and the number in flight was
    fixed from the threads at the start)."""
    distributed = pytest.importorskip("distributed")
    from sudorules.batch.distributed import rate_records_on_cluster
    from sudorules.reader import read_puzzles

    puzzles = _slowest(cb001, 12)  # W8-W10: 0.2-1.8 s each
    with _one_worker_cluster() as cluster, distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream:
            rows = rate_records_on_cluster(read_puzzles(puzzles), client, ("W",))
            first = next(rows)
            cluster.scale(2)
            rest = list(rows)
        tasks = [task for task in stream.data if "rate_chunk" in str(task.get("key"))]
    assert [row.puzzle for row in [first, *rest]] == puzzles
    assert len(tasks) >= len(puzzles) // 2, [len(task) for task in tasks]
    assert len({task["worker"] for task in tasks}) == 2, "the worker that joined rated nothing"


def test_dask_an_interrupted_run_stops_its_ratings_on_the_cluster(cb001):
    """A run interrupted (its client gone, as on Ctrl-C) stops the ratings of its running task, as a
    local run kills its workers: dask does not stop a running task, which went on with the rest of
    its records (a hard puzzle for minutes) and kept the dask worker thread from the next run."""
    distributed = pytest.importorskip("distributed")
    from sudorules.batch.distributed import ClusterError, rate_records_on_cluster
    from sudorules.reader import read_puzzles

    puzzles = _slowest(cb001, 5)  # 5-6 s of rating, in one task

    def executing(dask_worker):
        return len(dask_worker.state.executing)

    with _one_worker_cluster() as cluster, distributed.Client(cluster) as observer:
        user = distributed.Client(cluster.scheduler_address)
        rows = rate_records_on_cluster(read_puzzles(puzzles), user, ("W",), chunk_size=5)
        ended: list = []

        def consume() -> None:  # its client goes: how the generator then ends is dask's timing
            try:         # (a ClusterError, or nothing yet when the test ends); kept out of the
                list(rows)  # thread's default handler, which pytest reports as a warning
            except (ClusterError, Exception) as error:  # noqa: BLE001
                ended.append(error)

        runner = threading.Thread(target=consume, daemon=True)
        runner.start()
        [pid] = observer.run(os.getpid).values()
        _rating_process(pid)
        time.sleep(0.5)
        assert list(observer.run(executing).values()) == [1]
        user.close()  # the interruption: its futures released
        stopped = time.monotonic() + 3
        while list(observer.run(executing).values()) != [0] and time.monotonic() < stopped:
            time.sleep(0.1)
        assert list(observer.run(executing).values()) == [0], "the task still runs"
        runner.join(30)
        assert all(isinstance(error, ClusterError) for error in ended), ended


def test_dask_an_address_that_never_answers_is_one_line_before_any_output(tmp_path, monkeypatch):
    """A --scheduler port that accepts connections and never answers (an HTTP server, the dashboard's
    port): one line within the connection's time, status 1, and no output file (it hung for ever)."""
    pytest.importorskip("distributed")
    import socket
    from sudorules.batch import distributed as ours

    monkeypatch.setattr(ours, "CONNECT_SECONDS", 1)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(NO_SOLUTION + "\n")
    outcome = {}

    def run():
        try:
            rate_file(str(source), str(out), RateOptions(progress=False,
                                                         scheduler=f"tcp://127.0.0.1:{server.getsockname()[1]}"))
        except BaseException as error:  # noqa: BLE001
            outcome["error"] = error

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(15)
    server.close()
    assert not runner.is_alive(), "still waiting after 15 s"
    error = outcome.get("error")
    assert isinstance(error, ours.ClusterError) and error.exit_code == 1, repr(error)
    assert "accepts connections, but no dask scheduler answered within 1 s" in str(error), error
    assert not out.exists()


def test_dask_an_unreachable_scheduler_makes_no_output(tmp_path, monkeypatch):
    """The scheduler is reached before the output is made: an unreachable one left an output holding
    its header only (a Parquet output, its side CSV)."""
    pytest.importorskip("distributed")
    import socket
    from sudorules.batch import distributed as ours

    monkeypatch.setattr(ours, "CONNECT_SECONDS", 1)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    source = tmp_path / "in.txt"
    source.write_text(NO_SOLUTION + "\n")
    names = ["out.csv"] + (["out.parquet"] if _has("pyarrow") else [])
    for name in names:
        with pytest.raises(ours.ClusterError, match=f"cannot reach the dask scheduler at tcp://127.0.0.1:{port}"):
            rate_file(str(source), str(tmp_path / name),
                      RateOptions(progress=False, scheduler=f"tcp://127.0.0.1:{port}"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_dask_a_worker_or_nanny_address_is_refused_by_name(tmp_path):
    """--scheduler given a dask worker's or nanny's address: one line saying so, status 2, no output
    (it was "internal error: TypeError: Worker.identity() got an unexpected keyword argument")."""
    pytest.importorskip("distributed")
    from sudorules.errors import SudorulesError

    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(NO_SOLUTION + "\n")
    with _one_worker_cluster() as cluster:
        [nanny] = cluster.workers.values()
        for address, said in ((nanny.worker_address, f"is a dask worker, not a scheduler: give its scheduler's "
                                                     f"address ({cluster.scheduler_address})"),
                              (nanny.address, "is a dask nanny (it starts a dask worker), not a scheduler")):
            with pytest.raises(SudorulesError) as caught:
                rate_file(str(source), str(out), RateOptions(progress=False, scheduler=address))
            assert caught.value.exit_code == 2 and said in str(caught.value), caught.value
    assert not out.exists()


def test_dask_jobs_with_a_scheduler_is_refused():
    """jobs is for local worker processes: with a scheduler it was silently ignored."""
    from sudorules.errors import OptionError

    with pytest.raises(OptionError, match="jobs is for local worker processes, not with a scheduler"):
        RateOptions(jobs=2, scheduler="tcp://127.0.0.1:8786")


def test_a_parquet_resume_refused_leaves_no_side_csv(tmp_path):
    """A Parquet output resumed with another input is refused (status 2) and leaves nothing behind:
    the CSV made from it to resume (out.parquet.partial.csv) stayed."""
    pytest.importorskip("pyarrow")
    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    first, other, out = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "out.parquet"
    first.write_text("\n".join(demo[:2]) + "\n")
    other.write_text("\n".join(demo[2:4]) + "\n")
    rate_file(str(first), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    before = out.read_bytes()
    with pytest.raises(BatchError, match="another input"):
        rate_file(str(other), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "out.parquet"]
    assert out.read_bytes() == before


def _has(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_a_worker_over_its_memory_limit_gives_a_memory_row_and_the_batch_goes_on(cb001, tmp_path):
    ratings = [int(v) for v in (cb001 / "W-ratings.txt").read_text().split()]
    lines = (cb001 / "puzzles.txt").read_text().splitlines()
    hardest = lines[max(range(len(ratings)), key=ratings.__getitem__)].split()[0]
    easy = _published(cb001, 0, 1)[0][0]
    source = tmp_path / "in.txt"
    source.write_text(f"{hardest}\n{easy}\n")
    out = tmp_path / "out.csv"
    # 16 MiB past the loaded worker: the hardest W puzzle (line 12301, W10) grows its process by about
    # 100 MiB (/usr/bin/time, `solve --theory W`), a W0 puzzle by almost nothing.  (It used to fit no
    # more in 64 MiB; since whip searches by length after each step, it does.)  Run as a user runs it,
    # in a process of its own: a worker forked from this test process inherits its heap, whose free
    # space the kernel's cap on address space does not see being reused (the row came out solved
    # once in a full parallel run).
    # With B after W: the error names the rating that ran out ("worker exited ... under its memory
    # limit" of a W,B row did not say which) and the one not rated.
    done = subprocess.run([sys.executable, "-m", "sudorules", "rate", str(source), "--rating", "W,B", "--jobs", "1",
                           "--memory-limit", "16", "-o", str(out), "--no-progress"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    header, *rows = _rows(out)
    rows = [dict(zip(header, row)) for row in rows]
    assert [r["puzzle"] for r in rows] == [hardest, easy]
    assert rows[0]["status"] == "memory" and rows[0]["W"] == "" and float(rows[0]["seconds"]) > 0  # the time it ran
    assert rows[0]["error"].startswith("W: ") and rows[0]["error"].endswith("; B not rated"), rows[0]
    assert "memory limit" in rows[0]["error"], rows[0]
    assert rows[1]["status"] == "solved" and rows[1]["W"] == "0"
    # CLIPS says "[MEMORY1] Out of memory." before its worker exits: the row says it already
    assert "Out of memory" not in done.stderr, done.stderr


def test_retry_rates_failed_rows_again_in_place_and_resumes_from_its_side_file(cb001, tmp_path):
    """Rows that timed out are rated again with a longer limit and replace the old rows in place;
    a retry interrupted after some rows keeps them (side file) and rates only the others."""
    from sudorules.cli import main as cli
    from click.testing import CliRunner

    lines = (cb001 / "puzzles.txt").read_text().splitlines()
    ws = [int(v) for v in (cb001 / "W-ratings.txt").read_text().split()]
    # W9 puzzles: about a second or more on any machine (W6 ones came within 0.05 s on a fast one)
    hard_lines = [i for i in range(len(ws)) if ws[i] == 9][:2]
    hard = [lines[i].split()[0] for i in hard_lines]
    easy = [p for p, _, _ in _published(cb001, 0, 3)]
    source = tmp_path / "in.txt"
    source.write_text("\n".join([easy[0], hard[0], easy[1], hard[1], easy[2]]) + "\n")
    out = tmp_path / "out.csv"
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, time_limit=0.1, progress=False))
    before = _rows(out)
    assert [r[3] for r in before[1:]] == ["solved", "timeout", "solved", "timeout", "solved"]

    # An interrupted retry left the new row of line 2 in the side file: it is kept, not re-rated.
    side = Path(str(out) + ".retry.csv")
    side.write_text("row," + ",".join(before[0]) + "\n" + f"1,{hard[0]},99,6,solved,1.000,\n")
    result = CliRunner().invoke(cli, ["rate", str(source), "-o", str(out), "--retry", "timeout",
                                      "--jobs", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    after = _rows(out)
    assert not side.exists()
    assert len(after) == len(before) and [r[0] for r in after] == [r[0] for r in before]
    assert after[2][1:4] == ["99", "6", "solved"]  # taken from the side file
    assert after[4][2:4] == [str(ws[hard_lines[1]]), "solved"] and float(after[4][4]) > 0.1  # rated again
    for i in (1, 3, 5):  # the solved rows are untouched
        assert after[i] == before[i]
    assert "rated 1 puzzle in" in result.output and "2 earlier rows replaced" in result.output


def test_an_output_that_is_not_ours_is_refused_and_left_intact(tmp_path):
    """Resuming reads the existing -o file: one that is not a rate output (no newline at all, bytes
    that are not UTF-8, a bare CR in a field) is refused with one line and not truncated."""
    source = tmp_path / "in.txt"
    source.write_text("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........\n")
    for content in (b"\xff\xfe7\x00", b"some notes", b"puzzle,clues,W,status,seconds,error\nab\rc,1\n"):
        out = tmp_path / "out.csv"
        out.write_bytes(content)
        with pytest.raises(BatchError):
            rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1))
        assert out.read_bytes() == content
    header = b"puzzle,clues,W,status,seconds,tail,error"
    out.write_bytes(header + b"\r\n")  # our columns, converted to CRLF: said so, not "expected" the same
    with pytest.raises(BatchError, match="Windows line ends"):
        rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1))
    assert out.read_bytes() == header + b"\r\n"
    out.write_bytes(header)  # the header's write cut before its newline: written again, then the row
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    assert out.read_bytes().split(b"\n")[0] == header and out.read_bytes().count(b"\n") == 2


def test_a_row_rates_w_and_b_first_and_gives_them_to_b_and_gb_as_bounds(monkeypatch):
    """In a row, W and B are rated before B and gB whatever the order asked (Rater, UPPER_BOUNDS):
    B gets W as its upper bound, gB the smaller of B and W; the values are those of each rating alone
    and the columns keep the order asked."""
    from sudorules import Puzzle, generate_puzzles
    from sudorules.batch.rating import Rater
    from sudorules.engine import te
    from sudorules.reader import PuzzleRecord

    calls = []
    rate_braids = te.rate_braids

    def recording(puzzle, **kwargs):
        calls.append((kwargs["g"], kwargs.get("upper")))
        return rate_braids(puzzle, **kwargs)

    monkeypatch.setattr(te, "rate_braids", recording)
    rater, alone = Rater(("gB", "B", "W")), {name: Rater((name,)) for name in ("gB", "B", "W")}
    for n, text in enumerate(generate_puzzles("controlled-bias", 3, seed=61)["puzzle"]):
        record = PuzzleRecord(n + 1, text, Puzzle.from_string(text))
        calls.clear()
        row = rater.rate(record)
        assert row.status == "solved"
        w, b = row.ratings["W"], row.ratings["B"]
        assert calls == [(False, w), (True, min(b, w))]
        for name, single in alone.items():
            assert single.rate(record).ratings[name] == row.ratings[name], (text, name)
        assert row.values(("gB", "B", "W"))[2:5] == [str(row.ratings[r]) for r in ("gB", "B", "W")]



def test_the_record_count_is_the_records_of_a_mixed_file(tmp_path):
    """The count behind the progress bar and "interrupted after N of M rows": every record as the
    reader makes them, short invalid lines, comments, borders and a multi-line grid included (lines
    of 81 characters only were counted: "54 of 210 rows" of an input of 212)."""
    from sudorules.reader import count_records
    from sudorules.reader import read_puzzle_file

    easy = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
    grid = ["+-------+", *(" ".join(easy[9 * r: 9 * r + 9]) for r in range(9)), "+-------+"]
    lines = [easy, "garbage", "123", "# a comment", "", easy + " tail", *grid,
             " ".join(easy[9 * r: 9 * r + 9] for r in range(9)), "=1+2", easy]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    assert count_records(str(path)) == sum(1 for _ in read_puzzle_file(str(path))) == 8


def test_a_rating_by_rules_that_stops_says_which_and_why():
    """A W (or theory) rating that did not end in a solution names itself and the reason in the row's
    error cell: the row's status alone (timeout, not-solved) did not say which rating stopped."""
    from sudorules import Puzzle, generate_puzzles
    from sudorules.batch.rating import Rater
    from sudorules.reader import PuzzleRecord

    rater = Rater(("W",))
    hard = max(generate_puzzles("controlled-bias", 8, seed=7)["puzzle"],
               key=lambda text: rater.rate(PuzzleRecord(1, text, Puzzle.from_string(text))).ratings["W"])
    record = PuzzleRecord(1, hard, Puzzle.from_string(hard))
    row = Rater(("B", "W", "BC"), max_length=2).rate(record)
    assert row.status == "not-solved"
    assert "W: whips of length <= 2 do not solve it" in row.error and "BC: the rules of BC do not solve it" in row.error
    assert not row.error.startswith("B:") or "braids of length <= 2" in row.error


def test_whips_and_g_whips_keep_a_max_length_below_their_confluent_start():
    """W and gW start from the compiled closure of whips <= 2 (g-whips <= 3); with --max-length 1 it
    closed at 2 all the same, and gave W = 2 in the row whose B said braids of length <= 1 do not
    solve it (W >= B).  At every limit below a puzzle's rating the rating is now empty, as B's and
    gB's, which the closure's confluence makes the same verdicts (W <= 2: W = B; gW <= 3: gW = gB)."""
    from conftest import TOP_DOWN_14
    from sudorules import Puzzle
    from sudorules.batch.rating import Rater
    from sudorules.reader import PuzzleRecord

    seen = set()
    up_to_4 = Rater(("W", "gW"), max_length=4)
    limited = {limit: Rater(("W", "B", "gW", "gB"), max_length=limit) for limit in (1, 2, 3)}
    for text in TOP_DOWN_14:  # generated puzzles (conftest), W 0-4
        record = PuzzleRecord(1, text, Puzzle.from_string(text))
        full = up_to_4.rate(record).ratings  # None: above 4
        for limit in (1, 2, 3):
            row = limited[limit].rate(record)
            for whips, braids in (("W", "B"), ("gW", "gB")):
                within = full[whips] is not None and full[whips] <= limit
                expected = full[whips] if within else None
                assert row.ratings[whips] == expected, (text, limit, whips, row.ratings, full)
                if within or (full[whips] or 99) <= {"W": 2, "gW": 3}[whips]:
                    assert row.ratings[braids] == expected, (text, limit, row.ratings)
                seen.add((whips, not within))
    assert {("W", True), ("W", False), ("gW", True), ("gW", False)} <= seen, seen


@pytest.mark.parametrize("name", ["TE1", "te2", "TE3"])
def test_a_t_and_e_theory_is_no_rating_and_is_refused_before_any_work(tmp_path, name):
    """`rate --rating TE1` passed the option check (a theory solve takes), printed the header, then
    failed in its worker (status 1, a file with only a header under -o); the API raised a bare
    ValueError.  It has no number to give: status 2 before any output, the API's OptionError."""
    from click.testing import CliRunner

    import sudorules
    from sudorules.cli import main as cli
    from sudorules.errors import OptionError

    easy = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
    result = CliRunner().invoke(cli, ["rate", easy, "--rating", name, "--jobs", "1", "-o", str(tmp_path / "o.csv")])
    assert result.exit_code == 2 and "not a rating" in result.output and "--rating TE" in result.output, result.output
    assert not (tmp_path / "o.csv").exists()
    with pytest.raises(OptionError, match="not a rating"):
        sudorules.rate([easy], name)


def test_a_classification_rating_of_a_lower_depth_says_why_it_is_empty():
    """`rate --rating BxBB` of a puzzle of depth 2 gave an empty value, status solved and no error: a
    value seemingly lost.  The error cell now says that BxBB does not apply at that depth."""
    from conftest import TOP_DOWN_14
    from sudorules import Puzzle
    from sudorules.batch.rating import Rater
    from sudorules.engine import te
    from sudorules.reader import PuzzleRecord

    rater = Rater(("TE", "B", "BxB", "BxBB"))
    depths = set()
    for text in TOP_DOWN_14[:6]:
        row = rater.rate(PuzzleRecord(1, text, Puzzle.from_string(text)))
        depth = te.classify(Puzzle.from_string(text)).depth
        assert row.status == "solved" and row.ratings["TE"] == depth < 2, (text, row)
        assert row.ratings["BxB"] is None and row.ratings["BxBB"] is None, row
        assert row.error == f"BxB: does not apply: T&E-depth {depth}; BxBB: does not apply: T&E-depth {depth}", row
        depths.add(depth)
    assert depths == {0, 1}, depths


def test_a_resumed_run_exits_as_its_whole_output_does(tmp_path):
    """Exit status 1 when some row is invalid: a second run over a finished output rates nothing, and
    its exit status still says the output holds an invalid row (it said 0)."""
    from click.testing import CliRunner
    from sudorules.cli import main as cli

    source = tmp_path / "in.txt"
    source.write_text("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........\nxx\n")
    out = tmp_path / "out.csv"
    for command in ("rate", "classify"):
        out.unlink(missing_ok=True)
        args = [command, str(source), "--jobs", "1", "-o", str(out), "--no-progress"]
        first, again = CliRunner().invoke(cli, args), CliRunner().invoke(cli, args)
        assert first.exit_code == 1 and "invalid: 1" in first.output
        assert again.exit_code == 1 and "2 already done" in again.output and "earlier rows invalid: 1" in again.output
    source.write_text("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........\n")
    out.unlink()
    args = ["rate", str(source), "--jobs", "1", "-o", str(out), "--no-progress"]
    assert CliRunner().invoke(cli, args).exit_code == 0 and CliRunner().invoke(cli, args).exit_code == 0


def test_a_tail_longer_than_the_csv_modules_field_limit_resumes_and_is_read_back(tmp_path):
    """A line whose tail (or whose invalid text) passes 131,072 characters, the csv module's default
    field limit: rate wrote its row, then refused to resume its own output ("field larger than field
    limit"), and select and stats could not read it (helper-38)."""
    from click.testing import CliRunner
    from sudorules.cli import main as cli

    csv.field_size_limit(131_072)  # as in a fresh process (another test may have raised it)
    grid = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
    long = "c" * 140_000
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(f"{grid} {long}\n{'x' * 200_000}\n{grid} 3\n")
    args = ["rate", str(source), "--rating", "B", "--jobs", "1", "-o", str(out), "--no-progress"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 1 and "invalid: 1" in first.output
    before = out.read_bytes()
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 1 and "3 already done" in again.output, again.output
    assert out.read_bytes() == before
    csv.field_size_limit(131_072)
    chosen = CliRunner().invoke(cli, ["select", str(out), "--where", "B >= 0"])
    assert chosen.exit_code == 0, chosen.output
    assert [row[-2] for row in csv.reader(chosen.stdout.splitlines()[1:])] == [long, "3"]


def test_a_theory_rating_typed_in_another_case_resumes_its_output(tmp_path):
    """``--rating bc,s+w`` then ``--rating BC,S+W`` name the same columns (names are read in any case):
    the second run resumed nothing before (its columns "differed")."""
    from sudorules.batch.rating import canonical_rating

    assert [canonical_rating(name) for name in ("bc", "s+w", "S+W", "Default", "gw")] == ["BC", "S+W", "S+W", "default", "gW"]
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........\n")
    from click.testing import CliRunner
    from sudorules.cli import main as cli

    runs = [CliRunner().invoke(cli, ["rate", str(source), "--rating", names, "--jobs", "1", "-o", str(out)])
            for names in ("bc,s+w", "BC,S+W")]
    assert [run.exit_code for run in runs] == [0, 0] and "1 already done" in runs[1].output
    assert out.read_text().startswith("puzzle,clues,BC,S+W,")


def test_a_resume_under_other_limits_says_which_rows_stopped_at_the_old_ones(tmp_path):
    """The output does not record --max-length or --max-depth: rows that stopped at the old limit
    stayed as they were among rows of the new one, unannounced.  Now the run says so, and how to
    rate them again; a resume under the same limits says nothing."""
    demo = Path(__file__).resolve().parent.parent / "collections" / "demo.txt"
    puzzles = demo.read_text().split()[:6]
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text("\n".join(puzzles[:3]) + "\n")
    first = rate_file(str(source), str(out), RateOptions(ratings=("B",), max_length=1, jobs=1, progress=False))
    stopped = first.statuses.get("not-solved", 0)
    assert stopped  # B 1 leaves most puzzles unsolved
    same = rate_file(str(source), str(out), RateOptions(ratings=("B",), max_length=1, jobs=1, progress=False))
    assert same.notes == []
    source.write_text("\n".join(puzzles) + "\n")
    longer = rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    assert longer.notes == [f"{stopped} earlier row{'s' if stopped > 1 else ''} of the output stopped at other limits "
                            f"(--max-length 1) than this run's: rate {'them' if stopped > 1 else 'it'} again "
                            "with --retry not-solved"]
    retried = rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False, retry=("not-solved",)))
    assert retried.retried == stopped and retried.notes == []
    # a row stopped at a higher limit than the new one is true under it: no note, no --retry advised
    out.unlink()
    source.write_text("..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75\n")  # B 5
    assert rate_file(str(source), str(out), RateOptions(ratings=("B",), max_length=3, jobs=1,
                                                        progress=False)).statuses == {"not-solved": 1}
    assert rate_file(str(source), str(out), RateOptions(ratings=("B",), max_length=2, jobs=1, progress=False)).notes == []


def test_a_resume_under_lower_limits_names_the_rows_rated_above_them(tmp_path):
    """A row solved at B 5 stayed, unannounced, in an output resumed under --max-length 3, where the
    same puzzle is not-solved: a value above a run's limits is told, with its line; a value within
    them (B 5 resumed under 5) is not."""
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text("..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75\n")  # B 5
    first = rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    assert first.statuses == {"solved": 1}
    assert rate_file(str(source), str(out), RateOptions(ratings=("B",), max_length=5, jobs=1, progress=False)).notes == []
    lower = rate_file(str(source), str(out), RateOptions(ratings=("B",), max_length=3, jobs=1, progress=False))
    assert lower.notes == ["1 earlier row of the output holds a value above this run's limits (--max-length 3; "
                           "line 2: B 5): made under higher limits, kept as it is; write to a new output to rate "
                           "every row under these limits"]
    # classify: a T&E-depth above --max-depth
    depth2 = "..34...8.......1.37.....5.42...9....5.71..4...6...7....7...2.....58....19...6...."  # SHC, BxB 2
    source.write_text(f"{depth2}\n")
    out.unlink()
    columns = ("te_depth", "B", "BxB", "BxBB")
    rate_file(str(source), str(out), RateOptions(ratings=columns, jobs=1, progress=False))
    shallow = rate_file(str(source), str(out), RateOptions(ratings=columns, jobs=1, progress=False, max_depth=1))
    assert shallow.notes == ["1 earlier row of the output holds a value above this run's limits (--max-length 36, "
                             "--max-depth 1; line 2: te_depth 2): made under higher limits, kept as it is; write "
                             "to a new output to rate every row under these limits"]


def test_a_resume_notes_only_the_limits_an_option_set(tmp_path):
    """Resuming the same command said that rows "stopped at other limits (--max-length 13)" when they
    had stopped at the time limit (their error names the lengths the closures had reached), and
    "(--max-depth 2)" for BxB's beyond-te2 rows, whose depth 2 no option sets (rate has no
    --max-depth): --retry gave them the same answer and the same note again.  A classify row stopped
    at another --max-depth is still told."""
    depth3 = "1.3.56....571.9...69.37......1.93..75.96.73.....51.......96..........4....5...86."  # SHC, BxBB 2
    depth2 = "..34...8.......1.37.....5.42...9....5.71..4...6...7....7...2.....58....19...6...."  # SHC, BxB 2
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(f"{depth3}\n")
    first = rate_file(str(source), str(out), RateOptions(ratings=("BxB",), jobs=1, progress=False))
    assert first.statuses == {"beyond-te2": 1}
    assert rate_file(str(source), str(out), RateOptions(ratings=("BxB",), jobs=1, progress=False)).notes == []
    # a B row as a run stopped by its clock leaves it (the cells a timeout gives, written in place)
    source.write_text(f"{depth2}\n")
    out.unlink()
    rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    header, row = out.read_text().splitlines()
    cells = dict(zip(header.split(","), row.split(",")))
    assert cells["status"] == "beyond-te1"
    cells.update(B="", status="timeout", error="B: at least 14 (braids of length <= 13 do not solve it)")
    out.write_text(header + "\n" + ",".join(cells.values()) + "\n")
    assert rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False)).notes == []
    # classify: T&E-depth 2 above --max-depth 1, resumed under the default 3
    out.unlink()
    columns = ("te_depth", "B", "BxB", "BxBB")
    shallow = rate_file(str(source), str(out), RateOptions(ratings=columns, jobs=1, progress=False, max_depth=1))
    assert shallow.statuses == {"beyond-te1": 1}
    deeper = rate_file(str(source), str(out), RateOptions(ratings=columns, jobs=1, progress=False))
    assert deeper.notes == ["1 earlier row of the output stopped at other limits (--max-depth 1) than this run's: "
                            "classify it again with --retry beyond-te1"]  # classify's columns, its verb


def test_a_retry_side_file_of_another_input_is_not_taken_for_this_one(tmp_path):
    """A retry killed on one input left OUT.retry.csv; a later retry into a new output of that name
    took its rows by index: every row replaced by another puzzle's, status 0.  Now they are checked
    against the output's puzzles and tails, and a side file of another run is removed."""
    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("\n".join(demo[:3]) + "\n")
    second.write_text("\n".join(demo[3:6]) + "\n")
    out = tmp_path / "out.csv"
    rate_file(str(first), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    rows = out.read_text().splitlines()
    (tmp_path / "out.csv.retry.csv").write_text(  # what a killed retry of first.txt left
        "row," + rows[0] + "\n" + "".join(f"{i},{row}\n" for i, row in enumerate(rows[1:])))
    out.unlink()
    rate_file(str(second), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    out.write_text(out.read_text().replace(",solved,", ",timeout,"))
    retried = rate_file(str(second), str(out), RateOptions(ratings=("W",), jobs=1, progress=False, retry=("timeout",)))
    assert [row.split(",")[0] for row in out.read_text().splitlines()[1:]] == demo[3:6]
    assert retried.retried == 3 and "left by a retry of another input" in retried.notes[0]
    assert not (tmp_path / "out.csv.retry.csv").exists()


def test_a_retry_of_other_statuses_keeps_the_rows_an_interrupted_retry_left(tmp_path):
    """``--retry timeout`` interrupted after some rows left them in OUT.retry.csv; a ``--retry
    memory`` then removed that file and its rows, saying nothing (helper-47).  They are written into
    the output, with a note."""
    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    source = tmp_path / "in.txt"
    source.write_text("\n".join(demo[:4]) + "\n")
    out = tmp_path / "out.csv"
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    rows = out.read_text().splitlines()
    timed_out = [row.replace(",solved,", ",timeout,") if i in (1, 3) else row for i, row in enumerate(rows)]
    out.write_text("\n".join(timed_out) + "\n")
    side = tmp_path / "out.csv.retry.csv"
    side.write_text("row," + rows[0] + "\n" + f"0,{rows[1]}\n")  # the interrupted retry rated row 1 again
    retried = rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False, retry=("memory",)))
    after = out.read_text().splitlines()
    assert after[1] == rows[1] and after[3] == timed_out[3] and after[2] == rows[2], after
    assert retried.retried == 1 and any("earlier --retry that was interrupted" in n for n in retried.notes)
    assert not side.exists()


def test_a_retry_whose_side_file_name_is_too_long_says_so(tmp_path):
    """``--retry`` with a -o name of 250 characters: its side file's name (".retry.csv" more) was an
    internal error (OSError: File name too long)."""
    from sudorules.batch.runner import BatchError

    source = tmp_path / "in.txt"
    source.write_text("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........\n")
    out = tmp_path / ("x" * 246 + ".csv")
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    out.write_text(out.read_text().replace(",solved,", ",timeout,"))
    with pytest.raises(BatchError, match="the side file of --retry"):
        rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False, retry=("timeout",)))


def test_a_resume_says_which_earlier_rows_a_limit_stopped_and_how_to_rate_them_again(tmp_path):
    """A resume with a longer --time-limit said only "1 already done" and kept the earlier timeout
    rows among the new ones; it now names them and the --retry that rates them again."""
    from click.testing import CliRunner
    from sudorules.cli import main as cli

    w11 = "12......9..71...........41..7...5..4....6...259.2....8..2.9...383.7..6......31.2."
    (tmp_path / "in.txt").write_text(w11 + "\n")
    out = str(tmp_path / "out.csv")
    first = CliRunner().invoke(cli, ["rate", str(tmp_path / "in.txt"), "--time-limit", "0.1", "-o", out, "--jobs", "1"])
    assert first.exit_code == 0 and ",timeout," in (tmp_path / "out.csv").read_text(), first.output
    again = CliRunner().invoke(cli, ["rate", str(tmp_path / "in.txt"), "--time-limit", "60", "-o", out, "--jobs", "1"])
    assert again.exit_code == 0, again.output
    assert f"note: {out} holds earlier rows timeout: 1, kept as they were: --retry timeout rates them again" \
        in again.output, again.output
    retried = CliRunner().invoke(cli, ["rate", str(tmp_path / "in.txt"), "--time-limit", "60", "-o", out,
                                       "--jobs", "1", "--retry", "timeout"])
    assert retried.exit_code == 0 and "note:" not in retried.output, retried.output
    assert ",11,solved," in (tmp_path / "out.csv").read_text()


def test_a_resume_reads_the_rows_done_one_at_a_time(tmp_path, monkeypatch):
    """A resume held every row already done as a list (600,000 rows: 626 MB before its first new row);
    they are now read from the file as they are checked against the input, so no list of them is
    made (completed_rows, which makes one, is only for --retry), and the output is the same."""
    from sudorules.batch import runner

    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()[:8]
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text("\n".join(demo) + "\n")
    whole = tmp_path / "whole.csv"
    rate_file(str(source), str(whole), RateOptions(ratings=("B",), jobs=1, progress=False))
    lines = whole.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + lines[5][:30])  # 4 rows done, a fifth cut short
    monkeypatch.setattr(runner, "completed_rows", lambda *args: pytest.fail("the rows done were held as a list"))
    resumed = rate_file(str(source), str(out), RateOptions(ratings=("B",), jobs=1, progress=False))
    assert resumed.skipped == 4 and resumed.rated == 4 and resumed.earlier == {"solved": 4}
    assert _without_seconds(_rows(out)) == _without_seconds(_rows(whole))


def test_an_interrupt_while_the_earlier_rows_are_read_says_they_are_kept(tmp_path, monkeypatch):
    """Stopped while it read the 200,000 rows already in its output, a resume said "interrupted after
    0 rows", as if the file were empty (helper-44); it says the rows are being read and kept."""
    from click.testing import CliRunner

    from sudorules.batch import runner
    from sudorules.cli import main as cli
    from sudorules.errors import Interrupted

    easy = "..3....8..5.78.1....91....52.......6..7....3.6...1.......2..9....16..3..9725...1."
    source, out = tmp_path / "in.txt", tmp_path / "out.csv"
    source.write_text(f"{easy}\n{easy}\n")
    rate_file(str(source), str(out), RateOptions(ratings=("W",), jobs=1, progress=False))
    before = out.read_text()

    def stopped(*args, **kwargs):
        raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr(runner, "_earlier_rows", stopped)
    result = CliRunner().invoke(cli, ["rate", str(source), "-o", str(out), "--jobs", "1", "--no-progress"])
    assert result.exit_code == 143
    assert f"interrupted while reading the rows already in {out}, which are kept" in result.output, result.output
    assert "after 0 rows" not in result.output and out.read_text() == before


def test_a_retry_does_not_call_the_rows_it_rated_again_earlier_rows_kept(tmp_path):
    """``--retry invalid`` (or memory) said "OUT holds earlier rows invalid: 1" of the row it had just
    rated again (helper-51): the earlier rows' statuses were read after the retry rewrote them."""
    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    (tmp_path / "in.txt").write_text(f"{demo[0]}\n{'11' + demo[1][2:]}\n")
    first = subprocess.run([sys.executable, "-m", "sudorules", "rate", "in.txt", "--rating", "W", "-o", "out.csv",
                            "--no-progress"], cwd=tmp_path, capture_output=True, text=True)
    assert first.returncode == 1
    again = subprocess.run([sys.executable, "-m", "sudorules", "rate", "in.txt", "--rating", "W", "-o", "out.csv",
                            "--no-progress", "--retry", "invalid"], cwd=tmp_path, capture_output=True, text=True)
    assert again.returncode == 1 and "1 earlier row replaced; 1 already done" in again.stderr, again.stderr
    assert "holds earlier rows" not in again.stderr, again.stderr
