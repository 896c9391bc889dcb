"""Check an installed sudorules the way a user runs it: ``python wheel_check.py DEMO.txt``.

Run by ``.ci/run`` (the Linux wheel, in a fresh venv) and by cibuildwheel's test-command
(pyproject.toml: every wheel, manylinux, macOS, Windows): from a temporary directory, outside any
checkout, it checks that ``sudorules`` is the installed package, then runs ``sudorules solve`` and
``sudorules rate`` (worker processes: fork on Linux, spawn on macOS and Windows; the output lock and
rename of each system) on the first puzzles of DEMO.txt.  Portable on purpose: Python, not a shell
script, so that Windows runs the same check.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def command() -> list[str]:
    """The installed ``sudorules`` console script beside this Python, else ``python -m sudorules``."""
    found = shutil.which("sudorules", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "sudorules"]


def run(args: list[str], cwd: Path) -> str:
    done = subprocess.run([*command(), *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8",
                          timeout=600)
    if done.returncode != 0:
        sys.exit(f"wheel: sudorules {' '.join(args)} ended with {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main() -> None:
    demo = Path(sys.argv[1]).resolve()
    puzzles = [line.split()[0] for line in demo.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")][:5]
    with tempfile.TemporaryDirectory() as directory:
        here = Path(directory)
        where = subprocess.run([sys.executable, "-c", "import sudorules; print(sudorules.__file__)"], cwd=here,
                               capture_output=True, text=True, check=True).stdout.strip()
        if "site-packages" not in where:
            sys.exit(f"wheel: sudorules imported from {where}, not from the installed package")
        (here / "five.txt").write_text("\n".join(puzzles) + "\n", encoding="utf-8")
        if "\nW = " not in run(["solve", puzzles[0]], here):
            sys.exit("wheel: solve printed no rating")
        run(["rate", "five.txt", "--rating", "W,B,gW,gB", "-o", "five.csv", "--jobs", "2", "--no-progress"], here)
        with open(here / "five.csv", newline="", encoding="utf-8") as handle:
            statuses = [row["status"] for row in csv.DictReader(handle)]
        if statuses != ["solved"] * 5:
            sys.exit(f"wheel: rate did not solve the 5 puzzles: {statuses}")
        if "\ngB = " not in run(["solve", "--theory", "gB", "--verify", puzzles[1]], here):
            sys.exit("wheel: solve --theory gB printed no rating")
        if sorted(p.name for p in here.iterdir()) != ["five.csv", "five.txt"]:
            sys.exit(f"wheel: files left beside the output: {sorted(p.name for p in here.iterdir())}")
    print("wheel install: solve and rate ran outside the checkout")


if __name__ == "__main__":
    main()
