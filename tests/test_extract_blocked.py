"""Not-claim spans are found once per article and asked about by overlap."""

from __future__ import annotations

import pytest

from pipeline.extract.claims import Blocked

SPANS = [(0, 5), (10, 100), (20, 25), (120, 130)]


@pytest.mark.parametrize("s, e, overlaps", [
    (0, 1, True),
    (5, 10, False),  # touching is not overlapping
    (50, 60, True),  # inside a long span that starts well before
    (101, 119, False),
    (99, 101, True),
    (125, 126, True),
    (130, 140, False),
])
def test_overlap_with_any_span(s: int, e: int, overlaps: bool):
    assert Blocked(SPANS).overlaps(s, e) is overlaps
    assert any(a < e and s < b for a, b in SPANS) is overlaps


def test_a_number_inside_a_model_name_is_no_claim_in_any_sentence():
    from pipeline.extract.claims import extract_claims
    from pipeline.records import Article
    from pipeline.segment.sentences import segment

    text = "The run used EPYC 7742 hosts. 谷歌用了 EPYC 7742 主机和 4096 块芯片。"
    claims = extract_claims(segment(Article(doc="a.txt", text=text)))
    assert [c.text for c in claims] == ["4096 块芯片"]
