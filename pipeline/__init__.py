"""newsclaims: fact-check the numbers in tech news against official MLPerf results.

The public API is small: records, the per-article function, the batch runner and text extraction.
"""

from pipeline.records import Article, ArticleError, ArticleResult, Claim, Entities, Sentence
from pipeline.run.batch import run_batch
from pipeline.run.process import Pipeline, extract_text, process_path
from pipeline.settings import Settings

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
