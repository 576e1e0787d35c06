"""The regex prefilter may only skip a pattern where the pattern cannot match: checked for every
not-claim and date pattern of every language over the shipped articles, the golden cases and texts
built to probe case folding."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract import prefilter as prefilter_module
from pipeline.extract.dates import date_patterns
from pipeline.extract.prefilter import DIGIT, Text, prefilter, requirement, with_first_chars
from pipeline.lang.loader import load_language

REPO = Path(__file__).resolve().parents[1]
CODES = ("zh", "en")


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for code in CODES:
        lang = load_language(code)
        out += [(f"{code}:not_claims.{k}", rx) for k, rx in lang.not_claims.items()]
        out += [(f"{code}:dates.{k}", rx) for k, rx in date_patterns(lang)]
        out += [(f"{code}:{kind}.{i}", rx) for kind in ("exponents", "fractions", "dimensions")
                for i, rx in enumerate(getattr(lang, kind))]
    return out


def _texts() -> list[str]:
    texts = []
    for path in sorted((REPO / "corpora" / "articles").rglob("*")):
        if path.suffix in (".txt", ".md", ".html"):
            body = path.read_text(encoding="utf-8")
            texts += [body[i:i + 160] for i in range(0, len(body), 60)]
    for path in sorted((REPO / "tests" / "cases").rglob("*.yaml")):
        texts += path.read_text(encoding="utf-8").splitlines()
    # IGNORECASE equates these with ASCII letters: K (Kelvin) = k, ſ = s, ı and İ = i
    texts += ["MLPERF V0.7", "\u212aunpeng 920", "a \u017fecond", "fır\u017ft", "F\u0130RST round", "ＭＬＰｅｒｆ 0.7",
              "Posted on July 4, 2020", "JULY 29, 2020", "每一 个", "第 3 轮", "v-.7", "4096×4096"]
    return texts


@pytest.mark.parametrize(("name", "rx"), _patterns(), ids=[n for n, _ in _patterns()])
def test_prefilter_never_skips_a_match(name: str, rx: re.Pattern[str]) -> None:
    pf = prefilter(rx)
    missed = [t for t in _texts() if rx.search(t) and not pf(Text(t))]
    assert not missed, f"{name} matches but its prefilter says no: {missed[:3]}"


@pytest.mark.parametrize(("pattern", "needles"), [
    (r"(?i)\bmlperf\s*\d", {("mlperf", True), (DIGIT, False)}),
    (r"第\s*[一二三]", {("第", False), ("一", False), ("二", False), ("三", False)}),
    (r"(?:ab|cd)?x", {("x", False)}),
    (r"(?<=y)z", {("z", False)}),
    (r"[^a]b", {("b", False)}),
])
def test_requirement_reads_literals(pattern: str, needles: set[tuple[str, bool]]) -> None:
    found = set().union(*requirement(re.compile(pattern)))
    assert found == needles


@pytest.mark.parametrize("char", ["\u212a", "\u017f", "\u0131", "\u0130"])
def test_folded_view_keeps_ignorecase_matches(char: str) -> None:
    """Every character that IGNORECASE matches to an ASCII letter becomes that letter in the view."""
    letters = [c for c in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(c, char, re.IGNORECASE)]
    assert letters
    assert all(c in Text(f"x{char}y").folded for c in letters)


def _spans(rx: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in rx.finditer(text)]


@pytest.mark.parametrize(("name", "rx"), _patterns(), ids=[n for n, _ in _patterns()])
def test_a_first_character_lookahead_finds_the_same_matches(name: str, rx: re.Pattern[str]) -> None:
    fast = with_first_chars(rx)
    texts = _texts()
    assert [_spans(fast, t) for t in texts] == [_spans(rx, t) for t in texts], name


_FAST = [rx for _, rx in _patterns() if with_first_chars(rx) is not rx]


@given(st.text(alphabet="0123456789.:-x×vV kKiIsS\u212a\u017f\u0131\u0130fF第一个年期@\nMLPERFmlperf", max_size=40),
       st.sampled_from(_FAST))
@settings(max_examples=500, deadline=None)
def test_the_lookahead_holds_on_random_text(text: str, rx: re.Pattern[str]) -> None:
    assert _spans(with_first_chars(rx), text) == _spans(rx, text)


@pytest.mark.parametrize(("pattern", "lookahead"), [
    (r"(?<![\d.])\d+\.\d+", r"(?=[\d])"),              # a lookbehind hides the digit from re's own skip
    (r"(?i)\b(?:first|one)\b", "(?=[FOfo])"),         # word boundary, then case-insensitive words
    (r"(?i:ab|k)x", "(?=[AKak\u212a])"),               # K (Kelvin) is a k under IGNORECASE
    (r"\+?\d{2}", r"(?=[\+\d])"),                      # an optional first item
    (r"第\d+", None),                                  # a literal start: re skips ahead by itself
    (r"(?m)^\d+", r"(?=[\d])"),                       # a line start: re tries every position
    (r"(?<=[。！？])\d{1,2}", r"(?=[\d])"),             # a lookbehind that must match
    (r"^\d+", None),                                  # the text's start: re tries there alone
    (r"\A\d+", None),
    (r"(?<!x)a*", None),                               # matches the empty string anywhere
    (r"(?<!x).b", None),                               # any character may start it
    (r"(?<!x)[^a]b", None),
])
def test_which_patterns_get_a_first_character_lookahead(pattern: str, lookahead: str | None) -> None:
    rx = re.compile(pattern)
    fast = with_first_chars(rx)
    if lookahead is None:
        assert fast is rx
    else:
        assert fast.pattern.startswith(lookahead + "(?:"), fast.pattern


def _matches(rx: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groups(), m.groupdict()) for m in rx.finditer(text)]


def _as_compiled(fast: re.Pattern[str]) -> re.Pattern[str]:
    """The lookahead pattern as re itself compiles it (with_first_chars gives its own program for it)."""
    return re.compile(fast.pattern, fast.flags)


@pytest.mark.parametrize(("name", "rx"), [(n, rx) for n, rx in _patterns() if with_first_chars(rx) is not rx],
                         ids=[n for n, rx in _patterns() if with_first_chars(rx) is not rx])
def test_the_skipping_program_finds_what_the_lookahead_finds(name: str, rx: re.Pattern[str]) -> None:
    fast = with_first_chars(rx)
    assert fast != _as_compiled(fast), f"{name}: no program of its own (re's internals not as expected?)"
    texts = _texts()
    assert [_matches(fast, t) for t in texts] == [_matches(_as_compiled(fast), t) for t in texts], name


# invented patterns of the shapes the lexicons use, and sentences that hit them at the edges of a text
@pytest.mark.parametrize(("pattern", "text"), [
    (r"(?<![\d.])(?P<n>\d+)\s*[×x]\s*(?P=n)(?![\d.])", "boards of 8x8 and 16 × 16, not 1.16x16 or 3x4"),
    (r"(?i)\b(?:twice|double[ds]?)\b", "Twice as fast; it DOUBLED; doubles; redoubled; doubled"),
    (r"(?<![\w.])(?P<m>\d+(?:\.\d+)?)[eE]\+?(?P<e>\d{1,3})(?![\w.])", "1e18, 2.5E+17 and x1e9 or 3e4."),
    (r"(?<![零一二三四五六七八九十])(?P<d>[一二三四五六七八九十]+)分之(?P<n>[一二三])",
     "四分之一，三十分之二，十一分之三"),
    (r"\+?\d{2,4}[- ]\d{3,4}[- ]\d{3,4}", "call +86-1234-5678 or 010 8888 9999"),
    (r"(?<!x)[ab]c", "ac bc xac xbc ab"),
    (r"(?i)(?<![a-z])k\w+", "kernel, \u212aelvin and Kunpeng; skip"),
])
def test_a_skipping_program_keeps_matches_and_groups(pattern: str, text: str) -> None:
    rx = re.compile(pattern)
    fast = with_first_chars(rx)
    assert fast is not rx and fast != _as_compiled(fast)
    assert _matches(fast, text) == _matches(rx, text)
    assert _matches(fast, text[3:]) == _matches(rx, text[3:])
    assert [fast.match(text, i) is not None for i in range(len(text))] == \
        [rx.match(text, i) is not None for i in range(len(text))]


def test_without_the_internals_expected_the_lookahead_pattern_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prefilter_module, "K", SimpleNamespace())  # another Python's re._compiler
    rx = re.compile(r"(?<![\d.])\d+\.\d+ and one more")
    fast = with_first_chars(rx)
    assert fast is not rx and fast == _as_compiled(fast)
    assert _spans(fast, "1.5 and one more, 2.75 and one more") == _spans(rx, "1.5 and one more, 2.75 and one more")
