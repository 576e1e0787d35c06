"""Rounds after v1.0 (#20, first part): the knowledge base knows when each was published, so an article is
read as of its own round, and a claim about a round the official tables do not hold yet is said to be
uncheckable instead of being checked against an older round's results."""

from __future__ import annotations

import pytest

from pipeline.link import load_kb
from pipeline.run.process import check_text


@pytest.mark.parametrize("date, round_id", [
    ("2021-07-02", "training-v1.0"), ("2021-12-01", "training-v1.1"), ("2022-07-01", "training-v2.0"),
    ("2023-01-15", "training-v2.1"), ("2023-06-30", "training-v3.0"), ("2024-06-20", "training-v4.0"),
    ("2024-12-01", "training-v4.1"), ("2025-06-10", "training-v5.0"), ("2025-11-20", "training-v5.1"),
    ("2026-06-16", "training-v6.0"),
])
def test_an_article_date_gives_the_round_published_last_before_it(date: str, round_id: str) -> None:
    assert load_kb().round_on(date) == round_id


@pytest.mark.parametrize("name, round_id", [
    ("MLPerf Training v4.0", "training-v4.0"), ("Training 4.0", "training-v4.0"),
    ("MLPerf Training 5.1", "training-v5.1"), ("MLPerf 训练 v3.1", "training-v3.1"),
    ("Training v2.0", "training-v2.0"),
])
def test_later_rounds_are_named_as_news_names_them(name: str, round_id: str) -> None:
    assert load_kb().round_id(name) == round_id


# v2.0's logs are not in the snapshot (../shared/mlperf/README.md) and v6.0 has none yet
@pytest.mark.parametrize("text, date", [
    ("In MLPerf Training, NVIDIA trained BERT on 4,096 A100 GPUs in 0.21 minutes.", "2022-07-02"),
    ("谷歌在 MLPerf 训练榜单中用 3,456 块 TPU v4 芯片训练了 BERT。", "2026-06-20"),
    ("In MLPerf Training 2.0, Google used 3,456 TPU v4 chips.", "2021-07-01"),
])
def test_a_claim_of_a_round_without_tables_is_unverifiable_and_says_why(text: str, date: str) -> None:
    claims = [c for c in check_text(text, date=date) if c.kind == "count"]
    assert claims and all(c.verdict == "unverifiable" for c in claims)
    assert all("holds no official results of MLPerf Training v" in c.explanation for c in claims)
