"""Canonical (minlex) forms (issue 26): generator/canon.c through sudorules.generation.canonical.

Checked against published pairs, against an independent exhaustive reference over all 3,359,232
maps (tests/canon_reference.py: a few items in the default run, more with ``-m slow``), and by their
defining properties: invariance under random maps and renamings, idempotence, the returned map
really giving the form, known automorphism counts.
"""

from __future__ import annotations

import numpy as np
import pytest

import sudorules
from sudorules import Puzzle, core
from sudorules.generation import Transform, automorphisms, canonical, canonical_batch, canonicalize

from canon_reference import minlex_marks, minlex_puzzle
from conftest import TOP_DOWN_14

#: the most symmetric grid: 648 automorphisms, the largest group of any grid (Russell and Jarvis,
#: "Mathematics of Sudoku"); gsf's `sudoku -f'%#aC'` prints 648 for it too
GRID_648 = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
#: Red Ed's minimum and maximum min-lex grids (enjoysudoku.com forum, "Canonical Form", 28 Jan 2007);
#: the maximum one is "72-way automorphic"
MIN_MINLEX_GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
MAX_MINLEX_GRID = "123456789457893612986217354274538196531964827698721435342685971715349268869172543"
#: the second and the second-to-last grids of the minlex catalogue of all 5,472,730,538 grids (dobrichev,
#: enjoysudoku.com forum, "MinLex Puzzles", 25 Jan 2021)
CATALOGUE_GRIDS = [
    MIN_MINLEX_GRID,
    "123456789456789123789123456214365897365897214897214365531642978648971532972538641",
    "123456789457389621896217354268741593745893162931625847382164975574938216619572438",
    MAX_MINLEX_GRID,
]
#: (puzzle, minlex form) published with Michael Deverin's row-minimal canonicaliser (subcanon.c,
#: 2007, in gsf's sudoku as distributed with CSP-Rules V2.1): Gordon Royle's first 17-clue puzzle,
#: and the worked example of its comment
PUBLISHED_PUZZLES = [
    ("000000010400000000020000000000050407008000300001090000300400200050100000000806000",
     "000000001000000020000003000000040500006000300007810000010020004030000070950000000"),
    (".4....9...18.5...6..2..4..3...5..6.8.........6.9..1...8..9..2..5...3.46...1....7.",
     "..............1.23.24.5......25..1.4..6..7..8.3....7...8..3..4.27.6...5.9.......1"),
]
#: (solution grid, minlex form) of the "tough" example of sudokuwiki.org/Sudoku_Min_Lex
PUBLISHED_GRID = ("369218475215749863487635912754861239631924758928357641173482596542196387896573124",
                  "123456789457189236698273541261947853745831692839625417384792165512368974976514328")
#: two cb-001 puzzles where gsf's `sudoku -f'%#mc'` (CSP-Rules V2.1 copy) prints an isomorph that is
#: not the smallest: (puzzle, gsf's form, the minlex form).  On the first 2,000 cb-001 puzzles gsf
#: agrees with this module 1,789 times; in the 211 other cases its form is larger (never smaller).
GSF_LARGER = [
    ("12.....8......9.....9.2.4....4..7..6.....1.4..7....35..4..6.5....2374.1....2..9..",
     "000000001002003004030040050000026040000470000120030500007508030060000000308010009",
     "........1..1..2.3.34..5.........13....3.4.6722....8.9.....2...4..29....77...86..."),
    (".23.5.7.9.....91..7..........46.....3......1..9.241.3.5....2.76...8..9.........51",
     "000000001002003000040021560000300005673500020800000700000430000006180004900002000",
     "........1..2..3....31.4.56....7...8.2.......66..5823....39.....17...5..442......."),
]


def dots(text: str) -> str:
    return text.replace("0", ".")


def values(text: str) -> list[int]:
    return [0 if c in ".0" else int(c) for c in text]


def random_puzzles(count: int, seed: int) -> list[str]:
    """Puzzles of 17 to 40 givens cut from random grids (not all unique: forms do not care)."""
    rng = np.random.default_rng(seed)
    puzzles = []
    for grid in core.random_grids(count, seed):
        keep = rng.permutation(81)[: rng.integers(17, 41)]
        cells = np.zeros(81, dtype=int)
        cells[keep] = grid[keep]
        puzzles.append("".join(str(v) if v else "." for v in cells))
    return puzzles


def random_marks(count: int, seed: int) -> list[list[int]]:
    """Pencilmark states: a random grid's digits plus random extra candidates in some cells."""
    rng = np.random.default_rng(seed)
    states = []
    for grid in core.random_grids(count, seed):
        extra = rng.integers(0, 512, 81) & rng.integers(0, 512, 81) * (rng.random(81) < 0.6)
        states.append([int((1 << (int(v) - 1)) | e) for v, e in zip(grid, extra)])
    return states


# ---- published forms ---------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle, form", PUBLISHED_PUZZLES)
def test_published_puzzle_forms(puzzle, form):
    assert canonical(puzzle) == dots(form)


def test_published_grid_form_of_a_solution():
    grid, form = PUBLISHED_GRID
    assert canonical(grid) == form
    puzzle = "3.9...4..2..7.9....87......75..6.23.6..9.4..8.28.5..41......59....1.6..7..6...1.4"
    assert str(core.solve(puzzle)) == grid


def test_catalogue_grids_are_their_own_forms_in_order():
    assert canonical(CATALOGUE_GRIDS) == CATALOGUE_GRIDS
    assert CATALOGUE_GRIDS == sorted(CATALOGUE_GRIDS)


def test_known_automorphism_counts():
    assert automorphisms(GRID_648) == 648
    assert automorphisms(MAX_MINLEX_GRID) == 72
    assert automorphisms("".join(map(str, core.random_grids(1, 11)[0]))) == 1
    # the empty grid is fixed by every map; one given by the maps that keep its cell: 3,359,232 / 81
    assert automorphisms("." * 81) == 3359232
    assert automorphisms("5" + "." * 80) == 3359232 // 81
    assert canonical("5" + "." * 80) == "." * 80 + "1"


@pytest.mark.parametrize("puzzle, gsf_form, form", GSF_LARGER)
def test_where_gsf_prints_a_larger_isomorph(puzzle, gsf_form, form):
    assert canonical(puzzle) == form
    assert canonical(dots(gsf_form)) == form  # the same class ...
    assert form.replace(".", "0") < gsf_form  # ... whose smallest string is ours


# ---- the exhaustive reference ------------------------------------------------------------------


def check_against_reference(puzzle: str) -> None:
    form, count = minlex_puzzle(values(puzzle))
    found = canonicalize(puzzle)
    assert (str(found.form), found.automorphisms) == (form, count)


def test_reference_agrees_on_a_puzzle_and_a_grid():
    check_against_reference(random_puzzles(1, 3)[0])
    check_against_reference("".join(map(str, core.random_grids(1, 4)[0])))


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", random_puzzles(6, 21) + TOP_DOWN_14[:4] + [p for p, _ in PUBLISHED_PUZZLES]
                         + [p for p, _, _ in GSF_LARGER])
def test_reference_agrees_on_puzzles(puzzle):
    check_against_reference(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("grid", ["".join(map(str, g)) for g in core.random_grids(3, 22)]
                         + [GRID_648, MIN_MINLEX_GRID, MAX_MINLEX_GRID])
def test_reference_agrees_on_grids(grid):
    check_against_reference(grid)


@pytest.mark.slow
def test_reference_agrees_on_symmetric_and_sparse_puzzles():
    # a 180-degree symmetric puzzle (its rotation is a map with renaming), and puzzles of 1-3 givens
    for puzzle in ["1" + "." * 79 + "2", "12" + "." * 79, "1...2" + "." * 76, "." * 40 + "5" + "." * 40]:
        check_against_reference(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("state", random_marks(2, 23))
def test_reference_agrees_on_pencilmark_states(state):
    form, count = minlex_marks(state)
    found, counts, _ = canonical_batch(np.array([state]), marks=True)
    assert (found[0].tolist(), int(counts[0])) == (form, count)


# ---- properties --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["puzzles", "grids"])
def test_invariant_under_random_maps_and_renamings(kind):
    rng = np.random.default_rng(7)
    items = (random_puzzles(20, 5) + TOP_DOWN_14 if kind == "puzzles"
             else ["".join(map(str, g)) for g in core.random_grids(20, 6)] + [GRID_648])
    for item in items:
        found = canonicalize(item)
        for _ in range(3):
            again = canonicalize(Transform.random(rng).apply(item))
            assert again.form == found.form
            assert again.automorphisms == found.automorphisms


def test_pencilmark_forms_are_invariant():
    rng = np.random.default_rng(8)
    for state in random_marks(10, 9):
        puzzle = Puzzle.from_marks(state)
        form = canonicalize(puzzle).form
        assert form.is_pencilmark
        for _ in range(3):
            assert canonicalize(Transform.random(rng).apply(puzzle)).form == form


def test_forms_are_their_own_forms():
    items = random_puzzles(20, 12) + ["".join(map(str, g)) for g in core.random_grids(10, 13)]
    forms = canonical(items)
    assert canonical(forms) == forms
    marks = np.array(random_marks(5, 14), dtype=np.uint16)
    done = canonical_batch(marks, marks=True)[0]
    assert (canonical_batch(done, marks=True)[0] == done).all()


def test_the_map_takes_each_input_to_its_form():
    items = random_puzzles(10, 15) + ["".join(map(str, g)) for g in core.random_grids(5, 16)]
    array = core.as_array(items)
    forms, _, maps = canonical_batch(array)
    for item, form, raw in zip(items, forms, maps):
        transform = Transform.from_bytes(raw)
        assert transform.apply(item) == Puzzle(form.tolist())
        assert transform.inverse().apply(Puzzle(form.tolist())) == Puzzle(values(item))
    for state in random_marks(3, 17):
        found = canonicalize(Puzzle.from_marks(state))
        assert found.transform.apply(Puzzle.from_marks(state)) == found.form


def test_grid_search_and_general_search_agree():
    """Complete grids have their own search; the general one must give the same forms and counts."""
    grids = np.vstack([core.random_grids(8, 18), core.as_array([GRID_648, MIN_MINLEX_GRID, MAX_MINLEX_GRID])])
    fast = canonical_batch(grids, mode="grid")
    slow = canonical_batch(grids, mode="search")
    assert (fast[0] == slow[0]).all() and (fast[1] == slow[1]).all()


def test_a_solved_pencilmark_state_has_the_form_of_its_grid():
    grids = core.random_grids(5, 19)
    masks = (1 << (grids.astype(np.uint16) - 1)).astype(np.uint16)
    forms = canonical_batch(masks, marks=True)[0]
    assert (forms == (1 << (canonical_batch(grids)[0].astype(np.uint16) - 1))).all()


# ---- the Python API ----------------------------------------------------------------------------


def test_api_kinds_of_input():
    puzzle = TOP_DOWN_14[0]
    form = canonical(puzzle)
    assert sudorules.canonical(puzzle) == form
    assert Puzzle.from_string(puzzle).canonical() == Puzzle.from_string(form)
    assert canonical([puzzle, Puzzle.from_string(puzzle)]) == [form, form]
    array = canonical(core.as_array([puzzle]))
    assert array.dtype == np.uint8 and array.shape == (1, 81) and str(Puzzle(array[0].tolist())) == form
    assert sudorules.automorphisms([puzzle]) == [1]
    assert automorphisms(core.as_array([puzzle, GRID_648])).tolist() == [1, 648]
    assert canonical_batch(np.zeros((0, 81), dtype=np.uint8))[0].shape == (0, 81)


def test_api_errors():
    with pytest.raises(sudorules.PuzzleError, match="bad character 'x' at column 3"):
        canonical("12x" + "." * 78)
    with pytest.raises(sudorules.InputError, match="cell values must be"):  # was a bare ValueError
        canonical(np.full((1, 81), 10))
    with pytest.raises(sudorules.InputError, match="shape"):
        sudorules.automorphisms(np.zeros((3, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match="not a complete valid grid"):
        canonical_batch(core.as_array([TOP_DOWN_14[0]]), mode="grid")
    with pytest.raises(ValueError):
        canonical_batch(np.full((1, 81), 600), marks=True)
    with pytest.raises(ValueError):
        Transform(False, (0, 3, 1, 2, 4, 5, 6, 7, 8), tuple(range(9)), tuple(range(10)))


def test_random_transforms_take_a_generator_a_random_or_a_seed():
    """README: ``Transform.random(rng)``; a ``random.Random`` failed on ``.integers`` (an
    AttributeError).  A numpy Generator, a random.Random and a seed are taken, the same seed giving
    the same transform; anything else is an OptionError saying what is taken."""
    import random

    puzzle = Puzzle.from_string(TOP_DOWN_14[0])
    for make in (random.Random, np.random.default_rng, int):
        drawn = [Transform.random(make(seed)) for seed in (3, 3, 4)]
        assert drawn[0] == drawn[1] and drawn[0] != drawn[2]
        assert canonicalize(drawn[0].apply(puzzle)).form == canonicalize(puzzle).form
    assert Transform.random(5) == Transform.random(np.random.default_rng(5))
    generator = random.Random(9)
    assert len({Transform.random(generator) for _ in range(20)}) == 20  # a generator's state moves on
    for bad in (None, 1.5, -1, "3", np.random.RandomState(1)):
        with pytest.raises(sudorules.OptionError, match="^rng: expected a numpy Generator, a random.Random or a seed"):
            Transform.random(bad)


def test_invalid_grids_and_repeated_digits_take_the_general_search():
    broken = GRID_648[:80] + GRID_648[0]  # 81 givens, not a grid
    found = canonicalize(Puzzle(values(broken)))
    assert found.transform.apply(Puzzle(values(broken))) == found.form
    assert canonical_batch(core.as_array([broken]), mode="search")[0].tolist() == [list(found.form.givens)]
