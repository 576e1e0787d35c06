"""Kinds of phrase found by probing invented articles in the style of unseen coverage (seventh session):
each table is one kind, its sentences invented and checked against the official tables."""

from __future__ import annotations

import pytest

from pipeline.link.kb import load_kb
from pipeline.link.recognize import get_recognizer
from pipeline.run.process import check_text


def _orgs(text: str) -> list[str]:
    return [m.id for m in get_recognizer(load_kb()).analyze(text).mentions if m.type == "org"]


# A name whose referent depends on the region the text is written in: Taiwanese press writes 超微 for AMD
# (and 美超微 for Supermicro), mainland press 超微 for Supermicro.  The script tells the region.
@pytest.mark.parametrize("text, org", [
    ("超微 Instinct MI300X 在本輪首度參賽。", "amd"),
    ("超微這次只參加了一項測試，成績仍屬亮眼。", "amd"),
    ("美超微的伺服器搭載八顆 H100 晶片。", "supermicro"),
    ("超微电脑的服务器搭载了8块H100。", "supermicro"),
    ("超微与戴尔也提交了基于H100的结果。", "supermicro"),
    ("超微半導體的加速器首次亮相。", "amd"),
])
def test_a_regional_name_names_what_it_names_in_that_region(text, org):
    assert _orgs(text)[0] == org


def _dates(text: str, date: str) -> list[str]:
    return [c.text for c in check_text(text, date=date) if c.kind == "date"]


# The article's own date on a line of its head that holds no sentence is the page's stamp, whatever words
# the masthead around it uses (an account name, a reporter's bracket, a newsletter's title): no claim.
@pytest.mark.parametrize("text, date", [
    ("原创 某某算力笔记 2022-11-11\n\nMLPerf Training v2.1 的成绩公布了。", "2022-11-11"),
    ("【记者综合报导／2023年6月29日】\n\n本轮共有多家厂商参赛。", "2023-06-29"),
    ("【記者綜合報導／2023年6月29日】\n\n本輪共有多家廠商參賽。", "2023-06-29"),
    ("*Chip Notes Weekly · Friday, November 14, 2025*\n\nThe new round is out.", "2025-11-14"),
    ("# MLPerf v3.1\n\nSilicon Digest, 2023-11-10\n\nThe results are in.", "2023-11-10"),
])
def test_the_articles_own_date_on_a_masthead_line_is_no_claim(text, date):
    assert _dates(text, date) == []


@pytest.mark.parametrize("text, date, wording", [
    # a sentence, though on the article's day
    ("2023年6月29日，MLCommons公布了最新一轮成绩。", "2023-06-29", "2023年6月29日"),
    # another day than the article's, on a short line: a date the article gives
    ("# 成绩公布：2023年6月27日\n\n这一天成绩公布。", "2023-06-29", "2023年6月27日"),
    ("The results came out on November 12, 2025.", "2025-11-12", "November 12, 2025"),
])
def test_a_date_in_a_sentence_or_of_another_day_is_still_a_claim(text, date, wording):
    assert _dates(text, date) == [wording]


def _claim(text: str, date: str, wording: str):
    found = [c for c in check_text(text, date=date) if c.text == wording]
    assert len(found) == 1, [c.text for c in check_text(text, date=date)]
    return found[0]


# A change from an earlier figure to a later one: what dates the earlier side (a month, the previous round,
# 上一轮) dates it alone, in either order ("fell to B from A in June"); the later figure is the article's
# round's.  (The date was given to both, and the new figure refuted against the old.)
@pytest.mark.parametrize("text, date, wording, round_", [
    ("同样 512 块 H100，GPT-3 的时间从上一轮的64.3分钟降到了58.3分钟。", "2023-11-10", "58.3分钟", "training-v3.1"),
    ("GPT-3 在 512 块 H100 上的时间从上一轮的 64.3 分钟缩短至 58.3 分钟。", "2023-11-10", "58.3 分钟", "training-v3.1"),
    ("Stable Diffusion on 1,024 H100s dropped to 1.37 minutes from 2.47 minutes in November.", "2024-06-14",
     "1.37 minutes", "training-v4.0"),
    ("TPU v5p's 6,144-chip GPT-3 time fell to 11.77 minutes from 12.48 in June.", "2024-11-15", "11.77 minutes",
     "training-v4.1"),
    ("NVIDIA's 512-GPU GPT-3 run fell to 58.3 minutes, from 64.3 minutes in the previous round.", "2023-11-10",
     "58.3 minutes", "training-v3.1"),
])
def test_a_changes_later_figure_is_of_the_articles_round(text, date, wording, round_):
    c = _claim(text, date, wording)
    assert (c.entities.round, c.verdict) == (round_, "supported")


@pytest.mark.parametrize("text, date, wording, round_", [
    ("Stable Diffusion on 1,024 H100s dropped to 1.37 minutes from 2.47 minutes in November.", "2024-06-14",
     "2.47 minutes", "training-v3.1"),
    ("同样 512 块 H100，GPT-3 的时间从上一轮的64.3分钟降到了58.3分钟。", "2023-11-10", "64.3分钟", "training-v3.0"),
])
def test_its_earlier_figure_keeps_the_earlier_round(text, date, wording, round_):
    c = _claim(text, date, wording)
    assert (c.entities.round, c.verdict) == (round_, "supported")


def test_from_before_no_number_is_no_change():
    c = _claim("Results from NVIDIA came in at 58.3 minutes on 512 H100s in November.", "2023-11-10", "58.3 minutes")
    assert c.entities.round == "training-v3.1"


# After a model name, a Chinese word that is no noun ends a count's phrase: "8192块H100完成同一测试" counts
# H100s (the 测试 after the verb is what they did), as "8192块H100" does.
@pytest.mark.parametrize("text, date, wording, counted", [
    ("英伟达以8192块H100完成同一测试，用时约20.8分钟。", "2025-06-05", "8192块", "gpu"),
    ("輝達自家以8,192顆H100完成同一測試的成績約20.8分鐘。", "2025-06-05", "8,192顆", "gpu"),
    ("谷歌用6144颗TPU v5p跑完了这项测试。", "2024-06-13", "6144颗TPU", "chip"),
    ("英伟达用11616块H100训练GPT-3。", "2024-06-13", "11616块", "gpu"),
])
def test_a_verb_after_a_model_name_ends_the_counted_phrase(text, date, wording, counted):
    assert _claim(text, date, wording).counted == counted


# Another count right after a classifier is the thing's own attribute: "两款8卡H100机型" are two models (of
# eight-GPU machines), "两台8卡服务器" two machines; neither is two GPUs.
@pytest.mark.parametrize("text, wording, counted", [
    ("美超微此次以两款8卡H100机型参赛。", "两款", "product"),
    ("美超微此次以兩款8卡H100機種參賽。", "兩款", "product"),
    ("戴尔用两台8卡服务器完成了BERT训练。", "两台", "host"),
])
def test_a_count_before_another_count_counts_by_its_classifier(text, wording, counted):
    assert _claim(text, "2023-06-29", wording).counted == counted


# What each machine holds (a count after "each with", 每台配备) or what one box can hold is no system's
# total: never refuted against the system's chip count.
@pytest.mark.parametrize("text, date, wording", [
    ("Eight R750xa nodes, each with four PCIe GPUs, trained ResNet-50 in 10.6 minutes.", "2021-12-02",
     "four PCIe GPUs"),
    ("戴尔用8台服务器，每台配备4块A100，训练ResNet-50用了10.6分钟。", "2021-12-02", "4块A100"),
    ("The DSS8440 holds as many as ten A100 cards in one chassis.", "2021-12-02", "as many as ten A100"),
    ("该机型单个机箱最多可容纳10张A100。", "2021-12-02", "10张A100"),
])
def test_a_count_per_machine_is_not_a_systems_total(text, date, wording):
    assert _claim(text, date, wording).verdict == "unverifiable"


def test_the_machines_and_their_total_are_still_checked():
    assert _claim("Dell used eight nodes with 32 GPUs in total for ResNet-50.", "2021-12-02", "32 GPUs"
                  ).verdict == "supported"


# A figure set before a comparison ("X, 比 B 的 Y 还快", "X, faster than B's Y") does not take its subject from
# the baseline named after the comparison word: those names are the later figure's.
@pytest.mark.parametrize("text, date, wording", [
    ("NF5688M6 跑 BERT 用了19.39分钟，比英伟达自家 DGX A100 的20.0分钟还快。", "2021-12-03", "19.39分钟"),
    ("The NF5688M6 trained BERT in 19.39 minutes, faster than NVIDIA's own DGX A100 at 20.0 minutes.",
     "2021-12-03", "19.39 minutes"),
    ("浪潮这台服务器跑 BERT 只用了19.39分钟，比 DGX A100 的20.0分钟快。", "2021-12-03", "19.39分钟"),
])
def test_a_figure_before_a_comparison_is_not_the_baselines(text, date, wording):
    c = _claim(text, date, wording)
    assert c.entities.org != "nvidia" and c.verdict != "contradicted"


def test_the_baselines_figure_keeps_its_names():
    c = _claim("NF5688M6 跑 BERT 用了19.39分钟，比英伟达自家 DGX A100 的20.0分钟还快。", "2021-12-03", "20.0分钟")
    assert (c.entities.org, c.entities.system, c.verdict) == ("nvidia", "dgx-a100", "supported")


# A retrospective without headings walks through the rounds paragraph by paragraph: a paragraph that opens
# by naming one round frames itself and the paragraphs after it that name none, when two or more paragraphs
# name rounds in the order they ran.  (Its later sentences were read as of the article's round.)
RETRO = ("When MLPerf published its first training results in December 2018, three companies took part. The "
         "suite had seven benchmarks.\n\n"
         "Interest grew fast. The second round, v0.6, came out in July 2019. Google's 1,024-chip TPU v3 pod "
         "trained ResNet-50 in 1.28 minutes.\n\n"
         "Google also trained the Transformer model in 51 seconds on the same pod.\n\n"
         "The third round, v0.7, arrived on July 29, 2020, with 138 results. A single DGX A100 trained "
         "ResNet-50 in 39.8 minutes.\n\n")


@pytest.mark.parametrize("wording, round_", [
    ("seven benchmarks", "training-v0.5"),
    ("1.28 minutes", "training-v0.6"),
    ("51 seconds", "training-v0.6"),
    ("39.8 minutes", "training-v0.7"),
])
def test_a_retrospectives_paragraphs_take_the_round_they_walk_through(wording, round_):
    c = _claim(RETRO, "2021-12-20", wording)
    assert (c.entities.round, c.verdict) == (round_, "supported")


@pytest.mark.parametrize("text, wording", [
    # one past round named in a paragraph: no walk, the next paragraph is the article's round
    ("In v1.0, Google's TPU v4 won four benchmarks.\n\nNVIDIA's 4,320 A100 GPUs trained BERT in 14 seconds.",
     "14 seconds"),
    # rounds named out of their order: no walk either
    ("In v1.0, Google led on ResNet-50.\n\nBack in v0.7, NVIDIA had led.\n\nNVIDIA's 4,320 A100 GPUs trained BERT "
     "in 14 seconds.", "14 seconds"),
])
def test_paragraphs_that_walk_through_no_rounds_stay_at_the_articles(text, wording):
    assert _claim(text, "2021-12-02", wording).entities.round == "training-v1.1"


# A percent of how much less ("45% less time", "a 62% reduction", "cut ... by 51%", 缩短了9%) is checked as
# the share of the time that remains, against the two times its sentence gives, and reported as written.
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("NVIDIA's Stable Diffusion time on 1,024 H100s fell from 2.47 minutes to 1.37 minutes, about 45% less time.",
     "2024-06-14", "about 45% less time", "supported"),
    ("Stable Diffusion on 1,024 H100s dropped to 1.37 minutes from 2.47 minutes in November, a 44% reduction.",
     "2024-06-14", "44% reduction", "supported"),
    ("Stable Diffusion on 1,024 H100s dropped to 1.37 minutes from 2.47 minutes in November, a 62% reduction.",
     "2024-06-14", "62% reduction", "contradicted"),
    ("同样 512 块 H100，GPT-3 的时间从上一轮的64.3分钟降到了58.3分钟，缩短了大约9%。", "2023-11-10", "缩短了大约9%",
     "supported"),
    ("同样 512 块 H100，GPT-3 的时间从上一轮的64.3分钟降到了58.3分钟，缩短了30%。", "2023-11-10", "缩短了30%",
     "contradicted"),
    ("NVIDIA's H200 system trained Llama 2 70B LoRA in 24.7 minutes, 12% less time than the H100's 28.2 minutes.",
     "2024-06-14", "12% less time", "supported"),
])
def test_a_percent_less_is_the_share_of_the_time_that_remains(text, date, wording, verdict):
    c = _claim(text, date, wording)
    assert (c.kind, c.unit, c.ratio_reading, c.verdict) == ("percent", "%", None, verdict)


@pytest.mark.parametrize("text, wording", [
    ("The GB200 system was faster with 37% fewer GPUs.", "37%"),
    ("The new chip draws 20% less power.", "20%"),
])
def test_a_percent_less_of_something_else_is_no_speedup(text, wording):
    assert _claim(text, "2025-11-14", wording).verdict == "unverifiable"


# A bare number after a word of change or comparison takes the unit of the time it is compared with
# ("1.19 minutes, down from 1.49 in June", "24.7 minutes versus 28.2 for the H100").
@pytest.mark.parametrize("text, date, wording, seconds", [
    ("NVIDIA's Eos fine-tuned Llama 2 70B on 1,024 H100s in 1.19 minutes, down from 1.49 in June.", "2024-11-15",
     "1.49", 89.4),
    ("An eight-GPU H200 box finished LoRA in 24.7 minutes versus 28.2 for the H100.", "2024-06-14", "28.2", 1692),
    ("The run took 9.5 seconds, compared with 12.1 a round earlier.", "2024-06-14", "12.1", 12.1),
])
def test_a_bare_number_compared_with_a_time_is_a_time(text, date, wording, seconds):
    c = _claim(text, date, wording)
    assert (c.kind, c.value) == ("duration", seconds)


def test_a_year_after_a_change_word_stays_a_year():
    assert [c.kind for c in check_text("It took 2.5 minutes, up from 2019 when it took hours.", date="2024-06-14")
            if c.text == "2019"] == ["date"]


# A company named for the results its subsidiary entered (the KB's parent: Habana Labs is Intel's): when the
# named one entered nothing of that benchmark in the round and one related company did, they are its.
@pytest.mark.parametrize("text, date, wording", [
    ("Intel cut its 384-accelerator GPT-3 time by half.", "2023-11-10", "384-accelerator"),
    ("Intel trained GPT-3 in 153.6 minutes.", "2023-11-10", "153.6 minutes"),
    ("英特尔这次用 384 块加速器训练 GPT-3。", "2023-11-10", "384 块加速器"),
])
def test_a_parent_company_named_for_its_subsidiarys_results(text, date, wording):
    c = _claim(text, date, wording)
    assert (c.entities.org, c.verdict) == ("habana", "supported")


def test_a_company_with_results_of_its_own_keeps_them():
    c = _claim("Intel's Xeon cluster trained BERT on 16 nodes.", "2023-11-10", "16 nodes")
    assert c.entities.org == "intel"


# An aside right after a name describes that name ("Dell's XE9680 cluster (64 H100s) did ..."): its chip is
# the clause's, not one carried from the sentence before.
@pytest.mark.parametrize("wording", ["eight-node", "5.05 minutes", "6.2 minutes"])
def test_an_aside_after_a_name_gives_the_subjects_chip(wording):
    text = ("Azure's H200 system was close behind. Dell's eight-node XE9680 cluster (64 H100s) did LoRA in "
            "5.05 minutes and RetinaNet in 6.2 minutes.")
    c = _claim(text, "2024-11-15", wording)
    assert (c.entities.accelerator, c.verdict) == ("h100", "supported")


# First places among eight-accelerator systems are one-server wins (8卡系统第一, "among eight-GPU systems").
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("華碩ESC-N8-E11搭載8顆H100，在BERT與ResNet-50兩項拿下8卡系統第一。", "2023-11-10", "兩項", "supported"),
    ("华硕在BERT和ResNet-50两项拿下8卡系统第一。", "2023-11-10", "两项", "supported"),
    ("ASUS was fastest among eight-GPU systems on three benchmarks.", "2023-11-10", "three benchmarks", "supported"),
])
def test_wins_among_eight_accelerator_systems_are_one_server_wins(text, date, wording, verdict):
    c = _claim(text, date, wording)
    assert (c.metric, c.verdict) == ("single_node_wins_count", verdict)


# A count beside a time names the chips of the result with that time, in the claim's round only: a wrong time
# that happens to fit another round's result does not make a true count wrong (the time is refuted alone).
@pytest.mark.parametrize("text, wording, verdict", [
    ("## 輝達Eos：10,752顆H100、GPT-3僅需3.4分鐘", "10,752顆", "supported"),
    ("## 輝達Eos：10,752顆H100、GPT-3僅需3.4分鐘", "3.4分鐘", "contradicted"),
    ("Eos trained GPT-3 on 10,752 H100s in 3.44 minutes.", "10,752 H100s", "supported"),
])
def test_a_count_is_not_judged_by_a_time_of_another_round(text, wording, verdict):
    assert _claim(text, "2023-11-10", wording).verdict == verdict


# "N% less time than B" is a speed-up's share, whatever counts its sentence gives ("with eight A100 GPUs").
def test_a_percent_less_time_than_a_rival_is_checked_as_a_speedup():
    c = _claim("Inspur said its NF5488A5 server, with eight A100 GPUs, trained ResNet-50 in 33.4 minutes, about 16% "
               "less time than Nvidia's own DGX A100.", "2020-07-30", "about 16% less time")
    assert (c.metric, c.verdict) == ("speedup", "supported")


# Benchmarks a company's results were spread across, or that it took part in, are its entries, not its wins.
@pytest.mark.parametrize("text, wording", [
    ("Dell said its servers turned in more than 50 results, spread across a dozen configurations and all eight "
     "benchmarks.", "eight benchmarks"),
    ("Dell took part in eight benchmarks this round.", "eight benchmarks"),
])
def test_benchmarks_a_company_took_part_in_are_its_entries(text, wording):
    c = _claim(text, "2021-12-03", wording)
    assert (c.metric, c.verdict) == ("entries_count", "supported")


# Nodes of a server model are that many of it: "3 个节点" of DGX H100 are three boxes (the hosts of a 24-GPU
# result), not the one host of a single DGX H100; "4 台 DGX H100" counts machines of that model.
@pytest.mark.parametrize("text, wording, metric", [
    ("英伟达还交了 4 台 DGX H100、共 32 块 H100。另外用 3 个节点、24 块 H100 跑 3D U-Net。", "3 个节点", "host_count"),
    ("英伟达还交了 4 台 DGX H100、共 32 块 H100。", "4 台", "system_count"),
    ("NVIDIA ran 3D U-Net on three DGX H100 nodes with 24 GPUs.", "three DGX H100 nodes", "host_count"),
])
def test_nodes_of_a_server_model_are_that_many_machines(text, wording, metric):
    c = _claim(text, "2022-11-11", wording)
    assert (c.metric, c.verdict) == (metric, "supported")


def test_a_single_server_is_still_one_node():
    assert _claim("A DGX H100 is one node with 8 H100s.", "2022-11-11", "one node").verdict == "supported"


# "the same job", 同一测试: the benchmark named before, not one a later clause names for another figure.
@pytest.mark.parametrize("text, date, wording, benchmark", [
    ("Inspur's server trained ResNet-50 in 33.4 minutes. Fujitsu's eight-GPU V100 server needed about 69 minutes "
     "for the same job, and Tencent's eight-GPU cloud instance spent about two and a half hours on Mask R-CNN.",
     "2020-07-30", "about 69 minutes", "resnet"),
    ("浪潮的服务器训练 ResNet-50 用了33.4分钟。富士通的8卡V100服务器完成同一测试用了约69分钟，"
     "腾讯则在 Mask R-CNN 上用了约两个半小时。", "2020-07-30", "约69分钟", "resnet"),
])
def test_the_same_job_is_the_benchmark_named_before(text, date, wording, benchmark):
    c = _claim(text, date, wording)
    assert (c.entities.benchmark, c.verdict) == (benchmark, "supported")


# 项 counts results when the words before it say so: "提交了43项" after "提交了46项成绩" are 43 results (they
# were read as benchmarks and refuted against the six the company entered).
@pytest.mark.parametrize("wording, official", [("46项成绩", 46), ("43项", 43), ("7项", 7)])
def test_xiang_after_submitted_counts_results(wording, official):
    c = _claim("戴尔提交了46项成绩，超微提交了43项，HPE提交了15项，联想提交了7项。", "2025-06-05", wording)
    assert (c.counted, c.verdict, c.official) == ("submission", "supported", official)


def test_xiang_still_counts_benchmarks_by_default():
    c = _claim("英伟达这一轮拿下了全部七项第一。", "2025-06-05", "七项")
    assert c.counted == "benchmark"


# A page's list items are article text: "Other highlights" in <ul><li> were dropped as boilerplate.
def test_html_list_items_are_read(tmp_path):
    from pipeline.ingest.read import read_article

    items = "".join(f"<li>{s}</li>" for s in (
        "BERT-large took just 7.2 seconds on 3,472 H100 GPUs.", "3D U-Net finished in 46 seconds on 768 H100 GPUs.",
        "Gigabyte's G593-ZD2 completed RNN-T in 16.23 minutes on eight GPUs."))
    body = ("<p>MLCommons published the MLPerf Training v3.1 results on November 8, 2023. Nineteen organizations "
            "submitted more than 200 results across nine benchmarks.</p>"
            "<p>NVIDIA's Eos supercomputer trained GPT-3 175B in 3.92 minutes on 10,752 H100 GPUs, and Microsoft "
            "Azure's cluster of the same size needed 4.01 minutes.</p>")
    page = tmp_path / "2023-11-09_scoreboard.html"
    page.write_text(f"<html><body><h1>MLPerf Training v3.1</h1>{body}<h2>Other highlights</h2><ul>{items}</ul>"
                    "</body></html>", encoding="utf-8")
    text = read_article(page, tmp_path).text
    assert "7.2 seconds" in text and "16.23 minutes" in text


# A bound that stays close to its number ("just over four hours", 四个小时出头) allows about its tolerance on the
# open side, not anything above: 5 h 12 min is not "just over four hours".
@pytest.mark.parametrize("text, wording, low, high", [
    ("Its Gaudi2 cluster of 384 accelerators took just over four hours on GPT-3.", "just over four hours", 14400,
     15840),
    ("The run took a hair under five minutes.", "a hair under five minutes", 270, 300),
    ("GPT-3 用了四个小时出头。", "四个小时出头", 14400, 15840),
])
def test_a_near_bound_stays_near(text, wording, low, high):
    c = _claim(text, "2023-06-28", wording)
    assert (c.low, c.high) == (low, high)


def test_just_over_refutes_a_figure_far_above():
    c = _claim("Its Gaudi2 cluster of 384 accelerators took just over four hours on GPT-3.", "2023-06-28",
               "just over four hours")
    assert c.verdict == "contradicted"  # the official time is 311.9 minutes


def _run_file(tmp_path, name: str, text: str):
    from pipeline.ingest.read import read_article
    from pipeline.run.process import get_pipeline
    from pipeline.settings import Settings

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return get_pipeline(Settings()).process(read_article(path, tmp_path))


# A file named by its date is dated by it, before any date its first lines give: a forum post's "1. v0.7（2020
# 年 7 月 29 日发布）" is a round's date, not the post's; a month and day without a year then take its year.
def test_a_file_named_by_its_date_is_dated_by_it(tmp_path):
    result = _run_file(tmp_path, "2022-11-12_post.md", "# 从 v0.7 到 v2.1\n\n1. v0.7（2020 年 7 月 29 日发布）\n"
                       "这一轮有 9 家机构交了成绩。\n")
    assert (result.dated["date"], result.dated["source"]) == ("2022-11-12", "file name")


def test_a_month_and_day_take_the_file_names_year(tmp_path):
    result = _run_file(tmp_path, "2025-06-05_kejiban.md", "MLCommons 於6月4日公布 MLPerf Training v5.0 成績。\n")
    date = next(c for c in result.claims if c.kind == "date")
    assert (date.value, date.verdict) == ("2025-06-04", "supported")


# Numbered sections that each open on a round walk through the rounds like paragraphs do (the title naming
# its span, "从 v0.7 到 v2.1", is no step of the walk).
WALK = ("# 如何评价 MLPerf Training v2.1？从 v0.7 到 v2.1，快了多少？\n\n"
        "1. v0.7（2020 年 7 月 29 日发布）\n英伟达这边，256 张 A100 跑 BERT 是 3.36 分钟。\n\n"
        "2. v1.0（2021 年 6 月）\n谷歌的 TPU v4 用 3,456 颗芯片跑 BERT 只要 17 秒。\n\n"
        "3. v1.1（2021 年 12 月 1 日）\n英伟达上了 4,320 张 A100，BERT 约 13.6 秒。\n\n"
        "4. v2.1（2022 年 11 月 9 日）\n英伟达 4,096 张 A100 跑 BERT 12.5 秒。\n")


@pytest.mark.parametrize("wording, round_", [
    ("3.36 分钟", "training-v0.7"), ("17 秒", "training-v1.0"), ("4,320 张 A100", "training-v1.1"),
    ("12.5 秒", "training-v2.1"),
])
def test_numbered_sections_walk_through_the_rounds(tmp_path, wording, round_):
    c = next(c for c in _run_file(tmp_path, "2022-11-12_walk.md", WALK).claims if c.text == wording)
    assert (c.entities.round, c.verdict) == (round_, "supported")


# Right after a section names its round, "this round" (这一轮) is that round; elsewhere it is the article's.
def test_this_round_right_after_a_section_names_its_round(tmp_path):
    text = WALK.replace("英伟达这边，256 张 A100 跑 BERT 是 3.36 分钟。",
                        "这一轮一共 8 个基准，英伟达 256 张 A100 跑 BERT 是 3.36 分钟。")
    c = next(c for c in _run_file(tmp_path, "2022-11-12_walk.md", text).claims if c.text == "8 个基准")
    assert c.entities.round == "training-v0.7"


def test_this_round_in_a_news_story_is_the_articles():
    c = _claim("这一轮一共有 8 个基准测试。", "2022-11-10", "8 个基准测试")
    assert c.entities.round == "training-v2.1"


# A correction's withdrawn figure is not the article's claim, and its label's date is a stamp; a version of
# the suite is a name, no count.
@pytest.mark.parametrize("text, wording", [
    ("*Correction, June 29: An earlier version of this story said the 256-chip Gaudi2 configuration needed eight "
     "hours and 23 minutes for GPT-3.*", "eight hours and 23 minutes"),
    ("更正：本文此前误写为 Gaudi2 用了八小时二十三分钟。", "八小时二十三分钟"),
])
def test_a_corrections_withdrawn_figure_is_not_checked(text, wording):
    assert _claim(text, "2023-06-28", wording).verdict == "unverifiable"


@pytest.mark.parametrize("text, absent", [
    ("*Correction, June 29: the Gaudi2 time was wrong.*", "June 29"),
    ("Version 1.0 of the test drew results from 13 organizations.", "1.0"),
])
def test_stamps_and_versions_are_no_claims(text, absent):
    assert absent not in [c.text for c in check_text(text, date="2023-06-28")]


# A count or a time written bare after its unit was given once ("on 4,096 A100s and ResNet-50 ... on 4,216",
# "Lenovo's at 5.08 minutes and Dell's at 5.22") takes that unit, and pairs each benchmark with its own figure.
@pytest.mark.parametrize("text, date, wording, kind, benchmark", [
    ("Nvidia trained BERT in 12.5 seconds on 4,096 A100s and ResNet-50 in just over 19 seconds on 4,216.",
     "2022-11-10", "4,216", "count", "resnet"),
    ("Nvidia trained BERT in 12.5 seconds on 4,096 A100s and ResNet-50 in just over 19 seconds on 4,216.",
     "2022-11-10", "4,096 A100s", "count", "bert"),
    ("Its RNN-T run took 2.15 minutes on 2,048 GPUs, 3D U-Net 1.22 minutes on 768 and MiniGo 12.2 minutes on 1,792.",
     "2022-11-10", "768", "count", "unet3d"),
    ("Supermicro posted the quickest BERT at 4.97 minutes, ahead of Lenovo's ThinkSystem SR680a V3 at 5.08 minutes "
     "and Dell's PowerEdge XE9680 at 5.22.", "2024-11-14", "5.22", "duration", "bert"),
])
def test_a_bare_figure_takes_the_unit_written_once(text, date, wording, kind, benchmark):
    c = _claim(text, date, wording)
    assert (c.kind, c.entities.benchmark, c.verdict) == (kind, benchmark, "supported")


# A family word beside a named chip ("eight-GPU H200 servers") is that chip, not one named paragraphs before;
# a subject carried into the next sentence carries that chip.
def test_a_family_word_beside_a_named_chip_is_that_chip():
    text = ("Oracle also ran GPT-3 on 3,072 H100s in 10.1 minutes.\n\nAmong eight-GPU H200 servers, Supermicro posted "
            "the quickest BERT at 4.97 minutes, ahead of Lenovo's ThinkSystem SR680a V3 at 5.08 minutes. Lenovo's "
            "box also fine-tuned Llama 2 70B in 23.1 minutes.")
    c = _claim(text, "2024-11-14", "23.1 minutes")
    assert (c.entities.accelerator, c.verdict) == ("h200", "supported")


# A table whose row-label header names the unit ("| Benchmark (minutes, 8 accelerators) | DGX A100 | ...") gives
# it to every figure; each column's system is the figure's.
TABLE = ("# H100 debut\n\n| Benchmark (minutes, 8 accelerators) | DGX A100 | DGX H100 (preview) | Gaudi2 (HLS) |\n"
         "|---|---|---|---|\n| BERT | 16.88 | 6.38 | 15.56 |\n| Mask R-CNN | 40.13 | 24.35 | n/a |\n")


@pytest.mark.parametrize("wording, seconds, verdict", [
    ("16.88", 1012.8, "supported"), ("6.38", 382.8, "supported"), ("15.56", 933.6, "supported"),
    ("24.35", 1461, "contradicted"),  # the DGX H100's Mask R-CNN took 20.35 minutes
])
def test_a_unit_in_the_row_label_header_is_every_figures(wording, seconds, verdict):
    c = _claim(TABLE, "2022-11-10", wording)
    assert (c.kind, c.value, c.verdict) == ("duration", seconds, verdict)


# A server model written with a space before its number ("PowerEdge DSS 8440 cluster") is a name, no count.
def test_a_spaced_model_number_is_no_count():
    claims = check_text("Dell's three-node PowerEdge DSS 8440 cluster with 24 GPUs trained ResNet-50 in 15.5 minutes.",
                        date="2021-07-01")
    assert [c.text for c in claims] == ["three-node", "24 GPUs", "15.5 minutes"]


def test_a_unit_over_one_column_is_that_columns_only():
    table = ("| Benchmark | Submitter | Chips | Minutes |\n|---|---|---|---|\n| GPT-3 175B | NVIDIA | 10,752 | 3.92 |\n"
             "| 3D U-Net | NVIDIA | 768 | 0.77 |\n")
    claims = {c.text: c for c in check_text(table, date="2023-11-10")}
    assert claims["3.92"].kind == "duration" and claims["0.77"].kind == "duration"
    assert all(c.kind != "duration" for t, c in claims.items() if t in ("10,752", "768", "3"))


# An anaphor after a name of its type in the same sentence ("MosaicML ... its own baseline") points back to
# that name, not to a company of an earlier paragraph.
@pytest.mark.parametrize("text, wording", [
    ("Intel's CPU-only entry trained BERT in 47.3 minutes.\n\nIn the open division, MosaicML trained BERT on eight "
     "A100s in 7.9 minutes, 2.7 times as fast as its own baseline at 21.4 minutes.", "21.4 minutes"),
    ("英特尔的 CPU 系统训练 BERT 用了47.3分钟。\n\n开放组里，MosaicML 用 8 块 A100 训练 BERT 只要7.9分钟，"
     "是该公司自己基线21.4分钟的2.7倍速度。", "21.4分钟"),
])
def test_an_anaphor_points_back_to_the_name_before_it(text, wording):
    c = _claim(text, "2022-11-10", wording)
    assert (c.entities.org, c.verdict) == ("mosaicml", "supported")


# An org named in the claim's clause stays its subject when the chip is only carried from an earlier sentence:
# "英伟达表示自己包揽了全部7项" after a sentence on Cisco's H100s is NVIDIA's claim (it was given to the H100's
# one submitter of the round).
def test_a_named_org_is_not_replaced_by_a_carried_chips_submitter():
    text = "思科64块H100完成DLRM-DCNv2用时1.56分钟，联想8卡B200为2.32分钟。英伟达表示自己包揽了全部7项测试的最快成绩。"
    c = _claim(text, "2025-11-13", "7项测试")
    assert (c.entities.org, c.verdict) == ("nvidia", "supported")


def test_a_reflexive_right_after_a_name_only_stresses_it():
    c = _claim("NF5688M6 跑 BERT 用了19.39分钟，比英伟达自己的 DGX A100 的20.0分钟还快。", "2021-12-03", "19.39分钟")
    assert c.entities.org != "nvidia" and c.verdict != "contradicted"


# 卡 sizes the noun after it: "8卡成绩" are results of eight-card systems, a count of cards, not eight results.
@pytest.mark.parametrize("text, wording", [
    ("**Blackwell：8卡成绩全面领先**", "8卡"),
    ("单机8卡成绩中，英伟达领先。", "8卡"),
    ("8卡系统的成绩", "8卡"),
])
def test_ka_sizes_the_noun_after_it(text, wording):
    c = _claim(text, "2024-11-14", wording)
    assert (c.counted, c.verdict) == ("gpu", "supported")


# A result count whose clause makes the submitters as a group its subject is the round's, never refuted as the
# company named in the next clause's.
@pytest.mark.parametrize("text, wording", [
    ("本轮参赛厂商共提交了154项成绩，英伟达Blackwell B200以预览类别首次亮相。", "154项成绩"),
    ("The submitters turned in 154 results, and NVIDIA's B200 made its debut in the preview category.", "154 results"),
])
def test_results_of_the_submitters_as_a_group_are_not_a_companys(text, wording):
    assert _claim(text, "2024-11-14", wording).verdict != "contradicted"


def test_a_companys_own_result_count_is_still_checked():
    assert _claim("英伟达本轮共提交了35项成绩。", "2024-11-14", "35项成绩").verdict == "supported"
