"""The generator side: minimal puzzles generated (``generate``) and counted (``count``)."""
