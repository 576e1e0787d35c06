"""Shared fixtures: paths to the repo, the corpora and the read-only ../shared folder."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CASES = Path(__file__).parent / "cases"


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.exists():
        pytest.skip("../shared is not beside this checkout")
    return SHARED


@pytest.fixture(scope="session")
def seeds(shared: Path) -> Path:
    return shared / "seeds"
