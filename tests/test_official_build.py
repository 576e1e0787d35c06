"""Building official tables from small results trees written here, one per round format.

Each tree is a few synthetic logs in the round's own line format (MLLOG for v0.7, MLL for v0.6,
MLPv0.5.0 for v0.5), laid out like the public training_results_v0.X repositories.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import OfficialTableError
from pipeline.official import build_official, build_official_table, official_build_command, write_table

T0_MS = 1_594_939_332_624  # a July 2020 time stamp, in ms as v0.7 logs write them
T0_S = 1_560_000_000.0  # a June 2019 time stamp, in s as v0.5/v0.6 logs write them

# --- writers for each round's format ---------------------------------------------------------------


def _mllog(t: int, key: str, value: object = None, **meta: object) -> str:
    meta = {"lineno": 1, "file": "train.py", **meta}
    return ":::MLLOG " + json.dumps({"namespace": "", "time_ms": t, "key": key, "value": value, "metadata": meta})


def dlrm_v07_log(start_ms: int, minutes: float, converged: bool = True) -> str:
    """A v0.7 DLRM log with the keys the package's compliance checker requires."""
    t, end = start_ms, start_ms + 1001 + int(minutes * 60_000)
    lines = [
        _mllog(t, "cache_clear", True),
        _mllog(t + 1, "init_start"),
        _mllog(t + 2, "global_batch_size", 55296),
        _mllog(t + 3, "train_samples", 4195197692),
        _mllog(t + 4, "eval_samples", 89137318),
        _mllog(t + 5, "opt_base_learning_rate", 24.0),
        _mllog(t + 6, "sgd_opt_base_learning_rate", 24.0),
        _mllog(t + 7, "sgd_opt_learning_rate_decay_poly_power", 2),
        _mllog(t + 8, "sgd_opt_learning_rate_decay_steps", 27772),
        _mllog(t + 9, "lr_decay_start_steps", 49315),
        _mllog(t + 10, "opt_learning_rate_warmup_steps", 2750),
        _mllog(t + 1000, "init_stop"),
        _mllog(t + 1001, "run_start"),
        _mllog(t + 1002, "block_start", first_epoch_num=1, epoch_count=1),
        _mllog(t + 1003, "eval_start", epoch_num=1),
        _mllog(end - 30, "eval_stop", epoch_num=1),
        _mllog(end - 20, "block_stop", first_epoch_num=1),
        _mllog(end - 10, "eval_accuracy", 0.803 if converged else 0.70, epoch_num=1),
        _mllog(end, "run_stop", status="success" if converged else "aborted"),
    ]
    for key, value in [
        ("platform", "box"),
        ("benchmark", "dlrm"),
        ("status", "onprem"),
        ("org", "Acme"),
        ("division", "closed"),
    ]:
        lines.append(_mllog(0, f"submission_{key}", value, lineno=0, file="N/A"))
    return "\n".join(lines) + "\n"


def mll_v06_log(start_s: float, minutes: float, status: str = "success", eval_result_s: float | None = None) -> str:
    """A v0.6 log (`:::MLL <seconds> key: {...}`), with a rank prefix as NVIDIA's logs have."""
    stop = start_s + minutes * 60.0
    lines = [f'0: :::MLL {start_s:.3f} run_start: {{"value": null, "metadata": {{"file": "t.py", "lineno": 1}}}}']
    if eval_result_s is not None:  # MiniGo: the score is eval_result's timestamp, after run_start
        lines.append(
            f':::MLL {stop:.3f} eval_result: {{"value": null, "metadata": {{\'timestamp\': {eval_result_s}}}}}'
        )
    lines.append(f'0: :::MLL {stop:.3f} run_stop: {{"value": null, "metadata": {{"status": "{status}"}}}}')
    return "\n".join(lines) + "\n"


def mlp_v05_log(start_s: float, minutes: float, success: bool = True) -> str:
    stop = start_s + minutes * 60.0
    return (
        f":::MLPv0.5.0 resnet {start_s:.6f} (main.py:1) run_start\n"
        f"INFO:mlperf_compliance::::MLPv0.5.0 resnet {stop - 1:.6f} (main.py:2) eval_accuracy: "
        f'{{"epoch": 60, "value": 0.75}}\n'
        f':::MLPv0.5.0 resnet {stop:.6f} (main.py:3) run_stop: {{"success": {"true" if success else "false"}}}\n'
    )


def v07_tree(root: Path, minutes: Sequence[float | None], system_json: str | None = None) -> Path:
    """training_results_v0.7/Acme with one system `box` and one DLRM folder; None = a failed run."""
    rnd = root / "training_results_v0.7"
    bench = rnd / "Acme" / "results" / "box" / "dlrm"
    bench.mkdir(parents=True)
    (rnd / "Acme" / "systems").mkdir(parents=True)
    for i, m in enumerate(minutes):
        (bench / f"result_{i}.txt").write_text(dlrm_v07_log(T0_MS + i * 10**7, m or 3.0, converged=m is not None))
    if system_json is None:
        system_json = json.dumps(
            {
                "submitter": "Acme",
                "division": "closed",
                "status": "onprem",
                "system_name": "box",
                "number_of_nodes": "2",
                "accelerators_per_node": "8",
                "accelerator_model_name": "NVIDIA A100-SXM4-40GB",
                "host_processors_per_node": "2",
                "host_processor_model_name": "AMD EPYC 7742",
                "framework": "PyTorch NVIDIA Release 20.06",
            }
        )
    (rnd / "Acme" / "systems" / "box.json").write_text(system_json)
    return rnd


# --- v0.7: the package's scorer ----------------------------------------------------------------------

V07_SCORES = [
    # minutes per run (None: did not converge), expected score
    pytest.param([2.0, 2.1, 2.2, 2.3, 2.4], 2.2, id="olympic-mean-of-five"),
    pytest.param([2.0, 2.1, 2.2, 2.3, None], 2.2, id="a-failed-run-is-the-dropped-slowest"),
    pytest.param([2.0, 2.1, 2.2, None, None], None, id="two-failed-runs-no-score"),
    pytest.param([2.0, 2.1, 2.2], None, id="fewer-runs-than-the-rules-require"),
]


@pytest.mark.parametrize(("minutes", "expected"), V07_SCORES)
def test_v07_tree_is_scored_by_the_package(tmp_path: Path, minutes: list[float | None], expected: float | None):
    row = build_official_table([v07_tree(tmp_path, minutes)]).iloc[0]
    assert row["record_id"] == "training-v0.7/Acme/box/dlrm"
    assert row["scorer"].startswith("mlperf-logging ")
    assert (row["accelerator"], row["accelerator_count"], row["org"]) == ("a100", 16, "acme")
    if expected is None:
        assert pd.isna(row["minutes"]) and row["status"] == "no_score"
        assert row["warning"].startswith("no score: ")
    else:
        assert row["minutes"] == pytest.approx(expected, abs=1e-4)
        assert row["seconds"] == pytest.approx(expected * 60, abs=1e-2)
    if None in minutes:
        assert f"result_{minutes.index(None)}.txt" in row["warning"]


SYSTEM_QUIRKS = [
    # description text, expected (division, category, accelerator_count), expected in note/warning
    (
        '{"divison": "closed", "status": "onprem", "number_of_nodes": "1", "accelerators_per_node": "8",'
        ' "accelerator_model_name": "NVIDIA A100", "framework": "MXNet",}',
        ("closed", "available", 8),
        "trailing commas",
    ),
    (
        '{"division": "close", "status": "research", "number of nodes": "4", "accelerators_per_node": "8",'
        ' "accelerator_model_name": "Ascend910", "framework": "mindspore"}',
        ("closed", "research", 32),
        "",
    ),
]


@pytest.mark.parametrize(("text", "expected", "remark"), SYSTEM_QUIRKS)
def test_published_description_quirks_are_read(tmp_path: Path, text: str, expected: tuple, remark: str):
    row = build_official_table([v07_tree(tmp_path, [2.0, 2.1, 2.2, 2.3, 2.4], text)]).iloc[0]
    assert (row["division"], row["category"], row["accelerator_count"]) == expected
    assert row["status"] == "scored"
    assert remark in str(row["note"])


def test_malformed_system_description_gives_no_score_and_names_the_file(tmp_path: Path):
    row = build_official_table([v07_tree(tmp_path, [2.0, 2.1, 2.2, 2.3, 2.4], '{"division": "closed", oops')]).iloc[0]
    assert row["status"] == "no_score" and pd.isna(row["minutes"])
    assert "Acme/systems/box.json" in row["warning"]


def test_logs_the_manifest_lists_as_missing_give_no_score_and_are_named(tmp_path: Path):
    rnd = v07_tree(tmp_path, [2.0, 2.1, 2.2, 2.3])
    (tmp_path / "MANIFEST.csv").write_text(
        "round,path,submitter,system,benchmark_dir,status\n"
        "0.7,Acme/results/box/dlrm/result_0.txt,Acme,box,dlrm,trimmed_level1\n"
        "0.7,Acme/results/box/dlrm/result_4.txt,Acme,box,dlrm,missing_in_snapshot\n"
        "0.7,Acme/results/big/bert/result_0.txt,Acme,big,bert,missing_in_snapshot\n"
    )
    table = build_official_table([rnd]).set_index("record_id")
    assert (
        "1 of 5 result logs are missing from the snapshot: result_4.txt"
        in table.loc["training-v0.7/Acme/box/dlrm", "warning"]
    )
    # a folder with every log missing still gets its row, so that the system is known to exist
    big = table.loc["training-v0.7/Acme/big/bert"]
    assert big["status"] == "no_score" and "result_0.txt" in big["warning"]


# --- v0.6 and v0.5: the round's rule ----------------------------------------------------------------


def test_v06_tree_is_scored_by_the_round_rule_in_seconds(tmp_path: Path):
    rnd = tmp_path / "training_results_v0.6"
    (rnd / "Google" / "systems").mkdir(parents=True)
    (rnd / "Google" / "systems" / "tpu-v3-128.json").write_text(
        json.dumps(
            {
                "submitter": "Google",
                "division": "closed",
                "status": "cloud",
                "system_name": "tpu-v3",
                "number_of_nodes": "1",
                "accelerators_per_node": "64",
                "accelerator_model_name": "tpu-v3",
                "framework": "TensorFlow 1.14",
            }
        )
    )
    res = rnd / "Google" / "results" / "tpu-v3-128"
    (res / "mask").mkdir(parents=True)
    for i, m in enumerate([50.0, 52.0, 54.0, 56.0, 58.0]):
        (res / "mask" / f"result_{i}.txt").write_text(mll_v06_log(T0_S + i * 10**5, m))
    (res / "minigo").mkdir()
    for i in range(10):  # run_stop would say 60 min; eval_result says 20 + i
        (res / "minigo" / f"result_{i}.txt").write_text(
            mll_v06_log(T0_S + i * 10**5, 60.0, eval_result_s=(20 + i) * 60)
        )
    table = build_official_table([rnd]).set_index("benchmark")
    assert table.loc["maskrcnn", "minutes"] == pytest.approx(54.0)  # folder "mask" is maskrcnn
    assert table.loc["minigo", "minutes"] == pytest.approx(24.5)  # mean of 21..28
    assert set(table["scorer"]) == {"round-rule (olympic mean)"}
    assert set(table["accelerator_count"]) == {64}


def test_v06_log_style_system_description(tmp_path: Path):
    rnd = tmp_path / "training_results_v0.6"
    (rnd / "NVIDIA" / "systems").mkdir(parents=True)
    entry = {
        "framework": "MXNet NVIDIA Release 19.05",
        "nodes": str({"accelerator": "Tesla V100-SXM3-32GB-H", "num_accelerators": "16", "num_nodes": "4"}),
    }
    (rnd / "NVIDIA" / "systems" / "dgx2h_n4.json").write_text(
        'division: {"metadata": {"lineno": 1}, "value": "closed"}\n'
        'status: {"metadata": {"lineno": 2}, "value": "onprem"}\n'
        f"entry: {json.dumps({'metadata': {}, 'value': str(entry)})}\n"
    )
    bench = rnd / "NVIDIA" / "results" / "dgx2h_n4" / "ssd"
    bench.mkdir(parents=True)
    for i, m in enumerate([4.0, 4.1, 4.2, 4.3, 4.4]):
        (bench / f"result_{i}.txt").write_text(mll_v06_log(T0_S + i * 10**5, m, "aborted" if i == 4 else "success"))
    row = build_official_table([rnd]).iloc[0]
    assert (row["accelerator"], row["accelerator_count"], row["host_count"]) == ("v100", 64, 4)
    assert row["minutes"] == pytest.approx(4.2)  # mean of 4.1, 4.2, 4.3: 4.0 and the aborted run dropped
    assert "result_4.txt" in row["warning"]
    assert "MLPerf-log-style" in row["note"]


def test_v05_tree_counts_tpu_cores_as_half_as_many_chips(tmp_path: Path):
    rnd = tmp_path / "training_results_v0.5"
    res = rnd / "v0.5.0" / "acme" / "research_v3.32" / "resnet-tpuv3-32" / "results" / "tpu"
    (res / "resnet").mkdir(parents=True)
    (res / "entry.json").write_text(
        json.dumps(
            {
                "division": "closed",
                "status": "research",
                "framework": "TensorFlow 1.12",
                "nodes": [{"num_nodes": 2, "accelerator": "tpuv3-32", "num_accelerators": 32}],
            }
        )
    )
    for i, m in enumerate([60.0, 61.0, 62.0, 63.0, 64.0]):
        (res / "resnet" / f"result_{i}.txt").write_text(mlp_v05_log(T0_S + i * 10**5, m))
    row = build_official_table([rnd]).iloc[0]
    assert row["record_id"] == "training-v0.5/acme/research_v3.32/resnet-tpuv3-32/tpu/resnet"
    assert (row["accelerator"], row["accelerator_count"], row["category"]) == ("tpu-v3", 16, "research")
    assert row["minutes"] == pytest.approx(62.0)


# --- the command and the files ------------------------------------------------------------------------


def test_build_command_writes_tables_runs_and_readme(tmp_path: Path):
    rnd = v07_tree(tmp_path / "in", [2.0, 2.1, 2.2, 2.3, 2.4])
    summary = official_build_command([rnd], tmp_path / "out")
    assert "1 official records (1 scored, 0 without a score)" in summary
    assert pd.read_csv(tmp_path / "out" / "training-v0.7.csv")["minutes"].iloc[0] == pytest.approx(2.2)
    assert len(pd.read_csv(tmp_path / "out" / "runs" / "training-v0.7.csv")) == 5
    assert "mlperf-logging" in (tmp_path / "out" / "README.md").read_text()
    single = tmp_path / "all.csv"
    official_build_command([rnd], single)
    assert len(pd.read_csv(single)) == 1


def test_write_table_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "t.csv"
    write_table(pd.DataFrame({"a": [1]}), path)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", broken)
    with pytest.raises(OSError):
        write_table(pd.DataFrame({"a": [2]}), path)
    assert pd.read_csv(path)["a"].tolist() == [1]  # the old table is intact
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]  # and no temporary file is left


def test_a_folder_that_names_no_round_is_refused(tmp_path: Path):
    (tmp_path / "results").mkdir()
    with pytest.raises(OfficialTableError, match="training_results_v0.7"):
        build_official([tmp_path])
