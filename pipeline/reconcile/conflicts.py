"""Claims that state different values for the same fact, within or across articles and languages.

Two claims concern the same fact when their resolvers asked the official data the same question (the
same evidence); a conflict is a group of such claims whose values differ.  The resolution says which
side the official figure supports and, for ratio phrases, under which reading.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pipeline.records import Claim

# Claims with these verdicts asked the official data nothing it could answer: no fact to conflict over.
UNCHECKED = ("out_of_scope", "unverifiable")


def _key(kind: str, verdict: str, official: Any, evidence: Iterable[str]) -> tuple[Any, ...] | None:
    if verdict in UNCHECKED or not evidence:
        return None
    official = round(official, 6) if isinstance(official, float) else official
    # the same evidence and official figure means the same question was asked (the claim's own metric
    # label may differ: "四倍" read as a speedup, "大三倍" as a size ratio, both resolved to chip counts)
    return (kind, official, tuple(sorted(evidence)))


def _as_written(c: _Shown) -> tuple[float, float]:
    """The interval of the number as written, read as 'N times as much' for ratios."""
    lo = c.low if c.low is not None else -float("inf")
    hi = c.high if c.high is not None else float("inf")
    return lo, hi


def _disagree(a: _Shown, b: _Shown) -> bool:
    """Two claims disagree on the surface when their numbers as written cannot both hold (touching
    intervals, such as 3x and 4x at 3.5, count as disagreeing)."""
    if a.value == b.value:
        return False
    (a_lo, a_hi), (b_lo, b_hi) = _as_written(a), _as_written(b)
    return not (a_lo < b_hi and b_lo < a_hi)


def _reading_text(c: _Shown) -> str:
    if c.kind != "ratio" or c.ratio_reading is None:
        return f"'{c.text}' ({c.doc})"
    if c.ratio_reading == "increase_by":
        return f"'{c.text}' ({c.doc}, read as an increase by {c.value}: {float(c.value) + 1:g}x)"
    if c.ratio_reading == "ambiguous":
        return f"'{c.text}' ({c.doc}, {c.value}x or, read as an increase, {float(c.value) + 1:g}x)"
    return f"'{c.text}' ({c.doc}, {c.value}x)"


# Above this many different wordings of one fact, each is set against the best-supported one only, not
# against every other: a corpus of years of coverage repeats a fact thousands of times.
ALL_PAIRS_UP_TO = 6
EXAMPLES = 5


@dataclass(frozen=True, slots=True)
class _Shown:
    """What a conflict record shows of a claim: a Claim without its sentence, entities and cues, in a
    fraction of the memory (a corpus of years holds tens of thousands of wordings)."""

    id: str
    doc: str
    lang: str
    text: str
    kind: str
    value: Any
    unit: str
    bound: str
    low: float | None
    high: float | None
    ratio_reading: str | None
    verdict: str
    official: Any
    evidence: tuple[str, ...]
    explanation: str
    distortion: str | None

    @classmethod
    def of(cls, c: Claim) -> _Shown:
        return cls(c.id, sys.intern(c.doc), c.lang, c.text, c.kind, c.value, c.unit, c.bound, c.low, c.high,
                   c.ratio_reading, c.verdict, c.official, c.evidence, c.explanation, c.distortion)


@dataclass(slots=True)
class _Side:
    """One wording of a fact: the first claim that used it stands for all, the rest are counted and a few
    ids kept, so memory grows with the number of wordings, not of claims."""

    first: _Shown
    count: int = 1
    more_ids: list[str] = field(default_factory=list)


class ConflictFinder:
    """Feed claims one at a time (`add`), then take the conflicts (`conflicts`).  A batch run streams a
    whole corpus through it without holding its claims."""

    def __init__(self) -> None:
        self._groups: dict[tuple[Any, ...], dict[tuple[Any, ...], _Side]] = defaultdict(dict)

    def add(self, c: Claim) -> None:
        key = _key(c.kind, c.verdict, c.official, c.evidence)
        if key is not None:
            self._add(key, (c.value, c.ratio_reading, c.low, c.high), lambda: c)

    def add_row(self, row: dict[str, Any]) -> None:
        """A claim as claims.jsonl holds it (with its id).  Most repeat a wording already seen, so only the
        first of each wording is rebuilt as a Claim."""
        key = _key(row["kind"], row.get("verdict", "unverifiable"), row.get("official"), row.get("evidence") or ())
        if key is not None:
            self._add(key, (row.get("value"), row.get("ratio_reading"), row.get("low"), row.get("high")),
                      lambda: Claim.from_contract(row), row.get("id"))

    def _add(self, key: tuple[Any, ...], wording: tuple[Any, ...], claim: Callable[[], Claim],
             claim_id: str | None = None) -> None:
        clusters = self._groups[key]
        side = clusters.get(wording)
        if side is None:
            clusters[wording] = _Side(_Shown.of(claim()))
            return
        side.count += 1
        if len(side.more_ids) < EXAMPLES:
            side.more_ids.append(claim_id or claim().id)

    def conflicts(self) -> Iterator[dict[str, Any]]:
        """One record per pair of disagreeing wordings of a fact."""
        for clusters in self._groups.values():
            sides = list(clusters.values())
            if len(sides) < 2:
                continue
            if len(sides) <= ALL_PAIRS_UP_TO:
                pairs = [(a, b) for i, a in enumerate(sides) for b in sides[i + 1:]]
            else:
                anchor = max(sides, key=lambda s: (s.first.verdict == "supported", s.count))
                pairs = [(anchor, other) for other in sides if other is not anchor]
            for a, b in pairs:
                if _disagree(a.first, b.first):
                    record = _conflict(a.first, b.first)
                    record["same_wording"] = [{"count": s.count, "ids": list(s.more_ids)} for s in (a, b)]
                    yield record


def find_conflicts(claims: Iterable[Claim]) -> list[dict[str, Any]]:
    """Claims that word a fact the same way are one side (the first stands for them, the others are
    counted and a few listed by id); one record per pair of disagreeing sides."""
    finder = ConflictFinder()
    for c in claims:
        finder.add(c)
    return list(finder.conflicts())


def _conflict(a: _Shown, b: _Shown) -> dict[str, Any]:
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
        # enough of each claim to show it without claims.jsonl (a report page may not hold the other side)
        "claims": [{"id": c.id, "doc": c.doc, "lang": c.lang, "text": c.text, "kind": c.kind, "value": c.value,
                    "unit": c.unit, "bound": c.bound, "low": c.low, "high": c.high,
                    "ratio_reading": c.ratio_reading, "verdict": c.verdict, "distortion": c.distortion,
                    "explanation": c.explanation} for c in (a, b)],
        "cross_article": a.doc != b.doc,
        "resolution": resolution.strip(),
    }
