"""The knowledge base for MLPerf Training v1.1-v5.1 (#20): the chips, systems, benchmarks, submitters and
frameworks of the later rounds are named in both languages as news writes them, generation names (Hopper,
Blackwell) are family mentions resolved from the article, task words name the benchmark the claim's round
ran, and each round's suite is the one MLCommons' own logging package allows.  The sentences are written
for this test."""

from __future__ import annotations

import pytest

from pipeline.link.kb import ID_RE, load_kb
from pipeline.link.recognize import recognize
from pipeline.run.process import check_text

# MLPerf keys with an underscore (llama2_70b_lora ...) are ids only once the loader's id pattern allows '_'
UNDERSCORE_IDS = bool(ID_RE.match("llama2_70b_lora"))
needs_underscore_ids = pytest.mark.skipif(
    not UNDERSCORE_IDS, reason="pipeline/link/kb.py ID_RE refuses '_' in ids (MLPerf keys such as dlrm_dcnv2)")


def _got(text: str) -> list[list[str]]:
    return [[m.type, m.id or f"family:{m.family}", m.text] for m in recognize(text)]


# ----------------------------------------------------------------------------------------- the ids

AGREED = {
    "accelerator": "h100 h200 b200 gb200 b300 gb300 gh200 l40s l40 l4 a30 a40 a10g rtx-a5000 rtx-4090 rtx-pro-6000 "
                   "tpu-v5e tpu-v5p tpu-v6e gaudi2 gaudi3 mi300x mi325x mi350x mi355x rx-7900-xtx ascend-910b",
    "org": "coreweave oracle lambda nebius cisco asustek quanta h3c iei xfusion krai mangoboost mitac wiwynn verda "
           "samsung mosaicml hazyresearch sustainable-metal-cloud clemson university-of-florida juniper ibm tinycorp "
           "ailiverse red-hat ctuning flexai scitix amd microsoft habana gigabyte",
    "system": "eos tpu-v5p-pod tpu-v5e-pod dgx-h100 dgx-b200 dgx-gb200-nvl72 gb300-nvl72 azure-nd-h100-v5",
    "benchmark": "retinanet gpt3 rgat flux1",
    "framework": "nemo megatron maxtext maxdiffusion pax dgl deepspeed tinygrad llmboost",
}
UNDERSCORE_BENCHMARKS = "dlrm_dcnv2 stable_diffusion llama2_70b_lora llama31_8b llama31_405b".split()


@pytest.mark.parametrize(("etype", "eid"), [(t, i) for t, ids in AGREED.items() for i in ids.split()])
def test_the_agreed_ids_of_the_later_rounds_are_in_the_kb(etype, eid):
    assert load_kb().get(etype, eid) is not None


@needs_underscore_ids
@pytest.mark.parametrize("eid", UNDERSCORE_BENCHMARKS)
def test_the_mlperf_keys_with_an_underscore_are_benchmarks(eid):
    assert load_kb().get("benchmark", eid) is not None


def _allowed_suites() -> dict[str, set[str]]:
    meta = pytest.importorskip("mlperf_logging.benchmark_meta")
    out = {}
    for ruleset in ("1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0", "5.1"):
        keys = set(meta._ALL_ALLOWED_BENCHMARKS["training"][ruleset])
        # the logging key `ssd` holds RetinaNet from 2.0 (its 34.0 mAP target), `gnn` is R-GAT in 4.x
        keys = {"rgat" if k == "gnn" else "retinanet" if k == "ssd" and ruleset != "1.1" else k for k in keys}
        out[f"training-v{ruleset}"] = keys
    return out


LATER_ROUNDS = ["training-v1.1", "training-v2.0", "training-v2.1", "training-v3.0", "training-v3.1", "training-v4.0",
                "training-v4.1", "training-v5.0", "training-v5.1"]


@pytest.mark.parametrize("round_id", LATER_ROUNDS)
def test_each_rounds_suite_is_the_one_mlperf_logging_allows(round_id):
    kb = load_kb()
    allowed = _allowed_suites()[round_id]
    if not UNDERSCORE_IDS:
        allowed = {k for k in allowed if "_" not in k}
    suite = {e.id for e in kb.entries["benchmark"].values() if round_id in (e.attrs.get("rounds") or [])}
    assert suite == allowed


def test_generation_names_are_families_of_their_chips():
    kb = load_kb()
    fams = {f: sorted(e.id for e in kb.members("accelerator", f))
            for f in ("hopper", "blackwell", "blackwell-ultra")}
    assert fams == {"hopper": ["gh200", "h100", "h200"], "blackwell": ["b200", "gb200"],
                    "blackwell-ultra": ["b300", "gb300"]}
    assert all(kb.get("accelerator", f).generic for f in fams)


@pytest.mark.parametrize(("chip", "previous"), [
    ("h200", "h100"), ("b200", "h100"), ("gb300", "gb200"), ("b300", "b200"), ("tpu-v6e", "tpu-v5e"),
    ("tpu-v5p", "tpu-v4"), ("mi325x", "mi300x"), ("mi355x", "mi325x"), ("gaudi2", "gaudi"), ("gaudi3", "gaudi2"),
])
def test_each_chip_follows_its_makers_previous_generation(chip, previous):
    assert load_kb().get("accelerator", chip).attrs["previous"] == previous


@pytest.mark.parametrize(("chip", "round_id", "submitters"), [
    # who entered a chip where its maker did not (or not alone), from the rounds' system descriptions
    ("h100", "training-v5.1", ["cisco"]),
    ("a100", "training-v4.0", ["juniper"]),
    ("l40s", "training-v3.1", ["xfusion"]),
    ("rx-7900-xtx", "training-v4.0", ["tinycorp"]),
    ("gb200", "training-v5.0", ["coreweave", "dellemc", "nvidia", "oracle", "supermicro"]),
])
def test_who_entered_a_chip_in_a_round(chip, round_id, submitters):
    assert load_kb().get("accelerator", chip).attr("submitters", round_id) == submitters


@pytest.mark.parametrize(("system", "round_id", "chips"), [
    ("eos", None, 10752), ("eos", "training-v4.0", 11616), ("dgx-gb200-nvl72", None, 72),
    ("gb300-nvl72", None, 72), ("tpu-v5p-pod", None, 8960), ("tpu-v5e-pod", None, 256), ("dgx-b200", None, 8),
    ("azure-nd-h100-v5", None, 8),
])
def test_system_sizes(system, round_id, chips):
    entry = load_kb().get("system", system)
    assert entry.attr("chips", round_id) == chips


# ----------------------------------------------------------------------------------------- names in text

MENTIONS = [
    ("Nvidia's Eos supercomputer, built from H100 GPUs, finished the GPT-3 175B test in under four minutes.",
     [["org", "nvidia", "Nvidia"], ["system", "eos", "Eos supercomputer"], ["accelerator", "h100", "H100 GPUs"],
      ["benchmark", "gpt3", "GPT-3 175B"]]),
    ("A GB200 NVL72 rack holds 72 Blackwell GPUs; its successor, the GB300 NVL72, is built on Blackwell Ultra.",
     [["system", "dgx-gb200-nvl72", "GB200 NVL72 rack"], ["accelerator", "family:blackwell", "Blackwell GPUs"],
      ["system", "gb300-nvl72", "GB300 NVL72"], ["accelerator", "family:blackwell-ultra", "Blackwell Ultra"]]),
    ("Hopper-based H200 parts and the older Hopper H100 both showed up, next to eight DGX B200 servers.",
     [["accelerator", "family:hopper", "Hopper-based"], ["accelerator", "h200", "H200"],
      ["accelerator", "h100", "Hopper H100"], ["system", "dgx-b200", "DGX B200 servers"]]),
    ("Google paired Trillium chips with a TPU v5p Pod, while a Cloud TPU v5e run used PAX.",
     [["org", "google", "Google"], ["accelerator", "tpu-v6e", "Trillium chips"],
      ["system", "tpu-v5p-pod", "TPU v5p Pod"], ["accelerator", "tpu-v5e", "Cloud TPU v5e"],
      ["framework", "pax", "PAX"]]),
    ("AMD entered the Instinct MI325X and the MI355X; MangoBoost and Krai brought MI300X machines.",
     [["org", "amd", "AMD"], ["accelerator", "mi325x", "Instinct MI325X"], ["accelerator", "mi355x", "MI355X"],
      ["org", "mangoboost", "MangoBoost"], ["org", "krai", "Krai"], ["accelerator", "mi300x", "MI300X"]]),
    ("Oracle, CoreWeave, Lambda and Nebius rent out clusters; Cisco, Wiwynn and MiTAC sell the servers.",
     [["org", "oracle", "Oracle"], ["org", "coreweave", "CoreWeave"], ["org", "lambda", "Lambda"],
      ["org", "nebius", "Nebius"], ["org", "cisco", "Cisco"], ["org", "wiwynn", "Wiwynn"],
      ["org", "mitac", "MiTAC"]]),
    ("RetinaNet, R-GAT and FLUX.1 were trained with PyTorch, DGL and NeMo.",
     [["benchmark", "retinanet", "RetinaNet"], ["benchmark", "rgat", "R-GAT"], ["benchmark", "flux1", "FLUX.1"],
      ["framework", "pytorch", "PyTorch"], ["framework", "dgl", "DGL"], ["framework", "nemo", "NeMo"]]),
    ("Habana Gaudi 2 accelerators and a Gaudi3 card were shown beside the first-generation Gaudi.",
     [["accelerator", "gaudi2", "Habana Gaudi 2"], ["accelerator", "gaudi3", "Gaudi3"],
      ["accelerator", "gaudi", "Gaudi"]]),
    ("Sustainable Metal Cloud, tiny corp and Juniper Networks were first-time submitters, as were Red Hat and "
     "Quanta Cloud Technology.",
     [["org", "sustainable-metal-cloud", "Sustainable Metal Cloud"], ["org", "tinycorp", "tiny corp"],
      ["org", "juniper", "Juniper Networks"], ["org", "red-hat", "Red Hat"],
      ["org", "quanta", "Quanta Cloud Technology"]]),
    ("英伟达的 Eos 超级计算机用上万块 H100 训练了 GPT-3。",
     [["org", "nvidia", "英伟达"], ["system", "eos", "Eos 超级计算机"], ["accelerator", "h100", "H100"],
      ["benchmark", "gpt3", "GPT-3"]]),
    ("谷歌的第六代 TPU 与 TPU v5p 芯片同场竞技，甲骨文和思科则提交了 H200 系统。",
     [["org", "google", "谷歌"], ["accelerator", "tpu-v6e", "第六代 TPU"],
      ["accelerator", "tpu-v5p", "TPU v5p 芯片"], ["org", "oracle", "甲骨文"], ["org", "cisco", "思科"],
      ["accelerator", "h200", "H200"]]),
    ("华硕、新华三、超聚变、云达科技、纬颖和神达都交了成绩，技钢也不例外。",
     [["org", "asustek", "华硕"], ["org", "h3c", "新华三"], ["org", "xfusion", "超聚变"],
      ["org", "quanta", "云达科技"], ["org", "wiwynn", "纬颖"], ["org", "mitac", "神达"], ["org", "gigabyte", "技钢"]]),
    ("在文生图和图神经网络两项测试里，GB200 NVL72 机架拔得头筹。",
     [["benchmark", "flux1", "文生图"], ["benchmark", "rgat", "图神经网络"],
      ["system", "dgx-gb200-nvl72", "GB200 NVL72 机架"]]),
    ("英特尔的 Gaudi 2 加速器和华为昇腾 910B 都追不上英伟达 Blackwell 架构。",
     [["org", "intel", "英特尔"], ["accelerator", "gaudi2", "Gaudi 2 加速器"], ["org", "huawei", "华为"],
      ["accelerator", "ascend-910b", "昇腾 910B"], ["org", "nvidia", "英伟达"],
      ["accelerator", "family:blackwell", "Blackwell 架构"]]),
    ("瞻博网络、红帽和三星之外，AMD 的 MI355X 加速器也是新面孔。",
     [["org", "juniper", "瞻博网络"], ["org", "red-hat", "红帽"], ["org", "samsung", "三星"],
      ["org", "amd", "AMD"], ["accelerator", "mi355x", "MI355X 加速器"]]),
    ("英伟达H100和英伟达GB300 NVL72都参加了大模型预训练。",
     [["org", "nvidia", "英伟达"], ["accelerator", "h100", "H100"], ["org", "nvidia", "英伟达"],
      ["system", "gb300-nvl72", "GB300 NVL72"], ["benchmark", "gpt3", "大模型预训练"]]),
]


@pytest.mark.parametrize(("text", "mentions"), MENTIONS, ids=[m[0][:40] for m in MENTIONS])
def test_later_round_names_are_recognised(text, mentions):
    assert _got(text) == mentions


UNDERSCORE_MENTIONS = [
    ("Llama 2 70B LoRA, Llama 3.1 405B and Llama 3.1 8B joined DLRM-DCNv2 and Stable Diffusion v2.",
     [["benchmark", "llama2_70b_lora", "Llama 2 70B LoRA"], ["benchmark", "llama31_405b", "Llama 3.1 405B"],
      ["benchmark", "llama31_8b", "Llama 3.1 8B"], ["benchmark", "dlrm_dcnv2", "DLRM-DCNv2"],
      ["benchmark", "stable_diffusion", "Stable Diffusion v2"]]),
    ("在 LoRA 微调一项中，MI325X 与 H200 不相上下。",
     [["benchmark", "llama2_70b_lora", "LoRA 微调"], ["accelerator", "mi325x", "MI325X"],
      ["accelerator", "h200", "H200"]]),
]


@needs_underscore_ids
@pytest.mark.parametrize(("text", "mentions"), UNDERSCORE_MENTIONS,
                         ids=[m[0][:40] for m in UNDERSCORE_MENTIONS])
def test_later_round_benchmarks_with_underscore_keys_are_recognised(text, mentions):
    assert _got(text) == mentions


NEAR_MISSES = [
    ("She shot it on a Canon EOS R5 while her AWS Lambda functions ran.", "a camera and Amazon's serverless service"),
    ("Models now reach a trillion parameters, and the field is in flux.",
     "trillion is not Trillium; flux is not FLUX.1"),
    ("An L4 autonomous car needed a memo and a demo.", "L4 driving automation; memo and demo are not NeMo"),
    ("佳能 EOS 相机和 L4 自动驾驶都与 MLPerf 无关。", "Canon's EOS and level-4 driving"),
]


@pytest.mark.parametrize(("text", "why"), NEAR_MISSES, ids=[m[1] for m in NEAR_MISSES])
def test_near_misses_of_later_round_names(text, why):
    assert not [m for m in _got(text) if m[0] != "org" or m[1] != "aws"], why


# ----------------------------------------------------------------------------------------- linked claims

# (article, date, claim, the entities it must carry)
CLAIMS = [
    ("英伟达用 11616 块 H100 GPU 训练 GPT-3，只用了 3.4 分钟。", "2024-06-13", "3.4 分钟",
     {"org": "nvidia", "accelerator": "h100", "benchmark": "gpt3", "round": "training-v4.0"}),
    ("NVIDIA's Eos ran the LLM pre-training benchmark on 10,752 GPUs.", "2023-11-09", "10,752 GPUs",
     {"org": "nvidia", "system": "eos", "accelerator": "h100", "benchmark": "gpt3", "round": "training-v3.1"}),
    # a task word names the benchmark the claim's round ran for that task
    ("在轻量级目标检测测试中，英伟达用时 1.4 分钟。", "2025-11-13", "1.4 分钟",
     {"benchmark": "retinanet", "round": "training-v5.1"}),
    ("文生图测试用时 12.5 分钟。", "2025-11-13", "12.5 分钟", {"benchmark": "flux1", "round": "training-v5.1"}),
    ("推荐系统测试用时 0.63 分钟。", "2021-12-02", "0.63 分钟", {"benchmark": "dlrm", "round": "training-v1.1"}),
    ("NVIDIA trained DLRM in 3.33 minutes.", "2020-07-30", "3.33 minutes",
     {"benchmark": "dlrm", "round": "training-v0.7"}),
    ("Google's TPU v5p slice of 6,144 chips trained GPT-3.", "2024-06-13", "6,144 chips",
     {"org": "google", "accelerator": "tpu-v5p", "benchmark": "gpt3", "round": "training-v4.0"}),
    # a generation name takes the chip of that generation the article named before
    ("NVIDIA brought the GB300 this time. Its Blackwell Ultra GPUs needed 5.2 minutes.", "2025-11-13",
     "5.2 minutes", {"org": "nvidia", "accelerator": "gb300", "round": "training-v5.1"}),
    ("超聚变用 8 块 L40S 交了成绩，用时 30 分钟。", "2023-11-09", "8 块",
     {"org": "xfusion", "accelerator": "l40s", "round": "training-v3.1"}),
]

UNDERSCORE_CLAIMS = [
    ("文生图测试用时 1.4 分钟。", "2024-06-13", "1.4 分钟",
     {"benchmark": "stable_diffusion", "round": "training-v4.0"}),
    ("推荐系统测试用时 0.71 分钟。", "2025-11-13", "0.71 分钟", {"benchmark": "dlrm_dcnv2", "round": "training-v5.1"}),
    # "DLRM" is read like a task word: DLRM-DCNv2 from v3.0
    ("NVIDIA trained DLRM in 0.71 minutes.", "2025-11-13", "0.71 minutes",
     {"benchmark": "dlrm_dcnv2", "round": "training-v5.1"}),
    ("AMD's MI325X finished the LLM fine-tuning test in 21.75 minutes.", "2025-06-05", "21.75 minutes",
     {"org": "amd", "accelerator": "mi325x", "benchmark": "llama2_70b_lora", "round": "training-v5.0"}),
    ("在 v5.1 里，大模型预训练一项用 5120 块 GPU 只花了 10 分钟。", "2025-11-13", "10 分钟",
     {"benchmark": "llama31_405b", "round": "training-v5.1"}),
]


def _claim(text: str, date: str, claim_text: str):
    claims = [c for c in check_text(text, date=date) if c.text == claim_text]
    assert claims, [c.text for c in check_text(text, date=date)]
    return claims[0]


@pytest.mark.parametrize(("text", "date", "claim_text", "want"), CLAIMS, ids=[c[2] for c in CLAIMS])
def test_later_round_claims_link_to_their_entities(text, date, claim_text, want):
    entities = _claim(text, date, claim_text).entities
    assert {k: getattr(entities, k) for k in want} == want


@needs_underscore_ids
@pytest.mark.parametrize(("text", "date", "claim_text", "want"), UNDERSCORE_CLAIMS,
                         ids=[c[2] for c in UNDERSCORE_CLAIMS])
def test_later_round_claims_link_to_benchmarks_with_underscore_keys(text, date, claim_text, want):
    entities = _claim(text, date, claim_text).entities
    assert {k: getattr(entities, k) for k in want} == want
