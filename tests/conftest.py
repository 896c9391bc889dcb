"""Shared fixtures: where the published oracle data lies (``../shared/oracle`` beside the checkout)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORACLE = ROOT.parent / "shared" / "oracle"
CB001 = ORACLE / "cb-001"


@pytest.fixture(scope="session")
def cb001() -> Path:
    """The published controlled-bias collection 001; the test is skipped where it is absent."""
    if not (CB001 / "puzzles.txt").is_file():
        pytest.skip("../shared/oracle/cb-001 is not present")
    return CB001
