"""Working with collections of rated puzzles: ``--format`` templates over a command's columns
(:mod:`.template`), selecting and splitting rated files by an expression over their columns
(:mod:`.select`, :mod:`.expression`), and the tables of our CSV and Parquet outputs (:mod:`.table`)."""

from .template import RowTemplate, row_template

__all__ = ["RowTemplate", "row_template"]
