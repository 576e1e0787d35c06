"""Properties of number reading that must hold for any input (hypothesis), and a bounded fuzz of
ingest + extraction over random bytes and mutated real articles.

Examples are derandomized (the same every run, so CI is reproducible) and bounded (max_examples) to keep
this file within about 15 seconds.  NEWSCLAIMS_FUZZ=N runs N times as many random (not derandomized)
examples: a longer hunt for bugs, e.g. NEWSCLAIMS_FUZZ=50 .venv/bin/pytest tests/robustness/test_properties.py
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from hostile import CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import IngestError
from pipeline.ingest.read import read_article
from pipeline.run.process import extract_text, get_pipeline
from pipeline.settings import Settings

# Pieces that number reading is made of, so that generated text often holds (near-)claims.
PIECES = ["4096", "4,096", "0.39", "23", "1.7", "１２３", "三", "十二", "两", "万", "亿", "百分之", "倍", "提高了",
          "大", "秒", "分钟", "块", "颗", "芯片", "GPU", "TPU v3", "ResNet-50", "MLPerf v0.7", "0.7-70", "不到",
          "超过", "约", "高达", "以上", "多", "个", "项", "中的", "of", "six", "eight", "times", "x", "%",
          "seconds", "minutes", "chips", "PFLOPs", "petaflops", "up to", "more than", "about", "nearly", "from",
          "to", "年", "月", "日", "2020", "July 29", "，", "。", ". ", "\n", " ", "-", "~", "/", "(", ")", "“", "”"]
pieces_text = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)
any_text = st.text(max_size=200)
SCALE = int(os.environ.get("NEWSCLAIMS_FUZZ", "1"))


def bounded(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None, derandomize=SCALE == 1, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", autouse=True)
def _warm():
    get_pipeline(Settings())
    extract_text("谷歌 23 秒。Google 23 seconds.")


def _check_claims(text: str, claims) -> None:
    for c in claims:
        assert 0 <= c.start <= c.end <= len(text)
        assert text[c.start:c.end] == c.text, (c.text, c.start, c.end)
        assert c.sentence and c.text in c.sentence or not c.text
        if isinstance(c.value, (int, float)) and not isinstance(c.value, bool) and math.isfinite(c.value):
            if c.low is not None and c.high is not None:
                assert c.low <= c.value <= c.high, (c.text, c.value, c.low, c.high)


ARTICLES = sorted(p for p in CORPUS.rglob("*") if p.suffix in {".txt", ".md", ".html"})


@st.composite
def spliced_sentence(draw) -> str:
    """A window of a real article with number pieces and arbitrary characters spliced in."""
    text = draw(st.sampled_from(ARTICLES)).read_text(encoding="utf-8")
    start = draw(st.integers(0, max(0, len(text) - 150)))
    out = text[start:start + draw(st.integers(1, 150))]
    for _ in range(draw(st.integers(0, 5))):
        at = draw(st.integers(0, len(out)))
        out = out[:at] + draw(st.one_of(st.sampled_from(PIECES), st.text(max_size=3))) + out[at:]
    return out


@bounded(400)
@given(st.one_of(pieces_text, any_text, spliced_sentence()))
def test_extract_text_never_raises_and_offsets_slice_to_text(text: str):
    _check_claims(text, extract_text(text))


@bounded(150)
@given(st.binary(max_size=600), st.sampled_from([".txt", ".html", ".md"]))
def test_ingest_and_extract_survive_random_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes, suffix: str):
    _survives(tmp_path_factory.mktemp("bytes", numbered=True), suffix, data)


@st.composite
def mutated_article(draw) -> tuple[str, bytes]:
    """A window of a real article (as bytes, possibly re-encoded) with bytes flipped, cut or inserted."""
    path = draw(st.sampled_from(ARTICLES))
    text = path.read_text(encoding="utf-8")
    start = draw(st.integers(0, max(0, len(text) - 400)))
    data = text[start:start + 400].encode(draw(st.sampled_from(["utf-8", "gb18030", "utf-16", "utf-8-sig"])),
                                          errors="ignore")
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["flip", "cut", "insert"]))
        if op == "flip" and at < len(data):
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
        elif op == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 8)):]
        else:
            data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return path.suffix, data


@bounded(120)
@given(mutated_article())
def test_ingest_and_extract_survive_mutated_articles(tmp_path_factory: pytest.TempPathFactory, case):
    suffix, data = case
    _survives(tmp_path_factory.mktemp("mutated", numbered=True), suffix, data)


def _survives(root: Path, suffix: str, data: bytes) -> None:
    """The file is refused with a reason (empty, binary, undecodable), or read and analysed with sane claims."""
    path = root / f"a{suffix}"
    path.write_bytes(data)
    try:
        article = read_article(path, root)
    except IngestError as exc:
        assert exc.reason in {"empty", "binary", "decode"} and exc.detail
        return
    _check_claims(article.text, get_pipeline(Settings()).analyse(article)[1])
