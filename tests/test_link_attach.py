"""Claim attachment: the cases in tests/cases/link/<lang>/attach.yaml (articles with hand-made claims,
since the extractor is a separate stage), plus the contract of `link_claims` itself."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from pipeline.lang.yamlio import read_yaml
from pipeline.link.attach import link_claims
from pipeline.link.kb import load_kb
from pipeline.link.recognize import Mention
from pipeline.records import ENTITY_TYPES, Claim, Sentence

CASES = Path(__file__).parent / "cases" / "link"
# a sentence ends after 。！？ or at ". " before a capital (enough for the cases; segmentation is its own stage)
SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+(?=[A-Z\"“])")
UNITS = {"count": "count", "duration": "s", "ratio": "x", "date": "date", "compute": "FLOP/s", "percent": "%"}


def split_article(doc: str, text: str) -> list[Sentence]:
    """Sentences with article offsets; every non-empty line is a paragraph."""
    sents: list[Sentence] = []
    pos = 0
    for para, line in enumerate(text.split("\n")):
        start = pos
        for piece in SENTENCE_END.split(line):
            s = piece.strip()
            if s:
                i = text.index(s, start)
                lang = "zh" if re.search(r"[\u4e00-\u9fff]", s) else "en"
                sents.append(Sentence(doc, len(sents), i, i + len(s), s, lang, para))
                start = i + len(s)
        pos += len(line) + 1
    return sents


def make_claim(doc: str, text: str, sents: list[Sentence], spec: dict[str, Any]) -> Claim:
    pos = -1
    for _ in range(int(spec.get("occurrence", 1))):
        pos = text.find(str(spec["text"]), pos + 1)
    assert pos >= 0, f"case error: {spec['text']!r} is not in the article"
    s = next(s for s in sents if s.start <= pos < s.end)
    t = str(spec["text"])
    return Claim(doc=doc, lang=s.lang, sentence=s.text, start=pos, end=pos + len(t), text=t, kind=spec["kind"],
                 value=spec.get("value"), unit=UNITS.get(spec["kind"], ""), counted=spec.get("counted"),
                 ratio_reading=spec.get("ratio_reading"), sentence_index=s.index, sentence_start=s.start)


def _claim_cases() -> list:
    out = []
    for path in sorted(CASES.glob("*/attach.yaml")):
        for n, case in enumerate(read_yaml(path) or [], 1):
            for k, spec in enumerate(case["claims"], 1):
                marks = [pytest.mark.xfail(reason=spec["xfail"], strict=True)] if spec.get("xfail") else []
                name = f"{path.parent.name}:{n}.{k}:{spec['text']}"
                out.append(pytest.param(path, n - 1, k - 1, id=name, marks=marks))
    return out


_linked: dict[tuple[str, int], list[Claim]] = {}


def _link_case(path: Path, n: int) -> tuple[dict[str, Any], list[Claim]]:
    case = (read_yaml(path) or [])[n]
    key = (str(path), n)
    if key not in _linked:
        doc = f"{path.parent.name}/case{n}.txt"
        text = case["article"]
        sents = split_article(doc, text)
        claims = [make_claim(doc, text, sents, spec) for spec in case["claims"]]
        _linked[key] = link_claims(sents, claims, case.get("meta") or {}, load_kb())
    return case, _linked[key]


@pytest.mark.parametrize(("path", "n", "k"), _claim_cases())
def test_attach_case(path, n, k):
    case, linked = _link_case(path, n)
    want = case["claims"][k]["expect"]
    got = linked[k]
    ents = got.entities.as_dict()
    for t, v in (want.get("entities") or {}).items():
        assert t in ENTITY_TYPES, f"case error: unknown entity type {t}"
        assert ents[t] == v, f"{t}: got {ents[t]!r}, want {v!r} (all: {ents})"
    if "metric" in want:
        assert got.metric == want["metric"]
    if "compared_to" in want:
        assert got.compared_to == want["compared_to"]


def _one(text: str, spec: dict[str, Any], meta: dict[str, Any] | None = None, **kw: Any) -> Claim:
    sents = split_article("t.txt", text)
    (c,) = link_claims(sents, [make_claim("t.txt", text, sents, spec)], meta or {}, **kw)
    return c


@pytest.mark.parametrize(
    ("meta", "doc_round"),
    [({"round": "training-v0.6"}, "training-v0.6"), ({"round": "v0.6"}, "training-v0.6"),
     ({"date": "2019-08-01"}, "training-v0.6"), ({"published": "2021/07/01"}, "training-v1.0"), ({}, None)],
)
def test_article_round_from_meta(meta, doc_round):
    c = _one("谷歌的 TPU V3 将 BERT 的训练时间缩短到了 23 秒。", {"text": "23 秒", "kind": "duration"}, meta)
    assert c.entities.round == doc_round


def test_round_from_the_doc_path():
    text = "The TPU v3 machine trained BERT in 23 seconds."
    sents = split_article("training-v0.7/en/x.txt", text)
    claim = make_claim("training-v0.7/en/x.txt", text, sents, {"text": "23 seconds", "kind": "duration"})
    (c,) = link_claims(sents, [claim], {})
    assert c.entities.round == "training-v0.7"


def test_everything_else_is_kept():
    """Linking fills entities, metric and compared_to; every other field is the extractor's."""
    text = "谷歌的 4096 块 TPU V3 将 VERT 的训练时间缩短到了 23 秒。"
    sents = split_article("t.txt", text)
    claim = make_claim("t.txt", text, sents, {"text": "23 秒", "kind": "duration", "value": 23.0})
    (c,) = link_claims(sents, [claim], {"round": "training-v0.7"})
    assert c.id == claim.id
    assert (c.value, c.start, c.end, c.text, c.kind, c.sentence) == (23.0, claim.start, claim.end, "23 秒", "duration",
                                                                      claim.sentence)
    assert c.to_contract()["entities"] == {"org": "google", "accelerator": "tpu-v3", "system": None,
                                           "benchmark": "bert", "round": "training-v0.7", "framework": None}


def test_no_claims_and_no_sentences():
    assert link_claims([], [], {}) == []
    claim = Claim("t.txt", "zh", "", 0, 2, "23", "duration", 23.0, "s")
    (c,) = link_claims([], [claim], {"round": "training-v0.7"})
    assert c.entities.round == "training-v0.7" and c.entities.org is None


def test_extra_recognizer_names_what_the_kb_lacks():
    """An optional NER (here a stand-in for ner.load_ner) adds orgs the KB does not know."""

    def fake_ner(text: str) -> list[Mention]:
        i = text.find("Cerebras")
        return [Mention("org", None, i, i + 8, "Cerebras", 0.9, "ner")] if i >= 0 else []

    c = _one("Cerebras trained BERT in 23 seconds.", {"text": "23 seconds", "kind": "duration"}, ner=fake_ner)
    assert c.entities.org == "org:unknown:cerebras"
    assert c.entities.benchmark == "bert"


def test_linking_speed():
    """Per sentence, after the KB and recognizer are built: well under 50 ms (measured ~1-2 ms)."""
    text = "\n".join(["谷歌的 4096 块 TPU V3 将 VERT 的训练时间缩短到了 23 秒。"] * 50)
    sents = split_article("t.txt", text)
    claims = [Claim("t.txt", "zh", s.text, s.start + 4, s.start + 10, "4096 块", "count", 4096, "count",
                    counted="chip", sentence_index=s.index) for s in sents]
    link_claims(sents[:1], claims[:1], {})
    t = time.perf_counter()
    out = link_claims(sents, claims, {"round": "training-v0.7"})
    per_sentence = (time.perf_counter() - t) / len(sents)
    assert all(c.entities.accelerator == "tpu-v3" for c in out)
    assert per_sentence < 0.05
