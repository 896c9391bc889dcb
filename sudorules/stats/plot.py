"""Raw vs unbiased distributions as one PNG (matplotlib, an optional dependency: ``pip install sudorules[plot]``).

One panel for the clue distribution (002 Table 4) and one per discrete rating (002 Table 3): bars
of the raw (controlled-bias sample) percentages beside the unbiased (cf-weighted) ones.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .loading import StatsInputError


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise StatsInputError("--plot needs matplotlib: pip install 'sudorules[plot]'") from None
    matplotlib.use("Agg")  # files only, never a display
    import matplotlib.pyplot as pyplot
    return pyplot


def plot_distributions(report: dict, output: str | Path) -> Path:
    """Draw the report's clue and level distributions, raw beside unbiased, into ``output`` (PNG)."""
    panels = []
    if report.get("clue_distribution"):
        panels.append(("number of clues", "clues", report["clue_distribution"]))
    for name, records in report.get("level_distributions", {}).items():
        panels.append((f"{name} level", "level", records))
    if not panels:
        raise StatsInputError("--plot: nothing to draw (no clue count and no discrete rating)")
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(len(panels), 1, figsize=(8, 3.2 * len(panels)), squeeze=False)
    for axis, (title, key, records) in zip(axes[:, 0], panels):
        positions = [r[key] for r in records]
        width = 0.4 if report.get("unbiased") else 0.8
        axis.bar([p - width / 2 if report.get("unbiased") else p for p in positions],
                 [r["raw_percent"] for r in records], width, label="raw (controlled-bias sample)")
        if report.get("unbiased"):
            axis.bar([p + width / 2 for p in positions], [r["unbiased_percent"] or 0 for r in records],
                     width, label="unbiased (cf-weighted)")
        axis.set_xlabel(title)
        axis.set_ylabel("% of puzzles")
        axis.set_xticks(positions)
        axis.legend()
    figure.tight_layout()
    output = Path(output)
    if not output.parent.is_dir():
        raise StatsInputError(f"--plot {output}: no such directory {output.parent}")
    handle, temporary = tempfile.mkstemp(suffix=".png", dir=output.parent or Path("."))
    os.close(handle)
    try:
        figure.savefig(temporary, format="png", dpi=100)
        os.chmod(temporary, 0o644)  # mkstemp creates 0600; a figure is an ordinary file
        os.replace(temporary, output)
    finally:
        pyplot.close(figure)
        if os.path.exists(temporary):
            os.remove(temporary)
    return output
