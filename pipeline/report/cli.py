"""`newsclaims report OUT_DIR`: the plain function behind the command (the typer wrapper lives in
pipeline/cli.py), so tests and other tools call it directly."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import ReportError
from pipeline.report.build import PAGE_ARTICLES, write_reports


def report_command(out_dir: Path, input_dir: Path | None = None, per_page: int = PAGE_ARTICLES,
                   workers: int = 1) -> list[Path]:
    """Rebuild the reports of a finished run from its claims.jsonl; returns the files written.

    Raises ReportError (a NewsclaimsError) when OUT_DIR holds no run, so the CLI can print the message and
    exit 2 like other usage errors."""
    out_dir = Path(out_dir)
    if not (out_dir / "claims.jsonl").is_file():
        raise ReportError(f"{out_dir / 'claims.jsonl'}: not found; run `newsclaims run INPUT_DIR --out {out_dir}` "
                          "first")
    if input_dir is not None and not Path(input_dir).exists():
        raise ReportError(f"{input_dir}: no such folder (the articles the run read)")
    return write_reports(out_dir, Path(input_dir) if input_dir is not None else None, per_page, workers=workers)
