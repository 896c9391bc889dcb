"""A slow, obviously right minlex canonicaliser, used only to check the compiled one (generator/canon.c).

It tries every one of the 3,359,232 maps (transposition x band, row-in-band, stack and
column-in-stack permutations), relabels the digits of each mapped string in their best order, and
keeps the smallest string: no search, no pruning, nothing shared with the C code.

* Puzzles (81 values, 0 empty): the mapped string's digits are renumbered 1, 2, ... in order of
  first appearance, and strings compare as numbers with 0 (``.``) the smallest character.
* Pencilmark states (81 digit masks): the 729-character string has, for cell k, characters
  9k .. 9k+8 = digit or ``.``, and a digit sorts before ``.``.  The best relabelling of a mapped
  state sorts the digits by where they are candidates, read cell by cell: a digit that is a
  candidate in an earlier cell (with ties broken by the next cell, ...) gets the smaller label.

About 2 s per puzzle and 6 s per pencilmark state on one core, so the default test run uses a few.
"""

from __future__ import annotations

from itertools import permutations, product
from typing import Sequence

import numpy as np

#: the 1,296 orders of 9 lines that keep the three chutes (bands or stacks) of three lines together:
#: output line i is source line LINE_ORDERS[k][i]
LINE_ORDERS = np.array([[3 * chute + line for chute, inner in zip(chutes, inners) for line in inner]
                        for chutes in permutations(range(3))
                        for inners in product(list(permutations(range(3))), repeat=3)], dtype=np.intp)

#: the maps, in the order this module tries them: transposition, then row order, then column order
MAPS = 2 * len(LINE_ORDERS) * len(LINE_ORDERS)


#: for each line order, where each source line goes (the inverse permutations)
LINE_PLACES = np.argsort(LINE_ORDERS, axis=1)

#: row orders handled together (36 x 1296 maps at a time)
CHUNK = 36


def _mapped(grid: np.ndarray, transpose: int, rows: np.ndarray) -> np.ndarray:
    """The (len(rows) * 1296, 81) strings of ``grid`` (9x9) under one transposition, the row orders
    ``rows`` (k, 9) and every column order: string [a * 1296 + b] has output cell (i, j) = source
    cell (rows[a][i], LINE_ORDERS[b][j])."""
    source = grid.T if transpose else grid
    ordered = source[rows]                                   # (k, 9, 9): output row i = source row
    cells = ordered[:, :, LINE_ORDERS]                       # (k, 9, 1296, 9)
    return cells.transpose(0, 2, 1, 3).reshape(len(rows) * len(LINE_ORDERS), 81)


def _smallest(words: np.ndarray) -> tuple[tuple[int, ...], int]:
    """The smallest row of an (N, W) unsigned array read as one big number, most significant word
    first, and how many rows equal it."""
    candidates = np.arange(len(words))
    for column in range(words.shape[1]):
        values = words[candidates, column]
        candidates = candidates[values == values.min()]
    return tuple(int(w) for w in words[candidates[0]]), len(candidates)


def _pack(chars: np.ndarray) -> np.ndarray:
    """(N, L) uint8 characters -> (N, W) big-endian 64-bit words holding them in order (zero padded
    at the end), so that comparing word rows as numbers compares character rows lexicographically."""
    n, length = chars.shape
    padded = np.zeros((n, -(-length // 8) * 8), dtype=np.uint8)
    padded[:, :length] = chars
    return padded.view(">u8")


def _keep(best, count, words):
    form, ties = _smallest(words)
    if best is None or form < best:
        return form, ties
    return best, count + ties if form == best else count


def _unpack(words: tuple[int, ...], length: int) -> list[int]:
    return [b for w in words for b in int(w).to_bytes(8, "big")][:length]


def minlex_puzzle(values: Sequence[int]) -> tuple[str, int]:
    """``(form, automorphisms)`` of 81 cell values (0 empty, 1..9): the smallest string over all
    maps, digits renumbered by first appearance, and the number of maps that give it."""
    grid = np.asarray(values, dtype=np.uint8).reshape(9, 9)
    best, count = None, 0
    for transpose in (0, 1):
        source = grid.T if transpose else grid
        for start in range(0, len(LINE_ORDERS), CHUNK):
            strings = _mapped(grid, transpose, LINE_ORDERS[start:start + CHUNK])    # (N, 81) 0..9
            # first[:, d-1]: the first position of digit d in each string (81 when absent), the
            # smallest output position 9 * (row place) + (column place) of its cells; its rank
            # among the digits is its new name minus one
            row_places = 9 * LINE_PLACES[start:start + CHUNK]                         # (k, 9)
            first = np.full((len(row_places), len(LINE_PLACES), 9), 81, dtype=np.int64)
            for row, column in zip(*np.nonzero(source)):
                digit = source[row, column] - 1
                np.minimum(first[:, :, digit], row_places[:, row, None] + LINE_PLACES[None, :, column],
                           out=first[:, :, digit])
            first = first.reshape(len(strings), 9)
            rank = first.argsort(axis=1, kind="stable").argsort(axis=1)
            labels = np.concatenate([np.zeros((len(strings), 1), np.uint8), rank.astype(np.uint8) + 1], axis=1)
            best, count = _keep(best, count, _pack(np.take_along_axis(labels, strings, axis=1)))
    return "".join(str(v) if v else "." for v in _unpack(best, 81)), count


def minlex_marks(masks: Sequence[int]) -> tuple[list[int], int]:
    """``(form, automorphisms)`` of 81 candidate masks (bit d-1 for digit d) under the pencilmark
    order above; the form as 81 masks."""
    grid = np.asarray(masks, dtype=np.uint16).reshape(9, 9)
    best, count = None, 0
    for transpose in (0, 1):
        for start in range(0, len(LINE_ORDERS), CHUNK):
            strings = _mapped(grid, transpose, LINE_ORDERS[start:start + CHUNK])    # (N, 81) masks
            n = len(strings)
            present = np.stack([(strings & (1 << d)) != 0 for d in range(9)])      # (9, N, 81)
            # each digit's presence vector, first cell most significant, as two big-endian words;
            # the digit with the largest vector (a candidate earliest) gets the first name
            vectors = np.zeros((9, n, 16), dtype=np.uint8)
            vectors[:, :, :11] = np.packbits(present, axis=2)
            words = vectors.view(">u8")                                             # (9, N, 2)
            order = np.argsort(~words[:, :, 1].T, axis=1, kind="stable")            # (N, 9)
            order = np.take_along_axis(order, np.argsort(~np.take_along_axis(words[:, :, 0].T, order, axis=1),
                                                         axis=1, kind="stable"), axis=1)
            # the 729 characters per map: name L of cell k is digit order[L]; 0 where it is a
            # candidate (sorts first), 1 where it is not
            renamed = np.empty((n, 81, 9), dtype=bool)
            for name in range(9):
                renamed[:, :, name] = ~present[order[:, name], np.arange(n)]
            best, count = _keep(best, count, _pack(np.packbits(renamed.reshape(n, 729), axis=1)))
    chars = np.unpackbits(np.frombuffer(bytes(_unpack(best, 92)), dtype=np.uint8))[:729]
    return [sum(1 << d for d in range(9) if not chars[9 * k + d]) for k in range(81)], count
