"""Batch runs over an article folder: resumable, atomic, one bad article never stops the rest.

Each article's result is written to OUT_DIR/.parts/<key>.json as soon as it is done (atomically), with
the article's content hash and the pipeline version.  A rerun reuses a part whose hash and version still
match, so an interrupted run (even kill -9) resumes where it stopped.  The merged outputs (claims.jsonl,
claims.csv, errors.jsonl) are rebuilt from the parts at the end, each written atomically.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.fileio import atomic_write_jsonl, atomic_write_text
from pipeline.ingest.read import doc_id, find_articles
from pipeline.records import ArticleError, ArticleResult, Claim
from pipeline.reconcile import find_conflicts
from pipeline.run.process import get_pipeline, pipeline_version, process_path
from pipeline.settings import Settings

PARTS = ".parts"
CSV_COLUMNS = ["id", "doc", "lang", "sentence", "start", "end", "text", "kind", "value", "unit", "counted",
               "of_total", "bound", "low", "high", "ratio_reading", "reading_cue", "bound_cue", "entity_org",
               "entity_accelerator", "entity_system", "entity_benchmark", "entity_round", "entity_framework",
               "metric", "compared_to", "verdict", "official", "evidence", "explanation", "distortion"]


@dataclass
class BatchSummary:
    articles: int = 0
    processed: int = 0
    reused: int = 0
    errors: int = 0
    claims: int = 0
    succeeded: int = 0
    out_dir: str = ""
    error_docs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.articles == 0 or self.succeeded > 0


def _part_path(out: Path, doc: str) -> Path:
    return out / PARTS / (hashlib.sha1(doc.encode("utf-8")).hexdigest()[:20] + ".json")


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return ""
    return h.hexdigest()


def _load_part(path: Path, digest: str, version: str) -> dict | None:
    try:
        part = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if part.get("file_sha256") != digest or part.get("version") != version or not digest:
        return None
    return part


def _result_to_part(result: ArticleResult, digest: str, version: str) -> dict:
    return {
        "doc": result.doc,
        "file_sha256": digest,
        "version": version,
        "lang": result.lang,
        "claims": [c.to_contract() for c in result.claims],
        "error": result.error.to_contract() if result.error else None,
    }


def _work(args: tuple[str, str, Settings]) -> ArticleResult:
    path, root, settings = args
    return process_path(Path(path), Path(root), settings)


def run_batch(input_dir: Path, out_dir: Path, settings: Settings | None = None, workers: int = 1,
              progress: Callable[[int, int, str], None] | None = None,
              postprocess: Callable[[list[Claim]], list[Claim]] | None = None) -> BatchSummary:
    """Process every article under input_dir into out_dir.  `postprocess` sees all claims of the
    corpus at the end (cross-article steps such as conflicts)."""
    settings = settings or Settings()
    input_dir, out_dir = Path(input_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / PARTS).mkdir(exist_ok=True)
    version = pipeline_version()
    # Load the official tables up front: a broken table must stop the run before any verdict.
    get_pipeline(settings).official  # noqa: B018
    paths = list(find_articles(input_dir))
    summary = BatchSummary(articles=len(paths), out_dir=str(out_dir))
    parts: dict[str, dict] = {}
    todo: list[tuple[Path, str, str]] = []
    for path in paths:
        doc = doc_id(path, input_dir)
        digest = _file_digest(path)
        part = _load_part(_part_path(out_dir, doc), digest, version)
        if part is not None:
            parts[doc] = part
            summary.reused += 1
        else:
            todo.append((path, doc, digest))
    done = summary.reused
    if progress:
        progress(done, len(paths), "")

    def _record(result: ArticleResult, doc: str, digest: str) -> None:
        nonlocal done
        part = _result_to_part(result, digest, version)
        atomic_write_text(_part_path(out_dir, doc), json.dumps(part, ensure_ascii=False))
        parts[doc] = part
        done += 1
        if progress:
            progress(done, len(paths), doc)

    jobs = [(str(p), str(input_dir), settings) for p, _, _ in todo]
    if workers > 1 and len(todo) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for (_, doc, digest), result in zip(todo, pool.map(_work, jobs, chunksize=4), strict=True):
                _record(result, doc, digest)
    else:
        for (_, doc, digest), job in zip(todo, jobs, strict=True):
            _record(_work(job), doc, digest)
    summary.processed = len(todo)
    write_outputs(out_dir, [parts[doc_id(p, input_dir)] for p in paths], summary, postprocess)
    return summary


def write_outputs(out_dir: Path, parts: Iterable[dict], summary: BatchSummary,
                  postprocess: Callable[[list[Claim]], list[Claim]] | None = None) -> None:
    claims: list[Claim] = []
    errors: list[dict] = []
    for part in parts:
        if part.get("error"):
            errors.append(part["error"])
            summary.error_docs.append(part["doc"])
        else:
            summary.succeeded += 1
        claims.extend(Claim.from_contract(c) for c in part.get("claims") or [])
    if postprocess is not None:
        claims = postprocess(claims)
    summary.errors = len(errors)
    summary.claims = len(claims)
    rows = [c.to_contract() for c in claims]
    atomic_write_jsonl(out_dir / "claims.jsonl", rows)
    atomic_write_jsonl(out_dir / "errors.jsonl", errors)
    atomic_write_jsonl(out_dir / "conflicts.jsonl", find_conflicts(claims))
    write_claims_csv(out_dir / "claims.csv", rows)


def write_claims_csv(path: Path, rows: list[dict]) -> None:
    import pandas as pd

    flat = []
    for r in rows:
        f = {k: v for k, v in r.items() if k not in ("entities", "evidence", "compared_to")}
        for key, value in (r.get("entities") or {}).items():
            f[f"entity_{key}"] = value
        f["evidence"] = " ".join(r.get("evidence") or [])
        f["compared_to"] = json.dumps(r["compared_to"], ensure_ascii=False) if r.get("compared_to") else ""
        flat.append(f)
    df = pd.DataFrame(flat, columns=CSV_COLUMNS)
    atomic_write_text(path, df.to_csv(index=False))


def error_rows(errors: Iterable[ArticleError]) -> list[dict]:
    return [e.to_contract() for e in errors]
