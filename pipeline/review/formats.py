"""Prodigy and doccano task files (JSONL, one article a line), and reading them back.

Prodigy (spans.manual / rel.manual style): `text`, `tokens` (every span starts and ends on a token
boundary), `spans` (label = kind or entity type, `id` = our id; a claim span also carries its attributes
as keys: value, unit, bound, reading, verdict, counted, of_total, context, note), `relations` (head = the
claim span's last token, child = the entity span's, label "about"), `meta`, stable `_input_hash` /
`_task_hash`, and the reviewer's `answer` (accept / reject / ignore) and `_annotator_id` on the way back.
Offsets are code points.

doccano (sequence labeling with relations): `text`, `entities` [{id, label, start_offset, end_offset}],
`relations` [{id, from_id, to_id, type}], the rest kept as metadata.  doccano shows no per-span
attributes, so a reviewer there accepts, rejects, re-spans and relabels claims and relations; their
attributes come back as exported.  doccano counts UTF-16 code units: offsets are converted both ways.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pipeline.fileio import atomic_write_jsonl
from pipeline.records import ENTITY_TYPES, KINDS
from pipeline.review.model import NOT_IMPORTED, DocItem, EntitySpan, Region, ReviewedDoc
from pipeline.review.offsets import UNITS, OffsetMap, resolve_span
from pipeline.review.vocab import ATTRIBUTES, ENTITY_ATTRIBUTE, RELATION, format_value

# Token boundaries for Prodigy: words, numbers, each CJK character, each other symbol.
TOKEN = re.compile(r"[A-Za-z]+|[0-9]+|[^\sA-Za-z0-9]", re.UNICODE)


def _hash(*parts: str) -> int:
    return int(hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:8], 16)


def _tokens(text: str, cuts: set[int]) -> list[dict[str, Any]]:
    bounds = {0, len(text)} | cuts
    for m in TOKEN.finditer(text):
        bounds.update((m.start(), m.end()))
    pts = sorted(b for b in bounds if 0 <= b <= len(text))
    toks: list[dict[str, Any]] = []
    for a, b in zip(pts, pts[1:], strict=False):
        piece = text[a:b]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            a2, b2 = a + lead, a + len(piece.rstrip())
            toks.append({"text": text[a2:b2], "start": a2, "end": b2, "id": len(toks),
                         "ws": b2 < len(text) and text[b2:b2 + 1].isspace()})
    return toks


def prodigy_task(item: DocItem) -> dict[str, Any]:
    """One article as a Prodigy task: tokens cut at every span edge, claim spans with their attributes,
    entity spans, relations, stable hashes and our payload."""
    cuts = {x for c in item.claims for x in (c["start"], c["end"])}
    cuts |= {x for e in item.entities for x in (e.start, e.end)}
    toks = _tokens(item.text, cuts)
    tok_at_start = {t["start"]: t["id"] for t in toks}
    tok_at_end = {t["end"]: t["id"] for t in toks}
    spans, by_id = [], {}
    for c in item.claims:
        sp = {"start": c["start"], "end": c["end"], "text": c["text"], "label": c["kind"], "id": c["id"],
              "token_start": tok_at_start.get(c["start"]), "token_end": tok_at_end.get(c["end"])}
        for name, val in item.attributes(c).items():
            if format_value(val) is not None:
                sp[name] = format_value(val)
        spans.append(sp)
        by_id[c["id"]] = sp
    for e in item.entities:
        sp = {"start": e.start, "end": e.end, "text": e.text, "label": e.type, "id": e.id,
              ENTITY_ATTRIBUTE: e.entity_id,
              "token_start": tok_at_start.get(e.start), "token_end": tok_at_end.get(e.end)}
        spans.append(sp)
        by_id[e.id] = sp
    rels = []
    for cid, eid in item.relations:
        h, c = by_id[cid], by_id[eid]
        rels.append({"head": h["token_end"], "child": c["token_end"], "label": RELATION,
                     "head_span": {k: h[k] for k in ("start", "end", "token_start", "token_end", "label")},
                     "child_span": {k: c[k] for k in ("start", "end", "token_start", "token_end", "label")}})
    return {"text": item.text, "tokens": toks, "spans": spans, "relations": rels,
            "meta": {"doc": item.doc, "lang": item.lang, "sha256": item.sha256},
            "_input_hash": _hash(item.doc, item.sha256), "_task_hash": _hash(item.doc, item.sha256, "newsclaims"),
            "newsclaims": _payload(item)}


def _payload(item: DocItem) -> dict[str, Any]:
    return {"doc": item.doc, "claims": {c["id"]: c for c in item.claims},
            "entities": [asdict(e) for e in item.entities], "context": item.context, "run": item.run}


def doccano_task(item: DocItem, index: int) -> dict[str, Any]:
    """One article as doccano task number `index`: claim and entity spans (offsets in UTF-16 code units),
    relations and our payload."""
    omap, unit = OffsetMap(item.text), UNITS["doccano"]
    ids: dict[str, int] = {}
    ents = []
    for c in item.claims:
        ids[c["id"]] = len(ids) + 1
        ents.append({"id": ids[c["id"]], "label": c["kind"], "start_offset": omap.to_unit(c["start"], unit),
                     "end_offset": omap.to_unit(c["end"], unit)})
    for e in item.entities:
        ids[e.id] = len(ids) + 1
        ents.append({"id": ids[e.id], "label": e.type, "start_offset": omap.to_unit(e.start, unit),
                     "end_offset": omap.to_unit(e.end, unit)})
    rels = [{"id": k, "from_id": ids[a], "to_id": ids[b], "type": RELATION}
            for k, (a, b) in enumerate(item.relations, 1)]
    return {"id": index, "text": item.text, "entities": ents, "relations": rels, "doc": item.doc,
            "newsclaims": _payload(item)}


def write(fmt: str, items: list[DocItem], to: Path) -> list[Path]:
    """Write the articles as `fmt` (prodigy or doccano) JSONL tasks to `to`: a file, or a folder (then
    tasks.jsonl inside); returns the path."""
    path = to if to.suffix.lower() in (".jsonl", ".json") else to / "tasks.jsonl"
    if fmt == "prodigy":
        rows = [prodigy_task(i) for i in items]
    else:
        rows = [doccano_task(i, n) for n, i in enumerate(items, 1)]
    atomic_write_jsonl(path, rows)
    return [path]


# -- reading back ---------------------------------------------------------------------------------------

def _predicted(nc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, EntitySpan], dict[str, Any]]:
    return (nc.get("claims") or {}, {e["id"]: EntitySpan(**e) for e in nc.get("entities") or []},
            nc.get("context") or {})


def read(fmt: str, rows: list[dict[str, Any]], problems: list[str]) -> list[ReviewedDoc]:
    """The reviewed articles of `fmt` (prodigy or doccano) task rows; a task skipped or out of shape is
    said in `problems`."""
    out = []
    for n, row in enumerate(rows, 1):
        try:
            rd = _read_row(fmt, n, row, problems)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            # a task edited out of shape: that task only, named
            problems.append(f"{fmt}:line/{n}: malformed ({type(exc).__name__}: {exc}); it {NOT_IMPORTED}")
            continue
        if rd is not None:
            out.append(rd)
    return out


def _read_row(fmt: str, n: int, row: dict[str, Any], problems: list[str]) -> ReviewedDoc | None:
    nc = row.get("newsclaims") or {}
    text, doc = row.get("text"), nc.get("doc") or (row.get("meta") or {}).get("doc") or row.get("doc")
    if not isinstance(text, str) or not doc or not isinstance(doc, str):
        problems.append(f"line {n}: no text or no newsclaims.doc; not one of our tasks")
        return None
    claims, ents, ctx = _predicted(nc)
    omap = OffsetMap(text)
    where = f"{fmt}:line/{n}"
    if fmt == "prodigy" and row.get("answer") == "ignore":
        return None
    bad: list[str] = []
    regions, relations = (_prodigy_regions(row, omap, where, bad) if fmt == "prodigy"
                          else _doccano_regions(row, nc, omap, where, bad))
    problems.extend(bad)
    if bad:
        # as for Label Studio: a span that cannot be placed leaves its claim's decision unknown, so the task
        # waits for a fixed file instead of reading that claim as rejected
        problems.append(f"{where}: {len(bad)} span(s) could not be placed; this task {NOT_IMPORTED} "
                        "(fix the file and import it again)")
        return None
    if fmt == "prodigy":
        if row.get("answer") == "reject":  # the whole task rejected: every claim in it
            for r in regions:
                if r.control == "claim":
                    r.attrs["review"] = "rejected"
        reviewer = str(row.get("_annotator_id") or row.get("_session_id") or "prodigy")
        rd = ReviewedDoc(doc=doc, text=text, reviewer=reviewer, source=where, time=str(row.get("_timestamp", "")),
                         predicted=claims, predicted_entities=ents, predicted_context=ctx, regions=regions,
                         relations=relations, lang=(row.get("meta") or {}).get("lang"))
    else:
        # doccano keeps the predicted attributes in metadata: the reviewer could not change them
        for r in regions:
            base = claims.get(r.id)
            if r.control == "claim" and base is not None:
                r.attrs.update({k: v for k, v in _attr_text(base, ctx.get(r.id, {})).items()})
            elif r.control == "entity" and r.id in ents:
                r.attrs[ENTITY_ATTRIBUTE] = ents[r.id].entity_id
        reviewer = str(row.get("username") or row.get("annotator") or "doccano")
        rd = ReviewedDoc(doc=doc, text=text, reviewer=reviewer, source=where, time="", predicted=claims,
                         predicted_entities=ents, predicted_context=ctx, regions=regions, relations=relations,
                         attrs_complete=False)
    rd.run = nc.get("run")
    return rd


def _attr_text(claim: dict[str, Any], context: dict[str, str]) -> dict[str, str | None]:
    from pipeline.review.vocab import format_entities

    out = {}
    for name, (fld, _) in ATTRIBUTES.items():
        if name == "review":
            continue
        out[name] = format_entities(context) if name == "context" else format_value(claim.get(fld))
    return out


def _control(label: str) -> str | None:
    return "claim" if label in KINDS else "entity" if label in ENTITY_TYPES else None


def _prodigy_regions(row: dict[str, Any], omap: OffsetMap, where: str, problems: list[str]
                     ) -> tuple[list[Region], list[tuple[str, str]]]:
    regions: list[Region] = []
    at: dict[tuple[Any, Any], str] = {}
    for k, sp in enumerate(row.get("spans") or []):
        control = _control(str(sp.get("label")))
        if control is None:
            problems.append(f"{where}: span label {sp.get('label')!r} is not a kind or entity type; skipped")
            continue
        try:
            s, e = resolve_span(omap, int(sp["start"]), int(sp["end"]), sp.get("text"), UNITS["prodigy"])
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{where}: span {k}: {exc}; skipped")
            continue
        rid = str(sp.get("id") or f"span-{s}-{e}-{sp.get('label')}")
        names = list(ATTRIBUTES) if control == "claim" else [ENTITY_ATTRIBUTE]
        attrs = {name: (None if sp.get(name) is None else str(sp.get(name))) for name in names if name in sp}
        regions.append(Region(id=rid, start=s, end=e, control=control, label=str(sp["label"]), attrs=attrs))
        at[(s, e)] = rid
    rels = []
    for rel in row.get("relations") or []:
        h, c = rel.get("head_span") or {}, rel.get("child_span") or {}
        a, b = at.get((h.get("start"), h.get("end"))), at.get((c.get("start"), c.get("end")))
        if a and b:
            rels.append((a, b))
        else:
            problems.append(f"{where}: a relation between spans not in the task; skipped")
    return regions, rels


def _doccano_regions(row: dict[str, Any], nc: dict[str, Any], omap: OffsetMap, where: str, problems: list[str]
                     ) -> tuple[list[Region], list[tuple[str, str]]]:
    # doccano renumbers spans on import: a span is ours again when it sits where we put it, with our label
    place = {(c["start"], c["end"], c["kind"]): cid for cid, c in (nc.get("claims") or {}).items()}
    place.update({(e["start"], e["end"], e["type"]): e["id"] for e in nc.get("entities") or []})
    regions, by_num = [], {}
    for ent in row.get("entities") or row.get("label") or []:
        if isinstance(ent, list):  # the older [start, end, label] form
            ent = {"id": None, "start_offset": ent[0], "end_offset": ent[1], "label": ent[2]}
        control = _control(str(ent.get("label")))
        if control is None:
            problems.append(f"{where}: label {ent.get('label')!r} is not a kind or entity type; skipped")
            continue
        try:
            s, e = resolve_span(omap, int(ent["start_offset"]), int(ent["end_offset"]), None, UNITS["doccano"])
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{where}: span {ent.get('id')}: {exc}; skipped")
            continue
        num = ent.get("id")
        rid = place.get((s, e, str(ent["label"]))) or f"doccano-{num}-{s}-{e}"
        regions.append(Region(id=rid, start=s, end=e, control=control, label=str(ent["label"])))
        by_num[num] = rid
    rels = [(by_num[r["from_id"]], by_num[r["to_id"]]) for r in row.get("relations") or []
            if r.get("from_id") in by_num and r.get("to_id") in by_num]
    return regions, rels
