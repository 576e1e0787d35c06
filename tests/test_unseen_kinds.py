"""Kinds of phrase found by probing invented articles in the style of unseen coverage (sixth session):
each table is one kind, its sentences invented and checked against the official tables."""

from __future__ import annotations

import pytest

from pipeline.run.process import check_text


def _claim(text: str, date: str, wording: str):
    found = [c for c in check_text(text, date=date) if c.text == wording]
    assert len(found) == 1, [c.text for c in check_text(text, date=date)]
    return found[0]


# A count in Chinese numerals with a model number right after its classifier ("两千块H100") counts that
# model: the linker reads which, as it does for "2000块H100" and "eight H100s".  (Before, a count in words
# whose noun was not a listed word was dropped as no claim.)
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("英伟达此次动用了一万一千六百一十六块H100训练GPT-3。", "2024-06-13", "一万一千六百一十六块", "supported"),
    ("其GPT-3训练用了一万一千六百块H100。", "2024-06-13", "一万一千六百块", "contradicted"),
    ("英伟达与CoreWeave用三千五百八十四块H100训练GPT-3。", "2023-06-28", "三千五百八十四块", "supported"),
    ("英特尔用三百八十四块Gaudi2训练GPT-3。", "2023-06-28", "三百八十四块", "supported"),
    ("谷歌以六千一百四十四颗TPU v5p训练GPT-3。", "2024-06-13", "六千一百四十四颗TPU", "supported"),
])
def test_a_count_in_words_before_a_model_number_counts_that_model(text, date, wording, verdict):
    assert _claim(text, date, wording).verdict == verdict


@pytest.mark.parametrize("text", ["他们花了两千块钱。", "这台服务器有两块CPU。"])
def test_a_count_in_words_before_no_model_number_is_not_made_a_chip_count(text):
    assert not [c for c in check_text(text, date="2024-06-13") if c.counted in ("gpu", "chip") and c.verdict
                in ("supported", "contradicted")]


# A word with a numeral in it that is no number (万一 "in case", 千万不 "by no means") is not read inside a
# longer numeral: 一万一千 is 11,000, not 一万 + "in case" + 千.
@pytest.mark.parametrize("text, wording, value", [
    ("该系统共有一万一千六百一十六块GPU。", "一万一千六百一十六块GPU", 11616),
    ("超过两万一千块GPU参与了训练。", "超过两万一千块GPU", 21000),
    ("集群规模达到三万一千块GPU。", "三万一千块GPU", 31000),
])
def test_a_numeral_is_read_whole_through_words_it_contains(text, wording, value):
    assert _claim(text, "2024-06-13", wording).value == value


@pytest.mark.parametrize("text", ["万一失败，他们还有备用方案。", "这一轮千万不能出错。"])
def test_those_words_alone_are_still_no_numbers(text):
    assert not [c for c in check_text(text, date="2024-06-13") if c.kind == "count"]


# The particle of a completed verb between a bound word and its number keeps the bound: 超过了 6000 颗 is
# "more than 6000", so 6,144 chips bear it out (it was read as exactly 6000 and refuted).
@pytest.mark.parametrize("text, wording, bound, verdict", [
    ("谷歌的TPU v5p系统也超过了6000颗芯片。", "超过了6000颗芯片", "lower", "supported"),
    ("谷歌的TPU v5p系统超过了7000颗芯片。", "超过了7000颗芯片", "lower", "contradicted"),
    ("英伟达这次的规模最高达到了11616块H100。", "最高达到了11616块", "upper", "supported"),
    ("英伟达用于GPT-3的GPU接近了一万二千块。", "接近了一万二千块", "approx", "supported"),
])
def test_a_completed_verbs_particle_keeps_the_bound(text, wording, bound, verdict):
    c = _claim(text, "2024-06-13", wording)
    assert (c.bound, c.verdict) == (bound, verdict)


# A year written before a result says when the result was made ("the 2021 BERT record", "its 2023 GPT-3
# run"): a date, never a count of 2,021 records (it was refuted as a count, or borne out by a round's 200
# results).
@pytest.mark.parametrize("text, year", [
    ("Nvidia beat the 2021 BERT record of 14 seconds.", "2021"),
    ("That beat the best 2022 result by a wide margin.", "2022"),
    ("The 2022 A100 figure was 16.9 minutes.", "2022"),
    ("Its 2023 GPT-3 run used 10,752 GPUs.", "2023"),
    ("The 2023 suite has nine tests.", "2023"),
    ("But the 2024 system was more than three times larger than the cluster of 2023.", "2024"),
])
def test_a_year_before_a_result_is_a_date_not_a_count(text, year):
    claims = check_text(text, date="2023-11-20")
    assert [c.kind for c in claims if c.text.startswith(year)] == ["date"]


# 其中 N (among them N) after a group counted earlier in the sentence is a part of that group, other counts
# between them allowed: the group's size is what the tables check (17 submitters bear out "其中4家为首次参赛";
# it was refuted as 4 submitters against 17).
@pytest.mark.parametrize("text, wording, verdict", [
    ("本轮共有17家机构提交了205项成绩，其中4家为首次参赛。", "4家", "supported"),
    ("本轮有17家机构、超过200项成绩，其中4家首次参赛。", "4家", "supported"),
    ("本轮共有17家机构参赛，其中有4家是新面孔。", "17家机构参赛，其中有4家", "supported"),
])
def test_a_part_after_qizhong_checks_the_group_counted_before(text, wording, verdict):
    c = _claim(text, "2024-06-13", wording)
    assert (c.of_total, c.verdict) == (17, verdict)


def test_a_group_too_small_is_refuted_on_its_own_and_its_part_left_open():
    text = "本轮共有16家机构提交了205项成绩，其中4家为首次参赛。"
    assert (_claim(text, "2024-06-13", "16家机构").verdict, _claim(text, "2024-06-13", "4家").verdict) == (
        "contradicted", "unverifiable")


# A plan or a goal is no result (CONTRACT: plans are never contradicted against a result table): a figure in
# a clause that says what is to be done is left unverifiable, with why; a result beside it is still checked.
@pytest.mark.parametrize("text, wording", [
    ("英伟达下一步计划把训练集群扩展到两万块GPU以上。", "两万块GPU以上"),
    ("英伟达打算明年把集群扩展到两万块GPU。", "两万块GPU"),
    ("谷歌的目标是用不到两分钟训练完GPT-3。", "不到两分钟"),
    ("NVIDIA plans to scale its training cluster to more than 20,000 GPUs.", "more than 20,000 GPUs"),
    ("Google aims to train GPT-3 in under two minutes next year.", "in under two minutes"),
])
def test_a_plan_is_no_result(text, wording):
    c = _claim(text, "2024-06-13", wording)
    assert c.verdict == "unverifiable" and "plan" in c.explanation


def test_a_result_beside_no_plan_is_still_checked():
    c = _claim("英伟达用一万二千块H100训练GPT-3。", "2024-06-13", "一万二千块")
    assert c.verdict == "contradicted"


# A company's count of results is all its results in the round: a benchmark carried from an earlier sentence
# does not narrow it (it was checked as the company's BERT results only); and a sentence that also counts
# the submitters is about the round's results, not those of a company carried from before.
@pytest.mark.parametrize("text, date, wording, verdict, official", [
    ("英伟达在BERT上用了3072块GPU。超聚变本轮共提交了23项成绩。", "2023-06-28", "23项成绩", "supported", 23),
    ("英伟达在BERT上用了3072块GPU。超聚变本轮共提交了30项成绩。", "2023-06-28", "30项成绩", "contradicted", 23),
    ("Nvidia used 3,072 GPUs for BERT. xFusion submitted 23 results in the round.", "2023-06-28", "23 results",
     "supported", 23),
])
def test_a_companys_results_are_not_narrowed_by_a_benchmark_from_before(text, date, wording, verdict, official):
    c = _claim(text, date, wording)
    assert (c.verdict, c.official) == (verdict, official)


def test_results_counted_with_the_submitters_are_the_rounds():
    text = "Nvidia's H100 made its debut. The round drew more than 200 results from 18 submitters."
    assert _claim(text, "2022-11-10", "more than 200 results").verdict != "contradicted"


# How far apart two times are (a margin, a gap, "faster by") is no training time: never refuted against a
# benchmark's time (相差不到2分钟 was contradicted against the DGX H100's 28 minutes); times beside it are
# still checked.
@pytest.mark.parametrize("text, date, wording", [
    ("甲骨文的8卡H100实例跑LoRA用时29.7分钟，与英伟达自家DGX H100相差不到2分钟。", "2024-06-13", "不到2分钟"),
    ("英伟达DGX A100以不到1分钟的优势拿走MiniGo。", "2021-12-02", "不到1分钟"),
    ("英伟达的GPT-3成绩比去年快了7分钟。", "2024-06-13", "7分钟"),
    ("Microsoft's Azure cluster trailed Eos by about five seconds on GPT-3.", "2023-11-09", "about five seconds"),
    ("Nvidia beat Google by a margin of 12 seconds on BERT.", "2023-11-09", "12 seconds"),
])
def test_a_margin_between_two_times_is_no_training_time(text, date, wording):
    c = _claim(text, date, wording)
    assert c.verdict == "unverifiable" and "apart" in c.explanation


@pytest.mark.parametrize("text, date, wording", [
    ("甲骨文的8卡H100实例跑LoRA用时29.7分钟，与英伟达自家DGX H100相差不到2分钟。", "2024-06-13", "29.7分钟"),
    ("Nvidia trained BERT in 7.2 seconds, by far the fastest.", "2023-11-09", "7.2 seconds"),
    ("华为的ResNet-50成绩与英伟达的0.76分钟相比仍有差距。", "2020-07-30", "0.76分钟"),
])
def test_a_time_beside_a_margin_is_still_checked(text, date, wording):
    assert _claim(text, date, wording).verdict == "supported"


# 款 counts models of a product ("两款服务器": two server models), not machines: no host count to refute.
@pytest.mark.parametrize("text, wording", [
    ("浪潮信息的NF5688M6和NF5488A5两款服务器拿下了8项中的7项第一。", "两款"),
    ("浪潮本轮推出了三款服务器。", "三款"),
])
def test_kuan_counts_product_models_not_machines(text, wording):
    c = _claim(text, "2021-12-02", wording)
    assert c.counted == "product" and c.verdict != "contradicted"


def test_tai_still_counts_machines():
    assert _claim("英伟达用了两台服务器。", "2021-12-02", "两台服务器").counted == "host"


def test_a_count_of_a_years_benchmarks_is_not_refuted_against_another_rounds_suite():
    c = _claim("Of the eight 2021 benchmarks, five survived into the 2023 suite.", "2023-11-20",
               "eight 2021 benchmarks")
    assert c.verdict != "contradicted"


# A month alone after a year cue ("in June", "since March") is the latest such month up to the article's
# date: in a November 2023 story, June 2023, whose round (v3.0) the figures of its clause are of ("down from
# 311.9 minutes in June" was refuted against v3.1's 153.6 minutes).
@pytest.mark.parametrize("text, date, wording, round_, verdict", [
    ("Intel's Gaudi2 trained GPT-3 in 153.6 minutes on 384 chips, down from 311.9 minutes in June.",
     "2023-11-09", "311.9 minutes", "training-v3.0", "supported"),
    ("Intel's Gaudi2 trained GPT-3 in 153.6 minutes on 384 chips, down from 311.9 minutes in June.",
     "2023-11-09", "153.6 minutes", "training-v3.1", "supported"),
    ("In June it took 10.9 minutes on 3,584 GPUs.", "2023-11-09", "3,584 GPUs", "training-v3.0", "supported"),
])
def test_a_month_alone_names_the_latest_such_month(text, date, wording, round_, verdict):
    c = _claim(text, date, wording)
    assert (c.entities.round, c.verdict) == (round_, verdict)


@pytest.mark.parametrize("text, date, iso", [
    ("In June it took 10.9 minutes.", "2023-11-09", "2023-06"),
    ("In December it took 10.9 minutes.", "2023-07-01", "2022-12"),
    ("Since March the team has grown.", "2023-11-09", "2023-03"),
])
def test_the_month_alone_is_dated(text, date, iso):
    assert [c.value for c in check_text(text, date=date) if c.kind == "date"] == [iso]


# In "went from A in December to B, N times faster" the month dates the far side: A is of December's round,
# B and the ratio of the article's (the ratio took December's round and compared the wrong pair).
@pytest.mark.parametrize("wording, round_", [
    ("6.24 minutes", "training-v0.5"), ("1.28 minutes", "training-v0.6"), ("almost five times", "training-v0.6"),
])
def test_a_month_of_another_round_dates_the_far_side_of_a_change(wording, round_):
    c = _claim("ResNet-50 went from 6.24 minutes in December to 1.28 minutes, almost five times faster.",
               "2019-07-10", wording)
    assert (c.entities.round, c.verdict) == (round_, "supported")


# "in mid-2021", "since early 2022": a year after a cue glued by a hyphen is a date (it was read as a model
# name, mid-2021 like DGX-1), and it keeps its clause's figures from the article's round; "mid-" says June.
@pytest.mark.parametrize("text, year", [
    ("Its TPU v4 pods had topped four of the six benchmarks it entered in mid-2021.", "2021-06"),
    ("The lead has held since mid-2022.", "2022-06"),
    ("The chip was announced in late-2020.", "2020"),
])
def test_a_year_after_a_hyphened_cue_is_a_date(text, year):
    assert [c.value for c in check_text(text, date="2022-11-10") if c.kind == "date"] == [year]


def test_a_count_in_a_clause_dated_to_another_year_is_not_refuted_against_the_articles_round():
    c = _claim("Google sat this round out, after its TPU v4 pods had topped four of the six benchmarks it entered "
               "in mid-2021.", "2022-11-10", "four of the six benchmarks")
    assert c.verdict != "contradicted"


# A figure set against the one before it ("versus", "compared with", 而, 相比之下) that names no subject of
# its own is the other side: it does not take the first figure's system or chip (it was refuted as the DGX
# H100's own time), nor whatever an earlier sentence was about; "its own" points back to the same subject.
@pytest.mark.parametrize("text", [
    "On ResNet-50 the DGX H100 took 14.7 minutes versus 28.8 minutes.",
    "On ResNet-50 the DGX H100 took 14.7 minutes, compared with 28.8 minutes.",
    "在ResNet-50上，DGX H100用时14.7分钟，而上一代为28.8分钟。",
    "在ResNet-50上，DGX H100用时14.7分钟，相比之下28.8分钟。",
])
def test_a_figure_set_against_another_is_not_its_subjects(text):
    second = [c for c in check_text(text, date="2022-11-10") if c.kind == "duration"][1]
    assert (second.entities.system, second.verdict) == (None, "supported")


@pytest.mark.parametrize("text, wording, org", [
    ("MosaicML's A100 server trained BERT in 7.90 minutes, against 21.37 minutes for its own baseline.",
     "21.37 minutes", "mosaicml"),
    ("The DGX H100 took 14.7 minutes on ResNet-50 and 5.5 minutes on BERT.", "5.5 minutes", "nvidia"),
    ("SSD和ResNet-50分别为1.21分钟和1.28分钟，都由谷歌的TPU v3 Pod完成。", "1.28分钟", "google"),
])
def test_a_figure_sharing_its_subject_keeps_it(text, wording, org):
    assert _claim(text, "2022-11-14", wording).entities.org == org


# A chip named in the claim's clause says whose result it is; an org named only in a later clause (the
# remaining one "went to Microsoft Azure", 剩下的一项被微软摘走) is that clause's, not the claim's subject
# (the seven wins were checked as Microsoft's).  A partitive across a comma is of its part's clause.
@pytest.mark.parametrize("text, wording", [
    ("在封闭赛区的八项测试中，基于A100的系统拿下了其中七项的最快成绩，剩下的3D U-Net一项被微软Azure摘走。",
     "八项测试中，基于A100的系统拿下了其中七项"),
    ("A100-based systems won seven of the eight closed-division tests; the remaining one went to Microsoft Azure.",
     "seven of the eight closed-division tests"),
])
def test_an_org_of_a_later_clause_is_not_the_subject_of_a_chip_named_before(text, wording):
    c = _claim(text, "2021-12-02", wording)
    assert (c.entities.org, c.verdict) == ("nvidia", "supported")


def test_an_org_named_before_the_figure_stays_its_subject():
    c = _claim("Oracle, in its second round, ran GPT-3 on 1,536 H100s in 12.09 minutes.", "2024-11-15",
               "12.09 minutes")
    assert c.entities.org == "oracle"


# A name right after 除/除了/"apart from"/"other than" is set aside: the subject of no figure (the Gaudi2's
# 256 chips were checked as H100s from "除H100之外").
@pytest.mark.parametrize("text, wording", [
    ("Gaudi2是除H100之外唯一提交GPT-3成绩的加速器：384块Gaudi2用时约311.9分钟；256块时则略超过7小时。", "256块"),
    ("Gaudi2是除H100之外唯一提交GPT-3成绩的加速器：384块Gaudi2用时约311.9分钟；256块时则略超过7小时。", "略超过7小时"),
])
def test_a_name_set_aside_is_no_figures_subject(text, wording):
    c = _claim(text, "2023-06-28", wording)
    assert (c.entities.accelerator, c.verdict) == ("gaudi2", "supported")


# 张 counts cards: "8 張 B200 的系統" is 8 GPUs (the system they make up is not counted; it was refuted as
# 8 systems); but 张 has no usual sense of its own, so "三张图片" counts no chips.
@pytest.mark.parametrize("text, wording, verdict", [
    ("8 張 B200 的系統完成了微調。", "8 張", "supported"),
    ("美超微 8 張 H200 的 BERT 成績為 4.97 分鐘。", "8 張", "supported"),
    ("英伟达用了一千张卡。", "一千张卡", "contradicted"),  # NVIDIA ran 1,024 or more, never 1,000
])
def test_zhang_counts_cards(text, wording, verdict):
    c = _claim(text, "2025-06-05", wording)
    assert (c.counted, c.verdict) == ("gpu", verdict)


def test_zhang_before_an_unknown_noun_counts_no_chips():
    assert not [c for c in check_text("他们用了三张图片。", date="2025-06-05") if c.counted in ("gpu", "chip")]


# Performance per dollar in Taiwanese usage (每美元效能) is the vendor's price-performance figure, never a
# speed ratio from the tables ("最高可達 … 5 倍" was borne out by a 1.08x speed ratio).
@pytest.mark.parametrize("text, wording, verdict", [
    ("Trillium 的每美元效能最高可達 TPU v5p 的 1.8 倍。", "最高可達 TPU v5p 的 1.8 倍", "supported"),
    ("Trillium 的每美元效能最高可達 TPU v5p 的 5 倍。", "最高可達 TPU v5p 的 5 倍", "contradicted"),
    ("谷歌稱 Trillium 每美元的性能是 TPU v5p 的 1.8 倍。", "1.8 倍", "supported"),
])
def test_performance_per_dollar_is_the_vendors_figure(text, wording, verdict):
    c = _claim(text, "2024-11-14", wording)
    assert (c.metric, c.verdict) == ("price_performance", verdict)


# A byline's date and a wire dateline are when the story was filed, never a claim ("*Posted by the
# SiliconCompute team, November 14, 2025*" was refuted against the results date).
@pytest.mark.parametrize("text", [
    "Title line\n\n*Posted by the SiliconCompute team, November 14, 2025*\n\nNvidia trained BERT in 5 minutes.",
    "Title line\n\nSAN FRANCISCO, June 5 (Newswire) - Nvidia trained BERT in 5 minutes.",
    "Title line\n\nSANTA CLARA, Calif., November 12, 2025 - Nvidia trained BERT in 5 minutes.",
])
def test_a_byline_or_dateline_date_is_no_claim(text):
    assert not [c for c in check_text(text, date="2025-11-14") if c.kind == "date"]


# A count of submitters whose own words narrow the group (Taiwanese, Chinese, first-time, server makers) is
# not the round's whole count: fewer than the round's submitters is left open, more refutes it.
@pytest.mark.parametrize("text, wording, verdict", [
    ("Five Taiwanese server makers submitted results this round.", "Five Taiwanese server makers", "unverifiable"),
    ("本轮共有20家机构提交成绩，其中中国厂商有5家。", "5家", "unverifiable"),
    ("本轮有25家台湾厂商提交了成绩。", "25家", "contradicted"),
    ("Twenty-five organizations submitted results this round.", "Twenty-five organizations", "contradicted"),
])
def test_a_narrowed_group_of_submitters_is_refuted_only_when_larger(text, wording, verdict):
    assert _claim(text, "2025-11-13", wording).verdict == verdict


# How many more or fewer ("3,000-odd fewer GPUs", 少用了3000块GPU) is a difference of two counts, never
# refuted as a system's size; "more than 512 GPUs" is a bound, and "fed by 64 hosts" a count, as before.
@pytest.mark.parametrize("text, wording", [
    ("It matched the Hopper time with 3,000-odd fewer GPUs.", "3,000-odd fewer"),
    ("NVIDIA used 512 more GPUs than last time.", "512 more GPUs"),
    ("英伟达这次少用了3000块GPU。", "3000块GPU"),
    ("比上一轮多用了512块GPU。", "512块GPU"),
])
def test_a_difference_of_counts_is_no_count(text, wording):
    c = _claim(text, "2025-11-14", wording)
    assert c.verdict == "unverifiable" and "difference" in c.explanation


@pytest.mark.parametrize("text, wording", [
    ("NVIDIA used more than 512 GPUs.", "more than 512 GPUs"),
    ("The TPU v2 pod was fed by sixty-four host computers.", "sixty-four host"),
])
def test_a_bound_or_a_plain_count_is_still_a_count(text, wording):
    assert "difference" not in _claim(text, "2025-11-14", wording).explanation


# "2.5 minutes for Stable Diffusion, 7.2 seconds for BERT-Large, 55 seconds for RetinaNet": a name right after
# "for"/"on" that follows a figure goes with that figure, not the next one (55 seconds was refuted as BERT's).
@pytest.mark.parametrize("wording, bench", [
    ("2.5 minutes", "stable_diffusion"), ("7.2 seconds", "bert"), ("55 seconds", "retinanet"),
    ("46 seconds", "unet3d"),
])
def test_a_name_after_for_goes_with_the_figure_before(wording, bench):
    text = ("Eos needed 2.5 minutes for Stable Diffusion on 1,024 GPUs, 7.2 seconds for BERT-Large on 3,472 GPUs, "
            "55 seconds for RetinaNet on 2,048 GPUs, and 46 seconds for 3D U-Net on 768 GPUs.")
    c = _claim(text, "2023-11-09", wording)
    assert (c.entities.benchmark, c.verdict) == (bench, "supported")


def test_a_name_before_its_figure_still_goes_with_it():
    c = _claim("BERT trained in 7.2 seconds and RetinaNet in 55 seconds.", "2023-11-09", "55 seconds")
    assert c.entities.benchmark == "retinanet"


# "去年的64.3分钟", "64.3 minutes last year": a year of two rounds names neither alone: each of last year's
# rounds is a reading at the clause's own level (64.3 min is v3.0's, not v3.1's; it was refuted), and in
# "from last year's X to Y" the later figure is the article's round.
@pytest.mark.parametrize("text, wording, verdict", [
    ("在同样512块H100的规模下，英伟达的GPT-3成绩从去年的64.3分钟缩短至50.7分钟。", "64.3分钟", "supported"),
    ("在同样512块H100的规模下，英伟达的GPT-3成绩从去年的64.3分钟缩短至50.7分钟。", "50.7分钟", "supported"),
    ("At the same 512-GPU scale, Nvidia's GPT-3 time fell from 64.3 minutes last year to 50.7 minutes.",
     "64.3 minutes", "supported"),
    ("At the same 512-GPU scale, Nvidia's GPT-3 time fell from 64.3 minutes last year to 50.7 minutes.",
     "50.7 minutes", "supported"),
])
def test_last_year_is_either_of_its_rounds(text, wording, verdict):
    assert _claim(text, "2024-06-13", wording).verdict == verdict


def test_a_figure_of_neither_of_last_years_rounds_is_not_supported():
    text = "在同样512块H100的规模下，英伟达的GPT-3成绩从去年的70分钟缩短至50.7分钟。"
    assert _claim(text, "2024-06-13", "70分钟").verdict != "supported"


# An article that walks through the rounds under headings naming one round each ("## 一、v0.7：……（2020年7月）",
# "## 二、v1.0……（2021年6月）"): a section's claims that name no round are of its round, not the article's
# (they were refuted against the round of the article's date).  One heading naming a past round frames nothing.
WALK = ("三年四轮MLPerf训练榜单回顾\n\n## 一、v0.7：谷歌超算首秀（2020年7月）\n\n"
        "英伟达方面，DGX SuperPOD用1792块A100 GPU把MiniGo的训练时间缩短到17.07分钟。\n\n"
        "## 二、v1.0：TPU v4登场（2021年6月）\n\n谷歌TPU v4的BERT最快成绩缩短至16.6秒。\n\n"
        "## 三、v3.0：大模型时代（2023年6月）\n\n英伟达用3584块H100完成了GPT-3训练。\n")


@pytest.mark.parametrize("wording, round_", [
    ("1792块A100 GPU", "training-v0.7"), ("17.07分钟", "training-v0.7"), ("16.6秒", "training-v1.0"),
    ("3584块", "training-v3.0"),
])
def test_a_sections_heading_names_its_round(wording, round_):
    c = _claim(WALK, "2023-07-05", wording)
    assert (c.entities.round, c.verdict) == (round_, "supported")


def test_one_heading_naming_a_past_round_frames_nothing():
    text = ("GPT-3 arrives\n\n## Since the first round (December 2018)\n\n"
            "NVIDIA and CoreWeave trained GPT-3 in 10.94 minutes on 3,584 H100 GPUs.\n")
    assert _claim(text, "2023-06-29", "10.94 minutes").entities.round == "training-v3.0"


# "9家提交机构": a noun its classifier counts right after another noun is the compound's head (9 submitting
# organisations, not 9 results refuted against 138).
@pytest.mark.parametrize("text, wording", [
    ("MLPerf Training v0.7共收到138项结果，来自9家提交机构。", "9家提交机构"),
    ("9家提交机构共提交了138项结果。", "9家提交机构"),
    ("本轮共有9家参赛厂商。", "9家参赛厂商"),
])
def test_a_compounds_head_is_what_its_classifier_counts(text, wording):
    c = _claim(text, "2020-07-30", wording)
    assert (c.counted, c.verdict) == ("company", "supported")


# British spellings name the same things (organisations are submitters).
@pytest.mark.parametrize("text, wording", [
    ("Results came from 19 organisations this round.", "19 organisations"),
    ("Nineteen organisations submitted results.", "Nineteen organisations"),
])
def test_british_spellings_count_submitters(text, wording):
    c = _claim(text, "2023-11-14", wording)
    assert (c.metric, c.verdict) == ("companies_count", "supported")


# "ten times NVIDIA's record", "four times Hopper's performance": a name's possessive after "times" names what
# is multiplied (a ratio), as "its" does; "run five times" still counts runs.
@pytest.mark.parametrize("text, wording, kind", [
    ("Tinybox took more than ten times NVIDIA's 0.35-minute record.", "more than ten times", "ratio"),
    ("GB300 delivered more than four times Hopper's Llama 3.1 405B performance.", "more than four times", "ratio"),
    ("Each benchmark is run five times.", "five times", "count"),
])
def test_times_before_a_possessive_is_a_ratio(text, wording, kind):
    assert _claim(text, "2025-11-12", wording).kind == kind


# A ratio above one of two times its sentence gives ("down from 311.9 minutes in June - a 2x gain") is the
# longer over the shorter, whatever the order or its cue words (it was 153.6 / 311.9 = 0.49, refuted).
@pytest.mark.parametrize("text, verdict", [
    ("Intel's Gaudi2 trained GPT-3 in 153.6 minutes on 384 chips, down from 311.9 minutes in June - a 2x gain.",
     "supported"),
    ("Intel's Gaudi2 trained GPT-3 in 153.6 minutes on 384 chips, down from 311.9 minutes in June - a 3x gain.",
     "contradicted"),
])
def test_a_gain_between_two_stated_times_is_the_longer_over_the_shorter(text, verdict):
    ratio = next(c for c in check_text(text, date="2023-11-09") if c.kind == "ratio")
    assert ratio.verdict == verdict


def test_a_figure_set_against_another_takes_no_subject_carried_from_before():
    text = ("The DGX H100 set the pace on BERT. "
            "On ResNet-50 the gap was narrower, nearly 2x: 14.7 minutes versus 28.8 minutes.")
    first, second = (_claim(text, "2022-11-10", w) for w in ("14.7 minutes", "28.8 minutes"))
    assert (first.entities.system, second.entities.system, second.verdict) == ("dgx-h100", None, "supported")


# A Markdown table whose columns are benchmarks: a cell takes its column's benchmark, and a column that names
# none ("最大系统", the largest system) is of no benchmark (3,584 GPUs was refuted as BERT's system size).
TABLE = ("三年回顾\n\n| 轮次 | BERT最快成绩 | ResNet-50最快成绩 | 最大系统 |\n|---|---|---|---|\n"
         "| v0.7（2020.07） | 23.6秒 | 28.3秒 | 4096颗TPU v3 |\n"
         "| MLPerf v3.0（2023.06） | 8.0秒 | 13秒 | 3584块H100 |\n")


@pytest.mark.parametrize("wording, bench, verdict", [
    ("28.3秒", "resnet", "supported"), ("8.0秒", "bert", "supported"), ("13秒", "resnet", "contradicted"),
    ("3584块", None, "supported"),
])
def test_a_table_cell_takes_its_columns_benchmark(wording, bench, verdict):
    c = _claim(TABLE, "2023-07-05", wording)
    assert (c.entities.benchmark, c.verdict) == (bench, verdict)


# A chip named before is not the chip of an org that never entered it: "tiny corp, whose six-GPU tinybox"
# after NVIDIA's H100s counts its own GPUs (RTX 4090 / RX 7900 XTX), not H100s (6 was refuted against 4).
@pytest.mark.parametrize("wording, verdict", [("six-GPU", "supported"), ("about 95 minutes", "contradicted")])
def test_a_chip_named_before_is_not_an_org_s_that_never_entered_it(wording, verdict):
    text = ("NVIDIA trained GPT-3 on 11,616 H100 GPUs. And then there is tiny corp, whose six-GPU tinybox took "
            "about 95 minutes on ResNet-50.")
    c = _claim(text, "2024-06-20", wording)
    assert (c.entities.org, c.entities.accelerator, c.verdict) == ("tinycorp", None, verdict)


def test_a_chip_named_before_stays_the_chip_of_an_org_that_entered_it():
    text = "NVIDIA's A100 set six records. Microsoft Azure ran 3D U-Net on 768 GPUs in 1.26 minutes."
    assert _claim(text, "2021-12-02", "768 GPUs").entities.accelerator == "a100"


# A count of results whose sentence names no company is not refuted against a company carried from before:
# borne out when it fits, otherwise unverifiable ("Llama 3.1 8B was the most popular new test, with 39
# results" was refuted as NVIDIA's 6; "the two results answer different questions" as Google's 35).
@pytest.mark.parametrize("text, date, wording, verdict", [
    ("Nvidia's H200 posted solid numbers. Llama 3.1 8B was the most popular new test, with 39 results.",
     "2025-11-14", "39 results", "unverifiable"),
    ("英伟达在全部9项基准中均拿下了最快成绩。它本轮共提交了44项成绩。", "2024-06-13", "44项成绩", "supported"),
    ("英伟达在全部9项基准中均拿下了最快成绩。它本轮共提交了50项成绩。", "2024-06-13", "50项成绩", "unverifiable"),
    ("英伟达本轮共提交了50项成绩。", "2024-06-13", "50项成绩", "contradicted"),
])
def test_results_of_a_carried_company_are_never_refuted(text, date, wording, verdict):
    assert _claim(text, date, wording).verdict == verdict
