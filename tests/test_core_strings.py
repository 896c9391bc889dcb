"""Puzzle strings parsed in C by the core's single calls (issue 13: one call within 1.5x of the batch
cost) follow exactly the rules of the one Python grid parser, sudorules.puzzle.grid_values."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from sudorules import core
from sudorules.puzzle import PuzzleError, grid_values

GRIDLIKE = st.text(alphabet=st.sampled_from(list("123456789.0|!+-=: \t\n") + ["x", "\ufeff", "é", "\u00a0"]),
                   min_size=60, max_size=110)


def _python_count(text: str):
    try:
        return core.count_solutions(bytes(grid_values(text)))
    except PuzzleError:  # a ValueError, like the C side's
        return "ValueError"


def _c_count(text: str):
    try:
        return core.count_solutions(text)
    except ValueError:
        return "ValueError"


@settings(max_examples=300, deadline=None)
@given(GRIDLIKE)
def test_c_and_python_parsers_agree_on_any_string(text):
    assert _c_count(text) == _python_count(text)


def test_c_parser_on_real_forms():
    puzzle = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
    grid = "\n".join(" ".join(puzzle[9 * r: 9 * r + 9]) for r in range(9))
    assert core.count_solutions(puzzle) == core.count_solutions(grid) == core.count_solutions("\ufeff" + puzzle) == 1
    assert core.solution_status(puzzle)[1] == core.solution_status(core.as_array([puzzle])[0].tobytes())[1]
    assert core.count_solutions("1" + "." * 80) == 2
    assert core.count_solutions("11" + "." * 79) == 0  # contradictory givens: no solution, not an error
    for bad in ("12x" + "." * 78, "1" * 80, "1" * 82, string.ascii_letters):
        assert _c_count(bad) == "ValueError" == _python_count(bad)
