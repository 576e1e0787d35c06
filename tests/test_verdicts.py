"""Verdict rules as tables: a claim's interval and reading against an official fact -> verdict, distortion."""

from __future__ import annotations

import pytest

from pipeline.reconcile.verdicts import (
    INVERTED,
    N_VS_N_PLUS_1,
    UNIT,
    WRONG_VALUE,
    Fact,
    judge,
)


def fact(value, low=None, high=None, maximum=None):
    low = value if low is None else low
    high = value if high is None else high
    return Fact(value, low, high, ("rec",), "test fact", maximum=maximum)


RATIOS = [
    # text, value, [low, high], reading, official -> verdict, distortion
    ("2.7倍 vs 2.70x", 2.7, 2.65, 2.75, "times_as", 2.70, "supported", None),
    ("提高了1.7倍 vs 2.70x (primary increase-by fits)", 1.7, 1.65, 1.75, "increase_by", 2.70, "supported", None),
    ("提升了2.7倍 meant as 2.7x (only the loose reading fits)", 2.7, 2.65, 2.75, "increase_by", 2.70, "ambiguous",
     N_VS_N_PLUS_1),
    ("大三倍 vs 4x (only the increase reading fits)", 3, 2.5, 3.5, "ambiguous", 4.0, "ambiguous", N_VS_N_PLUS_1),
    ("three times larger vs 3x (only the times reading fits)", 3, 2.5, 3.5, "ambiguous", 3.0, "ambiguous",
     N_VS_N_PLUS_1),
    ("四倍 vs 4x", 4, 3.5, 4.5, "times_as", 4.0, "supported", None),
    ("四倍 vs 3x is N vs N+1", 4, 3.5, 4.5, "times_as", 3.0, "contradicted", N_VS_N_PLUS_1),
    ("2.7x vs 0.37x is inverted", 2.7, 2.65, 2.75, "times_as", 1 / 2.7, "contradicted", INVERTED),
    ("5x vs 2.7x is just wrong", 5, 4.5, 5.5, "times_as", 2.7, "contradicted", WRONG_VALUE),
    ("more than 2x vs 2.24x", 2, 2, None, "times_as", 2.24, "supported", None),
    # a rise of at most one time over never fits as "at most 1x as much" (no rise at all)
    ("快了一倍 vs 1.04x", 1, 0.95, 1.05, "ambiguous", 1.04, "contradicted", N_VS_N_PLUS_1),
    ("快了近一倍 vs 1.9x (only the rise fits)", 1, 0.9, 1.0, "ambiguous", 1.9, "ambiguous", N_VS_N_PLUS_1),
    ("提高了一倍 vs 2.03x", 1, 0.95, 1.05, "increase_by", 2.03, "supported", None),
    ("提高了 0.5 倍 vs 0.5x", 0.5, 0.45, 0.55, "increase_by", 0.5, "contradicted", N_VS_N_PLUS_1),
]


@pytest.mark.parametrize("name, value, low, high, reading, official, verdict, distortion", RATIOS,
                         ids=[r[0] for r in RATIOS])
def test_ratio_verdicts(name, value, low, high, reading, official, verdict, distortion):
    j = judge(low, high, value, "x", fact(official), "ratio", reading)
    assert (j.verdict, j.distortion) == (verdict, distortion), j.explanation


QUANTITIES = [
    ("23 秒 vs BERT 0.39 min (23.1-23.7 s)", 23, 22.5, 23.5, "duration", "s", fact(23.57, 23.1, 23.7), "supported",
     None),
    ("23 seconds vs ResNet 0.47 min", 23, 22.5, 23.5, "duration", "s", fact(28.3, 27.9, 28.5), "contradicted",
     WRONG_VALUE),
    ("不到 30 秒 vs 28.3 s", 30, None, 30, "duration", "s", fact(28.3, 27.9, 28.5), "supported", None),
    ("under 33 s vs 32.8 s published 0.55 min", 33, None, 33, "duration", "s", fact(32.8, 32.7, 33.3), "supported",
     None),
    ("23 minutes vs 23.57 s is a unit error", 1380, 1350, 1410, "duration", "s", fact(23.57, 23.1, 23.7),
     "contradicted", UNIT),
    ("4096 chips vs 4096", 4096, 4096, 4096, "count", "count", fact(4096), "supported", None),
    ("more than 2,000 GPUs vs 2048", 2000, 2000, None, "count", "count", fact(2048), "supported", None),
    ("超过430 PFLOPs vs >430", 4.3e17, 4.3e17, None, "compute", "FLOP/s", fact(4.3e17), "supported", None),
]


@pytest.mark.parametrize("name, value, low, high, kind, unit, f, verdict, distortion", QUANTITIES,
                         ids=[q[0] for q in QUANTITIES])
def test_quantity_verdicts(name, value, low, high, kind, unit, f, verdict, distortion):
    j = judge(low, high, value, unit, f, kind)
    assert (j.verdict, j.distortion) == (verdict, distortion), j.explanation


MAXIMA = [
    ("up to 4,096 chips when the largest had 3,456", 4096, "count", fact(3456, maximum=3456), "contradicted"),
    ("up to 4,096 chips when the largest had 4,096", 4096, "count", fact(4096, maximum=4096), "supported"),
    ("高达 4 倍 vs a best benchmark of 4.17x", 4, "ratio", fact(3.0, 2.5, 3.1, maximum=4.17), "supported"),
]


@pytest.mark.parametrize("name, value, kind, f, verdict", MAXIMA, ids=[m[0] for m in MAXIMA])
def test_up_to_states_the_maximum(name, value, kind, f, verdict):
    j = judge(None, value, value, "count" if kind == "count" else "x", f, kind, "times_as" if kind == "ratio" else None,
              maximum_cue=True, half=0.5)
    assert j.verdict == verdict, j.explanation


@pytest.mark.parametrize(
    "claimed, official, verdict",
    [("2018-05", "2018-05-02", "supported"), ("2019-05", "2018-05-02", "contradicted"),
     ("2020-07-30", "2020-07-29", "supported"), ("2020-08-05", "2020-07-29", "contradicted")],
)
def test_dates_agree_to_the_precision_written(claimed, official, verdict):
    j = judge(None, None, claimed, "date", Fact(official, None, None, ("s",), "event"), "date")
    assert j.verdict == verdict


def test_explanations_show_the_arithmetic():
    f = Fact(4.0, 4.0, 4.0, ("a", "b"), "system size", derivation="4096 chips / 1024 chips = 4x")
    j = judge(2.5, 3.5, 3, "x", f, "ratio", "ambiguous")
    assert "4096 chips / 1024 chips" in j.explanation and "increased by N" in j.explanation


# A gain bounded from above is still a gain: its interval starts at no change, so a slower side (a ratio under 1)
# never bears it out, and "by up to 8%" has no "0.08 times as much" reading.
@pytest.mark.parametrize("reading, low, high, primary, secondary", [
    (None, None, 2.2, [("times_as", 1.0, 2.2)], []),                      # "up to 2.2 times"
    ("increase_by", None, 0.08, [("increase_by", 1.0, 1.08)], []),        # "by up to 8%"
    ("increase_by", None, 1.0, [("increase_by", 1.0, 2.0)], []),          # 快了不到一倍
    (None, 0.5, 0.5, [("times_as", 0.5, 0.5)], []),                       # "half the time": no bound, unchanged
])
def test_an_upper_bounded_gain_starts_at_no_change(reading, low, high, primary, secondary):
    from pipeline.reconcile.verdicts import readings

    assert readings(reading, low, high) == (primary, secondary)
