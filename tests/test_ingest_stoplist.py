"""justext's all-language stop words, which trafilatura builds in every process that reads an HTML page
(a third of a second), are kept in a cache file: the same words, read back only from a whole file of this
user's that no one else may write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

trafilatura_external = pytest.importorskip("trafilatura.external")

from pipeline.ingest import stoplist  # noqa: E402

PAGE = ("<html><body><nav>Home | About</nav><article><p>Google trained BERT in 23 seconds on 4,096 TPU chips, "
        "the fastest time of the round.</p></article></body></html>")


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache file of the test's own, and trafilatura's list as the next process finds it (none yet)."""
    path = tmp_path / "stoplist.marshal"
    monkeypatch.setattr(stoplist, "_path", lambda: path)
    monkeypatch.setattr(trafilatura_external, "JT_STOPLIST", None)
    stoplist.prepare.cache_clear()
    yield path
    stoplist.prepare.cache_clear()


def _next_process() -> None:
    trafilatura_external.JT_STOPLIST = None
    stoplist.prepare.cache_clear()


def test_the_first_process_builds_the_words_and_writes_them(cache: Path):
    assert stoplist.prepare() is False and cache.is_file()
    built = set(trafilatura_external.JT_STOPLIST)
    _next_process()
    assert stoplist.prepare() is True
    assert set(trafilatura_external.JT_STOPLIST) == built and len(built) > 10_000


def test_a_page_reads_the_same_with_the_words_from_the_file(cache: Path):
    from pipeline.ingest.html import html_to_text

    first = html_to_text(PAGE)
    _next_process()
    assert stoplist.prepare() is True
    assert html_to_text(PAGE) == first


@pytest.mark.parametrize("damage", [
    b"",                            # empty
    b"not marshal at all",          # garbage
    b"\xe9\x00\x00\x00",            # cut short
])
def test_a_damaged_file_means_the_words_are_built_as_usual(cache: Path, damage: bytes):
    cache.write_bytes(damage)
    os.chmod(cache, 0o644)
    assert stoplist.prepare() is False
    assert trafilatura_external.JT_STOPLIST and len(trafilatura_external.JT_STOPLIST) > 10_000


def test_a_file_of_the_wrong_shape_is_not_used(cache: Path):
    import marshal

    cache.write_bytes(marshal.dumps(("stop", 3, None)))
    os.chmod(cache, 0o644)
    assert stoplist.prepare() is False


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_file_others_may_write_is_not_read(cache: Path):
    stoplist.prepare()
    _next_process()
    os.chmod(cache, 0o666)
    assert stoplist.prepare() is False
