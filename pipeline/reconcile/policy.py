"""The verdict policy: weigh a claim's readings, flag only what is certainly wrong (docs/CONTRACT.md).

1. The claim is first read as its words give it (`readings.primary`).  If that reading fits, or fits only
   under the loose reading of an "N倍 / N times" phrase, that is the verdict (supported, ambiguous).
2. Otherwise the other plausible readings (`readings.alternatives`: another round, another subject, what
   else a count may count) are checked.  A reading that fits and is as near the claim's words as the
   first one makes the claim supported, read that way.  One that fits but is further from its words makes
   it unverifiable: the readings disagree, and the explanation names them.
3. Nothing fits: contradicted only when the claim's words (or an unambiguous context) fix every part of
   the frame its question needs and the official data is complete for it; otherwise unverifiable, with
   the readings and their official figures.
Strictness in numbers is unchanged: every reading is judged by the contract's rules (`verdicts.judge`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.reconcile.context import ArticleContext
from pipeline.reconcile.readings import CLAUSE, LEVEL_NAMES, Reading, alternatives, determined, level, primary
from pipeline.reconcile.resolve import answerable
from pipeline.reconcile.verdicts import Fact, Judgement, fmt
from pipeline.records import ENTITY_TYPES, Claim, evolve

MAX_READINGS = 24  # the most alternative readings checked for one claim

Resolve = Callable[[Claim, ArticleContext], Fact | None]
Judge = Callable[[Claim, Fact], Judgement]


@dataclass(frozen=True, init=False)
class Weighed:
    reading: Reading
    fact: Fact
    judgement: Judgement

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, reading: Reading, fact: Fact, judgement: Judgement) -> None:
        object.__setattr__(self, "reading", reading)
        object.__setattr__(self, "fact", fact)
        object.__setattr__(self, "judgement", judgement)

    @property
    def verdict(self) -> str:
        """The verdict of this reading."""
        return self.judgement.verdict


def _check(claim: Claim, reading: Reading, ctx: ArticleContext, resolve: Resolve, judge: Judge) -> Weighed | None:
    read = reading.apply(claim)
    try:
        fact = resolve(read, ctx)
    except (KeyError, ValueError, ZeroDivisionError, TypeError):
        return None
    if fact is None:
        return None
    return Weighed(reading, fact, judge(read, fact))


def weigh(claim: Claim, ctx: ArticleContext, resolve: Resolve, judge: Judge) -> Claim:
    """The claim with its verdict, official figure, evidence, explanation, frame and alternatives."""
    first_reading = primary(claim)
    first = _check(claim, first_reading, ctx, resolve, judge)
    if first is not None and first.verdict in ("supported", "ambiguous"):
        return _result(claim, first, first.judgement.explanation, first.verdict, [])
    others: list[Weighed] = []
    readings = alternatives(claim, ctx, first_reading.support)
    if first is None and not answerable(claim):
        # no resolver answers this metric: only readings of another metric can
        readings = [r for r in readings if r.metric != claim.metric]
    # nearest first; the first support level at which a reading fits decides, so stop after it
    readings = sorted(readings, key=lambda r: r.support)[:MAX_READINGS]
    for i, reading in enumerate(readings):
        w = _check(claim, reading, ctx, resolve, judge)
        if w is not None:
            others.append(w)
        last_of_level = i + 1 == len(readings) or readings[i + 1].support != reading.support
        if last_of_level and any(o.verdict in ("supported", "ambiguous") for o in others):
            break
    if first is None:
        # no answer as the claim was linked, but its own clause says what it is of ("84% of a full pod"):
        # that reading stands in for it, contradiction included
        own = next((w for w in others if w.reading.support == CLAUSE and w.reading.metric != claim.metric), None)
        if own is not None and own.verdict == "contradicted":
            first, first_reading = own, own.reading
            others = [w for w in others if w is not own]
    limit = first_reading.support if first is not None else 99
    near = sorted((w for w in others if w.reading.support <= limit), key=lambda w: w.reading.support)
    far = sorted((w for w in others if w.reading.support > limit), key=lambda w: w.reading.support)
    # the nearest readings that fit decide: within them, a plain fit before a loose one
    groups = sorted({w.reading.support for w in near if w.verdict in ("supported", "ambiguous")})
    group = [w for w in near if groups and w.reading.support == groups[0]]
    for verdict in ("supported", "ambiguous"):
        best = next((w for w in group if w.verdict == verdict), None)
        if best is not None:
            said = best.judgement.explanation
            text = f"Read as {best.reading.why}, {said[:1].lower()}{said[1:]}"
            if first is not None and verdict == "supported":
                text += f" (Read as its words first suggest, {_figure(first, claim.unit)}.)"
            return _result(claim, best, text, verdict, [w for w in [first, *others] if w is not None and w is not best])
    fitting = [w for w in far if w.verdict in ("supported", "ambiguous")]
    if fitting and first is not None:
        best = fitting[0]
        text = (f"The readings disagree, so this is not called a contradiction: read as {best.reading.why}, it "
                f"fits ({_figure(best, claim.unit)}); read as its words first suggest, it does not "
                f"({_figure(first, claim.unit)}).")
        return _result(claim, first, text, "unverifiable", others)
    if first is None:
        what = (claim.metric or claim.kind).replace("_", " ")
        why = f"No official result or primary-source statement decides this {what} claim."
        rnd = claim.entities.round or ctx.round
        if rnd and not ctx.official.select(round=rnd):
            # a round the official tables do not hold yet (a 2024 article is about v4.0): said, not guessed
            why = (f"newsclaims holds no official results of {ctx.name('round', rnd)} yet, so this {what} claim "
                   "cannot be checked.")
        if claim.kind == "date" and str(claim.value).startswith("--"):
            why = ("Its year is not written, and neither its words nor the article's date settle it, so no "
                   "dated record can be matched.")
        return evolve(claim, verdict="unverifiable", explanation=why, frame=frame_of(claim, first_reading))
    fixed, open_part = determined(claim, ctx)
    if first.verdict == "contradicted" and fixed and first.fact.complete:
        text = first.judgement.explanation
        if others:
            text += " No other reading of it fits either."
        return _result(claim, first, text, "contradicted", others)
    if first.verdict == "contradicted":
        why = (f"its words do not fix its {open_part}" if not fixed else
               first.fact.open_why)
        text = f"It does not fit as read ({_figure(first, claim.unit)}), but {why}"
        named = [w for w in others if w.reading.why][:3]
        if named:
            text += "; other readings: " + "; ".join(
                f"{w.reading.why} ({_figure(w, claim.unit)})" for w in named)
        return _result(claim, first, text + ".", "unverifiable", others)
    return _result(claim, first, first.judgement.explanation, first.verdict, others)


def _figure(w: Weighed, unit: str) -> str:
    """A reading's official figure in the claim's unit ("... (0.47 min): official 28.3 s")."""
    value = w.fact.value
    shown = fmt(value, unit) if not isinstance(value, str) else value
    return f"{w.fact.label}: official {shown}"


def frame_of(claim: Claim, reading: Reading) -> dict:
    """What the claim is about under `reading` (entities, metric, why), and how near the claim the words for
    each entity it keeps from the claim were written (`found`)."""
    e = reading.entities
    out: dict = {t: getattr(e, t) for t in ENTITY_TYPES}
    out["metric"] = reading.metric
    out["reading"] = reading.why
    out["found"] = {t: LEVEL_NAMES[level(claim, t)] for t in ENTITY_TYPES if getattr(claim.entities, t)
                    and getattr(e, t) == getattr(claim.entities, t)}
    if claim.qualifiers:
        out["qualifiers"] = list(claim.qualifiers)  # the category / division its words restrict it to
    return out


def _alternative(w: Weighed) -> dict:
    e = w.reading.entities
    value = w.fact.value
    if isinstance(value, float) and not math.isnan(value):
        value = float(f"{value:.6g}")
    return {"reading": w.reading.why, **{t: getattr(e, t) for t in ENTITY_TYPES if getattr(e, t)},
            "metric": w.reading.metric, "official": value, "verdict": w.verdict, "label": w.fact.label}


def _result(claim: Claim, w: Weighed, explanation: str, verdict: str, others: list[Weighed]) -> Claim:
    value = w.fact.value
    if isinstance(value, float) and not math.isnan(value):
        value = float(f"{value:.6g}")
    distortion = w.judgement.distortion if verdict in ("contradicted", "ambiguous") else None
    frame = {**frame_of(claim, w.reading), "fact": w.fact.label, "source": w.fact.source}
    if w.fact.derivation:
        frame["derivation"] = w.fact.derivation
    return evolve(claim, verdict=verdict, official=value, evidence=tuple(w.fact.evidence), explanation=explanation,
                  distortion=distortion, frame=frame,
                  alternatives=tuple(_alternative(o) for o in others if o is not w))
