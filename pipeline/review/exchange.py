"""Annotation exchange: a run out to Label Studio, Prodigy or doccano, the reviewed file back into gold.

    annotate_export("out/corpus", "label-studio", "review/tasks.json")   # + label_config.xml beside it
    annotate_import("review/export.json", "annotations/")                # merge into annotations/<doc>.jsonl

Export writes one task per article: the article text (as decoded: every offset refers to it), our claims
as pre-annotations (spans labelled by kind; value, unit, bound, reading, verdict, counted, of_total, note as
per-span attributes), the entity names we recognised as spans, and a relation from each claim to the
entity spans it is about.  Ids are stable: a claim's id is the content hash of claims.jsonl, an entity
span's a hash of its place, a task's key the article's path, so a re-export updates the same tasks
(`pipeline.review.labelstudio.sync` updates a live project in place) and an import is idempotent.

Import reads the reviewed file (the format is recognised), turns each reviewer's work on each article into
decisions (accept, correct, reject, add) and merges them with what annotations/ holds (see
pipeline.review.gold: another reviewer's decision is never overwritten; disagreements are kept and
listed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import IngestError, ReviewError, ReviewFileError
from pipeline.fileio import read_jsonl, writing_to
from pipeline.review import formats, labelstudio
from pipeline.review.model import NOT_IMPORTED, Decision, ReviewedDoc, decisions
from pipeline.review.runs import attach_entities, input_dir_of, load_run

__all__ = ["FORMATS", "ExportSummary", "ImportSummary", "ReviewError", "RunArticles", "annotate_export",
           "annotate_import", "attach_entities", "input_dir_of", "load_run", "read_reviewed", "run_docs"]

FORMATS = ("label-studio", "prodigy", "doccano")


@dataclass
class ExportSummary:
    format: str
    files: list[Path]
    tasks: int
    claims: int
    entities: int
    relations: int


@dataclass
class ImportSummary:
    format: str
    reviewed: int = 0  # (article, reviewer) pairs read
    actions: dict[str, int] = field(default_factory=dict)  # accept/correct/reject/add -> count
    outcomes: dict[str, int] = field(default_factory=dict)  # added/updated/unchanged/confirmed/conflict -> count
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # spans that could not be placed, skipped tasks
    # annotations left out because a region could not be placed (nothing of them was written)
    skipped: int = 0


# -- export / import -----------------------------------------------------------------------------------

def annotate_export(out_dir: Path, fmt: str, to: Path, input_dir: Path | None = None) -> ExportSummary:
    """Write the run in OUT_DIR as tasks for `fmt` (label-studio, prodigy, doccano) to `to`: a file, or a
    folder (then tasks.json / tasks.jsonl, and label_config.xml for Label Studio, go inside)."""
    if fmt not in FORMATS:
        raise ReviewError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    items = load_run(Path(out_dir), input_dir)
    to = Path(to)
    if fmt == "label-studio":
        files = labelstudio.write(items, to)
    else:
        files = formats.write(fmt, items, to)
    return ExportSummary(format=fmt, files=files, tasks=len(items), claims=sum(len(i.claims) for i in items),
                         entities=sum(len(i.entities) for i in items),
                         relations=sum(len(i.relations) for i in items))


def detect_format(rows: list[dict[str, Any]]) -> str:
    """Which tool wrote the review file, told by the keys of its first task; ReviewFileError when none fits."""
    first = rows[0] if rows else {}
    data = first.get("data")
    if "annotations" in first or "predictions" in first or (isinstance(data, dict) and "text" in data):
        return "label-studio"
    if "_input_hash" in first or "answer" in first or "spans" in first:
        return "prodigy"
    if "entities" in first or "label" in first:
        return "doccano"
    raise ReviewFileError("cannot tell the format of the file: not Label Studio JSON, Prodigy JSONL or doccano "
                          "JSONL")


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The tasks of a review export: a JSON list (Label Studio) or JSON lines (Prodigy, doccano).  A file
    that is missing, binary, truncated or of another shape is a ReviewFileError naming it and the place."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ReviewFileError(f"{path}: cannot read the review file ({exc.strerror or exc})") from exc
    if b"\x00" in data[:4096]:
        raise ReviewFileError(f"{path}: a binary file, not a review export (JSON or JSON lines)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReviewFileError(f"{path}: not UTF-8 text at byte {exc.start}; export it again as JSON") from exc
    if not text.strip():
        raise ReviewFileError(f"{path}: empty; export the reviewed tasks again")
    if text.lstrip().startswith("["):
        try:
            rows = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            where = (f" (line {exc.lineno}, column {exc.colno}: {exc.msg})"
                     if isinstance(exc, json.JSONDecodeError) else " (nested too deep)")
            raise ReviewFileError(f"{path}: not a complete JSON list{where}; was the export cut short?") from exc
    else:
        rows = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except (json.JSONDecodeError, RecursionError) as exc:
                raise ReviewFileError(f"{path}:{n}: not a JSON line; was the export cut short?") from exc
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ReviewFileError(f"{path}: expected a list of tasks (JSON objects)")
    return rows


def read_reviewed(path: Path, fmt: str | None = None, problems: list[str] | None = None
                  ) -> tuple[str, list[ReviewedDoc]]:
    """A review export as (format, reviewed articles); the format is detected unless `fmt` names it, and
    tasks that cannot be read are listed in `problems`."""
    rows = read_rows(Path(path))
    fmt = fmt or detect_format(rows)
    problems = problems if problems is not None else []
    if fmt == "label-studio":
        return fmt, labelstudio.read(rows, problems)
    return fmt, formats.read(fmt, rows, problems)


class RunArticles:
    """The articles of the runs reviewed tasks came from: an annotation is written to the gold only when its
    article is in the run and its text is the article's, character for character (offsets into any other
    text would point at the wrong words)."""

    def __init__(self, run_dir: Path | None = None, input_dir: Path | None = None) -> None:
        self.run_dir, self.input_dir = run_dir, input_dir
        if run_dir is not None and not (Path(run_dir) / "claims.jsonl").is_file():
            raise ReviewError(f"{run_dir}: not a run's output folder (no claims.jsonl); --run names the folder a "
                              "`newsclaims run --out` wrote")
        self._runs: dict[str, tuple[Path, set[str]] | str] = {}
        self._texts: dict[tuple[str, str], str | None] = {}

    def _run(self, recorded: str | None) -> tuple[Path, set[str]] | str:
        where = self.run_dir if self.run_dir is not None else recorded
        if where is None:
            return "the task names no run and none was given (--run OUT_DIR): its text cannot be checked"
        if not isinstance(where, (str, Path)):
            return f"the task's run is not a folder name ({where!r}); pass --run OUT_DIR"
        key = str(where)
        if key not in self._runs:
            out = Path(where)
            if not (out / "claims.jsonl").is_file():
                self._runs[key] = (f"the run it was exported from ({out}) is not there; pass --run OUT_DIR (and "
                                   "--input DIR if the articles moved)")
            else:
                try:
                    self._runs[key] = (input_dir_of(out, self.input_dir), run_docs(out))
                except ReviewError as exc:
                    self._runs[key] = exc.message
        return self._runs[key]

    def text(self, rd: ReviewedDoc) -> str | None:
        """The text of `rd`'s article as its run reads it now (cached); None when the run or the article
        cannot be read."""
        run = self._run(rd.run)
        if isinstance(run, str):
            return None
        root = run[0]
        key = (str(root), rd.doc)
        if key not in self._texts:
            from pipeline.ingest.read import read_article

            try:
                self._texts[key] = read_article(root / rd.doc if root.is_dir() else root, root).text
            except IngestError:
                self._texts[key] = None
        return self._texts[key]

    def problem(self, rd: ReviewedDoc) -> str | None:
        """Why the reviewed article cannot be imported, or None."""
        run = self._run(rd.run)
        if isinstance(run, str):
            return run
        root, docs = run
        if rd.doc not in docs:
            return f"{rd.doc!r} is no article of the run (articles under {root})"
        text = self.text(rd)
        if text is None:
            return f"its article {root / rd.doc} cannot be read"
        if text != rd.text:
            return f"the task's text is not the article's ({_first_difference(rd.text, text)}): its offsets would " \
                   "point at other words; export the run again"
        return None


def _first_difference(task: str, article: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(task, article, strict=False)) if a != b), min(len(task), len(article)))
    return f"they differ from character {at}: {task[at:at + 12]!r} in the task, {article[at:at + 12]!r} in the article"


def run_docs(out_dir: Path) -> set[str]:
    """The articles a run read (articles.jsonl; claims.jsonl's docs for a run older than that file)."""
    path = Path(out_dir) / "articles.jsonl"
    source = path if path.is_file() else Path(out_dir) / "claims.jsonl"
    try:
        rows = read_jsonl(source)
    except (OSError, ValueError) as exc:
        raise ReviewError(f"{source}: cannot read the run's articles ({exc})") from exc
    return {str(r["doc"]) for r in rows if isinstance(r, dict) and r.get("doc") and not r.get("error")}


def misplaced(ds: list[Decision], text: str) -> str | None:
    """The first gold row whose offsets do not slice its text out of the article, said; None if none."""
    for d in ds:
        start, end = d.row.get("start"), d.row.get("end")
        ok = isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(text)
        if not ok or text[start:end] != d.row.get("text"):
            return f"{d.what} {d.id} [{start}, {end}) is not {d.row.get('text')!r} in the article"
    return None


def annotate_import(file: Path, to: Path, fmt: str | None = None, reviewer: str | None = None,
                    run_dir: Path | None = None, input_dir: Path | None = None) -> ImportSummary:
    """Merge a reviewed export (Label Studio JSON, Prodigy or doccano JSONL) into the gold folder `to`.
    `reviewer` names the reviewer when the file does not (or overrides it).  Each reviewed article is
    checked against the run it was exported from (`run_dir`, else the run the export recorded; its
    articles under `input_dir`, else where the run read them) before anything is written: one in no run,
    whose text is not the article's, or whose rows would not slice their words out of the article, is not
    imported (listed in `problems`, counted in `skipped`)."""
    from pipeline.review.gold import GoldStore

    problems: list[str] = []
    fmt, reviewed = read_reviewed(Path(file), fmt, problems)
    summary = ImportSummary(format=fmt, problems=problems, skipped=sum(NOT_IMPORTED in p for p in problems))
    store = GoldStore(Path(to))
    articles = RunArticles(run_dir, input_dir)
    planned: list[list[Decision]] = []
    for rd in reviewed:
        if reviewer:
            rd.reviewer = reviewer
        try:
            store.path_for(rd.doc)
        except ValueError as exc:  # a task whose doc would lead outside the folder: never written
            why: str | None = str(exc)
        else:
            why = articles.problem(rd)
        ds: list[Decision] = []
        if why is None:
            try:
                ds = decisions(rd)
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                why = f"malformed ({type(exc).__name__}: {exc})"
            else:
                why = misplaced(ds, rd.text)
        if why is not None:
            problems.append(f"{rd.source}: {why}; this annotation {NOT_IMPORTED}")
            summary.skipped += 1
            continue
        planned.append(ds)
    # nothing is written before every annotation was checked
    with writing_to(Path(to)):
        for ds in planned:
            summary.reviewed += 1
            for d in ds:
                summary.actions[d.action] = summary.actions.get(d.action, 0) + 1
            for res in store.apply(ds):
                summary.outcomes[res.outcome] = summary.outcomes.get(res.outcome, 0) + 1
                if res.conflict is not None:
                    summary.conflicts.append(res.conflict)
    return summary
