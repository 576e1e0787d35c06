"""One article's fact-check on a page of its own, to send to a colleague or print.

    newsclaims article OUT_DIR zh/a.txt --to a.html        # or --to a.pdf (Chromium prints it)

The article's text, paragraph by paragraph, with its claims marked and numbered; beside each paragraph,
the notes on its claims: the verdict, how the claim was read, the official figure, the reason and the
evidence, linked to the result logs or the statement's page.  The page is one self-contained file (styles
inline, no script), so it opens anywhere; on paper the notes stay beside their paragraph.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import ReportError
from pipeline.fileio import atomic_write_bytes, atomic_write_text, writing_to
from pipeline.link import KnowledgeBase, load_kb
from pipeline.report.fmt import VERDICT_LABELS
from pipeline.report.html import evidence_of, template_env
from pipeline.report.load import (
    ArticleView,
    Segment,
    article_view,
    read_rows,
    resolve_input_dir,
    run_info,
    stored_texts,
    with_display,
)
from pipeline.report.summary import summarize

# Chromium's names on the platforms people run it on (Debian's chromium first: the one CI installs)
CHROMIUM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
PDF_TIMEOUT_S = 120


@dataclass
class Paragraph:
    segments: list[Segment] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)


def paragraphs(view: ArticleView, numbers: dict[str, int], by_id: dict[str, dict[str, Any]]) -> list[Paragraph]:
    """The article cut at line breaks, each paragraph with the notes of the claims first marked in it."""
    out = [Paragraph()]
    for block in view.blocks:
        for seg in block:
            if seg.claim is not None:
                out[-1].segments.append(seg)
                if seg.first and seg.claim in by_id:
                    out[-1].notes.append(by_id[seg.claim])
                continue
            pieces = seg.text.split("\n")
            for i, piece in enumerate(pieces):
                if i:
                    out.append(Paragraph())
                if piece:
                    out[-1].segments.append(Segment(piece))
        if not view.full_text:
            out.append(Paragraph())
    kept = [p for p in out if any(s.text.strip() for s in p.segments)]
    for p in kept:
        p.notes.sort(key=lambda c: numbers.get(c["id"], 0))
    return kept


def render_article(out_dir: Path, doc: str, input_dir: Path | None = None, kb: KnowledgeBase | None = None) -> str:
    """The page for `doc` of the run in `out_dir` (entities named with `kb`, default the shipped one)."""
    out_dir = Path(out_dir)
    kb = kb or load_kb()
    if not (out_dir / "claims.jsonl").is_file():
        raise ReportError(f"{out_dir / 'claims.jsonl'}: not found; run `newsclaims run INPUT_DIR --out {out_dir}` "
                          "first")
    info = run_info(out_dir)
    folder = resolve_input_dir(out_dir, Path(input_dir) if input_dir is not None else None, info)
    claims = with_display([c for c in read_rows(out_dir / "claims.jsonl") if c.get("doc") == doc])
    if not claims and not _in_run(out_dir, doc):
        raise ReportError(f"{doc}: no article of that name in the run {out_dir} (names as in claims.jsonl's doc)")
    claims.sort(key=lambda c: (int(c.get("start") or 0), int(c.get("end") or 0)))
    for c in claims:
        if c.get("lang") not in (None, "en"):
            c["summary"] = summarize(c, kb)
    view = article_view(doc, claims, folder, stored_texts(out_dir, doc).get(doc))
    numbers = {c["id"]: n for n, c in enumerate(claims, 1)}
    by_id = {c["id"]: c for c in claims}
    official = str(info["official"]) if info.get("official") else None
    evidence = evidence_of(official, (e for c in claims for e in c.get("evidence") or ()), kb)
    return template_env().get_template("article.html.j2").render(
        view=view, paragraphs=paragraphs(view, numbers, by_id), numbers=numbers, evidence=evidence,
        labels=VERDICT_LABELS, official=official, today=dt.date.today().isoformat(),
        lang=view.langs[0] if view.langs else "")


def _in_run(out_dir: Path, doc: str) -> bool:
    return any(r.get("doc") == doc for r in read_rows(out_dir / "articles.jsonl"))


def write_article(out_dir: Path, doc: str, to: Path, input_dir: Path | None = None) -> Path:
    """Write the page to `to`: HTML, or a PDF printed by Chromium when `to` ends in .pdf."""
    page = render_article(out_dir, doc, input_dir)
    to = Path(to)
    with writing_to(to.parent if str(to.parent) else Path(".")):
        if to.suffix.lower() != ".pdf":
            atomic_write_text(to, page)
            return to
        atomic_write_bytes(to, print_pdf(page))
    return to


def print_pdf(page: str) -> bytes:
    """The page printed to PDF by a headless Chromium (its print styles apply)."""
    browser = next((found for name in CHROMIUM if (found := shutil.which(name))), None)
    if browser is None:
        raise ReportError("a PDF is printed by Chromium, and none was found (chromium, google-chrome); install "
                          "it, or write the .html and print it from any browser")
    with tempfile.TemporaryDirectory(prefix="newsclaims-pdf-") as tmp:
        html, pdf = Path(tmp) / "article.html", Path(tmp) / "article.pdf"
        html.write_text(page, encoding="utf-8")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
               f"--user-data-dir={tmp}/profile", f"--print-to-pdf={pdf}", html.as_uri()]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=PDF_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as exc:
            raise ReportError(f"Chromium did not print the page within {PDF_TIMEOUT_S} s") from exc
        if not pdf.is_file() or pdf.stat().st_size == 0:
            said = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise ReportError(f"Chromium did not print the page (exit {proc.returncode}: {said[0]})")
        return pdf.read_bytes()
