"""Regenerates the pictures of the report in docs/: the README's report.png (the founding articles) and
docs/shots/ (the shipped corpora, English and Chinese): the corpus page, a conflict, a claim's panel and
the per-article page.

    .venv/bin/python docs/screenshot.py [--seeds SEEDS_DIR] [--corpus CORPUS_DIR] [--out DOCS_DIR]

Needs what .ci/setup-browser installs (Debian's chromium and playwright for Python).
tests/test_report_browser.py walks the same views with assertions.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from pipeline.report import write_reports
from pipeline.report.article import write_article
from pipeline.run.batch import run_batch
from pipeline.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
# the articles the per-article pictures show, one per language
ARTICLE_EN = "training-v0.7/en/2020-07-29_google-tpu-supercomputer-wire.txt"
ARTICLE_ZH = "training-v0.7/zh/2020-08-01_portal-repost-v07-dateline.txt"


def _launch(p: Any) -> Any:
    return p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                             args=["--no-sandbox", "--disable-gpu"])


def seeds_picture(seeds: Path, png: Path) -> None:
    """report.png: the seeds' report after clicking the ambiguous "大三倍"."""
    out = Path(tempfile.mkdtemp(prefix="newsclaims-shot-"))
    try:
        run_batch(seeds, out, Settings())
        write_reports(out, seeds)
        with sync_playwright() as p:
            browser = _launch(p)
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            page.goto((out / "report.html").as_uri())
            mark = page.locator("mark.claim.v-ambiguous", has_text="大三倍").first
            mark.click()
            mark.evaluate("m => m.scrollIntoView({block: 'center'})")
            page.screenshot(path=str(png))
            browser.close()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"{png}: {png.stat().st_size // 1024} KiB")


def corpus_pictures(corpus: Path, shots: Path) -> None:
    shots.mkdir(parents=True, exist_ok=True)
    out = Path(tempfile.mkdtemp(prefix="newsclaims-shot-"))
    try:
        run_batch(corpus, out, Settings())
        write_reports(out, corpus)
        pages = {}
        for name, doc in (("article-en", ARTICLE_EN), ("article-zh", ARTICLE_ZH)):
            pages[name] = write_article(out, doc, out / f"{name}.html", corpus)
        with sync_playwright() as p:
            browser = _launch(p)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto((out / "report.html").as_uri())
            page.screenshot(path=str(shots / "corpus.png"))
            page.locator("article.conflict.cross").first.evaluate("k => k.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(shots / "conflict.png"))
            for lang in ("en", "zh"):
                mark = page.locator(f"article.doc[data-langs='{lang}'] mark.claim.v-contradicted").first
                mark.evaluate("m => m.scrollIntoView({block: 'center'})")
                mark.click()
                page.screenshot(path=str(shots / f"claim-panel-{lang}.png"))
            for name, path in pages.items():
                page.goto(path.as_uri())
                page.screenshot(path=str(shots / f"{name}.png"))
            browser.close()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    for png in sorted(shots.glob("*.png")):
        print(f"{png}: {png.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpora" / "articles")
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    args = ap.parse_args()
    if args.seeds.is_dir():
        seeds_picture(args.seeds, args.out / "report.png")
    corpus_pictures(args.corpus, args.out / "shots")
