"""A batch's warm-up (pipeline.run.worker) pins the pipeline, so that the workers check every article against
the tables the run started with without looking at the table files again (the next run's warm-up picks up
a table corrected in between)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.official.query import DEFAULT_DIR
from pipeline.run import process, worker
from pipeline.settings import Settings


@pytest.fixture()
def tables(tmp_path: Path) -> Path:
    folder = tmp_path / "official"
    shutil.copytree(DEFAULT_DIR, folder)
    return folder


def test_the_pipeline_a_warm_up_loaded_is_the_one_its_articles_use(tables: Path) -> None:
    settings = Settings(official=str(tables))
    worker.warm_up(settings)
    assert worker.run_pipeline(settings) is process.get_pipeline(settings)


def test_a_pinned_pipeline_does_not_look_at_the_table_files_per_article(tables: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(official=str(tables))
    worker.warm_up(settings)
    pinned = worker.run_pipeline(settings)

    def looked(_settings: Settings) -> tuple:
        raise AssertionError("the table files were looked at again")

    monkeypatch.setattr(process, "_official_signature", looked)
    assert worker.run_pipeline(settings) is pinned


def test_the_next_warm_up_picks_up_a_corrected_table(tables: Path) -> None:
    settings = Settings(official=str(tables))
    worker.warm_up(settings)
    before = worker.run_pipeline(settings)
    table = tables / "training-v0.7.csv"
    table.write_text(table.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    worker.warm_up(settings)
    after = worker.run_pipeline(settings)
    assert after is not before
    assert after is process.get_pipeline(settings)


def test_settings_not_pinned_get_the_current_pipeline(tables: Path) -> None:
    worker.warm_up(Settings(official=str(tables)))
    other = Settings(article_timeout=7.0)
    assert worker.run_pipeline(other) is process.get_pipeline(other)
