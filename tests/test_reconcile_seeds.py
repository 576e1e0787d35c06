"""On the founding articles: verdicts with evidence, the two discrepancy pairs as conflicts, scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.run.batch import run_batch
from pipeline.settings import Settings


@pytest.fixture(scope="module")
def seed_run(seeds, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("seeds")
    run_batch(seeds, out, Settings())
    return out


@pytest.fixture(scope="module")
def rows(seed_run):
    return [json.loads(line) for line in (seed_run / "claims.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    "text, verdict, official",
    [
        ("2.7倍", "supported", 2.70),
        ("提高了 1.7 倍", "supported", 2.70),
        ("四倍", "supported", 4.0),
        ("大三倍", "ambiguous", 4.0),
        ("23 秒", "supported", 23.57),
        ("超过430千万亿次（PFLOPs）", "supported", 4.3e17),
        ("不到 30 秒", "supported", None),
        ("近五个数量级", "supported", None),
        ("4096 块 TPU", "supported", 4096),
        ("超过 2000 块", "supported", 2048),
    ],
)
def test_key_verdicts(rows, text, verdict, official):
    hits = [r for r in rows if r["text"] == text]
    assert hits, text
    r = hits[0]
    assert r["verdict"] == verdict, r["explanation"]
    assert r["evidence"] and r["explanation"]
    if official is not None:
        assert abs(float(r["official"]) - official) <= 0.01 * official


def test_readings_are_named_in_explanations(rows):
    r = next(r for r in rows if r["text"] == "大三倍")
    assert "increased by N" in r["explanation"] and r["distortion"] == "n_vs_n_plus_1"


@pytest.mark.parametrize("pair", [("2.7倍", "提高了 1.7 倍"), ("四倍", "大三倍")])
def test_discrepancy_pairs_are_conflicts(seed_run, pair):
    conflicts = [json.loads(line) for line in (seed_run / "conflicts.jsonl").read_text(encoding="utf-8").splitlines()]
    k = next(k for k in conflicts if set(pair) <= {c["text"] for c in k["claims"]})
    assert k["cross_article"] and k["resolution"] and k["evidence"]
    assert all(f"\u201c{text}\u201d" in k["resolution"] for text in pair)  # each wording, said


def test_a_fact_is_one_conflict_however_many_wordings_differ(seed_run):
    conflicts = [json.loads(line) for line in (seed_run / "conflicts.jsonl").read_text(encoding="utf-8").splitlines()]
    keys = [(k["official"], tuple(sorted(k["evidence"]))) for k in conflicts]
    assert len(keys) == len(set(keys))
    assert all(not k["fact"].startswith("The claim allows") for k in conflicts)  # a name, not a verdict


@pytest.mark.parametrize("text", ["1000元", "5个", "1987年", "50个团队", "数十亿设备", "2000年1月1日"])
def test_ad_and_glossary_numbers_are_out_of_scope(rows, text):
    hits = [r for r in rows if r["text"] == text and r["doc"].startswith("001")]
    assert hits and all(r["verdict"] == "out_of_scope" for r in hits)
