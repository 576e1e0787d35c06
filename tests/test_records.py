"""The records' copy-with-changes (evolve) is dataclasses.replace, faster."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.records import Claim, Entities, evolve

CLAIM = Claim(doc="a.txt", lang="zh", sentence="谷歌用了 4096 块芯片。", start=5, end=9, text="4096", kind="count",
              value=4096, unit="count", entities=Entities(org="google"))


@pytest.mark.parametrize("changes", [
    {},
    {"verdict": "supported", "official": 4096, "evidence": ("training-v0.7",)},
    {"entities": Entities(org="google", accelerator="tpu-v3")},
])
def test_evolve_is_replace(changes: dict):
    new = evolve(CLAIM, **changes)
    assert new == replace(CLAIM, **changes) and type(new) is Claim and new is not CLAIM
    assert CLAIM.verdict == "unverifiable" and CLAIM.evidence == ()  # the original is untouched


def test_evolve_names_an_unknown_field():
    with pytest.raises(TypeError, match="no field 'verdit'"):
        evolve(CLAIM, verdit="supported")


def test_evolve_refuses_records_with_cached_properties():
    from pipeline.official.query import OfficialResults

    row = OfficialResults(None).results[0]
    with pytest.raises(TypeError, match="use dataclasses.replace"):
        evolve(row, minutes=1.0)
