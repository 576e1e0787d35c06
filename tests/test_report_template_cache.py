"""Compiled report templates kept between processes (Jinja's bytecode cache, pipeline/report/html.py): a page
rendered from the cache is the page compiled afresh, and a damaged or unwritable cache only means compiling."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from pipeline.report import html

TEMPLATE = "report.css.j2"


def _render(cache: jinja2.BytecodeCache | None) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(html.TEMPLATES), bytecode_cache=cache,
                             **html._ENV_OPTIONS)
    return env.get_template(TEMPLATE).render()


@pytest.fixture
def temp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("NEWSCLAIMS_CACHE_DIR", str(tmp_path))
    return tmp_path


def _cached(temp: Path) -> list[Path]:
    return [p for p in temp.rglob("newsclaims-report-*.cache")]


def test_a_template_from_the_cache_renders_as_one_compiled_afresh(temp: Path) -> None:
    fresh = _render(None)
    assert _render(html._bytecode_cache()) == fresh  # compiled, and stored
    assert _cached(temp)
    assert _render(html._bytecode_cache()) == fresh  # read back


def test_a_damaged_cache_file_is_compiled_again(temp: Path) -> None:
    fresh = _render(html._bytecode_cache())
    for path in _cached(temp):
        path.write_bytes(b"not a compiled template")
    assert _render(html._bytecode_cache()) == fresh


def test_a_cache_it_cannot_write_only_means_compiling(temp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = _render(None)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(jinja2.bccache.tempfile, "NamedTemporaryFile", full)
    assert _render(html._bytecode_cache()) == fresh
    assert not _cached(temp)
