"""`newsclaims review OUT_DIR`: a local page to accept, reject or correct a run's claims one at a time.

Standard library only (http.server).  Bound to 127.0.0.1 unless told otherwise.  The page shows the
claim highlighted in its sentence with the surrounding text, our reading, and the official evidence
beside it; keys: a accept, r reject, c correct, j/k next/previous, u next undecided, Esc cancel.
Decisions go through pipeline.review.gold (append-only review-log.jsonl, current state per article,
conflicts kept), exactly as an import does.

Safety: the server answers four routes and nothing else (no file serving, so no path to traverse); a
decision names a doc of this run and a claim id in it, and GoldStore refuses any path outside the
annotations folder; POSTs need the page's per-process token (a page from another site cannot post) and
every request must name this host (no DNS rebinding).
"""

from __future__ import annotations

import json
import secrets
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pipeline.fileio import read_jsonl
from pipeline.records import BOUNDS, KINDS, READINGS, VERDICTS
from pipeline.review.gold import GoldStore, now
from pipeline.review.model import CONTRACT_FIELDS, Decision
from pipeline.review.vocab import parse_value, row_key, same_decision, same_field

if TYPE_CHECKING:
    from pipeline.lang.loader import Languages

PAGE = Path(__file__).with_name("page.html")
CONTEXT_CHARS = 240
MAX_BODY = 64 * 1024
EDITABLE = {"kind": KINDS, "bound": BOUNDS, "ratio_reading": READINGS, "verdict": VERDICTS}


@lru_cache(maxsize=4)
def _terminators(langs: Languages | None = None) -> frozenset[str]:
    from pipeline.lang.loader import languages

    return frozenset(t for lang in (langs or languages()) for t in lang.terminators)


def _can_cut(text: str, j: int) -> bool:
    """Between text[j-1] and text[j] no word is split: a space or punctuation on one side, or two CJK
    characters (a reader's eye takes those one by one); never inside a Latin word or a number."""
    a, b = text[j - 1], text[j]
    if a.isspace() or b.isspace():
        return True
    if unicodedata.category(a)[0] == "P" or unicodedata.category(b)[0] == "P":
        return True
    return not (a.isascii() and a.isalnum()) and not (b.isascii() and b.isalnum())


def context_before(text: str, at: int, limit: int = CONTEXT_CHARS) -> str:
    """Up to `limit` characters before `at`, starting at a sentence's start where one lies in reach, else
    at a word boundary; "…" where it cuts into a sentence."""
    lo = max(0, at - limit)
    if lo == 0:
        return text[:at]
    ends = _terminators()
    for j in range(lo, at):  # the earliest sentence start in reach: as much whole context as fits
        if text[j - 1] in ends or text[j - 1] == "\n":
            return text[j:at].lstrip()
    # after a space where there is one (so "Nvidia's" stays whole), else between characters no word spans
    reach = lo + 3 * (at - lo) // 4  # a cut past this keeps too little: a "word" that long is no word
    cut = next((k for k in range(lo, reach) if text[k - 1].isspace()), None)
    if cut is None:
        cut = next((k for k in range(lo, reach) if _can_cut(text, k)), lo)
    return "…" + text[cut:at].lstrip()


def context_after(text: str, at: int, limit: int = CONTEXT_CHARS) -> str:
    """Up to `limit` characters after `at`, ending at a sentence's end where one lies in reach, else at a
    word boundary; "…" where it cuts a sentence."""
    hi = min(len(text), at + limit)
    if hi == len(text):
        return text[at:]
    ends = _terminators()
    for j in range(hi, at, -1):  # the latest sentence end in reach
        if text[j - 1] in ends or text[j - 1] == "\n":
            return text[at:j].rstrip()
    reach = hi - 3 * (hi - at) // 4
    cut = next((k for k in range(hi, reach, -1) if text[k].isspace()), None)
    if cut is None:
        cut = next((k for k in range(hi, reach, -1) if _can_cut(text, k)), hi)
    return text[at:cut].rstrip() + "…"


@dataclass
class ReviewState:
    out_dir: Path
    store: GoldStore
    claims: list[dict[str, Any]]
    texts: dict[str, str]
    reviewer: str
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    lock: threading.Lock = field(default_factory=threading.Lock)
    _official: Any = None

    @property
    def by_id(self) -> dict[tuple[str, str], dict[str, Any]]:
        """The run's claims by (doc, claim id)."""
        return {(c["doc"], c["id"]): c for c in self.claims}

    def evidence(self, ids: list[str]) -> list[dict[str, Any]]:
        """Evidence ids as the page shows them: a URL as a link, an official record's id with the record
        where it can be read."""
        out = []
        for ev in ids or []:
            item: dict[str, Any] = {"id": ev}
            if ev.startswith(("http://", "https://")):
                item["url"] = ev
            else:
                rec = self._record(ev)
                if rec is not None:
                    item["record"] = rec
            out.append(item)
        return out

    def _record(self, rid: str) -> dict[str, Any] | None:
        try:
            if self._official is None:
                from pipeline.official.query import OfficialResults

                self._official = OfficialResults()
            from dataclasses import fields

            r = self._official.record(rid)
            # the row as the table holds it: not what is derived from it when it is loaded (seconds, names)
            rec = {f.name: getattr(r, f.name) for f in fields(r) if f.init}
            return {k: v for k, v in rec.items() if v not in (None, "", [], ())}
        except Exception:  # noqa: BLE001 - evidence is a courtesy; a missing table must not stop reviewing
            return None

    def view(self, c: dict[str, Any]) -> dict[str, Any]:
        """One claim as the page shows it: its contract fields, its sentence and the text around it, the
        evidence, the current gold row and open conflicts."""
        text = self.texts.get(c["doc"])
        sentence = c.get("sentence") or c["text"]
        if text is not None:
            s0 = text.rfind(sentence, 0, c["start"] + len(sentence))
            s0 = s0 if s0 >= 0 and s0 <= c["start"] else c["start"]
            s1 = max(s0 + len(sentence), c["end"])
            before, after = context_before(text, s0), context_after(text, s1)
            sentence, rel = text[s0:s1], c["start"] - s0
        else:
            before = after = ""
            rel = max(0, sentence.find(c["text"]))
        rows = self.store.rows(c["doc"])
        gold = [r for r in rows if row_key(r) == c["id"]] or sorted(
            (r for r in rows if r["start"] < c["end"] and c["start"] < r["end"]),
            key=lambda r: -(min(r["end"], c["end"]) - max(r["start"], c["start"])))
        conflicts = [x for x in self.store.conflicts(c["doc"]) if x.get("proposed_id") == c["id"]
                     or x.get("id") == c["id"]]
        return {**{k: c.get(k) for k in CONTRACT_FIELDS}, "before": before, "after": after, "sentence": sentence,
                "at": rel, "evidence": self.evidence(c.get("evidence") or []), "gold": gold[0] if gold else None,
                "conflicts": conflicts}


def load_state(out_dir: Path, annotations: Path, reviewer: str | None = None, input_dir: Path | None = None
               ) -> ReviewState:
    """The review state of a run: its claims, the articles' texts where they can be read, and the gold
    store at `annotations`."""
    from pipeline.errors import ReviewError
    from pipeline.review.runs import input_dir_of

    claims_path = Path(out_dir) / "claims.jsonl"
    if not claims_path.exists():
        raise ReviewError(f"{claims_path}: not found; run `newsclaims run` first")
    claims = read_jsonl(claims_path)
    texts: dict[str, str] = {}
    try:
        root = input_dir_of(Path(out_dir), input_dir)
    except ReviewError:
        root = None  # no articles: the page shows sentences without the text around them
    if root is not None:
        from pipeline.ingest.read import read_article

        for doc in sorted({c["doc"] for c in claims}):
            try:
                texts[doc] = read_article(root / doc, root).text
            except Exception:  # noqa: BLE001 - an unreadable article still has its sentences
                pass
    return ReviewState(out_dir=Path(out_dir), store=GoldStore(Path(annotations)), claims=claims, texts=texts,
                       reviewer=reviewer or "")


class BadRequest(Exception):
    pass


def decide(state: ReviewState, body: dict[str, Any]) -> dict[str, Any]:
    """Apply one decision from the page: {doc, id, action: accept|reject|correct, reviewer, fields, note}."""
    doc, cid, action = body.get("doc"), body.get("id"), body.get("action")
    reviewer = str(body.get("reviewer") or state.reviewer or "").strip()
    if not reviewer:
        raise BadRequest("who is reviewing? set a reviewer name")
    claim = state.by_id.get((doc, cid)) if isinstance(doc, str) and isinstance(cid, str) else None
    if claim is None or not isinstance(doc, str) or not isinstance(cid, str):
        raise BadRequest("no such claim in this run")
    if action not in ("accept", "reject", "correct"):
        raise BadRequest("action must be accept, reject or correct")
    row = {k: claim.get(k) for k in CONTRACT_FIELDS}
    if action == "correct":
        _apply_fields(state, row, body.get("fields") or {})
        if same_decision({**claim, "status": "accepted"}, {**row, "status": "accepted"}):
            action = "accept"
    note = str(body.get("note") or "").strip()
    if note:
        row["note"] = note
    row.update(status="rejected" if action == "reject" else "accepted", reviewer=reviewer, id=cid)
    d = Decision(doc=doc, id=cid, reviewer=reviewer, action=action, row=row, source="review-page", time=now())
    with state.lock:
        res = state.store.apply([d])[0]
    return {"outcome": res.outcome, "conflict": res.conflict, "claim": state.view(claim)}


def _apply_fields(state: ReviewState, row: dict[str, Any], fields: dict[str, Any]) -> None:
    if not isinstance(fields, dict):
        raise BadRequest("fields must be an object")
    old = dict(row)
    for k, v in fields.items():
        if k in EDITABLE:
            if k == "ratio_reading" and v in (None, ""):
                row[k] = None
            elif v not in EDITABLE[k]:
                raise BadRequest(f"{k} must be one of {', '.join(EDITABLE[k])}")
            else:
                row[k] = v
        elif k in ("value", "of_total"):
            row[k] = parse_value(None if v is None else str(v), row.get("kind") if k == "value" else None)
        elif k in ("unit", "counted"):
            row[k] = (str(v).strip() or None) if v is not None else None
        elif k in ("start", "end"):
            try:
                row[k] = int(v)
            except (TypeError, ValueError) as exc:
                raise BadRequest(f"{k} must be a number") from exc
        elif k == "entities" and isinstance(v, dict):
            row[k] = {t: (str(x) if x else None) for t, x in v.items()}
        else:
            raise BadRequest(f"{k} cannot be corrected here")
    text = state.texts.get(row["doc"])
    if (row["start"], row["end"]) != (old["start"], old["end"]):
        if text is None or not 0 <= row["start"] < row["end"] <= len(text):
            raise BadRequest("the span must lie inside the article")
        row["text"] = text[row["start"]:row["end"]]
    if not (same_field("value", row.get("value"), old.get("value")) and row.get("bound") == old.get("bound")
            and row.get("kind") == old.get("kind")):
        row["low"] = row["high"] = None  # the run's interval was for the old reading


class Handler(BaseHTTPRequestHandler):
    server: ReviewServer
    server_version = "newsclaims-review"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Log requests only when the server is verbose."""
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; "
                         "script-src 'unsafe-inline'; img-src 'self' data:")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]")
        return host in self.server.allowed_hosts

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        """The page (with this process's token) at /, the claims at /api/claims; a request naming another
        host is refused."""
        if not self._host_ok():
            return self._json(HTTPStatus.FORBIDDEN, {"error": "unexpected Host header"})
        path = urlsplit(self.path).path
        st = self.server.state
        if path == "/":
            page = PAGE.read_text(encoding="utf-8").replace("__TOKEN__", st.token)
            return self._send(HTTPStatus.OK, page.encode("utf-8"), "text/html; charset=utf-8")
        if path == "/api/claims":
            with st.lock:
                items = [st.view(c) for c in st.claims]
            return self._json(HTTPStatus.OK, {"reviewer": st.reviewer, "claims": items,
                                              "choices": {k: list(v) for k, v in EDITABLE.items()}})
        return self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})

    def do_POST(self) -> None:  # noqa: N802
        """One decision at /api/decision, once host, token and body size are checked; errors come back as JSON."""
        if not self._host_ok():
            return self._json(HTTPStatus.FORBIDDEN, {"error": "unexpected Host header"})
        if urlsplit(self.path).path != "/api/decision":
            return self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})
        if not secrets.compare_digest(self.headers.get("X-Review-Token", ""), self.server.state.token):
            return self._json(HTTPStatus.FORBIDDEN, {"error": "missing or wrong review token; reload the page"})
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            return self._json(HTTPStatus.BAD_REQUEST, {"error": "expected a JSON body"})
        try:
            body = json.loads(self.rfile.read(length).decode("utf-8"))
            if not isinstance(body, dict):
                raise BadRequest("expected a JSON object")
            return self._json(HTTPStatus.OK, decide(self.server.state, body))
        except (BadRequest, json.JSONDecodeError, UnicodeDecodeError) as exc:
            return self._json(HTTPStatus.BAD_REQUEST, {"error": str(exc)})
        except RecursionError:  # a body nested thousands deep: no decision looks like that
            return self._json(HTTPStatus.BAD_REQUEST, {"error": "expected a decision object, not a nested body"})
        except ValueError as exc:  # GoldStore refusing a path
            return self._json(HTTPStatus.FORBIDDEN, {"error": str(exc)})
        except OSError as exc:  # the gold folder cannot take the write (full disk, read-only)
            return self._json(HTTPStatus.INSUFFICIENT_STORAGE,
                              {"error": f"the decision was not saved: {exc.strerror or exc}; nothing was lost"})


class ReviewServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: ReviewState, host: str, port: int, verbose: bool = False) -> None:
        super().__init__((host, port), Handler)
        self.state = state
        self.verbose = verbose
        self.allowed_hosts = {"127.0.0.1", "localhost", "::1", host}

    @property
    def url(self) -> str:
        """The address the server listens on, for the browser."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"


def make_server(out_dir: Path, annotations: Path, host: str = "127.0.0.1", port: int = 0,
                reviewer: str | None = None, input_dir: Path | None = None, verbose: bool = False) -> ReviewServer:
    """A review server for the run in `out_dir`, writing decisions to `annotations`; port 0 picks a free port."""
    return ReviewServer(load_state(Path(out_dir), Path(annotations), reviewer, input_dir), host, port, verbose)


def review_serve(out_dir: Path, annotations: Path, host: str = "127.0.0.1", port: int = 8765,
                 reviewer: str | None = None, input_dir: Path | None = None) -> None:
    """Serve the review page until interrupted (Ctrl-C)."""
    srv = make_server(out_dir, annotations, host, port, reviewer, input_dir, verbose=False)
    print(f"reviewing {len(srv.state.claims)} claims of {out_dir}; decisions go to {srv.state.store.root}")
    print(f"open {srv.url}  (Ctrl-C to stop)", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
