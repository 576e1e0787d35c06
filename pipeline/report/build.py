"""write_reports: every report file of a run, rebuilt from OUT_DIR's JSONL files (no extraction rerun).

A corpus of up to `per_page` articles gets one self-contained report.html (and report.md) holding every
article; a larger one gets a corpus page plus parts of `per_page` articles under report-pages/ (see
paged.py), written from streams so that memory stays flat whatever the corpus size.  Each file is written
atomically (temporary file, then rename), so a reader never sees half a report and a failed rebuild leaves
the previous one in place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from pipeline.errors import ConfigError
from pipeline.fileio import atomic_write_text, atomic_writers, locked_dir, remove_stale_temps, writing_to
from pipeline.report.chart import claims_chart
from pipeline.report.corpus import CorpusIndex, claim_rows, index_corpus
from pipeline.report.html import render_html
from pipeline.report.load import article_docs, load_report, read_rows, resolve_input_dir, run_info
from pipeline.report.markdown import render_markdown
from pipeline.report.paged import PAGES_DIR, remove_stale_parts, write_paged_reports
from pipeline.report.table import extra_columns, write_parquet
from pipeline.settings import Settings

log = logging.getLogger(__name__)

CHART_FILE = "chart.svg"
PAGE_ARTICLES = Settings().report_page_articles
Progress = Callable[[int, int, str], None]


def write_reports(out_dir: Path, input_dir: Path | None = None, per_page: int = PAGE_ARTICLES,
                  workers: int = 1, progress: Progress | None = None, index: CorpusIndex | None = None,
                  parquet: bool = True) -> list[Path]:
    """Write report.html, report.md, chart.svg and claims.parquet into `out_dir` (and report-pages/ for a
    corpus of more than `per_page` articles); returns their paths.

    `input_dir` is the folder the run read (claims' `doc` paths are relative to it); without it the folder
    recorded in OUT_DIR/run.json is used, and without either the report shows the claims' sentences.
    `workers` processes render the parts of a large corpus; `progress(done, total, what)` hears of each
    step (the parts of a large corpus one by one).  `index` is the index of OUT_DIR's claims.jsonl and
    conflicts.jsonl when the caller has it (a batch run's merge builds it as it writes them); without it
    they are read.  `parquet=False` leaves claims.parquet as it is (a batch run's merge wrote it).
    """
    out_dir = Path(out_dir)
    if per_page < 1:
        raise ConfigError(f"report_page_articles must be 1 or more, not {per_page}")
    # under the run's lock: a run starting meanwhile would change what the report is made of, and the
    # temporary files of a report killed earlier are removed only while no one writes
    with writing_to(out_dir), locked_dir(out_dir):
        remove_stale_temps(out_dir)
        return _write_reports(out_dir, input_dir, per_page, workers, progress, index, parquet)


def _write_reports(out_dir: Path, input_dir: Path | None, per_page: int, workers: int, progress: Progress | None,
                   index: CorpusIndex | None, parquet: bool) -> list[Path]:
    info = run_info(out_dir)
    folder = resolve_input_dir(out_dir, Path(input_dir) if input_dir is not None else None, info)
    say = progress or (lambda done, total, what: None)
    say(0, 1, "reading the results for the report")
    if index is None:
        index = index_corpus(out_dir)
    official = str(info["official"]) if info.get("official") else None
    docs = article_docs(folder, index.claim_offsets, read_rows(out_dir / "errors.jsonl"))
    if len(docs) > per_page:
        # claims.parquet is written here while the workers render the parts
        written = write_paged_reports(out_dir, folder, official, per_page, CHART_FILE, index, workers, say,
                                      meanwhile=(lambda: _write_parquet(out_dir, index)) if parquet else None,
                                      docs=docs)
    else:
        written = _write_single(out_dir, input_dir)
        remove_stale_parts(out_dir / PAGES_DIR)  # parts of an earlier, larger run
        if parquet:
            say(0, 1, "writing claims.parquet")
            written += _write_parquet(out_dir, index)
    say(1, 1, "report written")
    return written


def _write_single(out_dir: Path, input_dir: Path | None) -> list[Path]:
    report = load_report(out_dir, input_dir)
    chart = claims_chart(report.claims)
    written: list[Path] = []

    def text(name: str, content: str) -> None:
        atomic_write_text(out_dir / name, content)
        written.append(out_dir / name)

    text(CHART_FILE, '<?xml version="1.0" encoding="UTF-8"?>\n' + chart + "\n")
    text("report.html", render_html(report, chart))
    text("report.md", render_markdown(report, CHART_FILE))
    return written


def _write_parquet(out_dir: Path, index: CorpusIndex) -> list[Path]:
    path = out_dir / "claims.parquet"
    try:
        with atomic_writers([path]) as fh:
            write_parquet(fh[path], claim_rows(index), extra_columns(index.keys))
    except ImportError as exc:
        # The readable reports matter more than the table; say what is missing instead of failing the run.
        log.warning("claims.parquet not written: %s", exc)
        return []
    return [path]
