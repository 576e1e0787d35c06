"""newsclaims: fact-check the numbers in tech news against official MLPerf results.

The public API is small: records, the per-article function, the batch runner and text extraction.
The stages load on first use (PEP 562), so `newsclaims extract` does not wait for pandas and the batch
runner it never calls.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pipeline import native

# the compiled modules, when built for these sources: before any of them (the records first) is imported
native.install()

from pipeline.records import Article, ArticleError, ArticleResult, Claim, Entities, Sentence  # noqa: E402
from pipeline.settings import Settings  # noqa: E402

if TYPE_CHECKING:
    from pipeline.run.batch import run_batch
    from pipeline.run.process import Pipeline, extract_text, process_path

__version__ = "0.1.0"
__all__ = [
    "Article",
    "ArticleError",
    "ArticleResult",
    "Claim",
    "Entities",
    "Pipeline",
    "Sentence",
    "Settings",
    "extract_text",
    "process_path",
    "run_batch",
]

_LAZY = {"run_batch": "pipeline.run.batch", "Pipeline": "pipeline.run.process",
         "extract_text": "pipeline.run.process", "process_path": "pipeline.run.process"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
