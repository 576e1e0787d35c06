"""The knowledge base: every file validates, a broken file names itself and the key, and adding an
entity or an alias is a data-file change only."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from pipeline.errors import DataFileError
from pipeline.link.attach import link_claims
from pipeline.link.kb import ENTITY_FILES, KB_DIR, KB_TYPES, alias_key, fold, load_kb
from pipeline.link.recognize import recognize
from pipeline.records import Claim, Sentence


@pytest.fixture()
def kb_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "kb"
    shutil.copytree(KB_DIR, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test error: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("fname", [*ENTITY_FILES, "linking.yaml"])
def test_every_kb_file_validates_and_records_its_source(fname):
    kb = load_kb()
    assert kb.sources[fname].strip()
    if fname in ENTITY_FILES:
        assert kb.entries[ENTITY_FILES[fname]], f"{fname} holds no entries"


def test_kb_is_cached():
    assert load_kb() is load_kb()
    assert load_kb(KB_DIR) is load_kb()


CONTRACT_IDS = {
    "org": "google nvidia huawei intel alibaba inspur fujitsu dellemc tencent siat pcl baidu amd microsoft aws",
    "accelerator": "tpu-v2 tpu-v3 tpu-v4 a100 v100 ascend-910",
    "system": "dgx-a100 dgx-1 dgx-2h dgx-superpod selene cloud-tpu-v3-pod tpu-v4-pod google-ml-supercomputer",
    "round": "training-v0.5 training-v0.6 training-v0.7 training-v1.0",
    "category": "available preview research",
    "framework": "tensorflow jax pytorch mxnet lingvo mindspore paddle",
    "benchmark": "resnet bert ssd maskrcnn gnmt transformer dlrm minigo ncf",
}


@pytest.mark.parametrize(("etype", "eid"), [(t, i) for t, ids in CONTRACT_IDS.items() for i in ids.split()])
def test_contract_ids_are_in_the_kb(etype, eid):
    assert load_kb().get(etype, eid) is not None


LOOKUPS = """
谷歌 org google | 輝達 org nvidia | 辉达 org nvidia | 英偉達 org nvidia | TPU V3 accelerator tpu-v3
第三代TPU accelerator tpu-v3 | 昇腾 910 accelerator ascend-910 | 昇腾910 accelerator ascend-910
第三批 round training-v0.7 | third round round training-v0.7 | MLPerf Training v0.7 round training-v0.7
v0.7 round training-v0.7 | 市售 category available | 轻量级目标检测 benchmark ssd | 重量级目标检测 benchmark maskrcnn
图像分割 benchmark maskrcnn | 循环翻译 benchmark gnmt | 非循环翻译 benchmark transformer | NLP benchmark bert
推荐系统 benchmark dlrm | 围棋 benchmark minigo | Mini-go benchmark minigo | 图像分类 benchmark resnet
"""


@pytest.mark.parametrize("line", [x.strip() for x in LOOKUPS.replace("\n", "|").split("|") if x.strip()])
def test_lookup(line):
    alias, etype, eid = line.rsplit(" ", 2)
    hit = load_kb().lookup(alias)
    assert hit is not None and (hit.type, hit.id) == (etype, eid)


def test_rounds_by_date():
    kb = load_kb()
    assert [r.id for r in kb.rounds][:4] == ["training-v0.5", "training-v0.6", "training-v0.7", "training-v1.0"]
    assert kb.round_in_month("2018-12") == "training-v0.5"
    assert kb.round_in_month("2015") is None
    assert kb.round_on("2020-08-03") == "training-v0.7"
    assert kb.previous_round("training-v0.7") == "training-v0.6"
    assert kb.previous_round("training-v0.5") is None
    assert kb.get("system", "dgx-superpod").attr("accelerator", "training-v0.6") == "v100"
    assert kb.get("system", "dgx-superpod").attr("accelerator", "training-v0.7") == "a100"


@pytest.mark.parametrize("text", ["輝達與華為的昇騰910晶片", "ＴＰＵ　ｖ３，ＢＥＲＴ", "plain", "…emoji 🚀 ß"])
def test_fold_keeps_length(text):
    """Offsets in folded text are offsets in the original (CONTRACT: offsets refer to the decoded text)."""
    assert len(fold(text)) == len(text)


def test_alias_key_ignores_spacing_and_case():
    assert alias_key("TPU v3") == alias_key("tpuV3")
    assert alias_key("BERT", cased=True) != alias_key("Bert", cased=True)


# --------------------------------------------------------------------------------------- broken files

BREAKS = [
    # (file, old, new, words the message must hold)
    ("orgs.yaml", "  - id: fujitsu\n", "  - id: fujitsu\n    colour: red\n", ["orgs.yaml", "fujitsu.colour"]),
    ("orgs.yaml", "      en: [Fujitsu]", "      en: [Fujitsu, Tencent]",
     ["orgs.yaml", "fujitsu", "Tencent", "tencent"]),
    ("benchmarks.yaml", "      zh: [推荐系统,", "      zh: [图像分类, 推荐系统,",
     ["benchmarks.yaml", "dlrm", "图像分类"]),
    ("accelerators.yaml", "  - id: tpu-v2\n    family: tpu\n", "  - family: tpu\n",
     ["accelerators.yaml", "entries[", ".id"]),
    ("systems.yaml", "    accelerator: tpu-v3\n    chips: 1024", "    accelerator: tpu-v9\n    chips: 1024",
     ["systems.yaml", "cloud-tpu-v3-pod.accelerator", "tpu-v9"]),
    ("rounds.yaml", '    date: "2019-07-10"', '    date: "July 2019"', ["rounds.yaml", "training-v0.6.date"]),
    ("frameworks.yaml", "source: >-", "sauce: >-", ["frameworks.yaml", "sauce"]),
    ("categories.yaml", "      zh: [市售,", "      jp: [市售,", ["categories.yaml", "available.aliases.jp"]),
    ("accelerators.yaml", "  - id: tpu-v3\n    family: tpu", "  - id: tpu-v3\n    family: gpu-family",
     ["accelerators.yaml", "tpu-v3.family"]),
    ("orgs.yaml", "  - id: fujitsu\n", "  - id: google\n", ["orgs.yaml", "google", "duplicate"]),
    ("linking.yaml", "min_confidence: 0.6", "min_confidence: 0.6\ncolour: red", ["linking.yaml", "colour"]),
    ("linking.yaml", "  - {metric: date, kind: date}", "  - {metric: date, kind: dates}", ["linking.yaml", "metrics["]),
    ("linking.yaml", "carry_types: [org,", "carry_types: [chip, org,", ["linking.yaml", "carry_types"]),
    ("orgs.yaml", "  - id: fujitsu\n", "  - id: Fujitsu\n", ["orgs.yaml", "Fujitsu.id"]),
    ("rounds.yaml", "    ordinal: 1\n", "    ordinal: 1\n    ordinal: 2\n", ["rounds.yaml", "duplicate key"]),
    # a regional form must be another entry's name elsewhere, in a variant named by language and script
    ("orgs.yaml", "      zh-Hant: [超微]", "      zh-Hant: [無名公司]",
     ["orgs.yaml", "amd.regional.zh-Hant", "無名公司"]),
    ("orgs.yaml", "      zh-Hant: [超微]", "      taiwan: [超微]", ["orgs.yaml", "amd.regional.taiwan"]),
]


@pytest.mark.parametrize(("fname", "old", "new", "words"), BREAKS, ids=[f"{b[0]}:{b[3][-1]}" for b in BREAKS])
def test_broken_kb_file_names_file_and_key(kb_copy, fname, old, new, words):
    _edit(kb_copy / fname, old, new)
    with pytest.raises(DataFileError) as err:
        load_kb(kb_copy)
    for w in words:
        assert w in str(err.value)


def test_missing_kb_file(kb_copy):
    (kb_copy / "systems.yaml").unlink()
    with pytest.raises(DataFileError, match="systems.yaml"):
        load_kb(kb_copy)


# ---------------------------------------------------------------------------------- data change only


def test_new_alias_and_entity_are_a_data_change_only(kb_copy):
    """A new spelling of an org and a new chip: edit YAML, load that KB, link a sentence with both."""
    _edit(kb_copy / "orgs.yaml", "      zh: [谷歌, ", "      zh: [咕果, 谷歌, ")
    _edit(kb_copy / "accelerators.yaml", "  - id: gpu\n",
          "  - id: tpu-v9\n    family: tpu\n    aliases:\n      zh: [第九代 TPU]\n      en: [TPU v9]\n"
          "    org: google\n    previous: tpu-v4\n  - id: gpu\n")
    kb = load_kb(kb_copy)
    text = "咕果的 256 块 TPU v9 将 BERT 的训练时间缩短到了 2 分钟。"
    assert [(m.type, m.id) for m in recognize(text, kb)] == [
        ("org", "google"), ("accelerator", "tpu-v9"), ("benchmark", "bert")]
    s = Sentence("x.txt", 0, 0, len(text), text, "zh")
    start = text.index("256 块")
    claim = Claim("x.txt", "zh", text, start, start + 5, "256 块", "count", 256, "count", counted="chip")
    (linked,) = link_claims([s], [claim], {"round": "training-v0.7"}, kb)
    ents = linked.entities
    assert (ents.org, ents.accelerator, ents.benchmark) == ("google", "tpu-v9", "bert")
    assert load_kb().lookup("咕果") is None  # the shipped KB is untouched


def test_kb_loads_fast():
    """Cached: a second load costs nothing; a cold load of the YAML stays well under a second."""
    from pipeline.link import kb as kbmod

    t = time.perf_counter()
    kbmod._load.__wrapped__(str(KB_DIR))
    cold = time.perf_counter() - t
    t = time.perf_counter()
    load_kb()
    assert time.perf_counter() - t < 0.01
    assert cold < 2.0
    assert set(load_kb().entries) == set(KB_TYPES)
