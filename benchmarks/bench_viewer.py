"""The HTML path viewer at scale: page size, build time and open time in headless Chromium.

    PYTHONPATH=. python benchmarks/bench_viewer.py [--puzzles 100] [--repeat 3] [--keep DIR]

Solves the first N published puzzles of ../shared/oracle/cb-001 under W (N puzzles of the top-down
generator, seed 26, where the collection is absent), writes the page of their paths with
``sudorules.draw.path_html`` and opens it with headless Chromium ``--dump-dom``, at
``#puzzle=N&step=end`` (the last puzzle opened at its end).  Figures, best of ``--repeat``:

* the viewer's own figure, ``data-ready-ms``: milliseconds from the request of the page to the viewer
  ready (HTML parsed, data parsed, the puzzle opened and drawn);
* the wall time of the whole Chromium process on the page and on an empty page (the browser's
  start-up and shut-down), and their difference.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import sudorules
from sudorules.draw import path_html

CB001 = Path(__file__).resolve().parent.parent.parent / "shared" / "oracle" / "cb-001" / "puzzles.txt"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def dump(browser: str, profile: Path, url: str) -> tuple[float, str]:
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-extensions", "--disable-background-networking", f"--user-data-dir={profile}",
               "--dump-dom", url]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    return time.perf_counter() - started, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", default=None, help="write the page into this directory too")
    args = parser.parse_args()
    browser = next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)
    if CB001.is_file():
        puzzles = [line.split()[0] for line in CB001.read_text().splitlines()[: args.puzzles]]
        origin = f"the first {len(puzzles)} puzzles of cb-001"
    else:
        puzzles = list(sudorules.generate_puzzles("top-down", args.puzzles, seed=26)["puzzle"])
        origin = f"{len(puzzles)} top-down puzzles (seed 26)"
    started = time.perf_counter()
    with sudorules.Solver() as solver:
        resolutions = [solver.solve(puzzle, "W") for puzzle in puzzles]
    solving = time.perf_counter() - started
    started = time.perf_counter()
    page = path_html(resolutions, title=f"{len(puzzles)} puzzles")
    building = time.perf_counter() - started
    steps = sum(len(r.steps) for r in resolutions)
    size = len(page.encode("utf-8"))
    print(f"{origin}: {steps} steps; solved under W in {solving:.1f} s")
    print(f"page: {size / 1e6:.2f} MB ({size / len(puzzles) / 1e3:.1f} kB a puzzle, {size / steps:.0f} B a step), "
          f"built in {building:.2f} s")
    if browser is None:
        print("no Chromium: open times not measured")
        return
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        target, empty = directory / "page.html", directory / "empty.html"
        target.write_text(page, encoding="utf-8")
        empty.write_text("<!DOCTYPE html><html><body><p>empty</p></body></html>", encoding="utf-8")
        if args.keep:
            shutil.copy(target, Path(args.keep) / "viewer-page.html")
        ready, walls, baselines = [], [], []
        for _ in range(args.repeat):
            baselines.append(dump(browser, directory / "profile", empty.as_uri())[0])
            wall, dom = dump(browser, directory / "profile", f"{target.as_uri()}#puzzle={len(puzzles)}&step=end")
            walls.append(wall)
            match = re.search(r'data-ready-ms="(\d+)"', dom)
            errors = re.search(r'<pre id="errors">(.*?)</pre>', dom, re.S)
            if not match or (errors and errors.group(1).strip()):
                raise SystemExit(f"the page did not open cleanly: {errors.group(1) if errors else 'no DOM'}")
            ready.append(int(match.group(1)))
    print(f"viewer ready {min(ready)} ms after the request (best of {args.repeat}; all: {ready})")
    print(f"chromium --dump-dom: {min(walls):.2f} s on the page, {min(baselines):.2f} s on an empty page: "
          f"{min(walls) - min(baselines):+.2f} s for the page")


if __name__ == "__main__":
    main()
