"""Compiled patterns kept between processes (pipeline/re_programs.py): a pattern made from a stored program
is the pattern re.compile makes, and a file that is not ours, damaged or stale only means compiling as usual."""

from __future__ import annotations

import os
import re

import pytest

from pipeline import re_programs

PATTERNS = [
    (r"(?<![\d.])\d+(?:\.\d+)?\s*(?:倍|times)", 0),
    (r"(?P<value>\d+)\s*(?P<unit>chips?|块)", 0),
    (r"\bmlperf\s+training\s+v?(?P<round>\d+\.\d+)\b", re.IGNORECASE),
    (r"""(?x) \d{1,3}   # thousands
         (?:,\d{3})+""", 0),
    (r"^[>#*-]+\s*(?P<title>.+)$", re.MULTILINE),
    (r"(?=[提增])(?:提高了|增加了|提升了)", 0),
    (rb"\x00\d+", 0),
]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """An empty cache folder and a process that has loaded nothing yet."""
    monkeypatch.setenv("NEWSCLAIMS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(re_programs, "_PROGRAMS", {})
    monkeypatch.setattr(re_programs, "_loaded", set())
    monkeypatch.setattr(re, "_MAXCACHE", re._MAXCACHE)  # type: ignore[attr-defined] # preload may raise it
    re.purge()
    yield tmp_path
    re.purge()


@pytest.mark.parametrize("pattern, flags", PATTERNS, ids=[str(p[0])[:24] for p in PATTERNS])
def test_a_pattern_made_from_its_program_is_the_pattern_re_makes(pattern, flags):
    compiled = re.compile(pattern, flags)
    program = re_programs._program(pattern, int(flags), compiled)
    assert program is not None
    import _sre

    assert _sre.compile(pattern, *program) == compiled  # equality compares the programs


def test_patterns_saved_by_one_process_are_found_compiled_by_the_next(fresh):
    for pattern, flags in PATTERNS:
        re.compile(pattern, flags)
    assert re_programs.save() >= len(PATTERNS)
    re.purge()
    re_programs._PROGRAMS.clear()
    assert re_programs.preload() >= len(PATTERNS)
    for pattern, flags in PATTERNS:
        stored = re._cache[type(pattern), pattern, int(flags)]  # type: ignore[attr-defined]
        assert re.compile(pattern, flags) is stored
        assert stored == re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]


def test_a_file_others_may_write_is_not_read(fresh):
    re.compile(PATTERNS[0][0])
    re_programs.save()
    path = re_programs._path()
    os.chmod(path, 0o666)
    re.purge()
    assert re_programs.preload() == 0


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe3\x00\x00", b"{}"])
def test_a_damaged_file_means_compiling_as_usual(fresh, content):
    path = re_programs._path()
    path.write_bytes(content)
    os.chmod(path, 0o644)
    assert re_programs.preload() == 0
    assert re.compile(r"\d+(?:\.\d+)?倍").search("提高了1.7倍").group(0) == "1.7倍"


def test_a_few_new_patterns_do_not_rewrite_the_file(fresh):
    for n in range(40):
        re.compile(rf"(?:form{n})+\d")
    assert re_programs.save() == 40
    re.purge()
    re_programs._PROGRAMS.clear()
    assert re_programs.preload() == 40
    before = re_programs._path().stat().st_mtime_ns
    re.compile(r"a pattern (?:no|one) stored")  # one in forty: what a set-ordered library pattern does
    assert re_programs.save() == 0
    assert re_programs._path().stat().st_mtime_ns == before


def test_a_pattern_given_as_a_str_subclass_is_left_out_not_a_failure(fresh):
    class Text(str):
        pass

    re.compile(Text(r"\d+(?:\.\d+)?倍"))  # re caches it under its own type; marshal cannot write it
    for n in range(8):
        re.compile(rf"plain{n}\d")
    assert re_programs.save() == 8


def test_the_file_keeps_what_the_writing_process_holds_once_it_grows_past_its_bound(fresh, monkeypatch):
    monkeypatch.setattr(re_programs, "MAX_PROGRAMS", 30)
    others = [re.compile(rf"another process's form{n}\d") for n in range(25)]
    assert re_programs.save() == 25
    del others
    re.purge()
    re_programs._PROGRAMS.clear()
    re_programs._loaded.clear()
    assert re_programs.preload() == 25
    kept = [re.compile(rf"this process's form{n}\d") for n in range(10)]  # held, as a module holds its own
    assert re_programs.save() == 10
    re.purge()
    re_programs._PROGRAMS.clear()
    re_programs._loaded.clear()
    assert re_programs.preload() == 10  # the other process's 25, held by no one here, were left out
    assert all(re.compile(p.pattern) is re._cache[str, p.pattern, 0] for p in kept)  # type: ignore[attr-defined]


def test_stored_programs_come_on_top_of_res_own_room(fresh, monkeypatch):
    stored = [re.compile(rf"form{n}\d") for n in range(40)]
    re_programs.save()
    re.purge()
    re_programs._PROGRAMS.clear()
    monkeypatch.setattr(re, "_MAXCACHE", 16)
    assert re_programs.preload() == 40
    # a start-up compiles patterns of its own meanwhile: re's room for them pushes out no stored one
    for n in range(30):
        re.compile(rf"compiled meanwhile{n}\d")
    assert all((str, p.pattern, 0) in re._cache for p in stored)  # type: ignore[attr-defined]


def test_a_worker_stores_the_patterns_of_its_first_articles_once(monkeypatch):
    from pipeline.run import worker

    saves = []
    monkeypatch.setattr(worker.re_programs, "save", lambda: saves.append(worker._articles_done) or 0)
    monkeypatch.setattr(worker, "_articles_done", 0)
    for _ in range(3 * worker.SAVE_AFTER_ARTICLES):
        worker.article_done()
    assert saves == [worker.SAVE_AFTER_ARTICLES]
