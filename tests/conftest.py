"""Shared fixtures: where the published oracle data lies (``../shared/oracle`` beside the checkout)."""

from pathlib import Path

import pytest

from sudorules import core

ROOT = Path(__file__).resolve().parent.parent
ORACLE = ROOT.parent / "shared" / "oracle"
CB001 = ORACLE / "cb-001"


@pytest.fixture(scope="session")
def cb001() -> Path:
    """The published controlled-bias collection 001; the test is skipped where it is absent."""
    if not (CB001 / "puzzles.txt").is_file():
        pytest.skip("../shared/oracle/cb-001 is not present")
    return CB001


def unique_solution(puzzle) -> list[int]:
    """The 81 digits of a puzzle's solution, asserting that it is unique (core check)."""
    count, solution = core.solution_status(puzzle)
    assert count == 1
    return list(solution)


#: the first 12 puzzles of the top-down generator with seed 14 (grid sampler of commit 2d784f6), kept
#: as text: a new grid sampler changes what a seed gives, and these tests need Subsets and whips
TOP_DOWN_14 = [
    "48..............7...29..5.12345......986..24.......7...7...6.1...9....2.....18...",
    ".......1.31...8.....7..59....97...24....8...52..6....7.....7.4..6.5.2...1.....3..",
    "....36...7.91......3..576.8..3.....2..4.9.5..2..38........2..85........9.1...3..7",
    "25..1.9....9....711....9.8......2.6.8..5....3....3..4.4....7......4...2.7.68..39.",
    ".2.3......59.1...4....7..........98.2.....4.55..1...3..32..........9..7.4.7.6.8.2",
    "..6.2...1......38........744..5..........7.9...8..6.....37....2.148....3.7.4.....",
    ".9..5..1.3.8.2.5..2....9..3.....4....89.....1...2.....8.16..27...674..9....1....6",
    "6.24...7..54.....2..95........26.83..1..7.4...7..3.....9...32......9.7..3....2..5",
    "..75..164..6...72..2..3...........8.1........269..4......8....7.34...........765.",
    "..9..4.13...3....731..254...947..5.85.....9.............52.......6..3.8.1.......6",
    "..25.....1...4.........1928.......6.8..6......74...51....3.4..9.5.8..1....9....4.",
    "..4.........27....65...31...6..425.3...6....1....51.2..9....4..5.2..78...4...6...",
]
