"""A claim's verdict in one sentence of its article's language (#18): templates and words are language
data; the subject is named as the knowledge base names it in that language."""

from __future__ import annotations

import pytest

from pipeline.lang.loader import load_language
from pipeline.link import load_kb
from pipeline.report.summary import figure, summarize


def _claim(**kw):
    base = {"lang": "zh", "text": "23秒", "kind": "duration", "value": 23, "unit": "s", "bound": "exact",
            "verdict": "supported", "official": 23.57, "entities": {}, "frame": {}}
    return {**base, **kw}


CASES = [
    (_claim(frame={"org": "google", "benchmark": "bert", "round": "training-v0.7"}),
     ["相符", "谷歌", "BERT", "官方数据为23.57秒", "“23秒”读作23秒"]),
    (_claim(text="6.24分钟", value=374.4, official=4200.7, verdict="contradicted", distortion="chip_count_mismatch",
            frame={"org": "nvidia", "benchmark": "resnet"}),
     ["不符", "英伟达", "70.01分钟", "（芯片数量与官方结果不符）"]),
    (_claim(text="大三倍", kind="ratio", value=3, unit="x", ratio_reading="ambiguous", official=4.0,
            verdict="ambiguous", distortion="n_vs_n_plus_1"),
     ["有歧义", "官方数据为4倍", "“增加了N倍”（即N+1倍）才相符"]),
    (_claim(text="约70分钟", value=4200, bound="approx", official=3164.2, verdict="contradicted",
            distortion="mixed_rounds"),
     ["读作约 70分钟", "混用了不同轮次的成绩"]),
    (_claim(text="5所大学", kind="count", value=5, unit="count", verdict="unverifiable", official=None),
     ["无法核实", "“5所大学”（5）"]),
    (_claim(lang="en", text="four times bigger", kind="ratio", value=4, unit="x", ratio_reading="ambiguous",
            official=4.0, verdict="ambiguous", frame={"org": "google"}),
     ["Ambiguous: the official figure for Google is 4x", "fits only read as “N times as much”"]),
    (_claim(lang="en", text="1993", kind="date", value="1993", unit="date", verdict="out_of_scope"),
     ["Out of scope: “1993”"]),
    (_claim(text="四倍", kind="ratio", value=4, unit="x", official=4.0,
            frame={"org": "google", "derivation": "4096 chips / 1024 chips = 4x"}),
     ["相符", "官方数据为4倍", "（计算：4096 chips / 1024 chips = 4x）。"]),
]


@pytest.mark.parametrize("claim, says", CASES, ids=[c[0]["text"] for c in CASES])
def test_a_verdict_is_said_in_the_claims_language(claim, says):
    said = summarize(claim, load_kb())
    assert said and all(s in said for s in says), said


@pytest.mark.parametrize("value, unit, zh, en", [(4, "x", "4倍", "4x"), (23.1, "s", "23.1秒", "23.1 s"),
                                                 (425, "s", "7.083分钟", "7.083 min"), (7, "nm", "7纳米", "7 nm"),
                                                 (4096, "count", "4,096", "4,096"), (63, "%", "63%", "63%")])
def test_figures_are_written_as_each_language_writes_them(value, unit, zh, en):
    assert figure(value, unit, load_language("zh").summary) == zh
    assert figure(value, unit, load_language("en").summary) == en


def test_every_verdict_and_distortion_has_words_in_both_languages():
    from pipeline.reconcile import verdicts

    kinds = {v for k, v in vars(verdicts).items() if k.isupper() and isinstance(v, str)}
    for code in ("zh", "en"):
        words = load_language(code).summary
        assert set(words["templates"]) >= {"supported", "contradicted", "ambiguous", "unverifiable", "out_of_scope"}
        assert set(words["distortions"]) >= kinds, code


# The official figure is said with its source: the result logs, or the statement of the company the claim
# is about (else of the site that published it)
@pytest.mark.parametrize("claim, says", [
    (_claim(frame={"org": "google", "benchmark": "bert", "source": "table"}), "23.57秒（据官方 MLPerf 成绩日志）"),
    (_claim(frame={"org": "nvidia", "source": "statement"}, evidence=["https://developer.nvidia.com/blog/x"]),
     "（据英伟达的声明）"),
    (_claim(frame={"source": "statement"}, evidence=["https://www.mlcommons.org/news/x"]), "（据mlcommons.org的声明）"),
    (_claim(lang="en", frame={"org": "google", "source": "table"}), "23.57 s (the official result logs)"),
    (_claim(lang="en", frame={"org": "nvidia", "source": "statement"}), "(NVIDIA's statement)"),
])
def test_the_official_figure_is_said_with_its_source(claim, says):
    said = summarize(claim, load_kb())
    assert said and says in said, said


# A conflict whose wordings are all Chinese is headed in Chinese: the fact, its official figure, its source
def test_a_chinese_conflict_is_headed_in_chinese():
    from pipeline.report.summary import fact_heading

    wording = _claim(frame={"org": "google", "benchmark": "bert", "round": "training-v0.7", "source": "table"})
    heading = fact_heading({"official": 23.57, "claims": [wording, {**wording, "text": "24秒"}]}, load_kb())
    assert heading == "谷歌，BERT-large，第三轮：官方数据为23.57秒（据官方 MLPerf 成绩日志）"
    mixed = {"official": 23.57, "claims": [wording, {**wording, "lang": "en"}]}
    assert fact_heading(mixed, load_kb()) is None  # an English wording among them: the English name


# A side of a conflict shown on a page that does not hold its claim (the corpus page, another part) is
# summed up from the conflict record: the fact's official figure and its source, never "官方数据为-"
@pytest.mark.parametrize("source, says", [("table", "官方数据为70.01分钟（据官方 MLPerf 成绩日志）"),
                                          ("statement", "官方数据为70.01分钟")])
def test_a_conflict_side_without_its_claim_says_the_official_figure(source, says):
    from pipeline.report.load import shown_conflicts

    side = {"id": "x1", "doc": "a.txt", "lang": "zh", "text": "7.60分钟", "kind": "duration", "value": 456,
            "unit": "s", "bound": "exact", "verdict": "contradicted", "distortion": "wrong_value"}
    conflict = {"official": 4200.72, "evidence": ["nvidia-dgx2h/resnet"], "source": source, "fact": "x",
                "claims": [side, {**side, "id": "x2", "text": "约需74分钟", "value": 4440, "verdict": "supported"}]}
    shown = shown_conflicts([conflict], {}, load_kb())[0]["claims"]
    assert all(says in c["summary"] and "为-" not in c["summary"] for c in shown), [c["summary"] for c in shown]
