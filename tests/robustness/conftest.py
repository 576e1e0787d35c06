"""Fixtures for the robustness suite: a clean run of the shipped corpus, and a folder of hostile files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile import CORPUS, EN, SENTENCE, build_hostile, copy_corpus


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """tmp_path/in with two articles: one mixed-language sentence and a shipped English article."""
    root = tmp_path / "in"
    root.mkdir()
    (root / "ok.txt").write_text(SENTENCE, encoding="utf-8")
    (root / "en.txt").write_bytes(EN.read_bytes())
    return root


@pytest.fixture(scope="session")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped corpus run once, cleanly, in this process: what every hostile run is compared with."""
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    out = tmp_path_factory.mktemp("clean") / "out"
    summary = run_batch(CORPUS, out, Settings())
    assert summary.errors == 0 and summary.succeeded == summary.articles
    return out


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """tmp_path/in with the shipped corpus (under corpus/) and every hostile case (under hostile/)."""
    root = tmp_path / "in"
    copy_corpus(root / "corpus")
    build_hostile(root)
    return root
