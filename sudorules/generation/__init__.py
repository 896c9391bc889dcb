"""The generator side of sudorules: puzzles made and counted, and collections compared up to symmetry.

* :mod:`~sudorules.generation.canonical` - canonical (minlex) forms of puzzles, grids and pencilmark
  states, their automorphisms and the maps to them (``sudorules canon``).
"""

from .canonical import Canonical, Transform, automorphisms, canonical, canonical_batch, canonicalize

__all__ = ["Canonical", "Transform", "automorphisms", "canonical", "canonical_batch", "canonicalize"]
