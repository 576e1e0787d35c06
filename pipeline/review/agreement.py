"""How far reviewers agree, where two (or more) reviewed the same article.

Each reviewer's view of an article is rebuilt from annotations/: the current gold rows count for their
reviewer (and for everyone in `confirmed_by`), then the review log, in order, gives each reviewer's latest
decision on each claim (including proposals that ended up as conflicts).  For each pair of reviewers
of an article, their claims are paired by overlapping span (one-to-one, largest overlap first), and:

- span agreement: F1 of one reviewer's accepted spans against the other's, exact and by overlap;
- Cohen's kappa on the verdicts of the paired accepted claims (chance from each reviewer's own verdict
  distribution), and on accept/reject over all paired claims.

`agreement()` gives the figures per article pair and pooled over all of them.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from pipeline.review.gold import GoldStore
from pipeline.review.vocab import row_key


def cohen_kappa(pairs: list[tuple[Any, Any]]) -> float | None:
    """Cohen's kappa of two raters' labels on the same items; None for no items."""
    n = len(pairs)
    if not n:
        return None
    po = sum(a == b for a, b in pairs) / n
    ca, cb = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    pe = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    if pe >= 1.0:
        return 1.0 if po == 1.0 else 0.0
    return round((po - pe) / (1 - pe), 4)


def reviewer_views(ann_dir: Path) -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """doc -> reviewer -> claim key -> that reviewer's latest row."""
    store = GoldStore(Path(ann_dir))
    views: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for doc in store.docs():
        for row in store.rows(doc):
            for who in [row.get("reviewer") or "?"] + list(row.get("confirmed_by") or []):
                views.setdefault(doc, {}).setdefault(str(who), {})[row_key(row)] = row
    for entry in store.log():
        if entry.get("what", "claim") == "claim" and entry.get("row"):
            views.setdefault(entry["doc"], {}).setdefault(entry["reviewer"], {})[entry["id"]] = entry["row"]
    return views


def _pair(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    cands = []
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            ov = min(x["end"], y["end"]) - max(x["start"], y["start"])
            if ov > 0:
                cands.append((ov, i, j))
    cands.sort(reverse=True)
    ua, ub, out = set(), set(), []
    for _, i, j in cands:
        if i not in ua and j not in ub:
            ua.add(i)
            ub.add(j)
            out.append((a[i], b[j]))
    return out


def _f1(matched: int, na: int, nb: int) -> float | None:
    return round(2 * matched / (na + nb), 4) if na + nb else None


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Two reviewers' rows on one article compared: span F1 (by overlap and exact) and Cohen's kappa on
    verdicts and on accept/reject; the "_" keys carry the raw pairs for pooling."""
    acc_a = [r for r in a if r.get("status", "accepted") == "accepted"]
    acc_b = [r for r in b if r.get("status", "accepted") == "accepted"]
    spans = _pair(acc_a, acc_b)
    exact = sum((x["start"], x["end"]) == (y["start"], y["end"]) for x, y in spans)
    verdicts = [(x.get("verdict"), y.get("verdict")) for x, y in spans if x.get("verdict") and y.get("verdict")]
    status = [(x.get("status", "accepted"), y.get("status", "accepted")) for x, y in _pair(a, b)]
    return {"claims": [len(acc_a), len(acc_b)], "span_overlap_f1": _f1(len(spans), len(acc_a), len(acc_b)),
            "span_exact_f1": _f1(exact, len(acc_a), len(acc_b)), "verdict_kappa": cohen_kappa(verdicts),
            "verdict_n": len(verdicts), "status_kappa": cohen_kappa(status), "status_n": len(status),
            "_verdicts": verdicts, "_status": status, "_spans": (len(spans), exact)}


def agreement(ann_dir: Path) -> dict[str, Any]:
    """Per article reviewed by two or more reviewers, each pair's agreement; and pooled figures."""
    pairs_out = []
    pooled_v: list[tuple[Any, Any]] = []
    pooled_s: list[tuple[Any, Any]] = []
    m_overlap = m_exact = n_total = 0
    for doc, by_rev in sorted(reviewer_views(Path(ann_dir)).items()):
        for ra, rb in combinations(sorted(by_rev), 2):
            c = compare(list(by_rev[ra].values()), list(by_rev[rb].values()))
            pooled_v += c.pop("_verdicts")
            pooled_s += c.pop("_status")
            ov, ex = c.pop("_spans")
            m_overlap, m_exact, n_total = m_overlap + ov, m_exact + ex, n_total + sum(c["claims"])
            pairs_out.append({"doc": doc, "reviewers": [ra, rb], **c})
    return {"pairs": pairs_out,
            "overall": {"pairs": len(pairs_out), "verdict_kappa": cohen_kappa(pooled_v), "verdict_n": len(pooled_v),
                        "status_kappa": cohen_kappa(pooled_s), "status_n": len(pooled_s),
                        "span_overlap_f1": _f1(m_overlap, n_total, 0) if n_total else None,
                        "span_exact_f1": _f1(m_exact, n_total, 0) if n_total else None}}
