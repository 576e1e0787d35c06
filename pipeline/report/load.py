"""What a report shows, read back from a run's output folder (no extraction is rerun).

The report needs the articles' text to highlight claims in place; claims only carry the doc path relative to
the input folder, so the folder comes from the caller or from OUT_DIR/run.json.  When the articles cannot
be read (moved, deleted, or changed since the run) the report falls back to the claims' sentences.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import NewsclaimsError
from pipeline.fileio import read_jsonl
from pipeline.ingest.read import doc_id, find_articles, read_article
from pipeline.link import KnowledgeBase, load_kb
from pipeline.report.corpus import TEXTS_FILE, conflict_order
from pipeline.report.fmt import DISCREPANCY, VERDICT_LABELS, VERDICT_ORDER, display, quantity
from pipeline.report.summary import fact_heading, summarize

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Segment:
    """A run of article text; `claim` is the claim it highlights (the innermost one where claims nest)."""

    text: str
    claim: str | None = None
    verdict: str | None = None
    first: bool = False  # the claim's first segment carries its anchor id


@dataclass
class ArticleView:
    doc: str
    claims: list[dict[str, Any]]
    blocks: list[list[Segment]]  # the whole text as one block, or one block per sentence (fallback)
    full_text: bool
    title: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    note: str | None = None

    @property
    def langs(self) -> list[str]:
        """The languages of the article's claims, else the language its metadata gives."""
        return sorted({c.get("lang") or "" for c in self.claims} - {""}) or [str(self.meta.get("language") or "")]

    @property
    def counts(self) -> list[tuple[str, int]]:
        """(verdict, claims) for each verdict the article has, in report order."""
        n = Counter(c.get("verdict") for c in self.claims)
        return [(v, n[v]) for v in VERDICT_ORDER if n[v]]


@dataclass
class ReportData:
    out_dir: Path
    input_dir: Path | None
    official: str | None
    claims: list[dict[str, Any]]
    conflicts: list[dict[str, Any]]
    errors: list[dict[str, Any]]
    articles: list[ArticleView]
    kb: KnowledgeBase | None = None  # the knowledge base the report names entities with (loaded once)

    @property
    def discrepancies(self) -> list[dict[str, Any]]:
        """The contradicted and ambiguous claims."""
        return [c for c in self.claims if c.get("verdict") in DISCREPANCY]

    @property
    def summary(self) -> dict[str, Any]:
        """The counts the report's summary shows."""
        verdicts = Counter(c.get("verdict") for c in self.claims)
        return {
            "articles": len(self.articles),
            "articles_with_claims": sum(1 for a in self.articles if a.claims),
            "claims": len(self.claims),
            "verdicts": [(v, VERDICT_LABELS[v], verdicts.get(v, 0)) for v in VERDICT_ORDER],
            "discrepancies": len(self.discrepancies),
            "conflicts": len(self.conflicts),
            "cross_article": sum(1 for c in self.conflicts if c.get("cross_article")),
            "errors": len(self.errors),
            "languages": sorted(Counter(c.get("lang") for c in self.claims if c.get("lang")).items()),
            "distortions": Counter(c["distortion"] for c in self.claims if c.get("distortion")).most_common(),
        }


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file; none when it does not exist."""
    return read_jsonl(path) if path.exists() else []


def run_info(out_dir: Path) -> dict[str, Any]:
    """The run's run.json, or {} when it is missing or unreadable: the report works without it."""
    path = out_dir / "run.json"
    if not path.exists():
        return {}
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.warning("%s: unreadable (%s); reporting without it", path, exc)
        return {}
    return info if isinstance(info, dict) else {}


def resolve_input_dir(out_dir: Path, input_dir: Path | None, info: dict[str, Any]) -> Path | None:
    """The caller's folder wins; else run.json's.  A folder that is gone is None: the report still works."""
    candidate = input_dir if input_dir is not None else (Path(info["input_dir"]) if info.get("input_dir") else None)
    if candidate is None:
        return None
    if not candidate.exists():
        log.warning("%s: not found; the report shows claims' sentences instead of the articles", candidate)
        return None
    return candidate


def highlight(text: str, spans: list[tuple[int, int, str]], verdicts: dict[str, str]) -> list[Segment]:
    """Cut `text` at every claim boundary.  Where claims overlap (a partitive "six of eight benchmarks"
    around another claim) the innermost claim is highlighted, so every claim stays clickable somewhere."""
    spans = [(s, e, cid) for s, e, cid in spans if 0 <= s < e <= len(text)]
    cuts = sorted({0, len(text), *(s for s, _, _ in spans), *(e for _, e, _ in spans)})
    out: list[Segment] = []
    seen: set[str] = set()
    for a, b in zip(cuts, cuts[1:], strict=False):
        cover = [(e - s, i, cid) for i, (s, e, cid) in enumerate(spans) if s <= a and b <= e]
        cid = min(cover)[2] if cover else None
        if out and out[-1].claim == cid:
            prev = out[-1]
            out[-1] = Segment(prev.text + text[a:b], cid, prev.verdict, prev.first)
            continue
        first = cid is not None and cid not in seen
        if cid is not None:
            seen.add(cid)
        out.append(Segment(text[a:b], cid, verdicts.get(cid) if cid else None, first))
    return out


def _sentence_blocks(claims: list[dict[str, Any]], verdicts: dict[str, str]) -> list[list[Segment]]:
    """Fallback without the article: each distinct sentence once, its claims found by their text."""
    blocks: list[list[Segment]] = []
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    for c in claims:
        sentence = c.get("sentence") or c.get("text") or ""
        if groups and groups[-1][0] == sentence:
            groups[-1][1].append(c)
        else:
            groups.append((sentence, [c]))
    for sentence, group in groups:
        spans, cursor = [], 0
        for c in group:
            needle = c.get("text") or ""
            # Search from the previous claim's start: claims are in document order but may overlap.
            at = sentence.find(needle, cursor) if needle else -1
            if at < 0 and needle:
                at = sentence.find(needle)
            if at >= 0:
                spans.append((at, at + len(needle), c["id"]))
                cursor = at
        blocks.append(highlight(sentence, spans, verdicts))
    return blocks


def _within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def article_view(doc: str, claims: list[dict[str, Any]], input_dir: Path | None,
                 stored: dict[str, Any] | None = None) -> ArticleView:
    """One article as the report shows it: its text with the claims highlighted, or the sentences that
    hold them, with a note why, when the article cannot be read, lies outside the folder or changed.
    `stored` is the article's row of texts.jsonl (the text as the run read it, and the metadata shown):
    shown when the claims are in it, without reading the file again; a run from before texts were kept
    has none, and the article is read from the input folder."""
    verdicts = {c["id"]: c.get("verdict") or "unverifiable" for c in claims}
    text = (stored or {}).get("text")
    if isinstance(text, str) and all(text[c["start"]:c["end"]] == c.get("text") for c in claims):
        shown = (stored or {}).get("shown")
        meta = dict(shown) if isinstance(shown, dict) else {}  # records.shown_meta: text already
        spans = [(int(c["start"]), int(c["end"]), c["id"]) for c in claims]
        return ArticleView(doc, claims, [highlight(text, spans, verdicts)], True, meta.get("title") or None, meta)
    note = "The articles were not available: showing the sentences that hold the claims."
    if input_dir is not None:
        path = input_dir / doc if input_dir.is_dir() else input_dir
        # A doc path comes from claims.jsonl; never let it read outside the input folder.
        if input_dir.is_dir() and not _within(path, input_dir):
            note = f"{doc}: outside the input folder; showing the sentences that hold the claims."
        else:
            try:
                art = read_article(path, input_dir)
            except (NewsclaimsError, OSError) as exc:
                note = f"The article could not be read ({exc}); showing the sentences that hold the claims."
            else:
                meta = art.meta or {}
                title = str(meta["title"]) if meta.get("title") else None
                if all(art.text[c["start"]:c["end"]] == c.get("text") for c in claims):
                    spans = [(int(c["start"]), int(c["end"]), c["id"]) for c in claims]
                    return ArticleView(doc, claims, [highlight(art.text, spans, verdicts)], True, title, meta)
                note = "The article has changed since the run: showing the sentences that hold the claims."
                return ArticleView(doc, claims, _sentence_blocks(claims, verdicts), False, title, meta, note)
    return ArticleView(doc, claims, _sentence_blocks(claims, verdicts), False, None, {}, note)


def stored_texts(out_dir: Path, doc: str | None = None) -> dict[str, dict[str, Any]]:
    """The rows of the run's texts.jsonl by doc (only `doc`'s, when given); none for a run from before
    texts were kept."""
    rows = read_rows(Path(out_dir) / TEXTS_FILE)
    return {str(r.get("doc")): r for r in rows if isinstance(r, dict) and (doc is None or r.get("doc") == doc)}


def _claim_id(c: dict[str, Any], n: int) -> str:
    """claims.jsonl carries ids; an older file may not, and the page needs one per claim."""
    return str(c.get("id") or f"claim-{n}")


def with_display(claims: list[dict[str, Any]], first: int = 0) -> list[dict[str, Any]]:
    """Claims as the templates show them: an id on each (claims.jsonl carries ids; an older file may not),
    and the display strings."""
    for n, c in enumerate(claims, first):
        c["id"] = _claim_id(c, n)
        c["display"] = display(c)
    return claims


def conflict_key(conflict: dict[str, Any]) -> str:
    """A conflict's anchor on its page: the fact's official figure and evidence, hashed."""
    basis = json.dumps([conflict.get("official"), sorted(conflict.get("evidence") or [])], default=str)
    return hashlib.sha1(basis.encode("utf-8")).hexdigest()[:12]


def shown_conflicts(conflicts: list[dict[str, Any]], by_id: dict[str, dict[str, Any]], kb: KnowledgeBase
                    ) -> list[dict[str, Any]]:
    """Conflict rows carry a summary of each claim; the report completes it from the full claim when at
    hand (its sentence), and adds the display strings."""
    for conflict in conflicts:
        # every side shares the fact's official figure and evidence: a side whose full claim is not at hand
        # (on another page) still says what the official figure is
        fact = {"official": conflict.get("official"), "evidence": conflict.get("evidence") or [],
                "frame": {"source": conflict.get("source") or "table"}}
        conflict["claims"] = [{**fact, **by_id.get(str(c.get("id")), {}), **c} for c in conflict.get("claims") or []]
        for c in conflict["claims"]:
            if "display" not in c:  # a full claim at hand brought its own (setdefault made it anew each time)
                c["display"] = display(c)
            if c.get("lang") not in (None, "en") and "summary" not in c:
                c["summary"] = summarize(c, kb)
        unit = next((c.get("unit") for c in conflict["claims"] if c.get("unit")), None)
        conflict["official_display"] = quantity(conflict.get("official"), unit)
        heading = fact_heading(conflict, kb)
        if heading:
            conflict["fact_en"], conflict["fact"] = conflict.get("fact"), heading
        conflict["key"] = conflict_key(conflict)
    return conflicts


def article_docs(folder: Path | None, claim_docs: Iterable[str], errors: list[dict[str, Any]]) -> list[str]:
    """The articles a report shows, in the input folder's order: with the folder at hand, articles without
    a single claim count too (those that could not be read are listed as errors instead)."""
    docs = list(claim_docs)
    if folder is None:
        return docs
    listed = [doc_id(p, folder) for p in find_articles(folder)]
    error_docs = {str(e.get("doc")) for e in errors}
    known = set(listed)
    return [d for d in listed if d not in error_docs] + [d for d in docs if d not in known]


def load_report(out_dir: Path, input_dir: Path | None = None, kb: KnowledgeBase | None = None) -> ReportData:
    """Everything the report shows of the run in `out_dir`, its articles read from `input_dir` or the
    folder run.json names; entities named with `kb` (default: the shipped knowledge base)."""
    out_dir = Path(out_dir)
    kb = kb or load_kb()
    info = run_info(out_dir)
    folder = resolve_input_dir(out_dir, Path(input_dir) if input_dir is not None else None, info)
    claims = with_display(read_rows(out_dir / "claims.jsonl"))
    by_id = {c["id"]: c for c in claims}
    conflicts = shown_conflicts(sorted(read_rows(out_dir / "conflicts.jsonl"), key=conflict_order), by_id, kb)
    errors = read_rows(out_dir / "errors.jsonl")

    by_doc: dict[str, list[dict[str, Any]]] = {}
    for c in claims:
        by_doc.setdefault(str(c.get("doc")), []).append(c)
    docs = article_docs(folder, by_doc, errors)
    texts = stored_texts(out_dir)
    articles = [article_view(doc, by_doc.get(doc, []), folder, texts.get(doc)) for doc in docs]
    official = info.get("official")
    return ReportData(out_dir, folder, str(official) if official else None, claims, conflicts, errors, articles, kb)
