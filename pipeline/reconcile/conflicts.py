"""Claims that state different values for the same fact, within or across articles and languages.

Two claims concern the same fact when their resolvers asked the official data the same question (the
same evidence); a conflict is a group of such claims whose values differ.  The resolution says which
side the official figure supports and, for ratio phrases, under which reading.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
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
    fact: str  # what was looked up, in words (the resolver's label)
    source: str  # table (computed from the result logs) or statement (a sourced statement)

    @classmethod
    def of(cls, c: Claim) -> _Shown:
        """What a conflict record keeps of `c`, with the fact it looked up and where the official figure came from."""
        return cls.of_row(c.to_contract())

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> _Shown:
        """The same from a row of claims.jsonl (with its id), its fields read as Claim.from_contract reads them."""
        frame = row.get("frame") or {}
        explanation = row.get("explanation", "")
        return cls(str(row["id"]), sys.intern(row["doc"]), row["lang"], row["text"], row["kind"], row.get("value"),
                   row.get("unit", ""), row.get("bound", "exact"), row.get("low"), row.get("high"),
                   row.get("ratio_reading"), row.get("verdict", "unverifiable"), row.get("official"),
                   tuple(row.get("evidence") or ()), explanation, row.get("distortion"),
                   str(frame.get("fact") or _label_in(explanation)), str(frame.get("source") or "table"))


@dataclass(slots=True)
class _Side:
    """One wording of a fact: the first claim that used it stands for all, the rest are counted and a few
    ids kept, so memory grows with the number of wordings, not of claims."""

    first: _Shown
    count: int = 1
    more_ids: list[str] = field(default_factory=list)

    def repeat(self) -> bool:
        """Count one more claim of this wording; whether its id is to be kept as an example."""
        self.count += 1
        return len(self.more_ids) < EXAMPLES


class ConflictFinder:
    """Feed claims one at a time (`add`), then take the conflicts (`conflicts`).  A batch run streams a
    whole corpus through it without holding its claims."""

    def __init__(self) -> None:
        self._groups: dict[tuple[Any, ...], dict[tuple[Any, ...], _Side]] = defaultdict(dict)

    def add(self, c: Claim) -> None:
        """Take one claim: one with a checked verdict and evidence joins its fact's group, under its wording."""
        key = _key(c.kind, c.verdict, c.official, c.evidence)
        if key is None:
            return
        clusters = self._groups[key]
        wording = (c.value, c.ratio_reading, c.low, c.high)
        side = clusters.get(wording)
        if side is None:
            clusters[wording] = _Side(_Shown.of(c))
        elif side.repeat():
            side.more_ids.append(c.id)

    def add_row(self, row: dict[str, Any]) -> None:
        """A claim as claims.jsonl holds it (a row without an id is rebuilt as a Claim).  Run once per claim
        of a corpus: most repeat a wording already seen, and only count."""
        key = _key(row["kind"], row.get("verdict", "unverifiable"), row.get("official"), row.get("evidence") or ())
        if key is None:
            return
        if not row.get("id"):
            self.add(Claim.from_contract(row))
            return
        clusters = self._groups[key]
        wording = (row.get("value"), row.get("ratio_reading"), row.get("low"), row.get("high"))
        side = clusters.get(wording)
        if side is None:
            clusters[wording] = _Side(_Shown.of_row(row))
        elif side.repeat():
            side.more_ids.append(str(row["id"]))

    def conflicts(self) -> Iterator[dict[str, Any]]:
        """One record per fact whose wordings disagree: every wording that disagrees with another, the
        best-supported first (a fact is listed once, however many pairs of its wordings differ)."""
        for clusters in self._groups.values():
            sides = list(clusters.values())
            if len(sides) < 2:
                continue
            if len(sides) <= ALL_PAIRS_UP_TO:
                pairs = [(a, b) for i, a in enumerate(sides) for b in sides[i + 1:]]
            else:
                anchor = max(sides, key=lambda s: (s.first.verdict == "supported", s.count))
                pairs = [(anchor, other) for other in sides if other is not anchor]
            involved: dict[int, _Side] = {}
            for a, b in pairs:
                if _disagree(a.first, b.first):
                    involved.setdefault(id(a), a)
                    involved.setdefault(id(b), b)
            if not involved:
                continue
            shown = sorted(involved.values(), key=lambda s: (_RANK.get(s.first.verdict, 9), -s.count))[:MAX_SIDES]
            record = _conflict([s.first for s in shown])
            record["same_wording"] = [{"count": s.count, "ids": list(s.more_ids)} for s in shown]
            yield record


def find_conflicts(claims: Iterable[Claim]) -> list[dict[str, Any]]:
    """Claims that word a fact the same way are one side (the first stands for them, the others are
    counted and a few listed by id); one record per pair of disagreeing sides."""
    finder = ConflictFinder()
    for c in claims:
        finder.add(c)
    return list(finder.conflicts())


_RANK = {"supported": 0, "ambiguous": 1, "contradicted": 2}
MAX_SIDES = 8  # the wordings a conflict shows (conflicts.jsonl keeps how many claims share each)


def _label_in(explanation: str) -> str:
    """The looked-up fact named in an explanation, for claims judged before frames carried it."""
    m = re.search(r"the official figure for (.+?) is [\[\d-]", explanation)
    if m:
        return m.group(1)
    return explanation.split(". ", 1)[0].rstrip(".")


def _sentence_start(text: str) -> str:
    return text[:1].upper() + text[1:]


def _official_text(official: Any, unit: str) -> str:
    from pipeline.reconcile.verdicts import fmt

    return fmt(official, unit) if official is not None else "-"


def _side_text(c: _Shown) -> str:
    """'"four times bigger" (4x, or 5x read as an increase): ambiguous'."""
    said = f"\u201c{c.text}\u201d"
    if c.kind == "ratio" and c.ratio_reading == "increase_by":
        said += f" (an increase by {c.value}, so {float(c.value) + 1:g}x)"
    elif c.kind == "ratio" and c.ratio_reading == "ambiguous":
        said += f" ({c.value}x, or {float(c.value) + 1:g}x read as an increase)"
    verdict = {"supported": "fits", "ambiguous": "fits only read loosely",
               "contradicted": "does not fit"}.get(c.verdict, c.verdict)
    if c.verdict == "contradicted" and c.distortion:
        verdict += f" ({c.distortion.replace('_', ' ')})"
    return f"{said} {verdict}"


def _conflict(sides: list[_Shown]) -> dict[str, Any]:
    a = sides[0]
    official = _official_text(a.official, a.unit)
    said = "; ".join(_side_text(c) for c in sides) + "."
    if all(c.verdict == "supported" for c in sides):
        # the official figure is shown beside the resolution (report.html, report.md): not repeated here
        resolution = f"Different numbers, one fact: each wording fits under its own reading, so the difference is " \
                     f"wording, not data: {said}"
    else:
        resolution = _sentence_start(said)
    return {
        "fact": _sentence_start(a.fact),
        "official": a.official,
        "official_text": official,
        "source": a.source,
        "source_text": "a sourced statement" if a.source == "statement" else "the official MLPerf result logs",
        "evidence": list(a.evidence),
        "values": [c.value for c in sides],
        # enough of each claim to show it without claims.jsonl (a report page may not hold the other side)
        "claims": [{"id": c.id, "doc": c.doc, "lang": c.lang, "text": c.text, "kind": c.kind, "value": c.value,
                    "unit": c.unit, "bound": c.bound, "low": c.low, "high": c.high,
                    "ratio_reading": c.ratio_reading, "verdict": c.verdict, "distortion": c.distortion,
                    "explanation": c.explanation} for c in sides],
        "cross_article": len({c.doc for c in sides}) > 1,
        "resolution": resolution,
    }
