"""Verdict rules: a claim's interval and reading against an official fact (../CONTRACT.md).

- supported: the claim's interval overlaps the fact's (for an "N倍/N times" phrase: under its primary
  reading; for an ambiguous phrase, under both);
- ambiguous: only a secondary reading fits (提升了2.7倍 meant as 2.7x; 大三倍 against 4x);
- contradicted: no reading fits.
A maximum cue ("up to", 高达, 最多) states the maximum: the fact must be the maximum of the quantity and
equal the value within the precision written.  Every verdict comes with a sentence that shows the
arithmetic, and contradicted/ambiguous ones with the kind of distortion that explains them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

# Distortion types named on contradicted and ambiguous verdicts.
N_VS_N_PLUS_1 = "n_vs_n_plus_1"
INVERTED = "inverted_ratio"
CHIP_COUNT = "chip_count_mismatch"
MIXED_ROUNDS = "mixed_rounds"
MIXED_CATEGORY = "mixed_categories"
DERIVED = "derived_as_official"
ATTRIBUTION = "wrong_attribution"
UNIT = "unit_error"
ROUNDING = "rounding_beyond_digits"
WRONG_VALUE = "wrong_value"


@dataclass(frozen=True, init=False)
class Fact:
    """The official figure a claim is checked against."""

    value: float | str
    low: float | None  # the figure's own interval (the precision it was published with)
    high: float | None
    evidence: tuple[str, ...]
    label: str  # what was looked up, in words: "BERT, 4096 TPU v3 chips (Google, v0.7, TensorFlow)"
    derivation: str = ""  # the arithmetic of a derived figure
    maximum: float | None = None  # the largest value of the quantity, for "up to" claims
    # other readings of the same question that would fit a misread claim: (distortion, label, low, high)
    alternatives: tuple[tuple[str, str, float, float], ...] = field(default=())
    # False when results that could change the answer have no score (their logs are missing), or when the
    # figure is one reading of several the words leave open (`open_why` says which)
    complete: bool = True
    open_why: str = "the official data for it is incomplete (logs missing)"
    source: str = "table"  # table (computed from the result logs) or statement (a sourced statement's words)

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, value: float | str, low: float | None, high: float | None, evidence: tuple[str, ...],
                 label: str, derivation: str = "", maximum: float | None = None,
                 alternatives: tuple[tuple[str, str, float, float], ...] = (), complete: bool = True,
                 open_why: str = "the official data for it is incomplete (logs missing)",
                 source: str = "table") -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "evidence", evidence)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "derivation", derivation)
        object.__setattr__(self, "maximum", maximum)
        object.__setattr__(self, "alternatives", alternatives)
        object.__setattr__(self, "complete", complete)
        object.__setattr__(self, "open_why", open_why)
        object.__setattr__(self, "source", source)

    @property
    def number(self) -> float:
        """The figure as a number; a ValueError for a date."""
        if isinstance(self.value, (int, float)):
            return float(self.value)
        raise ValueError(f"the figure of {self.label!r} is not a number ({self.value!r})")


@dataclass(frozen=True, init=False)
class Judgement:
    verdict: str
    explanation: str
    distortion: str | None = None
    reading: str | None = None  # the reading that fits

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, verdict: str, explanation: str, distortion: str | None = None,
                 reading: str | None = None) -> None:
        object.__setattr__(self, "verdict", verdict)
        object.__setattr__(self, "explanation", explanation)
        object.__setattr__(self, "distortion", distortion)
        object.__setattr__(self, "reading", reading)


def overlaps(a_low: float | None, a_high: float | None, b_low: float | None, b_high: float | None) -> bool:
    """Whether [a_low, a_high] and [b_low, b_high] meet (None: open on that side), with a hair of tolerance
    for float rounding."""
    lo_ok = a_high is None or b_low is None or b_low <= a_high + 1e-9 * max(1.0, abs(a_high))
    hi_ok = a_low is None or b_high is None or a_low <= b_high + 1e-9 * max(1.0, abs(b_high))
    return lo_ok and hi_ok


def fmt(x: float | str | None, unit: str = "") -> str:
    """A figure as explanations show it: four significant digits in its unit, long times in minutes or days,
    FLOP/s in PFLOP/s; a date as written, None as '-'."""
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if unit == "FLOP/s":
        return f"{x / 1e15:.4g} PFLOP/s"
    if unit == "s" and abs(x) >= 3 * 86400:
        return f"{x / 86400:.4g} days"
    if unit == "s" and abs(x) >= 600:
        return f"{x / 60:.4g} min"
    if abs(x) >= 1e4 and (abs(x) >= 1e6 or not float(x).is_integer()):
        text = f"{float(f'{x:.4g}'):,.0f}"  # four significant digits, written out: 117,400x, not 1.174e+05x
    else:
        text = f"{x:.4g}" if not float(x).is_integer() else f"{int(x)}"
    return text + ({"s": " s", "x": "x", "%": " %"}.get(unit, "" if unit in ("count", "") else f" {unit}"))


def _interval_text(low: float | None, high: float | None, unit: str) -> str:
    if low is not None and high is not None and abs(low - high) < 1e-12:
        return fmt(low, unit)
    return f"[{fmt(low, unit)}, {fmt(high, unit)}]"


def readings(claim_reading: str | None, low: float | None, high: float | None, magnitude: bool = False
             ) -> tuple[list[tuple[str, float | None, float | None]], list[tuple[str, float | None, float | None]]]:
    """(primary, secondary) readings of a ratio claim as multiplier intervals.  A gain bounded from above ("up
    to 2.2 times", "beat it by up to 8%", 不到两倍) is still a gain: its interval starts at no change, so a
    side that is slower never bears it out."""
    flat = no_rise(low, high)
    plus = (0.0 if low is None and high is not None and high > 0 else low, high)
    plus = (None if plus[0] is None else plus[0] + 1, None if high is None else high + 1)
    if low is None and high is not None and high > 1:
        low = 1.0
    if magnitude or claim_reading in (None, "times_as"):
        return [("times_as", low, high)], []
    if claim_reading == "increase_by":
        return [("increase_by", *plus)], [] if flat else [("times_as", low, high)]
    return [("times_as", low, high), ("increase_by", *plus)], []


def no_rise(low: float | None, high: float | None) -> bool:
    """"快了一倍", "快了近一倍", "提高了 0.5 倍": read as "N times as much", a rise of at most one time over would
    be no rise at all, so that reading never makes such a claim fit (an ambiguous phrase still has two
    readings, and fits only one)."""
    if high is None:
        return False
    return (high if low is None else (low + high) / 2) <= 1  # "by up to 8%": 0.08 times as much is no rise


def judge(claim_low: float | None, claim_high: float | None, value: float | str | None, unit: str, fact: Fact,
          kind: str, reading: str | None = None, maximum_cue: bool = False, half: float = 0.0,
          magnitude: bool = False, emphatic: bool = False) -> Judgement:
    """Verdict of one claim against its deciding fact."""
    official = _interval_text(fact.low, fact.high, unit) if fact.low != fact.high else fmt(fact.value, unit)
    shown = (f"{fact.label.rstrip('.')} ({official})" if fact.source == "statement"
             else f"the official figure for {fact.label} is {official}")
    if fact.derivation:
        shown += f" ({fact.derivation})"
    if isinstance(value, str) or isinstance(fact.value, str):
        return _judge_date(str(value), str(fact.value), shown)
    if maximum_cue and not emphatic and fact.maximum is None and fact.high is None and fact.low is not None \
            and value is not None and kind != "ratio" and float(value) <= float(fact.low):
        # "up to 100 petaflops" against "more than 100": the most it reaches is above what is claimed
        return Judgement("contradicted", f"'Up to' states the maximum, but {shown}: more than {fmt(fact.low, unit)}, "
                         f"so not at most {fmt(value, unit)}.", WRONG_VALUE)
    if maximum_cue and fact.maximum is not None and value is not None:
        # "up to X": the largest value must be X within the precision written
        lo, hi = float(value) - half, float(value) + half
        top = fact.maximum
        if kind == "ratio":
            prim, sec = readings(reading, lo, hi, magnitude)
            return _ratio_judgement(prim, sec, top, top, shown + f"; the maximum is {fmt(top, 'x')}", fact)
        if lo - 1e-9 <= top <= hi + 1e-9:
            return Judgement("supported", f"The maximum matches: {shown}, and the largest is {fmt(top, unit)}.")
        return Judgement("contradicted", f"'Up to' states the maximum, but {shown}, and the largest is "
                         f"{fmt(top, unit)}, not {fmt(value, unit)}.", _distortion(value, unit, fact, kind))
    if kind == "ratio":
        prim, sec = readings(reading, claim_low, claim_high, magnitude)
        return _ratio_judgement(prim, sec, fact.low, fact.high, shown, fact)
    claim_text = _interval_text(claim_low, claim_high, unit)
    if overlaps(claim_low, claim_high, fact.low, fact.high):
        return Judgement("supported", f"The claim allows {claim_text}; {shown}.")
    return Judgement("contradicted", f"The claim allows {claim_text}, but {shown}.",
                     _distortion(value, unit, fact, kind, claim_low, claim_high))


def _judge_date(claimed: str, official: str, shown: str) -> Judgement:
    """Dates agree to the precision written; a one-day difference is a time zone (results published in
    California on the 29th are the 30th in Beijing)."""
    if claimed == official[: len(claimed)] or official == claimed[: len(official)]:
        return Judgement("supported", f"It matches: {shown}.")
    a: dt.date | None
    b: dt.date | None
    try:
        a, b = dt.date.fromisoformat(claimed), dt.date.fromisoformat(official[:10])
    except ValueError:
        a = b = None
    if a and b and abs((a - b).days) == 1:
        return Judgement("supported", f"It is one day off, the same moment in another time zone: {shown}.")
    return Judgement("contradicted", f"It does not match: {shown}.", WRONG_VALUE)


def as_decrease(explanation: str) -> str:
    """An explanation of a percent of how much less ("45% less time"), which was judged as the share that
    remains (0.55 times as much), in the words of what it says."""
    return explanation.replace("as 'N times as much'", "as 'N% less' (the share that remains, 1 - N%)")


def _ratio_judgement(primary, secondary, f_low, f_high, shown: str, fact: Fact) -> Judgement:
    fits = [(name, lo, hi) for name, lo, hi in primary if overlaps(lo, hi, f_low, f_high)
            and not (name == "times_as" and len(primary) > 1 and no_rise(lo, hi))]
    names = {"times_as": "as 'N times as much'", "increase_by": "as 'increased by N' (N+1 times as much)"}
    if len(primary) > 1:  # an ambiguous phrase: both readings must fit
        if len(fits) == len(primary):
            return Judgement("supported", f"Both readings fit; {shown}.", reading="both")
        if fits:
            name = fits[0][0]
            other = next(n for n, _, _ in primary if n != name)
            return Judgement("ambiguous", f"The phrase reads two ways: read {names[name]} it fits, read "
                             f"{names[other]} it does not; {shown}.", N_VS_N_PLUS_1, reading=name)
        sensible = [r for r in primary if not (r[0] == "times_as" and no_rise(r[1], r[2]))]
        return Judgement("contradicted", f"Neither reading fits; {shown}.",
                         _ratio_distortion(sensible or primary, fact, f_low, f_high))
    if fits:
        name = fits[0][0]
        return Judgement("supported", f"Read {names[name]}, it fits; {shown}.", reading=name)
    loose = [(name, lo, hi) for name, lo, hi in secondary if overlaps(lo, hi, f_low, f_high)]
    if loose:
        name = loose[0][0]
        strict = primary[0][0]
        return Judgement("ambiguous", f"Read strictly {names[strict]} it does not fit; only the loose reading "
                         f"{names[name]} does; {shown}.", N_VS_N_PLUS_1, reading=name)
    return Judgement("contradicted", f"Read {names[primary[0][0]]}, it does not fit; {shown}.",
                     _ratio_distortion(primary, fact, f_low, f_high))


def _ratio_distortion(primary, fact: Fact, f_low, f_high) -> str:
    for _, lo, hi in primary:
        if lo and hi and overlaps(1 / hi, 1 / lo, f_low, f_high):
            return INVERTED
        shifted = (None if lo is None else lo - 1, None if hi is None else hi - 1)
        if overlaps(*shifted, f_low, f_high) or overlaps(None if lo is None else lo + 1,
                                                         None if hi is None else hi + 1, f_low, f_high):
            return N_VS_N_PLUS_1
    return _alternative(primary[0][1], primary[0][2], fact) or WRONG_VALUE


def _alternative(low, high, fact: Fact) -> str | None:
    for distortion, _label, a_low, a_high in fact.alternatives:
        if overlaps(low, high, a_low, a_high):
            return distortion
    return None


def _distortion(value, unit: str, fact: Fact, kind: str, low=None, high=None) -> str:
    alt = _alternative(low if low is not None else value, high if high is not None else value, fact)
    if alt:
        return alt
    if isinstance(value, (int, float)) and isinstance(fact.value, (int, float)) and fact.value:
        v, f = float(value), float(fact.value)
        for factor in (60.0, 1 / 60.0, 1000.0, 0.001, 3600.0):
            if abs(v * factor - f) <= 0.05 * abs(f):
                return UNIT
        if kind == "count" and unit == "count":
            return CHIP_COUNT if fact.label.lower().find("chip") >= 0 or "gpu" in fact.label.lower() else WRONG_VALUE
        if abs(round(v) - round(f)) == 0:
            return ROUNDING
    return WRONG_VALUE
