"""The merged outputs of a batch (claims.jsonl, claims.csv, errors.jsonl, conflicts.jsonl, articles.jsonl,
texts.jsonl and claims.parquet), written from the articles' parts in the articles' order.

A batch run merges while its workers still process articles: each part is merged as soon as it and every
part before it are done (`OrderedMerge`), so the parent process, idle while it waits for the workers, does
the merge on the side instead of after the last article.  Everything is staged beside its target and
renamed together when the last part is in (fileio.atomic_writers), so a crash or an error leaves the
previous set of outputs, never a mix.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from pipeline.fileio import atomic_writers, json_text, jsonl_bytes
from pipeline.reconcile.conflicts import ConflictFinder
from pipeline.records import CLAIM_FIELDS, ENTITY_TYPES
from pipeline.report.corpus import TEXTS_FILE, CorpusIndex
from pipeline.report.table import ParquetStream, extra_columns

log = logging.getLogger(__name__)

OUTPUT_FILES = ("claims.jsonl", "claims.csv", "errors.jsonl", "conflicts.jsonl", "articles.jsonl", TEXTS_FILE)
PARQUET_FILE = "claims.parquet"
# claims.csv: the claim's fields in claims.jsonl's order, its entities one column per type
CSV_COLUMNS = [c for f in CLAIM_FIELDS for c in ([f"entity_{t}" for t in ENTITY_TYPES] if f == "entities" else [f])]


class MergedOutputs:
    """The merged outputs being written: `add` each part in the articles' order, then `close` (or leave the
    `with` block) to write the conflicts and put every file in place at once.

    A part is a dict as a batch stores it: doc, lang, dated, problems, error, claims (as the contract writes
    them) and, when a worker rendered them, `lines` (its claims' lines of claims.jsonl and claims.csv).
    Only a compact record per wording of a fact is kept for the conflicts, so memory does not grow with the
    claims.  With `parquet`, claims.parquet is written in the same pass (when pyarrow is installed and no
    claim holds a field the table has no column for; `parquet_written` says whether it was)."""

    def __init__(self, out_dir: Path, summary: Any, parquet: bool = False) -> None:
        self.out_dir, self.summary = Path(out_dir), summary
        self.finder = ConflictFinder()
        self.index = CorpusIndex(self.out_dir / "claims.jsonl", self.out_dir / "conflicts.jsonl",
                                 self.out_dir / TEXTS_FILE)
        self._at = 0  # bytes of claims.jsonl written so far
        self._closed = False
        self._stack = contextlib.ExitStack()
        paths = [self.out_dir / n for n in OUTPUT_FILES]
        self._parquet: ParquetStream | None = None
        if parquet:
            try:
                # the contract's fields: a claim with any other (a later version's) has the table rebuilt
                self._parquet = ParquetStream(extra_columns(CLAIM_FIELDS))
            except ImportError as exc:
                log.warning("claims.parquet not written by the merge: %s", exc)
        if self._parquet is not None:
            paths.append(self.out_dir / PARQUET_FILE)
        self._handles = self._stack.enter_context(atomic_writers(paths))
        self.jsonl, self.csv, self.errors, self.conflicts, self.articles, self.texts = (
            self._handles[self.out_dir / n] for n in OUTPUT_FILES)
        self._text_at = 0  # bytes of texts.jsonl written so far
        if self._parquet is not None:
            self._parquet.open(self._handles[self.out_dir / PARQUET_FILE])
        self.csv.write(csv_text([CSV_COLUMNS]))

    @property
    def parquet_written(self) -> bool:
        """Whether claims.parquet holds every claim with every field (once closed)."""
        return self._parquet is not None and self._parquet.complete

    def __enter__(self) -> MergedOutputs:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if kind is None:
            if not self._closed:
                self.close()
        else:  # nothing is renamed: the previous outputs stay
            if self._parquet is not None:
                self._parquet.abandon()
            self._stack.__exit__(kind, exc, tb)

    def add(self, part: dict[str, Any]) -> None:
        """One article's part: its error (if any), its claims' lines, its line of articles.jsonl."""
        s = self.summary
        if part.get("error"):
            self.errors.write(jsonl_bytes([part["error"]]))
            s.errors += 1
            s.error_docs.append(part["doc"])
        else:
            s.succeeded += 1
        rows = part.get("claims") or []
        for row in rows:
            self.finder.add_row(row)
        lines = part.get("lines")
        if not (isinstance(lines, dict) and isinstance(lines.get("jsonl"), bytes)
                and isinstance(lines.get("csv"), bytes) and lines["jsonl"].count(b"\n") == len(rows)):
            lines = claim_lines(rows)
        data = lines["jsonl"]
        self.jsonl.write(data)
        line_at = 0
        for row in rows:  # one line each: JSON escapes the newlines inside strings
            self.index.add_claim(row, self._at + line_at)
            line_at = data.index(b"\n", line_at) + 1
        self._at += len(data)
        self.csv.write(lines["csv"])
        if self._parquet is not None:
            self._parquet.add_all(rows)
        s.claims += len(rows)
        # the article's text as the run read it (a part from before texts were kept has none)
        shown = part.get("text_line")
        if not isinstance(shown, bytes):
            shown = text_line(part)
        if shown:
            self.index.add_text(str(part["doc"]), self._text_at)
            self.texts.write(shown)
            self._text_at += len(shown)
        # one line per article: what dated it ("last December", the round), and how many claims it gave
        dated: dict = part["dated"] if isinstance(part.get("dated"), dict) else {}
        self.articles.write(jsonl_bytes([{"doc": part["doc"], "lang": part.get("lang"), "claims": len(rows),
                                          "error": bool(part.get("error")), "date": dated.get("date"),
                                          "date_source": dated.get("source"), "date_line": dated.get("line"),
                                          "problems": part.get("problems") or []}]))

    def close(self, extra_errors: Iterable[dict] = ()) -> CorpusIndex:
        """Write `extra_errors` and the conflicts, then put every file in place; returns the index of the
        claims and conflicts written (the one the report would read from them)."""
        self._closed = True
        for e in extra_errors:
            self.errors.write(jsonl_bytes([e]))
            self.summary.errors += 1
        at = 0
        for record in self.finder.conflicts():
            data = jsonl_bytes([record])
            self.index.add_conflict(record, at)
            self.conflicts.write(data)
            at += len(data)
        if self._parquet is not None:
            self._parquet.close()
        self._stack.close()
        self.index.finish()
        return self.index


class PartSink(Protocol):
    """What OrderedMerge feeds: MergedOutputs, or anything else that takes the parts in order."""

    def add(self, part: dict[str, Any]) -> None: ...


class OrderedMerge:
    """Parts merged in the articles' order as they become ready, whatever order the workers finish in:
    `ready(i)` says the part of article i can be read (`read(i)` gives it), and merges it and every ready
    part after it that the merge was waiting for.  Only the indexes of the parts that wait are held.
    `stored` are the articles whose parts are ready before any work (kept from an earlier run): they are
    merged as their turn comes, not at once, so the workers are not kept waiting for them."""

    def __init__(self, outputs: PartSink, n: int, read: Callable[[int], dict[str, Any]],
                 stored: Iterable[int] = ()) -> None:
        self.outputs, self.n, self.read = outputs, n, read
        self.next = 0
        self._waiting: set[int] = set(stored)

    def ready(self, i: int) -> None:
        """Article i's part is stored (or held): merge what can be merged now."""
        self._waiting.add(i)
        self._drain()

    def _drain(self) -> None:
        while self.next in self._waiting:
            self._waiting.discard(self.next)
            self.outputs.add(self.read(self.next))
            self.next += 1

    def finish(self) -> None:
        """Merge what is left; every part must be ready by now."""
        self._drain()
        if self.next < self.n:
            raise RuntimeError(f"the merge waits for article {self.next + 1} of {self.n}, which never finished")


def text_line(part: dict[str, Any]) -> bytes:
    """A part's line of texts.jsonl: its doc, the text its claims' offsets refer to, and the metadata a
    report shows (records.SHOWN_META); b"" for an article with no text (one that could not be read)."""
    if not isinstance(part.get("text"), str):
        return b""
    return jsonl_bytes([{"doc": part["doc"], "text": part["text"], "shown": part.get("shown") or {}}])


def claim_lines(rows: list[dict]) -> dict[str, bytes]:
    """The claims' lines of claims.jsonl and claims.csv."""
    return {"jsonl": jsonl_bytes(rows), "csv": csv_lines(rows)}


# How each of claims.csv's columns (CSV_COLUMNS' order) is read off a claims.jsonl row: the row's own field,
# one type of its entities, its evidence joined, or a nested field as JSON (csv_row's flattening)
_FIELD, _ENTITY, _EVIDENCE, _JSON = range(4)
_NESTED = ("compared_to", "frame", "alternatives")
_CSV_PLAN: list[tuple[int, str]] = [
    plan for f in CLAIM_FIELDS
    for plan in ([(_ENTITY, t) for t in ENTITY_TYPES] if f == "entities" else
                 [(_EVIDENCE, f)] if f == "evidence" else [(_JSON, f)] if f in _NESTED else [(_FIELD, f)])]


def csv_lines(rows: Iterable[dict]) -> bytes:
    """claims.csv's lines of these claims.jsonl rows."""
    return csv_text(csv_row(r) for r in rows)


def csv_row(r: dict) -> list:
    """One claims.csv row: entities as one column per type, evidence joined, compared_to, frame and
    alternatives as JSON (read straight off the row by _CSV_PLAN: a worker writes every claim's row, and a
    flattened dict per claim was a third of that)."""
    entities = r.get("entities") or {}
    row = []
    for how, key in _CSV_PLAN:
        if how == _FIELD:
            value = r.get(key)
        elif how == _ENTITY:
            value = entities.get(key)
        elif how == _EVIDENCE:
            value = " ".join(r.get(key) or [])
        else:
            value = json_text(r[key]) if r.get(key) else ""
        row.append("" if value is None else csv_cell(value))
    return row


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, CSV injection): such text
# gets a leading apostrophe in claims.csv; claims.jsonl keeps the text as it was.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_FIRST = frozenset(FORMULA_STARTS)  # each one character: a set look-up, not six prefix tests per cell


def csv_cell(value: Any) -> Any:
    """A value as claims.csv writes it: text a spreadsheet would run gets a leading apostrophe."""
    if isinstance(value, str) and value and value[0] in _FORMULA_FIRST:
        return "'" + value
    return value


def csv_field(value: Any) -> str:
    """One CSV field as the csv module writes it (minimal quoting; None is empty), and a carriage return
    quoted too (csv leaves it bare before Python 3.13, and a reader takes a bare one for a line end)."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    if '"' in text or "," in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(rows: Iterable[list]) -> bytes:
    """Rows as CSV (UTF-8, \\n line ends).  Written here rather than by csv.writer, which looked every
    character of every field up in its line terminator: most of the time a worker took to serialise claims."""
    lines = []
    for row in rows:
        line = ",".join([csv_field(v) for v in row])
        lines.append(line if line or len(row) != 1 else '""')  # a lone empty field is not an empty line
    return "".join([line + "\n" for line in lines]).encode("utf-8")
