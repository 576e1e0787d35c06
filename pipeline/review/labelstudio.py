"""Label Studio: tasks with pre-annotations, the labeling config, reading a JSON export, syncing a project.

A task is one article: `data.text` (the decoded article), `data.doc`, and `data.newsclaims` (the claims
and entity spans as exported, so an import restores every field the page does not show).  Its
prediction holds one `labels` region per claim (from_name "claim", label = kind, region id = claim id)
with per-region `textarea` / `choices` results for the attributes, one `labels` region per entity span
(from_name "entity", per-region textarea entity_id) and `relation` results claim -> entity.

Offsets are code points (see pipeline.review.offsets); an import checks them against `value.text`.

The live-project helpers (`push`: a run into a project, `pull`: its reviews to a file for
annotate_import; `connect`, `sync`, `export_project` below them) need the `review` extra
(label-studio-sdk), imported when called.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.errors import ReviewError
from pipeline.fileio import atomic_write_text
from pipeline.review.model import NOT_IMPORTED, DocItem, EntitySpan, Region, ReviewedDoc
from pipeline.review.offsets import UNITS, OffsetMap, resolve_span
from pipeline.review.vocab import (
    ATTRIBUTES,
    CLAIM_CONTROL,
    ENTITY_ATTRIBUTE,
    ENTITY_CONTROL,
    RELATION,
    TEXT_OBJECT,
    format_value,
    label_studio_config,
)

UNIT = UNITS["label-studio"]
MODEL_VERSION = "newsclaims"
INSTALL_HINT = "the Label Studio client is not installed: pip install -e '.[review]' (label-studio-sdk)"


def _region(rid: str, control: str, rtype: str, start: int, end: int, value: dict[str, Any]) -> dict[str, Any]:
    return {"id": rid, "from_name": control, "to_name": TEXT_OBJECT, "type": rtype, "origin": "prediction",
            "value": {"start": start, "end": end, **value}}


def prediction_result(item: DocItem) -> list[dict[str, Any]]:
    """The prediction of one article: a labels region per claim with its attribute regions, one per
    entity span (with its canonical id), and the claim -> entity relations."""
    omap = OffsetMap(item.text)
    out: list[dict[str, Any]] = []
    for c in item.claims:
        s, e = omap.to_unit(c["start"], UNIT), omap.to_unit(c["end"], UNIT)
        out.append(_region(c["id"], CLAIM_CONTROL, "labels", s, e, {"text": c["text"], "labels": [c["kind"]]}))
        for name, val in item.attributes(c).items():
            text = format_value(val)
            if text is None or text == "":
                continue
            opts = ATTRIBUTES[name][1]
            if opts:
                out.append(_region(c["id"], name, "choices", s, e, {"choices": [text]}))
            else:
                out.append(_region(c["id"], name, "textarea", s, e, {"text": [text]}))
    for ent in item.entities:
        s, e = omap.to_unit(ent.start, UNIT), omap.to_unit(ent.end, UNIT)
        out.append(_region(ent.id, ENTITY_CONTROL, "labels", s, e, {"text": ent.text, "labels": [ent.type]}))
        if ent.entity_id:
            out.append(_region(ent.id, ENTITY_ATTRIBUTE, "textarea", s, e, {"text": [ent.entity_id]}))
    for cid, eid in item.relations:
        out.append({"from_id": cid, "to_id": eid, "type": "relation", "direction": "right", "labels": [RELATION]})
    return out


def task(item: DocItem) -> dict[str, Any]:
    """One article as a Label Studio task: text, doc, task_key and our payload in `data`, our claims as
    its prediction."""
    return {
        "data": {
            "text": item.text,
            "doc": item.doc,
            "lang": item.lang,
            "task_key": item.doc,  # stable: sync() finds the task again by it
            "sha256": item.sha256,
            "newsclaims": {
                "claims": {c["id"]: c for c in item.claims},
                "entities": [e.__dict__ for e in item.entities],
                "context": item.context,
                "run": item.run,
            },
        },
        "predictions": [{"model_version": MODEL_VERSION, "result": prediction_result(item)}],
    }


def write(items: list[DocItem], to: Path) -> list[Path]:
    """Write the tasks and the labeling config to `to`: a .json file (the config beside it) or a folder;
    returns both paths."""
    if to.suffix.lower() == ".json":
        tasks_path, config_path = to, to.with_name(to.stem + ".label_config.xml")
    else:
        tasks_path, config_path = to / "tasks.json", to / "label_config.xml"
    atomic_write_text(tasks_path, json.dumps([task(i) for i in items], ensure_ascii=False, indent=1) + "\n")
    atomic_write_text(config_path, label_studio_config())
    return [tasks_path, config_path]


# -- reading an export ---------------------------------------------------------------------------------

def _reviewer(ann: dict[str, Any]) -> str:
    who = ann.get("completed_by")
    if isinstance(who, dict):
        return str(who.get("email") or who.get("username") or f"label-studio-user-{who.get('id')}")
    if who is None:
        return "label-studio"
    return f"label-studio-user-{who}"


def read(rows: list[dict[str, Any]], problems: list[str]) -> list[ReviewedDoc]:
    """The reviewed articles of a Label Studio export, one per annotation not cancelled; an annotation left
    out, or a task out of shape, is said in `problems`."""
    out = []
    for n, t in enumerate(rows, 1):
        try:
            out += _read_task(t, problems)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            # a task edited out of shape (a list where a dict was, a text box of numbers...): that task only
            problems.append(f"label-studio:task/{t.get('id', n)}: malformed ({type(exc).__name__}: {exc}); it "
                            f"{NOT_IMPORTED}")
    return out


def _read_task(t: dict[str, Any], problems: list[str]) -> list[ReviewedDoc]:
    out: list[ReviewedDoc] = []
    data = t.get("data") or {}
    doc, text = data.get("doc"), data.get("text")
    if not doc or not isinstance(doc, str) or not isinstance(text, str):
        problems.append(f"task {t.get('id')}: no data.doc / data.text; not one of our tasks")
        return out
    nc = data.get("newsclaims") or {}
    predicted = nc.get("claims") or {}
    ents = {e["id"]: EntitySpan(**e) for e in nc.get("entities") or []}
    omap = OffsetMap(text)
    for ann in t.get("annotations") or []:
        if ann.get("was_cancelled"):
            continue
        where = f"label-studio:task/{t.get('id')}/annotation/{ann.get('id')}"
        bad: list[str] = []
        regions, relations = _regions(ann.get("result") or [], omap, where, bad)
        problems.extend(bad)
        if bad:
            # a region that cannot be placed is a claim whose decision is unknown: imported without it,
            # every such claim would read as rejected.  The whole annotation waits for a fixed export.
            problems.append(f"{where}: {len(bad)} region(s) could not be placed; this annotation {NOT_IMPORTED} "
                            "(fix the export and import it again)")
            continue
        out.append(ReviewedDoc(doc=doc, text=text, reviewer=_reviewer(ann), source=where,
                               time=str(ann.get("updated_at") or ann.get("created_at") or ""),
                               predicted=predicted, predicted_entities=ents,
                               predicted_context=nc.get("context") or {}, regions=regions, relations=relations,
                               lang=data.get("lang"), run=nc.get("run")))
    return out


def _regions(result: list[dict[str, Any]], omap: OffsetMap, where: str, problems: list[str]
             ) -> tuple[list[Region], list[tuple[str, str]]]:
    by_id: dict[str, Region] = {}
    attrs: dict[str, dict[str, str | None]] = {}
    relations = []
    for r in result:
        if r.get("type") == "relation":
            a, b = str(r.get("from_id")), str(r.get("to_id"))
            if r.get("direction") == "left":
                a, b = b, a
            relations.append((a, b))
            continue
        rid, v = str(r.get("id")), r.get("value") or {}
        if r.get("type") == "labels":
            labels = v.get("labels") or []
            if not labels or "start" not in v:
                problems.append(f"{where}: region {rid} has no label or no offsets; skipped")
                continue
            try:
                s, e = resolve_span(omap, int(v["start"]), int(v["end"]), v.get("text"), UNIT)
            except (ValueError, TypeError, KeyError) as exc:
                problems.append(f"{where}: region {rid}: {exc}; skipped")
                continue
            by_id[rid] = Region(id=rid, start=s, end=e, control=str(r.get("from_name")), label=str(labels[0]))
        elif r.get("type") == "textarea":
            attrs.setdefault(rid, {})[str(r.get("from_name"))] = "\n".join(v.get("text") or [])
        elif r.get("type") == "choices":
            ch = v.get("choices") or []
            attrs.setdefault(rid, {})[str(r.get("from_name"))] = str(ch[0]) if ch else None
    for rid, found in attrs.items():
        if rid in by_id:
            by_id[rid].attrs.update(found)
    return list(by_id.values()), relations


# -- a live Label Studio -------------------------------------------------------------------------------

def connect(url: str, api_key: str) -> Any:
    """A Label Studio client for `url`; ReviewError when the SDK (the `review` extra) is not installed."""
    try:
        from label_studio_sdk import LabelStudio
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise ReviewError(INSTALL_HINT) from exc
    return LabelStudio(base_url=url, api_key=api_key)


def create_project(ls: Any, title: str) -> int:
    """A new project with our labeling config; returns its id."""
    return int(ls.projects.create(title=title, label_config=label_studio_config()).id)


def sync(ls: Any, project_id: int, items: list[DocItem]) -> dict[str, int]:
    """Put the run's tasks into a project: a task whose article (task_key) is there already gets the new
    text and a fresh prediction (ours replaced, annotations untouched); the others are imported."""
    existing: dict[str, int] = {}
    for t in ls.tasks.list(project=project_id, fields="all"):
        key = (t.data or {}).get("task_key")
        if key:
            existing[key] = int(t.id)
    new, updated = [], 0
    for item in items:
        tk = task(item)
        tid = existing.get(item.doc)
        if tid is None:
            new.append(tk)
            continue
        ls.tasks.update(id=tid, data=tk["data"])
        for p in ls.predictions.list(task=tid):
            if str(p.model_version or "").startswith(MODEL_VERSION):
                ls.predictions.delete(id=p.id)
        ls.predictions.create(task=tid, result=tk["predictions"][0]["result"], model_version=MODEL_VERSION)
        updated += 1
    if new:
        ls.projects.import_tasks(id=project_id, request=new)
    return {"created": len(new), "updated": updated}


def export_project(ls: Any, project_id: int, to: Path) -> Path:
    """Download the project's JSON export (every task, with annotations) to `to`; each annotation's
    `completed_by` user id is replaced by {id, email}, so the import knows the reviewer by name."""
    chunks = ls.projects.exports.download_sync(id=project_id, export_type="JSON", download_all_tasks=True)
    data = b"".join(chunks) if not isinstance(chunks, (bytes, bytearray)) else bytes(chunks)
    tasks = json.loads(data.decode("utf-8"))
    try:
        emails = {int(u.id): u.email for u in ls.users.list() if getattr(u, "email", None)}
    except Exception:  # noqa: BLE001 - without the user list the import names reviewers by id
        emails = {}
    for t in tasks:
        for ann in t.get("annotations") or []:
            who = ann.get("completed_by")
            if isinstance(who, int) and who in emails:
                ann["completed_by"] = {"id": who, "email": emails[who]}
    atomic_write_text(Path(to), json.dumps(tasks, ensure_ascii=False, indent=1) + "\n")
    return Path(to)


def push(out_dir: Path, url: str, api_key: str, project: int | None = None, title: str = "newsclaims review",
         input_dir: Path | None = None) -> tuple[int, dict[str, int]]:
    """A run into a live Label Studio: a new project with our config (or `project`), tasks synced by
    article, so pushing a rerun updates the same tasks.  Returns (project id, created/updated counts)."""
    from pipeline.review.runs import load_run

    ls = connect(url, api_key)
    pid = project if project is not None else create_project(ls, title)
    return pid, sync(ls, pid, load_run(Path(out_dir), input_dir))


def pull(url: str, api_key: str, project: int, to: Path) -> Path:
    """A live project's reviews to a JSON file that `annotate_import` reads."""
    return export_project(connect(url, api_key), project, Path(to))
