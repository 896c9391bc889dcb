"""A resolution path as one self-contained HTML page: a step viewer (inline SVG, CSS, vanilla JS).

No server, no network: everything is in the page.  For each puzzle, one viewer shows the grid before a
step with the step drawn on it (:mod:`sudorules.draw.svg`), the step's text in SudoRules' notation,
buttons, a slider, the arrow keys and a list of every step to jump to; the last position is the
final grid with the rating.  Several puzzles follow one another, with a selector at the top.  The
URL fragment ``#puzzle=2&step=12`` (or ``step=end``) opens a given step and follows the viewer.
Errors met by the script are written into ``<pre id="errors">`` (empty when all is well), so that a
headless browser's ``--dump-dom`` tells whether the page ran cleanly.

Why the steps are data drawn by the script rather than one SVG per step in hidden ``<div>``s: a
step's picture is some 15-25 kB of SVG, most of it the 81 cells, which change little from one step
to the next, so 100 steps would weigh 2 MB.  The page therefore holds, once, every distinct cell
fragment the path goes through (a cell's SVG depends only on the cell and its content), and per step
the step's marks (a few kB) and 81 indices into that table; the script joins the pieces exactly as
:func:`sudorules.draw.svg.assemble` does, so the SVG files, the notebook pictures and the page come
from the same Python drawing code.  A 100-step path makes a page of a few hundred kB.  The first
position of each viewer is also written into the page as plain SVG, so that something shows where
scripts do not run (an untrusted notebook).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Iterator, Sequence, Union
from xml.sax.saxutils import escape

from ..output import open_output
from ..puzzle import CELLS, Puzzle
from ..resolution.path import most_complex_rule
from ..resolution.state import ResolutionState
from ..resolution.steps import Resolution, Step
from .svg import GRID_LINES, SvgParts, assemble, cell_fragment, legend_svg, step_parts, svg_background, svg_open

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


def _ending_text(resolution: Resolution, state: ResolutionState) -> str:
    theory = str(resolution.theory)
    if resolution.status == "solved":
        return (f"PUZZLE IS SOLVED. rating-type = {theory}, MOST COMPLEX RULE TRIED = "
                f"{most_complex_rule(resolution)}\n{theory} = {resolution.rating}\nsolution: {resolution.solution}")
    if resolution.status == "contradiction":
        return f"PUZZLE HAS NO SOLUTION : NO CANDIDATE FOR {resolution.contradiction}"
    return (("TIME LIMIT REACHED. " if resolution.status == "timeout" else "")
            + f"PUZZLE IS NOT SOLVED. {state.missing_values()} VALUES MISSING.")


def _summary(resolution: Resolution) -> str:
    theory = str(resolution.theory)
    rating = f"{theory} = {resolution.rating}" if resolution.rating is not None else f"{theory}: {resolution.status}"
    count = len(resolution.steps)
    return f"{rating} \u00b7 {count} step{'' if count == 1 else 's'}"


class _Table:
    """The shared table of distinct cell fragments."""

    def __init__(self) -> None:
        self.fragments: list[str] = []
        self.index: dict[str, int] = {}

    def add(self, fragment: str) -> int:
        if fragment not in self.index:
            self.index[fragment] = len(self.fragments)
            self.fragments.append(fragment)
        return self.index[fragment]


def _records(resolution: Resolution, table: _Table) -> tuple[list[dict], SvgParts, str]:
    """The viewer's positions for one resolution (steps, then the end) as JSON-ready records; also the
    first position's parts (written into the page as plain SVG) and the ending text."""
    puzzle = puzzle_of(resolution)
    records, first = [], None
    state = ResolutionState(puzzle)
    for number, state, step in iter_states(resolution):
        parts = step_parts(state, step, givens=puzzle, number=number)
        first = first or parts
        records.append({"t": escape(parts.title), "u": parts.under, "o": parts.over,
                        "c": [table.add(cell) for cell in parts.cells], "x": step.text(), "f": step.family,
                        "r": step.rule, "l": step.length})
    end = final_state(resolution)
    ending = _ending_text(resolution, end)
    cells = [cell_fragment(cell, end.values[cell], end.candidates[cell], bool(puzzle.givens[cell])) for cell in CELLS]
    title = ("Solution" if resolution.status == "solved" else "Final resolution state") + f" of {puzzle}"
    records.append({"t": escape(title), "u": "", "o": "", "c": [table.add(cell) for cell in cells], "x": ending,
                    "f": "end", "r": "end", "l": resolution.rating if resolution.rating is not None else ""})
    return records, first or SvgParts(title=title, cells=cells), ending


CSS = """
.sudorules-viewer{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#222}
.sudorules-viewer .sr-puzzle{border-top:1px solid #ccc;padding:8px 0 18px}
.sudorules-viewer h2{font-size:1.1em;margin:6px 0}
.sudorules-viewer code,.sudorules-viewer pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
.sudorules-viewer .sr-meta{margin:2px 0 8px;color:#444}
.sudorules-viewer .sr-controls{display:flex;align-items:center;gap:6px;flex-wrap:wrap;margin-bottom:8px}
.sudorules-viewer .sr-controls input[type=range]{flex:1;min-width:160px;max-width:420px}
.sudorules-viewer button{font:inherit;padding:2px 9px;cursor:pointer}
.sudorules-viewer .sr-body{display:flex;gap:18px;flex-wrap:wrap;align-items:flex-start}
.sudorules-viewer .sr-board svg{display:block;max-width:100%;height:auto}
.sudorules-viewer .sr-side{flex:1;min-width:300px;max-width:640px}
.sudorules-viewer .sr-position{font-weight:600}
.sudorules-viewer .sr-step-text{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;border:1px solid #ddd;
 padding:8px;margin:6px 0 10px;font-size:14px;line-height:1.45}
.sudorules-viewer .sr-steps{position:relative;max-height:260px;overflow:auto;border:1px solid #ddd;margin:8px 0 0;padding:0 0 0 3.2em;
 font-size:12.5px}
.sudorules-viewer .sr-steps li button{all:unset;cursor:pointer;font-family:ui-monospace,"DejaVu Sans Mono",monospace;
 display:block;white-space:nowrap}
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
  var F = data.fragments;
  function svgOf(rec) {
    var cells = [];
    for (var i = 0; i < rec.c.length; i++) cells.push(F[rec.c[i]]);
    return data.open + "<title>" + rec.t + "</title>" + data.background + rec.u + data.lines + cells.join("") +
      rec.o + "</svg>";
  }
  var viewers = [];
  var active = null;
  function label(viewer, position) {
    return position === viewer.count ? "end" : String(position);
  }
  function show(viewer, position, updateHash) {
    position = Math.max(1, Math.min(viewer.count, position | 0));
    var rec = viewer.records[position - 1];
    viewer.position = position;
    viewer.board.innerHTML = svgOf(rec);
    var b = viewer.board;
    b.setAttribute("data-step", label(viewer, position));
    b.setAttribute("data-family", rec.f);
    b.setAttribute("data-rule", rec.r);
    b.setAttribute("data-length", String(rec.l));
    viewer.text.textContent = rec.x;
    viewer.where.textContent = position === viewer.count ? "End (" + (viewer.count - 1) + " steps)" :
      "Step " + position + " of " + (viewer.count - 1);
    viewer.slider.value = String(position);
    for (var i = 0; i < viewer.items.length; i++) {
      if (i === position - 1) {
        viewer.items[i].setAttribute("aria-current", "step");
        var list = viewer.list, item = viewer.items[i];
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
      } else if (viewer.items[i].hasAttribute("aria-current")) {
        viewer.items[i].removeAttribute("aria-current");
      }
    }
    active = viewer;
    if (page && updateHash) {
      try {
        history.replaceState(null, "", "#puzzle=" + (viewer.index + 1) + "&step=" + label(viewer, position));
      } catch (e) { /* a browser refusing to change a file: URL keeps the old fragment */ }
    }
  }
  var sections = root.querySelectorAll("section.sr-puzzle");
  for (var s = 0; s < sections.length; s++) {
    (function (section, index) {
      var viewer = {
        index: index, section: section, records: data.puzzles[index].steps,
        board: section.querySelector(".sr-board"), text: section.querySelector(".sr-step-text"),
        where: section.querySelector(".sr-position"), slider: section.querySelector("input[type=range]"),
        list: section.querySelector(".sr-steps"), items: section.querySelectorAll(".sr-steps li"), position: 1
      };
      viewer.count = viewer.records.length;
      viewers.push(viewer);
      section.addEventListener("click", function (event) {
        var target = event.target.closest("button");
        active = viewer;
        if (!target) return;
        var go = target.getAttribute("data-goto");
        var move = {first: 1, prev: viewer.position - 1, next: viewer.position + 1, last: viewer.count};
        if (go !== null) show(viewer, parseInt(go, 10), true);
        else if (target.getAttribute("data-action") in move) show(viewer, move[target.getAttribute("data-action")], true);
      });
      viewer.slider.addEventListener("input", function () { show(viewer, parseInt(viewer.slider.value, 10), true); });
      if (!page) section.addEventListener("keydown", function (event) { key(event, viewer); });
      show(viewer, 1, false);
    })(sections[s], s);
  }
  active = viewers[0] || null;
  function key(event, viewer) {
    if (!viewer || event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var moves = {ArrowRight: 1, ArrowDown: 1, PageDown: 10, ArrowLeft: -1, ArrowUp: -1, PageUp: -10};
    if (event.key in moves) show(viewer, viewer.position + moves[event.key], true);
    else if (event.key === "Home") show(viewer, 1, true);
    else if (event.key === "End") show(viewer, viewer.count, true);
    else return;
    event.preventDefault();
  }
  if (!page) return;
  document.addEventListener("keydown", function (event) { key(event, active); });
  var select = document.getElementById("puzzle-select");
  if (select) select.addEventListener("change", function () {
    var viewer = viewers[parseInt(select.value, 10) - 1];
    if (!viewer) return;
    active = viewer;
    viewer.section.scrollIntoView();
    show(viewer, viewer.position, true);
  });
  function fromHash() {
    var query = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var kv = pair.split("=");
      if (kv[0]) query[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
    });
    if (!("puzzle" in query) && !("step" in query)) return;
    var viewer = viewers[(parseInt(query.puzzle || "1", 10) || 1) - 1];
    if (!viewer) return;
    var step = query.step === "end" ? viewer.count : parseInt(query.step || "1", 10) || 1;
    show(viewer, step, false);
    if (select) select.value = String(viewer.index + 1);
    if (viewer.index > 0) viewer.section.scrollIntoView();
  }
  window.addEventListener("hashchange", fromHash);
  if (/(^#|&)selftest(&|$)/.test(location.hash)) selftest(); else fromHash();

  // #selftest: draw every position of every viewer, and drive the controls, writing what the DOM
  // shows into a pre#selftest element as JSON (for a headless browser's --dump-dom)
  function selftest() {
    var out = {positions: [], navigation: []};
    viewers.forEach(function (viewer) {
      for (var p = 1; p <= viewer.count; p++) {
        show(viewer, p, false);
        var rec = {puzzle: viewer.index + 1, step: label(viewer, p), text: viewer.text.textContent,
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
      var nav = {puzzle: viewer.index + 1, count: viewer.count};
      function press(name) { document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true})); }
      show(viewer, 1, false);
      press("ArrowRight"); press("ArrowRight"); nav.rightRight = viewer.position;
      press("ArrowLeft"); nav.left = viewer.position;
      press("End"); nav.end = viewer.position; nav.endStep = viewer.board.getAttribute("data-step");
      press("Home"); nav.home = viewer.position;
      viewer.section.querySelector("[data-action=next]").click(); nav.next = viewer.position;
      viewer.section.querySelector("[data-action=prev]").click(); nav.prev = viewer.position;
      viewer.slider.value = String(Math.min(3, viewer.count));
      viewer.slider.dispatchEvent(new Event("input", {bubbles: true})); nav.slider = viewer.position;
      viewer.items[viewer.count - 1].querySelector("button").click(); nav.listLast = viewer.position;
      nav.current = viewer.section.querySelectorAll(".sr-steps li[aria-current=step]").length;
      out.navigation.push(nav);
      show(viewer, 1, false);
    });
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


def _viewer(resolutions: Sequence[Resolution], root_id: str, size: float, page: bool) -> str:
    """The viewer's markup, data and script, inside ``<div class="sudorules-viewer" id=root_id>``."""
    table = _Table()
    puzzles, sections = [], []
    for index, resolution in enumerate(resolutions, start=1):
        puzzle = puzzle_of(resolution)
        records, first, _ending = _records(resolution, table)
        puzzles.append({"steps": records})
        count = len(records)
        texts = [record["x"] for record in records[:-1]] + [f"end: {_summary(resolution)}"]
        items = "".join(f'<li><button type="button" data-goto="{k}">{escape(text)}</button></li>'
                        for k, text in enumerate(texts, start=1))
        sections.append(
            f'<section class="sr-puzzle" id="{root_id}-puzzle-{index}" data-puzzle="{index}" '
            f'data-theory="{escape(str(resolution.theory))}" data-status="{escape(str(resolution.status))}" '
            f'data-rating="{"" if resolution.rating is None else resolution.rating}" tabindex="-1">'
            f"<h2>Puzzle {index}: <code>{escape(str(puzzle))}</code></h2>"
            f'<p class="sr-meta">{puzzle.clues} givens \u00b7 theory {escape(str(resolution.theory))} \u00b7 '
            f"{escape(str(resolution.status))} \u00b7 <strong>{escape(_summary(resolution))}</strong></p>"
            f'<div class="sr-controls">'
            f'<button type="button" data-action="first" aria-label="first step">\u25c0\u25c0</button>'
            f'<button type="button" data-action="prev" aria-label="previous step">\u25c0 previous</button>'
            f'<input type="range" min="1" max="{count}" value="1" step="1" aria-label="step">'
            f'<button type="button" data-action="next" aria-label="next step">next \u25b6</button>'
            f'<button type="button" data-action="last" aria-label="end">\u25b6\u25b6</button>'
            f'<span class="sr-keys">keys: \u2190 \u2192, Home, End</span></div>'
            f'<div class="sr-body"><div class="sr-board" data-step="1">{assemble(first, size)}</div>'
            f'<div class="sr-side"><div class="sr-position">Step 1 of {count - 1}</div>'
            f'<pre class="sr-step-text">{escape(records[0]["x"])}</pre>'
            f'<div class="sr-legend">{legend_svg(width=380)}</div>'
            f'<ol class="sr-steps">{items}</ol></div></div></section>')
    data = {"open": svg_open(size), "background": svg_background(), "lines": GRID_LINES, "fragments": table.fragments,
            "puzzles": puzzles}
    script = SCRIPT.replace("__ROOT__", json.dumps(root_id)).replace("__PAGE__", "true" if page else "false")
    return (f'<div class="sudorules-viewer" id="{root_id}">' + "".join(sections)
            + f'<script type="application/json" class="sr-data">{_json_for_script(data)}</script>'
            + f"<script>{script}</script></div>")


def path_html(resolutions: Union[Resolution, Sequence[Resolution]], *, title: str = "Sudoku resolution paths",
              size: float = 540) -> str:
    """One self-contained HTML page showing the resolution path of each resolution, step by step.

    ``size`` is the width of the grid in pixels.  The page needs no server and no network.  Its URL
    fragment ``#puzzle=P&step=K`` (K a step number from 1, or ``end``) opens step K of puzzle P."""
    if isinstance(resolutions, Resolution):
        resolutions = [resolutions]
    options = "".join(
        f'<option value="{i}">Puzzle {i}: {escape(_summary(r))}</option>' for i, r in enumerate(resolutions, start=1))
    return ("<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<script>{ERROR_SCRIPT}</script><style>{PAGE_CSS}{CSS}</style></head><body>"
            f'<header><h1>{escape(title)}</h1><pre id="errors"></pre>'
            f'<label>Puzzle <select id="puzzle-select">{options}</select></label> '
            f'<span class="sr-count">{len(resolutions)} puzzle{"" if len(resolutions) == 1 else "s"}</span></header>'
            f"{_viewer(resolutions, 'sudorules', size, page=True)}"
            "</body></html>\n")


def resolution_html(resolution: Union[Resolution, Sequence[Resolution]], *, size: float = 480) -> str:
    """The step viewer as an HTML fragment, for a notebook (``Resolution._repr_html_``): scoped
    styles, a unique id, the arrow keys when the viewer has the focus, no use of the URL."""
    resolutions = [resolution] if isinstance(resolution, Resolution) else list(resolution)
    root_id = f"sudorules-{uuid.uuid4().hex[:12]}"
    return f"<style>{CSS}</style>" + _viewer(resolutions, root_id, size, page=False)


def write_path_html(resolutions: Union[Resolution, Sequence[Resolution]], target: PathLike, *,
                    title: str = "Sudoku resolution paths", size: float = 540, inputs: Sequence[PathLike] = ()) -> None:
    """Write :func:`path_html` to ``target`` (through :func:`sudorules.output.open_output`)."""
    text = path_html(resolutions, title=title, size=size)
    with open_output(target, inputs=inputs) as stream:
        stream.write(text)


def svg_steps(resolution: Resolution, directory: PathLike, *, size: float = 480, caption: bool = True,
              legend: bool = True, prefix: str = "step-") -> list[Path]:
    """Write one SVG file per step into ``directory`` (created if needed): ``step-001.svg``, ... (at least
    three digits), each the grid before the step with the step drawn, its text as a caption and a
    legend.  Returns the paths written, in step order."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    puzzle = puzzle_of(resolution)
    digits = max(3, len(str(len(resolution.steps))))
    written = []
    for number, state, step in iter_states(resolution):
        path = folder / f"{prefix}{number:0{digits}d}.svg"
        parts = step_parts(state, step, givens=puzzle, number=number, caption=caption, legend=legend)
        with open_output(path) as stream:
            stream.write('<?xml version="1.0" encoding="UTF-8"?>\n' + assemble(parts, size) + "\n")
        written.append(path)
    return written
