"""A run's articles as the exchange and the review page see them: each article's text (as decoded: every
offset refers to it), its claims, the entity names recognised in it, and a relation from each claim to
the entity spans it is about."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import IngestError, ReviewError
from pipeline.fileio import read_jsonl
from pipeline.records import ENTITY_TYPES
from pipeline.review.model import DocItem, EntitySpan
from pipeline.review.vocab import entity_key

if TYPE_CHECKING:
    from pipeline.link.kb import KnowledgeBase


def input_dir_of(out_dir: Path, input_dir: Path | None = None) -> Path:
    """Where the run's articles are: `input_dir` when given, else the input_dir run.json recorded;
    ReviewError when neither says."""
    if input_dir is not None:
        return Path(input_dir)
    meta = Path(out_dir) / "run.json"
    if meta.exists():
        try:
            recorded = json.loads(meta.read_text(encoding="utf-8")).get("input_dir")
        except json.JSONDecodeError as exc:
            raise ReviewError(f"{meta}: not JSON ({exc.msg})") from exc
        if recorded:
            return Path(recorded)
    raise ReviewError(f"{out_dir}: no run.json saying where the articles are; pass the input folder "
                      "(input_dir=... / --input DIR)")


def load_run(out_dir: Path, input_dir: Path | None = None, docs: set[str] | None = None) -> list[DocItem]:
    """The run's articles with their claims, entity spans and claim -> entity relations."""
    from pipeline.ingest.read import read_article

    out_dir = Path(out_dir)
    claims_path = out_dir / "claims.jsonl"
    if not claims_path.exists():
        raise ReviewError(f"{claims_path}: not found; run `newsclaims run` first")
    root = input_dir_of(out_dir, input_dir)
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for row in read_jsonl(claims_path):
        by_doc.setdefault(row["doc"], []).append(row)
    items = []
    for doc in sorted(by_doc):
        if docs is not None and doc not in docs:
            continue
        path = root / doc if root.is_dir() else root
        try:
            art = read_article(path, root)
        except IngestError as exc:
            raise ReviewError(f"{doc}: cannot read the article under {root} ({exc.detail})") from exc
        claims = sorted(by_doc[doc], key=lambda c: (c["start"], c["end"]))
        for c in claims:
            if art.text[c["start"]:c["end"]] != c["text"]:
                raise ReviewError(f"{doc}: claim {c.get('id')} [{c['start']}, {c['end']}) is not {c['text']!r} in "
                                  f"{path}; the article changed since the run: run it again")
        langs = [c.get("lang") for c in claims if c.get("lang")]
        item = DocItem(doc=doc, text=art.text, lang=max(dict.fromkeys(langs), key=langs.count) if langs else None,
                       sha256=art.sha256, claims=claims, run=str(out_dir.resolve()))
        attach_entities(item)
        items.append(item)
    return items


def attach_entities(item: DocItem, kb: KnowledgeBase | None = None) -> None:
    """Entity spans (knowledge-base names in the text) and, per claim, a relation to the nearest span
    naming each entity the claim is about; entities no span names go to the claim's context."""
    from pipeline.link import load_kb, recognize

    mentions = [m for m in recognize(item.text, kb or load_kb()) if m.id and m.type in ENTITY_TYPES]
    spans = {}
    for m in mentions:
        e = EntitySpan(id=entity_key(item.doc, m.start, m.end, m.type), start=m.start, end=m.end,
                       text=item.text[m.start:m.end], type=m.type, entity_id=m.id)
        spans[e.id] = e
    item.entities = sorted(spans.values(), key=lambda e: (e.start, e.end, e.type))
    for c in item.claims:
        sentence = c.get("sentence") or "\x00"
        s_start = item.text.rfind(sentence, 0, c["start"] + len(sentence))
        s_end = s_start + len(c.get("sentence") or "") if s_start >= 0 else -1
        for etype, eid in (c.get("entities") or {}).items():
            if not eid:
                continue
            cands = [e for e in item.entities if e.type == etype and e.entity_id == eid]
            if not cands:
                item.context.setdefault(c["id"], {})[etype] = eid
                continue

            item.relations.append((c["id"], min(cands, key=lambda e: _rank(e, c["start"], s_start, s_end)).id))


def _rank(e: EntitySpan, at: int, s_start: int, s_end: int) -> tuple[int, int]:
    """Nearest first, inside the claim's sentence before anywhere else, earlier before later."""
    inside = s_start <= e.start and e.end <= s_end
    return (0 if inside else 1, 2 * abs(e.start - at) + (0 if e.start < at else 1))
