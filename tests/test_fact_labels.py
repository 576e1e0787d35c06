"""What a verdict says it checked is said in words (#18): the benchmark, company and round as the knowledge
base names them, never their ids ("bert", "training-v0.7", "habana"), each round said once when both sides
share it, and a plural name's possessive as English writes it."""

from __future__ import annotations

import re

import pytest

from pipeline.reconcile.context import possessive
from pipeline.run.process import check_text

IDS = re.compile(r"training-v\d|\b(?:bert|resnet|maskrcnn|minigo|dlrm|unet3d|rnnt|ssd|gnmt|nvidia|google|habana)\b")

CASES = [
    ("In MLPerf Training v0.7, the A100 trained BERT 2.4 times as fast as the V100 on eight chips.", "2.4 times",
     ["BERT-large speedup of A100 over V100 systems in MLPerf Training v0.7 at 8 chips", "per benchmark BERT-large"]),
    ("In MLPerf Training v0.7, Google trained BERT about twice as fast as NVIDIA.", "about twice",
     ["BERT-large: Google's fastest MLPerf Training v0.7 time vs NVIDIA's"]),
    ("NVIDIA's fastest ResNet-50 time in MLPerf Training v0.7 was 2 times faster than its best in the v0.6 round.",
     "2 times", ["ResNet-50: NVIDIA's fastest time of MLPerf Training v0.7 against MLPerf Training v0.6"]),
    ("NVIDIA set the fastest time on eight benchmarks in MLPerf Training v2.1.", "eight benchmarks",
     ["BERT-large", "3D U-Net"]),
    ("在 MLPerf Training v2.1 中，H100 训练 BERT 的速度是 A100 的 2.6 倍（8 块芯片）。", "2.6 倍",
     ["speedup of H100 over A100 systems in MLPerf Training v2.1 at 8 chips"]),
    ("In MLPerf Training v2.1, Habana's Gaudi2 trained ResNet-50 about as fast as NVIDIA's A100, 1.1 times.",
     "1.1 times", ["Habana Labs' fastest MLPerf Training v2.1 time"]),
]


@pytest.mark.parametrize("sentence, quote, says", CASES, ids=[c[1] for c in CASES])
def test_what_was_checked_is_said_in_words(sentence, quote, says):
    claim = next(c for c in check_text(sentence) if c.text == quote)
    assert all(s in claim.explanation for s in says), claim.explanation
    assert not IDS.search(claim.explanation), claim.explanation


@pytest.mark.parametrize("name, said", [("NVIDIA", "NVIDIA's"), ("Habana Labs", "Habana Labs'"),
                                        ("Google", "Google's"), ("AWS", "AWS's")])
def test_a_possessive_is_written_as_english_writes_it(name, said):
    assert possessive(name) == said


# A vendor's own statement is named by who said it and when, not by its row id in the statements table
def test_a_vendors_own_figure_is_named_by_who_and_when():
    claim = next(c for c in check_text("谷歌表示，TPU v4 的性能是 TPU v3 的 2.7 倍。") if c.text == "2.7 倍")
    assert "Google's own figure of 2020-07" in claim.explanation, claim.explanation
    assert not re.search(r"own figure \(", claim.explanation)


# A large figure is written out, as a reader writes it, not in exponent notation
@pytest.mark.parametrize("value, unit, said", [(117400.5, "x", "117,400x"), (1004000, "count", "1,004,000"),
                                               (1234567, "count", "1,235,000"), (2.647, "x", "2.647x"),
                                               (4096, "count", "4096"), (23.57, "s", "23.57 s")])
def test_a_large_figure_is_written_out(value, unit, said):
    from pipeline.reconcile.verdicts import fmt

    assert fmt(value, unit) == said
