"""Compare a run's claims with reviewed gold claims (annotations/).

Gold lives in annotations/<doc>.jsonl, one claim per line in the contract's fields (the doc path mirrors
the corpus layout).  A predicted claim matches a gold claim of the same doc when their spans overlap
(one-to-one, largest overlap first).  Reported per language:
- span P/R/F1: overlap alone;
- claim P/R/F1: overlap and equal value, unit and bound (the issue's definition of a correct claim);
- agreement on matched pairs for value, unit, bound, kind, counted, ratio_reading, each entity type and
  verdict (only where the gold gives the field);
- the same span and claim figures per kind (`by_kind`: the gold claim's kind for matches and misses, the
  predicted claim's for extras).

Reviewers: `agreement(ann_dir)` (Cohen's kappa on verdicts and span agreement where two reviewers
reviewed the same article) lives in pipeline.review.agreement, and `review_cases` (reviewed decisions as
regression cases for tests/cases/<lang>/reviewed.yaml) in pipeline.review.cases.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.fileio import read_jsonl

ENTITY_KEYS = ("org", "accelerator", "system", "benchmark", "round", "framework")


def load_gold(ann_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """Accepted gold claims per doc; the review log, conflicts and entity-span files are not gold."""
    from pipeline.review.gold import is_gold_file

    gold: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(Path(ann_dir).rglob("*.jsonl")):
        if not is_gold_file(path) or "review" in path.parts[-2:-1]:
            continue
        for row in read_jsonl(path):
            if row.get("status") == "rejected":
                continue
            gold.setdefault(row["doc"], []).append(row)
    return gold


def same_value(a: Any, b: Any) -> bool:
    """Two field values agree: both missing, the same text, or numbers within rounding noise (the one
    value comparator: evaluation, the case judge and the benchmarks use it)."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) or isinstance(b, str):
        return str(a) == str(b)
    return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-9)


def full_match(p: dict, g: dict) -> bool:
    """A predicted claim is right about its gold claim: the same value (within rounding), unit and bound."""
    return same_value(p.get("value"), g.get("value")) and p.get("unit") == g.get("unit") and (
        p.get("bound", "exact") == g.get("bound", "exact"))


def pairs(pred: list[dict], gold: list[dict], agree: Callable[[dict, dict], bool] = full_match
          ) -> list[tuple[int, int]]:
    """One-to-one (pred, gold) index pairs of overlapping spans: pairs that `agree` first, then the larger
    overlap."""
    cands = []
    for i, p in enumerate(pred):
        for j, g in enumerate(gold):
            ov = min(p["end"], g["end"]) - max(p["start"], g["start"])
            if ov > 0:
                cands.append((agree(p, g), ov, i, j))
    cands.sort(reverse=True)
    used_p: set[int] = set()
    used_g: set[int] = set()
    out: list[tuple[int, int]] = []
    for _, _, i, j in cands:
        if i not in used_p and j not in used_g:
            used_p.add(i)
            used_g.add(j)
            out.append((i, j))
    return out


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def prf(self) -> tuple[float, float, float]:
        """(precision, recall, F1); a precision or recall with nothing to count is 1.0."""
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f


@dataclass
class Report:
    span: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    claim: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    fields: dict[str, dict[str, list[int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: [0, 0])))
    kind_span: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    kind_claim: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    misses: list[dict[str, Any]] = field(default_factory=list)
    docs: int = 0
    # red flags: claims called contradicted, and how many the gold calls contradicted; true claims (gold
    # supported or unverifiable) and how many were called contradicted; real discrepancies (gold
    # contradicted or ambiguous) and how many were flagged either way
    flags: list[int] = field(default_factory=lambda: [0, 0])
    false_alarms: list[int] = field(default_factory=lambda: [0, 0])
    discrepancies: list[int] = field(default_factory=lambda: [0, 0])

    def red_flags(self) -> dict[str, float | int | None]:
        """contradicted precision, false-alarm rate and discrepancy recall (../shared/devset's scorer's)."""
        def share(hit: int, n: int) -> float | None:
            return round(hit / n, 4) if n else None

        return {"contradicted_precision": share(self.flags[1], self.flags[0]), "contradicted_n": self.flags[0],
                "false_alarm_rate": share(self.false_alarms[1], self.false_alarms[0]),
                "discrepancy_recall": share(self.discrepancies[1], self.discrepancies[0])}

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data: span and claim P/R/F1 per language and per kind, field accuracy
        and red flags."""
        out: dict[str, Any] = {"docs": self.docs, "span": {}, "claim": {}, "fields": {}, "red_flags": self.red_flags()}
        for name, table in (("span", self.span), ("claim", self.claim)):
            for lang, c in sorted(table.items()):
                p, r, f = c.prf()
                out[name][lang] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4),
                                   "tp": c.tp, "fp": c.fp, "fn": c.fn}
        out["by_kind"] = {}
        for kind in sorted(set(self.kind_span) | set(self.kind_claim)):
            row = {}
            for name, table in (("span", self.kind_span), ("claim", self.kind_claim)):
                c = table[kind]
                p, r, f = c.prf()
                row[name] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4), "tp": c.tp,
                             "fp": c.fp, "fn": c.fn}
            out["by_kind"][kind] = row
        for lang, fs in sorted(self.fields.items()):
            out["fields"][lang] = {k: {"accuracy": round(v[0] / v[1], 4) if v[1] else None, "n": v[1]}
                                   for k, v in sorted(fs.items())}
        return out


def evaluate(pred_rows: list[dict], gold: dict[str, list[dict]], docs: set[str] | None = None) -> Report:
    """Score `pred_rows` against `gold` on `docs` (default: every doc with gold): matched, extra and
    missed claims per language and kind, field agreement on matched pairs, red flags."""
    rep = Report()
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for row in pred_rows:
        by_doc[row["doc"]].append(row)
    docs = docs if docs is not None else set(gold)
    rep.docs = len(docs)
    for doc in sorted(docs):
        pred, gl = by_doc.get(doc, []), gold.get(doc, [])
        matched = pairs(pred, gl)
        mp = {i for i, _ in matched}
        mg = {j for _, j in matched}
        for i, j in matched:
            p, g = pred[i], gl[j]
            lang = g.get("lang") or p.get("lang") or "?"
            ok = full_match(p, g)
            for span_t, claim_t, key in ((rep.span, rep.claim, lang), (rep.span, rep.claim, "all"),
                                         (rep.kind_span, rep.kind_claim, g.get("kind") or "?")):
                span_t[key].tp += 1
                if ok:
                    claim_t[key].tp += 1
                else:
                    claim_t[key].fp += 1
                    claim_t[key].fn += 1
            if not full_match(p, g):
                rep.misses.append({"type": "wrong", "doc": doc, "gold": _brief(g), "pred": _brief(p)})
            _count_flags(rep, p.get("verdict"), g.get("verdict"))
            for fname in ("value", "unit", "bound", "kind", "counted", "ratio_reading", "of_total", "verdict",
                          "metric"):
                if fname in g and (fname != "verdict" or g.get(fname)):
                    hit = same_value(p.get(fname), g.get(fname)) if fname in ("value", "of_total") else (
                        p.get(fname) == g.get(fname))
                    for key in (lang, "all"):
                        cell = rep.fields[key][fname]
                        cell[0] += int(hit)
                        cell[1] += 1
            ge, pe = g.get("entities") or {}, p.get("entities") or {}
            for ek in ENTITY_KEYS:
                if ge.get(ek):
                    for key in (lang, "all"):
                        cell = rep.fields[key][f"entity.{ek}"]
                        cell[0] += int(pe.get(ek) == ge.get(ek))
                        cell[1] += 1
        for i, p in enumerate(pred):
            if i not in mp:
                for span_t, claim_t, key in ((rep.span, rep.claim, p.get("lang", "?")), (rep.span, rep.claim, "all"),
                                             (rep.kind_span, rep.kind_claim, p.get("kind") or "?")):
                    span_t[key].fp += 1
                    claim_t[key].fp += 1
                rep.misses.append({"type": "extra", "doc": doc, "pred": _brief(p)})
        for j, g in enumerate(gl):
            if j not in mg:
                for span_t, claim_t, key in ((rep.span, rep.claim, g.get("lang", "?")), (rep.span, rep.claim, "all"),
                                             (rep.kind_span, rep.kind_claim, g.get("kind") or "?")):
                    span_t[key].fn += 1
                    claim_t[key].fn += 1
                rep.misses.append({"type": "missed", "doc": doc, "gold": _brief(g)})
    return rep


def _count_flags(rep: Report, said: str | None, gold: str | None) -> None:
    if said == "contradicted":
        rep.flags[0] += 1
        rep.flags[1] += gold == "contradicted"
    if gold in ("supported", "unverifiable", "out_of_scope"):
        rep.false_alarms[0] += 1
        rep.false_alarms[1] += said == "contradicted"
    elif gold in ("contradicted", "ambiguous"):
        rep.discrepancies[0] += 1
        rep.discrepancies[1] += said in ("contradicted", "ambiguous")


def _brief(c: dict) -> dict[str, Any]:
    return {k: c.get(k) for k in ("start", "end", "text", "kind", "value", "unit", "bound", "ratio_reading",
                                  "verdict")}
