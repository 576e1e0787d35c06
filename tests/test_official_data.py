"""The official module's data files (canon.yaml, rounds.yaml): they validate, and they say what we mean."""

from __future__ import annotations

from pathlib import Path

import pytest
from mlperf_logging.benchmark_meta import get_allowed_benchmarks, get_result_file_counts

from pipeline.errors import DataFileError
from pipeline.official.canon import canon, load_canon, load_round_rules, round_rules, rule_for_folder

CANON_FILE = Path(__file__).resolve().parents[1] / "pipeline" / "official" / "canon.yaml"


def test_shipped_data_files_load():
    # every round of ../shared/mlperf (v2.0's logs are not in it: its figures come as statements)
    assert canon().accelerators and set(round_rules()) == {
        "training-v0.5", "training-v0.6", "training-v0.7", "training-v1.0", "training-v1.1", "training-v2.1",
        "training-v3.0", "training-v3.1", "training-v4.0", "training-v4.1", "training-v5.0", "training-v5.1",
    }


@pytest.mark.parametrize(("round_id", "ruleset"), [("training-v0.7", "0.7"), ("training-v1.0", "1.0"),
                                                   ("training-v3.1", "3.1"), ("training-v5.1", "5.1")])
def test_run_counts_agree_with_the_package(round_id: str, ruleset: str):
    counts = get_result_file_counts("training")
    rule = round_rules()[round_id]  # a folder name that means another benchmark in the round (ssd: RetinaNet)
    assert rule.runs == {rule.benchmark_id(b): counts[b] for b in get_allowed_benchmarks("training", ruleset)}


@pytest.mark.parametrize(
    ("folder", "round_id"),
    [("training_results_v0.5", "training-v0.5"), ("training_results_v1.0", "training-v1.0"), ("results", None)],
)
def test_round_from_folder_name(folder: str, round_id: str | None):
    rule = rule_for_folder(folder)
    assert (rule.round if rule else None) == round_id


ACCELERATORS = [
    # accelerator field, system name, folder -> id
    ("TPU v3", "TPU v3-8192", "tpu-v3-8192-TF", "tpu-v3"),
    ("TPU", "tpu-v4-128", "tpu-v4-128-TF", "tpu-v4"),  # v0.7/v1.0 write just "TPU"
    ("tpuv2-8", "tpuv2-8", "cloud_v2.8/resnet-tpuv2-8/tpu", "tpu-v2"),
    ("NVIDIA A100-SXM4-40GB (400W)", "dgxa100_n8", "dgxa100_n8_ngc20.06_mxnet", "a100"),
    ("Tesla V100-SXM3-32GB-H", "96xNVIDIA DGX-2H", "dgx2h_n96_ngc19.05_mxnet", "v100"),
    ("Nvidia Tesla V100S-PCIe-32GB", "DSS8440", "DSS8440", "v100"),
    ("Ascend910", "modelarts_512_0", "modelarts_512_mindspore_close", "ascend-910"),
    ("Ascend 910 Pro A", "CloudBrainII_256", "CloudBrainII_256_mindspore_close", "ascend-910"),
    ("Graphcore IPU GC200", "IPU-POD16", "ipu-pod16-TF1", "ipu"),
]


@pytest.mark.parametrize(("model", "name", "folder", "expected"), ACCELERATORS)
def test_accelerator_ids(model: str, name: str, folder: str, expected: str):
    found = canon().accelerator(f"{model} {name} {folder}")
    assert found is not None and found.id == expected


@pytest.mark.parametrize(
    ("cpu", "expected"),
    [
        # the 83xxH parts are Cooper Lake: one id for both spellings submitters used
        ("Intel(R) Xeon(R) Platinum 8380H CPU @ 2.90GHz", "xeon-cooper-lake"),
        ("Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", "xeon-platinum-8180"),
        ("Pre-released Intel® Xeon Scalable processor codenamed Cooper Lake-6", "xeon-cooper-lake"),
    ],
)
def test_cpu_ids(cpu: str, expected: str):
    assert canon().cpu(cpu) == expected


@pytest.mark.parametrize(
    ("framework", "expected"),
    [
        ("TensorFlow 1.14 commit hash = faf9db515c", ("tensorflow",)),
        ("research-tf", ("tensorflow",)),
        ("tf2.0", ("tensorflow",)),
        ("JAX", ("jax",)),
        ("Merlin HugeCTR with NVIDIA DL Frameworks", ("hugectr",)),
        ("NGC MXNet 20.06 , NGC PyTorch 20.06", ("pytorch", "mxnet")),
        ("Mindspore v1.2.1", ("mindspore",)),
        ("TenorFLow 2.2", ("tensorflow",)),  # as published by Intel in v0.7
    ],
)
def test_framework_ids(framework: str, expected: tuple[str, ...]):
    assert canon().frameworks_of(framework) == expected


@pytest.mark.parametrize(
    ("status", "category"),
    [
        ("cloud", "available"),
        ("onprem", "available"),
        ("on-premise", "available"),
        ("Preview", "preview"),
        ("research", "research"),
        ("unknown", None),
    ],
)
def test_categories(status: str, category: str | None):
    assert canon().category(status) == category


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (("  closed: [closed, close]", "  closed: [closed, close, open]"), "given for"),  # one spelling, two ids
        (("pattern: 'gaudi'", "pattern: 'gaudi('"), "broken pattern"),
        (("no_accelerator:", "no_accelerators:"), "unknown keys"),
    ],
)
def test_broken_canon_file_names_file_and_key(tmp_path: Path, edit: tuple[str, str], problem: str):
    text = CANON_FILE.read_text(encoding="utf-8")
    assert edit[0] in text
    bad = tmp_path / "canon.yaml"
    bad.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    with pytest.raises(DataFileError, match=problem) as err:
        load_canon(bad)
    assert str(bad) in str(err.value)


def test_broken_rounds_file_names_the_round(tmp_path: Path):
    bad = tmp_path / "rounds.yaml"
    bad.write_text("training-v9.9:\n  folder: x\n  layout: v0.5\n  time_unit: s\n  scorer: guess\n  runs: {}\n")
    with pytest.raises(DataFileError, match="training-v9.9.scorer"):
        load_round_rules(bad)
