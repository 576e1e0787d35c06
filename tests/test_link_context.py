"""Entities a story leaves unsaid (issue #16): the chip an org's results were about, the one chip of an org
an article names, and the org a story is about.  They are shown in the output, but a verdict never rests on
them (docs/CONTRACT.md: a claim is contradicted only when its words fix its frame).  Also the date an
article gives for itself in its first lines, which dates its relative dates."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pipeline.link.attach import inferred
from pipeline.link.kb import load_kb
from pipeline.records import Article
from pipeline.run.process import get_pipeline
from pipeline.settings import Settings

OFFICIAL = Path(__file__).resolve().parents[1] / "corpora" / "official"


def _claims(text: str, meta: dict | None = None):
    return get_pipeline(Settings()).process(Article(doc="case.txt", text=text, meta=meta or {})).claims


def _claim(text: str, claim_text: str, meta: dict | None = None):
    hits = [c for c in _claims(text, meta) if c.text == claim_text]
    assert hits, [c.text for c in _claims(text, meta)]
    return hits[0]


# (article, metadata, claim, the accelerator the output shows)
CHIPS = [
    # the chip the org's results of the round were about (KB orgs.yaml featured)
    ("NVIDIA set eight records in MLPerf Training v0.7.", {}, "eight records", "a100"),
    ("In MLPerf Training v0.6, NVIDIA won three of the six benchmarks.", {}, "three of the six benchmarks", "v100"),
    ("英伟达在 MLPerf Training v1.0 中拿下了八项纪录。", {}, "八项纪录", "a100"),
    ("Graphcore submitted 4 results to MLPerf Training v1.0.", {}, "4 results", "ipu"),
    # the one chip of the org the article names, even in another paragraph
    ("Google entered MLPerf Training v0.7 with a supercomputer.\n\nIt is built from 4096 TPU v3 chips. "
     "Google said it won six benchmarks.", {}, "six benchmarks", "tpu-v3"),
    # Google in v0.7 entered TPU v3 at scale and TPU v4 in preview: no default
    ("Google won six benchmarks in MLPerf Training v0.7.", {}, "six benchmarks", None),
    # an article naming two chips of the org leaves the claim's chip unsaid
    ("Google ran TPU v3 and TPU v4 chips in MLPerf Training v0.7. Google won six benchmarks.", {},
     "six benchmarks", None),
]


@pytest.mark.parametrize("text, meta, claim_text, chip", CHIPS, ids=[r[2] + "/" + str(r[3]) for r in CHIPS])
def test_the_chip_a_story_leaves_unsaid(text, meta, claim_text, chip):
    assert _claim(text, claim_text, meta).entities.accelerator == chip


def test_an_inferred_chip_is_marked_and_no_verdict_rests_on_it():
    # the range "8 to 4096 chips" spans every submitter; read as TPU v3 only, 8 would look wrong
    text = ("Google's TPU supercomputer is built from 4096 TPU v3 chips.\n\n"
            "Google says the MLPerf Training v0.7 systems involved range from 8 to 4096 chips.")
    c = _claim(text, "8")
    assert "accelerator" in inferred(c)
    assert c.verdict != "contradicted", c.explanation


# (article, claim, the org the output shows)
TOPIC = [
    # (the headline names the org; the later paragraph names none)
    ("Google says its TPU supercomputer set six records\n\nThe post was written by an engineer. "
     "He says four of the eight models trained in under 30 seconds.", "in under 30 seconds", "google"),
    # a count of companies is about no one org
    ("Google says its TPU supercomputer set six records\n\nMLPerf has over 70 companies as members.",
     "over 70 companies", None),
    # no org dominates: nothing is inferred
    ("Google and NVIDIA both entered.\n\nOne entry needed 28 seconds.", "28 seconds", None),
]


@pytest.mark.parametrize("text, claim_text, org", TOPIC, ids=[r[1] for r in TOPIC])
def test_the_org_a_story_is_about(text, claim_text, org):
    assert _claim(text, claim_text).entities.org == org


def test_every_featured_chip_was_entered_by_its_org_in_that_round():
    kb = load_kb()
    entered: set[tuple[str, str, str]] = set()
    for table in sorted(OFFICIAL.glob("training-v*.csv")):
        df = pd.read_csv(table, usecols=["round", "org", "accelerator"]).dropna()
        entered |= set(map(tuple, df[["org", "round", "accelerator"]].itertuples(index=False)))
    featured = [(e.id, rnd, (changes or {}).get("featured")) for e in kb.entries["org"].values()
                for rnd, changes in (e.attrs.get("by_round") or {}).items()]
    assert featured
    for org, rnd, chip in featured:
        assert (org, rnd, chip) in entered, f"{org} did not enter {chip} in {rnd}"


# (article without a sidecar, claim, the ISO date it resolves to)
DATED = [
    ("2020年7月31日 09:15 来源：某某科技网\n\n谷歌去年12月发布了首轮成绩。", "去年12月", "2019-12"),
    ("2021-07-05　算力前沿\n\n谷歌在今年5月发布了 TPU v4。", "今年5月", "2021-05"),
    ("Chip wars\n\nBy A. Writer | Published July 6, 2021\n\nThe first results came out last December.",
     "last December", "2020-12"),
    ("原文链接：https://news.example.com/2020/07/30/mlperf-v07\n\n谷歌去年12月发布了首轮成绩。", "去年12月", "2019-12"),
]


@pytest.mark.parametrize("text, claim_text, iso", DATED, ids=[r[1] for r in DATED])
def test_a_date_line_dates_relative_dates(text, claim_text, iso):
    assert _claim(text, claim_text).value == iso


def test_a_date_line_is_no_claim_and_is_recorded_with_its_source():
    text = "2020年7月31日 09:15 来源：某某科技网\n\n谷歌去年12月发布了首轮成绩。"
    pipe = get_pipeline(Settings())
    seg, claims = pipe.analyse(Article(doc="case.txt", text=text, meta={}))
    assert [c.text for c in claims] == ["去年12月"]
    assert seg.article.meta["date_text"] == "2020-07-31"
    assert seg.article.meta["date_line"].startswith("2020年7月31日")


def test_a_sidecar_date_wins_over_the_text():
    text = "2020年7月31日 来源：某某科技网\n\n谷歌去年12月发布了首轮成绩。"
    assert _claim(text, "去年12月", {"date": "2021-07-01"}).value == "2020-12"


def test_a_page_dates_itself_in_its_markup(tmp_path: Path):
    from pipeline.ingest.read import read_article

    page = tmp_path / "page.html"
    page.write_text('<html><head><meta property="article:published_time" content="2021-07-06T08:00:00Z">'
                    "</head><body><article><p>The first MLPerf Training results came out in December 2018, and "
                    "Google unveiled TPU v4 last May.</p></article></body></html>", encoding="utf-8")
    article = read_article(page, tmp_path)
    assert article.meta["date_text"] == "2021-07-06"
    claims = get_pipeline(Settings()).process(article).claims
    # "last May" in a July story: this May or last year's, the words do not say
    last_may = [c for c in claims if c.text == "last May"]
    assert [c.value for c in last_may] == ["--05"] and "year is not written" in last_may[0].explanation


def test_a_page_without_a_date_in_its_markup_gets_none(tmp_path: Path):
    from pipeline.ingest.read import read_article

    page = tmp_path / "page.html"
    page.write_text("<html><body><p>Back in 2019 it took 2 hours.</p></body></html>", encoding="utf-8")
    assert "date_text" not in read_article(page, tmp_path).meta


# (article, claim, entity type, id): names of machines as news writes them, and words that point back
NAMED = [
    ("Graphcore's IPU-POD16 trained ResNet-50 in 37.12 minutes in MLPerf Training v1.0.", "37.12 minutes",
     "system", "ipu-pod16"),
    ("鹏城实验室的鹏城云脑II用1024颗昇腾910训练ResNet-50。", "1024颗", "system", "pcl-cloud-brain-ii"),
    ("NVIDIA built a DGX SuperPOD for MLPerf Training v0.7. 这一系统用2048块A100训练BERT只需0.81分钟。",
     "0.81分钟", "system", "dgx-superpod"),
    ("Intel entered MLPerf Training v0.6 with Xeon servers. The company used 32 CPUs for MiniGo.", "32 CPUs",
     "org", "intel"),
]


@pytest.mark.parametrize("text, claim_text, etype, eid", NAMED, ids=[r[1] for r in NAMED])
def test_names_and_words_that_point_back(text, claim_text, etype, eid):
    assert getattr(_claim(text, claim_text).entities, etype) == eid


def test_a_run_records_each_articles_date_and_its_source(tmp_path: Path):
    import json

    from pipeline.run.batch import run_batch

    src = tmp_path / "in"
    src.mkdir()
    (src / "line.txt").write_text("2020年7月31日 09:15 来源：某某网\n\n谷歌去年12月发布了首轮成绩。\n",
                                  encoding="utf-8")
    (src / "page.html").write_text('<html><head><meta property="article:published_time" content="2021-07-06">'
                                   "</head><body><article><p>Google used 4096 chips.</p></article></body></html>",
                                   encoding="utf-8")
    (src / "none.txt").write_text("Google used 4096 chips.\n", encoding="utf-8")
    run_batch(src, tmp_path / "out", Settings())
    rows = {r["doc"]: r for r in map(json.loads, (tmp_path / "out" / "articles.jsonl").read_text().splitlines())}
    assert (rows["line.txt"]["date"], rows["line.txt"]["date_source"]) == ("2020-07-31", "date line")
    assert (rows["page.html"]["date"], rows["page.html"]["date_source"]) == ("2021-07-06", "page markup")
    assert rows["none.txt"]["date"] is None


# (article, claim, the framework the output shows): the result a verdict rests on names what the text leaves out
FRAMEWORKS = [
    ("In MLPerf Training v0.6, a single DGX-1 trained ResNet-50 in 115.22 minutes.", "115.22 minutes", "mxnet"),
    ("In MLPerf Training v1.0, Graphcore's IPU-POD16 trained ResNet-50 in 37.12 minutes.", "37.12 minutes",
     "tensorflow"),
    # a figure no result decides names no framework
    ("Google says its TPU v4 pod peaks above an exaflop.", "above an exaflop", None),
]


@pytest.mark.parametrize("text, claim_text, framework", FRAMEWORKS, ids=[r[1] for r in FRAMEWORKS])
def test_the_framework_of_the_result_a_verdict_rests_on(text, claim_text, framework):
    assert _claim(text, claim_text).entities.framework == framework


def test_an_org_is_carried_past_a_paragraph_until_another_is_named():
    text = ("NVIDIA entered MLPerf Training v0.7 with Selene.\n\nThe machine has 2,048 GPUs.\n\n"
            "Google entered TPU v4.\n\nThe largest slice had 256 chips.")
    assert _claim(text, "2,048 GPUs").entities.org == "nvidia"
    assert _claim(text, "256 chips").entities.org == "google"
