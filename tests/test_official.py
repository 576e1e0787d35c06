"""The shipped official tables: what they must say, and that the MLPerf logs in ../shared/mlperf give them.

The rebuild tests need ../shared/mlperf (they skip without it); everything else reads the shipped CSVs.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pipeline.official.logs import read_run
from pipeline.official.table import COLUMNS, RUN_COLUMNS, build_official, write_table

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "corpora" / "official"
MLPERF = Path(__file__).resolve().parents[2] / "shared" / "mlperf"
ROUNDS = {
    "training-v0.5": "training_results_v0.5",
    "training-v0.6": "training_results_v0.6",
    "training-v0.7": "training_results_v0.7",
    "training-v1.0": "training_results_v1.0",
}


@pytest.fixture(scope="module")
def mlperf() -> Path:
    if not MLPERF.is_dir():
        pytest.skip("../shared/mlperf (the MLPerf result logs) is not beside this checkout")
    return MLPERF


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return pd.concat([pd.read_csv(SHIPPED / f"{r}.csv") for r in ROUNDS], ignore_index=True)


def row(table: pd.DataFrame, record_id: str) -> pd.Series:
    hit = table[table["record_id"] == record_id]
    assert len(hit) == 1, f"{record_id}: {len(hit)} rows"
    return hit.iloc[0]


# --- the rebuild ------------------------------------------------------------------------------------


@pytest.mark.parametrize("round_id", list(ROUNDS))
def test_rebuilding_a_round_from_the_logs_gives_the_shipped_table(mlperf: Path, tmp_path: Path, round_id: str):
    build = build_official([mlperf / ROUNDS[round_id]])
    assert build.rounds == (round_id,)
    for name, frame, shipped in (
        ("table", build.table, SHIPPED / f"{round_id}.csv"),
        ("runs", build.runs, SHIPPED / "runs" / f"{round_id}.csv"),
    ):
        out = tmp_path / f"{name}.csv"
        write_table(frame, out)
        pd.testing.assert_frame_equal(pd.read_csv(out), pd.read_csv(shipped), check_exact=False, rtol=1e-9)


def test_a_partial_rebuild_gives_the_same_rows(mlperf: Path):
    # One submitter of one round: the quick check to run while editing the scorer.
    build = build_official([mlperf / ROUNDS["training-v0.7"]], workers=1, select=lambda bf: bf.submitter == "Google")
    shipped = pd.read_csv(SHIPPED / "training-v0.7.csv")
    shipped = shipped[shipped["submitter"] == "Google"].reset_index(drop=True)
    assert build.table["record_id"].tolist() == shipped["record_id"].tolist()
    assert build.table["minutes"].to_numpy() == pytest.approx(shipped["minutes"].to_numpy())


@pytest.mark.parametrize("round_id", list(ROUNDS))
def test_shipped_tables_read_with_plain_pandas(round_id: str):
    df = pd.read_csv(SHIPPED / f"{round_id}.csv")
    assert list(df.columns) == list(COLUMNS)
    assert list(pd.read_csv(SHIPPED / "runs" / f"{round_id}.csv").columns) == RUN_COLUMNS
    assert df["record_id"].is_unique
    assert set(df["round"]) == {round_id}
    assert df["record_id"].str.startswith(f"{round_id}/").all()
    assert (df["minutes"].isna() == (df["status"] == "no_score")).all()
    assert df.loc[df["status"] == "no_score", "warning"].str.startswith("no score: ").all()
    assert pd.api.types.is_float_dtype(df["minutes"])


def test_shipped_readme_names_sources_and_scorers():
    text = (SHIPPED / "README.md").read_text(encoding="utf-8")
    for needle in (
        "github.com/mlcommons/training_results_v0.7",
        "0a8a85a209c8e45b661596c382cc20f4e32fd2fe",
        "mlperf-logging 4.1.68",
        "round-rule (olympic mean)",
        "Built: ",
    ):
        assert needle in text


# --- what the table says ----------------------------------------------------------------------------

KNOWN = [
    # record, column, value  (minutes: the unrounded olympic mean; MLPerf publishes two decimals)
    ("training-v0.7/Google/tpu-v3-8192-TF/bert", "minutes", 0.39279),
    ("training-v0.7/Google/tpu-v3-8192-TF/bert", "seconds", 23.567),
    ("training-v0.7/Google/tpu-v3-8192-TF/bert", "runs_used", 8),
    ("training-v0.7/Google/tpu-v3-8192-TF/bert", "category", "research"),
    ("training-v0.7/Google/tpu-v3-8192-TF/bert", "framework", "tensorflow"),
    ("training-v0.7/Google/tpu-v3-8192-JAX/bert", "framework", "jax"),
    ("training-v0.6/Google/tpu-v3-2048/resnet", "category", "available"),  # status "cloud"
    ("training-v0.6/NVIDIA/dgx2h_n96_ngc19.05_mxnet/resnet", "category", "available"),  # status "onprem"
    ("training-v0.7/SIAT/modelarts_512_mindspore_close/resnet", "division", "closed"),  # key spelt "divison"
    ("training-v1.0/PCL/CloudBrainII_1024_mindspore_close/resnet", "division", "closed"),  # value "close"
    ("training-v0.7/DellEMC/4xC4140/resnet", "org", "dellemc"),
    ("training-v1.0/Dell/XE8545x4A100-SXM-80GB/bert", "org", "dellemc"),
    ("training-v1.0/PCL/CloudBrainII_1024_mindspore_close/resnet", "framework", "mindspore"),
    ("training-v0.6/Google/tpu-v3-128/maskrcnn", "benchmark", "maskrcnn"),  # folder "mask"
]


@pytest.mark.parametrize(("record_id", "column", "expected"), KNOWN)
def test_known_values(table: pd.DataFrame, record_id: str, column: str, expected: object):
    value = row(table, record_id)[column]
    if isinstance(expected, float):
        assert value == pytest.approx(expected, abs=1e-3)
    else:
        assert value == expected


CHIPS = [
    # TPU folder names count TensorCores (two per chip); v0.5 entries give the slice's core count.
    ("training-v0.5/google/cloud_v3.8/resnet-tpuv3-8/tpu/resnet", "tpu-v3", 4),
    ("training-v0.5/google/research_v3.32/ssd-tpuv3-32/tpu/ssd", "tpu-v3", 16),
    ("training-v0.5/google/research_v3.512/resnet-tpuv3-512/tpu/resnet", "tpu-v3", 256),
    ("training-v0.5/google/cloud_v2.512/resnet-tpuv2-512/tpu/resnet", "tpu-v2", 256),
    ("training-v0.6/Google/tpu-v3-32/resnet", "tpu-v3", 16),
    ("training-v0.6/Google/tpu-v3-128/resnet", "tpu-v3", 64),
    ("training-v0.6/Google/tpu-v3-2048/resnet", "tpu-v3", 1024),
    ("training-v0.7/Google/tpu-v3-1024-TF/gnmt", "tpu-v3", 512),
    ("training-v0.7/Google/tpu-v3-8192-TF/bert", "tpu-v3", 4096),
    ("training-v0.7/Google/tpu-v4-128-TF/bert", "tpu-v4", 64),
    ("training-v1.0/Google/tpu-v4-6912-TF/bert", "tpu-v4", 3456),
    # GPUs and CPUs: nodes x per node, whatever the description's shape
    ("training-v0.6/NVIDIA/dgx2h_n96_ngc19.05_mxnet/resnet", "v100", 1536),  # log-style lines, not JSON
    ("training-v0.6/Fujitsu/abci_2048xV100_mxnet/resnet", "v100", 2048),  # v0.5 "nodes" shape
    ("training-v0.6/Alibaba/sinian/resnet", "v100", 64),  # entry.json in the results folder
    ("training-v0.6/Intel/clx-8260l-2s-x32/minigo", "xeon-platinum-8260l", 64),  # "number of nodes"
    ("training-v0.7/DellEMC/4xC4140/resnet", "v100", 16),  # "number of nodes"
    ("training-v0.7/NVIDIA/dgxa100_n256_ngc20.06_pytorch/bert", "a100", 2048),
    ("training-v0.7/SIAT/modelarts_1024_tensorflow_open/resnet", "ascend-910", 1024),
]


@pytest.mark.parametrize(("record_id", "accelerator", "chips"), CHIPS)
def test_accelerator_counts(table: pd.DataFrame, record_id: str, accelerator: str, chips: int):
    r = row(table, record_id)
    assert (r["accelerator"], r["accelerator_count"]) == (accelerator, chips)


@pytest.mark.parametrize(
    ("round_id", "scorer"),
    [
        ("training-v0.5", "round-rule (olympic mean)"),  # the package has no v0.5 support
        ("training-v0.6", "round-rule (olympic mean)"),  # the package assumes ms; v0.6 logs are in s
        ("training-v0.7", "mlperf-logging 4.1.68"),
        ("training-v1.0", "mlperf-logging 4.1.68"),
    ],
)
def test_each_round_names_its_scorer(table: pd.DataFrame, round_id: str, scorer: str):
    assert set(table.loc[table["round"] == round_id, "scorer"]) == {scorer}


RULES = [
    # record, runs averaged, runs in the folder: the round's rule at work
    ("training-v0.5/nvidia/submission/dgx1_ngc18.11_pytorch/ncf", 48, 100),  # first 50 converged, then olympic
    ("training-v0.5/intel/intel_ncf_submission/skx8180/ncf", 48, 100),  # 55 of 100 converged
    ("training-v1.0/NVIDIA/dgxa100_ngc21.05_mxnet/unet3d", 32, 40),  # drop 4 + 4 of 40
    ("training-v1.0/NVIDIA/dgxa100_n13_ngc21.05_mxnet/unet3d", 32, 40),  # one failed: it is one of the 4 slowest
    ("training-v0.7/Google/tpu-v4-512-TF/gnmt", 8, 10),  # one failed run is the dropped slowest
    ("training-v0.6/Google/tpu-v3-1024/resnet", 3, 5),  # one aborted run, likewise
]


@pytest.mark.parametrize(("record_id", "used", "total"), RULES)
def test_round_rules_pick_the_runs(table: pd.DataFrame, record_id: str, used: int, total: int):
    r = row(table, record_id)
    assert (r["runs_used"], r["runs_total"], r["status"]) == (used, total, "scored")


def test_v06_minigo_scores_eval_result_not_run_stop(table: pd.DataFrame):
    # Intel's v0.6 MiniGo logs time the post-hoc evaluation too; eval_result's timestamp is the score.
    assert row(table, "training-v0.6/Intel/clx-8260l-2s-x32/minigo")["minutes"] == pytest.approx(14.43, abs=0.005)


def test_v06_minigo_reader_on_a_real_log(mlperf: Path):
    log = mlperf / "training_results_v0.6/Intel/results/clx-8260l-2s-x32/minigo/result_0.txt"
    by_rule = read_run(log, "result_0.txt", minigo_eval_result=True)
    by_stop = read_run(log, "result_0.txt")
    assert by_rule.seconds == pytest.approx(746.014)
    assert by_stop.seconds is not None and by_stop.seconds > 1900


NO_SCORE = [
    # record, what the warning must name
    ("training-v0.7/NVIDIA/dgxa100_n256_ngc20.06_pytorch/bert", "result_9.txt"),  # logs not in the snapshot
    ("training-v0.7/NVIDIA/dgxa100_n230_ngc20.06_mxnet/resnet", "missing from the snapshot"),
    ("training-v1.0/Dell/XE8545x4A100-SXM-80GB/bert", "9 of 10 result logs"),
    ("training-v0.7/Alibaba/a100-8/resnet", "200711025203744603517_1.log"),  # not result_*.txt, no description
    ("training-v1.0/Supermicro/as-2124gq-nart+/bert", "rejected by the compliance checker"),
    ("training-v1.0/Supermicro/as-4142gs-tnr/unet3d", "only 22 of the 40"),
    ("training-v0.6/NVIDIA/dgx1_n3_ngc19.05_tensorflow/minigo", "result_0.txt"),
]


@pytest.mark.parametrize(("record_id", "named"), NO_SCORE)
def test_missing_or_failed_logs_give_no_score_and_say_why(table: pd.DataFrame, record_id: str, named: str):
    r = row(table, record_id)
    assert r["status"] == "no_score"
    assert pd.isna(r["minutes"]) and pd.isna(r["minutes_recomputed"])
    assert named in r["warning"]


@pytest.mark.parametrize("round_id", ["training-v0.7", "training-v1.0"])
def test_package_scores_agree_with_the_round_rule_recomputation(table: pd.DataFrame, round_id: str):
    scored = table[(table["round"] == round_id) & (table["status"] == "scored")]
    assert len(scored) > 100
    rel = (scored["minutes_recomputed"] - scored["minutes"]).abs() / scored["minutes"]
    assert (rel < 1e-6).all(), scored.loc[rel >= 1e-6, "record_id"].tolist()


def test_v05_cluster_descriptions_are_flagged(table: pd.DataFrame):
    # v0.5 NVIDIA multi-node entries describe the whole cluster, not necessarily each run.
    r = row(table, "training-v0.5/nvidia/submission/dgx1_multi_ngc18.11_mxnet/resnet")
    assert r["accelerator_count"] == 1024
    assert "folder name does not confirm" in r["warning"]
