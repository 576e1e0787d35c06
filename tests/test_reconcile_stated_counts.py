"""A ratio of two figures the text itself gives (#K3, #K13): "4.7 times the hardware" divides two chip counts
the article states, "3.5 times the speed" two times it states, in the ratio's sentence or in up to two
sentences before it in its paragraph.  The ratio's own words (what it multiplies: GPUs, chips, hardware,
数量, 块 against speed, faster, 速度, 快) say which figures pair; only figures the results bear out, given
exactly (not "about two minutes"), and exactly two of them, are divided.  Invented sentences; the figures
are real results of MLPerf Training v0.7, v1.0, v3.0 and v3.1."""

from __future__ import annotations

import pytest

from pipeline.run.process import check_text


def _claim(text: str, date: str, wording: str):
    found = [c for c in check_text(text, date=date) if c.text == wording]
    assert len(found) == 1, [c.text for c in check_text(text, date=date)]
    return found[0]


# Two chip counts in the ratio's sentence: the larger over the smaller (the smaller over the larger for a
# share).  Google's TPU v4 ran ResNet-50 on 256 and 64 chips in v0.7, NVIDIA GPT-3 on 3,584 and 768 H100s in
# v3.0, Google BERT on 3,456 and Mask R-CNN on 1,024 TPU v4 chips in v1.0.  "four times the 64 chips" names
# chips, not the two times the sentence also gives (109 s / 270 s would read it as contradicted).
@pytest.mark.parametrize("text, date, wording, verdict, official", [
    ("Google's TPU v4 ran ResNet-50 on 256 chips in 1.82 minutes, four times the 64 chips that took 4.50 minutes.",
     "2020-07-30", "four times", "supported", 4.0),
    ("Google's TPU v4 ran ResNet-50 on 256 chips in 1.82 minutes, eight times the 64 chips that took 4.50 minutes.",
     "2020-07-30", "eight times", "contradicted", 4.0),
    ("NVIDIA's biggest GPT-3 entry in MLPerf Training v3.0 used 3,584 H100 GPUs against 768 for a smaller one, "
     "4.7 times as many.", "2023-06-28", "4.7 times", "supported", 4.6667),
    ("英伟达在 MLPerf Training v3.0 中用 3584 块 H100 训练 GPT-3，GPU 数量是另一套 768 块系统的 4.7 倍。",
     "2023-06-28", "4.7 倍", "supported", 4.6667),
    # 是…的N倍多: at least three times, under four (3,456 / 1,024 = 3.375)
    ("谷歌在 MLPerf Training v1.0 中用 3456 颗 TPU v4 训练 BERT，芯片数量是其 Mask R-CNN 所用 1024 颗的三倍多。",
     "2021-06-30", "三倍多", "supported", 3.375),
    # 增加了N倍 reads increase_by (5.7 times as many), and only loosely N times as many: ambiguous
    ("英伟达在 MLPerf Training v3.0 中用 3584 块 H100 训练 GPT-3，比 768 块的系统 GPU 数量增加了 4.7 倍。",
     "2023-06-28", "增加了 4.7 倍", "ambiguous", 4.6667),
])
def test_a_ratio_of_two_chip_counts_in_its_sentence(text, date, wording, verdict, official):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == (verdict, pytest.approx(official, abs=1e-3))
    assert "chip counts" in c.explanation


# One count in the ratio's sentence, the other one or two sentences before it in the same paragraph:
# NVIDIA's GPT-3 on 10,752 H100s in v3.1 against 3,584 in v3.0; Google's BERT on 256 and 64 TPU v4 chips in
# v0.7 (a quarter), on 3,456 and 64 in v1.0 (54 times).
@pytest.mark.parametrize("text, date, wording, verdict, official", [
    ("NVIDIA put GPT-3 on 10,752 H100 GPUs in MLPerf Training v3.1. That is three times the 3,584 GPUs it used "
     "in v3.0.", "2023-11-09", "three times", "supported", 3.0),
    ("英伟达在 MLPerf Training v3.1 中用 10752 块 H100 训练 GPT-3。这一规模是它在 v3.0 所用 3584 块的 3 倍。",
     "2023-11-09", "3 倍", "supported", 3.0),
    ("Google's TPU v4 trained BERT on 256 chips in 1.82 minutes in MLPerf Training v0.7. A 64-chip TPU v4 entry "
     "needed 5.73 minutes on a quarter of the hardware.", "2020-07-30", "a quarter", "supported", 0.25),
    ("谷歌 TPU v4 在 MLPerf Training v0.7 中用 256 颗芯片训练 BERT，用时 1.82 分钟。64 颗芯片的系统用了 5.73 分钟，"
     "芯片只有前者的四分之一。", "2020-07-30", "四分之一", "supported", 0.25),
    ("谷歌 TPU v4 在 MLPerf Training v0.7 中用 256 颗芯片训练 BERT，用时 1.82 分钟。64 颗芯片的系统用了 5.73 分钟，"
     "芯片只有前者的五分之一。", "2020-07-30", "五分之一", "contradicted", 0.25),
    ("谷歌 TPU v4 在 MLPerf Training v1.0 中以 64 颗芯片训练 BERT，用时 4.06 分钟。扩展到 3456 颗芯片后只需 0.28 分钟，"
     "芯片数量是原来的 54 倍。", "2021-06-30", "54 倍", "supported", 54.0),
])
def test_a_ratio_of_chip_counts_one_of_them_given_just_before(text, date, wording, verdict, official):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == (verdict, pytest.approx(official, abs=1e-3))
    assert "chip counts the text gives" in c.explanation


# The ratio's own words say what it compares, not the words of the baseline its frame names: "GPU 数量是 512
# 块时的" is a size (2,496 / 512 GB200 GPUs = 4.875 in v5.0), "速度是 512 块 GB200 时的" a speed, which the two
# counts do not give (the 4.43x of the two results' times).
@pytest.mark.parametrize("text, wording, official, derived", [
    ("在 MLPerf Training v5.0 中，英伟达用 2496 块 GB200 训练 Llama 3.1 405B，GPU 数量是 512 块时的 4.9 倍。",
     "4.9 倍", 4.875, True),
    ("In MLPerf Training v5.0, NVIDIA trained Llama 3.1 405B on 2,496 GB200 GPUs, 4.9 times the 512 GPUs of its "
     "smaller run.", "4.9 times", 4.875, True),
    ("在 MLPerf Training v5.0 中，英伟达用 2496 块 GB200 训练 Llama 3.1 405B，速度是 512 块 GB200 时的 4.4 倍。",
     "4.4 倍", 4.43, False),
])
def test_the_ratios_own_words_choose_its_figures(text, wording, official, derived):
    c = _claim(text, "2025-06-05", wording)
    assert (c.verdict, c.official) == ("supported", pytest.approx(official, abs=1e-3))
    assert ("chip counts" in c.explanation) is derived


# A speed ratio whose two times are in earlier sentences of its paragraph: NVIDIA's GPT-3 took 10.94 minutes
# on 3,584 H100s in v3.0 and 3.92 minutes on 10,752 in v3.1 (2.79 times the speed, three times the GPUs);
# Google's BERT took 4.06 minutes on 64 TPU v4 chips and 0.28 on 3,456 in v1.0 (14.70 times), 5.73 minutes
# on 64 and 1.82 on 256 in v0.7 (3.15 times).
EOS = ("NVIDIA's 3,584-GPU system trained GPT-3 in 10.94 minutes in MLPerf Training v3.0. In v3.1 its 10,752 GPUs "
       "did it in 3.92 minutes. ")
TPU_V4 = ("谷歌 TPU v4 在 MLPerf Training v1.0 中以 64 颗芯片训练 BERT，用时 4.06 分钟。"
          "扩展到 3456 颗芯片后只需 0.28 分钟。")


@pytest.mark.parametrize("text, date, wording, verdict, official", [
    (EOS + "That is three times the GPUs and 2.8 times the speed.", "2023-11-09", "2.8 times", "supported", 2.7929),
    (EOS + "That is three times the GPUs and 3.5 times the speed.", "2023-11-09", "3.5 times", "contradicted",
     2.7929),
    (EOS + "That is three times the GPUs and 3.5 times the speed.", "2023-11-09", "three times", "supported", 3.0),
    (TPU_V4 + "训练速度是原来的 14.7 倍。", "2021-06-30", "14.7 倍", "supported", 14.7035),
    (TPU_V4 + "训练速度是原来的 20 倍。", "2021-06-30", "20 倍", "contradicted", 14.7035),
    # 提高了N倍 reads increase_by (15.7 times as fast), and only loosely N times as fast: ambiguous
    (TPU_V4 + "训练速度提高了 14.7 倍。", "2021-06-30", "提高了 14.7 倍", "ambiguous", 14.7035),
    ("In MLPerf Training v0.7 Google's TPU v4 trained BERT in 1.82 minutes on 256 chips. A 64-chip TPU v4 took "
     "5.73 minutes. On a quarter of the chips it was 3.1 times slower.", "2020-07-30", "3.1 times", "supported",
     3.1493),
    ("谷歌 TPU v4 在 MLPerf Training v0.7 中用 256 颗芯片训练 BERT，用时 1.82 分钟。64 颗芯片的系统用了 5.73 分钟，"
     "速度只有前者的三分之一。", "2020-07-30", "三分之一", "supported", 0.3175),
])
def test_a_speed_ratio_over_times_given_in_earlier_sentences(text, date, wording, verdict, official):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == (verdict, pytest.approx(official, abs=1e-3))
    assert "the text gives" in c.explanation


# No pairing to trust, so no verdict from the text's figures: three counts (in one sentence, or over the
# look-back), figures of another paragraph, a count the results contradict (12,000 GPUs; 300 chips where the
# 1.82-minute result ran on 256), a loosely written time ("about two minutes", 约 2 分钟), and a ratio whose
# words are about size when the sentence gives only times (44.82 / 10.94 minutes is no size ratio).
@pytest.mark.parametrize("text, date, wording", [
    ("NVIDIA entered GPT-3 on 768, 1,536 and 3,584 H100 GPUs in MLPerf Training v3.0, so its largest entry had "
     "4.7 times the hardware.", "2023-06-28", "4.7 times"),
    ("NVIDIA entered GPT-3 on 768, 1,536 and 3,584 H100 GPUs in MLPerf Training v3.0. Its largest entry had 4.7 "
     "times the hardware.", "2023-06-28", "4.7 times"),
    ("英伟达在 MLPerf Training v3.0 中用 3584 块 H100 训练 GPT-3，用时 10.94 分钟。此前 768 块、1536 块的两套系统分别"
     "用了 44.82 分钟和 23.61 分钟。GPU 数量相差 4.7 倍。", "2023-06-28", "4.7 倍"),
    ("NVIDIA put GPT-3 on 10,752 H100 GPUs in MLPerf Training v3.1.\nThat is three times the 3,584 GPUs it used "
     "in v3.0.", "2023-11-09", "three times"),
    ("英伟达在 MLPerf Training v3.1 中用 10752 块 H100 训练 GPT-3。\n这一规模是它在 v3.0 所用 3584 块的 3 倍。",
     "2023-11-09", "3 倍"),
    ("NVIDIA put GPT-3 on 12,000 H100 GPUs in MLPerf Training v3.1. That is more than three times the 3,584 GPUs "
     "it used in v3.0.", "2023-11-09", "more than three times"),
    ("NVIDIA put GPT-3 on 12,000 H100 GPUs in MLPerf Training v3.1, more than three times the 3,584 GPUs it used "
     "in v3.0.", "2023-11-09", "more than three times"),
    ("谷歌 TPU v4 在 MLPerf Training v0.7 中用 300 颗芯片训练 BERT，用时 1.82 分钟。64 颗芯片的系统用了 5.73 分钟，"
     "芯片只有前者的五分之一。", "2020-07-30", "五分之一"),
    ("谷歌 TPU v4 在 MLPerf Training v0.7 中用 256 颗芯片训练 BERT，用时约 2 分钟。64 颗芯片的系统用了 5.73 分钟，"
     "速度只有前者的三分之一。", "2020-07-30", "三分之一"),
    ("In MLPerf Training v3.0 NVIDIA's GPT-3 took 44.82 minutes on its smaller system and 10.94 minutes on one "
     "with 4.7 times the hardware.", "2023-06-28", "4.7 times"),
])
def test_no_ratio_is_computed_without_exactly_two_supported_figures(text, date, wording):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == ("unverifiable", None), c.explanation


# What the figures the negative cases leave out were checked as: the pairing is refused, not the figure lost
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("NVIDIA put GPT-3 on 12,000 H100 GPUs in MLPerf Training v3.1. That is more than three times the 3,584 GPUs "
     "it used in v3.0.", "2023-11-09", "12,000 H100 GPUs", "contradicted"),
    ("谷歌 TPU v4 在 MLPerf Training v0.7 中用 256 颗芯片训练 BERT，用时约 2 分钟。64 颗芯片的系统用了 5.73 分钟，"
     "速度只有前者的三分之一。", "2020-07-30", "约 2 分钟", "supported"),
])
def test_the_figures_left_out_are_checked_on_their_own(text, date, wording, verdict):
    assert _claim(text, date, wording).verdict == verdict
