"""Outputs that are already current are not written again.

A rerun whose articles are all unchanged would otherwise rebuild the same claims.jsonl, conflicts.jsonl and
reports: at 1,000 articles that is most of a minute for nothing.  Each of those two steps (the merge, the
reports) records, in OUT_DIR/.parts/<step>.state, a key of everything its outputs are made from and the size
and modification time of each file it wrote.  The step is skipped when the key is the same and every file is
still there, untouched; a file edited, removed or half-replaced by hand makes it run again.  The state is
written after the files, so a run killed in between leaves an old state, and the step runs again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.fileio import atomic_write_text
from pipeline.run.outdir import PARTS
from pipeline.run.versions import PACKAGE_DIR, hash_tree

# everything of the package that can change an output: code, language data and report templates
_CODE_SUFFIXES = {".py", ".yaml", ".txt", ".jsonl", ".csv", ".json", ".j2", ".html"}


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of everything in the package that can change an output (code, data, templates)."""
    h = hashlib.sha1()
    hash_tree(h, PACKAGE_DIR, _CODE_SUFFIXES)
    return h.hexdigest()


def make_key(*parts: Any) -> str:
    """A key of JSON-able parts, with the package's code version in it."""
    text = json.dumps([code_version(), *parts], ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _state_path(out_dir: Path, step: str) -> Path:
    return out_dir / PARTS / f"{step}.state"


def _stat(path: Path) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def current(out_dir: Path, step: str, key: str) -> dict[str, Any] | None:
    """What `mark` stored with the step's outputs, when the key is the same and they are untouched."""
    try:
        state = json.loads(_state_path(out_dir, step).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or state.get("key") != key or not isinstance(state.get("files"), dict):
        return None
    if not state["files"] or any(_stat(out_dir / rel) != stat for rel, stat in state["files"].items()):
        return None
    payload = state.get("payload")
    return payload if isinstance(payload, dict) else {}


def forget(out_dir: Path, step: str) -> None:
    """Before a step rewrites its outputs: a state left from before must not vouch for them."""
    _state_path(out_dir, step).unlink(missing_ok=True)


def mark(out_dir: Path, step: str, key: str, files: Iterable[Path], payload: dict[str, Any] | None = None) -> None:
    """Record that the step's outputs `files` (inside out_dir) are current for `key`."""
    stats = {}
    for path in files:
        stat = _stat(path)
        if stat is None:
            return  # an output is missing: nothing to vouch for
        stats[Path(path).relative_to(out_dir).as_posix()] = stat
    state = {"key": key, "files": stats, "payload": payload or {}}
    atomic_write_text(_state_path(out_dir, step), json.dumps(state, ensure_ascii=False))
