"""The benchmark a story or section is about (linking.yaml `topic`): a time or speedup whose paragraph names no
benchmark takes the one the nearest earlier paragraph of its section names alone, else the one its section's
heading names alone, else the one the headline names alone.  It is recorded at the article's level, so a
figure that does not fit it is never called a contradiction.  Invented mini-articles, English and Chinese."""

from __future__ import annotations

import pytest

from pipeline.run.process import check_text


def _claim(text: str, date: str, wording: str):
    found = [c for c in check_text(text, date=date) if c.text == wording]
    assert len(found) == 1, [c.text for c in check_text(text, date=date)]
    return found[0]


def _level(claim) -> int | None:
    return (claim.support or {}).get("benchmark", (None,))[0] if claim.entities.benchmark else None


# The benchmark comes from the headline, the section's heading, a list's lead-in or an earlier paragraph, and
# is found at the article's level (4): never the claim's own words.
@pytest.mark.parametrize("text, date, wording, benchmark", [
    # the headline names it alone; a later paragraph gives the time
    ("Orion cluster posts a quick BERT mark\n\nThe autumn round drew a crowded field.\n\n"
     "Its 2,048-GPU partition finished in 0.25 minutes.", "2022-11-10", "0.25 minutes", "bert"),
    ("ResNet-50 训练再提速\n\n本轮共有多家厂商提交了成绩。\n\n其 1024 块 GPU 的系统只用了 0.5 分钟。",
     "2022-11-10", "0.5 分钟", "resnet"),
    ("GPT-3 測試再刷新\n\n多家廠商在本輪登場。\n\n其 3584 顆 GPU 的叢集花了 10.94 分鐘。",
     "2023-06-28", "10.94 分鐘", "gpt3"),
    # a Markdown section heading names it; the items under it give the times
    ("# Autumn roundup\n\n## BERT\n\n- Acme: 0.4 minutes on 512 GPUs.\n- Zenith: 0.6 minutes on 256 GPUs.",
     "2022-11-10", "0.6 minutes", "bert"),
    ("# 秋季榜单回顾\n\n## SSD 单项\n\n- 甲公司：64 块 GPU 用时 2.1 分钟。\n- 乙公司：512 块 GPU 用时 0.5 分钟。",
     "2022-11-10", "2.1 分钟", "ssd"),
    # an HTML heading, as a short line without a full stop once the page is text
    ("Explainer on the autumn results\nThe round brought dozens of entries.\nThe Mask R-CNN numbers\n"
     "The quickest entry took 2.5 minutes on 1,024 GPUs.", "2022-11-10", "2.5 minutes", "maskrcnn"),
    # a list introduced by a sentence that names it
    ("Weekly notes\n\nThe quickest ResNet-50 runs, by system size:\n- 256 GPUs: 1.2 minutes\n- 1,024 GPUs: 0.4 minutes",
     "2022-11-10", "0.4 minutes", "resnet"),
    ("每周札记\n\n下面是各规模的 BERT 最快成绩：\n- 64 块 GPU：3.1 分钟\n- 512 块 GPU：0.6 分钟",
     "2022-11-10", "3.1 分钟", "bert"),
    # carried across a paragraph break when the paragraph before names it alone
    ("Notes from the round\n\nThe DLRM test drew eight submitters this time.\n\n"
     "The winning system finished in 1.1 minutes.", "2022-11-10", "1.1 minutes", "dlrm"),
    ("本轮观察\n\n推荐模型 DLRM 这次吸引了八家厂商。\n\n夺魁的系统用时 1.1 分钟。", "2022-11-10", "1.1 分钟", "dlrm"),
    # a paragraph naming the headline's benchmark beside another keeps the headline's
    ("Llama 3.1 405B takes the stage\n\nThe new Llama 3.1 405B test replaces GPT-3 this round.\n\n"
     "A 2,496-GPU system needed 27.3 minutes.", "2025-06-05", "27.3 minutes", "llama31_405b"),
    # a speedup whose paragraph names no benchmark
    ("Orion cluster posts a quick BERT mark\n\nThe vendor entered several sizes.\n\n"
     "The biggest size was 3.5 times as fast as the smallest.", "2022-11-10", "3.5 times", "bert"),
])
def test_a_claim_takes_the_benchmark_its_story_or_section_is_about(text, date, wording, benchmark):
    c = _claim(text, date, wording)
    assert (c.entities.benchmark, _level(c)) == (benchmark, 4)


# No topic: a headline or heading naming several, a paragraph in between naming others, a span of months, a
# heading of another section; and the claim's own words always come first.
@pytest.mark.parametrize("text, date, wording, benchmark, level", [
    # the headline names two
    ("BERT and ResNet-50 both get faster\n\nThe round drew many entries.\n\nThe fastest run took 0.3 minutes.",
     "2022-11-10", "0.3 minutes", None, None),
    ("BERT 与 ResNet-50 双双提速\n\n本轮参赛者众多。\n\n最快的一次只用了 0.3 分钟。", "2022-11-10", "0.3 分钟",
     None, None),
    # the claim's sentence names another benchmark: that one, as its sentence gives it (level 1)
    ("Fast BERT runs dominate the round\n\nMany companies took part.\n\n"
     "On ResNet-50, the best system needed 0.5 minutes.", "2022-11-10", "0.5 minutes", "resnet", 1),
    ("BERT 成绩大幅提升\n\n许多公司参与了本轮。\n\n在 ResNet-50 上，最好的系统只需 0.5 分钟。",
     "2022-11-10", "0.5 分钟", "resnet", 1),
    # a paragraph in between names two others: neither they nor the headline's
    ("Fast BERT runs dominate the round\n\nThe SSD and Mask R-CNN tests were also crowded.\n\n"
     "The top system finished in 0.8 minutes.", "2022-11-10", "0.8 minutes", None, None),
    ("BERT 成绩大幅提升\n\nSSD 和 Mask R-CNN 两项同样竞争激烈。\n\n第一名的系统用了 0.8 分钟。",
     "2022-11-10", "0.8 分钟", None, None),
    # a paragraph in between names another alone: that one, not the headline's
    ("Fast BERT runs dominate the round\n\nThe SSD test was also crowded.\n\nThe top system finished in 0.8 minutes.",
     "2022-11-10", "0.8 minutes", "ssd", 4),
    # a section heading naming two gives none, whatever the headline names
    ("# BERT results\n\n## SSD and DLRM\n\n- The top entry: 0.9 minutes.", "2022-11-10", "0.9 minutes", None, None),
    # another section's heading does not reach past the next heading
    ("# Autumn roundup\n\n## BERT\n\n- Acme: 0.4 minutes.\n\n## Hardware\n\n- The largest system took 0.9 minutes.",
     "2022-11-10", "0.9 minutes", None, None),
    # a span of a year is no training time
    ("Orion cluster posts a quick BERT mark\n\nThe vendor had waited a year for it.", "2022-11-10", "a year",
     None, None),
])
def test_no_topic_when_the_story_names_several_or_the_claim_names_its_own(text, date, wording, benchmark, level):
    c = _claim(text, date, wording)
    assert (c.entities.benchmark, _level(c)) == (benchmark, level)


# A topic benchmark finds the result that fits, but a figure that does not fit it stays unverifiable (the words
# do not fix the benchmark); named in the claim's own sentence, the same figure is a contradiction.
@pytest.mark.parametrize("text, wording, verdict", [
    ("GPT-3 gets its first results\n\nThe new test drew two submitters.\n\n"
     "NVIDIA's 3,584-GPU cluster finished in 10.94 minutes.", "10.94 minutes", "supported"),
    ("GPT-3 gets its first results\n\nThe new test drew two submitters.\n\n"
     "NVIDIA's 3,584-GPU cluster finished in 12.5 minutes.", "12.5 minutes", "unverifiable"),
    ("GPT-3 首批成绩出炉\n\n这项新测试只有两家参加。\n\n英伟达 3584 块 GPU 的集群用时 12.5 分钟。", "12.5 分钟",
     "unverifiable"),
    ("GPT-3 gets its first results\n\nThe new test drew two submitters.\n\n"
     "NVIDIA's 3,584-GPU cluster finished GPT-3 in 12.5 minutes.", "12.5 minutes", "contradicted"),
])
def test_a_topic_benchmark_never_makes_a_contradiction(text, wording, verdict):
    c = _claim(text, "2023-06-28", wording)
    assert c.verdict == verdict, c.explanation
    if c.entities.benchmark and _level(c) == 4:
        assert c.frame["found"]["benchmark"] == "article"
