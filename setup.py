"""Build hook: the one C extension, sudorules._core, compiled from generator/."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sudorules._core",
            sources=["generator/core.c", "generator/coremodule.c"],
            depends=["generator/core.h"],
            extra_compile_args=["-O3", "-std=c11"],
        )
    ]
)
