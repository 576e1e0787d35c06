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
    official = round(c.official, 6) if isinstance(c.official, float) else c.official
    # the same evidence and official figure means the same question was asked (the claim's own metric
    # label may differ: "四倍" read as a speedup, "大三倍" as a size ratio, both resolved to chip counts)
    return (c.kind, official, tuple(sorted(c.evidence)))


def _as_written(c: Claim) -> tuple[float, float]:
    """The interval of the number as written, read as 'N times as much' for ratios."""
    lo = c.low if c.low is not None else -float("inf")
    hi = c.high if c.high is not None else float("inf")
    return lo, hi


def _disagree(a: Claim, b: Claim) -> bool:
    """Two claims disagree on the surface when their numbers as written cannot both hold (touching
    intervals, such as 3x and 4x at 3.5, count as disagreeing)."""
    if a.value == b.value:
        return False
    (a_lo, a_hi), (b_lo, b_hi) = _as_written(a), _as_written(b)
    return not (a_lo < b_hi and b_lo < a_hi)


def _reading_text(c: Claim) -> str:
    if c.kind != "ratio" or c.ratio_reading is None:
        return f"'{c.text}' ({c.doc})"
    if c.ratio_reading == "increase_by":
        return f"'{c.text}' ({c.doc}, read as an increase by {c.value}: {float(c.value) + 1:g}x)"
    if c.ratio_reading == "ambiguous":
        return f"'{c.text}' ({c.doc}, {c.value}x or, read as an increase, {float(c.value) + 1:g}x)"
    return f"'{c.text}' ({c.doc}, {c.value}x)"


def find_conflicts(claims: list[Claim]) -> list[dict[str, Any]]:
    groups: dict[tuple[Any, ...], list[Claim]] = defaultdict(list)
    for c in claims:
        key = _key(c)
        if key is not None:
            groups[key].append(c)
    out = []
    for members in groups.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if _disagree(a, b):
                    out.append(_conflict(a, b))
    return out


def _conflict(a: Claim, b: Claim) -> dict[str, Any]:
    fact = a.explanation.split("; ", 1)[-1].rstrip(".")
    official = a.official
    readings = "; ".join(_reading_text(c) for c in (a, b))
    if a.verdict == b.verdict == "supported":
        resolution = (f"Different numbers, same fact: {readings}. Each fits the official {official} under its own "
                      "reading, so both are right and the difference is wording.")
    else:
        resolution = (f"{readings}. Against the official {official}: '{a.text}' is {a.verdict}, '{b.text}' is "
                      f"{b.verdict}." + " " + " ".join(c.explanation for c in (a, b) if c.verdict != "supported"))
    return {
        "fact": fact,
        "official": official,
        "evidence": list(a.evidence),
        "values": [a.value, b.value],
        "claims": [{"id": c.id, "doc": c.doc, "lang": c.lang, "text": c.text, "value": c.value,
                    "ratio_reading": c.ratio_reading, "verdict": c.verdict, "distortion": c.distortion,
                    "explanation": c.explanation} for c in (a, b)],
        "cross_article": a.doc != b.doc,
        "resolution": resolution.strip(),
    }
