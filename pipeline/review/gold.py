"""The gold folder (annotations/): current state, an append-only log of decisions, open conflicts.

    annotations/<doc>.jsonl            current gold claims of an article (contract fields + id, status,
                                       reviewer; rejected claims stay as status "rejected")
    annotations/<doc>.entities.jsonl   reviewed entity spans of an article
    annotations/<doc>.conflicts.jsonl  open disagreements: the row kept and the one another reviewer proposed
    annotations/review-log.jsonl       every decision that changed something, in order, never rewritten

Merging one decision (claim or entity span `id`, by `reviewer`) into the state:
- no row about the same span: the row is added;
- a row by the same reviewer (or a row with no reviewer yet written by this same tool run): replaced;
- a row by another reviewer that says the same (status, span, kind, value, unit, bound, reading, counted,
  of_total, verdict, entities): the row stays and records the reviewer in `confirmed_by`;
- a row by another reviewer that says something else: the row stays, and the pair goes to
  <doc>.conflicts.jsonl (and the import's summary).  Nothing is silently overwritten.
A row is "about the same span" when it has the decision's id or, failing that, overlaps its span.  A
decision equal to the current state is not logged again, so importing one file twice changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from pipeline.errors import GoldPathError
from pipeline.fileio import atomic_write_jsonl, read_jsonl
from pipeline.review.model import Decision
from pipeline.review.vocab import row_key, same_decision

LOG_NAME = "review-log.jsonl"
LOCK_NAME = ".gold.lock"  # the store's lock file (see GoldStore._locked); no gold
CONFLICTS_SUFFIX = ".conflicts.jsonl"
ENTITIES_SUFFIX = ".entities.jsonl"
GOLD_SUFFIX = ".jsonl"
NOT_GOLD = (CONFLICTS_SUFFIX, ENTITIES_SUFFIX)


def is_gold_file(path: Path) -> bool:
    """A claims file of annotations/ (not the log, a conflicts or entities file, or a hidden temp file)."""
    name = path.name
    return (name.endswith(GOLD_SUFFIX) and not name.startswith(".") and name != LOG_NAME
            and not name.endswith(NOT_GOLD))


def check_doc(doc: str) -> str:
    """A doc id is a relative '/'-separated path inside the folder: no '..', no absolute path."""
    if not isinstance(doc, str) or not doc or "\x00" in doc or "\\" in doc:
        raise GoldPathError(f"not a document path: {doc!r}")
    p = PurePosixPath(doc)
    if p.is_absolute() or any(part in ("", ".", "..") for part in doc.split("/")):
        raise GoldPathError(f"not a document path inside the folder: {doc!r}")
    return doc


def now() -> str:
    """The current UTC time, ISO to the second, as the log records it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Result:
    decision: Decision
    outcome: str  # added, updated, unchanged, confirmed, conflict
    conflict: dict[str, Any] | None = None


class GoldStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.root = self.root.resolve()

    def path_for(self, doc: str, suffix: str = GOLD_SUFFIX) -> Path:
        """The file of `doc` inside the folder; ValueError for anything that would land outside it."""
        check_doc(doc)
        path = (self.root / (doc + suffix)).resolve()
        if not path.is_relative_to(self.root):
            raise GoldPathError(f"{doc!r} leads outside {self.root}")
        return path

    def _read(self, path: Path) -> list[dict[str, Any]]:
        return read_jsonl(path) if path.exists() else []

    def rows(self, doc: str, what: str = "claim") -> list[dict[str, Any]]:
        """The current gold rows of `doc`: its claims, or (`what` "entity") its reviewed entity spans."""
        return self._read(self.path_for(doc, GOLD_SUFFIX if what == "claim" else ENTITIES_SUFFIX))

    def conflicts(self, doc: str) -> list[dict[str, Any]]:
        """The open conflicts of `doc`."""
        return self._read(self.path_for(doc, CONFLICTS_SUFFIX))

    def log(self) -> list[dict[str, Any]]:
        """Every logged decision, in order."""
        return self._read(self.root / LOG_NAME)

    def docs(self) -> list[str]:
        """The docs with a gold claims file, sorted."""
        return sorted(p.relative_to(self.root).as_posix()[: -len(GOLD_SUFFIX)]
                      for p in self.root.rglob("*" + GOLD_SUFFIX) if is_gold_file(p))

    def _append_log(self, entries: list[dict[str, Any]]) -> None:
        if not entries:
            return
        with open(self.root / LOG_NAME, "a", encoding="utf-8") as fh:
            for e in entries:
                fh.write(json.dumps(e, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the store's lock (POSIX advisory lock on root/.gold.lock, waiting for it): two reviewers'
        servers, or an import while a review page is open, each read-modify-rename a doc's files; without
        the lock one rename drops the other's decisions.  The lock dies with its process."""
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks
            yield
            return
        fd = os.open(self.root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def apply(self, decisions: list[Decision]) -> list[Result]:
        """Merge decisions (see the module's rules), under the store's lock; log first, then the state
        files."""
        with self._locked():
            return self._apply(decisions)

    def _apply(self, decisions: list[Decision]) -> list[Result]:
        results: list[Result] = []
        groups: dict[tuple[str, str], list[Decision]] = {}
        for d in decisions:
            groups.setdefault((d.doc, d.what), []).append(d)
        for (doc, what), ds in groups.items():
            gold_path = self.path_for(doc, GOLD_SUFFIX if what == "claim" else ENTITIES_SUFFIX)
            conf_path = self.path_for(doc, CONFLICTS_SUFFIX)
            rows = self._read(gold_path)
            conflicts = self._read(conf_path)
            log: list[dict[str, Any]] = []
            changed = conf_dirty = False
            for d in ds:
                res, row_changed, conf_changed, previous = _merge(rows, conflicts, d)
                results.append(res)
                changed |= row_changed
                if res.outcome != "unchanged":
                    log.append({"logged_at": now(), "decided_at": d.time, "doc": d.doc, "what": d.what, "id": d.id,
                                "reviewer": d.reviewer, "action": d.action, "outcome": res.outcome,
                                "source": d.source, "row": d.row, "previous": previous})
                conf_dirty |= conf_changed
            self._append_log(log)
            if changed:
                rows.sort(key=lambda r: (int(r.get("start", 0)), int(r.get("end", 0))))
                atomic_write_jsonl(gold_path, rows)
            if conf_dirty:
                if conflicts:
                    atomic_write_jsonl(conf_path, conflicts)
                elif conf_path.exists():
                    conf_path.unlink()
        return results


def _span(r: dict[str, Any]) -> tuple[int, int]:
    return int(r.get("start", 0)), int(r.get("end", 0))


def _target(rows: list[dict[str, Any]], d: Decision) -> int | None:
    for i, r in enumerate(rows):
        if _key(r, d.what) == d.id:
            return i
    s, e = _span(d.row)
    best: tuple[int, int] | None = None
    for i, r in enumerate(rows):
        ov = min(e, _span(r)[1]) - max(s, _span(r)[0])
        same_reviewer = (r.get("reviewer") or "") == d.reviewer
        # a reviewer's own other rows are other claims; another reviewer's overlapping row is about this one
        if ov > 0 and not same_reviewer and (d.what == "claim" or r.get("type") == d.row.get("type")):
            if best is None or ov > best[0]:
                best = (ov, i)
    return best[1] if best else None


def _same(a: dict[str, Any], b: dict[str, Any], what: str) -> bool:
    if what == "entity":
        return all(a.get(k) == b.get(k) for k in ("status", "start", "end", "type", "entity_id"))
    return same_decision(a, b)


def _merge(rows: list[dict[str, Any]], conflicts: list[dict[str, Any]], d: Decision
           ) -> tuple[Result, bool, bool, dict[str, Any] | None]:
    """-> (result, rows changed, conflicts changed, the row before)."""
    i = _target(rows, d)
    if i is None:
        rows.append(dict(d.row))
        return Result(d, "added"), True, False, None
    cur = rows[i]
    owner = cur.get("reviewer") or ""
    if owner == d.reviewer:
        if _same(cur, d.row, d.what) and all(cur.get(k) == v for k, v in d.row.items()):
            return Result(d, "unchanged"), False, False, cur
        new = dict(d.row)
        if cur.get("confirmed_by"):
            new["confirmed_by"] = [x for x in cur["confirmed_by"] if not isinstance(x, str) or x != d.reviewer]
        rows[i] = new
        # other reviewers' proposals that now agree are no longer conflicts
        before = len(conflicts)
        conflicts[:] = [c for c in conflicts if not (c.get("id") == row_key(cur) and _same(new, c["proposed"], d.what))]
        return Result(d, "updated"), True, len(conflicts) != before, cur
    # another reviewer's row
    mine = [k for k, c in enumerate(conflicts) if c.get("id") == _key(cur, d.what)
            and c.get("proposed_reviewer") == d.reviewer and c.get("what", "claim") == d.what]
    if _same(cur, d.row, d.what):
        conf_changed = bool(mine)
        for k in reversed(mine):
            del conflicts[k]
        confirmed = list(cur.get("confirmed_by") or [])
        if d.reviewer in confirmed and not conf_changed:
            return Result(d, "unchanged"), False, False, cur
        if d.reviewer not in confirmed:
            confirmed.append(d.reviewer)
            rows[i] = {**cur, "confirmed_by": confirmed}
        return Result(d, "confirmed"), True, conf_changed, cur
    record = {"doc": d.doc, "what": d.what, "id": _key(cur, d.what), "proposed_id": d.id, "kept_reviewer": owner,
              "proposed_reviewer": d.reviewer, "kept": cur, "proposed": d.row, "action": d.action,
              "source": d.source, "decided_at": d.time}
    if mine:
        old = conflicts[mine[0]]
        if old.get("proposed") == d.row and old.get("kept") == cur:
            return Result(d, "unchanged", old), False, False, cur
        conflicts[mine[0]] = record
    else:
        conflicts.append(record)
    return Result(d, "conflict", record), False, True, cur


def _key(row: dict[str, Any], what: str) -> str:
    return row_key(row) if what == "claim" else str(row.get("id"))
