"""The official tables of MLPerf Training v1.1 to v5.1 (#20): what they must say, and that a sample of their
scores comes out the same when recomputed from the logs in ../shared/mlperf another way.

The recomputation reads run_start/run_stop with mlperf-logging's own parser (not the table's log reader),
applies the olympic rule by hand and multiplies by the folder's scaling.json; it skips without the logs.
Everything else reads the shipped CSVs.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd
import pytest
from mlperf_logging.benchmark_meta import get_allowed_benchmarks, get_result_file_counts

from pipeline.official.canon import round_rules
from pipeline.official.table import COLUMNS, RUN_COLUMNS
from pipeline.official.validate import REQUIRED, read_rows

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "corpora" / "official"
MLPERF = Path(__file__).resolve().parents[2] / "shared" / "mlperf"
LATER = ["training-v1.1", "training-v2.1", "training-v3.0", "training-v3.1", "training-v4.0", "training-v4.1",
         "training-v5.0", "training-v5.1"]
SAMPLE_PER_ROUND = 3


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return pd.concat([pd.read_csv(SHIPPED / f"{r}.csv") for r in LATER], ignore_index=True)


@pytest.fixture(scope="module")
def mlperf() -> Path:
    if not MLPERF.is_dir():
        pytest.skip("../shared/mlperf (the MLPerf result logs) is not beside this checkout")
    return MLPERF


def row(table: pd.DataFrame, record_id: str) -> pd.Series:
    hit = table[table["record_id"] == record_id]
    assert len(hit) == 1, f"{record_id}: {len(hit)} rows"
    return hit.iloc[0]


# --- published figures ------------------------------------------------------------------------------

PUBLISHED = [
    # record, chips, minutes as published (two decimals unless the source rounds further), tolerance
    # EE Times, 2023-06-26 (MLPerf Training v3.0): CoreWeave/NVIDIA, 3,584 H100, GPT-3 in 10.94 minutes
    ("training-v3.0/NVIDIA_CoreWeave/coreweave_hgxh100_n448_ngc23.04_pytorch/gpt3", 3584, 10.94, 0.005),
    # NVIDIA technical blog, MLPerf Training v4.0 (2024-06-12): 11,616 H100, GPT-3 175B in 3.44 minutes
    ("training-v4.0/NVIDIA/eos-dfw_n1452_ngc24.04_nemo/gpt3", 11616, 3.44, 0.005),
    # NVIDIA, MLPerf Training v5.1 (2025-11-12): Llama 3.1 405B in 10 minutes on 5,120 Blackwell (GB200) GPUs
    ("training-v5.1/NVIDIA/hsg_ngpu5120_ngc25.09_nemo/llama31_405b", 5120, 10.0, 0.05),
    # ... and 18.79 minutes on 2,560 GB200 GPUs
    ("training-v5.1/NVIDIA/hsg_ngpu2560_ngc25.09_nemo/llama31_405b", 2560, 18.79, 0.005),
    # ... Llama 3.1 8B in 5.2 minutes on 512 Blackwell Ultra (GB300) GPUs; FLUX.1 in 12.5 minutes on 1,152 GPUs
    ("training-v5.1/NVIDIA/theia_ngpu512_ngc25.09_nemo/llama31_8b", 512, 5.2, 0.05),
    ("training-v5.1/NVIDIA/hsg_ngpu1152_ngc25.09_nemo/flux1", 1152, 12.5, 0.05),
    # NVIDIA, MLPerf Training v3.1 (2023-11-08; engadget, dailyai): Eos, 10,752 H100, GPT-3 in 3.9 minutes,
    # BERT-Large in 7.2 seconds (3,472 GPUs), RetinaNet 55.2 s, Stable Diffusion 2.5 min on 1,024 GPUs
    ("training-v3.1/NVIDIA/eos-dfw_n1344_ngc23.09_nemo/gpt3", 10752, 3.9, 0.05),
    ("training-v3.1/NVIDIA/eos_n434_ngc23.09_pytorch/bert", 3472, 7.2 / 60, 0.05 / 60),
    ("training-v3.1/NVIDIA/eos_n256_ngc23.09_pytorch/retinanet", 2048, 55.2 / 60, 0.05 / 60),
    ("training-v3.1/NVIDIA/eos_n128_ngc23.09_nemo_mm/stable_diffusion", 1024, 2.5, 0.05),
    # Intel, MLPerf Training v4.0 (2024-06-12): 1,024 Gaudi 2, GPT-3 in 66.9 minutes
    ("training-v4.0/Intel-HabanaLabs/HLS-Gaudi2-N128-PT/gpt3", 1024, 66.9, 0.05),
]


@pytest.mark.parametrize(("record_id", "chips", "minutes", "tolerance"), PUBLISHED)
def test_published_figures(table: pd.DataFrame, record_id: str, chips: int, minutes: float, tolerance: float):
    r = row(table, record_id)
    assert r["status"] == "scored" and r["accelerator_count"] == chips
    assert abs(r["minutes"] - minutes) <= tolerance


# --- what the tables say ----------------------------------------------------------------------------

KNOWN = [
    # record, column, value
    ("training-v3.0/NVIDIA_CoreWeave/coreweave_hgxh100_n448_ngc23.04_pytorch/gpt3", "org", "nvidia"),
    ("training-v3.1/Azure+NVIDIA/ND_H100_v5_n1344_pytorch/gpt3", "org", "microsoft"),
    ("training-v5.0/IBM+CoreWeave+NVIDIA/carina_ngpu2048_ngc25.04_nemo/llama31_405b", "org", "coreweave"),
    ("training-v4.0/Intel-HabanaLabs/HLS-Gaudi2-N128-PT/gpt3", "org", "habana"),
    ("training-v4.0/smc/64xSMC-H100-SXM-80GB/llama2_70b_lora", "org", "sustainable-metal-cloud"),
    ("training-v5.1/Verda/b200_8x8_ngc25.09/llama31_8b", "org", "verda"),
    # TPU v5p names count TensorCores, two per chip; v5e and Trillium names count chips
    ("training-v4.0/Google/cloud-tpu-v5p-12288-maxtext/gpt3", "accelerator_count", 6144),
    ("training-v4.0/Google/cloud-tpu-v5p-12288-maxtext/gpt3", "accelerator", "tpu-v5p"),
    ("training-v3.1/Google/cloud-tpu-v5e-4096-PAX/gpt3", "accelerator_count", 4096),
    ("training-v4.1/Google/cloud-tpu-trillium-3072-maxtext/gpt3", "accelerator", "tpu-v6e"),
    ("training-v4.1/Google/cloud-tpu-trillium-3072-maxtext/gpt3", "accelerator_count", 3072),
    # the v3.0-v4.1 `ssd` folders hold RetinaNet; v4.x `gnn` is R-GAT
    ("training-v3.1/NVIDIA/eos_n256_ngc23.09_pytorch/retinanet", "source",
     "NVIDIA/results/eos_n256_ngc23.09_pytorch/ssd"),
    ("training-v4.1/NVIDIA/eos_n64_ngc24.09_dgl/rgat", "source", "NVIDIA/results/eos_n64_ngc24.09_dgl/gnn"),
    ("training-v4.1/NVIDIA/eos_n64_ngc24.09_dgl/rgat", "framework", "dgl"),
    ("training-v5.1/NVIDIA/theia_ngpu512_ngc25.09_nemo/llama31_8b", "accelerator", "gb300"),
    ("training-v5.1/NVIDIA/tyche_ngpu512_ngc25.09_nemo/llama31_8b", "accelerator", "gb200"),
    ("training-v4.1/NVIDIA/h200_ngc24.09_nemo/llama2_70b_lora", "accelerator", "h200"),
    ("training-v1.1/Google/tpu-v4-4096-TF/bert", "division", "open"),
    ("training-v4.1/NVIDIA/b200_preview_pytorch/bert", "category", "preview"),
    # gpt3: three runs, the score is the middle one
    ("training-v3.0/NVIDIA_CoreWeave/coreweave_hgxh100_n448_ngc23.04_pytorch/gpt3", "runs_used", 1),
]


@pytest.mark.parametrize(("record_id", "column", "expected"), KNOWN)
def test_known_values(table: pd.DataFrame, record_id: str, column: str, expected: object):
    assert row(table, record_id)[column] == expected


@pytest.mark.parametrize(("record_id", "earlier"), [
    ("training-v4.1/NVIDIA/eos-dfw_n1452_ngc24.04_nemo/gpt3", "training-v4.0/NVIDIA/eos-dfw_n1452_ngc24.04_nemo/gpt3"),
    ("training-v4.1/NVIDIA/eos_n434_ngc23.09_pytorch/bert", "training-v3.1/NVIDIA/eos_n434_ngc23.09_pytorch/bert"),
    ("training-v4.0/NVIDIA/eos_n434_ngc23.09_pytorch/bert", "training-v3.1/NVIDIA/eos_n434_ngc23.09_pytorch/bert"),
])
def test_republished_results_name_the_folder_that_measured_them(table: pd.DataFrame, record_id: str, earlier: str):
    assert f"republished: the runs (run_start/run_stop) of {earlier}" in row(table, record_id)["note"]
    assert record_id in row(table, earlier)["note"]  # "runs published again in ..."


def test_republished_counts_per_round(table: pd.DataFrame):
    # shared/mlperf/README.md: 132 folders of v3.0 ... v5.1 repeat runs of an earlier round, 43 of them in v3.0
    again = table[table["note"].fillna("").str.contains("republished: ", regex=False)]
    counts = again.groupby("round").size().to_dict()
    assert sum(counts.values()) == 132 and counts["training-v3.0"] == 43
    assert not {"training-v1.1", "training-v2.1"} & set(counts)


def test_checker_fallback_folders(table: pd.DataFrame):
    # shared/mlperf/README.md: the current checker rejects more runs than the rule drops in 117 folders
    # (v1.1 BERT, ResNet, MiniGo, UNet3D, DLRM; all 40 v2.1 BERT folders; one v3.0 BERT folder)
    ruled = table[table["scorer"] == "round-rule (olympic mean)"]
    assert ruled.groupby("round").size().to_dict() == {"training-v1.1": 76, "training-v2.1": 40, "training-v3.0": 1}
    assert set(ruled[ruled["round"] != "training-v1.1"]["benchmark"]) == {"bert"}
    assert ruled["note"].str.contains("compliance checker rejects").all()


@pytest.mark.parametrize("round_id", LATER)
def test_shipped_tables_have_the_columns_and_ids(round_id: str):
    df = pd.read_csv(SHIPPED / f"{round_id}.csv")
    assert list(df.columns) == list(COLUMNS)
    assert list(pd.read_csv(SHIPPED / "runs" / f"{round_id}.csv").columns) == RUN_COLUMNS
    assert set(df["round"]) == {round_id} and df["record_id"].is_unique
    assert (df["minutes"].isna() == (df["status"] == "no_score")).all()
    assert set(df["benchmark"]) <= set(round_rules()[round_id].runs)  # no `ssd` for RetinaNet, no `gnn`
    assert df["accelerator"].notna().all()
    assert set(df["division"]) <= {"closed", "open"} and set(df["category"]) <= {"available", "preview", "research"}


@pytest.mark.parametrize("round_id", LATER)
def test_run_counts_agree_with_the_package(round_id: str):
    rule = round_rules()[round_id]
    counts = get_result_file_counts("training")
    allowed = get_allowed_benchmarks("training", rule.version)
    assert rule.runs == {rule.benchmark_id(b): counts[b] for b in allowed}


def test_later_tables_load_for_the_checker():
    # The checker reads every shipped table strictly: each benchmark id must be a knowledge-base id.
    from pipeline.official import OfficialResults
    from pipeline.official.validate import known_ids

    used = set().union(*(set(pd.read_csv(SHIPPED / f"{r}.csv")["benchmark"]) for r in LATER))
    assert used - known_ids()["benchmark"] == set(), "benchmark ids the knowledge base (pipeline/lang/kb) lacks"
    for round_id in LATER:
        assert len(read_rows(SHIPPED / f"{round_id}.csv", REQUIRED)) == len(pd.read_csv(SHIPPED / f"{round_id}.csv"))
    official = OfficialResults()
    fastest = official.fastest("gpt3", "training-v4.0")
    assert fastest is not None and fastest.record_id == "training-v4.0/NVIDIA/eos-dfw_n1452_ngc24.04_nemo/gpt3"
    largest = official.largest_system("tpu-v5p", "training-v4.0")
    assert largest is not None and largest.accelerator_count == 6144


# --- recomputed from the logs -----------------------------------------------------------------------


def _stamps(log: Path, ruleset: str) -> tuple[float, float, bool]:
    """(run_start, run_stop in ms, converged) read with mlperf-logging's parser, as its summarizer takes them."""
    from mlperf_logging.compliance_checker.mlp_parser import parse_file

    lines, _ = parse_file(str(log), ruleset=ruleset)
    start = stop = None
    status = ""
    for line in lines:
        if line.key == "run_start" and stop is None:
            start = line.timestamp
        elif line.key == "run_stop" and stop is None and start is not None:
            stop = line.timestamp
            status = str((line.value.get("metadata") or {}).get("status", ""))
    assert start is not None and stop is not None, log
    return start, stop, status == "success"


def _olympic_minutes(folder: Path, ruleset: str, drop: int) -> float:
    times, failed = [], 0
    for log in sorted(folder.glob("result_*.txt")):
        start, stop, ok = _stamps(log, ruleset)
        if ok:
            times.append(stop - start)
        else:
            failed += 1
    times.sort()
    kept = times[drop : len(times) - (drop - failed)]
    scaling = folder / "scaling.json"
    factor = json.loads(scaling.read_text())["scaling_factor"] if scaling.is_file() else 1.0
    return sum(kept) / len(kept) / 60000.0 * factor


def _sample() -> list[str]:
    """A few scored records per round, drawn with a fixed seed from those without runs that failed (where the
    package counts a run its checker rejects as a dropped one, the plain rule differs by design)."""
    picked = []
    for round_id in LATER:
        df = pd.read_csv(SHIPPED / f"{round_id}.csv")
        ok = df[(df["status"] == "scored") & (df["runs_failed"] == 0)]
        ok = ok[ok["runs_total"] <= 10]  # unet3d's 40 logs are recomputed once, below
        picked += random.Random(round_id).sample(sorted(ok["record_id"]), SAMPLE_PER_ROUND)
    return picked


RECOMPUTED = [
    *_sample(),
    "training-v3.0/NVIDIA_CoreWeave/coreweave_hgxh100_n448_ngc23.04_pytorch/gpt3",
    "training-v4.0/Google/cloud-tpu-v5p-12288-maxtext/gpt3",  # scaled (scaling.json)
    "training-v2.1/NVIDIA/dgxa100_n512_ngc22.04_pytorch/bert",  # scored by the round rule (checker fallback)
    "training-v3.1/NVIDIA/eos_n96_ngc23.04_mxnet/unet3d",  # 40 runs, 4 dropped at each end
]


@pytest.mark.parametrize("record_id", RECOMPUTED)
def test_scores_recomputed_from_the_logs(mlperf: Path, table: pd.DataFrame, record_id: str):
    r = row(table, record_id)
    rule = round_rules()[r["round"]]
    folder = mlperf / rule.folder / r["source"]
    minutes = _olympic_minutes(folder, str(rule.ruleset), rule.drop_count(r["benchmark"]))
    assert r["minutes"] == pytest.approx(minutes, rel=1e-7)  # the round rule reads stamps as float seconds


def test_a_partial_rebuild_gives_the_shipped_rows(mlperf: Path):
    # Two republished NVIDIA folders of v4.1 through the table's own code path: a build of one round still
    # names the earlier rounds' folders (it scans the round folders beside it).
    from pipeline.official.table import build_official

    systems = {"eos-dfw_n1452_ngc24.04_nemo", "eos_n434_ngc23.09_pytorch"}
    build = build_official([mlperf / "training_results_v4.1"], workers=1,
                           select=lambda bf: bf.submitter == "NVIDIA" and bf.system in systems)
    shipped = pd.read_csv(SHIPPED / "training-v4.1.csv")
    shipped = shipped[shipped["record_id"].isin(build.table["record_id"])].reset_index(drop=True)
    assert len(shipped) == len(build.table) == 2
    assert build.table["minutes"].to_numpy() == pytest.approx(shipped["minutes"].to_numpy())
    assert build.table["note"].tolist() == shipped["note"].tolist()


# A framework that implements some benchmarks only (HugeCTR the recommenders, DGL the GNN) is not what the
# other benchmarks of a system description listing it with others ran on.
@pytest.mark.parametrize("framework, raw, benchmark, expected", [
    ("hugectr", "Tensorflow, MxNet, pytorch, hugectr", "bert", "pytorch;mxnet;tensorflow"),
    ("hugectr", "Tensorflow, MxNet, pytorch, hugectr", "dlrm_dcnv2", "hugectr"),
    ("pytorch;dgl", "NVIDIA Release 24.09 pytorch, dgl", "llama2_70b_lora", "pytorch"),
    ("pytorch;dgl", "NVIDIA Release 24.09 pytorch, dgl", "rgat", "pytorch;dgl"),
    ("hugectr", "HugeCTR", "bert", None),
])
def test_a_framework_of_some_benchmarks_only(framework, raw, benchmark, expected):
    from pipeline.official.canon import canon

    assert canon().framework_for(framework, raw, benchmark) == expected


def test_no_shipped_record_names_a_framework_that_does_not_run_its_benchmark(table: pd.DataFrame):
    frameworks = table["framework"].fillna("").str.split(";")
    wrong = table[[("hugectr" in f and b not in ("dlrm", "dlrm_dcnv2")) or ("dgl" in f and b != "rgat")
                   for f, b in zip(frameworks, table["benchmark"], strict=True)]]
    assert wrong.empty, wrong["record_id"].head().tolist()
