"""The package layout (issue 11): layers that import one way only, and subpackages that name their
public names.

Every import is counted, including those inside functions (a lazy import hides a cycle, it does not
remove it).  The layers, lowest first; a module may import its own layer's modules and lower ones.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sudorules"

LAYERS = [
    {"errors", "enums", "extras", "_lazy", "oscompat"},  # _lazy: the subpackages' lazy exports
    {"puzzle"},
    {"reader", "core", "output", "_core", "_generate", "_trial", "_canon", "collection"},
    {"generation"},
    {"resolution"},
    {"engine"},
    {"batch", "options"},
    {"stats", "draw"},
    {"api"},
    {"cli", "__init__", "__main__"},
]
SUBPACKAGES = ("engine", "resolution", "batch", "generation")


def _layer(top: str) -> int:
    for index, names in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(f"sudorules.{top} has no layer in tests/test_layout.py: add it")


def _top(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0].removesuffix(".py")


def _imports(path: Path, root: Path = PACKAGE.parent) -> list[tuple[int, str]]:
    """(line, top-level sudorules module) of every import of a sudorules module in ``path``, a file
    of the ``sudorules`` package found under ``root``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = list(path.relative_to(root).with_suffix("").parts)
    if package[-1] == "__init__":
        package = package[:-1]
    else:
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                parts = base + (node.module.split(".") if node.module else [])
                names = [parts] if node.module else [parts + [alias.name] for alias in node.names]
            elif node.module and node.module.split(".")[0] == "sudorules":
                names = [node.module.split(".")]
            else:
                continue
            for parts in names:
                if len(parts) > 1:
                    found.append((node.lineno, parts[1]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "sudorules" and len(parts) > 1:
                    found.append((node.lineno, parts[1]))
    return found


def test_imports_go_one_way_down_the_layers():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = _layer(_top(path))
        for line, target in _imports(path):
            if _layer(target) > own:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports sudorules.{target}")
    assert not upward, "imports that go up the layers:\n" + "\n".join(upward)


def test_the_layer_check_sees_an_upward_import(tmp_path):
    """The check above can fail: a lazy import of the batch layer in an engine module is caught."""
    fake = tmp_path / "sudorules" / "engine" / "fake.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..puzzle import Puzzle\n\ndef f():\n    from ..batch.rating import Rater\n"
                    "    import sudorules.api\n")
    found = _imports(fake, root=tmp_path)
    assert found == [(1, "puzzle"), (4, "batch"), (5, "api")]
    assert [t for _, t in found if _layer(t) > _layer("engine")] == ["batch", "api"]


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_each_subpackage_names_its_public_names(name):
    module = importlib.import_module(f"sudorules.{name}")
    assert module.__doc__ and module.__all__
    for public in module.__all__:
        assert hasattr(module, public), f"sudorules.{name}.__all__ names {public}, which is not there"


def test_the_top_level_api_is_complete():
    import sudorules

    for public in sudorules.__all__:
        assert hasattr(sudorules, public), public
    for function in ("solve", "rate", "check", "generate_puzzles", "count_minimals"):
        assert callable(getattr(sudorules, function)), function
    # a submodule import must not shadow a top-level function (sudorules.check the module once did)
    importlib.import_module("sudorules.batch.check")
    assert callable(sudorules.check)
    assert (PACKAGE / "py.typed").is_file()


def test_every_subpackage_is_in_the_wheel():
    """pyproject.toml lists the packages a wheel installs: a subpackage missing there imports from a
    checkout and fails from a wheel."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    present = {".".join(init.parent.relative_to(PACKAGE.parent).parts) for init in PACKAGE.rglob("__init__.py")}
    assert present <= listed, f"not in pyproject.toml packages: {sorted(present - listed)}"
    assert "sudorules.rules" in listed and "py.typed" in config["tool"]["setuptools"]["package-data"]["sudorules"]


def test_the_generator_side_is_a_package_of_its_own():
    """Issue 26: the generators and the counting of minimal puzzles live in sudorules/generation/,
    beside engine/, batch/ and stats/, not as loose top-level modules."""
    assert not (PACKAGE / "generate.py").exists() and not (PACKAGE / "count.py").exists()
    generate = importlib.import_module("sudorules.generation.generate")
    count = importlib.import_module("sudorules.generation.count")
    import sudorules

    assert sudorules.generate_puzzles is generate.generate_frame
    assert sudorules.count_minimals is count.count_minimals
