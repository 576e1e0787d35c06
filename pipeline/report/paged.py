"""Reports of large corpora: report.html and report.md become the corpus page (counts, chart, the first
conflicts and discrepancies, errors, and every article with a link), and the articles are shown in parts of
`per_page` articles under report-pages/ (part-0001.html and .md, ...), each a full report page of its
articles with the conflicts that involve them.

Everything is written from streams (see corpus.py): one part's claims in memory at a time, the corpus
page rendered straight to its file, so memory does not grow with the corpus.  One page per part rather
than per article: the page's CSS and script would otherwise be repeated in every file.
"""

from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing as mp
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from markupsafe import Markup

from pipeline.fileio import atomic_write_text, atomic_writers, remove_stale_temps
from pipeline.link.kb import KnowledgeBase, load_kb
from pipeline.procs import uses_fork
from pipeline.report.chart import claims_chart
from pipeline.report.corpus import CorpusIndex, index_corpus
from pipeline.report.fmt import VERDICT_LABELS, display
from pipeline.report.html import inline_asset, render_html, template_env
from pipeline.report.load import (
    ArticleView,
    ReportData,
    article_docs,
    article_view,
    read_rows,
    shown_conflicts,
    with_display,
)
from pipeline.report.markdown import (
    conflict_lines,
    discrepancy_lines,
    error_lines,
    render_markdown,
    summary_lines,
    table,
)

PAGES_DIR = "report-pages"
# the corpus page's template pieces joined per write (a write and an encoding per piece were a third of it)
WRITE_PIECES = 500


@dataclass(frozen=True)
class IndexRow:
    """What the corpus page lists of one article (its claims stay in its part)."""

    doc: str
    title: str | None
    date: str | None
    langs: tuple[str, ...]
    claims: int
    discrepancies: int
    conflicts: int
    part: int
    anchor: int  # position in its part: the part's element id is doc-<anchor>

    @property
    def href_part(self) -> str:
        """The article's part page, relative to the corpus page."""
        return f"{PAGES_DIR}/{part_name(self.part)}.html"

    @property
    def href(self) -> str:
        """A link to the article in its part page."""
        return f"{self.href_part}#doc-{self.anchor}"


PART_FILE = re.compile(r"part-\d{4,}\.(html|md)")


def part_name(number: int) -> str:
    """The file name of part `number`, without extension: part-0001."""
    return f"part-{number:04d}"


def write_paged_reports(out_dir: Path, folder: Path | None, official: str | None, per_page: int,
                        chart_file: str, index: CorpusIndex | None = None, workers: int = 1,
                        progress: Callable[[int, int, str], None] | None = None,
                        meanwhile: Callable[[], list[Path]] | None = None, kb: KnowledgeBase | None = None,
                        docs: list[str] | None = None) -> list[Path]:
    """Write the parts, chart.svg, report.html and report.md; returns their paths.  Parts left from an
    earlier run with more parts are removed.  With `workers` > 1 (cores) the parts are rendered in one
    process more than that (forked, where the platform allows: they share the index without copying it),
    and this process runs `meanwhile` (more of the report's files, whose paths it returns) and writes the
    corpus page while they work.  `docs`: the articles in order (article_docs), if the caller has them."""
    index = index or index_corpus(out_dir)
    errors = read_rows(out_dir / "errors.jsonl")
    docs = docs if docs is not None else article_docs(folder, index.claim_offsets, errors)
    total = max(1, -(-len(docs) // per_page))
    doc_pages = {d: f"{part_name(i // per_page + 1)}.html" for i, d in enumerate(docs)}
    pages_dir = out_dir / PAGES_DIR
    written: list[Path] = []
    kb = kb or load_kb()  # once for every part (forked workers inherit it)
    _SHARED.update(pages_dir=pages_dir, index=index, folder=folder, official=official, docs=docs, total=total,
                   per_page=per_page, doc_pages=doc_pages, kb=kb)

    def href(c: dict[str, Any]) -> str | None:
        page = doc_pages.get(str(c.get("doc")))
        return f"{PAGES_DIR}/{page}#c-{c.get('id')}" if page else None

    # the corpus page's summary counts the articles that gave a claim: the index knows them before any part
    summary = index.summary(len(docs), sum(1 for d in docs if index.claim_offsets.get(d)), len(errors))
    html_path, md_path, chart_path = out_dir / "report.html", out_dir / "report.md", out_dir / chart_file
    numbers = range(1, total + 1)
    done: list[tuple[list[Path], list[IndexRow]]] = []

    def rows_of(results: Iterator[tuple[list[Path], list[IndexRow]]]) -> Iterator[IndexRow]:
        """The corpus page's rows, part by part as the parts are rendered (in order)."""
        for result in results:
            done.append(result)
            if progress:
                progress(len(done), total, "report parts")
            yield from result[1]

    def corpus_page(fh: dict[Path, Any], rows: Iterator[IndexRow], chart: str, top: dict[str, list]) -> None:
        context = dict(summary=summary, official=official, out_dir=str(out_dir),
                       input_dir=str(folder) if folder else None, pages=total, per_page=per_page, chart=Markup(chart),
                       conflicts=top["conflicts"], discrepancies=top["discrepancies"], errors=errors,
                       labels=VERDICT_LABELS, doc_pages={d: f"{PAGES_DIR}/{p}" for d, p in doc_pages.items()},
                       this_page=None, css=Markup(inline_asset("report.css.j2")))
        # written as the parts' rows come
        _write_pieces(fh[html_path], template_env().get_template("index.html.j2").generate(articles=rows, **context))

    try:
        with atomic_writers([chart_path, html_path, md_path]) as fh:  # put in place together
            if workers > 1 and total > 1 and uses_fork():
                # one process more than `workers` when there are more parts: the parts are few and of a size,
                # and with one process per core the last of them run on one core while the other waits (five
                # parts on two cores: three after two); three processes share both cores to the end
                _warm_parts()
                with mp.get_context("fork").Pool(min(workers + 1, total), initializer=_part_process) as pool:
                    pending = pool.imap(_part_job, numbers)
                    if meanwhile is not None:
                        written += meanwhile()
                        meanwhile = None
                    # what the corpus page needs beside the parts' rows, while the parts are rendered; the
                    # page itself is written as their rows come, not after the last part
                    chart, top = claims_chart(index.chart.points(), href=href), _shown_top(index, kb)
                    corpus_page(fh, rows_of(pending), chart, top)
            else:
                chart, top = claims_chart(index.chart.points(), href=href), _shown_top(index, kb)
                corpus_page(fh, rows_of(_part_job(n) for n in numbers), chart, top)
            rows = [row for _, part_rows in done for row in part_rows]
            fh[md_path].write("".join([line + "\n" for line in _index_markdown(summary, official, chart_file, top,
                                                                                errors, rows)]).encode("utf-8"))
            fh[chart_path].write(('<?xml version="1.0" encoding="UTF-8"?>\n' + chart + "\n").encode("utf-8"))
    finally:
        _SHARED.clear()
    if meanwhile is not None:
        written += meanwhile()
    for paths, _ in done:
        written += paths
    remove_stale_parts(pages_dir, total)
    return [*written, chart_path, html_path, md_path]


def _write_pieces(out: IO[bytes], pieces: Iterable[str]) -> None:
    """A template's output as it is generated, a few hundred of its small pieces at a time."""
    batch: list[str] = []
    for piece in pieces:
        batch.append(piece)
        if len(batch) >= WRITE_PIECES:
            out.write("".join(batch).encode("utf-8"))
            batch.clear()
    out.write("".join(batch).encode("utf-8"))


# What every part needs, set before the parts are rendered (and inherited by forked workers).
_SHARED: dict[str, Any] = {}

# gc thresholds of a part's process (CPython's default: 700, 10, 10): a page is made of short-lived strings
# and lists that reference counting frees
PART_GC_THRESHOLDS = (20_000, 20, 20)


def _part_process() -> None:
    """A forked part process's collector: what it inherited (the index, the knowledge base, the loaded
    modules) is frozen, so that its collections walk only what it makes (a full one walked the parent's
    heap: a tenth of a part's time went to collections), and young objects are collected less often."""
    gc.freeze()
    gc.set_threshold(*PART_GC_THRESHOLDS)


def _part_job(number: int) -> tuple[list[Path], list[IndexRow]]:
    sh = _SHARED
    per_page = sh["per_page"]
    chunk = sh["docs"][(number - 1) * per_page:number * per_page]
    rows: list[IndexRow] = []
    paths = _write_part(sh["pages_dir"], sh["index"], sh["folder"], sh["official"], chunk,
                        (number, sh["total"], per_page, len(sh["docs"])), sh["doc_pages"], rows, sh["kb"])
    return paths, rows


def _write_part(pages_dir: Path, index: CorpusIndex, folder: Path | None, official: str | None, chunk: list[str],
                where: tuple[int, int, int, int], doc_pages: dict[str, str], rows: list[IndexRow],
                kb: KnowledgeBase) -> list[Path]:
    """One part's HTML and Markdown page; adds its articles to `rows` for the corpus page."""
    number = where[0]
    html_text, md_text, articles = _part_pages(pages_dir, index, folder, official, chunk, where, doc_pages, kb)
    name = part_name(number)
    html, md = pages_dir / f"{name}.html", pages_dir / f"{name}.md"
    atomic_write_text(html, html_text)
    atomic_write_text(md, md_text)
    for n, a in enumerate(articles, 1):
        counts = index.counts.get(a.doc)
        rows.append(IndexRow(a.doc, a.title, str(a.meta["date"]) if a.meta.get("date") else None,
                             tuple(a.langs), len(a.claims), counts.discrepancies if counts else 0,
                             counts.conflicts if counts else 0, number, n))
    return [html, md]


def _part_pages(pages_dir: Path, index: CorpusIndex, folder: Path | None, official: str | None, chunk: list[str],
                where: tuple[int, int, int, int], doc_pages: dict[str, str], kb: KnowledgeBase
                ) -> tuple[str, str, list[ArticleView]]:
    """One part's HTML and Markdown text, and its articles."""
    number, total, per_page, n_docs = where
    claims: list[dict[str, Any]] = []
    articles = []
    texts = index.doc_texts(chunk)
    for doc in chunk:
        own = with_display(index.doc_claims(doc))
        claims += own
        articles.append(article_view(doc, own, folder, texts.get(doc)))
    by_id = {c["id"]: c for c in claims}
    conflicts = shown_conflicts(index.doc_conflicts(chunk), by_id, kb)
    name = part_name(number)
    for k in conflicts:
        # a conflict is listed in full once, in the part of its first wording's article; the other parts
        # that hold one of its articles link there
        owner = doc_pages.get(str((k.get("claims") or [{}])[0].get("doc")))
        if owner and owner != f"{name}.html":
            k["elsewhere"] = owner
    report = ReportData(pages_dir.parent, folder, official, claims, conflicts, [], articles, kb)
    first = (number - 1) * per_page + 1
    page = {"number": number, "total": total, "file": f"{name}.html", "first": first,
            "last": first + len(chunk) - 1, "articles": n_docs,
            "index": "../report.html", "index_md": "../report.md",
            "prev": f"{part_name(number - 1)}.html" if number > 1 else None,
            "next": f"{part_name(number + 1)}.html" if number < total else None,
            "prev_md": f"{part_name(number - 1)}.md" if number > 1 else None,
            "next_md": f"{part_name(number + 1)}.md" if number < total else None}
    return (render_html(report, page=page, doc_pages=doc_pages), render_markdown(report, chart_file=None, page=page),
            articles)


def _warm_parts() -> None:
    """Render the first article's page once, unwritten, before the part processes fork.  What a part loads
    on its first page (the templates, the evidence's tables and wording, the modules a page imports when
    first asked, their caches) is then loaded once here and inherited, where each process loaded it again
    on its own first part: a first part took 20-45% more CPU than the next in the same process."""
    sh = _SHARED
    if sh["docs"]:
        _part_pages(sh["pages_dir"], sh["index"], sh["folder"], sh["official"], sh["docs"][:1],
                    (1, sh["total"], sh["per_page"], len(sh["docs"])), sh["doc_pages"], sh["kb"])


def remove_stale_parts(pages_dir: Path, total: int = 0) -> None:
    """Remove the parts beyond `total` that an earlier, larger run wrote, and the temporary files of a
    writer killed there; a file of any other name (one a user put there) stays, and so does the folder
    while it holds one."""
    keep = {f"{part_name(n)}{ext}" for n in range(1, total + 1) for ext in (".html", ".md")}
    for path in pages_dir.glob("part-*"):
        if path.name not in keep and PART_FILE.fullmatch(path.name):
            path.unlink(missing_ok=True)
    remove_stale_temps(pages_dir)
    if total == 0:
        with contextlib.suppress(OSError):  # not empty: a file of the user's is there
            pages_dir.rmdir()


def _shown_top(index: CorpusIndex, kb: KnowledgeBase) -> dict[str, list[dict[str, Any]]]:
    """The conflicts and discrepancies the corpus page shows, with their display strings."""
    for c in index.top_discrepancies:
        c["display"] = display(c)
    conflicts = json.loads(json.dumps(index.top_conflicts))  # shown_conflicts edits in place
    return {"conflicts": shown_conflicts(conflicts, {}, kb), "discrepancies": index.top_discrepancies}


def _index_markdown(summary: dict[str, Any], official: str | None, chart_file: str, top: dict[str, list],
                    errors: list[dict[str, Any]], rows: list[IndexRow]) -> Iterator[str]:
    more = "Each part lists every one of its articles; the JSONL files have them all."
    yield from ["# Fact-check report", ""]
    yield from summary_lines(summary, official, chart_file)
    yield from conflict_lines(top["conflicts"], summary["conflicts"], more)
    yield from discrepancy_lines(top["discrepancies"], summary["discrepancies"], more)
    yield from error_lines(errors)
    yield from [f"## Articles ({len(rows)})", ""]
    for number in sorted({r.part for r in rows}):
        yield from [f"### [Part {number}]({PAGES_DIR}/{part_name(number)}.md)", ""]
        yield from table(["article", "language", "claims", "discrepancies", "conflicts"],
                         [[r.title or r.doc, ", ".join(r.langs), r.claims, r.discrepancies, r.conflicts]
                          for r in rows if r.part == number], right=(2, 3, 4))
        yield ""
