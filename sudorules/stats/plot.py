"""Raw vs unbiased distributions as one figure (matplotlib, an optional dependency: ``pip install sudorules[plot]``).

One panel for the clue distribution (002 Table 4) and one per discrete rating (002 Table 3): bars of
the raw (controlled-bias sample) percentages beside the unbiased (cf-weighted) ones.  The figure has a
title naming the inputs and N, the number of puzzles counted; each panel gives its own N (puzzles
with a clue count, puzzles with that rating).  The y axis is logarithmic when asked for (``log``) or,
with ``auto``, when a panel's smallest non-zero bar is under 2 % of its largest (rare levels such as
W 8-10 would otherwise be invisible); the axis label and the legend say so.

The file type is the one the output's extension names (:data:`PLOT_FORMATS`); the file is written
through :func:`sudorules.output.open_output` (atomic, umask respected, never over an input).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional, Union

from ..collection.table import STANDARD_INPUT
from ..extras import require
from ..output import check_output, open_output
from .loading import StatsInputError, StatsUsageError

#: output extension -> matplotlib format
PLOT_FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}
#: y-axis scales: linear, log, or log where a panel's bars span more than a factor 1/AUTO_LOG_RATIO
SCALES = ("auto", "linear", "log")
AUTO_LOG_RATIO = 0.02


def plot_format(output: Union[str, Path]) -> str:
    """The matplotlib format named by ``output``'s extension; StatsUsageError for any other."""
    suffix = os.path.splitext(str(output))[1].lower()
    if suffix not in PLOT_FORMATS:
        raise StatsUsageError(f"--plot {output}: unsupported file type {suffix or '(no extension)'!s}; "
                              f"use one of {', '.join(PLOT_FORMATS)}")
    return PLOT_FORMATS[suffix]


def check_plot_target(output: Union[str, Path], inputs: Iterable[Optional[Union[str, Path]]] = ()) -> str:
    """Check, before any work, that ``output`` names a supported type and can be written; its format."""
    fmt = plot_format(output)
    require("matplotlib", "--plot")
    check_output(output, inputs)
    return fmt


def _pyplot():
    matplotlib = require("matplotlib", "--plot")
    matplotlib.use("Agg")  # files only, never a display
    import matplotlib.pyplot as pyplot
    return pyplot


def _panels(report: dict) -> list[tuple[str, str, list[dict], int, str]]:
    """(title, key, records, N, what N counts) of every panel."""
    panels = []
    if report.get("clue_distribution"):
        records = report["clue_distribution"]
        panels.append(("Number of clues", "clues", records, sum(r["on"] for r in records),
                       "puzzles with a clue count"))
    for name, records in report.get("level_distributions", {}).items():
        panels.append((f"{name} rating", "level", records, sum(r["count"] for r in records),
                       f"puzzles rated {name}"))
    return panels


def _use_log(values: list[float], scale: str) -> bool:
    positive = [v for v in values if v and v > 0]
    if scale == "log":
        return bool(positive)
    if scale == "linear" or not positive:
        return False
    return min(positive) < AUTO_LOG_RATIO * max(positive)


def _sources(report: dict, width: int = 70) -> str:
    names = [Path(s).name if s != STANDARD_INPUT else s for s in report.get("sources") or []]
    text = ", ".join(names)
    return text if len(text) <= width else text[: width - 3] + "..."


def build_figure(report: dict, scale: str = "auto"):
    """The matplotlib figure of the report's clue and level distributions (raw beside unbiased)."""
    if scale not in SCALES:
        raise StatsUsageError(f"--plot-scale {scale}: use one of {', '.join(SCALES)}")
    panels = _panels(report)
    if not panels:
        raise StatsInputError("--plot: nothing to draw (no clue count and no discrete rating)")
    pyplot = _pyplot()
    unbiased = bool(report.get("unbiased"))
    # constrained layout makes room for the figure's title; tight_layout ignores it and drew it over
    # the first panel's title whenever there were several panels (five: issue 27)
    figure, axes = pyplot.subplots(len(panels), 1, figsize=(9, 0.6 + 3.4 * len(panels)), squeeze=False,
                                   layout="constrained")
    try:
        counted = max(panel[3] for panel in panels)
        kind = "Raw vs unbiased distributions" if unbiased else "Raw distributions"
        rows = report.get("rows", counted)
        figure.suptitle(f"{kind}: {_sources(report)}\nN = {counted:,} puzzles counted"
                        + (f" (of {rows:,} rows read)" if rows != counted else ""), fontsize=11)
        for axis, (title, key, records, count, what) in zip(axes[:, 0], panels):
            _draw_panel(axis, title, key, records, count, what, unbiased, scale)
    except BaseException:
        pyplot.close(figure)
        raise
    return figure


def plot_distributions(report: dict, output: Union[str, Path], scale: str = "auto",
                       inputs: Iterable[Optional[Union[str, Path]]] = ()) -> Path:
    """Draw the report's clue and level distributions, raw beside unbiased, into ``output``.

    The format is the one of ``output``'s extension (.png, .pdf, .svg); ``scale`` is ``auto``,
    ``linear`` or ``log``; ``inputs`` are files the output must not replace."""
    plot_format(output)  # an unsupported type before the drawing
    return save_figure(build_figure(report, scale), output, inputs)


def save_figure(figure, output: Union[str, Path], inputs: Iterable[Optional[Union[str, Path]]] = ()) -> Path:
    """Write ``figure`` into ``output`` in the format its extension names, and close it.

    The figure is closed before the rename of :func:`~sudorules.output.open_output`, which is then
    the last thing done, as for every output file: closed after it, an interrupt while matplotlib
    let the figure go ended the run with status 130 and the new file in place, where an interrupted
    run leaves the old one as it was."""
    fmt = plot_format(output)
    try:
        with open_output(output, binary=True, inputs=inputs) as stream:
            figure.savefig(stream, format=fmt, dpi=110)
            close_figure(figure)
    except BaseException:
        close_figure(figure)  # not closed if savefig failed; closing twice does nothing
        raise
    return Path(output)


def close_figure(figure) -> None:
    """Let matplotlib forget ``figure`` (pyplot keeps every figure until it is closed)."""
    _pyplot().close(figure)


def _draw_panel(axis, title: str, key: str, records: list[dict], count: int, what: str, unbiased: bool,
                scale: str) -> None:
    positions = [r[key] for r in records]
    raw = [r["raw_percent"] or 0.0 for r in records]
    real = [r.get("unbiased_percent") or 0.0 for r in records] if unbiased else []
    log = _use_log(raw + real, scale)
    width = 0.4 if unbiased else 0.7
    shift = width / 2 if unbiased else 0.0
    axis.bar([p - shift for p in positions], raw, width, label="raw (controlled-bias sample)", color="#4c72b0")
    if unbiased:
        axis.bar([p + shift for p in positions], real, width, label="unbiased (cf-weighted)", color="#dd8452")
    if log:
        smallest = min(v for v in raw + real if v > 0)
        # the limits before the scale: set_yscale autoscaled to the bars, and a single level (raw
        # 100 % beside unbiased 99.99999999999999 %) gave limits equal up to rounding, which made
        # matplotlib warn on stderr ("Attempting to set identical low and high ylims")
        axis.set_ylim(bottom=smallest / 2.5, top=max(raw + real) * 2.5)
        axis.set_yscale("log")
        axis.yaxis.set_major_formatter(_percent_formatter())
    else:
        axis.set_ylim(bottom=0, top=max(raw + real) * 1.12)
    axis.set_title(f"{title}   (N = {count:,} {what})", fontsize=10)
    axis.set_xlabel(title.lower() if key == "clues" else f"{title.split()[0]} level")
    axis.set_ylabel("% of puzzles" + (" (log scale)" if log else ""))
    axis.set_xticks(positions)
    axis.grid(axis="y", alpha=0.3, which="major")
    axis.set_axisbelow(True)
    legend = axis.legend(title="log scale: rare levels visible" if log else None, fontsize=8, title_fontsize=8)
    legend.get_frame().set_alpha(0.9)


def _percent_formatter():
    from matplotlib.ticker import FuncFormatter

    def label(value: float, _position: object) -> str:
        if value >= 1:
            return f"{value:g}"
        return f"{value:.{max(0, -int(f'{value:e}'.split('e')[1]))}f}".rstrip("0").rstrip(".") or "0"
    return FuncFormatter(label)
