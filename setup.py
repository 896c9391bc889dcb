"""Build hook: the C extensions sudorules._core and sudorules._generate, compiled from generator/."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sudorules._core",
            sources=["generator/core.c", "generator/coremodule.c"],
            depends=["generator/core.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        # The generators and the minimal-puzzle counting (issue 4): built on the public core API.
        Extension(
            "sudorules._generate",
            sources=["generator/core.c", "generator/generate.c", "generator/generatemodule.c"],
            depends=["generator/core.h", "generator/generate.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
    ]
)
