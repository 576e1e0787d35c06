"""Kinds of phrase found by probing invented articles in the style of unseen coverage (seventh session):
each table is one kind, its sentences invented and checked against the official tables."""

from __future__ import annotations

import pytest

from pipeline.link.kb import load_kb
from pipeline.link.recognize import get_recognizer


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
