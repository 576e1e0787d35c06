"""A real Label Studio round trip: export a run, review it through Label Studio's API, import it back.

Label Studio runs from its own virtualenv (.ls-venv, made by .ci/setup-label-studio; NEWSCLAIMS_LS_VENV
names another) on 127.0.0.1 at a free port, with a throw-away data folder and a known user and API token;
the project talks to it over HTTP with label-studio-sdk (our `review` extra).  The test creates a project
with our labeling config, puts the tasks in (twice: the second time updates them, no duplicates), submits
an unchanged review of one article and a corrected review of the other (a value and verdict changed, a
claim deleted, a claim added after an emoji and a CJK Extension B character, a relation drawn), exports
the project, imports the export into a temporary annotations folder, and checks that nothing was lost:
spans, attributes, relations, entity spans.

Locally the test skips when Label Studio or the SDK is missing; under CI (CI=true) that is a failure.
The server gets NEWSCLAIMS_LS_START_TIMEOUT seconds (default 180) to come up and is always stopped.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_review_support import ARTICLES, claims_of, review_run  # noqa: F401

from pipeline.fileio import read_jsonl
from pipeline.review import annotate_import, labelstudio
from pipeline.review.exchange import load_run
from pipeline.review.gold import LOG_NAME, GoldStore
from pipeline.review.model import CONTRACT_FIELDS

REPO = Path(__file__).resolve().parents[1]
SETUP_HINT = "run .ci/setup-label-studio (Label Studio in .ls-venv, label-studio-sdk in .venv)"
USER, PASSWORD, TOKEN = "reviewer@newsclaims.test", "newsclaims-review-test", "newsclaims0review0test0token0000"


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the Label Studio round trip: {SETUP_HINT}")
    pytest.skip(f"{reason}: {SETUP_HINT}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/health", timeout=5) as r:
            return r.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def label_studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    exe = Path(os.environ.get("NEWSCLAIMS_LS_VENV", REPO / ".ls-venv")) / "bin" / "label-studio"
    if not exe.exists():
        _missing(f"Label Studio is not installed ({exe} not found)")
    try:
        import label_studio_sdk  # noqa: F401
    except ImportError:
        _missing("label-studio-sdk is not installed in this virtualenv")
    data = tmp_path_factory.mktemp("label-studio-data")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "LABEL_STUDIO_BASE_DATA_DIR": str(data), "LABEL_STUDIO_USERNAME": USER,
           "LABEL_STUDIO_PASSWORD": PASSWORD, "LABEL_STUDIO_USER_TOKEN": TOKEN,
           "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true", "LATEST_VERSION_CHECK": "false",
           "COLLECT_ANALYTICS": "false", "SENTRY_DSN": "", "FRONTEND_SENTRY_DSN": "", "DEBUG": "false",
           "LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK": "true", "HOME": str(data)}
    log = open(data / "server.log", "wb")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(
        [str(exe), "start", "--no-browser", "--internal-host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data), "--username", USER, "--password", PASSWORD, "--user-token", TOKEN,
         "--enable-legacy-api-token", "--log-level", "WARNING"],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, cwd=data, start_new_session=True)
    try:
        deadline = time.monotonic() + float(os.environ.get("NEWSCLAIMS_LS_START_TIMEOUT", "180"))
        while not _up(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = (data / "server.log").read_text(errors="replace")[-3000:]
                why = f"exited {proc.returncode}" if proc.poll() is not None else "timed out"
                pytest.fail(f"Label Studio did not come up at {url} ({why}):\n{tail}")
            time.sleep(2)
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # its own session: the runserver and anything it started
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)
        log.close()


def _corrections(result: list[dict[str, Any]], claims: dict[str, dict[str, Any]], text: str) -> dict[str, Any]:
    by_text = {c["text"]: cid for cid, c in claims.items()}
    fix, drop = by_text["23 秒"], by_text["不到 30 秒"]
    for r in result:
        if r.get("id") == fix and r["from_name"] == "value":
            r["value"]["text"] = ["24"]
        if r.get("id") == fix and r["from_name"] == "verdict":
            r["value"]["choices"] = ["contradicted"]
    result[:] = [r for r in result if r.get("id") != drop and drop not in (r.get("from_id"), r.get("to_id"))]
    s = text.index("4096")  # after 🚀 and 𠀀: code point 6, UTF-16 unit 9
    e = s + 4
    new = "added-by-test"
    span = {"start": s, "end": e}
    result += [
        {"id": new, "from_name": "claim", "to_name": "text", "type": "labels",
         "value": {**span, "text": "4096", "labels": ["count"]}},
        {"id": new, "from_name": "value", "to_name": "text", "type": "textarea", "value": {**span, "text": ["4096"]}},
        {"id": new, "from_name": "unit", "to_name": "text", "type": "textarea", "value": {**span, "text": ["count"]}},
        {"id": new, "from_name": "bound", "to_name": "text", "type": "choices",
         "value": {**span, "choices": ["exact"]}},
        {"id": new, "from_name": "verdict", "to_name": "text", "type": "choices",
         "value": {**span, "choices": ["supported"]}},
        {"id": new, "from_name": "note", "to_name": "text", "type": "textarea",
         "value": {**span, "text": ["the number alone, for the test"]}},
    ]
    org = next(r for r in result if r.get("from_name") == "entity" and r["value"]["labels"] == ["org"])
    result.append({"from_id": new, "to_id": org["id"], "type": "relation", "direction": "right", "labels": ["about"]})
    return {"fix": fix, "drop": drop, "new_span": (s, e), "org": org}


def _result_key(r: dict[str, Any]) -> str:
    keep = {k: r.get(k) for k in ("id", "from_name", "type", "value", "from_id", "to_id", "labels", "direction")}
    return json.dumps(keep, sort_keys=True, ensure_ascii=False)


def test_label_studio_round_trip(label_studio: str, review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    ls = labelstudio.connect(label_studio, TOKEN)
    items = load_run(review_run)
    pid, counts = labelstudio.push(review_run, label_studio, TOKEN, title="newsclaims round trip")
    assert counts == {"created": 2, "updated": 0}
    # a second push (a rerun) updates the same tasks: stable keys, no duplicates
    assert labelstudio.push(review_run, label_studio, TOKEN, project=pid) == (pid, {"created": 0, "updated": 2})
    tasks = {t.data["doc"]: t for t in ls.tasks.list(project=pid, fields="all")}
    assert set(tasks) == set(ARTICLES)
    for t in tasks.values():
        assert [p.model_version for p in ls.predictions.list(task=t.id)] == [labelstudio.MODEL_VERSION]

    submitted: dict[str, list[dict[str, Any]]] = {}
    edits: dict[str, Any] = {}
    for doc, t in tasks.items():
        (pred,) = ls.predictions.list(task=t.id)
        result = copy.deepcopy([dict(r) for r in pred.result])
        if doc == "zh/a.txt":
            edits = _corrections(result, t.data["newsclaims"]["claims"], t.data["text"])
        ls.annotations.create(id=t.id, result=result, was_cancelled=False, ground_truth=False)
        submitted[doc] = result

    export = labelstudio.pull(label_studio, TOKEN, pid, tmp_path / "export.json")
    exported = json.loads(export.read_text(encoding="utf-8"))
    for t in exported:  # Label Studio kept every region, attribute and relation as submitted
        (ann,) = t["annotations"]
        assert sorted(map(_result_key, ann["result"])) == sorted(map(_result_key, submitted[t["data"]["doc"]]))
        assert ann["completed_by"]["email"] == USER

    ann_dir = tmp_path / "annotations"
    summary = annotate_import(export, ann_dir)
    assert summary.format == "label-studio" and summary.reviewed == 2 and not summary.problems
    assert summary.conflicts == [] and summary.actions["correct"] == 1 and summary.actions["add"] == 1
    store = GoldStore(ann_dir)
    predicted = {c["id"]: c for c in claims_of(review_run)}

    # the unchanged article: every field of every claim, as the run wrote it
    en = {r["id"]: r for r in store.rows("en/b.txt")}
    assert set(en) == {cid for cid, c in predicted.items() if c["doc"] == "en/b.txt"}
    for cid, row in en.items():
        assert {f: row.get(f) for f in CONTRACT_FIELDS} == {f: predicted[cid].get(f) for f in CONTRACT_FIELDS}
        assert row["status"] == "accepted" and row["reviewer"] == USER

    # the corrected one
    zh = {r["id"]: r for r in store.rows("zh/a.txt")}
    fixed = zh[edits["fix"]]
    assert (fixed["value"], fixed["verdict"], fixed["text"]) == (24, "contradicted", "23 秒")
    assert fixed["entities"] == predicted[edits["fix"]]["entities"]
    assert zh[edits["drop"]]["status"] == "rejected"
    (added,) = [r for r in zh.values() if r["id"] not in predicted]
    assert (added["start"], added["end"]) == edits["new_span"] and added["text"] == "4096"
    assert ARTICLES["zh/a.txt"][added["start"]:added["end"]] == "4096"
    assert added["entities"]["org"] == "google" and added["note"] == "the number alone, for the test"
    assert added["entity_spans"]["org"] == [edits["org"]["value"]["start"], edits["org"]["value"]["end"]]
    for cid, row in zh.items():
        if cid in predicted and cid not in (edits["fix"], edits["drop"]):
            assert {f: row.get(f) for f in CONTRACT_FIELDS} == {f: predicted[cid].get(f) for f in CONTRACT_FIELDS}

    # entity spans, as exported
    for item in items:
        ents = {r["id"]: r for r in store.rows(item.doc, "entity")}
        assert {(e.id, e.start, e.end, e.type, e.entity_id) for e in item.entities} == {
            (k, r["start"], r["end"], r["type"], r["entity_id"]) for k, r in ents.items()}

    log = read_jsonl(ann_dir / LOG_NAME)
    assert len(log) == sum(summary.actions.values())
    again = annotate_import(export, ann_dir)  # importing the same export twice changes nothing
    assert set(again.outcomes) == {"unchanged"} and len(read_jsonl(ann_dir / LOG_NAME)) == len(log)


# -- Label Studio's own page, in a browser --------------------------------------------------------------

BROWSER_HINT = "run .ci/setup-browser (apt-get install chromium; .venv/bin/pip install playwright)"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    import shutil

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"playwright is not installed; CI must run the browser test: {BROWSER_HINT}")
        pytest.skip(f"playwright is not installed: {BROWSER_HINT}")
    exe = next((p for p in (os.environ.get("NEWSCLAIMS_CHROMIUM"), shutil.which("chromium"),
                            shutil.which("chromium-browser")) if p and os.access(p, os.X_OK)), None)
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail(f"no headless Chromium; CI must run the browser test: {BROWSER_HINT}")
        pytest.skip(f"no headless Chromium (chromium not on PATH, NEWSCLAIMS_CHROMIUM unset): {BROWSER_HINT}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def test_label_studio_draws_and_saves_code_point_offsets(label_studio: str, browser: Any, review_run: Path,  # noqa: F811
                                                         tmp_path: Path) -> None:
    """The question every offset conversion hangs on, asked of Label Studio's editor itself: our
    pre-annotations are highlighted on the right words after 🚀, 𠀀 and 😀, and a span a person selects
    with the mouse is saved in code points (Python's counting), not UTF-16 units."""
    import re

    from playwright.sync_api import expect

    ls = labelstudio.connect(label_studio, TOKEN)
    items = [i for i in load_run(review_run) if i.doc == "zh/a.txt"]
    pid = labelstudio.create_project(ls, "newsclaims in a browser")
    labelstudio.sync(ls, pid, items)
    (task,) = list(ls.tasks.list(project=pid, fields="all"))
    text = task.data["text"]

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(f"{label_studio}/user/login/")
    page.fill("input[name=email]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    page.goto(f"{label_studio}/projects/{pid}/data?tab=0&task={task.id}")
    editor = page.locator(".lsf-main-view__annotation")
    highlights = editor.locator(".htx-highlight")
    highlights.first.wait_for()
    want = {c["text"] for c in items[0].claims}
    drawn: set[str] = set()
    # the editor draws its regions progressively (and redraws them): poll until all are there
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            drawn = {highlights.nth(i).inner_text(timeout=5_000) for i in range(highlights.count())}
        except Exception:  # noqa: BLE001 - a region redrawn while being read: read again
            drawn = set()
        if want <= drawn:
            break
        page.wait_for_timeout(500)
    assert {c["text"] for c in items[0].claims} <= drawn  # e.g. "23 秒", after 🚀 and 𠀀

    needle = "用了"  # after 🚀, 𠀀 and 😀: code point 66, UTF-16 unit 69
    editor.locator(".lsf-label").filter(has_text="count").first.click()
    box = page.evaluate("""(needle) => {
      const root = document.querySelector('.lsf-main-view__annotation .lsf-richtext__container');
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.data.indexOf(needle);
        if (i >= 0) {
          const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + needle.length);
          const b = r.getBoundingClientRect(); return {x: b.left, y: b.top, w: b.width, h: b.height};
        }
      }
      return null;
    }""", needle)
    assert box is not None
    page.mouse.move(box["x"] + 0.5, box["y"] + box["h"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["w"] - 0.5, box["y"] + box["h"] / 2, steps=4)
    page.mouse.up()
    expect(highlights.filter(has_text=re.compile(f"^{needle}$"))).to_have_count(1)
    page.locator("button", has_text=re.compile(r"^\s*(Submit|Update)\s*$")).first.click()
    deadline = time.monotonic() + 30
    while not (anns := list(ls.annotations.list(id=task.id))) and time.monotonic() < deadline:
        time.sleep(0.5)
    page.close()
    (ann,) = anns
    (mine,) = [dict(r) for r in ann.result if dict(r).get("origin") == "manual" and dict(r)["type"] == "labels"]
    start = text.index(needle)
    assert (mine["value"]["start"], mine["value"]["end"], mine["value"]["text"]) == (start, start + 2, needle)
    assert len(text[:start].encode("utf-16-le")) // 2 != start  # the two countings do differ here

    export = labelstudio.export_project(ls, pid, tmp_path / "export.json")
    summary = annotate_import(export, tmp_path / "annotations")
    assert summary.actions.get("add") == 1 and not summary.problems
    added = [r for r in GoldStore(tmp_path / "annotations").rows("zh/a.txt") if r["text"] == needle]
    assert len(added) == 1 and (added[0]["start"], added[0]["end"]) == (start, start + 2)
