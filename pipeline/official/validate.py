"""Reading an official table CSV strictly: a malformed file, a missing column, an id the pipeline does not
know or a value of the wrong type stops loading with the file, line and column.  Verdicts against a
broken table would look as trustworthy as any other, so a run refuses it instead.

Ids are checked as far as the pipeline can check them: rounds and benchmarks must be knowledge-base ids
(a row under "ResNet-50" or "v0.7" would never match a claim, silently changing who was fastest);
divisions, categories and statuses come from fixed sets; orgs, accelerators and frameworks must be
lowercase ids (new submitters and CPU models are legitimate and not all in the knowledge base).
"""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import OfficialTableError

if TYPE_CHECKING:
    from pipeline.link.kb import KnowledgeBase

_ID = re.compile(r"^[a-z0-9][a-z0-9._+\-]*$")
DIVISIONS = ("closed", "open")
STATUSES = ("scored", "no_score")
# The official table's columns, in order (pipeline/official/table.py writes them), and those the query
# API needs to answer (a table written by hand may leave the others out).
COLUMNS = ("record_id", "round", "division", "category", "submitter", "org", "system", "system_name", "accelerator",
           "accelerator_model", "accelerator_count", "host_count", "framework", "framework_raw", "benchmark",
           "minutes", "seconds", "runs_used", "runs_valid", "runs_failed", "runs_missing", "runs_total",
           "runs_required", "scorer", "status", "warning", "note", "minutes_recomputed", "system_file", "source")
REQUIRED = ("record_id", "round", "division", "category", "submitter", "org", "system", "accelerator",
            "accelerator_count", "host_count", "framework", "benchmark", "minutes", "runs_used", "runs_total",
            "scorer", "status", "warning")
FLOAT_COLUMNS = ("minutes", "seconds", "minutes_recomputed")
INT_COLUMNS = ("accelerator_count", "host_count", "runs_used", "runs_valid", "runs_failed", "runs_missing",
               "runs_total", "runs_required")


def known_ids(kb: KnowledgeBase | None = None) -> dict[str, frozenset[str]]:
    """Round, benchmark and category ids of the knowledge base (default: the shipped one)."""
    from pipeline.link.kb import load_kb

    kb = kb or load_kb()
    return {t: frozenset(kb.entries.get(t, {})) for t in ("round", "benchmark", "category")}


def read_rows(path: Path, required: tuple[str, ...]) -> list[dict[str, str]]:
    """One official table's rows as text, checked row by row; raises OfficialTableError naming file, line
    and column.  (Read with the csv module: the check reads every cell anyway, and loading pandas for it
    took half a second of every start-up.)"""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise OfficialTableError(f"{path}: cannot read the official table ({exc.strerror})") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OfficialTableError(f"{path}: not UTF-8 text (byte {exc.start}); official tables are UTF-8 CSV "
                                 "as `newsclaims official build` writes them") from exc
    if not text.strip():
        raise OfficialTableError(f"{path}: the official table is empty")
    return _check_rows(path, text, required)


def _check_rows(path: Path, text: str, required: tuple[str, ...]) -> list[dict[str, str]]:
    known = known_ids()
    rows: list[dict[str, str]] = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    seen: dict[str, int] = {}
    try:
        header = next(reader)
        missing = [c for c in required if c not in header]
        if missing:
            raise OfficialTableError(f"{path}: not an official table, missing columns {missing}")
        dupes = sorted({c for c in header if header.count(c) > 1})
        if dupes:
            raise OfficialTableError(f"{path}, line 1: columns given twice: {dupes}")
        for row in reader:
            where = f"{path}, line {reader.line_num}"
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise OfficialTableError(f"{where}: {len(row)} fields where the header has {len(header)}; "
                                         "a comma inside a value must be quoted")
            rec = dict(zip(header, row, strict=True))
            rid = rec["record_id"].strip()
            if not rid:
                raise OfficialTableError(f"{where}: record_id is empty")
            if rid in seen:
                raise OfficialTableError(f"{where}: record_id {rid!r} was given already on line {seen[rid]}")
            seen[rid] = reader.line_num
            _check_values(where, rec, known)
            rows.append(rec)
    except csv.Error as exc:
        raise OfficialTableError(f"{path}, line {reader.line_num}: malformed CSV ({exc})") from exc
    except StopIteration as exc:  # pragma: no cover - text.strip() was checked
        raise OfficialTableError(f"{path}: no header line") from exc
    if not seen:
        raise OfficialTableError(f"{path}: the official table has a header but no rows")
    return rows


def _check_values(where: str, rec: dict[str, str], known: dict[str, frozenset[str]]) -> None:
    def bad(column: str, value: Any, expected: str) -> OfficialTableError:
        return OfficialTableError(f"{where}, column {column}: {value!r} is not {expected}")

    for column, kind in (("round", "round"), ("benchmark", "benchmark")):
        ident = rec[column].strip()
        if known[kind] and ident not in known[kind]:
            raise bad(column, ident, f"a known {kind} id ({', '.join(sorted(known[kind])[:6])}, ...)")
    division = rec["division"].strip()
    if division and division not in DIVISIONS:
        raise bad("division", division, f"one of {DIVISIONS} or empty")
    category = rec["category"].strip()
    if category and known["category"] and category not in known["category"]:
        raise bad("category", category, f"one of {tuple(sorted(known['category']))} or empty")
    status = rec["status"].strip()
    if status not in STATUSES:
        raise bad("status", status, f"one of {STATUSES}")
    if not _ID.match(rec["org"].strip()):
        raise bad("org", rec["org"], "a lowercase org id (google, nvidia, ...)")
    accelerator = rec["accelerator"].strip()
    if accelerator and not _ID.match(accelerator):
        raise bad("accelerator", accelerator, "a lowercase accelerator id (tpu-v3, a100, ...) or empty")
    for fw in filter(None, rec["framework"].strip().split(";")):
        if not _ID.match(fw):
            raise bad("framework", rec["framework"], "lowercase framework ids separated by ';' or empty")
    for columns, whole in ((FLOAT_COLUMNS, False), (INT_COLUMNS, True)):
        kind = "a whole number" if whole else "a number"
        for column in columns:
            raw = rec.get(column, "").strip()
            if not raw:
                continue
            try:
                value = float(raw)
            except ValueError:
                raise bad(column, raw, kind) from None
            if not math.isfinite(value) or value < 0 or (whole and value != int(value)):
                raise bad(column, raw, "a whole number >= 0" if whole else "a finite number >= 0")
    if status == "scored" and not rec["minutes"].strip():
        raise OfficialTableError(f"{where}: status is scored but minutes is empty")
