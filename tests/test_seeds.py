"""The founding articles' key phrases come out as the issue states them."""

from __future__ import annotations

import pytest

from pipeline.ingest.read import read_article
from pipeline.run.process import Pipeline
from pipeline.settings import Settings

WEEK = 604800


@pytest.fixture(scope="module")
def seed_claims(seeds):
    pipe = Pipeline(Settings())
    out = []
    for path in sorted(seeds.glob("*.txt")):
        out.extend(pipe.process(read_article(path, seeds)).claims)
    return out


@pytest.mark.parametrize(
    "needle, kind, value, extra",
    [
        ("2.7倍", "ratio", 2.7, {"ratio_reading": "times_as"}),
        ("提高了 1.7 倍", "ratio", 1.7, {"ratio_reading": "increase_by"}),
        ("大三倍", "ratio", 3, {"ratio_reading": "ambiguous"}),
        ("四倍", "ratio", 4, {"ratio_reading": "times_as"}),
        ("超过430千万亿次（PFLOPs）", "compute", 4.3e17, {"bound": "lower"}),
        ("不到 30 秒", "duration", 30, {"bound": "upper"}),
        ("三个多星期", "duration", 3 * WEEK, {"bound": "lower"}),
        ("近五个数量级", "ratio", 1e5, {"bound": "approx"}),
        ("4096 块 TPU", "count", 4096, {"counted": "chip"}),
        ("六项", "count", 6, {"of_total": 8, "counted": "benchmark"}),
    ],
)
def test_key_phrase(seed_claims, needle, kind, value, extra):
    hits = [c for c in seed_claims if needle in c.text or c.text in needle and len(c.text) >= 2]
    assert hits, f"no claim for {needle!r}"
    ok = [c for c in hits if c.kind == kind and abs(float(c.value) - value) < 1e-6 * max(1, value)
          and all(getattr(c, k) == v for k, v in extra.items())]
    assert ok, [(c.text, c.kind, c.value, c.bound, c.ratio_reading, c.counted, c.of_total) for c in hits]


@pytest.mark.parametrize("not_a_claim", ["0.7-70", "v-.7", "TPU v3", "ResNet-50", "昇腾 910", "19:23"])
def test_seed_non_claims_stay_out(seed_claims, not_a_claim):
    assert not any(not_a_claim in c.text for c in seed_claims)


def test_a_board_size_is_a_dimension_never_a_result(seed_claims):
    board = [c for c in seed_claims if c.text == "19×19"]
    assert board and all(c.kind == "other" and c.verdict != "contradicted" for c in board)
