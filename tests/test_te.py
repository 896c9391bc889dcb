"""The compiled T&E engine (generator/te.c, sudorules/engine/te.py): the B and gB ratings, the
T&E-depth classification with B, BxB and BxBB, T&E paths and their verification, classify and the
new ratings of rate.

Without ../shared: a small sample of SHC's example sets (their published values beside each puzzle,
F. Cordoliani's SHC, CSP-Rules XTERNS/SHC/examples, GPL data), generated puzzles rated by the rules
and by the compiled engine, and a plain-Python T&E (tests/reference_te.py).  With ../shared: SHC's
four example sets and the published B and gB of cb-001, a stratified sample by default, all of it
under ``-m slow``.
"""

from __future__ import annotations

import csv
import io
import random
import subprocess
import sys
from collections import defaultdict

import pytest

from sudorules import Puzzle, PuzzleError, core
from sudorules.engine import te
from sudorules.engine.solver import Solver
from sudorules.enums import Status
from sudorules import generate_puzzles
from sudorules.resolution.notation import read_path
from sudorules.resolution.path import format_path
from sudorules.resolution.steps import Resolution
from sudorules.resolution.verify import check_te, replay

from conftest import ORACLE
from reference_te import te_solves

SHC = ORACLE / "shc-examples"

#: (puzzle, classification, published value) from SHC's example sets: TE-input (T&E-depth),
#: B-input (B), BxB-input (BxB), BxBB-input (BxBB); their expected outputs as shipped with SHC
SHC_SAMPLE = [
    ("...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361", "TE", 0),
    (".23....8.......12.7.91.........97.46...3....29..6......6.9..5.457.....98.....4...", "TE", 1),
    ("...45...........23..91.34...1...753.....1.8..6.5.......723...48.6......7.3.5.8...", "TE", 1),
    (".2..5..8...71.....6....3...2.16.....3....7....7..2.5........84.7.....92..9..4...5", "TE", 2),
    (".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.", "B", 3),
    ("..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75", "B", 5),
    ("..34...8.......1.37.....5.42...9....5.71..4...6...7....7...2.....58....19...6....", "BxB", 2),
    ("...4..78......92..6...7...1.6..1...53..........5..84...3.....2.71.9.......6.3...7", "BxB", 3),
    ("...4...89..7..92......3...526...1.....19.....7.....1..5...9..4...6..29.....8....3", "BxB", 4),
    ("1.3.56....571.9...69.37......1.93..75.96.73.....51.......96..........4....5...86.", "BxBB", 2),
]
DEPTH_OF = {"B": 1, "BxB": 2, "BxBB": 3}


def _puzzle(text: str) -> Puzzle:
    return Puzzle.from_string(text)


def _solution(puzzle: Puzzle) -> list[int]:
    count, solution = core.solution_status(puzzle)
    assert count == 1
    return list(solution)


@pytest.mark.parametrize("text, kind, published", SHC_SAMPLE)
def test_classification_equals_shc_on_its_examples(text, kind, published):
    puzzle = _puzzle(text)
    found = te.classify(puzzle, solution=_solution(puzzle))
    assert found.status is Status.SOLVED
    if kind == "TE":
        assert found.depth == published
    else:
        assert (found.depth, found.value) == (DEPTH_OF[kind], published)
        assert found.columns()[kind] == published
    # without the solution (it only spares work at depth 0), the same answer
    assert te.classify(puzzle) == found


def test_te1_agrees_with_a_plain_python_t_and_e():
    """Depth 0 and 1 puzzles are solved by the reference T&E(1); a depth-2 puzzle is not (and its
    T&E(2) is checked below by verifying its path)."""
    for text, kind, published in SHC_SAMPLE:
        depth = published if kind == "TE" else DEPTH_OF[kind]
        if depth > 2 or (depth == 2 and kind != "TE"):
            continue
        puzzle = _puzzle(text)
        assert te_solves(puzzle, 1) == (depth <= 1), text
        assert te.in_te1(puzzle) == (depth <= 1)


def _generated(n: int, seed: int) -> list[Puzzle]:
    return [Puzzle.from_string(p) for p in generate_puzzles("controlled-bias", n, seed=seed)["puzzle"]]


def _rules_against_compiled(puzzles: list[Puzzle], theories: tuple[str, ...]) -> None:
    solver = Solver()
    for puzzle in puzzles:
        solution = _solution(puzzle)
        for theory in theories:
            rules = solver.solve(puzzle, theory, solution=solution)
            compiled = te.rate_braids(puzzle, g=theory == "gB", solution=solution)
            assert compiled.status is Status.SOLVED
            assert compiled.value == rules.rating, (str(puzzle), theory)


def test_compiled_b_and_gb_equal_the_rules_on_generated_puzzles():
    puzzles = _generated(6, seed=41)
    _rules_against_compiled(puzzles, ("B",))
    _rules_against_compiled(puzzles[:2], ("gB",))


@pytest.mark.slow
def test_compiled_b_and_gb_equal_the_rules_on_more_generated_puzzles():
    _rules_against_compiled(_generated(40, seed=43), ("B", "gB"))


#: the W11 puzzle of issue 23: its gB ends with long failing g-braid searches at lengths 9-10
W11 = "12......9..71...........41..7...5..4....6...259.2....8..2.9...383.7..6......31.2."


#: Magictour top1465 #182 (W22 in SudoRules' published examples): B = 16; its gB was first found here by a
#: search without the failed-subset cuts of trial.c, 16 in 3,979 CPU-s, and is now a few seconds
TOP1465_182 = "......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3"


@pytest.mark.slow
def test_the_deepest_g_braid_closure_met_ends_with_the_same_gb():
    """top1465 #182's gB is the proof that g-braids of length <= 15 leave it unsolved (millions of
    partial g-braids at lengths 14-15): with the failed-subset cuts (trial.c) it ends within two
    minutes and equals what the search without them found in an hour, and that braids of length
    <= 16 solve it (B); no bound is given, so its passes at 16 must solve it too (a wrong cut could
    only leave targets uneliminated)."""
    puzzle = _puzzle(TOP1465_182)
    solution = _solution(puzzle)
    b = te.rate_braids(puzzle, solution=solution)
    assert b.status is Status.SOLVED
    assert te.rate_braids(puzzle, g=True, solution=solution, time_limit=120) == te.Rating(b.value, Status.SOLVED)
    assert te.rate_braids(puzzle, g=True, solution=solution, max_length=b.value - 1,
                          time_limit=120).status is Status.NOT_SOLVED


@pytest.mark.parametrize("cap", [1, 7, 300])
def test_searches_put_off_change_no_value(cap):
    """A closure puts off a braid search past its cap and closes each length in full later (te.c
    close_theory): with caps of a few nodes, nearly every search is put off and taken up again, and
    every B, gB and BxB value is the engine's default one."""
    cases = [(p, "B", g) for p in _generated(4, seed=47) + [_puzzle(W11)] for g in (False, True)]
    cases += [(_puzzle(SHC_SAMPLE[7][0]), "BxB", False), (_puzzle(SHC_SAMPLE[5][0]), "B", True)]
    searches = [0, 0]
    for puzzle, task, g in cases:
        solution = _solution(puzzle)
        default = te._run(puzzle, task, g=g, solution=solution)
        capped = te._run(puzzle, task, g=g, solution=solution, search_cap=cap)
        assert default["outcome"] == "solved"
        assert (capped["outcome"], capped["value"]) == ("solved", default["value"]), (str(puzzle), task, g)
        searches[0] += default["searches"]
        searches[1] += capped["searches"]
    if cap < 10:  # the put-off searches were made again
        assert searches[1] > searches[0]


def test_b_task_checks_the_depth_only_when_short_braids_do_not_solve():
    """The B (gB) task rates with braids of up to 6 cells first and checks the T&E-depth only when
    they do not solve the puzzle (te.c te_rate_first): its depth is the T&E task's, below and above
    6 and outside T&E(1), and a puzzle outside T&E(1) is still told (beyond-te1), not searched."""
    puzzles = _generated(8, seed=53) + [_puzzle(W11), _puzzle(SHC_SAMPLE[7][0])]
    seen = set()
    for puzzle in puzzles:
        solution = _solution(puzzle)
        for g in (False, True):
            rated = te._run(puzzle, "B", g=g, solution=solution)
            depth = te._run(puzzle, "TE", g=g, depth_limit=1, solution=solution)["depth"]
            assert rated["depth"] == depth, (str(puzzle), g)
            seen.add((depth, rated["value"] > 6 if depth >= 0 else None))
    assert {(0, False), (1, False), (1, True), (-1, None)} <= seen, seen
    assert te.rate_braids(_puzzle(SHC_SAMPLE[7][0])).status is Status.BEYOND_TE1


def test_an_upper_bound_ends_the_rating_one_length_sooner():
    """A rating known to bound B or gB from above (gB <= B <= W: te.rate_braids' ``upper``) ends the
    closure once the length below it is stuck: the same values, fewer searches where the bound is the
    rating (the searches of its length are not made), none saved where it is above, and no T&E-depth
    check (the bound puts the puzzle in T&E(1)); a bound that is not a rating is refused."""
    puzzles = _generated(6, seed=59) + [_puzzle(W11)]
    saved = 0
    for puzzle in puzzles:
        solution = _solution(puzzle)
        b = te.rate_braids(puzzle, solution=solution)
        for g in (False, True):
            alone = te._run(puzzle, "B", g=g, solution=solution)
            bounded = te._run(puzzle, "B", g=g, solution=solution, upper=b.value)
            assert (bounded["outcome"], bounded["value"], bounded["depth"]) == ("solved", alone["value"],
                                                                                 alone["depth"]), (str(puzzle), g)
            assert bounded["searches"] <= alone["searches"]
            if b.value > 6:  # past braids of 6 cells, the T&E-depth check is not needed either
                assert bounded["hypotheses"] == 0 < alone["hypotheses"]
            saved += alone["searches"] - bounded["searches"]
            above = te._run(puzzle, "B", g=g, solution=solution, upper=b.value + 1)
            assert (above["value"], above["depth"]) == (alone["value"], alone["depth"])
            if b.value <= 6:  # solved before the bound and before any depth check: nothing saved
                assert above["searches"] == alone["searches"]
            else:
                assert above["hypotheses"] == 0 < alone["hypotheses"] and above["searches"] <= alone["searches"]
            assert te.rate_braids(puzzle, g=g, solution=solution, upper=b.value) == te.Rating(alone["value"],
                                                                                              Status.SOLVED)
    assert saved > 0
    puzzle = _puzzle(W11)
    for bad in (-1, 82, 2.5):
        with pytest.raises(ValueError):
            te.rate_braids(puzzle, upper=bad)
    with pytest.raises(ValueError):  # a path must find every step: no bound there
        te._run(puzzle, "B", trace=True, upper=11)


#: Magictour top1465 #182 (W22): B = 16 in a tenth of a second, its gB not found in minutes (its
#: g-braid pass at length 13 searches millions of partial g-braids: docs/engine.md)
TOP1465_182 = "......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3"


def test_a_stopped_rating_tells_the_lengths_that_do_not_solve_it():
    """A B or gB rating stopped by its time limit says which lengths were closed without solving the
    puzzle: a lower bound, checked by rating with that many cells at most (not solved); and gB, its B
    as an upper bound (B takes a tenth of a second here, half the limit is given to it; the whole gB
    about 1.8 s on this machine: 0.6 s leaves a margin of three both ways)."""
    puzzle = _puzzle(TOP1465_182)
    solution = _solution(puzzle)
    b = te.rate_braids(puzzle, solution=solution)
    assert b.status is Status.SOLVED
    # the limits from short to long: on a loaded machine B may miss half of the shortest (a CI run
    # beside other work: "at least 13" alone), and a longer one may let gB end on a fast machine
    for limit in (0.3, 0.6, 1.2, 2.4):
        stopped = te.rate_braids(puzzle, g=True, solution=solution, time_limit=limit)
        if stopped.status is not Status.TIMEOUT or "at most" in stopped.error:
            break
    assert stopped.status is Status.TIMEOUT and stopped.value is None, (limit, stopped)
    bound = int(stopped.error.split()[2])
    assert stopped.error == (f"at least {bound} and at most {b.value} (g-braids of length <= {bound - 1} do not "
                             f"solve it; braids of length <= {b.value} do)")
    assert 2 <= bound <= b.value
    stopped_b = te.rate_braids(puzzle, solution=solution, time_limit=0.005)  # B: a lower bound only
    assert stopped_b.status is Status.TIMEOUT and "at most" not in stopped_b.error
    shorter = te.rate_braids(puzzle, g=True, max_length=bound - 1, solution=solution)
    assert shorter.status is Status.NOT_SOLVED


def test_a_path_with_searches_put_off_verifies():
    """A path (a trace) with nearly every braid search of its contexts put off and taken up again: the
    same BxB value, and every step re-verifies down to the solution."""
    puzzle = _puzzle(SHC_SAMPLE[6][0])
    solution = _solution(puzzle)
    answer = te._run(puzzle, "path-BxB", solution=solution, trace=True, state=True, search_cap=1)
    assert (answer["outcome"], answer["value"]) == ("solved", SHC_SAMPLE[6][2])
    assert answer["searches"] > te._run(puzzle, "path-BxB", solution=solution)["searches"]  # some put off
    steps = te.decode_trace(*answer["trace"])
    report = replay(puzzle, steps, solution)
    assert report.ok, report.problems[:1]
    assert report.state.is_solved()


def test_braid_ratings_beyond_t_and_e_1():
    """A T&E(2) puzzle has no B: told at once (beyond-te1), with the reason."""
    puzzle = _puzzle(SHC_SAMPLE[3][0])
    for g in (False, True):
        rating = te.rate_braids(puzzle, g=g)
        assert rating.status is Status.BEYOND_TE1 and rating.value is None
        assert "T&E(1)" in rating.error


def _te_resolution(text: str, theory: str) -> tuple[Puzzle, list[int], Resolution]:
    puzzle = _puzzle(text)
    solution = _solution(puzzle)
    return puzzle, solution, Solver().solve(puzzle, theory, solution=solution)


@pytest.mark.parametrize("text, theory", [(SHC_SAMPLE[8][0], "BxB"), (SHC_SAMPLE[9][0], "BxBB")])
def test_a_t_and_e_path_stopped_by_its_time_limit_ends_before_the_open_context(text, theory):
    """A time limit met inside a context left its hypothesis in the trace with no contradiction
    after it: `solve --theory BxB --time-limit 0.3` (and the API) ended in an internal IndexError,
    whatever the limit, on these puzzles as on SHC's BxB = 14 example.  The path now ends before the
    open context: a timeout, and what it holds re-verifies."""
    puzzle = _puzzle(text)
    solution = _solution(puzzle)
    for limit in (0.001, 0.005, 0.02, 0.05):
        resolution = Solver().solve(puzzle, theory, solution=solution, time_limit=limit)
        assert resolution.status is Status.TIMEOUT, (theory, limit)
        report = replay(puzzle, resolution.steps, solution)
        assert report.ok and report.steps_checked == len(resolution.steps), (theory, limit, report.problems[:1])


@pytest.mark.parametrize("text, theory, value", [
    (SHC_SAMPLE[1][0], "TE1", 1), (SHC_SAMPLE[3][0], "TE2", 2), (SHC_SAMPLE[6][0], "BxB", 2),
])
def test_t_and_e_paths_verify_and_read_back(text, theory, value):
    puzzle, solution, resolution = _te_resolution(text, theory)
    assert resolution.status == "solved" and resolution.rating == value
    report = replay(puzzle, resolution.steps, solution)
    assert report.ok, report.problems[:1]
    assert report.state.is_solved()
    contexts = [s for s in resolution.steps if s.context is not None]
    assert contexts, "a T&E path eliminates by contexts"
    # the printed path reads back to the same steps, contexts included, and re-verifies
    printed = format_path(resolution, puzzle)
    again_puzzle, again = read_path(printed)
    assert again_puzzle == puzzle
    assert [s.text() for s in again] == [s.text() for s in resolution.steps]
    assert [s.context for s in again] == [s.context for s in resolution.steps]
    assert replay(puzzle, again, solution).ok
    # --brief: one line per T&E step, the same targets
    brief = format_path(resolution, puzzle, brief=True)
    assert "contradiction: no candidate" not in brief
    assert len(brief.splitlines()) < len(printed.splitlines())
    # read back, it has no contexts to check, and the checker says so (it said a variable "still has
    # a value or a candidate" in the context, as if the path were wrong)
    # (the TE1 puzzle's one T&E(1) step needs no context: its hypothesis alone empties b7n1)
    problems = replay(puzzle, read_path(brief)[1], solution).problems
    assert bool(problems) == (theory != "TE1")
    assert all("is not in the path (a --brief path?)" in why for _, _, why in problems[:1])
    # JSON keeps the contexts
    assert Resolution.from_json(resolution.to_json()).steps == resolution.steps


def test_the_engine_functions_take_a_puzzle_text_too():
    """README shows ``te.classify(puzzle)``; a puzzle's text failed on ``.masks`` (AttributeError)."""
    text = SHC_SAMPLE[5][0]
    assert te.classify(text) == te.classify(_puzzle(text))
    assert te.rate_braids(text).value == te.rate_braids(_puzzle(text)).value == SHC_SAMPLE[5][2]
    with pytest.raises(PuzzleError):
        te.classify("12x")


@pytest.mark.parametrize("text, theory, depth", [
    (SHC_SAMPLE[5][0], "BxB", 1), (SHC_SAMPLE[5][0], "BxBB", 1), (SHC_SAMPLE[6][0], "BxBB", 2),
])
def test_bxb_and_bxbb_do_not_apply_below_their_depth(text, theory, depth):
    """A puzzle solved before any T&E(B_p, n) step has no BxB (BxBB) value, as classify and rate say:
    its path printed "BxB = 1" for a depth-1 puzzle (the level of its T&E(1) steps), "BxBB = 2" for a
    depth-2 one."""
    puzzle, _, resolution = _te_resolution(text, theory)
    assert resolution.solved and resolution.rating is None and resolution.te_depth == depth
    assert format_path(resolution, puzzle).splitlines()[-1] == (
        f"{theory} does not apply: T&E-depth {depth} (no T&E(B_p, n) step)")
    assert Resolution.from_json(resolution.to_json()).rating is None


def test_the_checker_rejects_a_context_that_does_not_contradict():
    from sudorules.resolution.state import ResolutionState
    from sudorules.resolution.steps import Context, CspVariable, Step

    puzzle, solution, resolution = _te_resolution(SHC_SAMPLE[3][0], "TE2")
    state = ResolutionState(puzzle)
    for step in resolution.steps:  # the first T&E(2) step, whose context holds T&E(1) steps
        if step.context is not None and any(s.context is not None for s in step.context.steps):
            break
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)
    else:
        pytest.fail("no T&E(2) step with nested contexts")
    context = step.context
    assert check_te(state, step) == []
    cut = Step(step.rule, step.level, step.eliminations,
               context=Context(context.hypothesis, context.steps[:-1], context.contradiction))
    assert check_te(state, cut), "a context without its last step must not reach the contradiction"
    hypothesis = context.hypothesis
    decided = CspVariable("rc", hypothesis.row, hypothesis.column)  # holds the hypothesis: never empty
    wrong_end = Step(step.rule, step.level, step.eliminations,
                     context=Context(hypothesis, context.steps, decided))
    assert "still has a value" in check_te(state, wrong_end)[0]
    wrong_level = Step("T&E(1)", 1, step.eliminations, context=context)  # nested T&E(1) steps not allowed
    assert "T&E" in check_te(state, wrong_level)[0]
    other = next(c for c in state.all_candidates() if c != hypothesis)
    wrong_target = Step(step.rule, step.level, (other,), context=context)
    assert "eliminates its hypothesis" in check_te(state, wrong_target)[0]


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudorules", *args], input=stdin, capture_output=True, text=True,
                          timeout=300)


def test_classify_command(tmp_path):
    source = tmp_path / "p.txt"
    sample = [SHC_SAMPLE[0], SHC_SAMPLE[1], SHC_SAMPLE[6], SHC_SAMPLE[9]]
    source.write_text("".join(text + "\n" for text, _, _ in sample) + "not a puzzle\n")
    out = tmp_path / "c.csv"
    run = _cli("classify", str(source), "-o", str(out), "--jobs", "1", "--no-progress")
    assert run.returncode == 1, run.stderr  # the invalid line
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert list(rows[0]) == ["puzzle", "clues", "te_depth", "B", "BxB", "BxBB", "status", "seconds", "tail", "error"]
    assert [(r["te_depth"], r["B"], r["BxB"], r["BxBB"], r["status"]) for r in rows] == [
        # B at depth 0 is 0, as SHC's B output and rate --rating B say (it was empty: helper-42)
        ("0", "0", "", "", "solved"), ("1", "1", "", "", "solved"), ("2", "", "2", "", "solved"),
        ("3", "", "", "2", "solved"), ("", "", "", "", "invalid")]
    # resumed: nothing left to do
    again = _cli("classify", str(source), "-o", str(out), "--jobs", "1", "--no-progress")
    assert "4 already done" in again.stderr or "5 already done" in again.stderr
    # --max-depth 2: the T&E(3) puzzle is beyond; --max-length 1: BxB 2 is past the limit
    run = _cli("classify", sample[3][0], "--max-depth", "2")
    row = list(csv.DictReader(io.StringIO(run.stdout)))[0]
    assert (row["te_depth"], row["status"]) == ("", "beyond-te2") and "above 2" in row["error"]
    run = _cli("classify", sample[2][0], "--max-length", "1", "--g")
    row = list(csv.DictReader(io.StringIO(run.stdout)))[0]
    assert (row["te_depth"], row["BxB"], row["status"]) == ("2", "", "not-solved")
    assert row["gte_depth"] in ("1", "2")


def test_rate_new_ratings_and_beyond_te1(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text(SHC_SAMPLE[4][0] + "\n" + SHC_SAMPLE[7][0] + "\n")
    run = _cli("rate", str(source), "--rating", "W,B,TE,BxB,BxBB", "--jobs", "1", "--no-progress")
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    first, second = rows
    assert (first["B"], first["TE"], first["BxB"], first["status"]) == ("3", "1", "", "solved")
    assert (second["W"], second["B"], second["TE"], second["BxB"]) == ("", "", "2", "3")
    assert second["status"] == "beyond-te1"
    assert "W: not in T&E(1)" in second["error"] and "B: not in T&E(1)" in second["error"]
    # a composed theory of chains fails there too, and says why
    run = _cli("rate", str(source), "--rating", "BC", "--jobs", "1", "--no-progress")
    second = list(csv.DictReader(io.StringIO(run.stdout)))[1]
    assert (second["BC"], second["status"]) == ("", "beyond-te1") and "not in T&E(1)" in second["error"]


def test_time_limit_stops_the_engine():
    puzzle = _puzzle(SHC_SAMPLE[9][0])
    found = te.classify(puzzle, time_limit=0.001)
    assert found.status is Status.TIMEOUT and found.depth is None
    # stopped after the depth was found (it takes milliseconds): the row keeps it and says what is missing
    # (the depth takes 20-50 ms here, its BxBB over 100 ms: one of these limits falls in between)
    stopped = [found for found in (te.classify(puzzle, time_limit=limit)
                                   for limit in (0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5))
               if found.status is Status.TIMEOUT and found.depth is not None]
    assert stopped, "no limit stopped the classification between its depth and its BxBB"
    depth = te.classify(puzzle, task="TE").depth
    for found in stopped:
        assert found.depth == depth and "BxBB not found within the time limit" in found.error, found


# -- the published values, with ../shared ---------------------------------------------------------------

def _shc_set(name: str) -> list[tuple[str, int]]:
    if not (SHC / f"{name}-input.txt").is_file():
        pytest.skip("../shared/oracle/shc-examples is not present")
    puzzles = [line[:81] for line in (SHC / f"{name}-input.txt").read_text().splitlines() if line.strip()]
    values = [int(v) for v in (SHC / f"{name}-output-expected.txt").read_text().split("\n")[1:] if v.strip()]
    assert len(puzzles) == len(values)
    return list(zip(puzzles, values))


def _stratified(items: list[tuple[str, int]], per_value: int, seed: int) -> list[tuple[str, int]]:
    by_value: dict[int, list] = defaultdict(list)
    for item in items:
        by_value[item[1]].append(item)
    rng = random.Random(seed)
    return [x for value in sorted(by_value) for x in rng.sample(by_value[value], min(per_value, len(by_value[value])))]


def _check_shc(name: str, items: list[tuple[str, int]]) -> None:
    task = {"TE": "TE", "B": "B", "BxB": "BxB", "BxBB": "BxBB"}[name]
    for text, published in items:
        puzzle = _puzzle(text)
        if task == "B":
            got = te.rate_braids(puzzle, solution=_solution(puzzle)).value
        else:
            found = te.classify(puzzle, task=task, solution=_solution(puzzle))
            got = found.depth if task == "TE" else found.value
        assert got == published, (name, text)


@pytest.mark.parametrize("name, per_value", [("TE", 3), ("B", 1), ("BxB", 1), ("BxBB", 2)])
def test_shc_examples_sample(name, per_value):
    items = _stratified(_shc_set(name), per_value, seed=7)
    if name == "BxB":
        items = [x for x in items if x[1] <= 6]  # the higher values take seconds each: -m slow
    _check_shc(name, items)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["TE", "B", "BxB", "BxBB"])
def test_shc_examples_all(name):
    _check_shc(name, _shc_set(name))


def _cb001(cb001, every: int) -> list[tuple[str, int, int]]:
    puzzles = [line.split()[0] for line in (cb001 / "puzzles.txt").read_text().splitlines()]
    b = [int(x) for x in (cb001 / "B-ratings.txt").read_text().split()]
    gb = [int(x) for x in (cb001 / "gB-ratings.txt").read_text().split()]
    return list(zip(puzzles, b, gb))[::every]


def _check_cb001(rows) -> None:
    for text, b, gb in rows:
        puzzle = _puzzle(text)
        solution = _solution(puzzle)
        assert te.rate_braids(puzzle, solution=solution).value == b, text
        assert te.rate_braids(puzzle, g=True, solution=solution).value == gb, text


def test_cb001_published_b_and_gb_sample(cb001):
    rows = _cb001(cb001, 1)
    hardest = sorted(rows, key=lambda r: -r[1])[:3]  # B 9-10
    _check_cb001(_cb001(cb001, 181) + hardest)


@pytest.mark.slow
def test_cb001_published_b_and_gb_all_and_depth_at_most_1(cb001):
    rows = _cb001(cb001, 1)
    _check_cb001(rows)
    for text, _, _ in rows:
        assert te.in_te1(_puzzle(text)), text


def test_api_classify_returns_the_command_columns():
    import sudorules

    table = sudorules.classify([SHC_SAMPLE[1][0], SHC_SAMPLE[6][0], "not a puzzle"], g=True)
    assert list(table.columns) == ["puzzle", "clues", "te_depth", "gte_depth", "B", "BxB", "BxBB", "status",
                                   "seconds", "tail", "error"]
    assert table["te_depth"].tolist()[:2] == [1, 2]
    assert table["BxB"].tolist()[1] == 2 and table["B"].tolist()[0] == 1
    assert table["status"].tolist() == ["solved", "solved", "invalid"]


@pytest.mark.parametrize("stopped_at", ["the value", "a length below"])
def test_a_gb_rating_stopped_where_b_meets_its_lower_bound_is_that_value(monkeypatch, stopped_at):
    """A gB rating stopped by its time limit says what it knows: `at least q` (g-braids shorter than q
    do not solve it) and `at most B` (braids are g-braids), B rated within half the limit again.  A
    row said "timeout, gB: at least 11 and at most 11" with the value empty: when the two meet, that
    is the gB, and the row is solved.  The stop is simulated where the engine's run reports it, at the
    length where the puzzle's own gB (equal to its B here) is, or one below."""
    puzzle = _puzzle(SHC_SAMPLE[5][0])
    gb, b = te.rate_braids(puzzle, g=True), te.rate_braids(puzzle)
    assert gb.status is b.status is Status.SOLVED and gb.value == b.value > 2
    closing = gb.value if stopped_at == "the value" else gb.value - 1
    real_run = te._run

    def stopped_g_run(puzzle, task, **options):
        if options.get("g"):
            return {"outcome": "timeout", "closing": closing}
        return real_run(puzzle, task, **options)

    monkeypatch.setattr(te, "_run", stopped_g_run)
    rating = te.rate_braids(puzzle, g=True, time_limit=10)
    if closing == b.value:
        assert rating == te.Rating(gb.value, Status.SOLVED)
    else:
        assert rating.status is Status.TIMEOUT and rating.value is None
        assert rating.error.startswith(f"at least {closing} and at most {b.value} (")
