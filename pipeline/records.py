"""Typed records that the stages exchange.

Article -> Sentence -> Claim (extracted) -> Claim with entities and frame (linked) -> Claim with
verdict (reconciled).  Every record is a frozen dataclass; `evolve` (dataclasses.replace, faster) makes
the next stage's version.  `Claim.to_contract()` gives the JSON object of ../CONTRACT.md (claims.jsonl).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cached_property
from operator import attrgetter
from typing import Any, TypeVar, cast

R = TypeVar("R")


def percent_as_ratio(claim: Claim) -> Claim:
    """"25% faster" (kind percent, ratio reading increase_by) as the ratio the linker and the verdicts
    work with: 0.25, increased by (1.25x); "45% less time" as the share that remains: 0.55 times as much."""
    def x(v):
        return None if v is None else float(f"{v / 100:.10g}")
    if claim.change == "decrease":
        def rest(v):
            return None if v is None else float(f"{1 - v / 100:.10g}")
        return evolve(claim, kind="ratio", unit="x", value=rest(claim.value), low=rest(claim.high),
                      high=rest(claim.low), ratio_reading="times_as")
    return evolve(claim, kind="ratio", unit="x", value=x(claim.value), low=x(claim.low), high=x(claim.high))


def ratio_as_percent(claim: Claim) -> Claim:
    """Back to the percent as written; an official times-as figure becomes the same kind of percentage
    (1.63x -> 63)."""
    def p(v):
        if v is None:
            return None
        y = float(f"{v * 100:.10g}")
        return int(y) if y.is_integer() else y
    official = claim.official
    if claim.change == "decrease":
        def cut(v):
            return None if v is None else p(1 - v)
        if isinstance(official, (int, float)) and not isinstance(official, bool):
            official = float(f"{(1 - official) * 100:.6g}")
        return evolve(claim, kind="percent", unit="%", value=cut(claim.value), low=cut(claim.high),
                      high=cut(claim.low), official=official, ratio_reading=None)
    if isinstance(official, (int, float)) and not isinstance(official, bool):
        official = float(f"{(official - 1) * 100:.6g}")
    return evolve(claim, kind="percent", unit="%", value=p(claim.value), low=p(claim.low), high=p(claim.high),
                  official=official)


def is_percent_change(claim: Claim) -> bool:
    """Whether the claim is a percentage of change ("25% faster"), checked as the ratio it implies."""
    return claim.kind == "percent" and (claim.ratio_reading is not None or claim.change == "decrease") and isinstance(
        claim.value, (int, float))


def by_fields(record: object) -> tuple:
    """pickle's recipe (__reduce__) for a frozen record: its class called with its fields.  Compiled
    (pipeline.native), a frozen dataclass cannot be unpickled attribute by attribute, which pickle's default
    does."""
    return (type(record), tuple(getattr(record, f.name) for f in fields(record) if f.init))  # type: ignore[arg-type]


# per record class: its fields' names, as a set, and one getter of all their values (see evolve)
_SHAPES: dict[type, tuple[frozenset[str], Callable[[Any], Any]]] = {}


def _shape(cls: type) -> tuple[frozenset[str], Callable[[Any], Any]]:
    hit = _SHAPES.get(cls)
    if hit is None:
        if hasattr(cls, "__post_init__") or any(isinstance(v, cached_property) for v in vars(cls).values()):
            raise TypeError(f"evolve() cannot copy a {cls.__name__}: use dataclasses.replace")
        names = tuple(f.name for f in fields(cls) if f.init)  # type: ignore[arg-type]
        get = attrgetter(*names)
        hit = _SHAPES[cls] = (frozenset(names), get if len(names) > 1 else (lambda r: (get(r),)))
    return hit


def evolve(record: R, **changes: Any) -> R:
    """`dataclasses.replace(record, **changes)` for frozen dataclasses that have no __post_init__ and no
    cached properties (the records here): a copy of the instance's fields with `changes` applied.
    replace() calls __init__ with every field by name, which took a Claim's 32 fields one Python step at a
    time; the stages make five versions of every claim."""
    cls = type(record)
    names, values = _shape(cls)
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - names)[0]!r}")
    new: Any
    if hasattr(record, "__dict__"):
        new = object.__new__(cls)
        new.__dict__.update(record.__dict__)
        new.__dict__.update(changes)
        return cast(R, new)
    # compiled (pipeline.native): no instance dict to copy, but its __init__ (written out) is quick, and so
    # is reading every field in one C call; a claim, copied five times per claim, is copied field by field
    new = _copy_claim(cast(Claim, record)) if cls is Claim else cls(*values(record))
    for name, value in changes.items():
        object.__setattr__(new, name, value)
    return cast(R, new)


class Kind(StrEnum):
    """What a claim's number measures (the output contract's `kind`)."""

    DURATION = "duration"
    COUNT = "count"
    RATIO = "ratio"
    COMPUTE = "compute"
    PERCENT = "percent"
    DATE = "date"
    OTHER = "other"


class Bound(StrEnum):
    """How the number bounds the quantity: as written, about, at most, at least."""

    EXACT = "exact"
    APPROX = "approx"
    UPPER = "upper"
    LOWER = "lower"


class Reading(StrEnum):
    """How an "N倍 / N times" phrase reads: N times as much, increased by N (N+1 times), either."""

    TIMES_AS = "times_as"
    INCREASE_BY = "increase_by"
    AMBIGUOUS = "ambiguous"


class Verdict(StrEnum):
    """The output contract's verdicts."""

    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    AMBIGUOUS = "ambiguous"
    UNVERIFIABLE = "unverifiable"
    OUT_OF_SCOPE = "out_of_scope"


class EntityType(StrEnum):
    ORG = "org"
    ACCELERATOR = "accelerator"
    SYSTEM = "system"
    BENCHMARK = "benchmark"
    ROUND = "round"
    FRAMEWORK = "framework"


# The closed choices as plain tuples of their values, for membership tests and ordered iteration (a StrEnum
# member is its string, so "count" in KINDS and Kind.COUNT in KINDS both hold).
KINDS = tuple(k.value for k in Kind)
# four weeks or more is never an MLPerf training time: a span between two events
SPAN_SECONDS = 28 * 86_400


def is_span(claim: Claim) -> bool:
    """Whether a duration is too long to be a training time ("five years", 半年)."""
    return claim.kind == "duration" and isinstance(claim.value, (int, float)) and float(claim.value) >= SPAN_SECONDS
BOUNDS = tuple(b.value for b in Bound)
READINGS = tuple(r.value for r in Reading)
VERDICTS = tuple(v.value for v in Verdict)
ENTITY_TYPES = tuple(e.value for e in EntityType)


# The metadata keys that may give an article's publication date (its sidecar, its front matter)
META_DATE_KEYS = ("date", "published", "pub_date")


@dataclass(frozen=True, init=False)
class Article:
    """One input file, decoded.  `text` is the decoded original: all offsets refer to it."""

    doc: str  # path relative to the input folder, '/'-separated
    text: str
    encoding: str = "utf-8"
    fmt: str = "txt"  # txt, md, html
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, doc: str, text: str, encoding: str = "utf-8", fmt: str = "txt",
                 meta: dict[str, Any] | None = None) -> None:
        object.__setattr__(self, "doc", doc)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "encoding", encoding)
        object.__setattr__(self, "fmt", fmt)
        object.__setattr__(self, "meta", {} if meta is None else meta)

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def sha256(self) -> str:
        """The hash of the decoded text: what a stored result and an exported task are checked against."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, init=False)
class Sentence:
    doc: str
    index: int
    start: int  # offsets in Article.text
    end: int
    text: str  # Article.text[start:end]
    lang: str  # "zh" or "en"
    paragraph: int = 0

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, doc: str, index: int, start: int, end: int, text: str, lang: str, paragraph: int = 0) -> None:
        object.__setattr__(self, "doc", doc)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "paragraph", paragraph)

    def __reduce__(self) -> tuple:
        return by_fields(self)


@dataclass(frozen=True, init=False)
class Entities:
    org: str | None = None
    accelerator: str | None = None
    system: str | None = None
    benchmark: str | None = None
    round: str | None = None
    framework: str | None = None

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, org: str | None = None, accelerator: str | None = None, system: str | None = None,
                 benchmark: str | None = None, round: str | None = None, framework: str | None = None) -> None:
        object.__setattr__(self, "org", org)
        object.__setattr__(self, "accelerator", accelerator)
        object.__setattr__(self, "system", system)
        object.__setattr__(self, "benchmark", benchmark)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "framework", framework)

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def as_dict(self) -> dict[str, str | None]:
        """The entities as a mapping of type to id (None where none)."""
        return {t: getattr(self, t) for t in ENTITY_TYPES}  # dataclasses.asdict deep-copies: slow


# A claim's fields as the output contract names them (CONTRACT.md), id first: what every consumer of
# claims.jsonl may rely on.  CLAIM_FIELDS is the whole record claims.jsonl holds, in its order.
CONTRACT_FIELDS = ("id", "doc", "lang", "sentence", "start", "end", "text", "kind", "value", "unit", "counted",
                   "of_total", "bound", "low", "high", "ratio_reading", "entities", "verdict", "official",
                   "evidence", "explanation")
CLAIM_FIELDS = ("id", "doc", "lang", "sentence", "start", "end", "text", "kind", "value", "unit", "counted",
                "of_total", "bound", "low", "high", "ratio_reading", "reading_cue", "bound_cue", "entities", "metric",
                "compared_to", "verdict", "official", "evidence", "explanation", "distortion", "frame", "alternatives")


@dataclass(frozen=True, init=False)
class Claim:
    doc: str
    lang: str
    sentence: str
    start: int
    end: int
    text: str
    kind: str
    value: float | str | None
    unit: str
    counted: str | None = None
    of_total: float | None = None
    bound: str = "exact"
    low: float | None = None
    high: float | None = None
    ratio_reading: str | None = None
    # The phrase that decided ratio_reading / bound, as written ("提高了", "times larger", "不到").
    reading_cue: str | None = None
    bound_cue: str | None = None
    sentence_index: int = 0
    sentence_start: int = 0
    entities: Entities = field(default_factory=Entities)
    metric: str | None = None
    compared_to: dict[str, Any] | None = None
    # how each entity was found (linker): type -> (level, rivals), level 0 the claim's clause, 1 its
    # sentence, 2 the sentence before, 3 further back, 4 the article's default, 9 nothing; rivals: other
    # ids of the type its sentence names that the claim could be about
    support: dict[str, tuple[int, tuple[str, ...]]] | None = None
    verdict: str = "unverifiable"
    official: float | str | None = None
    evidence: tuple[str, ...] = ()
    explanation: str = ""
    distortion: str | None = None
    # the frame the verdict was reached in (round, subject, benchmark, metric, qualifiers, and how each
    # was found) and the other readings weighed, each with its official figure and verdict
    frame: dict[str, Any] | None = None
    alternatives: tuple[dict[str, Any], ...] = ()
    # the categories and divisions its words restrict it to ("在市售类别中", "in the closed division"):
    # knowledge-base ids of type category (linker); the results it is checked against are of those only
    qualifiers: tuple[str, ...] = ()
    # a percent of change that says how much less ("45% less time", 缩短了9%): "decrease"; read as the share
    # that remains (0.55x) and reported as written
    change: str | None = None

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, doc: str, lang: str, sentence: str, start: int, end: int, text: str, kind: str,
                 value: float | str | None, unit: str, counted: str | None = None, of_total: float | None = None,
                 bound: str = "exact", low: float | None = None, high: float | None = None,
                 ratio_reading: str | None = None, reading_cue: str | None = None, bound_cue: str | None = None,
                 sentence_index: int = 0, sentence_start: int = 0, entities: Entities | None = None,
                 metric: str | None = None, compared_to: dict[str, Any] | None = None,
                 support: dict[str, tuple[int, tuple[str, ...]]] | None = None, verdict: str = "unverifiable",
                 official: float | str | None = None, evidence: tuple[str, ...] = (), explanation: str = "",
                 distortion: str | None = None, frame: dict[str, Any] | None = None,
                 alternatives: tuple[dict[str, Any], ...] = (), qualifiers: tuple[str, ...] = (),
                 change: str | None = None) -> None:
        object.__setattr__(self, "doc", doc)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "sentence", sentence)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "counted", counted)
        object.__setattr__(self, "of_total", of_total)
        object.__setattr__(self, "bound", bound)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "ratio_reading", ratio_reading)
        object.__setattr__(self, "reading_cue", reading_cue)
        object.__setattr__(self, "bound_cue", bound_cue)
        object.__setattr__(self, "sentence_index", sentence_index)
        object.__setattr__(self, "sentence_start", sentence_start)
        object.__setattr__(self, "entities", Entities() if entities is None else entities)
        object.__setattr__(self, "metric", metric)
        object.__setattr__(self, "compared_to", compared_to)
        object.__setattr__(self, "support", support)
        object.__setattr__(self, "verdict", verdict)
        object.__setattr__(self, "official", official)
        object.__setattr__(self, "evidence", evidence)
        object.__setattr__(self, "explanation", explanation)
        object.__setattr__(self, "distortion", distortion)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "alternatives", alternatives)
        object.__setattr__(self, "qualifiers", qualifiers)
        object.__setattr__(self, "change", change)

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def number(self) -> float:
        """The value as a number; a ValueError for a date (the resolvers' callers catch it)."""
        if isinstance(self.value, (int, float)):
            return float(self.value)
        raise ValueError(f"claim {self.text!r} has no numeric value ({self.value!r})")

    @property
    def id(self) -> str:
        """Content hash: stable across reruns as long as the article text and the reading agree."""
        key = f"{self.doc}\x1f{self.start}\x1f{self.end}\x1f{self.text}\x1f{self.kind}"
        return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]

    def to_contract(self) -> dict[str, Any]:
        """The record as claims.jsonl holds it, in the output contract's field order."""
        d: dict[str, Any] = {
            "id": self.id,
            "doc": self.doc,
            "lang": self.lang,
            "sentence": self.sentence,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kind": self.kind,
            "value": self.value,
            "unit": self.unit,
            "counted": self.counted,
            "of_total": self.of_total,
            "bound": self.bound,
            "low": self.low,
            "high": self.high,
            "ratio_reading": self.ratio_reading,
            "reading_cue": self.reading_cue,
            "bound_cue": self.bound_cue,
            "entities": self.entities.as_dict(),
            "metric": self.metric,
            "compared_to": self.compared_to,
            "verdict": self.verdict,
            "official": self.official,
            "evidence": list(self.evidence),
            "explanation": self.explanation,
            "distortion": self.distortion,
            "frame": self.frame,
            "alternatives": list(self.alternatives),
        }
        return d

    def to_json(self) -> str:
        """The record as one line of claims.jsonl."""
        return json.dumps(self.to_contract(), ensure_ascii=False, sort_keys=False)

    @classmethod
    def from_contract(cls, d: dict[str, Any]) -> Claim:
        """A Claim from a row of claims.jsonl."""
        ents = d.get("entities") or {}
        return cls(
            doc=d["doc"],
            lang=d["lang"],
            sentence=d.get("sentence", ""),
            start=int(d["start"]),
            end=int(d["end"]),
            text=d["text"],
            kind=d["kind"],
            value=d.get("value"),
            unit=d.get("unit", ""),
            counted=d.get("counted"),
            of_total=d.get("of_total"),
            bound=d.get("bound", "exact"),
            low=d.get("low"),
            high=d.get("high"),
            ratio_reading=d.get("ratio_reading"),
            reading_cue=d.get("reading_cue"),
            bound_cue=d.get("bound_cue"),
            entities=Entities(**{k: ents.get(k) for k in ENTITY_TYPES}),
            metric=d.get("metric"),
            compared_to=d.get("compared_to"),
            verdict=d.get("verdict", "unverifiable"),
            official=d.get("official"),
            evidence=tuple(d.get("evidence") or ()),
            explanation=d.get("explanation", ""),
            distortion=d.get("distortion"),
            frame=d.get("frame"),
            alternatives=tuple(d.get("alternatives") or ()),
        )


def _copy_claim(c: Claim) -> Claim:
    """A claim's copy, field by field in Claim's order: compiled, each field is a read of its struct and the
    copy one direct call, where evolve's generic copy (a look-up per field, a call through Python's
    argument parsing) was 2.5% of an article's instructions."""
    return Claim(c.doc, c.lang, c.sentence, c.start, c.end, c.text, c.kind, c.value, c.unit, c.counted, c.of_total,
                 c.bound, c.low, c.high, c.ratio_reading, c.reading_cue, c.bound_cue, c.sentence_index,
                 c.sentence_start, c.entities, c.metric, c.compared_to, c.support, c.verdict, c.official, c.evidence,
                 c.explanation, c.distortion, c.frame, c.alternatives, c.qualifiers, c.change)


@dataclass(frozen=True, init=False)
class ArticleError:
    doc: str
    error: str  # short code, e.g. "binary", "empty", "decode"
    detail: str  # what happened and what to do

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, doc: str, error: str, detail: str) -> None:
        object.__setattr__(self, "doc", doc)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "detail", detail)

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def to_contract(self) -> dict[str, str]:
        """The record as claims.jsonl holds it, in the output contract's field order."""
        return {"doc": self.doc, "error": self.error, "detail": self.detail}


@dataclass(frozen=True, init=False)
class ArticleResult:
    """What processing one article yields: the unit of work of every runner."""

    doc: str
    sha256: str
    claims: tuple[Claim, ...] = ()
    error: ArticleError | None = None
    lang: str | None = None
    # the date the article was read as of, and where it came from (sidecar, page markup, date line)
    dated: dict[str, str] | None = None
    # numbers lost with a reason ({start, end, text, reason}): one claim's trouble, not the article's
    problems: tuple[dict, ...] = ()
    # the text the claims' offsets refer to, and the metadata a report shows beside it (SHOWN_META, as
    # text): kept with the run's outputs, so that a report shows the article as the run read it without
    # reading (or extracting from HTML) the file again
    text: str | None = None
    shown: dict[str, str] | None = None

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, doc: str, sha256: str, claims: tuple[Claim, ...] = (), error: ArticleError | None = None,
                 lang: str | None = None, dated: dict[str, str] | None = None, problems: tuple[dict, ...] = (),
                 text: str | None = None, shown: dict[str, str] | None = None) -> None:
        object.__setattr__(self, "doc", doc)
        object.__setattr__(self, "sha256", sha256)
        object.__setattr__(self, "claims", claims)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "dated", dated)
        object.__setattr__(self, "problems", problems)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "shown", shown)

    def __reduce__(self) -> tuple:
        return by_fields(self)


# An article's metadata that a report shows (its heading, date line and language)
SHOWN_META = ("title", "date", "source", "language")


def shown_meta(meta: dict[str, Any]) -> dict[str, str]:
    """The metadata a report shows, as the text it shows (a sidecar's YAML date is a date object)."""
    return {k: str(meta[k]) for k in SHOWN_META if meta.get(k)}
