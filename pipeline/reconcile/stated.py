"""A ratio of two figures the text itself gives: "went from 0.85 minutes to 0.26 minutes, more than three
times faster" divides the two times, "4.7 times the hardware" two chip counts, in the ratio's sentence or in
the sentences just before it in its paragraph.  The ratio's own cue words (lexicon cues ratio_size and
ratio_speed) say which figures pair; only figures the official results bear out are divided."""

from __future__ import annotations

import math

from pipeline.reconcile.context import (
    Lookups,
    baseline_span,
    clause_span,
    frame_span,
    has_cue,
    language_of,
    nearest_cue,
    segment_span,
)
from pipeline.reconcile.verdicts import Fact, judge
from pipeline.records import Claim, evolve, is_span


def _figure(c: Claim) -> float:
    """The official figure a claim was checked against, as a number (the caller chose numeric ones)."""
    if isinstance(c.official, (int, float)):
        return float(c.official)
    raise ValueError(f"claim {c.text!r} has no numeric official figure")


# What a ratio may compare, by the cue words of its clause (lexicon cues ratio_<quantity>), and which of the
# text's figures measure it: times for a speed, the chip or GPU counts of two systems for a size.
STATED_QUANTITIES = ("speed", "size")
SIZE_METRICS = ("chip_count", "gpu_count")
# ratios whose cue words may say what they compare (not per chip, per dollar or per peak)
CUED_METRICS = ("ratio", "speedup", "system_size_ratio")
LOOK_BACK = 2  # sentences of the claim's paragraph before it that may give a ratio's two figures


def _measures(quantity: str | None, c: Claim) -> bool:
    if quantity == "size":
        return c.kind == "count" and c.metric in SIZE_METRICS
    return c.kind == "duration" and not is_span(c)  # "a year earlier" dates the baseline; it is no time


def _ratio_quantity(claim: Claim, claims: list[Claim], ctx: Lookups) -> str | None:
    """What the ratio's own words say it compares ("4.7 times the hardware": size; "3.5 times the speed",
    快了3倍: speed): the nearest cue word in its clause, not past another ratio of the sentence."""
    a, b = clause_span(claim, ctx.kb)
    rel = claim.start - claim.sentence_start
    for o in claims:
        if o.sentence_index == claim.sentence_index and o.kind == "ratio" and o.start != claim.start:
            at = o.start - o.sentence_start
            if a <= at < rel:
                a = max(a, at + len(o.text))
            elif rel < at < b:
                b = min(b, at)
    if claim.metric not in CUED_METRICS or has_cue(ctx, claim, "per_chip", clause=True):
        return None  # per GPU, per dollar, per chip's peak: a ratio of rates, not of the text's totals
    keys = tuple(f"ratio_{q}" for q in STATED_QUANTITIES)
    # "速度是 512 块 GB200 时的 4.4 倍": the words of the baseline its frame names describe that side, not what
    # the ratio compares
    found = nearest_cue(ctx, claim, keys, (a, b), language_of(ctx.langs, claim).ratio_cue_window,
                        skip=frame_span(claim, ctx))
    return found[len("ratio_"):] if found else None


def _stated_figures(claim: Claim, claims: list[Claim], ctx: Lookups, quantity: str | None) -> list[Claim] | None:
    """The two figures the text gives for the ratio to compare: two supported ones of its sentence; else,
    when the ratio's words say what it compares and its sentence gives fewer than two figures of that
    quantity, those of its sentence and the LOOK_BACK sentences before it in its paragraph ("The v3.0 run used
    3,584 GPUs. This one is three times the hardware").  None when that is not exactly two figures (a figure
    repeated counts once), all supported."""
    def supported(c: Claim) -> bool:
        return isinstance(c.official, (int, float)) and c.verdict == "supported"

    own = [c for c in claims if c.sentence_index == claim.sentence_index and _measures(quantity, c)]
    if len([c for c in own if supported(c)]) == 2:
        return [c for c in own if supported(c)]
    # "A 用了15.56分钟，比 B 的16.88分钟快了大约8%；ResNet-50 则是16.6分钟": the ratio's own part of the sentence
    part = segment_span(claim, ctx.kb)
    mine = [c for c in own if part[0] <= c.start - c.sentence_start < part[1]]
    if len(mine) < len(own) and len([c for c in mine if supported(c)]) == 2:
        return [c for c in mine if supported(c)]
    paragraph = getattr(ctx, "paragraph", {})
    if quantity is None or len(own) >= 2 or claim.sentence_index not in paragraph:
        return None
    found = list(own)
    for back in range(1, LOOK_BACK + 1):
        i = claim.sentence_index - back
        if paragraph.get(i) != paragraph[claim.sentence_index]:
            break
        held = {c.official for c in found}
        earlier = [c for c in claims if c.sentence_index == i and _measures(quantity, c)]
        found = [c for c in earlier if not (supported(c) and c.official in held)] + found
    if len(found) != 2 or not all(supported(c) and c.bound == "exact" for c in found):
        # more figures than two, one the results do not bear out, or one only loosely written ("近两个小时",
        # "数百个") that another sentence happens to give: no pairing to trust
        return None
    if found[0].entities.benchmark != found[1].entities.benchmark:
        return None  # figures of two sentences, of two benchmarks, are two results, not one's two sides
    return found


def ratio_of_stated_figures(claim: Claim, claims: list[Claim], ctx: Lookups, every: list[Claim]) -> Claim:
    """"went from 0.85 minutes to 0.26 minutes, more than three times faster", "scaling from 768 to 3,584
    GPUs, 4.7 times the hardware": the ratio of the two official figures (times, or chip counts when its
    words are about size) the text gives for it, in its sentence or just before (`claims`: those judged so
    far; `every`: all of the article's)."""
    quantity = _ratio_quantity(claim, every, ctx)
    figures = _stated_figures(claim, claims, ctx, quantity)
    if figures is None or figures[0].official == figures[1].official:
        return claim  # two figures checked against one result are not two sides
    base = baseline_span(claim, ctx)
    # "..., 45% faster than June's time": compared with a figure the text does not give (one after the
    # opener may stand in a clause of its own: "slower than a DGX A100, which took about 40 minutes")
    if base is not None and not any(f.sentence_index == claim.sentence_index
                                    and base[0] <= f.start - f.sentence_start for f in figures):
        return claim
    before, after = figures
    # two times and a ratio above one ("down from 311.9 minutes in June - a 2x gain"): a speedup too
    times_gain = all(f.kind == "duration" for f in figures) and isinstance(claim.value, (int, float)) and (
        claim.value > 1)
    if (quantity is not None or claim.metric == "speedup" or times_gain) and _figure(before) < _figure(after):
        # "A takes 49 minutes, B about 166, A is 2.4x faster", "three times the GPUs": a speedup is the longer
        # time over the shorter, a size ratio the larger count over the smaller, whichever the text gives first
        before, after = after, before
    ratio = _figure(before) / _figure(after)
    if isinstance(claim.value, (int, float)) and 0 < claim.value < 1 and ratio > 1 and (
            claim.ratio_reading != "increase_by"):  # "68% faster" is 0.68 more, not a share of 0.68
        # "缩短为原来的十三分之一", "a quarter of the GPUs": a share of the larger, the smaller over the larger
        before, after, ratio = after, before, 1 / ratio
    # the ratio of the two figures as the text rounds them is a reading too: "from 1.28 to 0.76 minutes,
    # 68% faster" holds for the printed minutes (1.684x) though the unrounded results give 1.687x
    lo, hi = ratio, ratio
    bounds = (before.low, before.high, after.low, after.high)
    if all(isinstance(x, (int, float)) and 0 < x < math.inf for x in bounds):
        lo, hi = min(ratio, before.low / after.high), max(ratio, before.high / after.low)  # type: ignore[operator]
    where = "of the sentence" if all(f.sentence_index == claim.sentence_index for f in figures) else "the text gives"
    if quantity == "size":
        what = "chip counts"
        derivation = f"{_figure(before):,.0f} chips / {_figure(after):,.0f} chips = {ratio:.3g}x"
    else:
        what = "times"
        derivation = f"{_figure(before):.1f} s / {_figure(after):.1f} s = {ratio:.2f}x"
    fact = Fact(round(ratio, 4), lo, hi, tuple(before.evidence) + tuple(after.evidence),
                f"the two {what} {where}, '{before.text}' and '{after.text}'", derivation=derivation)
    j = judge(claim.low, claim.high, claim.value, claim.unit, fact, claim.kind, claim.ratio_reading)
    return evolve(claim, verdict=j.verdict, official=fact.value, evidence=fact.evidence, explanation=j.explanation,
                   distortion=j.distortion)
