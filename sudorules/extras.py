"""The optional dependencies (the package's extras) and the one check that one is installed.

An option that needs an extra (``rate -o OUT.parquet``, ``rate --scheduler``, ``stats --plot``, a
Parquet input of ``stats``) checks it before any work, so that a missing package is one line naming
the package and the extra to install, status 2, and nothing is left behind (``rate -o x.parquet``
used to rate every puzzle first, then fail on "None is not installed", issue 27).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingDependencyError

#: importable module -> the extra that installs it (pyproject.toml's optional-dependencies)
EXTRAS = {"pyarrow": "parquet", "distributed": "distributed", "matplotlib": "plot"}


def require(module: str, purpose: str) -> ModuleType:
    """The module ``module`` (one of :data:`EXTRAS`), imported; :class:`MissingDependencyError`
    saying that ``purpose`` needs it, and how to install it, when it cannot be imported."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(f"{purpose} needs {module}, which is not installed: "
                                     f"pip install 'sudorules[{EXTRAS[module]}]'") from None
