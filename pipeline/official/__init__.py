"""Official MLPerf Training results: result logs -> official tables; primary-source statements; queries.

build_official_table(roots)        one row per system x benchmark, scored (pandas DataFrame)
write_table(df, path)              atomic CSV write
official_build_command(dirs, out)  what `newsclaims official build DIR... --out OUT` does
OfficialResults()                  the shipped tables (corpora/official) and their questions
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pipeline.official.answers import CountUnder, Leads, OfficialResult, Speedup, SystemSize
from pipeline.official.query import OfficialResults
from pipeline.official.statements import Statement, load_statements

if TYPE_CHECKING:
    from pipeline.official.table import (
        OfficialBuild,
        build_official,
        build_official_table,
        official_build_command,
        write_table,
    )

__all__ = [
    "CountUnder",
    "Leads",
    "OfficialBuild",
    "OfficialResult",
    "OfficialResults",
    "Speedup",
    "Statement",
    "SystemSize",
    "build_official",
    "build_official_table",
    "load_statements",
    "official_build_command",
    "write_table",
]

# The build (mlperf-logging, pandas) loads when asked for: checking claims needs only the shipped tables.
_BUILD = ("OfficialBuild", "build_official", "build_official_table", "official_build_command", "write_table")


def __getattr__(name: str) -> Any:
    if name in _BUILD:
        return getattr(import_module("pipeline.official.table"), name)
    raise AttributeError(f"module 'pipeline.official' has no attribute {name!r}")
