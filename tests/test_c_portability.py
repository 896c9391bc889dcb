"""The compiled core as a porter sees it (issue 24): every algorithm file of generator/ compiles
warning-free as C11 with gcc and clang in strict mode, without Python's headers, and cross-compiles for
Windows with MinGW-w64; bit operations go through generator/bits.h; and the generators built without
Python by each compiler (and with bits.h's plain C branch) give a seed the same puzzles as the
extension does.  Each test is skipped where its compiler is missing (Debian: clang, gcc-mingw-w64)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sudorules import _generate
from sudorules.generation.generate import generate, puzzle_strings

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "generator"
DRIVER = Path(__file__).resolve().parent / "c" / "generate_driver.c"
#: the files that hold algorithms; the *module.c files are the CPython glue, the only ones with Python.h
ALGORITHMS = ["core.c", "generate.c", "canon.c", "tables.c", "trial.c", "te.c"]
STRICT = ["-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O2"]
MINGW = "x86_64-w64-mingw32-gcc"


def compiler(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def run(command: list, **options) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, **options)


def includes(path: Path) -> list[str]:
    return re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', path.read_text(), re.M)


def test_no_algorithm_file_needs_python_headers():
    """Neither an algorithm file nor any generator/ header it includes (transitively) includes Python.h."""
    seen, todo = set(), [GENERATOR / name for name in ALGORITHMS]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in includes(path):
            assert name != "Python.h", f"{path.name} includes Python.h"
            if (GENERATOR / name).is_file():
                todo.append(GENERATOR / name)
    assert {p.name for p in seen} >= {"core.h", "generate.h", "bits.h", "rng.h", "canon.h"}


def test_compiler_builtins_only_in_bits_h():
    """GCC builtins are reached through bits.h's portable helpers (which have MSVC and plain C branches)."""
    for path in sorted(GENERATOR.glob("*.[ch]")):
        if path.name != "bits.h":
            assert "__builtin_" not in path.read_text(), f"{path.name} calls a GCC builtin directly"


@pytest.mark.parametrize("cc", ["gcc", "clang"])
@pytest.mark.parametrize("source", ALGORITHMS)
def test_algorithm_file_compiles_strict_c11(cc, source, tmp_path):
    result = run([compiler(cc), *STRICT, "-c", GENERATOR / source, "-o", tmp_path / "out.o"])
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr


def test_mingw_cross_compiles_and_links_every_algorithm_file(tmp_path):
    """A Windows DLL of all the algorithm files: compile warnings are errors, and so is any symbol that
    Windows lacks (a DLL link resolves everything)."""
    dll = tmp_path / "sudorules_core.dll"
    result = run([compiler(MINGW), *STRICT, "-shared", "-o", dll,
                  *[GENERATOR / name for name in ALGORITHMS], "-lm"])
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    assert dll.read_bytes()[:2] == b"MZ"  # a PE image


BUILDS = {"gcc": ("gcc", []), "clang": ("clang", []), "gcc-plain-bits": ("gcc", ["-DSR_BITS_PLAIN"])}


@pytest.fixture(scope="module")
def drivers(tmp_path_factory) -> dict:
    """tests/c/generate_driver.c with core.c and generate.c, per build (None where its compiler is
    missing)."""
    out = {}
    for name, (cc, flags) in BUILDS.items():
        path = shutil.which(cc)
        if path is None:
            out[name] = None
            continue
        exe = tmp_path_factory.mktemp("driver") / name
        result = run([path, *STRICT, *flags, f"-I{GENERATOR}", "-o", exe, DRIVER,
                      GENERATOR / "core.c", GENERATOR / "generate.c", "-lm"])
        assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
        out[name] = exe
    return out


def driver(drivers: dict, build: str) -> Path:
    if drivers[build] is None:
        pytest.skip(f"{BUILDS[build][0]} is not installed")
    return drivers[build]


@pytest.mark.parametrize("build", list(BUILDS))
@pytest.mark.parametrize("method,code,count",
                         [("bottom-up", 0, 30), ("top-down", 1, 60), ("controlled-bias", 2, 1)])
def test_each_build_generates_what_the_extension_does(drivers, build, method, code, count):
    result = run([driver(drivers, build), "generate", code, 1, count, 46])
    assert result.returncode == 0, result.stderr
    batch = generate(method, count, seed=1, weights=method != "bottom-up")
    rows = [line.split() for line in result.stdout.splitlines()]
    assert [row[0] for row in rows] == puzzle_strings(batch.puzzles)
    assert [int(row[1]) for row in rows] == (batch.tries.tolist() if method == "controlled-bias" else
                                             [0 if method == "bottom-up" else 1] * count)
    if method != "bottom-up":
        assert [float(row[2]) for row in rows] == batch.weights.tolist()


@pytest.mark.parametrize("build", list(BUILDS))
@pytest.mark.parametrize("code,size,max_clues", [(0, 30, 81), (1, 22, 25)])
def test_each_build_counts_what_the_extension_does(drivers, build, code, size, max_clues):
    samples = 200
    result = run([driver(drivers, build), "count", code, 3, samples, size, max_clues])
    assert result.returncode == 0, result.stderr
    found = np.zeros((samples, 82), np.int64)
    done, abandoned = _generate.count_batch(code, 3, 0, size, max_clues, found)
    assert (done, abandoned) == (samples, 0)
    assert np.loadtxt(result.stdout.splitlines(), dtype=np.int64).tolist() == found.tolist()
