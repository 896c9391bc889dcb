"""A slow, simple, obviously right Sudoku solution counter, used only to cross-check the C core.

Plain recursive backtracking on candidate sets: pick the empty cell with the fewest candidates, try
each candidate in turn.  No propagation beyond "a digit is not a candidate where a peer holds it".
"""

from __future__ import annotations

from typing import Optional, Sequence

from sudorules.puzzle import PEERS


def count_solutions(grid: Sequence[int], limit: int = 2) -> tuple[int, Optional[list[int]]]:
    """``(min(count, limit), first solution or None)`` for 81 values (0 = empty, 1..9 = given)."""
    cells = list(grid)
    for cell, digit in enumerate(cells):
        if digit and any(cells[peer] == digit for peer in PEERS[cell]):
            return 0, None  # contradictory givens
    found: list[list[int]] = []
    count = _search(cells, limit, found)
    return count, (found[0] if found else None)


def _search(cells: list[int], limit: int, found: list[list[int]]) -> int:
    best_cell, best_options = -1, None
    for cell in range(81):
        if cells[cell] == 0:
            used = {cells[peer] for peer in PEERS[cell]}
            options = [d for d in range(1, 10) if d not in used]
            if best_options is None or len(options) < len(best_options):
                best_cell, best_options = cell, options
                if not options:
                    return 0
    if best_options is None:  # no empty cell: a solution
        if not found:
            found.append(list(cells))
        return 1
    count = 0
    for digit in best_options:
        cells[best_cell] = digit
        count += _search(cells, limit - count, found)
        cells[best_cell] = 0
        if count >= limit:
            break
    return count
