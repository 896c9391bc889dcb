"""Drawing a grid and one resolution step as SVG (pure Python, no dependency).

The picture of a step is the grid *before* the step (givens bold, placed values, the remaining
candidates as small digits in a 3x3 layout per cell) with the step's pattern drawn on it:

* whips and braids (SPEC §4): the target(s) crossed out in red, the left-linking candidates
  (green discs) and right-linking candidates (blue squares), a dashed line inside each CSP variable
  from its left-linking to its right-linking candidate, and one arrow per chain cell from the
  cell's *anchor* to its left-linking candidate.  The anchor of a whip's cell k is R(k-1) (the
  target for k = 1); a braid's left-linking candidate may hang on the target or on any earlier
  right-linking candidate, and its anchor is the first of target, R1, R2, ... it is linked to;
* Subsets (SPEC §3): the pattern's cells and the pattern's digits in them, the base and cover lines
  of a fish, the targets crossed out;
* Singles: the asserted candidate and the unit (or cell) that forces it.

Every drawn element carries ``data-*`` attributes (``data-kind``: ``candidate``, ``given``,
``value``, ``target``, ``llc``, ``rlc``, ``link``, ``variable``, ``subset-cell``,
``subset-candidate``, ``subset-base``, ``subset-cover``, ``assertion``, ``unit``; and
``data-candidate="n5r3c7"``, ``data-cell="r3c7"``, ``data-from`` / ``data-to`` ...), so that tests
and scripts can read a picture back from the DOM.

A picture is assembled from parts (:class:`SvgParts`): a fixed head and grid lines, the marks drawn
under the digits, one fragment per cell, and the marks drawn over the digits.  A cell's fragment
depends only on the cell and its content, so the HTML viewer (:mod:`sudorules.draw.html`) ships
each distinct fragment once and rebuilds every step's picture from indices: the page and the SVG
files are drawn by this one module.
"""

from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence, Union
from xml.sax.saxutils import escape, quoteattr

from ..puzzle import (CELLS, Candidate, Puzzle, block_cells, block_of, cell_at, cell_name, column_cells, column_of,
                      row_cells, row_of)
from ..resolution.state import ResolutionState
from ..resolution.steps import GCandidate, Step

# --- geometry (user units; ``size`` only scales the picture) -------------------------------------
CELL = 60.0  #: side of a cell
SUB = CELL / 3  #: side of a candidate's place inside a cell
PAD = 24.0  #: room for the row and column labels (left and top)
EDGE = 6.0  #: room on the right and bottom
GRID = 9 * CELL
WIDTH = PAD + GRID + EDGE
HEIGHT = PAD + GRID + EDGE
MARK_RADIUS = 9.0  #: radius of the discs and rings drawn around a candidate

#: Colours: one place, shared by the marks and the legend.
COLOURS = {
    "target": ("#ffd6d6", "#c62828"),  # fill, stroke
    "llc": ("#b9f0b0", "#2e7d32"),
    "rlc": ("#bcd6ff", "#1f4fa8"),
    "link": ("none", "#7b1fa2"),
    "variable": ("none", "#555555"),
    "subset-cell": ("#fff2a8", "#c9a400"),
    "subset-candidate": ("#ffc857", "#a66f00"),
    "subset-base": ("#fff8d6", "none"),
    "subset-cover": ("#f1e6ff", "none"),
    "assertion": ("#c9efc9", "#2e7d32"),
    "assertion-candidate": ("#7fd47f", "#1b5e20"),
    "unit": ("#e8f1ff", "none"),
}

STYLE = (
    "<style>"
    ".sr-bg{fill:#fff}"
    ".sr-thin{stroke:#9a9a9a;stroke-width:1}"
    ".sr-thick{stroke:#222;stroke-width:2.6;fill:none}"
    ".sr-label{font:11px sans-serif;fill:#666;text-anchor:middle;dominant-baseline:central}"
    ".sr-given{font:bold 36px sans-serif;fill:#111;text-anchor:middle;dominant-baseline:central}"
    ".sr-value{font:32px sans-serif;fill:#1e56b0;text-anchor:middle;dominant-baseline:central}"
    ".sr-cand{font:14px sans-serif;fill:#444;text-anchor:middle;dominant-baseline:central}"
    ".sr-cross{stroke:%s;stroke-width:2.4;stroke-linecap:round}"
    ".sr-link{fill:none;stroke:%s;stroke-width:2.2;stroke-opacity:.85}"
    ".sr-head{fill:%s;fill-opacity:.9}"
    ".sr-var{stroke:%s;stroke-width:1.4;stroke-dasharray:3 3;fill:none}"
    ".sr-caption{font:13px monospace;fill:#222}"
    ".sr-legend{font:13px sans-serif;fill:#222;dominant-baseline:central}"
    "</style>"
) % (COLOURS["target"][1], COLOURS["link"][1], COLOURS["link"][1], COLOURS["variable"][1])


def _f(x: float) -> str:
    """A coordinate, short: at most one decimal."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _cell_origin(cell: int) -> tuple[float, float]:
    return PAD + (column_of(cell) - 1) * CELL, PAD + (row_of(cell) - 1) * CELL


def candidate_centre(candidate: Candidate) -> tuple[float, float]:
    """The centre, in user units, of a candidate's small digit (digits 1-9 in a 3x3 layout)."""
    x, y = _cell_origin(candidate.cell)
    d = candidate.digit - 1
    return x + (d % 3 + 0.5) * SUB, y + (d // 3 + 0.5) * SUB


def _attrs(**data: object) -> str:
    """``data-*`` attributes from keyword arguments (``data_kind`` -> ``data-kind``), None skipped."""
    return "".join(f" {key.replace('_', '-')}={quoteattr(str(value))}"
                   for key, value in data.items() if value is not None)


# --- what to draw for one step --------------------------------------------------------------------
@dataclass(frozen=True)
class Link:
    """One arrow of a chain: from the ``anchor`` candidate to chain cell ``index``'s left-linking candidate.

    ``anchor_kind`` is ``target`` or ``rlc`` and ``anchor_index`` the number (1-based) of the
    right-linking candidate it starts from (0 for the target)."""

    source: Candidate
    destination: Candidate
    index: int
    anchor_kind: str
    anchor_index: int

    @property
    def anchor_name(self) -> str:
        """``target`` or ``rlc3``."""
        return "target" if self.anchor_kind == "target" else f"rlc{self.anchor_index}"


@dataclass(frozen=True)
class Marks:
    """The pattern of one step, as things to draw (see :func:`step_marks`)."""

    family: str = ""
    targets: tuple[Candidate, ...] = ()
    llcs: tuple[Candidate, ...] = ()
    rlcs: tuple[Candidate, ...] = ()
    links: tuple[Link, ...] = ()
    variables: tuple[tuple[str, Candidate, Candidate], ...] = ()  #: (variable name, llc, rlc) of full chain cells
    subset_cells: tuple[int, ...] = ()
    subset_candidates: tuple[Candidate, ...] = ()
    subset_bases: tuple[str, ...] = ()  #: fish base lines, e.g. ("r2", "r7")
    subset_covers: tuple[str, ...] = ()
    assertions: tuple[Candidate, ...] = ()
    units: tuple[str, ...] = ()  #: the unit that forces a Single: "r5", "c3", "b7" or a cell "r5c3"

    def kinds(self) -> tuple[str, ...]:
        """The kinds of marks present, for the legend."""
        present = [("target", self.targets), ("llc", self.llcs), ("rlc", self.rlcs), ("link", self.links),
                   ("subset-cell", self.subset_cells), ("subset-candidate", self.subset_candidates),
                   ("assertion", self.assertions)]
        return tuple(kind for kind, items in present if items)


def _linked(candidate: Candidate, anchor: Union[Candidate, GCandidate]) -> bool:
    """Linked to a candidate, or g-linked to a g-candidate (linked to each of its labels)."""
    return anchor.is_linked(candidate) if isinstance(anchor, GCandidate) else candidate.is_linked(anchor)


def _spots(right: Union[Candidate, GCandidate], state: Optional[ResolutionState]) -> tuple[Candidate, ...]:
    """Where a right-linking object is drawn: the candidate, or the labels of a g-candidate (those
    still candidates, when the state is known)."""
    if not isinstance(right, GCandidate):
        return (right,)
    present = tuple(c for c in right.labels if state is None or state.is_candidate(c))
    return present or right.labels


def _point(right: Union[Candidate, GCandidate], state: Optional[ResolutionState]) -> Candidate:
    """The one candidate an arrow or a dashed line starts from: a g-candidate's middle spot."""
    spots = _spots(right, state)
    return spots[len(spots) // 2]


def chain_anchors(step: Step) -> list[Optional[tuple[str, int, Candidate]]]:
    """For each chain cell, where its left-linking candidate hangs: ``(kind, index, candidate)``.

    ``kind`` is ``target`` (index 0; a blocked whip[1] or whip[2] with several targets hangs on the
    first target it is linked to) or ``rlc`` (index i of R_i, 1-based).  Whip (SPEC §4.2): cell 1
    hangs on the target, cell k on R(k-1).  Braid (SPEC §4.4): the first of target, R1, R2, ...
    that L_k is linked to.  A whip cell not linked to R(k-1) (not a valid whip) falls back to the
    braid rule; None when L_k is linked to nothing before it.  A g-whip's right-linking g-candidate
    (SPEC §4.5) anchors the left-linking candidates g-linked to it; the anchor returned is then the
    g-candidate itself."""
    anchors: list[Optional[tuple[str, int, Candidate]]] = []
    targets = list(step.eliminations)
    for k, cell in enumerate(step.chain, start=1):
        left = cell.left
        if "braid" not in step.rule and k >= 2:
            previous = step.chain[k - 2].right
            if previous is not None and _linked(left, previous):
                anchors.append(("rlc", k - 1, previous))
                continue
        found: Optional[tuple[str, int, Candidate]] = None
        for target in targets:
            if left.is_linked(target):
                found = ("target", 0, target)
                break
        if found is None:
            for i, earlier in enumerate(step.chain[:k - 1], start=1):
                if earlier.right is not None and _linked(left, earlier.right):
                    found = ("rlc", i, earlier.right)
                    break
        anchors.append(found)
    return anchors


def _unit_of_single(step: Step, candidate: Candidate) -> str:
    if step.rule.endswith("in-a-row"):
        return f"r{candidate.row}"
    if step.rule.endswith("in-a-column"):
        return f"c{candidate.column}"
    if step.rule.endswith("in-a-block"):
        return f"b{candidate.block}"
    return cell_name(candidate.cell)


def _line_cells(line: str) -> tuple[int, ...]:
    """The cells of ``r3``, ``c7``, ``b5`` or of the cell ``r3c7``."""
    if len(line) == 4:
        return (cell_at(int(line[1]), int(line[3])),)
    index = int(line[1:])
    return {"r": row_cells, "c": column_cells, "b": block_cells}[line[0]](index)


def step_marks(state: Optional[ResolutionState], step: Step) -> Marks:
    """What to draw for ``step`` on the grid ``state`` (the state before the step).

    The state is needed only for a Subset's candidates (which of the pattern's digits its cells still
    hold); None draws the cells without them."""
    if step.chain:
        anchors = chain_anchors(step)
        links = tuple(Link(_point(anchor[2], state), cell.left, k, anchor[0], anchor[1])
                      for k, (cell, anchor) in enumerate(zip(step.chain, anchors), start=1) if anchor is not None)
        return Marks(family=step.family, targets=tuple(step.eliminations),
                     llcs=tuple(cell.left for cell in step.chain),
                     rlcs=tuple(spot for cell in step.chain if cell.right is not None
                                for spot in _spots(cell.right, state)),
                     links=links,
                     variables=tuple((cell.variable.name, cell.left, _point(cell.right, state))
                                     for cell in step.chain if cell.right is not None))
    if step.subset is not None:
        pattern = step.subset
        if pattern.family in ("fish", "finned"):
            base, cover = ("r", "c") if pattern.unit_kind == "rows" else ("c", "r")
            digit = pattern.unit
            cells = tuple(cell for line in pattern.bases for cell in _line_cells(f"{base}{line}")
                          if (column_of(cell) if base == "r" else row_of(cell)) in pattern.covers)
            if pattern.family == "finned":  # and the fin: the last base line's cells in its block
                fin = block_of(cell_at(pattern.bases[-1], pattern.covers[-1]) if base == "r"
                               else cell_at(pattern.covers[-1], pattern.bases[-1]))
                cells += tuple(cell for cell in _line_cells(f"{base}{pattern.bases[-1]}")
                               if block_of(cell) == fin and cell not in cells)
            digits: tuple[int, ...] = (digit,)
            bases = tuple(f"{base}{i}" for i in pattern.bases)
            covers = tuple(f"{cover}{i}" for i in pattern.covers)
        else:
            cells, digits, bases, covers = tuple(pattern.cells), tuple(pattern.digits), (), ()
        if state is not None:
            cells_drawn = tuple(cell for cell in cells if any(d in state.candidates[cell] for d in digits))
            candidates = tuple(Candidate.of(d, cell) for cell in cells_drawn for d in digits
                               if d in state.candidates[cell])
        else:
            cells_drawn, candidates = cells, ()
        return Marks(family="subset", targets=tuple(step.eliminations), subset_cells=cells_drawn,
                     subset_candidates=candidates, subset_bases=bases, subset_covers=covers)
    return Marks(family=step.family, targets=tuple(step.eliminations), assertions=tuple(step.assertions),
                 units=tuple(_unit_of_single(step, c) for c in step.assertions))


# --- drawing ---------------------------------------------------------------------------------------
def _disc(kind: str, candidate: Candidate, square: bool = False, extra: str = "", colours: str = "") -> str:
    x, y = candidate_centre(candidate)
    fill, stroke = COLOURS[colours or kind]
    data = _attrs(data_kind=kind, data_candidate=candidate, data_cell=cell_name(candidate.cell)) + extra
    r = MARK_RADIUS
    if square:
        return (f'<rect x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}" rx="3" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="1.6"{data}/>')
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"{data}/>'


def _cell_rect(kind: str, cell: int, extra: str = "") -> str:
    x, y = _cell_origin(cell)
    fill, stroke = COLOURS[kind]
    outline = "" if stroke == "none" else f' stroke="{stroke}" stroke-width="1.5"'
    return (f'<rect x="{_f(x + 1)}" y="{_f(y + 1)}" width="{_f(CELL - 2)}" height="{_f(CELL - 2)}" '
            f'fill="{fill}"{outline}{_attrs(data_kind=kind, data_cell=cell_name(cell))}{extra}/>')


def _band(kind: str, line: str) -> str:
    """A light band over a whole row, column, block or cell."""
    cells = _line_cells(line)
    xs = [_cell_origin(c)[0] for c in cells]
    ys = [_cell_origin(c)[1] for c in cells]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs) + CELL, max(ys) + CELL
    fill = COLOURS[kind][0]
    return (f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" fill="{fill}"'
            f'{_attrs(data_kind=kind, data_unit=line)}/>')


def _arrow(link: Link) -> str:
    """A curved arrow from the anchor's digit to the left-linking candidate's digit."""
    (x0, y0), (x1, y1) = candidate_centre(link.source), candidate_centre(link.destination)
    dx, dy = x1 - x0, y1 - y0
    distance = math.hypot(dx, dy) or 1.0
    # bend the arrow off the straight line of digits, towards the middle of the grid (of the cell for a
    # link inside one cell), so that arrows along an edge stay inside the grid
    bend = min(0.22 * distance, 45.0) + 6.0
    if link.source.cell == link.destination.cell:
        mx, my = (c + CELL / 2 for c in _cell_origin(link.source.cell))
    else:
        mx, my = PAD + GRID / 2, PAD + GRID / 2
    nx, ny = dy / distance, -dx / distance
    if nx * (mx - (x0 + x1) / 2) + ny * (my - (y0 + y1) / 2) < 0:
        nx, ny = -nx, -ny
    cx, cy = (x0 + x1) / 2 + nx * bend, (y0 + y1) / 2 + ny * bend
    # start on the anchor's ring and stop the head on the destination's ring, along the tangents
    sx, sy = cx - x0, cy - y0
    s = math.hypot(sx, sy) or 1.0
    start = (x0 + sx / s * MARK_RADIUS, y0 + sy / s * MARK_RADIUS)
    ex, ey = x1 - cx, y1 - cy
    e = math.hypot(ex, ey) or 1.0
    ux, uy = ex / e, ey / e
    tip = (x1 - ux * (MARK_RADIUS + 0.5), y1 - uy * (MARK_RADIUS + 0.5))
    base = (tip[0] - ux * 8.0, tip[1] - uy * 8.0)
    left = (base[0] - uy * 4.5, base[1] + ux * 4.5)
    right = (base[0] + uy * 4.5, base[1] - ux * 4.5)
    title = (f"link {link.index}: {link.source} ({link.anchor_name}) \u2192 {link.destination} "
             f"(llc{link.index})")
    data = _attrs(data_kind="link", data_index=link.index, data_from=link.source, data_to=link.destination,
                  data_anchor=link.anchor_name)
    return (f"<g{data}><title>{escape(title)}</title>"
            f'<path class="sr-link" d="M{_f(start[0])} {_f(start[1])}Q{_f(cx)} {_f(cy)} {_f(base[0])} {_f(base[1])}"/>'
            f'<path class="sr-head" d="M{_f(tip[0])} {_f(tip[1])}L{_f(left[0])} {_f(left[1])}'
            f'L{_f(right[0])} {_f(right[1])}Z"/></g>')


def _variable_line(name: str, left: Candidate, right: Candidate, index: int) -> str:
    (x0, y0), (x1, y1) = candidate_centre(left), candidate_centre(right)
    dx, dy = x1 - x0, y1 - y0
    distance = math.hypot(dx, dy) or 1.0
    ux, uy = dx / distance, dy / distance
    a = (x0 + ux * MARK_RADIUS, y0 + uy * MARK_RADIUS)
    b = (x1 - ux * MARK_RADIUS, y1 - uy * MARK_RADIUS)
    data = _attrs(data_kind="variable", data_index=index, data_variable=name, data_from=left, data_to=right)
    return (f'<line class="sr-var" x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}"{data}>'
            f"<title>{escape(f'{name}: {left} - {right}')}</title></line>")


def _cross(candidate: Candidate) -> str:
    x, y = candidate_centre(candidate)
    r = MARK_RADIUS * 0.75
    return (f'<path class="sr-cross" d="M{_f(x - r)} {_f(y - r)}L{_f(x + r)} {_f(y + r)}M{_f(x - r)} {_f(y + r)}'
            f'L{_f(x + r)} {_f(y - r)}"{_attrs(data_kind="target-cross", data_candidate=candidate)}/>')


def marks_under(marks: Optional[Marks]) -> str:
    """The marks drawn under the grid lines and digits: bands, highlighted cells, discs."""
    return "".join(marks_under_items(marks))


def marks_under_items(marks: Optional[Marks]) -> list[str]:
    """:func:`marks_under` as its SVG elements, in drawing order."""
    if marks is None:
        return []
    parts = [_band("unit", line) for line in marks.units]
    parts += [_band("subset-base", line) for line in marks.subset_bases]
    parts += [_band("subset-cover", line) for line in marks.subset_covers]
    parts += [_cell_rect("subset-cell", cell) for cell in marks.subset_cells]
    parts += [_cell_rect("assertion", c.cell, _attrs(data_candidate=c)) for c in marks.assertions]
    parts += [_disc("subset-candidate", c) for c in marks.subset_candidates]
    parts += [_disc("assertion-candidate", c) for c in marks.assertions]
    parts += [_disc("llc", c, extra=_attrs(data_index=i)) for i, c in enumerate(marks.llcs, start=1)]
    parts += [_disc("rlc", c, square=True, extra=_attrs(data_index=i)) for i, c in enumerate(marks.rlcs, start=1)]
    parts += [_disc("target", c) for c in marks.targets]
    return parts


def marks_over(marks: Optional[Marks]) -> str:
    """The marks drawn over the digits: connections inside CSP variables, links, crossed targets."""
    return "".join(marks_over_items(marks))


def marks_over_items(marks: Optional[Marks]) -> list[str]:
    """:func:`marks_over` as its SVG elements, in drawing order."""
    if marks is None:
        return []
    parts = [_variable_line(name, left, right, i) for i, (name, left, right) in enumerate(marks.variables, start=1)]
    parts += [_arrow(link) for link in marks.links]
    parts += [_cross(c) for c in marks.targets]
    return parts


def cell_fragment(cell: int, value: int, digits: Iterable[int], given: bool) -> str:
    """The SVG of one cell's content: its value (given or placed) or its candidates."""
    return "".join(cell_items(cell, value, digits, given))


def cell_items(cell: int, value: int, digits: Iterable[int], given: bool) -> list[str]:
    """:func:`cell_fragment` as its SVG elements: the value, or one element per candidate (so the
    HTML viewer ships each (cell, digit) element once, not each combination of candidates)."""
    if value:
        return [_value_text(cell, value, given)]
    return [_candidate_text(cell, d) for d in sorted(digits)]


# A page of 100 paths draws 81 cells for each of its ~6,500 positions: formatting each candidate's
# element anew took 85 % of path_html's time (9.5 s for 100 puzzles); there are only 729 of them.
@lru_cache(maxsize=None)
def _value_text(cell: int, value: int, given: bool) -> str:
    x, y = _cell_origin(cell)
    kind = "given" if given else "value"
    css = "sr-given" if given else "sr-value"
    return (f'<text class="{css}" x="{_f(x + CELL / 2)}" y="{_f(y + CELL / 2 + 1)}"'
            f'{_attrs(data_kind=kind, data_cell=cell_name(cell), data_value=value)}>{value}</text>')


@lru_cache(maxsize=None)
def _candidate_text(cell: int, digit: int) -> str:
    candidate = Candidate.of(digit, cell)
    cx, cy = candidate_centre(candidate)
    return (f'<text class="sr-cand" x="{_f(cx)}" y="{_f(cy + 0.5)}" data-kind="candidate" '
            f'data-candidate="{candidate}">{digit}</text>')


def _grid_lines() -> str:
    parts = []
    for i in range(1, 9):
        if i % 3:
            offset = PAD + i * CELL
            parts.append(f'<path class="sr-thin" d="M{_f(offset)} {_f(PAD)}V{_f(PAD + GRID)}'
                         f'M{_f(PAD)} {_f(offset)}H{_f(PAD + GRID)}"/>')
    for i in range(0, 10, 3):
        offset = PAD + i * CELL
        parts.append(f'<path class="sr-thick" d="M{_f(offset)} {_f(PAD - 1.3)}V{_f(PAD + GRID + 1.3)}'
                     f'M{_f(PAD - 1.3)} {_f(offset)}H{_f(PAD + GRID + 1.3)}"/>')
    for i in range(1, 10):
        centre = PAD + (i - 0.5) * CELL
        parts.append(f'<text class="sr-label" x="{_f(centre)}" y="{_f(PAD / 2)}">c{i}</text>')
        parts.append(f'<text class="sr-label" x="{_f(PAD / 2)}" y="{_f(centre)}">r{i}</text>')
    return "".join(parts)


GRID_LINES = _grid_lines()

#: Legend entries: kind -> text.
LEGEND_TEXT = {
    "target": "target (eliminated)",
    "llc": "left-linking",
    "rlc": "right-linking",
    "link": "link from anchor",
    "subset-cell": "Subset cell",
    "subset-candidate": "Subset digit",
    "assertion": "asserted value",
}
LEGEND_ORDER = tuple(LEGEND_TEXT)
LEGEND_ROW = 26.0


def _legend_symbol(kind: str, x: float, y: float) -> str:
    fill, stroke = COLOURS[kind]
    r = MARK_RADIUS
    if kind == "llc" or kind == "subset-candidate":
        return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"/>'
    if kind == "rlc":
        return (f'<rect x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}" rx="3" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="1.6"/>')
    if kind == "target":
        c = r * 0.75
        return (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"/>'
                f'<path class="sr-cross" d="M{_f(x - c)} {_f(y - c)}L{_f(x + c)} {_f(y + c)}M{_f(x - c)} {_f(y + c)}'
                f'L{_f(x + c)} {_f(y - c)}"/>')
    if kind == "link":
        return (f'<path class="sr-link" d="M{_f(x - 14)} {_f(y)}H{_f(x + 4)}"/>'
                f'<path class="sr-head" d="M{_f(x + 12)} {_f(y)}L{_f(x + 4)} {_f(y - 4.5)}'
                f'L{_f(x + 4)} {_f(y + 4.5)}Z"/>')
    return (f'<rect x="{_f(x - 10)}" y="{_f(y - 10)}" width="20" height="20" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="1.5"/>')


def _legend_group(kinds: Sequence[str], x: float, y: float, width: float) -> tuple[str, float]:
    """The legend entries laid out in rows from (x, y); returns the SVG and the height used."""
    parts, cx, cy = [], x, y + LEGEND_ROW / 2
    for kind in kinds:
        text = LEGEND_TEXT[kind]
        item = 30 + 7.2 * len(text) + 16
        if cx + item > x + width and cx > x:
            cx, cy = x, cy + LEGEND_ROW
        parts.append(f"<g{_attrs(data_kind='legend', data_legend=kind)}>{_legend_symbol(kind, cx + 12, cy)}"
                     f'<text class="sr-legend" x="{_f(cx + 30)}" y="{_f(cy)}">{escape(text)}</text></g>')
        cx += item
    return "".join(parts), (cy + LEGEND_ROW / 2 - y) if kinds else 0.0


def legend_svg(kinds: Sequence[str] = LEGEND_ORDER, *, width: float = WIDTH) -> str:
    """A small SVG legend of the marks ``kinds`` (default: all of them)."""
    kinds = [k for k in LEGEND_ORDER if k in kinds]
    body, height = _legend_group(kinds, 4, 2, width - 8)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height + 4)}" '
            f'width="{_f(width)}" height="{_f(height + 4)}" role="img" class="sudorules-legend">'
            f"<title>Legend</title>{STYLE}{body}</svg>")


# --- assembly --------------------------------------------------------------------------------------
@dataclass
class SvgParts:
    """A picture in pieces: ``open`` + ``<title>`` + ``under`` + grid lines + ``cells`` + ``over`` + ``tail``.

    The marks and the cells are kept as lists of SVG elements (``under_items``, ``cell_items`` per
    cell, ``over_items``): :func:`assemble` joins them; the HTML viewer ships each distinct element
    once and joins the same elements in the browser."""

    title: str
    under_items: list[str] = field(default_factory=list)
    cell_items: list[list[str]] = field(default_factory=list)
    over_items: list[str] = field(default_factory=list)
    tail: str = ""
    height: float = HEIGHT

    @property
    def under(self) -> str:
        return "".join(self.under_items)

    @property
    def over(self) -> str:
        return "".join(self.over_items)

    @property
    def cells(self) -> list[str]:
        return ["".join(items) for items in self.cell_items]


def svg_open(size: float, height: float = HEIGHT) -> str:
    """The opening of a picture ``size`` pixels wide (the height follows the aspect ratio)."""
    pixels_high = size * height / WIDTH
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(WIDTH)} {_f(height)}" '
            f'width="{_f(size)}" height="{_f(pixels_high)}" role="img" class="sudorules-grid" data-kind="grid">')


def svg_background(height: float = HEIGHT) -> str:
    return f'{STYLE}<rect class="sr-bg" x="0" y="0" width="{_f(WIDTH)}" height="{_f(height)}"/>'


def assemble(parts: SvgParts, size: float) -> str:
    """The SVG text of a picture."""
    return (svg_open(size, parts.height) + f"<title>{escape(parts.title)}</title>" + svg_background(parts.height)
            + parts.under + GRID_LINES + "".join(parts.cells) + parts.over + parts.tail + "</svg>")


def _cell_contents(values: Sequence[int], candidates: Union[Sequence[Iterable[int]], Mapping[int, Iterable[int]]],
                   givens: Optional[Sequence[int]]) -> list[list[str]]:
    if isinstance(candidates, Mapping):
        digits_of = [candidates.get(cell, ()) for cell in CELLS]
    else:
        digits_of = list(candidates)
    if len(values) != 81 or len(digits_of) != 81:
        raise ValueError("values and candidates must describe the 81 cells")
    return [cell_items(cell, values[cell], () if values[cell] else digits_of[cell],
                       givens is None or bool(givens[cell])) for cell in CELLS]


def grid_parts(values: Sequence[int], candidates: Union[Sequence[Iterable[int]], Mapping[int, Iterable[int]]], *,
               givens: Optional[Sequence[int]] = None, marks: Optional[Marks] = None, title: str = "Sudoku grid",
               caption: Optional[str] = None, legend: bool = False) -> SvgParts:
    """The pieces of :func:`grid_svg`."""
    tail, height = "", HEIGHT
    if caption:
        lines = _wrap(caption, 70)
        for line in lines:
            tail += f'<text class="sr-caption" x="{_f(PAD)}" y="{_f(height + 14)}">{escape(line)}</text>'
            height += 18
        height += 4
    if legend and marks is not None and marks.kinds():
        body, used = _legend_group(marks.kinds(), PAD, height, GRID)
        tail += body
        height += used + 4
    return SvgParts(title=title, under_items=marks_under_items(marks),
                    cell_items=_cell_contents(values, candidates, givens), over_items=marks_over_items(marks),
                    tail=tail, height=height)


def _wrap(text: str, width: int) -> list[str]:
    """Split a step's text at `` - `` and ``, `` so that lines stay under ``width`` characters."""
    lines, line = [], ""
    for token in text.replace(" - ", " -\x00").replace(", ", ",\x00").replace(" ==> ", "\x00==> ").split("\x00"):
        if line and len(line) + len(token) + 1 > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return lines


def grid_svg(values: Sequence[int], candidates: Union[Sequence[Iterable[int]], Mapping[int, Iterable[int]]], *,
             marks: Optional[Marks] = None, size: float = 480, givens: Optional[Sequence[int]] = None,
             title: str = "Sudoku grid", caption: Optional[str] = None, legend: bool = False) -> str:
    """A 9x9 grid as SVG text.

    ``values``: the 81 cell values (0 = undecided); ``candidates``: for each cell (81 iterables, or a
    mapping cell -> digits) its remaining candidates, drawn for undecided cells.  ``givens``: the
    puzzle's givens (bold); without it every value is drawn as a given.  ``marks``: the pattern of a
    step (:func:`step_marks`).  ``size``: the width in pixels.  ``title``: the accessible title;
    ``caption``: text under the grid (the step in SudoRules' notation); ``legend``: a legend of the
    marks drawn."""
    parts = grid_parts(values, candidates, givens=givens, marks=marks, title=title, caption=caption, legend=legend)
    return assemble(parts, size)


def _givens_of(puzzle: object) -> Optional[tuple[int, ...]]:
    if puzzle is None:
        return None
    if isinstance(puzzle, Puzzle):
        return puzzle.givens
    if isinstance(puzzle, str):
        return Puzzle.from_string(puzzle).givens
    return tuple(puzzle)  # type: ignore[arg-type]


def step_title(step: Step, number: Optional[int] = None) -> str:
    """The accessible title of a step's picture: ``Step 12: whip[5]: ... ==> r1c3≠7``."""
    return (f"Step {number}: " if number is not None else "") + step.text()


def step_parts(state_before: ResolutionState, step: Step, *, givens: object = None, number: Optional[int] = None,
               caption: bool = False, legend: bool = False) -> SvgParts:
    """The pieces of :func:`step_svg`."""
    return grid_parts(state_before.values, state_before.candidates, givens=_givens_of(givens),
                      marks=step_marks(state_before, step), title=step_title(step, number),
                      caption=step.text() if caption else None, legend=legend)


def step_svg(state_before: ResolutionState, step: Step, *, givens: object = None, number: Optional[int] = None,
             size: float = 480, caption: bool = False, legend: bool = False) -> str:
    """The grid before ``step`` (a :class:`ResolutionState`) with the step drawn on it, as SVG text.

    ``givens``: the :class:`Puzzle` (or its 81 values) so that givens are bold and placed values not;
    ``number``: the step's number, for the title; ``caption``: the step's text under the grid;
    ``legend``: a legend of the marks."""
    return assemble(step_parts(state_before, step, givens=givens, number=number, caption=caption, legend=legend),
                    size)


def puzzle_svg(puzzle: Union[Puzzle, str], *, size: float = 480) -> str:
    """A puzzle's grid with its givens and initial candidates (the notebook picture of a :class:`Puzzle`)."""
    if not isinstance(puzzle, Puzzle):
        puzzle = Puzzle.from_string(str(puzzle))
    state = ResolutionState(puzzle)
    return grid_svg(state.values, state.candidates, givens=puzzle.givens, size=size,
                    title=f"Sudoku puzzle {puzzle}: {puzzle.clues} givens, {state.candidate_count()} candidates")
