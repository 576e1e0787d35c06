"""The review page (`newsclaims review`): over HTTP, and in headless Chromium when it is installed.

The browser part uses Debian's chromium through playwright, as tests/test_report_browser.py does: it skips
locally when either is missing and fails under CI (CI=true), where .ci/setup-browser installs both.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_review_support import claims_of, review_run  # noqa: F401

from pipeline.review.gold import LOG_NAME, GoldStore
from pipeline.review.server import make_server


@pytest.fixture()
def server(review_run: Path, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    srv = make_server(review_run, tmp_path / "annotations", reviewer="tester")
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _req(srv: Any, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
         ) -> tuple[int, Any, dict[str, str]]:
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    conn.request(method, path, body=data, headers=hdrs)
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    ctype = resp.getheader("Content-Type", "")
    return resp.status, (json.loads(raw) if "json" in ctype else raw.decode("utf-8")), dict(resp.getheaders())


def _post(srv: Any, body: Any, token: str | None = None, **headers: str) -> tuple[int, Any]:
    status, data, _ = _req(srv, "POST", "/api/decision", body,
                           {"X-Review-Token": srv.state.token if token is None else token, **headers})
    return status, data


def test_the_server_listens_on_loopback_by_default(server: Any) -> None:
    assert server.server_address[0] == "127.0.0.1"


def test_the_page_and_the_claims(server: Any, review_run: Path) -> None:  # noqa: F811
    status, page, headers = _req(server, "GET", "/")
    assert status == 200 and "newsclaims review" in page and server.state.token in page
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, data, _ = _req(server, "GET", "/api/claims")
    assert status == 200 and len(data["claims"]) == len(claims_of(review_run))
    c = next(x for x in data["claims"] if x["text"] == "23 秒")
    assert c["sentence"][c["at"]:c["at"] + len(c["text"])] == "23 秒"  # highlighted where it is, after 🚀 and 𠀀
    assert c["evidence"] and any("record" in e for e in c["evidence"])  # the official record beside it
    assert c["gold"] is None


def test_an_evidence_record_is_the_row_as_the_table_holds_it(server: Any, review_run: Path) -> None:  # noqa: F811
    from dataclasses import fields

    from pipeline.official.answers import OfficialResult

    _, data, _ = _req(server, "GET", "/api/claims")
    records = [e["record"] for c in data["claims"] for e in c["evidence"] if isinstance(e, dict) and e.get("record")]
    table = {f.name for f in fields(OfficialResult) if f.init}
    assert records and all(set(r) <= table for r in records)  # nothing derived when the row is loaded
    assert all("record_id" in r and "round" in r for r in records)


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/page.html", "/api/../server.py",
                                  "/static/x.js", "//etc/passwd"])
def test_no_file_is_served_but_the_page(server: Any, path: str) -> None:
    status, _, _ = _req(server, "GET", path)
    assert status == 404


def test_accept_reject_correct_write_gold_and_log(server: Any, review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    claims = claims_of(review_run)
    a, b, c = claims[0], claims[1], claims[2]
    assert _post(server, {"doc": a["doc"], "id": a["id"], "action": "accept"})[1]["outcome"] == "added"
    rejected = _post(server, {"doc": b["doc"], "id": b["id"], "action": "reject", "reviewer": "rita"})
    assert rejected[1]["outcome"] == "added"
    status, data = _post(server, {"doc": c["doc"], "id": c["id"], "action": "correct",
                                  "fields": {"value": "24", "verdict": "contradicted"}, "note": "typo in the article"})
    assert status == 200 and data["claim"]["gold"]["value"] == 24
    store = GoldStore(tmp_path / "annotations")
    rows = {r["id"]: r for doc in {a["doc"], b["doc"], c["doc"]} for r in store.rows(doc)}
    assert rows[a["id"]]["status"] == "accepted" and rows[a["id"]]["reviewer"] == "tester"
    assert rows[b["id"]]["status"] == "rejected" and rows[b["id"]]["reviewer"] == "rita"
    assert rows[c["id"]]["verdict"] == "contradicted" and rows[c["id"]]["note"] == "typo in the article"
    assert rows[c["id"]]["low"] is None  # the interval was for the old value
    log = [json.loads(x) for x in (tmp_path / "annotations" / LOG_NAME).read_text(encoding="utf-8").splitlines()]
    assert [e["action"] for e in log] == ["accept", "reject", "correct"]
    assert all(e["source"] == "review-page" for e in log)
    # another reviewer disagreeing is kept as a conflict, not written over
    status, data = _post(server, {"doc": a["doc"], "id": a["id"], "action": "reject", "reviewer": "zed"})
    assert data["outcome"] == "conflict" and store.rows(a["doc"])[0]["status"] == "accepted"


@pytest.mark.parametrize("body, why", [
    ({"doc": "../../etc/passwd", "id": "x", "action": "accept"}, "no such claim"),
    ({"doc": "zh/a.txt", "id": "nope", "action": "accept"}, "no such claim"),
    ({"doc": "zh/a.txt", "id": None, "action": "accept"}, "no such claim"),
    ({"action": "delete"}, "no such claim"),
    ([1, 2], "JSON object"),
])
def test_bad_decisions_are_refused(server: Any, body: Any, why: str, tmp_path: Path) -> None:
    status, data = _post(server, body)
    assert status == 400 and why in data["error"]
    assert not (tmp_path / "annotations" / LOG_NAME).exists()


def test_bad_corrections_are_refused(server: Any, review_run: Path) -> None:  # noqa: F811
    c = claims_of(review_run)[0]
    for fields, why in (({"bound": "sideways"}, "bound must be"), ({"start": -5}, "inside the article"),
                        ({"doc": "../x"}, "cannot be corrected"), ({"start": "x"}, "number")):
        status, data = _post(server, {"doc": c["doc"], "id": c["id"], "action": "correct", "fields": fields})
        assert status == 400 and why in data["error"], (fields, data)
    status, data = _post(server, {"doc": c["doc"], "id": c["id"], "action": "frobnicate"})
    assert status == 400


def test_writes_need_the_page_token_and_our_host(server: Any, review_run: Path) -> None:  # noqa: F811
    c = claims_of(review_run)[0]
    body = {"doc": c["doc"], "id": c["id"], "action": "accept"}
    assert _post(server, body, token="")[0] == 403
    assert _post(server, body, token="guess")[0] == 403
    assert _post(server, body, Host="evil.example:80")[0] == 403  # DNS rebinding
    assert _req(server, "GET", "/api/claims", headers={"Host": "evil.example"})[0] == 403
    assert _req(server, "POST", "/api/decision", b"x" * 70000, {"X-Review-Token": server.state.token})[0] == 400


def test_a_doc_that_would_write_outside_annotations_is_refused(server: Any, review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    """Even a claim whose doc id escapes the folder (a tampered claims.jsonl) cannot write outside it."""
    c = dict(claims_of(review_run)[0], doc="../../escaped.txt")
    server.state.claims.append(c)
    status, data = _post(server, {"doc": c["doc"], "id": c["id"], "action": "accept"})
    assert status == 403 and "inside the folder" in data["error"]
    assert not list(tmp_path.rglob("escaped.txt*"))


# -- in a browser ---------------------------------------------------------------------------------------

def test_review_with_the_keyboard_in_a_browser(browser: Any, server: Any, review_run: Path, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.url)
    mark = page.locator("#sentence mark")
    claims = claims_of(review_run)
    # the claim is highlighted exactly, though the sentence starts with an emoji (2 UTF-16 units, 1 code point)
    expect(mark).to_have_text(claims[0]["text"])
    page.fill("#reviewer", "kbd-reviewer")
    page.locator("#reading").click()
    page.keyboard.press("a")  # accept the first, move on
    expect(page.locator("#msg")).to_have_text(re.compile("^saved"))
    expect(mark).to_have_text(claims[1]["text"])
    page.keyboard.press("r")  # reject the second
    expect(mark).to_have_text(claims[2]["text"])
    page.keyboard.press("c")  # correct the third: the form opens with the value focused
    expect(page.locator("#form")).to_be_visible()
    page.fill("#form [name=value]", "99")
    page.select_option("#form [name=verdict]", "contradicted")
    page.locator("#form [name=value]").press("Enter")
    expect(mark).to_have_text(claims[3]["text"])
    page.keyboard.press("k")
    expect(mark).to_have_text(claims[2]["text"])
    expect(page.locator("#gold")).to_contain_text("contradicted")
    store = GoldStore(tmp_path / "annotations")
    rows = {r["id"]: r for c in claims[:3] for r in store.rows(c["doc"])}
    assert [rows[c["id"]]["status"] for c in claims[:3]] == ["accepted", "rejected", "accepted"]
    assert rows[claims[2]["id"]]["value"] == 99 and rows[claims[2]["id"]]["reviewer"] == "kbd-reviewer"
    # every claim, in both articles, is highlighted where its offsets say (emoji and 𠀀 before them)
    page.reload()
    expect(mark).to_have_text(claims[0]["text"])
    for c in claims[1:]:
        page.keyboard.press("j")
        expect(mark).to_have_text(c["text"])
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("body", [b"[" * 50_000, b'{"claim": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"])
def test_a_deeply_nested_body_is_a_400_not_a_traceback(server: Any, body: bytes,
                                                       capfd: pytest.CaptureFixture[str]) -> None:
    # (#17, item 13) json.loads recursing past Python's limit is the client's fault, said as such
    status, data = _post(server, body)
    assert status == 400 and "error" in data
    assert "Traceback" not in capfd.readouterr().err
    status, _, _ = _req(server, "GET", "/api/claims")  # the server is still there
    assert status == 200


CONTEXT_CASES = [
    # (text, claim, side, limit, expected): context is cut at a sentence, else between words, never inside one
    ("Intel sent one result. Nvidia's entry on BERT was quick and cheap; it used 1,024 GPUs in all. More.",
     "1,024 GPUs", "before", 40, "…on BERT was quick and cheap; it used "),
    ("Intel sent one result. Nvidia's entry on BERT was quick and cheap; it used 1,024 GPUs in all. More.",
     "1,024 GPUs", "before", 60, "Nvidia's entry on BERT was quick and cheap; it used "),
    ("It used 1,024 GPUs, the largest cluster that any vendor has entered so far in the round.",
     "1,024 GPUs", "after", 30, ", the largest cluster that any…"),
    ("It used 1,024 GPUs in all. The next sentence runs on and on past the window of context.",
     "1,024 GPUs", "after", 30, " in all."),
    ("华为提交了一项结果。英伟达在BERT上的成绩很快，用了1024块GPU，规模为本轮最大。此后还有很多文字。",
     "1024块GPU", "before", 10, "…的成绩很快，用了"),
    ("英伟达用了1024块GPU，规模为本轮最大。此后还有很多文字。", "1024块GPU", "after", 40,
     "，规模为本轮最大。此后还有很多文字。"),
    ("A run of 4096 TPUv3chipsandmorechipsandstillmorechipswithoutanyspace ends here.", "4096", "after", 20,
     " TPUv3chipsandmorech…"),
]


@pytest.mark.parametrize("text, claim, side, limit, expected", CONTEXT_CASES)
def test_context_is_cut_at_sentences_or_words(text: str, claim: str, side: str, limit: int, expected: str) -> None:
    from pipeline.review.server import context_after, context_before

    at = text.index(claim)
    got = context_before(text, at, limit) if side == "before" else context_after(text, at + len(claim), limit)
    assert got == expected
