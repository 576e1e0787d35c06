"""Where newsclaims keeps what it builds once per machine (pipeline.fileio.cache_dir): the system's temp folder,
or $NEWSCLAIMS_CACHE_DIR, which every cache then uses (the test suite sets one of its own in conftest.py)."""

from __future__ import annotations

import stat
import tempfile
from pathlib import Path

import pytest

from pipeline import re_programs
from pipeline.fileio import CACHE_DIR_ENV, cache_dir, write_cache_file


def test_without_the_variable_the_caches_are_in_the_temp_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    assert cache_dir() == Path(tempfile.gettempdir())


def test_a_missing_folder_is_made_private(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "a" / "caches"
    monkeypatch.setenv(CACHE_DIR_ENV, str(folder))
    assert cache_dir() == folder
    assert folder.is_dir() and stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0


def test_a_folder_that_cannot_be_made_means_no_cache_not_an_error(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_DIR_ENV, str(blocker / "caches"))
    assert cache_dir() == blocker / "caches"
    assert write_cache_file(cache_dir() / "x.marshal", b"data") is False


def _stoplist_path() -> Path:
    from pipeline.ingest import stoplist

    return stoplist._path()


def _jieba_trie_path() -> Path:
    import jieba

    from pipeline.segment.jieba_dict import _cache_path

    return _cache_path(Path(jieba.__file__).parent / "dict.txt")


@pytest.mark.parametrize("path_of", [re_programs._path, _stoplist_path, _jieba_trie_path],
                         ids=["compiled patterns", "HTML stop-list", "jieba's dictionary trie"])
def test_every_cache_file_goes_to_the_chosen_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                    path_of) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    assert path_of().parent == tmp_path


def test_compiled_report_templates_go_to_the_chosen_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import jinja2

    from pipeline.report import html

    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(html.TEMPLATES), bytecode_cache=html._bytecode_cache(),
                             **html._ENV_OPTIONS)
    env.get_template("report.css.j2").render()
    assert list(tmp_path.glob("newsclaims-report-*.cache"))
