"""The linking rules, each pinned by a table of real sentences from the corpora: tests/cases/link/<lang>/
rules.yaml (article excerpt, hand-made claims, expected entity ids), plus the KB facts the rules read."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_link_attach import make_claim, split_article

from pipeline.lang.yamlio import read_yaml
from pipeline.link import infer
from pipeline.link.attach import link_claims
from pipeline.link.kb import load_kb
from pipeline.records import ENTITY_TYPES, Claim

CASES = Path(__file__).parent / "cases" / "link"
RULES = {"count-names-machine", "submitter", "blocks", "clause-owned-round", "round-cues", "year-round",
         "clause-continuation", "bound-is-no-baseline", "after-ratio-of", "count-of-one", "ignore", "anaphora",
         "ratio-past-date"}


def _cases() -> list:
    out = []
    for path in sorted(CASES.glob("*/rules.yaml")):
        for n, case in enumerate(read_yaml(path) or []):
            for k, spec in enumerate(case["claims"]):
                marks = [pytest.mark.xfail(reason=spec["xfail"], strict=True)] if spec.get("xfail") else []
                name = f"{case['rule']}:{path.parent.name}:{n}.{k}:{spec['text']}"
                out.append(pytest.param(path, n, k, id=name, marks=marks))
    return out


_linked: dict[tuple[str, int], list[Claim]] = {}


def _claim(doc: str, text: str, sents: list, spec: dict[str, Any]) -> Claim:
    c = make_claim(doc, text, sents, spec)
    return replace(c, bound_cue=spec.get("bound_cue"))


def _link(path: Path, n: int) -> tuple[dict[str, Any], list[Claim]]:
    case = (read_yaml(path) or [])[n]
    key = (str(path), n)
    if key not in _linked:
        doc = f"{path.parent.name}/rules{n}.txt"
        sents = split_article(doc, case["article"])
        claims = [_claim(doc, case["article"], sents, spec) for spec in case["claims"]]
        _linked[key] = link_claims(sents, claims, case.get("meta") or {}, load_kb())
    return case, _linked[key]


@pytest.mark.parametrize(("path", "n", "k"), _cases())
def test_rule_case(path, n, k):
    case, linked = _link(path, n)
    assert case["rule"] in RULES, f"case error: unknown rule {case['rule']!r}"
    want = case["claims"][k]["expect"]
    got = linked[k]
    ents = got.entities.as_dict()
    for t, v in (want.get("entities") or {}).items():
        assert t in ENTITY_TYPES, f"case error: unknown entity type {t}"
        assert ents[t] == v, f"{t}: got {ents[t]!r}, want {v!r} (all: {ents})"
    if "compared_to" in want:
        assert got.compared_to == want["compared_to"]


def test_every_rule_has_cases():
    seen = {case["rule"] for path in CASES.glob("*/rules.yaml") for case in read_yaml(path) or []}
    assert seen == RULES


@pytest.mark.parametrize(("year", "rid"), [(2018, "training-v0.5"), ("2020", "training-v0.7"), ("2015", None),
                                           ("1999", None), ("2019-07", "training-v0.6"), ("2018-05", None),
                                           ("2021", None), ("2024", None)])  # two rounds a year from 2021 on
def test_a_year_alone_is_the_round_of_that_year(year, rid):
    assert load_kb().round_in_month(str(year)) == rid


@pytest.mark.parametrize(("year", "after", "rid"), [
    ("2021", "training-v0.7", "training-v1.0"),  # "the next round is expected in 2021", written in 2020
    ("2024", "training-v3.1", "training-v4.0"),
    ("2022", "training-v0.7", None),  # two years on: a forecast ("below 10 seconds by 2022"), no round
    ("2021", "training-v1.0", None),  # from within 2021 either of its rounds
    ("2021", "training-v2.0", None),  # looking back: either
])
def test_a_year_of_two_rounds_seen_from_before_it_is_its_first(year, after, rid):
    assert load_kb().round_in_month(year, after=after) == rid


@pytest.mark.parametrize(
    ("count", "rounds", "acc", "org", "want"),
    [(4096, ["training-v0.7"], "tpu-v3", None, ["google-ml-supercomputer"]),
     (4096, ["training-v0.7"], None, "google", ["google-ml-supercomputer"]),
     (4096, ["training-v1.0"], None, None, ["tpu-v4-pod"]),
     (1024, ["training-v0.6"], "tpu-v3", None, ["cloud-tpu-v3-pod"]),
     (1024, ["training-v0.7"], None, None, []),  # Google's v0.7 entries had 512, 2,048 and 4,096 chips
     (2048, ["training-v0.7"], "a100", None, ["dgx-superpod", "selene"]),
     (1536, ["training-v0.6"], "v100", None, ["dgx-superpod"]),
     (8, ["training-v0.7"], "a100", None, []),  # a DGX A100 is a product, not a machine of a round
     (4096, ["training-v0.7"], "a100", None, []),
     (4096.5, ["training-v0.7"], None, None, [])])
def test_systems_with_chips(count, rounds, acc, org, want):
    assert sorted(infer.systems_with_chips(load_kb(), count, rounds, acc, org)) == sorted(want)


@pytest.mark.parametrize(
    ("org", "acc", "rnd", "want"),
    [("huawei", "ascend-910", "training-v0.7", "siat"), (None, "ascend-910", "training-v0.7", "siat"),
     ("huawei", "ascend-910", "training-v1.0", "pcl"), ("huawei", "ascend-910", None, "huawei"),
     ("google", "tpu-v3", "training-v0.7", "google"), ("inspur", "a100", "training-v0.7", "inspur"),
     ("nvidia", "ascend-910", "training-v0.7", "nvidia")])  # an org that is not the maker stays
def test_org_is_the_rounds_submitter_of_the_chip(org, acc, rnd, want):
    assert infer.submitter(load_kb(), org, acc, rnd) == want
