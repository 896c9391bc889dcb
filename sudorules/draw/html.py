"""Resolution paths as one self-contained HTML page: an index of the puzzles and one step viewer
(inline SVG, CSS, vanilla JS).

No server, no network: everything is in the page.  The viewer shows the grid before a step with the
step drawn on it (:mod:`sudorules.draw.svg`), the step's text in SudoRules' notation, buttons, a
slider, the arrow keys and a list of every step to jump to (its lines wrap: a long chain is never
cut off on the right); the last position is the final grid with the rating.  With several puzzles,
an index above the viewer lists them (puzzle, givens, rating, steps), and a click, the ``puzzle``
buttons or the URL fragment ``#puzzle=2&step=12`` (or ``step=end``; the puzzle by the number it is
shown with, its number in the file) opens one; the fragment follows the viewer.  Errors met by the script are written into ``<pre id="errors">`` (empty when all is
well), so that a headless browser's ``--dump-dom`` tells whether the page ran cleanly; when the
viewer is ready its root gets ``data-ready-ms``, the milliseconds since the page was asked for.

Why the page holds data and draws one puzzle at a time: a step's picture is some 15-25 kB of SVG,
so a page of pictures weighs megabytes per puzzle, and one viewer per puzzle, all built at load,
made a 100-puzzle page of 14 MB that headless Chromium took 17 s to open (70-98 s on a slower
machine, issue 26).  Every picture is made of SVG elements drawn by Python
(:func:`~sudorules.draw.svg.step_parts`): one per candidate or value of a cell, one per mark of the
step (a disc, a band, an arrow...).  The page holds each distinct element once, in one table, and
per puzzle its path as data: the 81 cells of the start as lists of element numbers, then per step
its text, its marks as element numbers and the cells it changed; the script builds the index's
puzzle when it is opened and joins the elements exactly as :func:`~sudorules.draw.svg.assemble`
does, so the SVG files, the notebook pictures and the page still come from the same Python drawing
code.  Only the first puzzle's first position is written as plain SVG, so that something shows where
scripts do not run (an untrusted notebook).  Measured (benchmarks/bench_viewer.py): the first 100
published puzzles of cb-001 (6,399 steps) make a 2.8 MB page whose viewer is ready 0.2-0.3 s after
the request.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Iterator, Optional, Sequence, Union
from xml.sax.saxutils import escape

from ..errors import OutputError
from ..output import NOW, open_output
from ..puzzle import Puzzle
from ..resolution.path import rating_line, solved_line
from ..resolution.state import ResolutionState
from ..resolution.steps import Resolution, Step
from .svg import GRID_LINES, SvgParts, assemble, grid_parts, legend_svg, step_parts, svg_background, svg_open

PathLike = Union[str, Path]


def puzzle_of(resolution: Resolution) -> Puzzle:
    """The :class:`Puzzle` of a resolution (its ``puzzle`` may be a string)."""
    puzzle = resolution.puzzle
    return puzzle if isinstance(puzzle, Puzzle) else Puzzle.from_string(str(puzzle))


def iter_states(resolution: Resolution) -> Iterator[tuple[int, ResolutionState, Step]]:
    """``(number, state before the step, step)`` for each step, numbers from 1.

    The same :class:`ResolutionState` object is yielded each time and changed after the caller is
    done with it (copy it to keep it)."""
    state = ResolutionState(puzzle_of(resolution))
    for number, step in enumerate(resolution.steps, start=1):
        yield number, state, step
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)


def final_state(resolution: Resolution) -> ResolutionState:
    """The state after the last step."""
    state = ResolutionState(puzzle_of(resolution))
    for step in resolution.steps:
        state.eliminate_all(step.eliminations)
        for candidate in step.assertions:
            state.assert_value(candidate)
    return state


def _ending_text(resolution: Resolution, state: ResolutionState, number: int) -> str:
    """The end's text, in the printed path's words (its numbered first line and its rating line)."""
    if resolution.status == "solved":
        return f"{solved_line(resolution, number)}\n{rating_line(resolution)}\nsolution: {resolution.solution}"
    if resolution.status == "contradiction":
        return f"PUZZLE {number} HAS NO SOLUTION : NO CANDIDATE FOR {resolution.contradiction}"
    return (("TIME LIMIT REACHED. " if resolution.status == "timeout" else "")
            + f"PUZZLE {number} IS NOT SOLVED. {state.missing_values()} VALUES MISSING.")


def _summary(resolution: Resolution) -> str:
    theory = str(resolution.theory)
    rating = (rating_line(resolution) if resolution.solved
              else f"{theory}: {resolution.status}")
    count = len(resolution.steps)
    return f"{rating} \u00b7 {count} step{'' if count == 1 else 's'}"


class _Elements:
    """The page's table of distinct SVG elements; a picture is a list of their numbers."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.index: dict[str, int] = {}

    def ids(self, elements: Sequence[str]) -> list[int]:
        numbers = []
        for element in elements:
            number = self.index.get(element)
            if number is None:
                number = self.index[element] = len(self.items)
                self.items.append(element)
            numbers.append(number)
        return numbers


def _changes(before: list[list[int]], after: list[list[int]]) -> list[list]:
    """The cells whose elements differ, as ``[cell, elements]`` pairs."""
    return [[cell, now] for cell, (was, now) in enumerate(zip(before, after)) if was != now]


def _end_parts(resolution: Resolution, number: int) -> tuple[SvgParts, str]:
    """The last position: the final grid (the solution, or the state where the theory stopped) and its text."""
    puzzle = puzzle_of(resolution)
    end = final_state(resolution)
    title = ("Solution" if resolution.status == "solved" else "Final resolution state") + f" of {puzzle}"
    return (grid_parts(end.values, end.candidates, givens=puzzle.givens, title=title),
            _ending_text(resolution, end, number))


def _path_data(resolution: Resolution, elements: _Elements, shown: int) -> tuple[dict, SvgParts]:
    """One puzzle's path as the page's data (see the module docstring), and its first position's parts.

    ``start``: the 81 cells of the first position; per position (each step, then the end): ``x`` its
    text, ``f`` / ``r`` / ``l`` the family, rule and length (the end's rating), ``u`` / ``o`` the
    marks under and over the digits, ``d`` the ``[cell, elements]`` it changed since the position
    before; the end also has ``t``, its picture's title (a step's is ``Step N: text``)."""
    puzzle = puzzle_of(resolution)
    records: list[dict] = []
    first: Optional[SvgParts] = None
    cells: Optional[list[list[int]]] = None
    start: list[list[int]] = []

    def add(record: dict, parts: SvgParts) -> None:
        nonlocal cells, start
        now = [elements.ids(items) for items in parts.cell_items]
        record.update(u=elements.ids(parts.under_items), o=elements.ids(parts.over_items))
        if cells is None:
            start = now
        else:
            record["d"] = _changes(cells, now)
        cells = now
        records.append(record)

    for number, state, step in iter_states(resolution):
        parts = step_parts(state, step, givens=puzzle, number=number)
        first = first or parts
        add({"x": step.text(), "f": step.family, "r": step.rule, "l": step.length}, parts)
    end, ending = _end_parts(resolution, shown)
    add({"t": escape(end.title), "x": ending, "f": "end", "r": "end",
         "l": resolution.rating if resolution.rating is not None else ""}, end)
    info = {"p": str(puzzle), "n": puzzle.clues, "th": str(resolution.theory), "st": str(resolution.status),
            "ra": "" if resolution.rating is None else resolution.rating, "s": _summary(resolution)}
    return {**info, "no": shown, "start": start, "steps": records}, first or end


CSS = """
.sudorules-viewer{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#222}
.sudorules-viewer .sr-puzzle{border-top:1px solid #ccc;padding:8px 0 18px}
.sudorules-viewer h2{font-size:1.1em;margin:6px 0;overflow-wrap:anywhere}
.sudorules-viewer code,.sudorules-viewer pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
.sudorules-viewer .sr-meta{margin:2px 0 8px;color:#444}
.sudorules-viewer .sr-index{margin:4px 0 10px}
.sudorules-viewer .sr-index>div{max-height:220px;overflow:auto;border:1px solid #ddd}
.sudorules-viewer .sr-index table{border-collapse:collapse;font-size:12.5px}
.sudorules-viewer .sr-index td,.sudorules-viewer .sr-index th{padding:1px 8px;text-align:left;white-space:nowrap}
.sudorules-viewer .sr-index th{position:sticky;top:0;background:#f3f3f3}
.sudorules-viewer .sr-index tr[aria-current=true]{background:#ffe9a8}
.sudorules-viewer .sr-index a{color:#1f4fa8;text-decoration:none}
.sudorules-viewer .sr-controls{display:flex;align-items:center;gap:6px;flex-wrap:wrap;margin-bottom:8px}
.sudorules-viewer .sr-controls input[type=range]{flex:1;min-width:160px;max-width:420px}
.sudorules-viewer button{font:inherit;padding:2px 9px;cursor:pointer}
.sudorules-viewer .sr-body{display:flex;gap:18px;flex-wrap:wrap;align-items:flex-start}
.sudorules-viewer .sr-board svg{display:block;max-width:100%;height:auto}
.sudorules-viewer .sr-side{flex:1;min-width:300px;max-width:640px}
.sudorules-viewer .sr-position{font-weight:600}
.sudorules-viewer .sr-step-text{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;border:1px solid #ddd;
 padding:8px;margin:6px 0 10px;font-size:14px;line-height:1.45}
.sudorules-viewer .sr-steps{position:relative;max-height:260px;overflow-y:auto;overflow-x:hidden;border:1px solid #ddd;
 margin:8px 0 0;padding:0 4px 0 3.2em;font-size:12.5px}
.sudorules-viewer .sr-steps li button{all:unset;cursor:pointer;font-family:ui-monospace,"DejaVu Sans Mono",monospace;
 display:block;white-space:normal;overflow-wrap:anywhere;padding:1px 0}
.sudorules-viewer .sr-steps li[aria-current=step]{background:#ffe9a8}
.sudorules-viewer .sr-steps li button:focus-visible{outline:2px solid #1f4fa8}
.sudorules-viewer .sr-keys{color:#666;font-size:.85em}
#errors:empty{display:none}
#errors{color:#b00;background:#fee;border:1px solid #b00;padding:6px}
"""

PAGE_CSS = "body{margin:12px 18px;font-family:system-ui,-apple-system,sans-serif}h1{font-size:1.35em;margin:4px 0}"

#: The viewer script.  ``ROOT``, ``PAGE`` are filled in by Python.
SCRIPT = r"""
(function () {
  "use strict";
  var root = document.getElementById(__ROOT__);
  var page = __PAGE__;
  var data = JSON.parse(root.querySelector("script.sr-data").textContent);
  var E = data.elements, paths = data.paths;
  var section = root.querySelector("section.sr-puzzle");
  var viewer = {
    index: -1, position: 1, count: 0, records: [], cells: [],
    board: section.querySelector(".sr-board"), text: section.querySelector(".sr-step-text"),
    where: section.querySelector(".sr-position"), slider: section.querySelector("input[type=range]"),
    list: section.querySelector(".sr-steps"), items: [], number: section.querySelector(".sr-number"),
    code: section.querySelector(".sr-code"), meta: section.querySelector(".sr-meta"),
    rows: root.querySelectorAll(".sr-index tr[data-open]")
  };
  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function joined(numbers) {
    var out = "";
    for (var i = 0; i < numbers.length; i++) out += E[numbers[i]];
    return out;
  }
  function svgOf(position) {
    var rec = viewer.records[position - 1], cells = viewer.cells[position - 1], body = "";
    for (var c = 0; c < 81; c++) body += joined(cells[c]);
    var title = rec.t !== undefined ? rec.t : "Step " + position + ": " + esc(rec.x);
    return data.open + "<title>" + title + "</title>" + data.background + joined(rec.u) + data.lines + body +
      joined(rec.o) + "</svg>";
  }
  function label(position) {
    return position === viewer.count ? "end" : String(position);
  }
  // open puzzle `index` (from 0): its positions' cells from the start and the changes, its step list
  function open(index) {
    if (index === viewer.index) return;
    var path = paths[index];
    viewer.index = index;
    viewer.records = path.steps;
    viewer.count = path.steps.length;
    viewer.cells = [];
    var cells = path.start;
    for (var k = 0; k < viewer.count; k++) {
      var changes = viewer.records[k].d;
      if (changes && changes.length) {
        cells = cells.slice();
        for (var j = 0; j < changes.length; j++) cells[changes[j][0]] = changes[j][1];
      }
      viewer.cells.push(cells);
    }
    section.setAttribute("data-puzzle", String(index + 1));
    section.setAttribute("data-theory", path.th);
    section.setAttribute("data-status", path.st);
    section.setAttribute("data-rating", String(path.ra));
    viewer.number.textContent = String(path.no);
    viewer.code.textContent = path.p;
    viewer.meta.innerHTML = path.n + " givens \u00b7 theory " + esc(path.th) + " \u00b7 " + esc(path.st) +
      " \u00b7 <strong>" + esc(path.s) + "</strong>";
    var items = "";
    for (var p = 0; p < viewer.count - 1; p++)
      items += '<li><button type="button" data-goto="' + (p + 1) + '">' + esc(viewer.records[p].x) + "</button></li>";
    items += '<li><button type="button" data-goto="' + viewer.count + '">end: ' + esc(path.s) + "</button></li>";
    viewer.list.innerHTML = items;
    viewer.list.scrollTop = 0;
    viewer.items = viewer.list.querySelectorAll("li");
    viewer.slider.max = String(viewer.count);
    for (var r = 0; r < viewer.rows.length; r++) {
      if (r === index) viewer.rows[r].setAttribute("aria-current", "true");
      else if (viewer.rows[r].hasAttribute("aria-current")) viewer.rows[r].removeAttribute("aria-current");
    }
    viewer.position = 0;
  }
  function show(position, updateHash) {
    position = Math.max(1, Math.min(viewer.count, position | 0));
    var rec = viewer.records[position - 1], previous = viewer.position;
    viewer.position = position;
    viewer.board.innerHTML = svgOf(position);
    var b = viewer.board;
    b.setAttribute("data-step", label(position));
    b.setAttribute("data-family", rec.f);
    b.setAttribute("data-rule", rec.r);
    b.setAttribute("data-length", String(rec.l));
    viewer.text.textContent = rec.x;
    viewer.where.textContent = position === viewer.count ? "End (" + (viewer.count - 1) + " steps)" :
      "Step " + position + " of " + (viewer.count - 1);
    viewer.slider.value = String(position);
    if (previous >= 1 && viewer.items[previous - 1]) viewer.items[previous - 1].removeAttribute("aria-current");
    var item = viewer.items[position - 1], list = viewer.list;
    item.setAttribute("aria-current", "step");
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
    if (page && updateHash) {
      try {
        history.replaceState(null, "", "#puzzle=" + paths[viewer.index].no + "&step=" + label(position));
      } catch (e) { /* a browser refusing to change a file: URL keeps the old fragment */ }
    }
  }
  function go(index, position, updateHash) {
    if (index < 0 || index >= paths.length) return;
    open(index);
    show(position, updateHash);
  }
  root.addEventListener("click", function (event) {
    var target = event.target.closest("button, a[data-open]");
    if (!target || !root.contains(target)) return;
    var opening = target.getAttribute("data-open");
    if (opening !== null) {
      event.preventDefault();
      go(parseInt(opening, 10) - 1, 1, true);
      return;
    }
    var goto = target.getAttribute("data-goto");
    var move = {first: 1, prev: viewer.position - 1, next: viewer.position + 1, last: viewer.count};
    var action = target.getAttribute("data-action");
    if (goto !== null) show(parseInt(goto, 10), true);
    else if (action in move) show(move[action], true);
    else if (action === "prev-puzzle") go(viewer.index - 1, 1, true);
    else if (action === "next-puzzle") go(viewer.index + 1, 1, true);
  });
  viewer.slider.addEventListener("input", function () { show(parseInt(viewer.slider.value, 10), true); });
  function key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var moves = {ArrowRight: 1, ArrowDown: 1, PageDown: 10, ArrowLeft: -1, ArrowUp: -1, PageUp: -10};
    if (event.key in moves) show(viewer.position + moves[event.key], true);
    else if (event.key === "Home") show(1, true);
    else if (event.key === "End") show(viewer.count, true);
    else return;
    event.preventDefault();
  }
  (page ? document : section).addEventListener("keydown", key);
  function fromHash() {
    var query = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var kv = pair.split("=");
      if (kv[0]) query[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
    });
    if (!("puzzle" in query) && !("step" in query)) return false;
    // the puzzle by the number it is shown with (its number in the file: 1 and 4 when lines 2-3 were
    // invalid), not by its place on the page; no number given: the first
    var index = 0;
    if ("puzzle" in query) {
      var wanted = parseInt(query.puzzle, 10);
      for (index = 0; index < paths.length && paths[index].no !== wanted; index++) {}
    }
    if (index >= paths.length) return false;
    open(index);
    show(query.step === "end" ? viewer.count : parseInt(query.step || "1", 10) || 1, false);
    return true;
  }
  if (page) window.addEventListener("hashchange", fromHash);
  if (page && /(^#|&)selftest(&|$)/.test(location.hash)) selftest();
  else if (!(page && fromHash())) go(0, 1, false);
  root.setAttribute("data-ready-ms", String(Math.round(performance.now())));

  // #selftest: open every puzzle, draw every position, and drive the controls, writing what the DOM
  // shows into a pre#selftest element as JSON (for a headless browser's --dump-dom)
  function selftest() {
    var out = {positions: [], navigation: []};
    function press(name) { document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true})); }
    function click(selector) { section.querySelector(selector).click(); }
    for (var index = 0; index < paths.length; index++) {
      go(index, 1, false);
      var overflow = 0;
      for (var p = 1; p <= viewer.count; p++) {
        show(p, false);
        if (viewer.list.scrollWidth > viewer.list.clientWidth + 1) overflow++;
        var rec = {puzzle: index + 1, step: label(p), text: viewer.text.textContent,
                   title: viewer.board.querySelector("svg > title").textContent, kinds: {}};
        var marked = viewer.board.querySelectorAll("[data-kind]");
        for (var i = 0; i < marked.length; i++) {
          var e = marked[i], kind = e.getAttribute("data-kind"), value;
          if (kind === "link") value = e.getAttribute("data-from") + ">" + e.getAttribute("data-to");
          else if (kind === "given" || kind === "value") value = e.getAttribute("data-cell") + "=" + e.getAttribute("data-value");
          else value = e.getAttribute("data-candidate") || e.getAttribute("data-cell") || e.getAttribute("data-unit") || "";
          (rec.kinds[kind] = rec.kinds[kind] || []).push(value);
        }
        out.positions.push(rec);
      }
      var nav = {puzzle: index + 1, count: viewer.count, overflow: overflow};
      show(1, false);
      press("ArrowRight"); press("ArrowRight"); nav.rightRight = viewer.position;
      press("ArrowLeft"); nav.left = viewer.position;
      press("End"); nav.end = viewer.position; nav.endStep = viewer.board.getAttribute("data-step");
      press("Home"); nav.home = viewer.position;
      click("[data-action=next]"); nav.next = viewer.position;
      click("[data-action=prev]"); nav.prev = viewer.position;
      viewer.slider.value = String(Math.min(3, viewer.count));
      viewer.slider.dispatchEvent(new Event("input", {bubbles: true})); nav.slider = viewer.position;
      viewer.items[viewer.count - 1].querySelector("button").click(); nav.listLast = viewer.position;
      nav.current = viewer.list.querySelectorAll("li[aria-current=step]").length;
      out.navigation.push(nav);
    }
    if (paths.length > 1) {  // the index and the puzzle buttons
      var puzzles = {};
      viewer.rows[paths.length - 1].querySelector("a").click(); puzzles.indexLast = viewer.index + 1;
      click("[data-action=prev-puzzle]"); puzzles.prev = viewer.index + 1;
      click("[data-action=next-puzzle]"); puzzles.next = viewer.index + 1;
      puzzles.current = root.querySelectorAll(".sr-index tr[aria-current=true]").length;
      puzzles.section = section.getAttribute("data-puzzle");
      out.puzzles = puzzles;
    }
    go(0, 1, false);
    var box = document.createElement("pre");
    box.id = "selftest";
    box.textContent = JSON.stringify(out);
    document.body.appendChild(box);
  }
})();
"""

#: Written first in the page: every script error lands in ``<pre id="errors">``.
ERROR_SCRIPT = r"""
(function () {
  function report(text) {
    var box = document.getElementById("errors");
    if (box) box.textContent += text + "\n"; else (window.__sudorulesErrors = window.__sudorulesErrors || []).push(text);
  }
  window.addEventListener("error", function (e) {
    report("error: " + (e.message || e.type) + (e.filename ? " at " + e.filename + ":" + e.lineno : ""));
  });
  window.addEventListener("unhandledrejection", function (e) { report("unhandled rejection: " + e.reason); });
  var original = console.error;
  console.error = function () {
    report("console.error: " + Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
  document.addEventListener("DOMContentLoaded", function () {
    var early = window.__sudorulesErrors || [];
    for (var i = 0; i < early.length; i++) report(early[i]);
  });
})();
"""


def _json_for_script(data: object) -> str:
    """JSON safe inside ``<script>``: no ``</`` and no ``<!--`` can end or confuse the element."""
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            .replace("</", "<\\/").replace("<!--", "<\\!--"))


def _index(resolutions: Sequence[Resolution], numbers: Sequence[int]) -> str:
    """The table of the puzzles (``numbers``: as shown), each a link that opens it (none for a single
    puzzle)."""
    if len(resolutions) < 2:
        return ""
    rows = "".join(
        f'<tr data-open="{i}"><td>{shown}</td><td><a href="#puzzle={shown}" data-open="{i}"><code>'
        f"{escape(str(puzzle_of(r)))}</code></a></td><td>{puzzle_of(r).clues}</td>"
        f"<td>{escape(_summary(r))}</td></tr>" for i, (r, shown) in enumerate(zip(resolutions, numbers), start=1))
    return (f'<details class="sr-index" open><summary>{len(resolutions)} puzzles: click one to open it</summary>'
            "<div><table><thead><tr><th>#</th><th>puzzle</th><th>givens</th><th>rating \u00b7 steps</th></tr>"
            f"</thead><tbody>{rows}</tbody></table></div></details>")


def _viewer(resolutions: Sequence[Resolution], root_id: str, size: float, page: bool,
            numbers: Optional[Sequence[int]] = None) -> str:
    """The index, the viewer's markup, data and script, inside ``<div class="sudorules-viewer" id=root_id>``;
    ``numbers``: the puzzles' numbers as shown (1, 2, ... by default)."""
    if not resolutions:
        raise ValueError("no resolution to show")
    numbers = list(range(1, len(resolutions) + 1)) if numbers is None else list(numbers)
    elements = _Elements()
    paths, first = [], None
    for resolution, shown in zip(resolutions, numbers):
        path, parts = _path_data(resolution, elements, shown)
        paths.append(path)
        first = first or (path, parts)
    path, parts = first
    count = len(path["steps"])
    several = len(resolutions) > 1
    puzzle_buttons = (('<button type="button" data-action="prev-puzzle" aria-label="previous puzzle">\u25b2 puzzle'
                       '</button><button type="button" data-action="next-puzzle" aria-label="next puzzle">puzzle '
                       '\u25bc</button>') if several else "")
    section = (
        f'<section class="sr-puzzle" id="{root_id}-puzzle" data-puzzle="1" data-theory="{escape(path["th"])}" '
        f'data-status="{escape(path["st"])}" data-rating="{path["ra"]}" tabindex="-1">'
        f'<h2>Puzzle <span class="sr-number">{numbers[0]}</span>: <code class="sr-code">{escape(path["p"])}</code></h2>'
        f'<p class="sr-meta">{path["n"]} givens \u00b7 theory {escape(path["th"])} \u00b7 {escape(path["st"])} '
        f'\u00b7 <strong>{escape(path["s"])}</strong></p>'
        f'<div class="sr-controls">'
        f'<button type="button" data-action="first" aria-label="first step">\u25c0\u25c0</button>'
        f'<button type="button" data-action="prev" aria-label="previous step">\u25c0 previous</button>'
        f'<input type="range" min="1" max="{count}" value="1" step="1" aria-label="step">'
        f'<button type="button" data-action="next" aria-label="next step">next \u25b6</button>'
        f'<button type="button" data-action="last" aria-label="end">\u25b6\u25b6</button>{puzzle_buttons}'
        f'<span class="sr-keys">keys: \u2190 \u2192, Home, End</span></div>'
        f'<div class="sr-body"><div class="sr-board" data-step="1">{assemble(parts, size)}</div>'
        f'<div class="sr-side"><div class="sr-position">Step 1 of {count - 1}</div>'
        f'<pre class="sr-step-text">{escape(path["steps"][0]["x"])}</pre>'
        f'<div class="sr-legend">{legend_svg(width=380)}</div><ol class="sr-steps"></ol></div></div></section>')
    data = {"open": svg_open(size), "background": svg_background(), "lines": GRID_LINES, "elements": elements.items,
            "paths": paths}
    script = SCRIPT.replace("__ROOT__", json.dumps(root_id)).replace("__PAGE__", "true" if page else "false")
    return (f'<div class="sudorules-viewer" id="{root_id}">' + _index(resolutions, numbers) + section
            + f'<script type="application/json" class="sr-data">{_json_for_script(data)}</script>'
            + f"<script>{script}</script></div>")


#: how every page written here starts: an existing file that does not is not replaced by one
HTML_START = b"<!DOCTYPE html>"


def path_html(resolutions: Union[Resolution, Sequence[Resolution]], *, title: str = "Sudoku resolution paths",
              size: float = 540, numbers: Optional[Sequence[int]] = None) -> str:
    """One self-contained HTML page showing the resolution path of each resolution, step by step: an
    index of the puzzles and one viewer, which draws a puzzle's steps when it is opened.

    ``size`` is the width of the grid in pixels; ``numbers`` the puzzles' numbers as shown (1, 2, ...
    by default; ``sudorules solve`` shows a puzzle given alone as Puzzle 0, as its printed path
    does).  The page needs no server and no network.  Its URL fragment ``#puzzle=P&step=K`` (K a
    step number from 1, or ``end``) opens step K of the puzzle shown as number P."""
    if isinstance(resolutions, Resolution):
        resolutions = [resolutions]
    return (HTML_START.decode() + "\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<script>{ERROR_SCRIPT}</script><style>{PAGE_CSS}{CSS}</style></head><body>"
            f'<header><h1>{escape(title)}</h1><pre id="errors"></pre></header>'
            f"{_viewer(resolutions, 'sudorules', size, page=True, numbers=numbers)}"
            "</body></html>\n")


def resolution_html(resolution: Union[Resolution, Sequence[Resolution]], *, size: float = 480) -> str:
    """The step viewer as an HTML fragment, for a notebook (``Resolution._repr_html_``): scoped
    styles, a unique id, the arrow keys when the viewer has the focus, no use of the URL."""
    resolutions = [resolution] if isinstance(resolution, Resolution) else list(resolution)
    root_id = f"sudorules-{uuid.uuid4().hex[:12]}"
    return f"<style>{CSS}</style>" + _viewer(resolutions, root_id, size, page=False)


def write_path_html(resolutions: Union[Resolution, Sequence[Resolution]], target: PathLike, *,
                    title: str = "Sudoku resolution paths", size: float = 540, inputs: Sequence[PathLike] = (),
                    numbers: Optional[Sequence[int]] = None, since: object = NOW) -> None:
    """Write :func:`path_html` to ``target`` (through :func:`sudorules.output.open_output`; ``since``:
    the :func:`~sudorules.output.file_identity` of ``target`` when the run that made the paths began,
    so that a file another program wrote meanwhile is kept, not replaced)."""
    text = path_html(resolutions, title=title, size=size, numbers=numbers)
    with open_output(target, inputs=inputs, since=since) as stream:
        stream.write(text)


def svg_steps(resolution: Resolution, directory: PathLike, *, size: float = 480, caption: bool = True,
              legend: bool = True, prefix: str = "step-", inputs: Sequence[PathLike] = ()) -> list[Path]:
    """Write one SVG file per step into ``directory`` (created if needed): ``step-001.svg``, ... (at least
    three digits), each the grid before the step with the step drawn, its text as a caption and a
    legend; never over one of ``inputs``.  Returns the paths written, in step order."""
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{folder}: {error.strerror or error}") from None
    puzzle = puzzle_of(resolution)
    digits = max(3, len(str(len(resolution.steps))))
    written = []
    for number, state, step in iter_states(resolution):
        path = folder / f"{prefix}{number:0{digits}d}.svg"
        parts = step_parts(state, step, givens=puzzle, number=number, caption=caption, legend=legend)
        with open_output(path, inputs=inputs) as stream:
            stream.write('<?xml version="1.0" encoding="UTF-8"?>\n' + assemble(parts, size) + "\n")
        written.append(path)
    return written
