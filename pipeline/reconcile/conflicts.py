"""Claims that state different values for the same fact, within or across articles and languages.

Two claims concern the same fact when their resolvers asked the official data the same question (the
same evidence); a conflict is a group of such claims whose values differ.  The resolution says which
side the official figure supports and, for ratio phrases, under which reading.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pipeline.records import Claim


def _key(c: Claim) -> tuple[Any, ...] | None:
    if c.verdict in ("out_of_scope", "unverifiable") or not c.evidence:
        return None
    return (c.metric, c.kind, tuple(sorted(c.evidence)))


def find_conflicts(claims: list[Claim]) -> list[dict[str, Any]]:
    groups: dict[tuple[Any, ...], list[Claim]] = defaultdict(list)
    for c in claims:
        key = _key(c)
        if key is not None:
            groups[key].append(c)
    out = []
    for key, members in groups.items():
        values = {(c.value, c.ratio_reading) for c in members}
        if len({v for v, _ in values}) < 2:
            continue
        fact = members[0].explanation.split("; ", 1)[-1].rstrip(".")
        sides = [{
            "id": c.id, "doc": c.doc, "lang": c.lang, "text": c.text, "value": c.value,
            "ratio_reading": c.ratio_reading, "verdict": c.verdict, "explanation": c.explanation,
        } for c in members]
        supported = [s for s in sides if s["verdict"] == "supported"]
        if supported and len(supported) == len(sides):
            resolution = "Both sides are supported: the values differ only in how the phrase reads."
        elif supported:
            resolution = ("The official figure supports " + ", ".join(f"'{s['text']}' ({s['doc']})" for s in supported)
                          + "; " + ", ".join(f"'{s['text']}' is {s['verdict']}" for s in sides if s not in supported) + ".")
        else:
            resolution = "No side fits the official figure under its primary reading: " + ", ".join(
                f"'{s['text']}' is {s['verdict']}" for s in sides) + "."
        out.append({
            "fact": fact,
            "metric": key[0],
            "official": members[0].official,
            "evidence": list(members[0].evidence),
            "values": sorted({str(c.value) for c in members}),
            "claims": sides,
            "cross_article": len({c.doc for c in members}) > 1,
            "resolution": resolution,
        })
    return out
