"""The records: their written-out constructors, copy-with-changes (evolve: dataclasses.replace, faster), pickling."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

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


# The records' __init__ is written out (compiled, a generated one of a frozen dataclass runs interpreted):
# it must take every field, in the fields' order, with the declared defaults.  (Compiled records also check
# each value's type, so every sample value is of its field's type.)
RECORDS = ["Article", "Sentence", "Entities", "Claim", "ArticleError", "ArticleResult"]


def _record(name: str):
    import pipeline.records as records

    return getattr(records, name)


def _annotations(name: str) -> dict[str, str]:
    """The fields' annotations as records.py writes them (a compiled class keeps only the outer type)."""
    import ast

    import pipeline

    tree = ast.parse((Path(pipeline.__file__).parent / "records.py").read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name).body
    return {n.target.id: ast.unparse(n.annotation) for n in body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def _sample(annotation: str, i: int):
    """A value of its own (the i-th field's) of the annotated type."""
    from pipeline.records import ArticleError, Entities

    first = annotation.split(" | ")[0]
    if first.startswith("dict"):
        return {f"k{i}": (i, ())}
    if first.startswith("tuple"):
        return (f"t{i}",)
    return {"str": f"s{i}", "int": i, "float": i + 0.5, "Entities": Entities(org=f"org{i}"),
            "ArticleError": ArticleError(f"d{i}", "e", "x")}[first]


@pytest.mark.parametrize("name", RECORDS)
def test_a_record_takes_every_field_in_order(name: str):
    from dataclasses import fields

    cls = _record(name)
    types = _annotations(name)
    values = [_sample(types[f.name], i) for i, f in enumerate(fields(cls))]
    record = cls(*values)
    assert [getattr(record, f.name) for f in fields(cls)] == values


@pytest.mark.parametrize("name", RECORDS)
def test_a_record_has_its_declared_defaults(name: str):
    from dataclasses import MISSING, fields

    cls = _record(name)
    required = [f for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
    types = _annotations(name)
    record = cls(*[_sample(types[f.name], i) for i, f in enumerate(required)])
    for f in fields(cls):
        if f not in required:
            assert getattr(record, f.name) == (f.default if f.default is not MISSING else f.default_factory())


@pytest.mark.parametrize("field_name", list(Claim.__dataclass_fields__))
def test_evolve_changes_one_field_and_keeps_the_others(field_name: str):
    value = _sample(_annotations("Claim")[field_name], 99)
    new = evolve(CLAIM, **{field_name: value})
    for f in Claim.__dataclass_fields__:
        assert getattr(new, f) == (value if f == field_name else getattr(CLAIM, f))


def test_a_claim_copy_keeps_every_field():
    from pipeline.records import _copy_claim

    types = _annotations("Claim")
    claim = Claim(*[_sample(types[f], i) for i, f in enumerate(Claim.__dataclass_fields__)])
    copy = _copy_claim(claim)
    assert copy is not claim
    assert [getattr(copy, f) for f in Claim.__dataclass_fields__] == [
        getattr(claim, f) for f in Claim.__dataclass_fields__]


def test_a_result_with_its_claims_survives_pickling():
    import pickle

    from pipeline.records import Article, ArticleError, ArticleResult, Sentence

    result = ArticleResult(doc="a.txt", sha256="0" * 64, claims=(CLAIM, evolve(CLAIM, verdict="supported")),
                           error=ArticleError("a.txt", "timeout", "it took too long"), lang="zh",
                           dated={"date": "2020-07-29"}, problems=({"start": 1},), text="谷歌", shown={"title": "t"})
    for record in (result, Article("a.txt", "text", meta={"title": "t"}), Sentence("a.txt", 0, 0, 4, "text", "en")):
        again = pickle.loads(pickle.dumps(record))
        assert again == record and type(again) is type(record)
        assert [getattr(again, f) for f in type(record).__dataclass_fields__] == [
            getattr(record, f) for f in type(record).__dataclass_fields__]
