"""Review: annotation exchange with Label Studio / Prodigy / doccano, the review page, evaluation.

    annotate_export(out_dir, fmt, to, input_dir=None)   # a run -> tasks with pre-annotations
    annotate_import(file, to)                           # a reviewed export -> annotations/ (merged)
    review_serve(out_dir, annotations, host, port)      # the local review page
    evaluate(pred_rows, load_gold(ann_dir))             # P/R/F1 per language and kind
    agreement(ann_dir), review_cases(ann_dir, input_dir)

Heavy parts are imported when used: label-studio-sdk only by pipeline.review.labelstudio's live helpers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["agreement", "annotate_export", "annotate_import", "review_cases", "review_serve"]


def __getattr__(name: str) -> Any:
    if name in ("annotate_export", "annotate_import"):
        from pipeline.review import exchange

        return getattr(exchange, name)
    if name == "review_serve":
        from pipeline.review.server import review_serve

        return review_serve
    if name == "agreement":
        from pipeline.review.agreement import agreement

        return agreement
    if name == "review_cases":
        from pipeline.review.cases import review_cases

        return review_cases
    raise AttributeError(name)
