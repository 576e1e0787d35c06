"""The articles' texts kept with a run's outputs (texts.jsonl): the text each claim's offsets refer to and the
metadata a report shows, so that a report shows every article as the run read it, without reading (or
extracting from HTML) the files again, and still does when they were moved, edited or deleted since."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pipeline.ingest.read import find_articles, read_article
from pipeline.report import write_reports
from pipeline.report.article import render_article
from pipeline.report.load import load_report
from pipeline.report.paged import PAGES_DIR
from pipeline.run.batch import run_batch
from pipeline.settings import Settings

ARTICLES = {
    "zh/tpu.txt": "谷歌表示，TPU v4 的速度是 TPU v3 的 2.7 倍。新系统有 4096 块芯片。\n",
    "en/bert.md": "# BERT in seconds\n\nGoogle trained BERT in 23 seconds on 4,096 TPU v3 chips.\n",
    "en/page.html": ("<html><head><title>Record week</title></head><body><article><h1>Record week</h1>"
                     "<p>NVIDIA set 8 records with 1,840 A100 GPUs in MLPerf Training v0.7.</p>"
                     "<p>The DGX SuperPOD trained ResNet-50 in 49 seconds.</p></article></body></html>"),
}
SIDECAR = "title: TPU v4 快了多少\ndate: 2020-07-30\nsource: a test wire\n"


@pytest.fixture(scope="module")
def texts_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("texts")
    inp, out = base / "articles", base / "out"
    for name, text in ARTICLES.items():
        (inp / name).parent.mkdir(parents=True, exist_ok=True)
        (inp / name).write_text(text, encoding="utf-8")
    (inp / "zh" / "tpu.txt.meta.yaml").write_text(SIDECAR, encoding="utf-8")
    run_batch(inp, out, Settings())
    return inp, out


def _rows(out: Path) -> dict[str, dict]:
    lines = (out / "texts.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["doc"]: r for r in map(json.loads, lines)}


@pytest.mark.parametrize("doc", sorted(ARTICLES))
def test_each_article_is_kept_as_the_run_read_it(texts_run, doc):
    inp, out = texts_run
    assert _rows(out)[doc]["text"] == read_article(inp / doc, inp).text


@pytest.mark.parametrize("doc, shown", [
    ("zh/tpu.txt", {"title": "TPU v4 快了多少", "date": "2020-07-30", "source": "a test wire"}),
    ("en/bert.md", {}),
])
def test_the_metadata_a_report_shows_is_kept_as_its_text(texts_run, doc, shown):
    # a sidecar's date is a YAML date: kept as the text the report prints of it
    _, out = texts_run
    assert {k: v for k, v in _rows(out)[doc]["shown"].items() if k != "language"} == shown


def test_every_claim_of_a_kept_text_is_where_its_offsets_say(texts_run):
    _, out = texts_run
    texts = _rows(out)
    claims = [json.loads(line) for line in (out / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    assert claims
    assert all(texts[c["doc"]]["text"][c["start"]:c["end"]] == c["text"] for c in claims)


def _without_articles(texts_run, tmp_path: Path, change) -> tuple[Path, Path]:  # noqa: ANN001
    """A copy of the run's outputs and articles, the articles then changed by `change` (the report of the
    copy reads the copy's folder)."""
    inp, out = texts_run
    inp2, out2 = tmp_path / "articles", tmp_path / "out"
    shutil.copytree(inp, inp2)
    shutil.copytree(out, out2)
    run_json = json.loads((out2 / "run.json").read_text(encoding="utf-8"))
    (out2 / "run.json").write_text(json.dumps({**run_json, "input_dir": str(inp2)}), encoding="utf-8")
    change(inp2)
    return inp2, out2


CHANGES = {
    "deleted": lambda inp: shutil.rmtree(inp),
    "edited": lambda inp: [p.write_text("Rewritten since: nothing here.\n", encoding="utf-8")
                           for p in find_articles(inp)],
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_paged_report_shows_the_articles_as_the_run_read_them(texts_run, tmp_path, change):
    inp, out = _without_articles(texts_run, tmp_path, CHANGES[change])
    write_reports(out, inp, per_page=2)
    pages = "".join(p.read_text(encoding="utf-8") for p in sorted((out / PAGES_DIR).glob("*.html")))
    assert "showing the sentences that hold the claims" not in pages
    assert "1,840 A100 GPUs" in re.sub(r"<[^>]+>", "", pages)  # the HTML article's text, not re-extracted
    assert "TPU v4 快了多少" in pages  # the kept title


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_one_page_report_and_the_article_page_show_the_kept_text(texts_run, tmp_path, change):
    inp, out = _without_articles(texts_run, tmp_path, CHANGES[change])
    report = load_report(out, inp)
    assert all(a.full_text and a.note is None for a in report.articles if a.claims)
    page = render_article(out, "zh/tpu.txt", inp)
    assert "TPU v4 快了多少" in page and "showing the sentences" not in page


def test_a_run_from_before_texts_were_kept_reads_the_articles_again(texts_run, tmp_path):
    inp, out = _without_articles(texts_run, tmp_path, lambda inp: None)
    (out / "texts.jsonl").unlink()
    report = load_report(out, inp)
    assert all(a.full_text for a in report.articles if a.claims)
    assert next(a for a in report.articles if a.doc == "zh/tpu.txt").title == "TPU v4 快了多少"


def test_a_kept_text_that_no_longer_holds_the_claims_is_not_shown(texts_run, tmp_path):
    # texts.jsonl edited by hand: the claims' offsets no longer fall on their words, and the article is read
    # from the folder instead
    inp, out = _without_articles(texts_run, tmp_path, lambda inp: None)
    rows = [{**r, "text": "x" * len(r["text"])} for r in _rows(out).values()]
    (out / "texts.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                     encoding="utf-8")
    report = load_report(out, inp)
    assert all(a.full_text for a in report.articles if a.claims)
