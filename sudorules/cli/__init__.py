"""The ``sudorules`` command line: a thin layer over the library API, one module per command."""

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudorules")
def main() -> None:
    """Solve, rate and generate Sudoku puzzles by resolution rules (SudoRules-compatible)."""


# Each command module registers itself on `main` when imported.
from . import check  # noqa: E402,F401
from . import solve  # noqa: E402,F401
from . import rate  # noqa: E402,F401
from . import stats_cmd  # noqa: E402,F401
from . import compare_cmd  # noqa: E402,F401
from . import generate  # noqa: E402,F401
from . import count  # noqa: E402,F401
