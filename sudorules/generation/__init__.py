"""The generator side of sudorules: puzzles made and counted, and collections compared up to symmetry.

* :mod:`~sudorules.generation.generate` - minimal puzzles by the three generators of the
  controlled-bias papers (``sudorules generate``);
* :mod:`~sudorules.generation.count` - the number of minimal puzzles per grid, by subsets or
  supersets (``sudorules count``);
* :mod:`~sudorules.generation.canonical` - canonical (minlex) forms of puzzles, grids and pencilmark
  states, their automorphisms and the maps to them (``sudorules canon``).
"""

# Eager, unlike the other subpackages' exports: the function `canonical` shares its name with its
# module, which importing the module binds here.
from .canonical import Canonical, Transform, automorphisms, canonical, canonical_batch, canonicalize

__all__ = ["Canonical", "Transform", "automorphisms", "canonical", "canonical_batch", "canonicalize"]
