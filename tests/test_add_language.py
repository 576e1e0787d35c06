"""Adding a language is a data change (pipeline/lang/README.md, "Adding a language"): a copy of the language
data folder with one more language in it, named by Settings.lang_dir, reaches every stage through the
Pipeline.  German here: a few numerals, two duration units and one ratio phrase."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.lang.loader import LANG_DIR, languages
from pipeline.records import Article
from pipeline.run.process import Pipeline
from pipeline.settings import Settings

GERMAN = """\
lang: de
script: latin
numerals:
  words: {eins: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, zehn: 10, zwölf: 12}
units:
  duration:
    Minuten: minute
    Minute: minute
    Sekunden: second
ratio:
  markers: [mal]
  after:
    times_as: [so schnell]
sentences:
  terminators: [".", "!", "?"]
"""


@pytest.fixture(scope="module")
def german_pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    root = tmp_path_factory.mktemp("lang")
    shutil.copytree(LANG_DIR, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (root / "de").mkdir()
    (root / "de" / "lexicon.yaml").write_text(GERMAN, encoding="utf-8")
    listing = root / "base" / "languages.yaml"
    listing.write_text(listing.read_text(encoding="utf-8").replace("[zh, en]", "[zh, en, de]"), encoding="utf-8")
    return Pipeline(Settings(lang_dir=str(root)))


def _claims(pipe: Pipeline, text: str) -> list:
    _, claims = pipe.analyse(Article(doc="de/test.txt", text=text, meta={"language": "de"}))
    return claims


# (sentence, the claim's text, kind, value in the contract's unit, ratio reading)
GERMAN_SENTENCES = [
    ("Das System trainierte BERT in zwölf Minuten.", "zwölf Minuten", "duration", 720.0, None),
    ("Der Lauf dauerte 40 Sekunden.", "40 Sekunden", "duration", 40.0, None),
    ("Die neue Maschine ist drei mal so schnell wie die alte.", "drei mal", "ratio", 3.0, "times_as"),
    ("Der Cluster war 4 mal so schnell.", "4 mal", "ratio", 4.0, "times_as"),
]


@pytest.mark.parametrize("sentence, text, kind, value, reading", GERMAN_SENTENCES)
def test_a_language_from_a_data_folder_is_extracted(german_pipeline: Pipeline, sentence: str, text: str,
                                                   kind: str, value: float, reading: str | None):
    found = [c for c in _claims(german_pipeline, sentence) if c.kind == kind]
    assert [(c.text, c.value, c.lang, c.ratio_reading) for c in found] == [(text, value, "de", reading)]


def test_the_new_language_runs_through_every_stage(german_pipeline: Pipeline):
    result = german_pipeline.process(Article(doc="de/a.txt", text="BERT lief in zwölf Minuten.",
                                             meta={"language": "de"}))
    assert result.error is None and result.lang == "de"
    assert [c.verdict for c in result.claims] and all(c.verdict for c in result.claims)


def test_an_undeclared_latin_sentence_stays_english(german_pipeline: Pipeline):
    # the first Latin-script language of the folder's list is the default; "de" only when declared
    _, claims = german_pipeline.analyse(Article(doc="x.txt", text="It took 12 minutes."))
    assert [c.lang for c in claims] == ["en"]


def test_the_shipped_languages_are_untouched(german_pipeline: Pipeline):
    assert "de" in german_pipeline.langs and "de" not in languages()


def test_merged_forms_keep_the_files_order():
    # a set's order would follow the hash seed, and the first matching cue list decides some readings
    zh = languages()["zh"]
    keys = list(zh.cues)
    own = [k for k in keys if k in {"area_language", "area_nlp"}]
    assert own == ["area_language", "area_nlp"]


def test_a_folder_without_its_language_list_is_refused(tmp_path: Path):
    from pipeline.errors import DataFileError
    from pipeline.lang.loader import language_codes

    (tmp_path / "base").mkdir()
    with pytest.raises(DataFileError, match="languages.yaml"):
        language_codes(str(tmp_path))
