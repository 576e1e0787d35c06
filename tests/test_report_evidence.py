"""Evidence ids said in words and linked to the very logs a figure was computed from (#18)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pipeline.link import load_kb
from pipeline.official.canon import round_rules
from pipeline.official.query import OfficialResults
from pipeline.report.evidence import describe


@pytest.fixture(scope="module")
def official() -> OfficialResults:
    return OfficialResults(None)


@pytest.mark.parametrize("rid, says", [
    ("training-v0.7/Google/tpu-v3-8192-JAX/bert",
     ["Google's BERT-large result on 4,096 TPU v3 chips", "the 8,192 in its name counts cores, 2 per chip",
      "MLPerf Training v0.7"]),
    ("training-v0.6/Google/tpu-v3-1024/resnet", ["on 512 TPU v3 chips", "the 1,024 in its name counts cores"]),
    ("training-v0.5/nvidia/submission/dgx2h_ngc18.11_mxnet/resnet", ["NVIDIA's ResNet-50 result on 16 V100 chips",
                                                                    "70.01 min"]),
])
def test_a_result_is_said_in_words(official: OfficialResults, rid: str, says: list[str]) -> None:
    what = describe(official, load_kb(), [rid])[rid]["what"]
    assert all(s in what for s in says), what


def test_a_gpu_result_has_no_core_note(official: OfficialResults) -> None:
    rid = "training-v0.7/NVIDIA/selene_n256_ngc20.06_pytorch/bert"
    got = describe(official, load_kb(), [rid]).get(rid)
    assert got is None or "counts cores" not in got["what"]


def test_a_result_links_to_its_logs_at_the_snapshot_commit(official: OfficialResults) -> None:
    rid = "training-v0.7/Google/tpu-v3-8192-JAX/bert"
    url = describe(official, load_kb(), [rid])[rid]["url"]
    commit = round_rules()["training-v0.7"].commit
    assert url == f"https://github.com/mlcommons/training_results_v0.7/tree/{commit}/Google/results/tpu-v3-8192-JAX/bert"
    # the folder exists in the snapshot the tables were built from
    mlperf = Path(__file__).resolve().parents[2] / "shared" / "mlperf" / "training_results_v0.7"
    if mlperf.is_dir():
        assert (mlperf / "Google/results/tpu-v3-8192-JAX/bert").is_dir()


def test_every_shipped_result_has_a_link(official: OfficialResults) -> None:
    views = describe(official, load_kb(), [r.record_id for r in official.results])
    assert len(views) == len(official.results)
    assert all(v["url"] and re.match(r"https://github\.com/mlcommons/training_results_v[\d.]+/tree/[0-9a-f]{40}/",
                                     v["url"]) for v in views.values())


def test_statement_pages_and_rounds_are_said_too(official: OfficialResults) -> None:
    got = describe(official, load_kb(), ["https://mlcommons.org/en/news/mlperf-training-v07/", "training-v0.7"])
    assert got["https://mlcommons.org/en/news/mlperf-training-v07/"]["url"].startswith("https://mlcommons.org/")
    assert got["training-v0.7"]["what"] == "the round MLPerf Training v0.7"


def test_the_report_page_carries_each_evidence_once(tmp_path: Path) -> None:
    from pipeline.report import write_reports
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("Google trained BERT on 4,096 TPU v3 chips in 23 seconds.\n", encoding="utf-8")
    (src / "a.txt.meta.yaml").write_text("date: 2020-07-30\n", encoding="utf-8")
    run_batch(src, tmp_path / "out", Settings())
    write_reports(tmp_path / "out", src)
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', html, re.S).group(1))
    # a claim cites its evidence by index into the page's strings: each id is said once
    used = {data["strings"][e] for c in data["claims"] for e in c.get("evidence") or ()}
    assert used and used <= set(data["evidence"])
    assert len(data["strings"]) == len(set(data["strings"]))
    assert any("counts cores" in v["what"] for v in data["evidence"].values())
