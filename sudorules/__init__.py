"""sudorules: solve Sudoku puzzles by resolution rules, rate them (W, B), generate and study minimal puzzles.

The core types are in :mod:`sudorules.puzzle` (cells, digits, candidates, :class:`Puzzle`) and
:mod:`sudorules.reader` (puzzle files); the compiled bitset solver is behind :mod:`sudorules.core`.
"""

from .puzzle import Candidate, Puzzle, PuzzleError
from .reader import PuzzleRecord, parse_puzzle, read_puzzle_file, read_puzzles

__all__ = ["Candidate", "Puzzle", "PuzzleError", "PuzzleRecord", "parse_puzzle", "read_puzzle_file",
           "read_puzzles"]
__version__ = "0.1.0"
