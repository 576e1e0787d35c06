"""Fact-check reports people read and share: report.html (self-contained page), report.md (tables for a
tracker or CMS), chart.svg (claimed vs official) and claims.parquet, all rebuilt from a run's output."""

from pipeline.report.build import write_reports
from pipeline.report.cli import ReportError, report_command

__all__ = ["ReportError", "report_command", "write_reports"]
