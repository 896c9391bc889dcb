"""The compiled trial propagation (sudorules._trial, generator/trial.c) against the Python one.

sudorules._trial.depths(labels, targets, g, limit) must give, for every target, exactly
``d if (d := TrialState(labels, LINKS).contradiction_depth(z, g)) is not None and d <= limit else 0``.
The states: the starting candidates of puzzles of collections/demo.txt, random "plausible" states (a
random complete grid's 81 candidates plus a random share of the others, so a solution always
remains) and arbitrary random subsets of the 729 labels (no solution, even empty variables: the
semantics are defined for any set).  Each state's Python depths are computed once without a limit
and compared with the C for several limits, with and without g-labels.

sudorules._trial.State(labels).depth(assumed, g, limit) is the same propagation started from a set of
labels and g-labels assumed at round 0; its Python reference is trial.py's TrialState.depth
(:func:`reference_depth` below).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from sudorules import _trial, core
from sudorules.engine.bridge import step_of_record
from sudorules.engine.labels import G_LABELS, LINKS, is_glabel
from sudorules.engine.order import whip_lefts
from sudorules.engine.trial import TrialState
from sudorules.resolution.families import check_step
from sudorules.resolution.state import ResolutionState
from sudorules.puzzle import Puzzle

ALL_LABELS = sorted(LINKS)
DEMO = Path(__file__).resolve().parent.parent / "collections" / "demo.txt"
LIMITS = (1, 2, 3, 5, 36, 1000)


def labels_of_candidates(candidates: dict[int, frozenset[int]]) -> list[int]:
    return [100 * d + 10 * (cell // 9 + 1) + cell % 9 + 1
            for cell, digits in candidates.items() for d in digits]


def demo_states(count: int) -> list[list[int]]:
    lines = [line.split()[0] for line in DEMO.read_text().splitlines() if line.strip()]
    return [labels_of_candidates(Puzzle.from_string(p).candidates()) for p in lines[:count]]


def plausible_states(count: int, seed: int) -> list[list[int]]:
    """A random grid's solution labels plus each other label with a random probability 0.05..0.5."""
    rng = random.Random(seed)
    states = []
    for k in range(count):
        grid = core.random_grid(seed * 1000 + k)
        solution = {100 * grid[cell] + 10 * (cell // 9 + 1) + cell % 9 + 1 for cell in range(81)}
        share = rng.uniform(0.05, 0.5)
        labels = [lab for lab in ALL_LABELS if lab in solution or rng.random() < share]
        rng.shuffle(labels)
        states.append(labels)
    return states


def arbitrary_states(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[lab for lab in ALL_LABELS if rng.random() < rng.uniform(0.2, 0.8)] for _ in range(count)]


def python_depths(labels: list[int], targets: list[int], g: bool) -> list[int | None]:
    state = TrialState(labels, LINKS)
    return [state.contradiction_depth(z, g) for z in targets]


def expected(depths: list[int | None], limit: int) -> list[int]:
    return [d if d is not None and d <= limit else 0 for d in depths]


def check_states(states: list[list[int]], targets_per_state: int, seed: int) -> dict[bool, Counter]:
    """Compare C and Python on every state; return, per g, the counts of the Python depths."""
    rng = random.Random(seed)
    seen: dict[bool, Counter] = {False: Counter(), True: Counter()}
    for labels in states:
        targets = rng.sample(labels, min(targets_per_state, len(labels)))
        for g in (False, True):
            want = python_depths(labels, targets, g)
            seen[g].update(want)
            for limit in LIMITS:
                got = _trial.depths(labels, targets, g, limit)
                assert got == expected(want, limit), (sorted(labels), g, limit)
    return seen


def test_demo_puzzles_match_python():
    seen = check_states(demo_states(12), 10**9, seed=1)
    for g in (False, True):
        assert sum(n for d, n in seen[g].items() if d) > 100  # contradictions do happen
        assert len([d for d in seen[g] if d]) >= 3  # at several depths


def test_plausible_states_match_python():
    seen = check_states(plausible_states(60, seed=2), 40, seed=3)
    for g in (False, True):
        depths = [d for d in seen[g] if d]
        assert len(depths) >= 4 and max(depths) >= 4, seen[g]
        assert seen[g][None] > 0  # and some propagations stop without one


def test_arbitrary_states_match_python():
    seen = check_states(arbitrary_states(40, seed=4), 30, seed=5)
    assert len([d for d in seen[False] if d]) >= 3


def test_g_labels_change_depths():
    """The g-label rule is exercised: on these states it must shorten (or create) contradictions."""
    changed = 0
    for labels in demo_states(6) + plausible_states(10, seed=6):
        plain = _trial.depths(labels, labels, False, 1000)
        with_g = _trial.depths(labels, labels, True, 1000)
        assert with_g == expected(python_depths(labels, labels, True), 1000)
        changed += sum(a != b for a, b in zip(plain, with_g))
    assert changed > 20


def test_order_duplicates_and_sequence_types():
    labels = demo_states(1)[0]
    targets = labels[::3]
    want = _trial.depths(labels, targets, True, 36)
    shuffled = labels * 2
    random.Random(7).shuffle(shuffled)
    assert _trial.depths(tuple(shuffled), tuple(targets), 1, 36) == want
    assert _trial.depths(labels=labels, targets=targets, g=True, limit=36) == want
    assert _trial.depths(labels, targets[::-1], True, 36) == want[::-1]
    assert _trial.depths(labels, [], True, 36) == []
    assert _trial.depths(labels, targets[:1] * 3, True, 36) == want[:1] * 3


def test_errors():
    labels = demo_states(1)[0]
    absent = next(lab for lab in ALL_LABELS if lab not in set(labels))
    with pytest.raises(ValueError, match="not among the labels"):
        _trial.depths(labels, [labels[0], absent], False, 3)
    for bad in (0, 100, 110, 101, 1000, 111 - 1, -111, 10**30):
        with pytest.raises(ValueError, match="not a label"):
            _trial.depths(labels + [bad], labels[:1], False, 3)
        with pytest.raises(ValueError, match="not a label"):
            _trial.depths(labels, [bad], False, 3)
    for bad in (111.0, "111", None):
        with pytest.raises(TypeError):
            _trial.depths(labels + [bad], labels[:1], False, 3)
        with pytest.raises(TypeError):
            _trial.depths(labels, [bad], False, 3)
    with pytest.raises(TypeError):
        _trial.depths(5, labels[:1], False, 3)
    with pytest.raises(TypeError):
        _trial.depths(labels, 5, False, 3)
    for limit in (0, -1):
        with pytest.raises(ValueError, match="limit"):
            _trial.depths(labels, labels[:1], False, limit)
    with pytest.raises(TypeError):
        _trial.depths(labels, labels[:1], False)
    with pytest.raises(TypeError):
        _trial.depths(labels, labels[:1], False, 3.0)


# -- State.depth: several assumptions at once ---------------------------------------------------------

def reference_depth(labels, assumed, g: bool, limit: int | None = None) -> int:
    """trial.py's reference, TrialState.depth (the propagation started from every label and g-label of
    ``assumed`` at round 0); 0 for None (no contradiction, or none within ``limit``)."""
    return TrialState(labels, LINKS).depth(assumed, g, limit) or 0


def unlinked_set(rng: random.Random, labels: list[int], size: int) -> list[int]:
    """Up to ``size`` labels, pairwise unlinked (as a target and the rlcs of a partial braid are)."""
    chosen: list[int] = []
    for lab in rng.sample(labels, len(labels)):
        if len(chosen) == size:
            break
        if not any(lab in LINKS[x] for x in chosen):
            chosen.append(lab)
    return chosen


def assumption_sets(rng: random.Random, labels: list[int], with_g: bool) -> list[list[int]]:
    """Pairwise unlinked sets of 1..10 labels, arbitrary ones (often linked: depth 1), and with
    ``with_g`` the same plus g-labels: mostly ones holding a present label, some arbitrary."""
    present = set(labels)
    near = [gl for gl, labs in G_LABELS.items() if present & set(labs)]
    sets = []
    for _ in range(6):
        sets.append(unlinked_set(rng, labels, rng.randint(1, 10)))
    for _ in range(2):
        sets.append(rng.sample(labels, min(len(labels), rng.randint(2, 6))))
    if with_g:
        for base in list(sets):
            extra = rng.sample(near, min(len(near), rng.randint(1, 3)))
            extra += rng.sample(sorted(G_LABELS), rng.randint(0, 1))
            sets.append(base[: rng.randint(0, len(base))] + extra)
    for s in sets:
        rng.shuffle(s)
    return [s for s in sets if s]


def check_state_depths(states: list[list[int]], seed: int, with_g: bool) -> Counter:
    """Compare State.depth with reference_depth on every state, g on and off, several limits (the
    reference computed once without a limit); return the counts of the reference depths."""
    rng = random.Random(seed)
    seen: Counter = Counter()
    for labels in states:
        st = _trial.State(labels)
        for assumed in assumption_sets(rng, labels, with_g):
            for g in (False, True):
                want = reference_depth(labels, assumed, g)
                seen[want] += 1
                for limit in LIMITS:
                    got = st.depth(assumed, g, limit)
                    assert got == (want if want <= limit else 0), (sorted(labels), assumed, g, limit)
    return seen


@pytest.mark.parametrize("with_g, demo, plausible, arbitrary, seed",
                         [(False, 4, (25, 12), (8, 13), 14), (True, 3, (20, 15), (6, 16), 17)], ids=["labels", "g-labels"])
def test_state_depth_matches_reference(with_g, demo, plausible, arbitrary, seed):
    states = demo_states(demo) + plausible_states(*plausible) + arbitrary_states(*arbitrary)
    seen = check_state_depths(states, seed=seed, with_g=with_g)
    depths = [d for d in seen if d]
    # linked assumptions (and large sets) give 1, some propagations stop without one, others go deep
    assert seen[1] > 20 and seen[0] > 20 and sum(n for d, n in seen.items() if d >= 2) > 50, seen
    assert len(depths) >= 4 and max(depths) >= 4, seen


def test_glabels_alone_and_their_ids():
    """Every one of the 972 g-label ids, assumed alone or with a label, maps to its own g-label."""
    rng = random.Random(18)
    labels = plausible_states(1, seed=19)[0]
    st = _trial.State(labels)
    differ = 0
    for gl in G_LABELS:
        z = rng.choice(labels)
        for g in (False, True):
            assert st.depth([gl], g, 1000) == reference_depth(labels, [gl], g), gl
            want = reference_depth(labels, [z, gl], g)
            assert st.depth([gl, z], g, 1000) == want, (gl, z)
            differ += want != _trial.depths(labels, [z], g, 1000)[0]
    assert differ > 100  # the g-label matters


def test_state_single_assumption_is_depths():
    for labels in demo_states(3) + plausible_states(8, seed=22):
        st = _trial.State(labels)
        for g in (False, True):
            for limit in (1, 3, 36):
                assert [st.depth([z], g, limit) for z in labels] == _trial.depths(labels, labels, g, limit)


def test_state_is_immutable_and_accepts_sequences():
    rng = random.Random(23)
    labels = plausible_states(1, seed=24)[0]
    other = plausible_states(1, seed=25)[0]
    st, st2 = _trial.State(labels), _trial.State(other)
    sets = [s for s in assumption_sets(rng, labels, True) if len(s) > 1]
    first = [st.depth(s, g, 36) for s in sets for g in (False, True)]
    assert len(set(first)) >= 3
    for _ in range(2):  # interleaved with other states, other calls, and failing calls
        again = []
        for s in sets:
            for g in (False, True):
                st2.depth(unlinked_set(rng, other, 5), not g, 1000)
                _trial.depths(other, other[:5], g, 36)
                with pytest.raises(ValueError):
                    st.depth(s + [5000], g, 36)
                again.append(st.depth(s, g, 36))
                assert st.depth(s, g, 36) == again[-1]
        assert again == first
    assert [_trial.State(labels).depth(s, g, 36) for s in sets for g in (False, True)] == first
    s = next(s for s in sets if len(set(s)) == len(s))
    kept = list(s)
    want = st.depth(s, True, 36)
    assert s == kept  # the argument is not changed either
    assert st.depth(tuple(s), 1, 36) == want
    assert st.depth(iter(s), True, 36) == want
    assert st.depth(s[::-1] + s, True, 36) == want  # order and duplicates do not matter
    assert _trial.State(tuple(labels * 2)).depth(s, True, 36) == want
    assert _trial.State(iter(labels)).depth(s, True, 36) == want
    assert st.depth(s, True, 10**30) == want  # any big limit
    with pytest.raises(AttributeError):
        st.cands = None


def test_state_errors():
    labels = demo_states(1)[0]
    st = _trial.State(labels)
    absent = next(lab for lab in ALL_LABELS if lab not in set(labels))
    z = labels[0]
    with pytest.raises(ValueError, match="not among the labels"):
        st.depth([z, absent], False, 3)
    for bad in (0, 100, 110, 101, 1000, 1111, 2110, 2111 - 1, 2120, 2114, 3104, 4117, 4107, 4997, 5111, -111,
                10**30, -10**30, True):
        with pytest.raises(ValueError, match="neither a label nor a g-label"):
            st.depth([z, bad], False, 3)
    for bad in (111.0, "111", None, [111]):
        with pytest.raises(TypeError):
            st.depth([z, bad], False, 3)
    for assumed in ([], ()):
        with pytest.raises(ValueError, match="empty"):
            st.depth(assumed, False, 3)
    with pytest.raises(TypeError):
        st.depth(z, False, 3)
    for limit in (0, -1, -10**30):
        with pytest.raises(ValueError, match="limit"):
            st.depth([z], False, limit)
    for limit in (3.0, "3", None):
        with pytest.raises(TypeError):
            st.depth([z], False, limit)
    with pytest.raises(TypeError):
        st.depth([z], False)
    with pytest.raises(TypeError):
        st.depth([z], False, 3, 4)
    with pytest.raises(TypeError):
        st.depth(assumed=[z], g=False, limit=3)
    with pytest.raises(TypeError):
        _trial.State(5)
    with pytest.raises(TypeError):
        _trial.State(labels + ["111"])
    with pytest.raises(ValueError, match="not a label"):
        _trial.State(labels + [2111])
    with pytest.raises(TypeError):
        _trial.State()


# ---- State.whip / State.braid: does a whip (g-whip) / may a braid (g-braid) of length <= limit exist?
# References: TrialState.whip, TrialState.braid -----------------------------------------------------

#: per compiled search: seed, demo states, plausible states, targets per state, least answers of each kind
SEARCH_SAMPLES = {"whip": (11, 8, 16, 8, 100), "braid": (21, 6, 10, 6, 60)}


@pytest.mark.parametrize("search", sorted(SEARCH_SAMPLES))
@pytest.mark.parametrize("g", [False, True])
def test_compiled_search_matches_reference(search, g):
    """The compiled whip search (its cache of failed (rlc set, last rlc) pairs, its per-variable masks)
    and braid search (the same cache keyed by the rlc set, the propagation test of each partial braid,
    the sleep sets that keep a failed child from being tried again below its siblings) answer as
    trial.py's plain recursions on every target and limit tried."""
    seed, demos, plausible, per_state, least = SEARCH_SAMPLES[search]
    rng = random.Random(seed + g)
    answers = Counter()
    for labels in demo_states(demos) + plausible_states(plausible, seed=seed + 1 + g):
        reference, compiled = TrialState(labels, LINKS), _trial.State(labels)
        for z in rng.sample(labels, per_state):
            for limit in (1, 2, 3, 4, 5):
                want = getattr(reference, search)(z, g, limit)
                assert getattr(compiled, search)(z, g, limit, 10**7) == int(want), (sorted(labels), z, g, limit)
                answers[want] += 1
    assert answers[True] > least and answers[False] > least, answers


@pytest.mark.parametrize("g", [False, True])
def test_whip_chains_strict_and_permissive(g):
    """State.whip_chain, which the engine records from its lean whip level on: not strict it answers as
    State.whip (and TrialState.whip), strict as the reference that refuses a repeated left-linking
    candidate (TrialState.whip(loopless=True)); with need_g as State.g_whip.  Every chain found strict
    gets loopless left-linking candidates from order.whip_lefts, and the independent checker accepts it
    as a whip (g-whip) in the state; the permissive search also finds chains whose candidates must
    repeat, which whip_lefts refuses."""
    rng = random.Random(31 + g)
    answers, refused, checked = Counter(), 0, 0
    from sudorules.engine import Engine

    brt = Engine("BRT")  # states after Singles, as the engine searches them (a whip's last cell has 2+)
    for text in [line.split()[0] for line in DEMO.read_text().splitlines() if line.strip()][:12]:
        after = brt.solve(text)
        if after.solved:
            continue
        puzzle = Puzzle.from_candidates([after.candidates.get(cell) or {after.values[cell]} for cell in range(81)])
        labels = labels_of_candidates(puzzle.candidates())
        reference, compiled = TrialState(labels, LINKS), _trial.State(labels)
        for z in rng.sample(labels, 10):
            for limit in (2, 3, 4, 5, 6):
                loose = compiled.whip_chain(z, g, False, False, limit, 10**7)
                assert (loose != 0) == (compiled.whip(z, g, limit, 10**7) == 1)
                if g:
                    need = compiled.whip_chain(z, True, True, False, limit, 10**7)
                    assert (need != 0) == (compiled.g_whip(z, limit, 10**7) == 1)
                strict = compiled.whip_chain(z, g, False, True, limit, 10**7)
                want = reference.whip(z, g, limit, loopless=True)
                assert (strict != 0) == want, (text, z, g, limit)
                answers[want] += 1
                if loose and whip_lefts(labels, z, loose) is None:
                    refused += 1
                if strict:
                    cells = whip_lefts(labels, z, strict)
                    assert cells is not None and len(cells) == 3 * len(strict) // 2 <= 3 * limit
                    rule = "g-whip" if any(is_glabel(r) for r in cells[2::3]) else "whip"
                    step = step_of_record([rule, len(cells) // 3, [z], [], cells])
                    assert check_step(ResolutionState(puzzle), step) == [], step.text()
                    checked += 1
    assert answers[True] > 50 and answers[False] > 50 and checked > 20 and refused > 5, (answers, checked, refused)


#: a state of top1465 #182's gB path in which the strict g-whip search of length 16 on r9c7=1 (197)
#: finds none in about 3.5 s (its labels, 100 * digit + 10 * row + column)
LONG_SEARCH_STATE = (
    "112 113 114 116 132 134 154 156 157 159 164 167 173 179 192 193 197 211 212 213 214 216 219 221 "
    "223 224 226 229 231 234 238 242 243 248 249 261 262 268 283 284 286 291 292 293 294 314 315 342 "
    "345 346 348 351 354 356 362 364 368 372 374 375 376 381 384 386 412 413 414 416 419 423 424 426 "
    "429 432 434 437 442 443 446 462 464 465 486 487 489 494 495 497 511 513 514 516 521 523 524 526 "
    "546 547 564 565 567 573 574 576 591 593 594 595 613 615 619 621 623 629 631 635 637 653 657 659 "
    "661 667 743 745 751 753 754 773 774 775 781 783 784 787 791 793 797 821 824 826 831 832 835 845 "
    "846 848 849 854 856 859 872 874 875 876 881 884 886 889 892 898 911 912 913 919 931 937 938 942 "
    "943 947 948 949 951 953 957 959 972 973 974 979 983 984 987 989 991 992 993 994 997 998 "
)


#: the script of test_a_long_chain_search_obeys_a_signal_at_once, run in a fresh interpreter (Python
#: runs signal handlers in the main thread only, and a pytest worker may run its tests in another); the
#: signal comes from the test's process, as a Ctrl-C comes from the terminal (a thread of the script's
#: own could not send it: the search holds the GIL)
SIGNAL_SCRIPT = """
import signal, sys, time
from sudorules import _trial

class Stop(Exception):
    pass

def handler(signum, frame):
    raise Stop

st = _trial.State([int(x) for x in sys.argv[1].split()])
signal.signal(signal.SIGUSR1, handler)
print("searching", flush=True)
started = time.perf_counter()
try:
    st.whip_chain(197, True, True, True, 16, 10**9)
    print("finished", time.perf_counter() - started)
except Stop:
    print("stopped", time.perf_counter() - started)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="no SIGUSR1 here")
def test_a_long_chain_search_obeys_a_signal_at_once():
    """The searches whose chains the engine records may run for seconds on the hardest puzzles, so they
    poll for signals: a Ctrl-C of `solve` waited 5.5 s for one before.  A signal sent 0.3 s into a
    search of about 3.5 s has its handler run inside it, and the search stops with the handler's
    exception (not a timing of the search: only of when the signal is obeyed, with a wide margin)."""
    child = subprocess.Popen([sys.executable, "-c", SIGNAL_SCRIPT, LONG_SEARCH_STATE], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "searching"
        time.sleep(0.3)
        child.send_signal(signal.SIGUSR1)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    outcome, seconds = out.split()
    assert outcome == "stopped" and float(seconds) < 2.0, (out, err)


def test_g_whips_are_found_where_whips_are_not():
    """With g the search also takes g-rlcs: on these states some targets get a g-whip and no whip."""
    more = 0
    for labels in demo_states(8):
        compiled = _trial.State(labels)
        for z in labels:
            plain, with_g = compiled.whip(z, False, 4, 10**7), compiled.whip(z, True, 4, 10**7)
            assert plain <= with_g
            more += with_g > plain
    assert more > 0


def test_compiled_g_whip_matches_reference():
    """State.g_whip (only a whip with a g-rlc closes) answers as TrialState.whip(need_g=True); it says
    yes only where the search with g does, and no on some targets that carry a plain whip only."""
    rng = random.Random(31)
    answers, plain_only = Counter(), 0
    for labels in demo_states(8) + plausible_states(12, seed=32):
        reference, compiled = TrialState(labels, LINKS), _trial.State(labels)
        for z in rng.sample(labels, 8):
            for limit in (1, 2, 3, 4, 5):
                want = reference.whip(z, True, limit, need_g=True)
                got = compiled.g_whip(z, limit, 10**7)
                assert got == int(want), (sorted(labels), z, limit)
                with_g = compiled.whip(z, True, limit, 10**7)
                assert got <= with_g
                plain_only += with_g and not got and compiled.whip(z, False, limit, 10**7)
                answers[want] += 1
    assert answers[True] > 20 and answers[False] > 100 and plain_only > 0, (answers, plain_only)


def test_whip_budget():
    """Out of budget, a whip search is undecided (-1).  The targets tried carry no whip of 6 cells but
    their propagation contradicts within 6 rounds, so the search cannot refuse them at its first nodes."""
    undecided = []
    for labels in demo_states(4):
        st = _trial.State(labels)
        deep = [z for z in labels if st.depth([z], False, 6) and st.whip(z, False, 6, 10**7) == 0]
        undecided += [z for z in deep if st.whip(z, False, 6, 2) == -1]  # out of budget after two nodes
        if undecided:
            break
    assert undecided and all(st.whip_chain(z, False, False, strict, 6, 2) == -1 for z in undecided
                             for strict in (False, True))


@pytest.mark.parametrize("search", ["whip", "braid"])
def test_search_argument_errors(search):
    labels = demo_states(1)[0]
    run = getattr(_trial.State(labels), search)
    absent = next(lab for lab in ALL_LABELS if lab not in set(labels))
    with pytest.raises(ValueError, match="not among the labels"):
        run(absent, False, 3, 100)
    with pytest.raises(ValueError, match="not a label"):
        run(2111, False, 3, 100)
    with pytest.raises(ValueError, match="limit"):
        run(labels[0], False, 0, 100)
    with pytest.raises(ValueError, match="budget"):
        run(labels[0], False, 3, 0)
    with pytest.raises(TypeError, match="exactly 4"):
        run(labels[0], False, 3)
    with pytest.raises(TypeError):
        run(labels[0], False, 3.0, 100)


def test_g_whip_argument_errors():
    labels = demo_states(1)[0]
    run = _trial.State(labels).g_whip
    with pytest.raises(ValueError, match="limit"):
        run(labels[0], 0, 100)
    with pytest.raises(ValueError, match="budget"):
        run(labels[0], 3, 0)
    with pytest.raises(TypeError, match="exactly 3"):
        run(labels[0], True, 3, 100)
    with pytest.raises(TypeError):
        run(labels[0], 3.0, 100)


@pytest.mark.slow
def test_compiled_g_braid_search_matches_reference_at_longer_lengths():
    """The g-braid search skips the children that a sibling label dominates (trial.c: its new links
    hold all of theirs) and caches them as failed when their node fails, and cuts a partial g-braid
    holding a failed one with one or two rlcs more (trial.c, failed subsets), and does not try a child
    asleep (trial.c, sleeping children: the label children first, then the g-rlcs): at lengths 6-8,
    where partial g-braids have many siblings and deep subtrees, it still answers as trial.py's plain
    recursion, which builds every child (540 questions, about 30 s)."""
    rng = random.Random(5)
    answers = Counter()
    for labels in plausible_states(30, seed=77):
        reference, compiled = TrialState(labels, LINKS), _trial.State(labels)
        for z in rng.sample(labels, 6):
            for limit in (6, 7, 8):
                want = reference.braid(z, True, limit)
                assert compiled.braid(z, True, limit, 10**7) == int(want), (sorted(labels), z, limit)
                answers[want] += 1
    assert answers[True] > 100 and answers[False] > 100, answers


def test_braids_include_whips_and_g_braids_include_braids():
    """A whip is a braid, a braid a g-braid: wherever the whip search finds one, the braid search
    does, and with g wherever it does without."""
    more = Counter()
    for labels in demo_states(6):
        compiled = _trial.State(labels)
        for z in labels:
            whip = compiled.whip(z, False, 4, 10**7)
            braid, g_braid = compiled.braid(z, False, 4, 10**7), compiled.braid(z, True, 4, 10**7)
            assert whip <= braid <= g_braid
            more["braid"] += braid > whip
            more["g-braid"] += g_braid > braid
    assert more["braid"] > 0 and more["g-braid"] > 0, more


@pytest.mark.parametrize("g", [False, True])
def test_braid_chains_of_one_state_share_their_failures_soundly(g):
    """State.braid_chain searches of one state share their cache of failed partial braids (its
    cache_tag), across targets and lengths, with whip_chain searches of other options in between (whip
    entries have a generation of their own, one a search): every answer is the one a fresh State gives
    the same question alone.
    And where the strict g-whip search finds a g-whip, the g-braid search finds a chain, which the
    engine's lean g-whips rely on to skip the g-whip search (Engine._lean_whip)."""
    rng = random.Random(41 + g)
    answers, whips = Counter(), 0
    for labels in demo_states(4) + plausible_states(4, seed=43 + g):
        shared, targets, found = _trial.State(labels), rng.sample(labels, 12), {}
        for limit in (3, 5, 6, 4):  # longer after shorter: entries hold for so many cells left only
            for z in targets:
                braid = shared.braid_chain(z, g, limit, 10**7) != 0
                whip = shared.whip_chain(z, g, g, True, limit, 10**7) != 0
                assert braid or not whip, (sorted(labels), z, g, limit)
                found[z, limit] = braid, whip, shared.whip_chain(z, g, False, False, limit, 10**7) != 0
                whips += whip
        for (z, limit), answer in found.items():  # after: a search on another State starts a new cache
            alone = _trial.State(labels)
            assert answer == (alone.braid_chain(z, g, limit, 10**7) != 0,
                              _trial.State(labels).whip_chain(z, g, g, True, limit, 10**7) != 0,
                              _trial.State(labels).whip_chain(z, g, False, False, limit, 10**7) != 0), \
                (sorted(labels), z, g, limit)
            answers[answer[0]] += 1
    assert answers[True] > 30 and answers[False] > 30 and whips > 10, (answers, whips)


def test_braid_budget():
    labels = demo_states(1)[0]
    st = _trial.State(labels)
    undecided = [z for z in labels if st.braid(z, False, 4, 1) == -1]  # out of budget after one node
    assert undecided and all(st.braid(z, False, 4, 10**7) in (0, 1) for z in undecided)
    assert any(st.braid(z, False, 4, 10**7) == 0 for z in undecided)
