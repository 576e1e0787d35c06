"""write_reports: every report file of a run, rebuilt from OUT_DIR's JSONL files (no extraction rerun).

Each file is written atomically (temporary file, then rename), so a reader never sees half a report and a
failed rebuild leaves the previous one in place.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pipeline.fileio import atomic_write_bytes, atomic_write_text
from pipeline.report.chart import claims_chart
from pipeline.report.html import render_html
from pipeline.report.load import load_report
from pipeline.report.markdown import render_markdown
from pipeline.report.table import claims_parquet

log = logging.getLogger(__name__)

CHART_FILE = "chart.svg"


def write_reports(out_dir: Path, input_dir: Path | None = None) -> list[Path]:
    """Write report.html, report.md, chart.svg and claims.parquet into `out_dir`; returns their paths.

    `input_dir` is the folder the run read (claims' `doc` paths are relative to it); without it the folder
    recorded in OUT_DIR/run.json is used, and without either the report shows the claims' sentences.
    """
    out_dir = Path(out_dir)
    report = load_report(out_dir, input_dir)
    chart = claims_chart(report.claims)
    written: list[Path] = []

    def text(name: str, content: str) -> None:
        atomic_write_text(out_dir / name, content)
        written.append(out_dir / name)

    text(CHART_FILE, '<?xml version="1.0" encoding="UTF-8"?>\n' + chart + "\n")
    text("report.html", render_html(report, chart))
    text("report.md", render_markdown(report, CHART_FILE))
    try:
        data = claims_parquet(report.claims)
    except ImportError as exc:
        # The readable reports matter more than the table; say what is missing instead of failing the run.
        log.warning("claims.parquet not written: %s", exc)
    else:
        atomic_write_bytes(out_dir / "claims.parquet", data)
        written.append(out_dir / "claims.parquet")
    return written
