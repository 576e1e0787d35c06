"""Every hostile case at once, mixed with the shipped corpus: the run goes to the end, lists each bad file
with a reason, and the corpus articles' claims are exactly those of a clean run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hostile import SENTENCE, claims_by_doc, read_jsonl

import pipeline.run.batch as batch
from pipeline.run.batch import run_batch
from pipeline.settings import Settings

_real_work = batch._work


def _hangs_on_hang(args):
    if Path(args[0]).name == "hang.txt":
        time.sleep(3600)
    return _real_work(args)


EXPECTED_ERRORS = {
    "hostile/empty.txt": "empty",
    "hostile/blank.md": "empty",
    "hostile/random bytes.txt": "binary",
    "hostile/renamed pdf.txt": "binary",
    "hostile/renamed png.html": "binary",
    "hostile/invalid utf8.txt": "decode",
    "hostile/huge 100MB.txt": "too_large",
    "hostile/self.txt": "unreadable",
    "hostile/dangling.txt": "unreadable",
    "hostile/fifo.txt": "unreadable",
    "hostile/hang.txt": "timeout",
}
WITH_CLAIMS = ["hostile/damaged utf8.txt", "hostile/gbk saved as.txt", "hostile/big5.txt",
               "hostile/utf16 no bom.txt", "hostile/utf32 bom.txt", "hostile/mixed utf8 gbk.txt",
               "hostile/deep.html", "hostile/malformed.html", "hostile/scripts.html", "hostile/long line.txt",
               "hostile/空格 and 中文 名字 🚀.txt", "hostile/emoji 🎉/子目录 with space/文章 ✅.md"]


def test_a_hostile_folder_runs_to_the_end_and_the_corpus_output_is_unchanged(
        hostile: Path, tmp_path: Path, clean_run: Path, monkeypatch: pytest.MonkeyPatch):
    (hostile / "hostile" / "hang.txt").write_text(SENTENCE, encoding="utf-8")
    monkeypatch.setattr(batch, "_work", _hangs_on_hang)
    out = tmp_path / "out"
    started = time.monotonic()
    # The limit is far above any real article's time (about 1 s here), and the hang costs only it.
    summary = run_batch(hostile, out, Settings(article_timeout=10), workers=2)
    assert time.monotonic() - started < 90

    errors = {e["doc"]: e for e in read_jsonl(out / "errors.jsonl")}
    assert {d: errors[d]["error"] for d in EXPECTED_ERRORS if d in errors} == EXPECTED_ERRORS
    assert set(errors) == set(EXPECTED_ERRORS)  # nothing else failed
    assert all(len(e["detail"]) > 20 for e in errors.values())  # a reason and what to do

    rows = read_jsonl(out / "claims.jsonl")
    docs = {r["doc"] for r in rows}
    for doc in WITH_CLAIMS:
        assert doc in docs, doc
    assert any("not utf8" in d for d in docs)  # a file name that is not UTF-8 is read too
    scripts = [r for r in rows if r["doc"] == "hostile/scripts.html"]
    assert {r["value"] for r in scripts} >= {4096, 23}
    assert not {r["value"] for r in scripts} & {99999, 4242, 31337, 5555, 6666, 7777, 8888, 1212, 3434, 5656}

    # The corpus articles come out exactly as from a clean run of the corpus alone.
    assert claims_by_doc(rows, "corpus/") == claims_by_doc(read_jsonl(clean_run / "claims.jsonl"))
    assert summary.articles == len(docs | set(errors)) and summary.ok
