"""Shared fixtures: paths to the repo, the corpora and the read-only ../shared folder, and a headless
browser for the pages' tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CASES = Path(__file__).parent / "cases"

# The suite's processes (and the commands it starts) keep their caches apart from the user's: a test process
# stores the patterns it holds, not a run's, and a run after the suite would compile again what runs stored.
# One folder for the whole suite (and later suites), so that each process does not build them anew.
os.environ.setdefault("NEWSCLAIMS_CACHE_DIR",
                      str(Path(tempfile.gettempdir()) / f"newsclaims-test-cache-{getattr(os, 'getuid', lambda: 0)()}"))


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


BROWSER_HINT = "run .ci/setup-browser (apt-get install chromium fonts-noto-cjk; .venv/bin/pip install playwright)"


def _chromium() -> str | None:
    for candidate in (os.environ.get("NEWSCLAIMS_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _no_browser(reason: str) -> None:
    """Locally a missing browser skips the test; under CI (CI=true) it fails: .ci/setup-browser installs it."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the browser tests: {BROWSER_HINT}")
    pytest.skip(f"{reason}: {BROWSER_HINT}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium driven by playwright (playwright's own browser download is not
    available here): NEWSCLAIMS_CHROMIUM, else `chromium` on PATH."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("playwright for Python is not installed")
    executable = _chromium()
    if executable is None:
        _no_browser("no headless Chromium found (chromium not on PATH, NEWSCLAIMS_CHROMIUM unset)")
    with sync_playwright() as p:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()
