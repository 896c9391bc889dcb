"""Build hook: the C extensions sudorules._core, _generate, _trial and _canon, compiled from generator/."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sudorules._core",
            sources=["generator/core.c", "generator/coremodule.c"],
            depends=["generator/core.h", "generator/tables.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # The generators and the minimal-puzzle counting (issue 4): built on the public core API.
        Extension(
            "sudorules._generate",
            sources=["generator/core.c", "generator/generate.c", "generator/generatemodule.c"],
            depends=["generator/core.h", "generator/generate.h", "generator/tables.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # Canonical (minlex) forms (issue 26): self-contained, it needs nothing of the solver, so it is
        # an extension of its own rather than part of _core.
        Extension(
            "sudorules._canon",
            sources=["generator/canon.c", "generator/canonmodule.c"],
            depends=["generator/canon.h", "generator/tables.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # The trial propagation of sudorules/engine/trial.py (contradiction depths), one self-contained file.
        Extension(
            "sudorules._trial",
            sources=["generator/trial.c"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
    ]
)
