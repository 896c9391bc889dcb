"""Build hook: the C extensions sudorules._core, _generate, _trial and _canon, compiled from generator/."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sudorules._core",
            sources=["generator/core.c", "generator/coremodule.c"],
            depends=["generator/core.h", "generator/rep.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # The generators and the minimal-puzzle counting (issue 4): built on the public core API.
        Extension(
            "sudorules._generate",
            sources=["generator/core.c", "generator/generate.c", "generator/generatemodule.c"],
            depends=["generator/core.h", "generator/generate.h", "generator/rep.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # Canonical (minlex) forms (issue 26): self-contained, it needs nothing of the solver, so it is
        # an extension of its own rather than part of _core.
        Extension(
            "sudorules._canon",
            sources=["generator/canon.c", "generator/canonmodule.c"],
            depends=["generator/canon.h", "generator/rep.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # The trial propagation and chain searches (trial.c), the T&E engine and compiled raters (te.c), on one
        # label encoding (tables.c); trialmodule.c is the only file that includes Python.h.
        Extension(
            "sudorules._trial",
            sources=["generator/tables.c", "generator/trial.c", "generator/te.c", "generator/trialmodule.c"],
            depends=["generator/bits.h", "generator/tables.h", "generator/trial.h", "generator/te.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
    ]
)
