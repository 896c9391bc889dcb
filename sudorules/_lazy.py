"""Public names of a package loaded from their submodules on first use (PEP 562).

A subpackage whose ``__init__`` imported its submodules eagerly made every user pay for all of them:
``sudorules solve`` imported numpy through ``sudorules.batch`` (for the watchdog) and the rule engine
through ``sudorules.engine`` (for the braid schedule's constants), about 0.2 s of a 0.4 s start-up
target (issue 23).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def exports(package: str, names: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: each of ``names`` (name -> submodule) is
    imported from its submodule when first asked for, then kept in the package."""
    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
