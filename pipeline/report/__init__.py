"""Fact-check reports people read and share: report.html (self-contained page), report.md (tables for a
tracker or CMS), chart.svg (claimed vs official) and claims.parquet, all rebuilt from a run's output.

The public names load on first use (PEP 562): a batch run's merge imports the corpus index from here before
its workers start, and the templates and their engine are not needed until the report is written."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.report.build import write_reports
    from pipeline.report.cli import ReportError, report_command

__all__ = ["ReportError", "report_command", "write_reports"]

_LAZY = {"write_reports": "pipeline.report.build", "ReportError": "pipeline.report.cli",
         "report_command": "pipeline.report.cli"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pipeline.report' has no attribute {name!r}")
