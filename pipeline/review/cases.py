"""Reviewed decisions as regression cases, in the format of tests/cases/README.md.

Every sentence that holds reviewed claims (accepted, corrected or rejected) becomes a case: the sentence
and the accepted claims in it (text, kind, value, unit, counted, of_total, bound, ratio_reading); a
sentence whose claims were all rejected becomes `claims: []`.  A gold file is taken as the complete list
of claims of the sentences it touches, as annotations/ files are; with `run_dir`, sentences where the
run found a claim that nobody decided on are left out instead.

Each case is checked against `extract_text(sentence)` (the sentence on its own, as the case test runs
it): a case the pipeline does not pass yet gets `xfail:` with the difference, so adding the file keeps
the suite green and the gap visible (STYLE: known gaps are tagged, never deleted).

    cases = review_cases("annotations", "corpora/articles")     # {"en": [...], "zh": [...]}
    write_cases(cases["zh"], "tests/cases/zh/reviewed.yaml")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pipeline.fileio import atomic_write_text, read_jsonl
from pipeline.review.evaluate import same_value
from pipeline.review.gold import GoldStore

# what a case's claim may state; a written case compares the fields it gives (low/high only where given),
# a case made from reviewed gold gives those of REVIEWED
CHECKED = ("kind", "value", "unit", "counted", "of_total", "bound", "ratio_reading", "low", "high")
REVIEWED = ("kind", "value", "unit", "counted", "of_total", "bound", "ratio_reading")


def _case_claim(row: dict[str, Any], sentence: str, offset: int) -> dict[str, Any]:
    text = row["text"]
    rel = row["start"] - offset
    occurrence = sentence.count(text, 0, rel + len(text) - 1) if text else 1
    out: dict[str, Any] = {"text": text}
    if occurrence > 1:
        out["occurrence"] = occurrence
    for k in REVIEWED:
        v = row.get(k)
        if k in ("counted", "of_total", "ratio_reading") and v is None:
            continue
        if k == "bound" and v in (None, "exact"):
            continue
        out[k] = v
    return out


def _expected(exp: dict[str, Any]) -> dict[str, Any]:
    want = {k: exp[k] for k in CHECKED if k in exp}
    want.setdefault("bound", "exact")
    want.setdefault("of_total", None)
    if exp.get("kind") and exp["kind"] != "ratio":
        want.setdefault("ratio_reading", None)
    return want


def _span(sentence: str, exp: dict[str, Any]) -> tuple[int, int]:
    pos = -1
    for _ in range(int(exp.get("occurrence", 1))):
        pos = sentence.find(exp["text"], pos + 1)
    if pos < 0:
        raise ValueError(f"case error: {exp['text']!r} is not in the sentence")
    return pos, pos + len(exp["text"])


def check_case(case: dict[str, Any], got: list[dict[str, Any]] | None = None) -> list[str]:
    """What the pipeline gets wrong for a case (empty: it passes): each expected claim must be found, with
    the fields the case gives, and nothing else.  `got` is the claims of `extract_text(sentence)` (computed
    when not given).  The one judge of the extraction specification (tests/test_extract_cases.py) and of
    cases made from reviewed gold."""
    from pipeline.run.process import extract_text

    sentence = case["sentence"]
    if got is None:
        got = [c.to_contract() for c in extract_text(sentence)]
    used: set[int] = set()
    problems = []
    for exp in case.get("claims") or []:
        s, e = _span(sentence, exp)
        want = _expected(exp)
        cands = [i for i, g in enumerate(got) if i not in used and g["start"] < e and s < g["end"]]
        if not cands:
            problems.append(f"missing {exp['text']!r} ({want})")
            continue
        best = max(cands, key=lambda i: sum(same_value(got[i].get(k), v) for k, v in want.items()))
        used.add(best)
        diff = {k: (got[best].get(k), v) for k, v in want.items() if not same_value(got[best].get(k), v)}
        if diff:
            problems.append(f"{exp['text']!r}: got/expected {diff}")
    problems += [f"extra claim {g['text']!r} ({g['kind']} {g['value']})" for i, g in enumerate(got) if i not in used]
    return problems


def review_cases(ann_dir: Path, input_dir: Path, run_dir: Path | None = None, check: bool = True
                 ) -> dict[str, list[dict[str, Any]]]:
    """Cases per language from the reviewed gold in `ann_dir` (articles read from `input_dir`)."""
    from pipeline.ingest.read import read_article
    from pipeline.segment.sentences import segment

    store = GoldStore(Path(ann_dir))
    predicted: dict[str, list[dict[str, Any]]] = {}
    if run_dir is not None:
        for row in read_jsonl(Path(run_dir) / "claims.jsonl"):
            predicted.setdefault(row["doc"], []).append(row)
    out: dict[str, list[dict[str, Any]]] = {}
    seen: set[str] = set()
    for doc in store.docs():
        rows = [r for r in store.rows(doc) if r.get("status") in ("accepted", "rejected", None)]
        path = Path(input_dir) / doc
        if not rows or not path.exists():
            continue
        article = read_article(path, Path(input_dir))
        for sent in segment(article).sentences:
            inside = [r for r in rows if sent.start <= r["start"] and r["end"] <= sent.end]
            crossing = [r for r in rows if r["start"] < sent.end and sent.start < r["end"] and r not in inside]
            if not inside or crossing or sent.text in seen:
                continue
            if run_dir is not None:
                pred = [p for p in predicted.get(doc, []) if sent.start <= p["start"] < sent.end]
                if any(not any(r["start"] < p["end"] and p["start"] < r["end"] for r in inside) for p in pred):
                    continue  # the run found a claim here that no reviewer decided on
            seen.add(sent.text)
            accepted = sorted((r for r in inside if r.get("status", "accepted") == "accepted"),
                              key=lambda r: r["start"])
            reviewers = sorted({str(r.get("reviewer") or "?") for r in inside})
            case: dict[str, Any] = {"sentence": sent.text,
                                    "claims": [_case_claim(r, sent.text, sent.start) for r in accepted]}
            if check:
                problems = check_case(case)
                if problems:
                    case["xfail"] = "reviewed gold and the pipeline disagree: " + "; ".join(problems)
            case["_source"] = f"annotations/{doc}.jsonl, reviewed by {', '.join(reviewers)}"
            out.setdefault(sent.lang, []).append(case)
    return out


def write_cases(cases: list[dict[str, Any]], path: Path, note: str = "") -> Path:
    """Write cases as YAML, each with a `# source:` comment naming the gold file and reviewers."""
    parts = ["# source: reviewed gold in annotations/ (pipeline.review.cases); regenerate rather than edit.\n"]
    if note:
        parts.append(f"# {note}\n")
    for case in cases:
        body = {k: v for k, v in case.items() if not k.startswith("_")}
        parts.append(f"\n# source: {case.get('_source', 'annotations/')}\n")
        parts.append(yaml.safe_dump([body], allow_unicode=True, sort_keys=False, width=110))
    atomic_write_text(Path(path), "".join(parts))
    return Path(path)
