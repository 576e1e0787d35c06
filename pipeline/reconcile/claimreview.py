"""schema.org ClaimReview JSON-LD for the checked claims of a run (what search engines and fact-check
aggregators read).  Only claims with a verdict on the facts are exported: supported, contradicted and
ambiguous; unverifiable and out-of-scope numbers are not reviews."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from pipeline.fileio import atomic_write_text, read_jsonl

# verdict -> (ratingValue on a 1-5 scale, alternateName shown to readers)
RATINGS = {
    "supported": (5, "Supported by the official results"),
    "ambiguous": (3, "Ambiguous: true under one reading only"),
    "contradicted": (1, "Contradicted by the official results"),
}
AUTHOR = {"@type": "Organization", "name": "newsclaims"}


def _article_meta(input_dir: Path | None, doc: str) -> dict[str, Any]:
    if input_dir is None:
        return {}
    from pipeline.ingest.read import read_meta

    try:
        return read_meta(Path(input_dir) / doc)
    except Exception:  # noqa: BLE001 - a broken sidecar only loses the article's URL and date
        return {}


def claim_review(claim: dict[str, Any], meta: dict[str, Any], published: str) -> dict[str, Any]:
    """The ClaimReview of one claim: its rating, the article it appeared in (from `meta`) and its web evidence
    as citations."""
    value, name = RATINGS[claim["verdict"]]
    appearance: dict[str, Any] = {"@type": "CreativeWork", "name": meta.get("title") or claim["doc"]}
    url = meta.get("url") or meta.get("original_url") or meta.get("source_url")
    if url:
        appearance["url"] = url
    if meta.get("date"):
        appearance["datePublished"] = str(meta["date"])
    review: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "ClaimReview",
        "identifier": claim.get("id"),
        "claimReviewed": claim["sentence"],
        "datePublished": published,
        "author": AUTHOR,
        "reviewBody": claim.get("explanation", ""),
        "reviewRating": {"@type": "Rating", "ratingValue": value, "bestRating": 5, "worstRating": 1,
                         "alternateName": name},
        "itemReviewed": {"@type": "Claim", "appearance": [appearance], "firstAppearance": appearance},
    }
    if meta.get("source"):
        review["itemReviewed"]["author"] = {"@type": "Organization", "name": str(meta["source"])[:200]}
    evidence = [e for e in claim.get("evidence") or [] if str(e).startswith("http")]
    if evidence:
        review["citation"] = evidence
    return review


def export_claimreview(out_dir: Path, to: Path | None = None, input_dir: Path | None = None,
                       today: dt.date | None = None) -> Path:
    """Write OUT_DIR/claimreview.jsonld (or `to`): a JSON array of ClaimReview objects."""
    out_dir = Path(out_dir)
    if input_dir is None and (out_dir / "run.json").exists():
        input_dir = Path(json.loads((out_dir / "run.json").read_text(encoding="utf-8")).get("input_dir") or ".")
    published = (today or dt.date.today()).isoformat()
    metas: dict[str, dict[str, Any]] = {}
    reviews = []
    for claim in read_jsonl(out_dir / "claims.jsonl"):
        if claim.get("verdict") not in RATINGS:
            continue
        if claim["doc"] not in metas:
            metas[claim["doc"]] = _article_meta(input_dir, claim["doc"])
        reviews.append(claim_review(claim, metas[claim["doc"]], published))
    target = Path(to) if to else out_dir / "claimreview.jsonld"
    atomic_write_text(target, json.dumps(reviews, ensure_ascii=False, indent=1))
    return target
