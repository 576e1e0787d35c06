"""Sentences keep article offsets, carry their own language, and Traditional text keeps its offsets."""

from __future__ import annotations

import pytest

from pipeline.records import Article
from pipeline.segment.normalize import analysis_text, fold_width
from pipeline.segment.sentences import segment


@pytest.mark.parametrize(
    "text, n, langs",
    [
        ("谷歌训练 BERT 只用了 23 秒。英伟达打破了八项纪录！", 2, ["zh", "zh"]),
        ("Google trained BERT in 0.39 minutes. The U.S. firm set 6 records.", 2, ["en", "en"]),
        ("他说：“我们需要更大的基准测试。”随后离开了。", 2, ["zh", "zh"]),
        ("第一段，含 2.7 倍。\nThis is English. It has 2 sentences.\n这是中文句子。", 4, ["zh", "en", "en", "zh"]),
    ],
    ids=["zh", "en-abbrev-decimal", "zh-quote", "mixed-paragraphs"],
)
def test_sentences_split_with_offsets_and_language(text: str, n: int, langs: list[str]):
    seg = segment(Article(doc="t", text=text))
    assert [s.lang for s in seg.sentences] == langs
    assert len(seg.sentences) == n
    for s in seg.sentences:
        assert text[s.start:s.end] == s.text


@pytest.mark.parametrize("raw, folded", [("４０９６块", "4096块"), ("ＴＰＵ　ｖ３", "TPU v3"), ("２．７％", "2.7%")])
def test_full_width_folds_to_ascii_keeping_length(raw: str, folded: str):
    assert fold_width(raw) == folded
    assert len(fold_width(raw)) == len(raw)


def test_traditional_text_is_analysed_as_simplified_with_same_length():
    text = "輝達表示，A100 在 MLPerf 測試中打破了八項紀錄，訓練時間縮短到 23 秒。"
    analysis, traditional = analysis_text(text)
    assert traditional and len(analysis) == len(text)
    assert "辉达" in analysis and "训练时间" in analysis


def test_simplified_proper_names_are_not_converted():
    analysis, traditional = analysis_text("华为此次使用了 512 个昇腾 910 芯片。")
    assert not traditional and "昇腾" in analysis
