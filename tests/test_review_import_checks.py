"""`annotate import` writes a gold row only when it lands on the article's own words (#17, items 2-4): an
annotation is checked against the run it was exported from before anything is written; one whose article
is in no run, whose text is not the article's, or whose spans cannot be placed is left out and named.
A fuzz run of random edits to a real export keeps that promise."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_review_support import ARTICLES, review_run, reviewed_ls  # noqa: F401

from pipeline.errors import ReviewError, ReviewFileError
from pipeline.review import annotate_export, annotate_import
from pipeline.review.gold import GoldStore


@pytest.fixture(scope="module")
def export(review_run: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:  # noqa: F811
    folder = tmp_path_factory.mktemp("ls")
    annotate_export(review_run, "label-studio", folder)
    return reviewed_ls(json.loads((folder / "tasks.json").read_text(encoding="utf-8")))


def _write(tmp_path: Path, tasks: Any, name: str = "reviewed.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    return path


def _gold_rows(folder: Path) -> list[dict[str, Any]]:
    store = GoldStore(folder)
    return [r for doc in ARTICLES for r in store.rows(doc)] if folder.exists() else []


def _shift(task: dict[str, Any], prefix: str) -> None:
    """The task's text with `prefix` before it and every offset moved to match, as an edited export would."""
    n = len(prefix)  # no astral characters in the prefix: code points and UTF-16 units move alike
    task["data"]["text"] = prefix + task["data"]["text"]
    for part in (task["annotations"][0]["result"], task["predictions"][0]["result"]):
        for r in part:
            if "start" in r.get("value", {}):
                r["value"]["start"] += n
                r["value"]["end"] += n
    nc = task["data"]["newsclaims"]
    for c in nc["claims"].values():
        c["start"] += n
        c["end"] += n
    for e in nc["entities"]:
        e["start"] += n
        e["end"] += n


def test_an_unchanged_export_is_imported_whole(export: list[dict[str, Any]], tmp_path: Path) -> None:
    summary = annotate_import(_write(tmp_path, export), tmp_path / "ann")
    assert summary.reviewed == len(ARTICLES) and summary.skipped == 0 and not summary.problems
    for row in _gold_rows(tmp_path / "ann"):
        assert ARTICLES[row["doc"]][row["start"]:row["end"]] == row["text"]


@pytest.mark.parametrize("prefix", ["Updated: 12 ", "\n", "编者按：本文有改动。"])
def test_a_task_whose_text_is_not_the_articles_is_not_imported(export: list[dict[str, Any]], tmp_path: Path,
                                                                prefix: str) -> None:
    # (#17, item 3) text and offsets shifted together read consistently in the task, but point at other
    # words of the article
    tasks = copy.deepcopy(export)
    _shift(tasks[0], prefix)
    summary = annotate_import(_write(tmp_path, tasks), tmp_path / "ann")
    doc = tasks[0]["data"]["doc"]
    assert summary.skipped == 1 and summary.reviewed == len(tasks) - 1
    assert any("not the article's" in p and "character 0" in p for p in summary.problems)
    assert not GoldStore(tmp_path / "ann").rows(doc)


@pytest.mark.parametrize("doc", ["zh/elsewhere.txt", "en/b.txt.meta.yaml", "b.txt"])
def test_a_task_for_an_article_in_no_run_is_not_imported(export: list[dict[str, Any]], tmp_path: Path,
                                                          doc: str) -> None:
    # (#17, item 4)
    tasks = copy.deepcopy(export)
    tasks[0]["data"]["doc"] = doc
    summary = annotate_import(_write(tmp_path, tasks), tmp_path / "ann")
    assert summary.skipped == 1 and any("no article of the run" in p for p in summary.problems)
    assert not (tmp_path / "ann" / (doc + ".jsonl")).exists()


def test_a_run_that_moved_is_named_with_run(export: list[dict[str, Any]], review_run: Path,  # noqa: F811
                                            tmp_path: Path) -> None:
    tasks = copy.deepcopy(export)
    for t in tasks:
        t["data"]["newsclaims"]["run"] = str(tmp_path / "gone")
    path = _write(tmp_path, tasks)
    summary = annotate_import(path, tmp_path / "ann")
    assert summary.skipped == len(tasks) and all("--run" in p for p in summary.problems)
    assert annotate_import(path, tmp_path / "ann", run_dir=review_run).reviewed == len(tasks)


def test_a_run_option_that_is_no_run_is_a_usage_error(export: list[dict[str, Any]], tmp_path: Path) -> None:
    with pytest.raises(ReviewError, match="not a run's output folder"):
        annotate_import(_write(tmp_path, export), tmp_path / "ann", run_dir=tmp_path)


@pytest.mark.parametrize("fmt", ["prodigy", "doccano"])
def test_a_span_out_of_range_leaves_its_task_out_in_every_format(review_run: Path, tmp_path: Path,  # noqa: F811
                                                                 fmt: str) -> None:
    # (#17, item 2, for the JSONL tools too) the claim's decision is unknown: it must not read as rejected
    path = annotate_export(review_run, fmt, tmp_path / "t.jsonl").files[0]
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    spans = rows[0]["spans"] if fmt == "prodigy" else rows[0]["entities"]
    spans[0]["start" if fmt == "prodigy" else "start_offset"] = 10**9
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    summary = annotate_import(path, tmp_path / "ann")
    assert summary.skipped == 1 and summary.reviewed == len(rows) - 1


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    (b'[{"data": {"text": "x", "doc": "a.txt"}}, {"data": {"te', "cut short"),
    (b'{"text": "x"}\n{"text": "y", "spa', "cut short"),
    (b"\xff\xfe\xfd not utf-8", "not UTF-8"),
    (b'{"a": 1}', "cannot tell the format"),
    (b'[1, 2]', "list of tasks"),
    (b"[" * 100_000, "nested too deep"),
])
def test_a_review_file_that_is_not_one_is_a_coded_error(tmp_path: Path, content: bytes, message: str) -> None:
    # (#17, item 13) no traceback: E411, exit code 4 (pipeline/errors.py)
    path = tmp_path / "export.json"
    path.write_bytes(content)
    with pytest.raises(ReviewFileError, match=message) as err:
        annotate_import(path, tmp_path / "ann")
    assert err.value.code == "E411" and err.value.exit_code == 4
    assert not (tmp_path / "ann").exists()


@pytest.mark.parametrize("where, value", [
    (("data", "newsclaims", "run"), [1]), (("data", "newsclaims", "run"), 7), (("data", "doc"), ["a.txt"]),
    (("data", "newsclaims", "claims"), [1]), (("data", "newsclaims", "entities"), "x"),
    (("annotations", 0, "result", 0, "value"), None), (("annotations", 0, "result"), {"a": 1}),
])
def test_a_field_of_the_wrong_shape_leaves_its_task_out(export: list[dict[str, Any]], tmp_path: Path,
                                                         where: tuple, value: Any) -> None:
    # found by the fuzz run below: a run folder given as a list reached Path() and raised
    tasks = copy.deepcopy(export)
    node = tasks[0]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    annotate_import(_write(tmp_path, tasks), tmp_path / "ann")  # no exception: that task named, the rest in
    for row in _gold_rows(tmp_path / "ann"):
        assert ARTICLES[row["doc"]][row["start"]:row["end"]] == row["text"]


# -- fuzz: random edits to a real export never put a gold row on other words -------------------------------

def _paths(node: Any, at: tuple = ()) -> list[tuple]:
    out = [at]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*at, i))
    return out


def _get(node: Any, path: tuple) -> Any:
    for k in path:
        node = node[k]
    return node


HOT = {"text", "start", "end", "doc", "run", "start_offset", "end_offset"}  # the keys a gold row's place rests on


def _edit(tasks: list[dict[str, Any]], pick: int, op: str, arg: int) -> None:
    if op == "shift":  # the task's text edited and its offsets moved to match (or by a wrong amount)
        task = tasks[pick % len(tasks)]
        try:
            _shift(task, "x" * (abs(arg) or 1))
            if arg < 0:
                task["data"]["text"] = task["data"]["text"][1:]
        except (TypeError, KeyError, AttributeError, IndexError):
            pass  # an earlier edit broke the task's shape: the shift stops where it met it, as a hand edit would
        return
    paths = [p for p in _paths(tasks) if p]
    if pick % 3:  # two edits in three touch what places a row: its text, offsets, article or run
        paths = [p for p in paths if p[-1] in HOT]
    path = paths[pick % len(paths)]
    parent, key = _get(tasks, path[:-1]), path[-1]
    value = parent[key]
    if op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + arg
    elif op == "insert" and isinstance(value, str):
        cut = arg % (len(value) + 1)
        parent[key] = value[:cut] + "新x" + value[cut:]
    elif op == "drop" and isinstance(value, str) and value:
        cut = arg % len(value)
        parent[key] = value[:cut] + value[cut + 1:]
    elif op == "delete" and isinstance(parent, dict):
        del parent[key]
    elif op == "swap":
        other = paths[(pick + arg) % len(paths)]
        if other[:len(path)] != path and path[:len(other)] != other:  # neither inside the other
            oparent = _get(tasks, other[:-1])
            parent[key], oparent[other[-1]] = oparent[other[-1]], value
    else:
        parent[key] = {"none": None, "text": "x", "list": [1], "big": 10**9, "neg": -1}.get(op, None)


EDITS = st.lists(st.tuples(st.integers(0, 10**6),
                           st.sampled_from(["shift", "nudge", "insert", "drop", "delete", "swap", "none", "text",
                                            "list", "big", "neg"]),
                           st.integers(-40, 40)), min_size=1, max_size=4)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_random_edits_to_an_export_never_write_a_misplaced_gold_row(export: list[dict[str, Any]],
                                                                  tmp_path: Path, edits: list) -> None:
    tasks = copy.deepcopy(export)
    for pick, op, arg in edits:
        _edit(tasks, pick, op, arg)
    folder = tmp_path / "fuzz"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    try:
        annotate_import(_write(folder, tasks), folder / "ann")
    except ReviewError:
        return  # the file as a whole refused, with a coded message: nothing written
    for row in _gold_rows(folder / "ann"):
        assert ARTICLES[row["doc"]][row["start"]:row["end"]] == row["text"], row
