"""Claims about the rounds of 2021-2025 (#20), checked against the official tables of v1.1-v5.1 and the
statements of those rounds: each table is one kind of phrase or reasoning that news of these rounds uses,
in invented sentences."""

from __future__ import annotations

import pytest

from pipeline.run.process import check_text


def _claim(text: str, date: str, wording: str):
    found = [c for c in check_text(text, date=date) if c.text == wording]
    assert len(found) == 1, [c.text for c in check_text(text, date=date)]
    return found[0]


# How many organisations submitted is the organiser's own count where it gave one (the tables count folders,
# and a joint "NVIDIA+CoreWeave" or one company under three folders would skew them); else the submitters
# as the results name them.
@pytest.mark.parametrize("text, date, wording, verdict, official", [
    ("Nineteen organizations took part in MLPerf Training v3.1.", "2023-11-10", "Nineteen organizations",
     "supported", 19),
    ("MLPerf Training v3.0 drew results from 15 submitters.", "2023-06-28", "15 submitters", "contradicted", 16),
    ("共17个组织参与了 MLPerf Training v4.0 的提交。", "2024-06-13", "17个组织", "supported", 17),
    ("In MLPerf Training v2.1, 18 companies submitted results.", "2022-11-10", "18 companies", "supported", 18),
])
def test_a_rounds_submitters_are_counted_as_the_organiser_counts_them(text, date, wording, verdict, official):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == (verdict, official)


# A server or VM design of so many GPUs, counted many times over: the count is the whole system's
# (what the results show), not the design's eight.
@pytest.mark.parametrize("text, date, wording", [
    ("NVIDIA's DGX A100 servers, 4,096 GPUs in all, trained BERT in 0.21 minutes.", "2022-11-10", "4,096 GPUs"),
    ("英伟达用 4096 块 GPU 组成的 DGX A100 集群训练 BERT，只用了 0.21 分钟。", "2022-11-10", "4096 块 GPU"),
])
def test_many_units_of_a_product_are_the_systems_size(text, date, wording):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == ("supported", 4096)


# Performance per dollar is the vendor's own figure, never a speed or a size.
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("Google says Trillium offers 3 times the performance per dollar of TPU v5p in MLPerf Training.",
     "2024-11-14", "3 times", "contradicted"),
    ("谷歌称，Trillium 的性价比是 TPU v5p 的 1.8 倍。", "2024-11-14", "1.8 倍", "supported"),
])
def test_price_performance_is_checked_against_the_vendors_statement(text, date, wording, verdict):
    c = _claim(text, date, wording)
    assert (c.metric, c.verdict, c.official) == ("price_performance", verdict, 1.8)


# A ratio of how many GPUs is a size ratio; "N times last round's" multiplies what follows, as "the" does
@pytest.mark.parametrize("text, wording, kind, metric", [
    ("本轮参赛的 GPU 数量是上一轮的两倍。", "两倍", "ratio", "system_size_ratio"),
    ("The number of GPUs in the largest entry was three times last round's.", "three times", "ratio",
     "system_size_ratio"),
    ("Its biggest system had twice that of the v4.0 entry.", "twice", "ratio", "ratio"),
    ("Each benchmark was run three times last week.", "three times", "count", "run_count"),
])
def test_what_a_ratio_multiplies(text, wording, kind, metric):
    c = _claim(text, "2024-11-14", wording)
    assert (c.kind, c.metric) == (kind, metric)


# "X times faster than last round" when the two rounds' best results ran on systems of different sizes:
# the best against the best and the same size then and now are both readings (Graphcore's v1.1 best ran on
# 256 IPUs, its v1.0 best on 64; at 16 and 64 IPUs both rounds have results).  Only a figure outside all of
# them is a contradiction.
@pytest.mark.parametrize("text, wording, verdict", [
    ("Graphcore's ResNet-50 training ran 1.3 times as fast as in MLPerf Training v1.0.", "1.3 times", "supported"),
    ("Graphcore's ResNet-50 training ran 3.8 times as fast as in MLPerf Training v1.0.", "3.8 times", "supported"),
    ("Graphcore 的 ResNet-50 训练速度是 MLPerf Training v1.0 时的 6 倍。", "6 倍", "contradicted"),
])
def test_a_speedup_over_last_round_at_different_scales_has_two_readings(text, wording, verdict):
    assert _claim(text, "2021-12-02", wording).verdict == verdict


# ... unless the words say best against best
@pytest.mark.parametrize("text, wording", [
    ("Graphcore's fastest ResNet-50 time was 1.3 times as fast as its best in MLPerf Training v1.0.", "1.3 times"),
    ("在最大规模下，Graphcore 的 ResNet-50 训练速度是 MLPerf Training v1.0 时的 1.3 倍。", "1.3 倍"),
])
def test_a_speedup_of_the_fastest_is_best_against_best(text, wording):
    assert _claim(text, "2021-12-02", wording).verdict == "contradicted"


# A count whose noun is an accelerator's name counts that accelerator: GPUs for a GPU family, else chips
@pytest.mark.parametrize("text, date, wording, counted", [
    ("回顾 v3.0：CoreWeave 与英伟达的联合系统用 3072 块 H100 训练 BERT，跑出 0.13 分钟。", "2025-11-18", "3072 块",
     "gpu"),
    ("谷歌在 MLPerf Training v4.0 中用 6144 颗 TPU v5p 训练 GPT-3。", "2024-06-13", "6144 颗 TPU", "chip"),
    ("AMD 在 MLPerf Training v5.0 中用 8块MI325X 完成了 Llama 2 70B LoRA 微调。", "2025-06-05", "8块", "gpu"),
])
def test_a_count_named_by_its_accelerator(text, date, wording, counted):
    assert _claim(text, date, wording).counted == counted


# The later rounds are named as the early ones are: "v3.0", "MLPerf 4.1", "MLPerf 训练 3.1" in an article
# of another year
@pytest.mark.parametrize("text, date, wording, official", [
    ("Looking back at v3.0, NVIDIA and CoreWeave posted 0.13 minutes on BERT with 3,072 H100 GPUs.", "2025-11-18",
     "0.13 minutes", 8.02838),
    ("在 MLPerf 训练 3.0 中，英伟达和 CoreWeave 用 3072 块 H100 训练 BERT 只用了 0.13 分钟。", "2025-11-18",
     "0.13 分钟", 8.02838),
])
def test_a_later_round_named_in_a_later_article(text, date, wording, official):
    c = _claim(text, date, wording)
    assert (c.verdict, round(c.official, 5)) == ("supported", official)


# Seconds and minutes are no span between two dates: a result's time, even with a date nearby
def test_a_time_of_minutes_is_no_span_since_a_date():
    c = _claim("2022年11月以来，英伟达在 MLPerf Training v3.0 中用 3072 块 H100 训练 BERT 跑出 0.13 分钟。",
               "2023-06-28", "0.13 分钟")
    assert c.metric == "train_time" and c.verdict == "supported"


# A speedup between the two times its sentence gives: read from the figures as printed too (rounded
# minutes), and a percentage "faster" is that much more, not a share.  A baseline named elsewhere ("than
# its June time") is not the sentence's other time (9.99 / 18.79 would refute 45%): it is June's round, where
# NVIDIA's 2,496-GPU time (27.33 min) makes 18.79 minutes 1.45x.
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("ResNet-50 went from 1.28 minutes to 0.76 minutes, 68% faster.", "2020-07-30", "68% faster", "supported"),
    ("ResNet-50 的训练时间从 1.28 分钟缩短到 0.76 分钟，快了 68%。", "2020-07-30", "快了 68%", "supported"),
    ("ResNet-50 went from 1.28 minutes to 0.76 minutes, 30% faster.", "2020-07-30", "30% faster", "contradicted"),
    ("NVIDIA trained Llama 3.1 405B in 9.99 minutes on 5,120 GPUs, and on 2,560 GPUs in 18.79 minutes, 45% "
     "faster than its June time.", "2025-11-20", "45% faster", "supported"),
    ("英伟达用 5120 块 GPU 训练 Llama 3.1 405B 只需 9.99 分钟，用 2560 块 GPU 需要 18.79 分钟，比 6 月快了 45%。",
     "2025-11-20", "快了 45%", "supported"),
])
def test_a_speedup_between_the_sentences_own_times(text, date, wording, verdict):
    assert _claim(text, date, wording).verdict == verdict


# Per GPU against the last round: the fastest whole systems do not tell it; the vendor's own per-chip
# figure over that round does (and a per-chip figure against another chip does not)
@pytest.mark.parametrize("text, wording, verdict", [
    ("NVIDIA's per-GPU GPT-3 performance rose 1.3 times over the previous round.", "1.3 times", "supported"),
    ("英伟达每块 GPU 的 GPT-3 训练性能比上一轮提升到 1.3 倍。", "1.3 倍", "supported"),
    ("NVIDIA's per-GPU GPT-3 performance rose 3 times over the previous round.", "3 times", "contradicted"),
])
def test_a_per_chip_gain_over_last_round(text, wording, verdict):
    c = _claim(text, "2024-11-14", wording)
    assert (c.verdict, c.official) == (verdict, 1.3)


# "GPU" names the chip of a system its clause names (四台DGX H100共32块GPU), and a GPU generation's chips
# (Hopper, Blackwell) are GPUs as much as the A100 is
@pytest.mark.parametrize("text, date, wording, accelerator", [
    ("一台 DGX A100 有 8 块 A100。四台 DGX H100 共 32 块 GPU 时，BERT 缩短到 1.80 分钟。", "2022-11-10", "32 块 GPU",
     "h100"),
    ("The DGX A100 has eight A100s. Four DGX H100 systems, 32 GPUs in all, trained BERT in 1.80 minutes.",
     "2022-11-10", "32 GPUs", "h100"),
    ("NVIDIA's H100 led the round; its 11,616 GPUs trained GPT-3 in 3.44 minutes.", "2024-06-13", "11,616 GPUs",
     "h100"),
])
def test_gpu_is_the_chip_the_text_gives_it(text, date, wording, accelerator):
    c = _claim(text, date, wording)
    assert (c.entities.accelerator, c.verdict) == (accelerator, "supported")


# Systems of each size a round's results name (Graphcore's IPU-POD16 to IPU-POD256): the time of each is
# its own, in one sentence
@pytest.mark.parametrize("text, wording, chips", [
    ("Graphcore's IPU-POD256 trained ResNet-50 in 3.79 minutes, and its IPU-POD16 needed 28.3 minutes.",
     "3.79 minutes", 256),
    ("Graphcore 的 IPU-POD128 用 5.67 分钟完成 ResNet-50 训练，IPU-POD16 则用了 28.3 分钟。", "5.67 分钟", 128),
])
def test_each_system_size_keeps_its_own_time(text, wording, chips):
    c = _claim(text, "2021-12-02", wording)
    assert c.verdict == "supported" and f"on {chips} Graphcore IPU chips" in c.explanation


# A time in the count's clause makes the count that run's size, which may be part of a named machine; a
# named machine's own size is its owner's figure, whoever else entered its chip in the article's round
@pytest.mark.parametrize("text, wording, verdict, official", [
    ("回顾 v3.1：英伟达 Eos 用 3472 块 H100 训练 BERT，跑出 0.12 分钟。", "3472 块", "supported", 3472),
    ("In v3.1 NVIDIA's Eos ran BERT on 3,472 H100 GPUs in 0.12 minutes.", "3,472 H100 GPUs", "supported", 3472),
    ("NVIDIA's Eos supercomputer has 10,752 H100 GPUs.", "10,752 H100 GPUs", "supported", 10752),
    ("NVIDIA's Eos supercomputer has 4,096 H100 GPUs.", "4,096 H100 GPUs", "contradicted", 10752),
])
def test_a_run_on_part_of_a_named_machine(text, wording, verdict, official):
    c = _claim(text, "2025-11-18", wording)
    assert (c.verdict, c.official) == (verdict, official)


# The round a benchmark first ran in, named by the benchmark ("the first GPT-3 round", "GPT-3's debut
# round", "GPT-3 首次亮相的那一轮"): v3.0 in a story of 2024, not the story's round
@pytest.mark.parametrize("text, wording", [
    ("在 GPT-3 首次亮相的那一轮，英伟达和 CoreWeave 用 3584 块 H100 跑出 10.94 分钟。", "10.94 分钟"),
    ("GPT-3's debut round saw NVIDIA train it in 10.94 minutes on 3,584 H100 GPUs.", "10.94 minutes"),
    ("In the first GPT-3 round, NVIDIA and CoreWeave trained it in 10.94 minutes on 3,584 H100 GPUs.",
     "10.94 minutes"),
])
def test_a_round_named_by_its_new_benchmark(text, wording):
    c = _claim(text, "2024-06-13", wording)
    assert (c.verdict, round(c.official, 1)) == ("supported", 656.4)


def test_first_alone_names_no_round():
    c = _claim("It was the first time NVIDIA trained GPT-3 in 3.44 minutes.", "2024-06-13", "3.44 minutes")
    assert c.entities.round == "training-v4.0" and c.verdict == "supported"


# "Last year" holds two rounds since 2021: a speedup over last year may be over either
@pytest.mark.parametrize("text, wording, verdict", [
    ("NVIDIA's GPT-3 time was 3.2 times as fast as last year's.", "3.2 times", "supported"),
    ("NVIDIA's GPT-3 time was 1.15 times as fast as last year's.", "1.15 times", "supported"),
    ("英伟达这次把 GPT-3 测试缩短到 3.44 分钟，时间比去年提高了 3 倍。", "提高了 3 倍", "ambiguous"),
    ("NVIDIA's GPT-3 time was 6 times as fast as last year's.", "6 times", "contradicted"),
])
def test_a_speedup_over_last_year(text, wording, verdict):
    assert _claim(text, "2024-06-15", wording).verdict == verdict


# A machine carried from the sentence before is not the one of a claim whose words name a round it was not
# in; a clause that starts with "when" continues the one before it (its round too)
@pytest.mark.parametrize("second", [
    "In the first GPT-3 round a 3,584-GPU cluster held the record, when the same test took 10.94 minutes.",
    "The record of the first GPT-3 round belonged to a 3,584-GPU cluster, when the same test took 10.94 minutes.",
])
def test_a_carried_machine_and_a_when_clause(second):
    text = "NVIDIA trained GPT-3 in 3.44 minutes on 11,616 H100 GPUs. " + second
    assert [_claim(text, "2024-06-13", w).verdict for w in ("3,584-GPU", "10.94 minutes")] == ["supported"] * 2


# A side of a chip its round did not run has no size (B200 in v4.0), and a named benchmark without a result
# at the shared size gets no mean of the others
@pytest.mark.parametrize("text, date, wording", [
    ("The larger memory lets the model fit on a quarter of the B200 GPUs the previous round needed.",
     "2024-11-15", "a quarter"),
    ("On 2,560 GPUs NVIDIA's Llama 3.1 405B run was 45% faster than in MLPerf Training v5.0.", "2025-11-20",
     "45% faster"),
])
def test_no_figure_for_what_the_round_did_not_run(text, date, wording):
    assert _claim(text, date, wording).verdict != "contradicted"


# A category or division its words name restricts the results a figure is checked against: a preview or an
# open-division figure told as available or closed is contradicted (mixed categories); one outside another
# claim's scope, or across a semicolon, is not restricted
@pytest.mark.parametrize("text, date, wording, verdict, distortion", [
    ("In the closed division, MosaicML's A100 server trained BERT in 7.90 minutes.", "2022-11-14", "7.90 minutes",
     "contradicted", "mixed_categories"),
    ("In the open division, MosaicML's A100 server trained BERT in 7.90 minutes.", "2022-11-14", "7.90 minutes",
     "supported", None),
    ("在开放组中，MosaicML 的 A100 服务器训练 BERT 用时 7.90 分钟。", "2022-11-14", "7.90 分钟", "supported", None),
    ("In the closed division MosaicML trained BERT in 7.90 minutes, against 21.37 minutes for its own baseline.",
     "2022-11-14", "21.37 minutes", "supported", None),
    ("在研究类别中，256 颗 TPU v3 训练 ResNet-50 用了 7.08 分钟；"
     "云上的 TPU v2 Pod 同样是 256 颗芯片，用了 11.25 分钟。", "2018-12-14", "11.25 分钟", "supported", None),
])
def test_a_category_or_division_the_words_name(text, date, wording, verdict, distortion):
    c = _claim(text, date, wording)
    assert (c.verdict, c.distortion) == (verdict, distortion)


# A time given to a company its sentence names is checked against that company's results: another
# submitter's result that happens to fit is no support (it is the distortion: a result given to the wrong
# company); only where the named company has none (the Ascend's were SIAT's) do others' results count
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("On MiniGo, Azure finished in 15.47 minutes on 1,792 A100 GPUs.", "2021-12-02", "15.47 minutes",
     "contradicted"),
    ("在 MiniGo 项目上，Azure 用 1792 块 A100 跑出 17.44 分钟。", "2021-12-02", "17.44 分钟", "supported"),
])
def test_a_time_given_to_the_company_named(text, date, wording, verdict):
    assert _claim(text, date, wording).verdict == verdict


# A family word right after a name the knowledge base lacks ("ABCI 超级计算机", "the ABCI supercomputer") is
# that machine, not a member of the family (NVIDIA's DGX SuperPOD in v0.6)
@pytest.mark.parametrize("text, wording", [
    ("Fujitsu's ABCI supercomputer trained ResNet-50 in 1.17 minutes on 2,048 V100s in the open division.",
     "1.17 minutes"),
    ("在开放组中，富士通用 ABCI 超级计算机上的 2048 块 V100 把 ResNet-50 压到 1.17 分钟。", "1.17 分钟"),
])
def test_a_machine_the_knowledge_base_lacks(text, wording):
    c = _claim(text, "2019-07-11", wording)
    assert (c.entities.org, c.verdict) == ("fujitsu", "supported")


# Two companies compared "on the same number of GPUs" (同样数量的 GPU), the number in the sentence: both at
# that size, not each one's best at any size
@pytest.mark.parametrize("text, wording, verdict", [
    ("Azure trained 3D U-Net in 1.26 minutes on 768 GPUs, about 9% faster than NVIDIA's result on the same "
     "number of GPUs.", "about 9% faster", "supported"),
    ("Azure trained 3D U-Net in 1.26 minutes on 768 GPUs, about 15% faster than NVIDIA's result on the same "
     "number of GPUs.", "about 15% faster", "contradicted"),
    ("Azure 用 768 块 GPU 训练 3D U-Net 只需 1.26 分钟，在同样数量的 GPU 上比英伟达快了约 9%。", "快了约 9%",
     "supported"),
])
def test_two_companies_at_the_same_size(text, wording, verdict):
    assert _claim(text, "2021-12-02", wording).verdict == verdict


# Chips pair off with the figures of a sentence as benchmarks and systems do: "the MI325X finished in 22.04
# minutes and the MI300X in 29.25 minutes" gives each chip its own time
@pytest.mark.parametrize("text, wording, official", [
    ("AMD entered eight-GPU servers on the LoRA test only. The MI325X finished in 22.04 minutes and the MI300X in "
     "29.25 minutes.", "22.04 minutes", 1322.2),
    ("AMD 只参加了 LoRA 测试：MI325X 用时 22.04 分钟，MI300X 用时 29.25 分钟。", "29.25 分钟", 1755.0),
])
def test_each_chip_keeps_its_own_time(text, wording, official):
    c = _claim(text, "2025-06-06", wording)
    assert c.verdict == "supported" and round(c.official, 1) == official


# An average is not the best benchmark's "up to" figure: a vendor's up-to statement supports "up to 2.6x",
# never "averaged 2.6x"
@pytest.mark.parametrize("text, wording, verdict", [
    ("NVIDIA says H100 delivered up to 2.6 times the A100's performance.", "up to 2.6 times", "supported"),
    ("NVIDIA's headline says H100 averaged 2.6 times the A100 across all eight workloads.", "2.6 times",
     "unverifiable"),
    ("NVIDIA 称 H100 在八项测试中平均是 A100 的 1.9 倍。", "1.9 倍", "supported"),
])
def test_an_average_is_not_an_up_to_figure(text, wording, verdict):
    assert _claim(text, "2022-11-14", wording).verdict == verdict


# A speedup between two system sizes its sentence gives (one company, one round): the smaller system's time
# over the larger's
@pytest.mark.parametrize("text, wording, verdict", [
    ("In MLPerf Training v5.0, NVIDIA trained Llama 3.1 405B on 2,496 GB200 GPUs 4.4 times as fast as on 512 "
     "GB200 GPUs.", "4.4 times", "supported"),
    ("In MLPerf Training v5.0, NVIDIA trained Llama 3.1 405B on 2,496 GB200 GPUs 6 times as fast as on 512 "
     "GB200 GPUs.", "6 times", "contradicted"),
    ("在 MLPerf Training v5.0 中，英伟达用 2496 块 GB200 训练 Llama 3.1 405B，速度是 512 块 GB200 时的 4.4 倍。",
     "4.4 倍", "supported"),
])
def test_a_speedup_between_two_system_sizes(text, wording, verdict):
    assert _claim(text, "2025-06-05", wording).verdict == verdict


# A count of chips and a time in neighbouring clauses (no other figure between) tell one result, as in one
# clause: the chips are those of the result with that time
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("Graphcore 以 128 顆 IPU 訓練 ResNet-50，成績 3.79 分鐘。", "2021-12-03", "128 顆", "contradicted"),
    ("Graphcore 以 256 顆 IPU 訓練 ResNet-50，成績 3.79 分鐘。", "2021-12-03", "256 顆", "supported"),
    ("BERT只用0.13分钟，由768块H100完成。", "2023-06-30", "768块", "contradicted"),
    ("BERT只用0.13分钟，由3072块H100完成。", "2023-06-30", "3072块", "supported"),
])
def test_a_count_and_a_time_in_neighbouring_clauses(text, date, wording, verdict):
    assert _claim(text, date, wording).verdict == verdict


# A month named before a figure in its clause ("its June time of 12.48 minutes", "6 月的成绩为 12.48 分钟") is
# the round published that month, the article's year or the year before; "In June, ..." alone names none
@pytest.mark.parametrize("text, wording, verdict", [
    ("Google's TPU v5p cluster of 6,144 chips did 11.77 minutes on GPT-3, 1.5 times faster than its June time "
     "of 12.48 minutes.", "12.48 minutes", "supported"),
    ("Google's TPU v5p cluster of 6,144 chips did 11.77 minutes on GPT-3, 1.5 times faster than its June time "
     "of 12.48 minutes.", "1.5 times", "contradicted"),
    ("谷歌 6144 颗 TPU v5p 的 GPT-3 成绩为 11.77 分钟，6 月的成绩为 12.48 分钟。", "12.48 分钟", "supported"),
])
def test_a_month_names_its_round(text, wording, verdict):
    assert _claim(text, "2024-11-15", wording).verdict == verdict
