"""Annotation exchange: a run out to Label Studio, Prodigy or doccano, the reviewed file back into gold.

    annotate_export("out/corpus", "label-studio", "review/tasks.json")   # + label_config.xml beside it
    annotate_import("review/export.json", "annotations/")                # merge into annotations/<doc>.jsonl

Export writes one task per article: the article text (as decoded: every offset refers to it), our claims
as pre-annotations (spans labelled by kind; value, unit, bound, reading, verdict, counted, of_total, note as
per-span attributes), the entity names we recognised as spans, and a relation from each claim to the
entity spans it is about.  Ids are stable: a claim's id is the content hash of claims.jsonl, an entity
span's a hash of its place, a task's key the article's path, so a re-export updates the same tasks
(`pipeline.review.labelstudio.sync` updates a live project in place) and an import is idempotent.

Import reads the reviewed file (the format is recognised), turns each reviewer's work on each article into
decisions (accept, correct, reject, add) and merges them with what annotations/ holds (see
pipeline.review.gold: another reviewer's decision is never overwritten; disagreements are kept and
listed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import IngestError, NewsclaimsError
from pipeline.fileio import read_jsonl
from pipeline.records import ENTITY_TYPES
from pipeline.review.model import DocItem, EntitySpan, ReviewedDoc, decisions
from pipeline.review.vocab import entity_key

FORMATS = ("label-studio", "prodigy", "doccano")


class ReviewError(NewsclaimsError):
    """A review file, run folder or annotations folder cannot be used as asked."""

    code = "E400"


@dataclass
class ExportSummary:
    format: str
    files: list[Path]
    tasks: int
    claims: int
    entities: int
    relations: int


@dataclass
class ImportSummary:
    format: str
    reviewed: int = 0  # (article, reviewer) pairs read
    actions: dict[str, int] = field(default_factory=dict)  # accept/correct/reject/add -> count
    outcomes: dict[str, int] = field(default_factory=dict)  # added/updated/unchanged/confirmed/conflict -> count
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # spans that could not be placed, skipped tasks
    # annotations left out because a region could not be placed (nothing of them was written)
    skipped: int = 0


# -- reading a run ------------------------------------------------------------------------------------

def input_dir_of(out_dir: Path, input_dir: Path | None = None) -> Path:
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
                       sha256=art.sha256, claims=claims)
        attach_entities(item)
        items.append(item)
    return items


def attach_entities(item: DocItem) -> None:
    """Entity spans (knowledge-base names in the text) and, per claim, a relation to the nearest span
    naming each entity the claim is about; entities no span names go to the claim's context."""
    from pipeline.link import load_kb, recognize

    mentions = [m for m in recognize(item.text, load_kb()) if m.id and m.type in ENTITY_TYPES]
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


# -- export / import -----------------------------------------------------------------------------------

def annotate_export(out_dir: Path, fmt: str, to: Path, input_dir: Path | None = None) -> ExportSummary:
    """Write the run in OUT_DIR as tasks for `fmt` (label-studio, prodigy, doccano) to `to`: a file, or a
    folder (then tasks.json / tasks.jsonl, and label_config.xml for Label Studio, go inside)."""
    if fmt not in FORMATS:
        raise ReviewError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    items = load_run(Path(out_dir), input_dir)
    to = Path(to)
    if fmt == "label-studio":
        from pipeline.review import labelstudio

        files = labelstudio.write(items, to)
    else:
        from pipeline.review import formats

        files = formats.write(fmt, items, to)
    return ExportSummary(format=fmt, files=files, tasks=len(items), claims=sum(len(i.claims) for i in items),
                         entities=sum(len(i.entities) for i in items),
                         relations=sum(len(i.relations) for i in items))


def detect_format(rows: list[dict[str, Any]]) -> str:
    first = rows[0] if rows else {}
    if "annotations" in first or "predictions" in first or ("data" in first and "text" in first.get("data", {})):
        return "label-studio"
    if "_input_hash" in first or "answer" in first or "spans" in first:
        return "prodigy"
    if "entities" in first or "label" in first:
        return "doccano"
    raise ReviewError("cannot tell the format of the file: not Label Studio JSON, Prodigy JSONL or doccano JSONL")


def read_rows(path: Path) -> list[dict[str, Any]]:
    text = Path(path).read_text(encoding="utf-8-sig")
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = json.loads(text)
        if not all(isinstance(r, dict) for r in data):
            raise ReviewError(f"{path}: expected a JSON list of tasks")
        return data
    try:
        return read_jsonl(Path(path))
    except ValueError as exc:
        raise ReviewError(str(exc)) from exc


def read_reviewed(path: Path, fmt: str | None = None, problems: list[str] | None = None
                  ) -> tuple[str, list[ReviewedDoc]]:
    rows = read_rows(Path(path))
    fmt = fmt or detect_format(rows)
    problems = problems if problems is not None else []
    if fmt == "label-studio":
        from pipeline.review import labelstudio

        return fmt, labelstudio.read(rows, problems)
    from pipeline.review import formats

    return fmt, formats.read(fmt, rows, problems)


def annotate_import(file: Path, to: Path, fmt: str | None = None, reviewer: str | None = None) -> ImportSummary:
    """Merge a reviewed export (Label Studio JSON, Prodigy or doccano JSONL) into the gold folder `to`.
    `reviewer` names the reviewer when the file does not (or overrides it)."""
    from pipeline.review.gold import GoldStore
    from pipeline.review.labelstudio import NOT_IMPORTED

    problems: list[str] = []
    fmt, reviewed = read_reviewed(Path(file), fmt, problems)
    summary = ImportSummary(format=fmt, problems=problems,
                            skipped=sum(NOT_IMPORTED in p for p in problems))
    store = GoldStore(Path(to))
    for rd in reviewed:
        if reviewer:
            rd.reviewer = reviewer
        try:
            store.path_for(rd.doc)
        except ValueError as exc:  # a task whose doc would lead outside the folder: never written
            problems.append(f"{rd.source}: {exc}; skipped")
            continue
        summary.reviewed += 1
        ds = decisions(rd)
        for d in ds:
            summary.actions[d.action] = summary.actions.get(d.action, 0) + 1
        for res in store.apply(ds):
            summary.outcomes[res.outcome] = summary.outcomes.get(res.outcome, 0) + 1
            if res.conflict is not None:
                summary.conflicts.append(res.conflict)
    return summary
