"""Every language file validates, and a broken one is refused with its file and key named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.errors import DataFileError
from pipeline.lang import loader
from pipeline.lang.loader import LANG_DIR, LANGUAGES, _load_one, load_language
from pipeline.lang.yamlio import read_yaml


@pytest.mark.parametrize("code", LANGUAGES)
def test_language_file_validates(code: str):
    lang = load_language(code)
    assert lang.units and lang.bounds_before["upper"] and lang.ratio_markers and lang.not_claims


@pytest.fixture
def lang_copy(tmp_path: Path) -> Path:
    for sub in ("base", "zh", "en"):
        shutil.copytree(LANG_DIR / sub, tmp_path / sub)
    return tmp_path


@pytest.mark.parametrize(
    "old, new, key",
    [
        ("  suffix_scales:", "  suffix_scalez:", "numerals.suffix_scalez"),
        ("    秒: second\n", "    秒: second\n    秒: second\n", None),
        ("    increase_by: [提高了,", "    increase_byy: [提高了,", "ratio.before.increase_byy"),
        ("    秒钟: second", "    秒钟: secnd", "units.duration.秒钟"),
        ("  ordinal: '第", "  ordinal: '(第", "not_claims.ordinal"),
    ],
    ids=["unknown-key", "duplicate-key", "unknown-reading", "unknown-unit", "broken-regex"],
)
def test_broken_lexicon_names_file_and_key(lang_copy: Path, old: str, new: str, key: str | None):
    path = lang_copy / "zh" / "lexicon.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _load_one.cache_clear()
    with pytest.raises(DataFileError) as info:
        _load_one("zh", str(lang_copy))
    assert "lexicon.yaml" in str(info.value)
    if key:
        assert key in str(info.value)
    _load_one.cache_clear()


@pytest.mark.parametrize("code, other", [("zh", "en"), ("en", "zh")])
def test_a_lexicon_names_the_language_mixed_into_it(lang_copy: Path, code: str, other: str):
    own, mixed = _load_one(code, str(lang_copy)), load_language(code, str(lang_copy))
    assert own.mixed_with == other
    assert set(_load_one(other, str(lang_copy)).units) <= set(mixed.units)


def test_each_lexicon_is_read_once(lang_copy: Path, monkeypatch: pytest.MonkeyPatch):
    read: list[Path] = []

    def counting(path: Path):
        read.append(Path(path))
        return read_yaml(path)

    monkeypatch.setattr(loader, "read_yaml", counting)
    for code in ("zh", "en"):
        load_language(code, str(lang_copy))
    lexicons = [str(r.relative_to(lang_copy)) for r in read if r.name == "lexicon.yaml"]
    assert sorted(lexicons) == ["en/lexicon.yaml", "zh/lexicon.yaml"]


def test_adding_a_unit_is_a_data_change(lang_copy: Path):
    from dataclasses import replace

    from pipeline.extract.numbers import find_numbers
    from pipeline.extract.quantities import Reader

    path = lang_copy / "en" / "lexicon.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    weeks: week\n", "    weeks: week\n    fortnights: week\n"), encoding="utf-8")
    _load_one.cache_clear()
    lang = replace(_load_one("en", str(lang_copy)), cache={})
    text = "It took 3 fortnights."
    num = find_numbers(text, 0, lang)[0]
    q = Reader(text, lang, 0, len(text), {num.start}).quantity(num)
    assert q is not None and q.kind == "duration"
    _load_one.cache_clear()


# Number words side by side: one number where the words continue each other, else each on its own
# ("one eight-GPU server" is 1 and 8, never 9)
@pytest.mark.parametrize("text, values", [
    ("one eight-GPU server", [1, 8]),
    ("the twelve eight-chip nodes", [12, 8]),
    ("four thousand ninety-six chips", [4096]),
    ("two hundred and six entries", [206]),
    ("twenty-four records", [24]),
    ("three five-minute runs", [3, 5]),
])
def test_number_words_side_by_side(text: str, values: list[int]):
    from pipeline.extract.numbers import find_numbers
    from pipeline.lang.loader import languages

    assert [n.value for n in find_numbers(text, 0, languages()["en"])] == values
