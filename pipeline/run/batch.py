"""Batch runs over an article folder: resumable, atomic, one bad article never stops the rest.

Each article runs in a worker process with a time limit (settings.article_timeout), so an article that
hangs or crashes its process is listed in errors.jsonl ("timeout", "crashed") and the batch goes on.
Its result is written to OUT_DIR/.parts/<key>.part as soon as it is done (atomically): a JSON header line
(the content hash of the file and its sidecar, the run fingerprint of code, language data, settings and
official tables, the article's language, date, problems and error), then its lines of claims.jsonl and of
claims.csv as the merge copies them, so a claim is serialized once, by the worker.
A rerun reuses a part whose hash and fingerprint still match, so an interrupted run (even kill -9) resumes
where it stopped, and no claim is lost or written twice: the merged outputs (claims.jsonl, claims.csv,
errors.jsonl, conflicts.jsonl) are rebuilt from exactly one part per article, each written atomically.

A run writes only inside OUT_DIR, holds a lock on it, and refuses an OUT_DIR that holds files it did not
write (an annotations folder given as --out is never written into).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError
from pipeline.fileio import (
    atomic_write_bytes,
    atomic_write_text,
    json_loads,
    jsonl_bytes,
    locked_dir,
    remove_stale_temps,
    writing_to,
)
from pipeline.ingest.read import ARTICLE_SUFFIXES, META_SUFFIX, OutsideLink, doc_id, find_articles, printable
from pipeline.procs import loading, resume
from pipeline.records import ArticleError, ArticleResult
from pipeline.report.corpus import CorpusIndex
from pipeline.run import current, outdir
from pipeline.run.merge import (  # noqa: F401 - CSV_COLUMNS, csv_cell, csv_row: this module's API too
    CSV_COLUMNS,
    OUTPUT_FILES,
    PARQUET_FILE,
    MergedOutputs,
    OrderedMerge,
    claim_lines,
    csv_cell,
    csv_row,
    text_line,
)
from pipeline.run.pool import run_jobs, uses_fork
from pipeline.run.process import failure_result, get_pipeline, process_path, run_fingerprint
from pipeline.run.worker import article_done, end_of_articles, merging, run_pipeline, tune_worker, warm_up
from pipeline.settings import Settings

PARTS = outdir.PARTS
# Failures that say nothing lasting about the article (the machine was busy, memory ran out): they are
# reported but not stored as parts, so the next run tries the article again.
TRANSIENT = ("timeout", "crashed")


@dataclass
class BatchSummary:
    articles: int = 0
    processed: int = 0
    reused: int = 0
    errors: int = 0
    claims: int = 0
    succeeded: int = 0
    timeouts: int = 0
    out_dir: str = ""
    error_docs: list[str] = field(default_factory=list)
    # what the merge wrote, indexed for the report (write_reports(index=...)) so it need not read it again
    index: CorpusIndex | None = field(default=None, repr=False, compare=False)
    # the key of what the merged outputs are made of (pipeline.run.current; "" when they also hold results
    # that were not stored, such as a timeout), and whether they were current already, so nothing was merged
    outputs_key: str = ""
    unchanged: bool = False
    # whether the merge wrote claims.parquet beside the other outputs (the report then need not)
    parquet: bool = False

    @property
    def ok(self) -> bool:
        """Whether the batch did its job: no articles at all, or at least one read."""
        return self.articles == 0 or self.succeeded > 0


PART_SUFFIX = ".part"
# the parts of earlier versions (one JSON object each): pruned as this version's are
_OLD_PART = re.compile(r"[0-9a-f]{20}\.json")


def _part_path(out: Path, doc: str) -> Path:
    return out / PARTS / (hashlib.sha1(doc.encode("utf-8")).hexdigest()[:20] + PART_SUFFIX)


def _file_digest(path: Path) -> str:
    """Content hash of an article: its file's bytes, and its sidecar's (`<file>.meta.yaml`: the round and
    date an article is read with) when it has one.  "" (never matches a part) for anything but a regular
    file or on error, so a FIFO is never opened here (it would block) and an unreadable file is always
    retried."""
    import stat

    h = hashlib.sha256()
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return ""
        _hash_file(path, h)
        meta = path.with_name(path.name + META_SUFFIX)
        if meta.exists():
            h.update(b"\0" + META_SUFFIX.encode())
            if stat.S_ISREG(meta.stat().st_mode):  # (read_article reports any other kind of sidecar)
                _hash_file(meta, h)
    except OSError:
        return ""
    return h.hexdigest()


def _hash_file(path: Path, h) -> None:  # noqa: ANN001 - a hashlib object
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)


def _part_text(part: dict) -> bytes:
    """A part as stored: its header line, then its claims.jsonl lines, then its claims.csv lines, then its
    line of texts.jsonl (after the claims: a rerun's check of the header does not read the text)."""
    lines = part.get("lines") or claim_lines(part.get("claims") or [])
    header = {k: v for k, v in part.items() if k not in ("claims", "lines", "text", "shown")}
    shown = text_line(part)
    body = lines["jsonl"] + lines["csv"] + shown
    # the body's size lets a rerun tell a whole part from a cut one without parsing its claims
    header.update(claims=lines["jsonl"].count(b"\n"), csv=lines["csv"].count(b"\n"), text_bytes=len(shown),
                  bytes=len(body))
    return jsonl_bytes([header]) + body


def _read_header(path: Path) -> dict | None:
    """A part's header line, when the part is whole (its body as long as the header says), or None."""
    try:
        with open(path, "rb") as fh:
            header = json_loads(fh.readline())
            if not isinstance(header, dict) or os.fstat(fh.fileno()).st_size - fh.tell() != header.get("bytes"):
                return None
    except (OSError, ValueError):
        return None
    return header


def _read_part(path: Path) -> dict | None:
    """A stored part with its claims (parsed) and their lines, or None when it is missing or damaged."""
    try:
        head_bytes, _, body = path.read_bytes().partition(b"\n")
        part = json_loads(head_bytes)
        if not isinstance(part, dict):
            return None
        n, n_csv, size = int(part.pop("claims")), int(part.pop("csv")), part.pop("bytes")
        n_text = int(part.pop("text_bytes"))
        if len(body) != size or not 0 <= n_text <= size:
            return None  # cut short or grown: not the part that was written
        body, shown = body[:size - n_text], body[size - n_text:]
        # lines end in \n only (JSON escapes it inside strings; U+2028 or U+0085 in a string end no line)
        claims, cut = [], 0
        for _ in range(n):
            end = body.index(b"\n", cut) + 1
            claims.append(json_loads(body[cut:end]))
            cut = end
        jsonl, csv_text = body[:cut], body[cut:]
    except (OSError, ValueError, KeyError, TypeError):
        # missing, an older version's, or damaged by a crash outside our atomic writes: redo the article
        return None
    if (csv_text.count(b"\n") != n_csv or not all(isinstance(c, dict) for c in claims)
            or (shown and (shown.count(b"\n") != 1 or not shown.endswith(b"\n")))):
        return None
    part.update(claims=claims, lines={"jsonl": jsonl, "csv": csv_text}, text_line=shown)
    return part


def _load_part(path: Path, digest: str, version: str) -> bool:
    """Whether the stored part is current for this content and this run fingerprint."""
    head = _read_header(path)
    return (head is not None and bool(digest) and head.get("file_sha256") == digest
            and head.get("version") == version)


def _result_to_part(result: ArticleResult, digest: str, version: str) -> dict:
    return {
        "doc": result.doc,
        "file_sha256": digest,
        "version": version,
        "lang": result.lang,
        "dated": result.dated,
        "problems": list(result.problems),
        "claims": [c.to_contract() for c in result.claims],
        "error": result.error.to_contract() if result.error else None,
        "text": result.text,
        "shown": result.shown,
    }


def _work(args: tuple[str, str, Settings, str, str]) -> bytes:
    """One article, in a worker: its part, already serialized, so the conversion runs in the workers in
    parallel and only its bytes come back to the parent."""
    path, root, settings, digest, version = args
    result = process_path(Path(path), Path(root), settings, run_pipeline(settings))
    article_done()
    # its lines of claims.jsonl and claims.csv, rendered here, so that the merge, which runs alone, only
    # copies them
    return _part_text(_result_to_part(result, digest, version))


def run_batch(input_dir: Path, out_dir: Path, settings: Settings | None = None, workers: int = 1,
              progress: Callable[[int, int, str], None] | None = None,
              engine: str = "local", scheduler: str | None = None) -> BatchSummary:
    """Process every article under input_dir into out_dir.  Raises OfficialTableError (a broken
    official table) and OutputDirError (an OUT_DIR it must not write into) before writing anything."""
    settings = settings or Settings()
    input_dir, out_dir = Path(input_dir), Path(out_dir)
    if not input_dir.exists():
        raise InputError(f"{input_dir}: no such file or folder")
    if not input_dir.is_dir() and input_dir.suffix.lower() not in ARTICLE_SUFFIXES:
        raise InputError(f"{input_dir}: neither a folder nor an article file ({', '.join(ARTICLE_SUFFIXES)})")
    with loading():  # collection resumes once the pipeline is loaded (warm_up), or when nothing is to do
        return _run_batch(input_dir, out_dir, settings, workers, progress, engine, scheduler)


def _run_batch(input_dir: Path, out_dir: Path, settings: Settings, workers: int,
               progress: Callable[[int, int, str], None] | None, engine: str, scheduler: str | None
               ) -> BatchSummary:
    # Everything that can refuse the run does so before the first byte is written.
    get_pipeline(settings).official  # noqa: B018 - a broken official table stops the run here
    version = run_fingerprint(settings)
    outdir.check(out_dir, input_dir)
    with writing_to(out_dir):
        out_dir.mkdir(parents=True, exist_ok=True)
        with locked_dir(out_dir):
            remove_stale_temps(out_dir)
            (out_dir / PARTS).mkdir(exist_ok=True)
            remove_stale_temps(out_dir / PARTS)
            summary = _run_locked(input_dir, out_dir, settings, workers, progress, version, engine, scheduler)
            write_run_info(out_dir, input_dir, settings, summary)
            return summary


def report_run(out_dir: Path, input_dir: Path, settings: Settings, summary: BatchSummary, workers: int = 1,
               progress: Callable[[int, int, str], None] | None = None) -> list[Path]:
    """The run's reports (pipeline.report.write_reports), unless those already in OUT_DIR were made of
    exactly these outputs, articles and settings and are untouched; the files written (none when current).
    `newsclaims run` calls it after run_batch; a Python caller gets the same outputs by doing the same."""
    from pipeline.report import write_reports

    out_dir, input_dir = Path(out_dir), Path(input_dir)
    # the reports are made of the merged outputs, the articles (both in outputs_key) and these
    key = current.make_key("report", summary.outputs_key, str(input_dir.resolve()), str(out_dir.resolve()),
                           settings.official, settings.report_page_articles)
    if summary.outputs_key and current.current(out_dir, "report", key) is not None:
        if progress:
            progress(1, 1, "report already current")
        return []
    current.forget(out_dir, "report")
    written = write_reports(out_dir, input_dir, per_page=settings.report_page_articles, workers=workers,
                            progress=progress, index=summary.index, parquet=not summary.parquet)
    if summary.outputs_key:
        current.mark(out_dir, "report", key, written)
    return written


def write_run_info(out_dir: Path, input_dir: Path, settings: Settings, summary: BatchSummary) -> None:
    """OUT_DIR/run.json: what the run read, so reports, reviews and exports find the articles again
    (written by the library, so a run started from Python makes outputs every command can use)."""
    from pipeline.run.versions import pipeline_version

    info = {"input_dir": str(Path(input_dir).resolve()), "official": settings.official,
            "version": pipeline_version(), "articles": summary.articles, "claims": summary.claims,
            "errors": summary.errors}
    atomic_write_text(out_dir / "run.json", json.dumps(info, ensure_ascii=False, indent=1))


def _run_locked(input_dir: Path, out_dir: Path, settings: Settings, workers: int,
                progress: Callable[[int, int, str], None] | None, version: str, engine: str = "local",
                scheduler: str | None = None) -> BatchSummary:
    walk_errors: list[OSError] = []
    paths = list(find_articles(input_dir, exclude=[out_dir], walk_errors=walk_errors,
                               follow_symlinks=settings.follow_symlinks))
    summary = BatchSummary(articles=len(paths), out_dir=str(out_dir))
    docs = [doc_id(p, input_dir) for p in paths]
    todo: list[tuple[Path, str, str]] = []
    digests: list[str] = []
    for path, doc in zip(paths, docs, strict=True):
        digest = _file_digest(path)
        digests.append(digest)
        if _load_part(_part_path(out_dir, doc), digest, version):
            summary.reused += 1
        else:
            todo.append((path, doc, digest))
    if progress:
        progress(summary.reused, len(paths), "")
    extra = _walk_error_rows(walk_errors, input_dir)
    merge_key = current.make_key("merge", version, list(zip(docs, digests, strict=True)), extra)
    keep = {_part_path(out_dir, d).name for d in docs}
    # every part stored before and the outputs of that merge untouched: they are current
    if not todo and (state := current.current(out_dir, "merge", merge_key)) is not None:
        _unchanged(summary, merge_key, state)
        _prune_parts(out_dir, keep)
        return summary
    current.forget(out_dir, "merge")
    merge = _Merge(out_dir, docs, summary, todo)
    with MergedOutputs(out_dir, summary, parquet=True) as outputs:
        merge.start(outputs)
        if todo:
            try:
                _dispatch(todo, input_dir, settings, workers, merge.record(version, progress, len(paths)),
                          summary, version, engine, scheduler)
            finally:
                end_of_articles()
        if progress:
            progress(len(paths), len(paths), "merging the results")
        merge.order.finish()
        summary.index = outputs.close(extra)
    summary.processed = len(todo)
    summary.parquet = outputs.parquet_written
    _prune_parts(out_dir, keep)
    if not merge.unstored and not merge.lost:  # outputs made of stored parts only: a rerun may keep them
        summary.outputs_key = merge_key
        files = [out_dir / n for n in (*OUTPUT_FILES, *((PARQUET_FILE,) if summary.parquet else ()))]
        current.mark(out_dir, "merge", merge_key, files,
                     {"claims": summary.claims, "errors": summary.errors, "succeeded": summary.succeeded,
                      "error_docs": summary.error_docs, "parquet": summary.parquet})
    return summary


def _unchanged(summary: BatchSummary, merge_key: str, state: dict) -> None:
    summary.unchanged, summary.outputs_key = True, merge_key
    summary.claims, summary.errors = int(state.get("claims", 0)), int(state.get("errors", 0))
    summary.succeeded = int(state.get("succeeded", 0))
    summary.error_docs = [str(d) for d in state.get("error_docs", [])]
    summary.parquet = bool(state.get("parquet"))


def _walk_error_rows(walk_errors: list[OSError], input_dir: Path) -> list[dict[str, str]]:
    """errors.jsonl rows for what the folder walk could not read (links out of INPUT_DIR, folders)."""
    return [{"doc": printable(_rel(exc.filename, input_dir)), "error": "unreadable",
             "detail": (f"{exc.strerror}: not read (the target lies outside the input folder; "
                        "--follow-symlinks reads it)") if isinstance(exc, OutsideLink) else
             f"cannot list the folder ({exc.strerror}); its articles were not read: check its permissions"}
            for exc in walk_errors]


class _Merge:
    """The merge of one run, fed as the articles finish (merge.py): each result is stored as its part, then
    merged once every article before it is.  Only what a part file does not hold stays in memory: the
    results of articles that failed for a passing reason (not stored, so that the next run retries them);
    the others are read back from their parts as their turn comes, so memory does not grow with the corpus
    and the outputs are made of exactly the parts on disk."""

    def __init__(self, out_dir: Path, docs: list[str], summary: BatchSummary,
                 todo: list[tuple[Path, str, str]]) -> None:
        self.out_dir, self.docs, self.summary = out_dir, docs, summary
        self.position = {doc: i for i, doc in enumerate(docs)}
        self.waiting = {self.position[doc] for _, doc, _ in todo}
        self.unstored: dict[str, dict] = {}
        self.lost: list[str] = []
        self.order: OrderedMerge

    def start(self, outputs: MergedOutputs) -> None:
        """Begin with the parts stored before (merged as their turn comes)."""
        self.order = OrderedMerge(outputs, len(self.docs), self.read,
                                  stored=[i for i in range(len(self.docs)) if i not in self.waiting])

    def read(self, i: int) -> dict:
        """Article i's part, as stored (or held); a part that cannot be read back is reported as lost."""
        doc = self.docs[i]
        if doc in self.unstored:
            return self.unstored[doc]
        # checked (or written) in this run, while the lock keeps other runs out
        part = _read_part(_part_path(self.out_dir, doc))
        if part is None or part.get("doc") != doc:
            self.lost.append(doc)
            part = _lost_part(doc)
        return part

    def record(self, version: str, progress: Callable[[int, int, str], None] | None, total: int
               ) -> Callable[[ArticleResult | bytes, str, str], None]:
        """The callback that stores an article's result (a part a worker serialized, or a result to convert
        here) and merges what it can."""
        done = self.summary.reused

        def record(result: ArticleResult | bytes, doc: str, digest: str) -> None:
            nonlocal done
            # not synced part by part (a millisecond each, while a worker may wait for the parent): a part that
            # did not reach the disk before a crash is cut short or missing, which a rerun sees and redoes
            if isinstance(result, bytes):
                atomic_write_bytes(_part_path(self.out_dir, doc), result, durable=False)
            elif result.error and result.error.error in TRANSIENT:
                self.unstored[doc] = _result_to_part(result, digest, version)
            else:
                atomic_write_bytes(_part_path(self.out_dir, doc), _part_text(_result_to_part(result, digest, version)),
                                   durable=False)
            done += 1
            if progress:
                progress(done, total, doc)
            self.order.ready(self.position[doc])

        return record


def _lost_part(doc: str) -> dict:
    """A part that was written in this run but cannot be read back (the disk failed, or something else
    removed it): the article is reported, not silently dropped, and the next run redoes it."""
    error = ArticleError(doc, "internal", "its result could not be read back from the output folder's .parts; "
                         "run again to redo it")
    return {"doc": doc, "claims": [], "error": error.to_contract()}


def _dispatch(todo: list[tuple[Path, str, str]], input_dir: Path, settings: Settings, workers: int,
              record: Callable[[ArticleResult | bytes, str, str], None], summary: BatchSummary, version: str,
              engine: str = "local", scheduler: str | None = None) -> None:
    """Run the articles to do, each in a worker with the time limit; article_timeout <= 0 runs them in
    this process without a limit (for debugging and profiling)."""
    if engine == "dask":
        # the same unit of work on a dask.distributed cluster; results are recorded exactly as locally
        from pipeline.run.dask_engine import map_articles

        resume()  # this process merges while the cluster works: its garbage is collected again
        merging()

        tasks = [(str(p), str(input_dir), settings) for p, _, _ in todo]
        for index, result in map_articles(tasks, scheduler=scheduler, workers=max(1, workers)):
            _, doc, digest = todo[index]
            if result.error and result.error.error == "timeout":
                summary.timeouts += 1
            record(result, doc, digest)
        return
    jobs = [(str(p), str(input_dir), settings, digest, version) for p, _, digest in todo]
    if settings.article_timeout <= 0:
        warm_up(settings)
        for (_, doc, digest), job in zip(todo, jobs, strict=True):
            record(_work(job), doc, digest)
        return
    warm = None
    if uses_fork():
        warm_up(settings)  # forked workers inherit the loaded pipeline: starting one costs milliseconds
        warm = tune_worker  # a worker tunes its own gc; this process merges while they work (merging())
    else:
        warm = functools.partial(warm_up, settings)
        resume()  # spawned workers load for themselves; this process only merges
    merging()
    timeout = settings.article_timeout if math.isfinite(settings.article_timeout) else math.inf
    for outcome in run_jobs(jobs, _work, max(1, workers), timeout, warm=warm):
        path, doc, digest = todo[outcome.index]
        if outcome.failure is None:
            record(outcome.result, doc, digest)
            continue
        if outcome.failure == "timeout":
            summary.timeouts += 1
        record(failure_result(doc, outcome.failure, outcome.detail, path), doc, digest)


def _rel(name: str | os.PathLike | None, root: Path) -> str:
    if name is None:
        return "."
    try:
        return Path(os.path.relpath(name, root)).as_posix()
    except ValueError:
        return str(name)


def _prune_parts(out_dir: Path, keep: set[str]) -> None:
    """Parts of articles no longer in the input are dropped, so .parts does not grow without end."""
    for path in (out_dir / PARTS).iterdir():
        if path.name not in keep and (path.suffix == PART_SUFFIX or _OLD_PART.fullmatch(path.name)):
            try:
                path.unlink()
            except OSError:
                pass
