"""Build hook: the C extensions sudorules._core, _generate, _trial and _canon, compiled from generator/."""
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: compile flags per compiler family (distutils' compiler_type): MSVC spells them its own way, and
#: "unix" (gcc, clang; macOS too) and "mingw32" take the gcc ones.  C11 everywhere: the C files use
#: `static inline`, designated initialisers and, where present, <stdatomic.h>.
FLAGS = {"msvc": ["/O2", "/std:c11"]}
GCC_FLAGS = ["-O3", "-std=c11"]


class BuildExt(build_ext):
    """build_ext choosing the optimisation and C-standard flags for the compiler at hand (only
    build_ext knows which one it is)."""

    def build_extensions(self) -> None:
        flags = FLAGS.get(self.compiler.compiler_type, GCC_FLAGS)
        for extension in self.extensions:
            extension.extra_compile_args = flags + list(extension.extra_compile_args or [])
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            "sudorules._core",
            sources=["generator/core.c", "generator/coremodule.c"],
            depends=["generator/core.h", "generator/rep.h", "generator/bits.h", "generator/rng.h"],
        ),
        # The generators and the minimal-puzzle counting (issue 4): built on the public core API.
        Extension(
            "sudorules._generate",
            sources=["generator/core.c", "generator/generate.c", "generator/generatemodule.c"],
            depends=["generator/core.h", "generator/generate.h", "generator/rep.h", "generator/bits.h",
                     "generator/rng.h"],
        ),
        # Canonical (minlex) forms (issue 26): self-contained, it needs nothing of the solver, so it is
        # an extension of its own rather than part of _core.
        Extension(
            "sudorules._canon",
            sources=["generator/canon.c", "generator/canonmodule.c"],
            depends=["generator/canon.h", "generator/rep.h"],
        ),
        # The trial propagation and chain searches (trial.c), the T&E engine and compiled raters (te.c), on one
        # label encoding (tables.c); trialmodule.c is the only file that includes Python.h.
        Extension(
            "sudorules._trial",
            sources=["generator/tables.c", "generator/trial.c", "generator/te.c", "generator/trialmodule.c"],
            depends=["generator/bits.h", "generator/tables.h", "generator/trial.h", "generator/te.h"],
        ),
    ]
)
