"""What a reviewer sees and edits: span labels, per-claim attributes, their text forms.

One place for the names every exchange format uses, so Label Studio, Prodigy and doccano files (and the
review page) agree: claim spans are labelled by `kind`, entity spans by entity type, and a claim carries
the attributes in ATTRIBUTES.  Values travel as text (a tool's text box) and come back exactly:
`format_value` / `parse_value` round-trip ints, floats (repr) and ISO dates.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import quoteattr

from pipeline.records import BOUNDS, ENTITY_TYPES, KINDS, READINGS, VERDICTS

CLAIM_CONTROL = "claim"  # Labels for claim spans (label = kind)
ENTITY_CONTROL = "entity"  # Labels for entity spans (label = entity type)
TEXT_OBJECT = "text"
RELATION = "about"  # claim -> entity it is about
STATUSES = ("accepted", "rejected")

# Per-claim attribute -> (contract field, choices or None for free text).
ATTRIBUTES: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "review": ("status", STATUSES),
    "value": ("value", None),
    "unit": ("unit", None),
    "bound": ("bound", BOUNDS),
    "reading": ("ratio_reading", READINGS),
    "verdict": ("verdict", VERDICTS),
    "counted": ("counted", None),
    "of_total": ("of_total", None),
    # Entities the claim is about that the text never names (the article's round from its date, a
    # system carried from an earlier sentence): "type=id; type=id".  Named ones are relations.
    "context": ("entities", None),
    "note": ("note", None),
}
ENTITY_ATTRIBUTE = "entity_id"  # per-entity-span text box: the canonical id
# Fields compared to tell a correction from a plain acceptance, and reviewers' agreement.
DECISION_FIELDS = ("start", "end", "text", "kind", "value", "unit", "bound", "ratio_reading", "counted", "of_total",
                   "verdict", "entities")

COLORS = {"duration": "#4e79a7", "count": "#f28e2b", "ratio": "#e15759", "compute": "#76b7b2",
          "percent": "#59a14f", "date": "#edc948", "other": "#b07aa1"}


def claim_key(doc: str, start: int, end: int, text: str, kind: str) -> str:
    """The content hash `pipeline.records.Claim.id` gives a claim; for gold rows written before ids."""
    key = f"{doc}\x1f{start}\x1f{end}\x1f{text}\x1f{kind}"
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def row_key(row: dict[str, Any]) -> str:
    """A gold row's claim id: its own `id`, else the content hash of its span (rows written before ids)."""
    return str(row.get("id") or claim_key(row["doc"], int(row["start"]), int(row["end"]), row["text"], row["kind"]))


def entity_key(doc: str, start: int, end: int, etype: str) -> str:
    """A stable id for an entity span: a hash of its doc, place and type."""
    return "e" + hashlib.sha1(f"{doc}\x1f{start}\x1f{end}\x1f{etype}".encode()).hexdigest()[:15]


def format_value(v: Any) -> str | None:
    """Value -> text box: None stays None, a bool is lower-case, a float its repr, so `parse_value`
    reads it back exactly."""
    if v is None:
        return None
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def parse_value(s: str | None, kind: str | None = None) -> Any:
    """Text box -> value: '' is None, '6' an int, '6.0' / '4.3e+17' a float, '4,096' 4096; a date's value
    (and anything not a number) stays text."""
    if s is None:
        return None
    s = s.strip()
    if not s or s.lower() in ("null", "none"):
        return None
    if kind == "date":
        return s
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+", s):
        s = s.replace(",", "")
    try:
        return int(s)
    except ValueError:
        pass
    try:
        f = float(s)
    except ValueError:
        return s
    return f if math.isfinite(f) else s


def format_entities(ents: Mapping[str, str | None]) -> str:
    """Entities as the context text box writes them: "type=id; type=id", those without an id left out."""
    return "; ".join(f"{k}={v}" for k, v in ents.items() if v)


def parse_entities(s: str | None) -> dict[str, str | None]:
    """A context text box back to {type: id}: "type=id" pairs split by ";" or newlines; unknown types
    and empty ids are dropped."""
    out: dict[str, str | None] = {}
    for part in (s or "").replace("\n", ";").split(";"):
        if "=" in part:
            k, v = (x.strip() for x in part.split("=", 1))
            if k in ENTITY_TYPES and v:
                out[k] = v
    return out


def same_field(name: str, a: Any, b: Any) -> bool:
    """Two values of one decision field agree: numbers within rounding noise, entities ignoring empty ids,
    anything else equal."""
    if name in ("value", "of_total") and a is not None and b is not None:
        if isinstance(a, str) or isinstance(b, str):
            return str(a) == str(b)
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    if name == "entities":
        return {k: v for k, v in (a or {}).items() if v} == {k: v for k, v in (b or {}).items() if v}
    return a == b


def same_decision(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two rows say the same: the same status and, unless both rejected, the same DECISION_FIELDS."""
    if a.get("status", "accepted") != b.get("status", "accepted"):
        return False
    if a.get("status", "accepted") == "rejected":
        return True
    return all(same_field(f, a.get(f), b.get(f)) for f in DECISION_FIELDS)


def label_studio_config() -> str:
    """The labeling config that goes with our Label Studio tasks."""
    def choices(name: str, values: tuple[str, ...]) -> str:
        opts = "".join(f'<Choice value={quoteattr(v)}/>' for v in values)
        return (f'    <Choices name="{name}" toName="{TEXT_OBJECT}" perRegion="true" choice="single" '
                f'showInline="true">{opts}</Choices>\n')

    def textarea(name: str, hint: str) -> str:
        return (f'    <TextArea name="{name}" toName="{TEXT_OBJECT}" perRegion="true" editable="true" '
                f'maxSubmissions="1" rows="1" placeholder={quoteattr(hint)}/>\n')

    hints = {"value": "number as normalised (seconds, FLOP/s, x, %), or ISO date",
             "unit": "s, count, x, FLOP/s, %, date, ...", "counted": "chip, gpu, host, record, benchmark, ...",
             "of_total": "N of a partitive 'M of N'", "context": "entities not named in the text: round=training-v0.7",
             "note": "why (optional)"}
    kinds = "".join(f'    <Label value="{k}" background="{COLORS[k]}" hotkey="{i}"/>\n'
                    for i, k in enumerate(KINDS, 1))
    ents = "".join(f'    <Label value="{t}" background="#bbbbbb"/>\n' for t in ENTITY_TYPES)
    attrs = ""
    for name, (_, opts) in ATTRIBUTES.items():
        attrs += (f'    <Header value="{name}" size="6"/>\n'
                  + (choices(name, opts) if opts else textarea(name, hints.get(name, ""))))
    return (
        "<View>\n"
        "  <Style>.htx-text { white-space: pre-wrap; line-height: 1.7; }</Style>\n"
        '  <Header value="$doc"/>\n'
        f'  <Labels name="{CLAIM_CONTROL}" toName="{TEXT_OBJECT}">\n{kinds}  </Labels>\n'
        f'  <Labels name="{ENTITY_CONTROL}" toName="{TEXT_OBJECT}">\n{ents}  </Labels>\n'
        f'  <Relations>\n    <Relation value="{RELATION}"/>\n  </Relations>\n'
        f'  <Text name="{TEXT_OBJECT}" value="$text" granularity="symbol"/>\n'
        f'  <View visibleWhen="region-selected" whenTagName="{CLAIM_CONTROL}">\n{attrs}  </View>\n'
        f'  <View visibleWhen="region-selected" whenTagName="{ENTITY_CONTROL}">\n'
        f'    <Header value="canonical id" size="6"/>\n{textarea(ENTITY_ATTRIBUTE, "e.g. google, tpu-v3")}'
        "  </View>\n"
        "</View>\n"
    )
