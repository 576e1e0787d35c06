"""The records an exchange passes through, whatever the tool.

Export: a run becomes one `DocItem` per article (text, predicted claims, entity spans, claim -> entity
relations); each format writes its own task JSON from it.  Import: each format reads a reviewed file into
`ReviewedDoc`s (one per article and reviewer), and `decisions()` turns one into review decisions on
claims and entity spans, which `pipeline.review.gold` merges into annotations/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.records import CONTRACT_FIELDS, ENTITY_TYPES, KINDS
from pipeline.review.vocab import (
    ATTRIBUTES,
    ENTITY_ATTRIBUTE,
    claim_key,
    entity_key,
    format_entities,
    parse_entities,
    parse_value,
    same_decision,
    same_field,
)

# the words of a problem that left a whole annotation out (exchange.ImportSummary.skipped counts them)
NOT_IMPORTED = "was not imported"


@dataclass(frozen=True)
class EntitySpan:
    id: str
    start: int
    end: int
    text: str
    type: str
    entity_id: str | None


@dataclass
class DocItem:
    doc: str
    text: str
    lang: str | None
    sha256: str
    claims: list[dict[str, Any]]
    entities: list[EntitySpan] = field(default_factory=list)
    relations: list[tuple[str, str]] = field(default_factory=list)  # (claim id, entity span id)
    context: dict[str, dict[str, str]] = field(default_factory=dict)  # claim id -> entities not in the text
    run: str | None = None  # the run folder it came from: an import checks the reviewed text against it

    def attributes(self, claim: dict[str, Any]) -> dict[str, Any]:
        """A claim's per-region attributes, as values (None where the claim has none)."""
        out: dict[str, Any] = {}
        for name, (fld, _) in ATTRIBUTES.items():
            if name == "review":
                continue
            if name == "context":
                out[name] = format_entities(self.context.get(claim["id"], {})) or None
            else:
                out[name] = claim.get(fld)
        return out


@dataclass
class Region:
    """A span in a reviewed file: a claim (control 'claim', label = kind) or an entity (label = type)."""

    id: str
    start: int  # code points, resolved against the article text
    end: int
    control: str
    label: str
    attrs: dict[str, str | None] = field(default_factory=dict)  # attribute name -> text as the tool gave it


@dataclass
class ReviewedDoc:
    doc: str
    text: str
    reviewer: str
    source: str  # where the decision came from, e.g. "label-studio:task/12/annotation/40"
    time: str  # when the reviewer made it (ISO), as the tool says
    predicted: dict[str, dict[str, Any]]  # claim id -> the claim as exported
    predicted_entities: dict[str, EntitySpan]
    predicted_context: dict[str, dict[str, str]]
    regions: list[Region]
    relations: list[tuple[str, str]]  # (from region id, to region id)
    attrs_complete: bool = True  # False: the tool cannot edit attributes (doccano): a missing one is kept
    lang: str | None = None
    run: str | None = None  # the run folder the task was exported from, as the export recorded it


@dataclass
class Decision:
    doc: str
    id: str  # the claim (or entity span) under review: a predicted claim's id, or the new span's hash
    reviewer: str
    action: str  # accept, reject, correct, add
    row: dict[str, Any]  # the gold row, with status and reviewer
    source: str
    time: str
    what: str = "claim"  # claim or entity


def _row_from_region(rd: ReviewedDoc, r: Region, base: dict[str, Any] | None) -> dict[str, Any]:
    row: dict[str, Any] = {k: (base or {}).get(k) for k in CONTRACT_FIELDS}
    row.update(doc=rd.doc, lang=row.get("lang") or rd.lang, start=r.start, end=r.end, text=rd.text[r.start:r.end],
               kind=r.label)
    row.setdefault("entities", {})
    for name, (fld, _) in ATTRIBUTES.items():
        if name in ("review", "context"):
            continue
        if name not in r.attrs and not rd.attrs_complete:
            continue  # the tool could not show it: keep what was exported
        raw = r.attrs.get(name)
        if name in ("value", "of_total"):
            val = parse_value(raw, r.label if name == "value" else None)
            # keep the exported value's type (6 vs 6.0) when the reviewer left the number alone
            if base is not None and same_field(name, val, base.get(fld)) and type(val) is not type(base.get(fld)):
                val = base.get(fld)
            row[fld] = val
        else:
            row[fld] = (raw or "").strip() or None
    # entities: the ones the text does not name, then the related entity spans
    regions = {x.id: x for x in rd.regions}
    if "context" in r.attrs or rd.attrs_complete:
        ents: dict[str, str | None] = dict(parse_entities(r.attrs.get("context")))
    else:
        ents = dict(rd.predicted_context.get(base["id"] if base else r.id, {}))
    spans: dict[str, list[int]] = {}
    for src, dst in rd.relations:
        e = regions.get(dst) if src == r.id else None
        if e is not None and e.control == "entity" and e.label in ENTITY_TYPES:
            eid = (e.attrs.get(ENTITY_ATTRIBUTE) or "").strip()
            if not eid and not rd.attrs_complete and e.id in rd.predicted_entities:
                eid = rd.predicted_entities[e.id].entity_id or ""
            if eid:
                ents[e.label] = eid
                spans[e.label] = [e.start, e.end]
    row["entities"] = {t: ents.get(t) for t in ENTITY_TYPES}
    if spans:
        row["entity_spans"] = spans
    # the interval follows value and bound: keep it only when neither changed
    if base is None or not (same_field("value", row.get("value"), base.get("value"))
                            and row.get("bound") == base.get("bound") and row.get("kind") == base.get("kind")):
        row["low"] = row["high"] = None
    return row


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return min(a[1], b[1]) - max(a[0], b[0])


def decisions(rd: ReviewedDoc) -> list[Decision]:
    """The review decisions in one reviewed article: every predicted claim is accepted (its region kept as
    it was), corrected (kept and edited, or deleted and redrawn over the same words), rejected (deleted,
    or marked rejected), and every new claim region is added."""
    out: list[Decision] = []
    claim_regions = [r for r in rd.regions if r.control == "claim" and r.label in KINDS]
    kept = {r.id for r in claim_regions if r.id in rd.predicted}
    deleted = {cid: (int(c["start"]), int(c["end"])) for cid, c in rd.predicted.items() if cid not in kept}
    taken: set[str] = set()

    def decide(key: str, action: str, row: dict[str, Any], what: str = "claim") -> None:
        out.append(Decision(doc=rd.doc, id=key, reviewer=rd.reviewer, action=action, row=row, source=rd.source,
                            time=rd.time, what=what))

    for r in sorted(claim_regions, key=lambda x: (x.start, x.end)):
        base = rd.predicted.get(r.id)
        key = r.id if base is not None else None
        if base is None:  # a new region: does it redraw a deleted prediction?
            cands = [(o, cid) for cid, span in deleted.items() if cid not in taken
                     and (o := _overlap(span, (r.start, r.end))) > 0]
            if cands:
                key = max(cands)[1]
                base = rd.predicted[key]
                taken.add(key)
        row = _row_from_region(rd, r, base)
        status = (r.attrs.get("review") or "accepted").strip() or "accepted"
        row["status"] = status if status in ("accepted", "rejected") else "accepted"
        row["reviewer"] = rd.reviewer
        if key is None:
            key = claim_key(rd.doc, row["start"], row["end"], row["text"], row["kind"])
            action = "add"
        elif row["status"] == "rejected":
            action = "reject"
        else:
            action = "accept" if same_decision({**(base or {}), "status": "accepted"}, row) else "correct"
        row["id"] = key
        decide(key, action, row)
    for cid in deleted:
        if cid not in taken:
            row = {k: rd.predicted[cid].get(k) for k in CONTRACT_FIELDS}
            row.update(id=cid, status="rejected", reviewer=rd.reviewer)
            decide(cid, "reject", row)
    # entity spans: kept, corrected, added, deleted
    ent_regions = [r for r in rd.regions if r.control == "entity" and r.label in ENTITY_TYPES]
    kept_e = set()
    for r in ent_regions:
        base_e = rd.predicted_entities.get(r.id)
        eid = (r.attrs.get(ENTITY_ATTRIBUTE) or "").strip() or None
        if eid is None and not rd.attrs_complete and base_e is not None:
            eid = base_e.entity_id
        key = r.id if base_e is not None else entity_key(rd.doc, r.start, r.end, r.label)
        erow = {"id": key, "doc": rd.doc, "start": r.start, "end": r.end, "text": rd.text[r.start:r.end],
                "type": r.label, "entity_id": eid, "status": "accepted", "reviewer": rd.reviewer}
        if base_e is None:
            action = "add"
        else:
            kept_e.add(r.id)
            same = (base_e.start, base_e.end, base_e.type, base_e.entity_id) == (r.start, r.end, r.label, eid)
            action = "accept" if same else "correct"
        decide(key, action, erow, "entity")
    for key, e in rd.predicted_entities.items():
        if key not in kept_e:
            decide(key, "reject", {"id": key, "doc": rd.doc, "start": e.start, "end": e.end, "text": e.text,
                                   "type": e.type, "entity_id": e.entity_id, "status": "rejected",
                                   "reviewer": rd.reviewer}, "entity")
    return out
