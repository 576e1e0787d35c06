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
