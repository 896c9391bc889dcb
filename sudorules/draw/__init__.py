"""Pictures of resolution paths: a grid and one step as SVG, a whole path as a self-contained HTML page.

* :func:`grid_svg`, :func:`step_svg`, :func:`puzzle_svg` - SVG text (:mod:`.svg`);
* :func:`step_marks` / :class:`Marks` - what a step draws (targets, left- and right-linking
  candidates, links from their anchors, a Subset's cells and digits, a Single's assertion);
* :func:`path_html` - one HTML page, an index of the puzzles and a step viewer that draws the opened
  one (:mod:`.html`);
  :func:`write_path_html` writes it; :func:`resolution_html` is the notebook form;
* :func:`svg_steps` - one SVG file per step, for papers and slides.

``Puzzle._repr_svg_`` and ``Resolution._repr_html_`` (notebooks) are :func:`puzzle_svg` and
:func:`resolution_html`.
"""

from .html import final_state, iter_states, path_html, resolution_html, svg_steps, write_path_html
from .svg import (Link, Marks, chain_anchors, grid_svg, legend_svg, puzzle_svg, step_marks, step_svg)

__all__ = ["Link", "Marks", "chain_anchors", "final_state", "grid_svg", "iter_states", "legend_svg", "path_html",
           "puzzle_svg", "resolution_html", "step_marks", "step_svg", "svg_steps", "write_path_html"]
