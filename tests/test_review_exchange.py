"""Annotation exchange: offsets across code points and UTF-16, export to Label Studio / Prodigy / doccano,
and the way back (a reviewed file -> decisions -> annotations/), losslessly, on a run whose claims sit
after emoji and CJK Extension B characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_review_support import ARTICLES, claims_of, review_run, reviewed_ls  # noqa: F401

from pipeline.review import annotate_export, annotate_import
from pipeline.review.exchange import ReviewError, load_run, read_reviewed
from pipeline.review.model import CONTRACT_FIELDS, decisions
from pipeline.review.offsets import OffsetMap, resolve_span, utf16_len
from pipeline.review.vocab import claim_key, format_value, label_studio_config, parse_value

TEXTS = st.text(alphabet=st.sampled_from(list("ab 中文,.\n") + ["😀", "𠀀", "🚀", "\U0010ffff"]), max_size=40)


@given(TEXTS)
def test_offsets_round_trip_between_code_points_and_utf16(text: str) -> None:
    m = OffsetMap(text)
    for i in range(len(text) + 1):
        u = m.to_utf16(i)
        assert u == utf16_len(text[:i])
        assert m.from_utf16(u) == i


@pytest.mark.parametrize("text, inside", [("😀x", 1), ("a𠀀b", 2)])
def test_an_offset_inside_a_surrogate_pair_is_refused(text: str, inside: int) -> None:
    with pytest.raises(ValueError, match="surrogate"):
        OffsetMap(text).from_utf16(inside)


@pytest.mark.parametrize("unit", ["codepoint", "utf16"])
def test_resolve_span_takes_the_counting_that_reproduces_the_text(unit: str) -> None:
    text = "😀𠀀 23 秒"
    m = OffsetMap(text)
    s, e = text.index("23"), text.index("秒") + 1
    given_s, given_e = (s, e) if unit == "codepoint" else (m.to_utf16(s), m.to_utf16(e))
    # whatever the tool says it counts, the saved text decides
    for claimed in ("codepoint", "utf16"):
        assert resolve_span(m, given_s, given_e, "23 秒", claimed) == (s, e)
    with pytest.raises(ValueError, match="does not fit"):
        resolve_span(m, 0, 2, "zz", "codepoint")


@pytest.mark.parametrize("value, kind", [(6, "count"), (6.0, "count"), (4.3e17, "compute"), (0.1 + 0.2, "ratio"),
                                         ("2020-07", "date"), ("2020", "date"), (None, "count")])
def test_values_survive_the_text_box(value, kind) -> None:
    back = parse_value(format_value(value), kind)
    assert back == value and type(back) is type(value)


def test_claim_key_is_the_records_content_hash() -> None:
    from pipeline.records import Claim

    c = Claim(doc="zh/a.txt", lang="zh", sentence="s", start=3, end=7, text="23 秒", kind="duration", value=23,
              unit="s")
    assert claim_key(c.doc, c.start, c.end, c.text, c.kind) == c.id


def test_the_label_config_names_every_control_the_tasks_use(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    import xml.etree.ElementTree as ET

    annotate_export(review_run, "label-studio", tmp_path)
    root = ET.fromstring((tmp_path / "label_config.xml").read_text(encoding="utf-8"))
    names = {e.get("name") for e in root.iter() if e.get("name")}
    tasks = json.loads((tmp_path / "tasks.json").read_text(encoding="utf-8"))
    used = {r["from_name"] for t in tasks for r in t["predictions"][0]["result"] if "from_name" in r}
    assert used <= names
    assert label_studio_config() == (tmp_path / "label_config.xml").read_text(encoding="utf-8")


def test_export_needs_the_articles(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    other = tmp_path / "run"
    other.mkdir()
    (other / "claims.jsonl").write_bytes((review_run / "claims.jsonl").read_bytes())
    with pytest.raises(ReviewError, match="input folder"):
        annotate_export(other, "prodigy", tmp_path / "t.jsonl")
    src = Path(json.loads((review_run / "run.json").read_text())["input_dir"])
    summary = annotate_export(other, "prodigy", tmp_path / "t.jsonl", input_dir=src)
    assert summary.tasks == 2 and summary.claims == len(claims_of(review_run))


def _slice_utf16(text: str, s: int, e: int) -> str:
    return text.encode("utf-16-le")[2 * s:2 * e].decode("utf-16-le")


def test_label_studio_and_prodigy_count_code_points_doccano_utf16(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    ls = annotate_export(review_run, "label-studio", tmp_path / "ls").files[0]
    for t in json.loads(ls.read_text(encoding="utf-8")):
        for r in t["predictions"][0]["result"]:
            if r["type"] == "labels":
                assert t["data"]["text"][r["value"]["start"]:r["value"]["end"]] == r["value"]["text"]
    pg = annotate_export(review_run, "prodigy", tmp_path / "p.jsonl").files[0]
    for row in map(json.loads, pg.read_text(encoding="utf-8").splitlines()):
        for sp in row["spans"]:
            assert row["text"][sp["start"]:sp["end"]] == sp["text"]
            toks = row["tokens"]
            assert toks[sp["token_start"]]["start"] == sp["start"] and toks[sp["token_end"]]["end"] == sp["end"]
    dc = annotate_export(review_run, "doccano", tmp_path / "d.jsonl").files[0]
    shifted = 0
    for row in map(json.loads, dc.read_text(encoding="utf-8").splitlines()):
        claims = row["newsclaims"]["claims"]
        by_place = {(c["start"], c["end"]): c for c in claims.values()}
        m = OffsetMap(row["text"])
        for ent in row["entities"]:
            piece = _slice_utf16(row["text"], ent["start_offset"], ent["end_offset"])
            cp = (m.from_utf16(ent["start_offset"]), m.from_utf16(ent["end_offset"]))
            assert row["text"][cp[0]:cp[1]] == piece
            if cp in by_place:
                assert piece == by_place[cp]["text"]
                shifted += ent["start_offset"] != cp[0]
    assert shifted >= 2  # the astral characters really moved doccano's offsets


def _reviewed_ls(tasks_path: Path, reviewer: str = "ann@example.org") -> list[dict]:
    """What Label Studio exports when a reviewer submits the pre-annotations unchanged."""
    return reviewed_ls(json.loads(tasks_path.read_text(encoding="utf-8")), reviewer)


@pytest.mark.parametrize("fmt", ["label-studio", "prodigy", "doccano"])
def test_an_unchanged_review_gives_back_every_field(fmt: str, review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    path = annotate_export(review_run, fmt, tmp_path / ("ls" if fmt == "label-studio" else "t.jsonl")).files[0]
    if fmt == "label-studio":
        path = tmp_path / "reviewed.json"
        path.write_text(json.dumps(_reviewed_ls(tmp_path / "ls" / "tasks.json")), encoding="utf-8")
    problems: list[str] = []
    got_fmt, reviewed = read_reviewed(path, None, problems)
    assert got_fmt == fmt and not problems
    predicted = {c["id"]: c for c in claims_of(review_run)}
    items = {i.doc: i for i in load_run(review_run)}
    seen = set()
    for rd in reviewed:
        for d in decisions(rd):
            assert d.action == "accept", (d.what, d.row.get("text"))
            if d.what == "claim":
                seen.add(d.id)
                for f in CONTRACT_FIELDS:
                    assert d.row.get(f) == predicted[d.id].get(f), (f, d.row.get("text"))
            else:
                spans = {e.id: e for e in items[d.doc].entities}
                assert (d.row["start"], d.row["end"], d.row["entity_id"]) == (
                    spans[d.id].start, spans[d.id].end, spans[d.id].entity_id)
    assert seen == set(predicted)


def _edit_ls(tasks: list[dict]) -> dict[str, str]:
    """Correct, reject, add, relate: what a reviewer does in Label Studio.  Returns the touched ids."""
    t = next(t for t in tasks if t["data"]["doc"] == "zh/a.txt")
    text, result = t["data"]["text"], t["annotations"][0]["result"]
    claims = t["data"]["newsclaims"]["claims"]
    by_text = {c["text"]: cid for cid, c in claims.items()}
    fix, drop = by_text["23 秒"], by_text["不到 30 秒"]
    for r in result:
        if r.get("id") == fix and r["from_name"] == "value":
            r["value"]["text"] = ["24"]
        if r.get("id") == fix and r["from_name"] == "verdict":
            r["value"]["choices"] = ["contradicted"]
    result[:] = [r for r in result if r.get("id") != drop and r.get("from_id") != drop]
    # a new claim right after the emoji and the CJK Extension B character, as Label Studio saves it
    s = text.index("4096")
    e = s + len("4096")
    new = "newregion1"
    result.append({"id": new, "from_name": "claim", "to_name": "text", "type": "labels",
                   "value": {"start": s, "end": e, "text": "4096", "labels": ["count"]}})
    result.append({"id": new, "from_name": "value", "to_name": "text", "type": "textarea",
                   "value": {"start": s, "end": e, "text": ["4096"]}})
    result.append({"id": new, "from_name": "unit", "to_name": "text", "type": "textarea",
                   "value": {"start": s, "end": e, "text": ["count"]}})
    result.append({"id": new, "from_name": "note", "to_name": "text", "type": "textarea",
                   "value": {"start": s, "end": e, "text": ["a second reading, for the test"]}})
    org = next(r for r in result
               if r["type"] == "labels" and r["from_name"] == "entity" and r["value"]["labels"] == ["org"])
    result.append({"from_id": new, "to_id": org["id"], "type": "relation", "direction": "right", "labels": ["about"]})
    return {"fix": fix, "drop": drop, "org": org["id"], "doc": "zh/a.txt"}


def test_a_corrected_label_studio_review_comes_back_as_decisions(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    annotate_export(review_run, "label-studio", tmp_path / "ls")
    tasks = _reviewed_ls(tmp_path / "ls" / "tasks.json")
    ids = _edit_ls(tasks)
    path = tmp_path / "reviewed.json"
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    _, reviewed = read_reviewed(path)
    ds = {(d.what, d.id): d for rd in reviewed for d in decisions(rd)}
    fixed = ds[("claim", ids["fix"])]
    assert fixed.action == "correct" and fixed.row["value"] == 24 and fixed.row["verdict"] == "contradicted"
    assert fixed.row["low"] is None and fixed.row["high"] is None  # the run's interval was for 23
    assert ds[("claim", ids["drop"])].action == "reject" and ds[("claim", ids["drop"])].row["status"] == "rejected"
    added = [d for d in ds.values() if d.action == "add" and d.what == "claim"]
    assert len(added) == 1
    row = added[0].row
    assert row["text"] == "4096" and row["entities"]["org"] == "google" and row["note"].startswith("a second")
    zh = ARTICLES["zh/a.txt"]
    assert row["entity_spans"]["org"] == [zh.index("谷歌"), zh.index("谷歌") + 2]
    assert row["id"] == claim_key("zh/a.txt", row["start"], row["end"], "4096", "count")


def test_doccano_review_with_utf16_offsets(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    path = annotate_export(review_run, "doccano", tmp_path / "d.jsonl").files[0]
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows if r["doc"] == "zh/a.txt")
    m = OffsetMap(row["text"])
    claims = row["newsclaims"]["claims"]
    ratio = next(c for c in claims.values() if c["kind"] == "ratio")
    # doccano renumbers spans on import; the reviewer relabels the ratio as a percent
    for n, ent in enumerate(row["entities"], 500):
        old = ent["id"]
        ent["id"] = n
        for rel in row["relations"]:
            rel["from_id"] = n if rel["from_id"] == old else rel["from_id"]
            rel["to_id"] = n if rel["to_id"] == old else rel["to_id"]
        if (m.from_utf16(ent["start_offset"]), m.from_utf16(ent["end_offset"])) == (ratio["start"], ratio["end"]):
            ent["label"] = "percent"
    row["username"] = "dc-reviewer"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    _, reviewed = read_reviewed(path)
    ds = [d for rd in reviewed for d in decisions(rd) if d.what == "claim" and d.doc == "zh/a.txt"]
    changed = [d for d in ds if d.action != "accept"]
    assert [(d.id, d.action, d.row["kind"], d.row["text"]) for d in changed] == [
        (ratio["id"], "correct", "percent", ratio["text"])]
    # doccano cannot edit attributes: kept as exported, entities too (relations and context)
    assert changed[0].row["value"] == ratio["value"] and changed[0].row["entities"] == ratio["entities"]
    assert all(d.reviewer == "dc-reviewer" for d in ds)


def test_a_rejected_prodigy_task_rejects_its_claims(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    path = annotate_export(review_run, "prodigy", tmp_path / "p.jsonl").files[0]
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    for r in rows:
        r["answer"] = "reject" if r["meta"]["doc"] == "en/b.txt" else "accept"
        r["_annotator_id"] = "pg-session-1"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    summary = annotate_import(path, tmp_path / "ann")
    assert summary.format == "prodigy" and summary.reviewed == 2
    gold = [json.loads(x) for x in (tmp_path / "ann" / "en/b.txt.jsonl").read_text(encoding="utf-8").splitlines()]
    assert gold and {g["status"] for g in gold} == {"rejected"}


def test_a_task_naming_a_doc_outside_the_folder_is_skipped(review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    annotate_export(review_run, "label-studio", tmp_path / "ls")
    tasks = _reviewed_ls(tmp_path / "ls" / "tasks.json")
    tasks[0]["data"]["doc"] = "../../outside.txt"
    path = tmp_path / "reviewed.json"
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    summary = annotate_import(path, tmp_path / "sub" / "ann")
    assert summary.reviewed == 1 and any("outside" in p for p in summary.problems)
    assert not list(tmp_path.rglob("outside.txt*"))


def test_unknown_files_are_refused(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_text('{"foo": 1}\n', encoding="utf-8")
    with pytest.raises(ReviewError, match="cannot tell the format"):
        annotate_import(p, tmp_path / "ann")


@pytest.mark.parametrize("bad", [10**9, -5, "x", "swap"])
def test_an_annotation_with_a_region_out_of_range_is_not_imported(review_run: Path, tmp_path: Path,  # noqa: F811
                                                                  bad) -> None:
    # (#17, item 2) a region that cannot be placed is a claim whose decision is unknown: the whole annotation
    # waits for a fixed export instead of turning every such claim into a rejection
    annotate_export(review_run, "label-studio", tmp_path / "ls")
    tasks = _reviewed_ls(tmp_path / "ls" / "tasks.json")
    region = next(r for r in tasks[0]["annotations"][0]["result"] if r.get("type") == "labels")
    if bad == "swap":
        region["value"]["start"], region["value"]["end"] = region["value"]["end"], region["value"]["start"]
    else:
        region["value"]["start"] = bad
    path = tmp_path / "reviewed.json"
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    summary = annotate_import(path, tmp_path / "ann")
    assert summary.skipped == 1 and any("was not imported" in p for p in summary.problems)
    assert summary.reviewed == len(tasks) - 1
    doc = tasks[0]["data"]["doc"]
    assert not (tmp_path / "ann" / (doc + ".jsonl")).exists()
