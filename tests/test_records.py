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
    from dataclasses import dataclass
    from functools import cached_property

    @dataclass(frozen=True)
    class Row:
        minutes: float

        @cached_property
        def seconds(self) -> float:
            return self.minutes * 60

    row = Row(2.0)
    assert row.seconds == 120.0  # cached in the instance: a copy of it would carry the old answer
    with pytest.raises(TypeError, match="use dataclasses.replace"):
        evolve(row, minutes=1.0)


def test_a_claim_record_has_the_fields_every_list_of_them_names():
    from pipeline.records import CLAIM_FIELDS, CONTRACT_FIELDS, Claim
    from pipeline.run.batch import CSV_COLUMNS

    c = Claim(doc="a.txt", lang="en", sentence="s", start=0, end=1, text="1", kind="count", value=1, unit="count")
    assert tuple(c.to_contract()) == CLAIM_FIELDS
    assert set(CONTRACT_FIELDS) <= set(CLAIM_FIELDS)
    assert [x for x in CSV_COLUMNS if not x.startswith("entity_")] == [f for f in CLAIM_FIELDS if f != "entities"]
