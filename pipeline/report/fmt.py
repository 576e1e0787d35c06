"""How the report shows numbers, intervals and readings: one place, so HTML, Markdown and the chart agree.

These are labels for the reader of the report (English UI text), not language data: the pipeline's
lexicons stay in pipeline/lang/.
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard

VERDICT_ORDER = ("contradicted", "ambiguous", "supported", "unverifiable", "out_of_scope")
# Discrepancies are what an editor must act on: a wrong figure, or one that is right only under a reading
# the sentence does not primarily carry.
DISCREPANCY = ("contradicted", "ambiguous")
VERDICT_LABELS = {
    "supported": "supported",
    "contradicted": "contradicted",
    "ambiguous": "ambiguous",
    "unverifiable": "unverifiable",
    "out_of_scope": "out of scope",
}
READING_LABELS = {
    "times_as": "N times as much",
    "increase_by": "increased by N (N+1 times as much)",
    "ambiguous": "ambiguous: read both as N and as N+1 times as much",
}
BOUND_LABELS = {"exact": "exact", "approx": "approximate", "upper": "upper bound (at most)",
                "lower": "lower bound (at least)"}
ENTITY_KEYS = ("org", "accelerator", "system", "benchmark", "round", "framework")

_SI = ((1e24, "Y"), (1e21, "Z"), (1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
_SPANS = ((31_557_600, "years"), (604_800, "weeks"), (86_400, "days"), (3_600, "hours"), (60, "minutes"))


def is_number(x: Any) -> TypeGuard[int | float]:
    """A finite int or float, not a bool: a value that can be shown and plotted as a number."""
    # a tuple, not `int | float`: the union would be made anew at every call (a tenth of the merge's parquet columns)
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def num(x: float) -> str:
    """A number as an editor writes it: thousands separators, at most six significant digits."""
    f = float(x)
    if abs(f) < 1e15 and f == int(f):  # whole (float.is_integer, without a method call; NaN and inf fail abs)
        n = int(f)
        return str(n) if -1000 < n < 1000 else f"{n:,}"  # str() of a small one: no format spec to parse
    text = f"{x:,.6g}"
    return text.replace("e+", "e")


def _si(x: float, unit: str) -> str:
    for scale, prefix in _SI:
        if abs(x) >= scale:
            return f"{num(round(x / scale, 4))} {prefix}{unit}"
    return f"{num(x)} {unit}"


def _human_span(seconds: float) -> str:
    for scale, name in _SPANS:
        if abs(seconds) >= 2 * scale or (name == "minutes" and abs(seconds) >= scale):
            return f"{num(round(seconds / scale, 2))} {name}"
    return ""


def quantity(value: Any, unit: str | None) -> str:
    """`value` in `unit`, readable: 4.3e17 FLOP/s -> '430 PFLOP/s', 1814400 s -> '1,814,400 s (3 weeks)'."""
    if value is None:
        return "—"
    if not is_number(value):
        return str(value)
    unit = unit or ""
    if unit == "FLOP/s":
        return _si(float(value), "FLOP/s")
    if unit == "s":
        span = _human_span(float(value))
        return f"{num(value)} s" + (f" ({span})" if span else "")
    if unit == "x":
        return f"{num(value)}×"
    if unit == "%":
        return f"{num(value)}%"
    if unit in ("count", "date", ""):
        return num(value)
    return f"{num(value)} {unit}"


def interval(low: Any, high: Any, unit: str | None) -> str:
    """The interval the wording allows; an open side is shown as a bound rather than as infinity."""
    lo, hi = is_number(low), is_number(high)
    if lo and hi:
        if low == high:
            return quantity(low, unit)
        return f"{quantity(low, unit)} – {quantity(high, unit)}"
    if lo:
        return f"≥ {quantity(low, unit)}"
    if hi:
        return f"≤ {quantity(high, unit)}"
    return "—"


def entities_text(entities: dict[str, Any] | None) -> str:
    """The entities as "type: id" pairs in ENTITY_KEYS order; "—" when there are none."""
    ents = entities or {}
    return ", ".join(f"{k}: {ents[k]}" for k in ENTITY_KEYS if ents.get(k)) or "—"


def compared_text(compared: Any) -> str:
    """compared_to is {subject: {...}, baseline: {...}} for a ratio; anything else is shown as written."""
    if not compared:
        return ""
    if isinstance(compared, dict) and ("subject" in compared or "baseline" in compared):
        def side(d: Any) -> str:
            return entities_text(d) if isinstance(d, dict) else str(d)
        return f"{side(compared.get('subject'))}  vs  {side(compared.get('baseline'))}"
    return str(compared)


def frame_text(frame: Any) -> str:
    """The frame a verdict was reached in: how it was read, its entities and where their words are."""
    if not isinstance(frame, dict):
        return ""
    found = frame.get("found") or {}
    parts = [f"{k}: {frame[k]}" + (f" ({found[k]})" if found.get(k) else "") for k in ENTITY_KEYS if frame.get(k)]
    metric = f"; {str(frame['metric']).replace('_', ' ')}" if frame.get("metric") else ""
    return f"{frame.get('reading') or ''} — {', '.join(parts) or 'no entity'}{metric}"


def readings_text(alternatives: Any) -> str:
    """The other readings weighed, each with its verdict and official figure."""
    if not isinstance(alternatives, list) or not alternatives:
        return ""
    out = []
    for a in alternatives[:8]:
        if isinstance(a, dict):
            official = a.get("official")
            shown = "" if official is None else f" (official {official})"
            out.append(f"{a.get('reading')}: {a.get('verdict')}{shown}")
    return "; ".join(out)


def reading_text(claim: dict[str, Any]) -> str:
    """The claim's ratio reading in words, with its cue; empty when it has none."""
    reading = claim.get("ratio_reading")
    if not reading:
        return ""
    label = READING_LABELS.get(reading, reading)
    cue = claim.get("reading_cue")
    return f"{label} (cue: “{cue}”)" if cue else label


def bound_text(claim: dict[str, Any]) -> str:
    """The claim's bound in words (exact when unset), with its cue."""
    bound = claim.get("bound") or "exact"
    label = BOUND_LABELS.get(bound, bound)
    cue = claim.get("bound_cue")
    return f"{label} (cue: “{cue}”)" if cue else label


def display(claim: dict[str, Any]) -> dict[str, str]:
    """Ready-made strings for one claim, shared by the HTML details panel and the Markdown tables."""
    unit = claim.get("unit")
    counted = claim.get("counted")
    value = quantity(claim.get("value"), unit)
    if counted and claim.get("kind") == "count":
        value = f"{value} ({counted})"
    if claim.get("of_total") is not None:
        value = f"{value} of {quantity(claim.get('of_total'), unit)}"
    return {
        "value": value,
        "interval": interval(claim.get("low"), claim.get("high"), unit),
        "official": quantity(claim.get("official"), unit),
        "reading": reading_text(claim),
        "bound": bound_text(claim),
        "entities": entities_text(claim.get("entities")),
        "compared_to": compared_text(claim.get("compared_to")),
        "frame": frame_text(claim.get("frame")),
        "readings": readings_text(claim.get("alternatives")),
        "verdict": VERDICT_LABELS.get(claim.get("verdict") or "", str(claim.get("verdict"))),
        "distortion": (claim.get("distortion") or "").replace("_", " "),
    }
