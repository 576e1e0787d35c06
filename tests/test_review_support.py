"""Shared by the review tests: a two-article corpus whose claims sit after emoji and a CJK Extension B
character (so code points and UTF-16 code units differ), run through the real pipeline once per session.

Import the fixture into a test module with `from test_review_support import review_run  # noqa: F401`.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from pipeline.fileio import read_jsonl

# Astral characters before, between and after claims: 🚀 😀 (emoji), 𠀀 (U+20000, CJK Extension B).
ARTICLES = {
    "zh/a.txt": "🚀谷歌𠀀的 4096 块 TPU V3 将 BERT 的训练时间缩短到了 23 秒。\n"
                "😀英伟达的 A100 性能提高了 1.7 倍，用了不到 30 秒。\n",
    "en/b.txt": "😀 Google used 4,096 TPU v3 chips to train BERT in 23 seconds.\n"
                "𠀀 Nvidia needed 1,024 A100 GPUs and about 49 seconds.\n",
}
META = "title: review test article\ndate: 2020-07-30\n"  # the date puts the claims in training-v0.7

_BUILT: dict[str, Path] = {}


def build_run() -> Path:
    """A run folder (claims.jsonl, run.json) over ARTICLES; built once per process."""
    if "run" not in _BUILT:
        from pipeline.run.batch import run_batch
        from pipeline.settings import Settings

        base = Path(tempfile.mkdtemp(prefix="newsclaims-review-"))
        src = base / "articles"
        for doc, text in ARTICLES.items():
            (src / doc).parent.mkdir(parents=True, exist_ok=True)
            (src / doc).write_text(text, encoding="utf-8")
            (src / (doc + ".meta.yaml")).write_text(META, encoding="utf-8")
        out = base / "run"
        run_batch(src, out, Settings())
        (out / "run.json").write_text(json.dumps({"input_dir": str(src)}), encoding="utf-8")
        _BUILT["run"] = out
    return _BUILT["run"]


@pytest.fixture(scope="session")
def review_run() -> Any:
    out = build_run()
    yield out
    shutil.rmtree(out.parent, ignore_errors=True)
    _BUILT.pop("run", None)


def reviewed_ls(tasks: list[dict[str, Any]], reviewer: str = "ann@example.org") -> list[dict[str, Any]]:
    """What Label Studio exports when a reviewer submits the pre-annotations unchanged."""
    import copy

    for n, t in enumerate(tasks, 1):
        t["id"] = n
        t["annotations"] = [{"id": 100 + n, "completed_by": {"id": 7, "email": reviewer},
                             "result": copy.deepcopy(t["predictions"][0]["result"]),
                             "updated_at": "2026-01-02T03:04:05Z", "was_cancelled": False}]
    return tasks


def claims_of(out: Path) -> list[dict[str, Any]]:
    return read_jsonl(out / "claims.jsonl")


def test_the_corpus_has_claims_after_astral_characters(review_run: Path) -> None:
    claims = claims_of(review_run)
    assert {c["doc"] for c in claims} == set(ARTICLES)
    for c in claims:
        text = ARTICLES[c["doc"]]
        assert text[c["start"]:c["end"]] == c["text"]
    # at least one claim in each article comes after an astral character (offsets differ in UTF-16)
    for doc, text in ARTICLES.items():
        assert any(sum(ord(ch) > 0xFFFF for ch in text[:c["start"]]) >= 2 for c in claims if c["doc"] == doc)
