"""SudoRules' everyday rules (issue 25): bivalue-chains, z-chains, t-whips, their typed variants, typed
whips, g-bivalue-chains, finned fish; theories composed by name; SudoRules' labels.

The positions below are resolution states (pencilmark puzzles, 729 characters: digit d at place d of
each cell) taken from our own runs on cb-001 puzzles, each just before the step named beside it: the
family's chain is the first thing the theory can do there.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudorules
from conftest import TOP_DOWN_14, unique_solution
from sudorules.cli import main
from sudorules.engine import Engine, rulegen
from sudorules.engine.seek import more_targets, reference_chain
from sudorules.engine.trial import State
from sudorules.enums import Theory
from sudorules.puzzle import Puzzle
from sudorules.resolution import families
from sudorules.resolution.checks import check_special_chain_target, check_typed_whip
from sudorules.resolution.notation import parse_step, read_path
from sudorules.resolution.path import format_path, most_complex_rule
from sudorules.resolution.state import ResolutionState
from sudorules.resolution.steps import Step, family_name
from sudorules.resolution.verify import replay
from sudorules.engine.bridge import step_of_record

DATA = Path(__file__).resolve().parent / "data"

#: one state reached under both default and gBC (cb-001 line 6)
LINE_6 = (
     "1.........2.....8...3.........4.6.......5.....2.4.6.........7.....4.6.8.........9...4....."
     "....5.........6.........7.........8.........91.........2.........3............78..2....78."
     "........91.34.6...12...6...1234.6......4.6......4.6.8.....5.....2.......1.34.....1..4....."
     "....5....1....6.........7....3..6...........9.......8...3.5.7.91.3...7..1...5.7..1.3..6.8."
     "12...6..9123..6.8..23..6...1....6......4.......3.....9.....6..........8.1.34.....12......9"
     "1234.........5....1.....7...2....7....3.5.7..1.3...7...2...............9...4.....1...5...."
     ".......8...3.5.7.......6........6.....34...8....45.....2.............7......5..8.........9"
     "..345....1............5.78.........91..45.7..1....6.8...3......1...56.8..2.4........45.7.."
     ".2....7..")

#: (theory, the rule of the expected first step, its length, the position)
POSITIONS = [
    # cb-001 line 2, the state before biv-chain[3]: r8n2{c9 c8} - r2c8{n2 n9} - c9n9{r1 r6} ==> r6c9≠2...
    ("default", "biv-chain", 3,
     "1.........2.........3.........4....9....56.......56......4..7.........8....4..7.9...4....."
     "....5.........6.........7.........8..2......91.........2......9..3............7.........8."
     "........91.........234......234......2.4..........6.......5.....2.......1...........45..8."
     "..3.........45.7.9...45.7.9...45.78....4..7.9.....6.......5..8.........9......7.....4...8."
     ".2.456....2.456....2.45..8...3......1.............6.....3.........45..8....4...891........"
     ".2.45.7...2.45.78..2.4..7...2.4..7.9..3...........6.......5..8..2..........4..7..1........"
     "........9...45.7.....4..78.....5..8....4.....1.............6.........7.9......789..3......"
     ".2..5.7...2....78.........9......7...2...........5......34.......34...8......6...1........"
     "...4...8."
     ),
    # cb-001 line 6, the state before z-chain[3]: r6n1{c4 c8} - r5c8{n1 n6} - r4n6{c7 .} ==> r4c5≠1...
    ("default", "z-chain", 3, LINE_6),
    # cb-001 line 19, the state before t-whip[3]: r4c5{n6 n5} - r6n5{c5 c7} - r6n6{c7 .} ==> r1c5≠6, r4c6≠6...
    ("default", "t-whip", 3,
     "1.........2.........3.........4.........56.8.....56.........7.......6.89.......89...4....."
     "....5.........6.........7..1......8.........91......8..2.........3............78........89"
     "......7.91.3.......2.........3..6......4.....1....6.......5.....2.......1...........45...."
     "..3.....9....56.....34.6.......56.89......7.........89.....6.....3.........45.....2......9"
     "......7.........8..2..5...9...45...91................9......7.........8.12.......1...56..."
     "...45.....2..56.....3.......2.4.......3.............89......7.9....5.......4......2....7.."
     "12.....8.1......8......6.......5.7.......6...1...............8.........9.2....7....3......"
     "...45.....2.4.........5..8....4......2............6.....3......1............5..89....5..89"
     "......7.."
     ),
    # cb-001 line 1, the state before finned-x-wing-in-rows: n2{r9 r1}{c4 c2} ==> r3c2≠2...
    ("default", "finned-x-wing-in-rows", 2,
     "1.34.....12.4...8..234......234.........5.........6.........7..1..4...8.........91.345...."
     "1..45.........6.........7.........8.........91.34......2.........3.5..........7...2.45..8."
     "........91.........234.......34.......34...8....45..8......6....2.......1..45...9...45...."
     "..345..891.34.6.....345..8.1.3....891...5678...3.5.7..1...56.....3............7......5..89"
     "1....6....2.......1......891...56.8....4.....1..456...1..45...9.......8...345...91.34.6..."
     "......7..123.....91...56....23.5......3.5..8......6.....3.5......3.5..8.........91........"
     ".2.4........4..7...2....7....34...8.......7...234..........6....234.......34...8.....5...."
     "........91................9.2.45....1.........2.45..........7.....45.........6.....3......"
     ".......8."
     ),
    # cb-001 line 6, the state before finned-x-wing-in-columns: n7{c9 c3}{r9 r6} ==> r6c1≠7...
    ("default", "finned-x-wing-in-columns", 2,
     "1.........2.....8...3.........4.6.......5.....2.4.6.........7.....4.6.8.........9...4....."
     "....5.........6.........7.........8.........91.........2.........3............78..2....78."
     "........91.34.6...12...6...1234.6......4.6......4.6.8.....5.....2.......1.34.....1..4....."
     "....5....1....6.........7....3..6...........9.......8...3.5.7.91.3...7..1...5.7..1.3..6.8."
     "12...6..9123..6.8..23..6...1....67.....4.......3...7.9.....6..........8.1.34.....12......9"
     "1234.........5....1.....7...2....7....3.5.7..1.3...7...2...............9...4.....1...5...."
     ".......8...3.5.7.......6........6.....34...8....45.....2.............7......5..8.........9"
     "..345....1............5.78.........91..45.7..1....6.8...3......1...56.8..2.4........45.7.."
     ".2....7.."
     ),
    # cb-001 line 28, the state before finned-swordfish-in-columns: n8{c8 c5 c1}{r1 r2 r9} ==> r9c2≠8...
    ("default", "finned-swordfish-in-columns", 3,
     "1......8.123....8...3..6......4.........5....1.3..678.1.....7...2.....8.........91..45..8."
     ".2.45..8....4.6...1....67........78.........91..45.7...2.4...8...3............7....345..8."
     "........91.3....8..2.......1.3....8.1..45.........6...1...5..8..2.......1....6.......5...."
     ".....678.........9.....67..1......8...3.........4.....1.3..............9......7...23....8."
     "...4......23....8......6.......5....1......8...34.6.....34.6..........8...3..6...1........"
     "....5............9......7...2.........345..8...345..8...34.............9.....6......4...8."
     ".2.......1..............7.....4.6.8.......7..1.........2..5..8...3.......2.4...8....45..8."
     "........9....56.8.........9.....6.8..2.......1...5.78.......78.1..4..78...3.........4...8."
     "....56.8."
     ),
    # cb-001 line 2, the state before biv-chain-rc[3]: r4c7{n8 n7} - r6c9{n7 n9} - r6c4{n9 n8} ==> r6c7≠8...
    ("TyBC+TyZ+TytW+TyW+W", "biv-chain-rc", 3,
     "1.........2.........3.........4....9....56.......56......4..7.........8.......7.9...4....."
     "....5.........6.........7.........8..2......91.........2......9..3............7.........8."
     "........91.........234.......34......2.4..........6.......5.....2.......1...........45..8."
     "..3..........5.7.9....5.7.9......78....4....9.....6.......5..8.........9......7.....4...8."
     ".2.456......456....2..5..8...3......1.............6.....3.........45..8........891........"
     ".2....7......5.78..2.4...........7.9..3...........6.......5..8..2..........4..7..1........"
     "........9....5.7.....4...8.....5..8....4.....1.............6.........7.9......789..3......"
     "....5.7...2...............9......7...2...........5......34.......34...8......6...1........"
     "...4...8."
     ),
    # cb-001 line 40, the state before z-chain-rn[3]: r1n5{c1 c5} - r1n8{c5 c8} - r3n8{c8 .} ==> r3c2≠5...
    ("TyBC+TyZ+TytW+TyW+W", "z-chain-rn", 3,
     "1...5.....2.........3.5.......4.........5..8...3..6.........7..1....6.8.........91..45..8."
     "1..45..8......6.........7......5..89....5...912..5..8.12.........3............7....3.5..8."
     "........91.........2.........3..6......4..........6.8.....56...12..5....1...5...........8."
     "....56......4.....12....7....3..............9.....67...23.5...9.....6.........7......5...9"
     "1.3.............8.12..5.......4.....1...5....1234....91.34......234.........56..91.3...7.."
     "12....7..12..56....2...67.........8..234.......34..7...23.............8.1....6...1..4....."
     "........9....5....1....67.......6......4..78....45......3..........5...91..45...91......8."
     "1.....78..2...........5..8.........91.........2............67......5.7.......6.8...3......"
     "...4....."
     ),
    # cb-001 line 27, the state before t-whip-rc[3]: r1c5{n5 n6} - r7c5{n6 n1} - r5c5{n1 .} ==> r2c5≠5...
    ("TyBC+TyZ+TytW+TyW+W", "t-whip-rc", 3,
     "1...5.....2.........3.........4.........56...1...56.........7.........8.........9...45...."
     "...45..8......6.........7......5..8.........91.........2.........3......1.....7........78."
     "........91.3.......2.......1.3....8....4..........6.......5.....2.4.....1............5...."
     ".2...6.........7...2.4.6.8.........9..3...........6.8...3...7.9..3...7........78.1....6..9"
     "1...56...1...56....2..........4..........678..2.4....9.....6......4..78..23.....9..34...8."
     ".234...8.....5....1..............78...3.5............91.....7..123..6...1....6...12...67.."
     ".......8.....5.7.....4..........6......45....1..4..7.........8....4....91.....7....3......"
     "....5.7.9.2..............8...34..7...2...........5......34....9..34..7.......6.........7.9"
     "1........"
     ),
    # cb-001 line 28, the state before whip-cn[3]: c5n8{r9 r2} - c1n8{r2 r1} - c8n8{r1 .} ==> r9c2≠8...
    ("TyBC+TyZ+TytW+TyW+W", "whip-cn", 3,
     "1......8.123....8...3..6......4.........5....1.3..678.1.....7...2.....8.........91..45..8."
     ".2.45..8....4.6...1....67........78.........91..45.7...2.4...8...3............7....345..8."
     "........91.3....8..2.......1.3....8.1..45.........6...1...5..8..2.......1....6.......5...."
     ".....678.........9.....678.1......8...3.........4.....1.3..............9......7...23....8."
     "...4......23....8......6.......5....1......8...34.6.....34.6..........8...3..6...1........"
     "....5............9......7...2.........345..8...345..8...34.............9.....6......4...8."
     ".2.......1..............7.....4.6.8.......7..1.........2..5..8...3.......2.4...8....45..8."
     "........9....56.8.........9.....6.8..2.......1...5.78.......78.1..4..78...3.........4...8."
     "....56.8."
     ),
    # cb-001 line 6 under gBC: the state before g-biv-chain[3]: b4n1{r4c2 r5c123} - r5c8{n1 n6} - r4n6{c7 c5}...
    ("gBC", "g-biv-chain", 3, LINE_6),]
_IDS = [name for _, name, _, _ in POSITIONS]


def _position(text: str) -> Puzzle:
    return Puzzle.from_string(text)


@pytest.fixture(scope="module")
def engines():
    made: dict[tuple[str, int], Engine] = {}

    def get(theory: str, max_length: int = 36) -> Engine:
        if (theory, max_length) not in made:
            made[(theory, max_length)] = Engine(theory, max_length=max_length)
        return made[(theory, max_length)]
    return get


@pytest.mark.parametrize("theory, rule, length, text", POSITIONS, ids=_IDS)
def test_each_family_is_what_its_theory_does_first_in_its_position(engines, theory, rule, length, text):
    """The first step beyond Singles and whips[1] is of the expected family and length (ties between
    chains of one family and length may pick another one), and the path re-verifies."""
    puzzle = _position(text)
    resolution = engines(theory).solve(puzzle)
    first = next(step for step in resolution.steps if step.level >= 2)
    assert (first.family, first.level) == (family_name(rule), length), first.text()
    report = replay(puzzle, resolution.steps, unique_solution(puzzle))
    assert report.ok, report.problems[:1]


@pytest.mark.parametrize("theory, rule, length, text",
                         [p for p in POSITIONS if p[0] != "gBC" and not p[1].startswith("finned")],
                         ids=[p[1] for p in POSITIONS if p[0] != "gBC" and not p[1].startswith("finned")])
def test_the_chain_is_a_whip_and_no_shorter_whip_exists(engines, theory, rule, length, text):
    """SPEC §4.3: every such chain is a whip of its length.  In these positions (taken from theories with
    whips, so shorter whips came first) no whip is shorter: W capped below the length does nothing, W
    capped at it finds a whip of that length first."""
    puzzle = _position(text)
    assert engines("W", length - 1).solve(puzzle).steps == []
    first = engines("W", length).solve(puzzle).steps[0]
    assert (first.rule, first.level) == ("whip", length), first.text()


def _states(count: int, seed: int) -> list[ResolutionState]:
    """Resolution states met on W paths of generated puzzles (before each chain step)."""
    rng = random.Random(seed)
    states = []
    for text in TOP_DOWN_14[:count]:
        resolution = sudorules.solve(text, "W")
        state = ResolutionState(Puzzle.from_string(text))
        for step in resolution.steps:
            if step.level >= 2:
                states.append(copy.deepcopy(state))
            state.eliminate_all(step.eliminations)
            for c in step.assertions:
                state.assert_value(c)
    return rng.sample(states, min(len(states), 16))


def _step(mode: str, typed: bool, length: int, target: int, cells) -> Step:
    """The step of a chain found by the compiled search (the bridge's decoding)."""
    rule = {"whip": "whip", "z": "z-chain", "t": "t-whip", "biv": "biv-chain", "g-biv": "g-biv-chain"}[mode]
    if typed:
        rule += "-" + {1: "rc", 2: "rn", 3: "cn", 4: "bn"}[cells[0] // 100]
    return step_of_record([rule, length, [target], [], list(cells)])


def test_the_compiled_chain_search_answers_as_its_reference_and_its_chains_verify():
    """State.chain (generator/trial.c) against reference_chain (engine/seek.py, written plainly), every
    mode, typed or not, lengths 2-3, on real states; every chain it returns passes the independent
    checker (and, blocked, every target its chain gets)."""
    rng = random.Random(25)
    compared = found = 0
    for rs in _states(6, 25):
        labels = [c.label for c in rs.all_candidates()]
        state = State(labels)
        for target in rng.sample(labels, min(6, len(labels))):
            for mode in ("whip", "z", "t", "biv", "g-biv"):
                for length in (2, 3):
                    for typed in (False, True) if mode != "g-biv" else (False,):  # no typed g-bivalue-chains
                        cells = state.chain(target, mode, length, typed, 10**6)
                        assert bool(cells) == reference_chain(labels, target, mode, length, typed), \
                            (target, mode, length, typed, cells)
                        compared += 1
                        if not cells:
                            continue
                        found += 1
                        step = _step(mode, typed, length, target, cells)
                        if mode == "whip":
                            problems = check_typed_whip(rs, step) if typed else []
                        else:
                            targets = [target] + ([] if mode == "g-biv" else sorted(
                                more_targets(labels, mode, list(cells)) - {target}))
                            problems = [p for z in targets for p in check_special_chain_target(
                                rs, step, step_of_record(["x", 0, [z], [], None]).eliminations[0], step.rule)]
                        assert not problems, (step.text(), problems)
    assert compared >= 500 and found >= 20, (compared, found)


def _bivalue_chains_agree(states: int, targets: int, lengths: tuple[int, ...], seed: int) -> tuple[int, int]:
    """State.chain against reference_chain in the modes whose search has the distance bound (biv, z,
    g-biv: generator/trial.c, once a search has built 64 partial chains): (questions, chains found)."""
    rng = random.Random(seed)
    compared = found = 0
    for rs in _states(states, seed)[:states]:
        labels = [c.label for c in rs.all_candidates()]
        state = State(labels)
        for target in rng.sample(labels, min(targets, len(labels))):
            for mode, typed in (("biv", False), ("biv", True), ("z", False), ("z", True), ("g-biv", False)):
                for length in lengths:
                    cells = state.chain(target, mode, length, typed, 10**7)
                    assert bool(cells) == reference_chain(labels, target, mode, length, typed), \
                        (target, mode, length, typed, cells)
                    compared += 1
                    found += bool(cells)
    return compared, found


def test_the_distance_bound_of_bivalue_chains_refuses_no_chain():
    """The bound (a chain needs at least the shortest walk from its last rlc to a closing cell, its
    labels and variables free to repeat) is a bound: the searches that use it answer as the plain
    recursion."""
    compared, found = _bivalue_chains_agree(8, 6, (5, 6), seed=3)
    assert compared >= 250 and found >= 20, (compared, found)


@pytest.mark.slow
def test_the_distance_bound_of_bivalue_chains_refuses_no_chain_up_to_length_8():
    compared, found = _bivalue_chains_agree(16, 10, (5, 6, 7, 8), seed=4)
    assert compared >= 1500 and found >= 200, (compared, found)


def test_theory_names_compose_as_sudorules_does():
    assert Theory("S+Fin+BC+Z+tW+W") == Theory.DEFAULT == "default"
    assert Theory("S+W") == Theory.SW == "SW" and Theory("W+B") == Theory.B
    assert Theory("Z").parts == {"Z", "BC", "W1"} and Theory("gB").parts >= {"gW", "B", "W"}
    labels = {"default": "W+SFin", "SFin+W": "W+SFin", "SW": "W+S", "W": "W", "BC": "BC", "Z+tW": "Z+tW",
              "S": "S", "SFin": "SFin", "BRT": "BRT", "TyZ+TytW+SFin": "TyZ+TytW+W1+SFin",
              "TyW+W+SFin": "TyW+W+SFin", "gBC+W": "W+gBC", "gW+B": "B+gW", "gB": "gB"}
    assert {name: Theory(name).label for name in labels} == labels
    for bad in ("X", "W+", "W++B", "", "TE1+W"):
        with pytest.raises(ValueError):
            Theory(bad)
    assert Theory("w") == "W" and Theory("sfin+W") == "SFin+W" and Theory("bxb") == Theory.BXB  # any case
    assert Theory.BXB.label == "BxB" and families.theory_spec("TE2").engine == "te"
    spec = families.theory_spec("default")
    assert [f.name for f in spec.families] == ["single", "subset", "finned", "biv-chain", "z-chain", "t-whip",
                                               "whip"]
    assert families.theory_spec("BC").top(36) == 20 and families.theory_spec("S").top(36) == 4


def test_the_salience_order_of_every_family_is_spec_5_3():
    """At each level: Subsets > finned fish > typed biv > biv > typed z > z > typed t-whip > t-whip >
    typed whip > whip > g-bivalue-chains > g-whips > braids > g-braids; every level before the next."""
    order = rulegen.salience_order("S+Fin+TyBC+BC+TyZ+Z+TytW+tW+TyW+W+gBC+gW+B+gB", 5)
    for n in (3, 4):
        level = [f"naked-subsets-{n}", f"hidden-subsets-{n}", f"fish-subsets-{n}", f"finned-fish-{n}",
                 f"typed-biv-chain-{n}", f"biv-chain-{n}", f"typed-z-chain-{n}", f"z-chain-{n}",
                 f"typed-t-whip-{n}", f"t-whip-{n}", f"typed-whip-{n}", f"whip-{n}", f"g-biv-chain-{n}",
                 f"g-whip-{n}", f"braid-{n}", f"g-braid-{n}"]
        positions = [order.index(group) for group in level]
        assert positions == sorted(positions), level
        assert positions[-1] < order.index(f"typed-biv-chain-{n + 1}")  # the next level's first chains
    assert order.index("fish-subsets-4") < order.index("finned-fish-4") < order.index("typed-biv-chain-4")
    assert order.index("g-braid-4") < order.index("typed-biv-chain-5")  # no Subsets or fish past size 4
    default = rulegen.salience_order("default", 36)
    assert "biv-chain-20" in default and "biv-chain-21" not in default and "t-whip-36" in default


@pytest.mark.parametrize("theory", ["default", "SFin+W", "Z+tW", "TyBC+TyZ+TytW+TyW+W", "gBC+W"])
def test_generated_puzzles_replay_under_the_new_theories(theory):
    """Paths of generated puzzles re-verify step by step, every printed line parses back to its step."""
    for text in TOP_DOWN_14[:4]:
        resolution = sudorules.solve(text, theory)
        assert resolution.solved
        report = replay(resolution.puzzle, resolution.steps, unique_solution(text))
        assert report.ok, report.problems[:1]
        for step in resolution.steps:
            assert parse_step(step.text()) == step
            assert families.family_of(step).name == step.family


def test_sudorules_own_path_with_the_new_families_reads_back_and_verifies():
    """SudoRules' path (Z+SFin) with finned x-wings, bivalue-chains and z-chains: parsed and
    re-verified step by step; solved with the same theory, we get its rating (its label Z[4] is named
    z-chain[4] by that older SudoRules)."""
    puzzle, steps = read_path((DATA / "sudorules-lightning1-241-Z4.txt").read_text(encoding="utf-8"))
    rules = {step.family for step in steps}
    assert {"finned", "biv-chain", "z-chain", "subset", "whip", "single"} <= rules
    report = replay(puzzle, steps, unique_solution(puzzle))
    assert report.ok and report.steps_checked == len(steps) == 91, report.problems[:1]
    ours = sudorules.solve(puzzle, "Z+SFin")
    assert most_complex_rule(ours) == "Z[4]" and Theory("Z+SFin").label == "Z+SFin"


#: rating labels SudoRules printed: (puzzle, theory, rating type, MOST COMPLEX RULE TRIED); from
#: CSP-Rules-Examples (Sudoku-a/Subsets/...) and from SudoRules 20.1 run here on cb-001 lines with its
#: default configuration (benchmarks/bench_default.py)
SUDORULES_LABELS = [
    (".......24.1.3......7........6....3......82...5........4..1..6..2......75..8......", "SFin", "SFin", "NP"),
    ("9...8...5..1...6.....9.2...8.96.37.43..824..95.41.92.3...5.7.....5...9..6...3...7", "SFin", "SFin", "SHP"),
    (".....9....3..52.9...51362..568...1...29...84...3...569..65239...9.84..5....6.....", "SFin", "SFin", "FSHP"),
    ("..96.5....1.....2.............8...135.79.....6.........2..1....8.....7........5..", "SFin", "SFin", "HT"),
]


@pytest.mark.parametrize("puzzle, theory, rating_type, technique", SUDORULES_LABELS)
def test_the_rating_labels_are_sudorules(puzzle, theory, rating_type, technique):
    resolution = sudorules.solve(puzzle, theory)
    assert format_path(resolution).count(f"rating-type = {rating_type}, MOST COMPLEX RULE TRIED = {technique}") == 1


def test_solve_and_rate_take_composed_theories(tmp_path):
    runner = CliRunner()
    puzzle = TOP_DOWN_14[0]
    done = runner.invoke(main, ["solve", "--theory", "S+Fin+BC+Z+tW+W", puzzle])
    assert done.exit_code == 0 and "rating-type = W+SFin, MOST COMPLEX RULE TRIED = " in done.output
    bad = runner.invoke(main, ["solve", "--theory", "W+X", puzzle])
    assert bad.exit_code == 2 and "unknown theory 'W+X'" in bad.output and "Traceback" not in bad.output
    source = tmp_path / "in.txt"
    source.write_text("\n".join(TOP_DOWN_14[:2]) + "\n")
    out = tmp_path / "out.csv"
    rated = runner.invoke(main, ["rate", str(source), "--rating", "W,BC,S+W,default", "--jobs", "1", "-o", str(out)])
    assert rated.exit_code == 0, rated.output
    header, *rows = out.read_text().splitlines()
    assert header.split(",")[2:6] == ["W", "BC", "S+W", "default"] and len(rows) == 2
    assert all(row.split(",")[6] == "solved" for row in rows)
    wrong = runner.invoke(main, ["rate", str(source), "--rating", "W,Q"])
    assert wrong.exit_code == 2 and "unknown rating 'Q'" in wrong.output


@pytest.mark.slow
def test_bivalue_chains_z_chains_and_t_whips_never_rate_below_whips(cb001):
    """SPEC §4.3: bivalue-chains, z-chains and t-whips are whips, so a theory of them solves a puzzle
    no lower than W (simplest first); 6 cb-001 puzzles per published W level 1-6 (seed 25)."""
    lines = [line.split()[0] for line in (cb001 / "puzzles.txt").read_text().splitlines() if line.strip()]
    published = [int(v) for v in (cb001 / "W-ratings.txt").read_text().split()]
    rng = random.Random(25)
    checked = 0
    for level in range(1, 7):
        for i in rng.sample([i for i, w in enumerate(published) if w == level], 6):
            w = sudorules.solve(lines[i], "W").rating
            for theory in ("BC", "Z", "tW"):
                rating = sudorules.solve(lines[i], theory).rating
                assert rating is None or rating >= w, (i + 1, theory, rating, w)
                checked += 1
    assert checked == 108
