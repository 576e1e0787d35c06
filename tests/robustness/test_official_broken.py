"""Broken official tables and statements: a clear error naming file and line, and no run against them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile import SENTENCE, newsclaims

from pipeline.errors import OfficialTableError
from pipeline.official.query import DEFAULT_DIR, OfficialResults
from pipeline.official.statements import load_statements

TABLE = DEFAULT_DIR / "training-v0.7.csv"
STATEMENTS = DEFAULT_DIR / "statements.csv"


def _lines() -> list[str]:
    return TABLE.read_text(encoding="utf-8").splitlines(keepends=True)


def _edit(line: int, fn: Callable[[str], str]) -> str:
    """The shipped table with one line (1-based) changed."""
    lines = _lines()
    lines[line - 1] = fn(lines[line - 1])
    return "".join(lines)


def _scored_line(benchmark: str = "resnet") -> int:
    for n, line in enumerate(_lines(), 1):
        if f",{benchmark}," in line and ",scored," in line:
            return n
    raise AssertionError("no scored row")


def _set_field(line: str, old: str, new: str) -> str:
    assert old in line
    return line.replace(old, new, 1)


CASES = {  # name -> (table text, what the message must match)
    "extra field": (lambda: _edit(5, lambda s: s.rstrip("\n") + ",surplus\n"), r"line 5: 31 fields"),
    "missing field": (lambda: _edit(6, lambda s: s.rsplit(",", 1)[0] + "\n"), r"line 6: 29 fields"),
    "unknown benchmark": (lambda: _edit(_scored_line(), lambda s: _set_field(s, ",resnet,", ",ResNet-50,")),
                          r"line \d+, column benchmark: 'ResNet-50' is not a known benchmark id"),
    "unknown round": (lambda: _edit(3, lambda s: _set_field(s, ",training-v0.7,", ",v0.7,")),
                      r"line 3, column round: 'v0.7'"),
    "minutes not a number": (lambda: _edit(_scored_line(), lambda s: re.sub(r",(\d+\.\d+),", ",fast,", s, count=1)),
                             r"line \d+, column minutes: 'fast' is not a number"),
    "chips not whole": (lambda: _edit(_scored_line(), lambda s: _set_field(s, ",8,2,", ",8.5,2,")),
                        r"line \d+, column accelerator_count: '8.5'"),
    "duplicate id": (lambda: "".join(_lines()[:4] + [_lines()[3]] + _lines()[4:]),
                     r"line 5: record_id .* was given already on line 4"),
    "bad status": (lambda: _edit(4, lambda s: re.sub(r",(scored|no_score),", ",maybe,", s, count=1)),
                   r"line 4, column status"),
    "missing column": (lambda: "".join(line.replace("minutes,", "mins,", 1) if n == 0 else line
                                       for n, line in enumerate(_lines())), r"missing columns \['minutes'\]"),
    "unclosed quote": (lambda: "".join(_lines()[:7]) + '"oops,' + "".join(_lines()[7:]),
                       r"line \d+: (malformed CSV|\d+ fields)"),
    "nul byte": (lambda: _edit(9, lambda s: s.replace(",", ",\x00", 1)), r"line 9"),
    "header only": (lambda: _lines()[0], r"header but no rows"),
    "empty": (lambda: "", r"empty"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_table_names_file_and_line(tmp_path: Path, case: str):
    make, message = CASES[case]
    path = tmp_path / "broken.csv"
    path.write_text(make(), encoding="utf-8")
    with pytest.raises(OfficialTableError, match=message) as info:
        OfficialResults(path)
    assert str(path) in str(info.value)


def test_a_table_that_is_not_text_is_refused(tmp_path: Path):
    path = tmp_path / "table.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with pytest.raises(OfficialTableError, match="not UTF-8"):
        OfficialResults(path)


@pytest.mark.parametrize(
    "edit, message",
    [(lambda s: s.replace("round=training-v0.7", "round=v0.7", 1), r"line \d+: unknown round id 'v0.7'"),
     (lambda s: s.replace(",count,", ",count,extra,", 1), r"line \d+: 9 fields expected"),
     (lambda s: s.replace(",https://", ",ftp://", 1), r"line \d+: source_url"),
     (lambda s: s + '"unterminated,\n', r"(malformed CSV|line \d+)"),
     (lambda s: s.replace(",https://mlcommons.org/", ",https://staging--mlcommons.netlify.app/", 1),
      r"line \d+: source_url .* staging or preview host"),
     (lambda s: s.replace(",https://", ",http://localhost:8000/", 1), r"staging or preview host")],
    ids=["unknown-round", "extra-field", "bad-url", "unterminated-quote", "staging-host", "local-host"],
)
def test_broken_statements_name_file_and_line(tmp_path: Path, edit, message: str):
    path = tmp_path / "statements.csv"
    path.write_text(edit(STATEMENTS.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(OfficialTableError, match=message) as info:
        load_statements(path)
    assert str(path) in str(info.value)


def test_the_run_refuses_a_broken_table_and_writes_nothing(tmp_path: Path):
    articles = tmp_path / "in"
    articles.mkdir()
    (articles / "a.txt").write_text(SENTENCE, encoding="utf-8")
    broken = tmp_path / "official" / "broken.csv"
    broken.parent.mkdir()
    broken.write_text(CASES["unknown benchmark"][0](), encoding="utf-8")
    out = tmp_path / "out"
    proc = newsclaims("run", str(articles), "--out", str(out), "--official", str(broken), "--quiet")
    assert proc.returncode != 0
    assert "E200" in proc.stderr and "broken.csv" in proc.stderr and "ResNet-50" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()  # no claims, no verdicts, not even an empty folder
