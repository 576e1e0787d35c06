"""Verdicts for the claims of one article."""

from __future__ import annotations

import math

from pipeline.lang.loader import load_language
from pipeline.link import recognize
from pipeline.link.kb import KnowledgeBase
from pipeline.official.query import OfficialResults
from pipeline.reconcile.resolve import ArticleContext, resolve
from pipeline.reconcile.scope import out_of_scope
from pipeline.reconcile.verdicts import Fact, judge
from pipeline.records import Claim, evolve
from pipeline.segment.sentences import Segmented
from pipeline.settings import Settings


def _article_round(claims: list[Claim], meta: dict, kb: KnowledgeBase) -> str | None:
    """The round the article reports: its metadata's round or date, else the round its claims name most
    (on a tie, the one named first: the answer must not depend on the hash seed)."""
    if meta.get("round"):
        return kb.round_id(meta["round"]) or str(meta["round"])
    for key in ("date", "published", "pub_date"):
        if meta.get(key) and (found := kb.round_on(str(meta[key]).replace("/", "-"))):
            return found
    rounds = [c.entities.round for c in claims if c.entities.round]
    return max(dict.fromkeys(rounds), key=rounds.count) if rounds else None


def _benchmark_mentions(seg: Segmented, kb: KnowledgeBase) -> dict[int, tuple[tuple[int, str], ...]]:
    out = {}
    for s in seg.sentences:
        # same text and offset as the linker asked, so the recognizer's cache answers
        found = tuple((m.start, m.id) for m in recognize(s.text, kb, s.start) if m.type == "benchmark")
        if found:
            out[s.index] = found
    return out


def _half_step(claim: Claim) -> float:
    digits = "".join(ch for ch in claim.text if ch.isdigit() or ch == ".")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return 0.5 * 10.0 ** -decimals


def _is_magnitude(claim: Claim) -> bool:
    lang = load_language(claim.lang)
    return claim.kind == "ratio" and any(w.lower() in claim.text.lower() for w in lang.magnitude_words)


def _from_side(claim: Claim, others: list[Claim]) -> bool:
    """"ResNet-50 went from 1.28 minutes to 0.76", "从 1.28 分钟缩短到 0.76 分钟": what stands between
    'from' and 'to' is the earlier result (the previous round), what follows 'to' is this round's."""
    lang = load_language(claim.lang)
    sent = claim.sentence.lower()
    rel = claim.start - claim.sentence_start
    starts = [sent.rfind(f.lower(), 0, rel) for f in lang.cues.get("from", ())]
    f = max(starts, default=-1)
    if f < 0:
        return False
    tos = [sent.find(t.lower(), f) for t in lang.cues.get("to", ())]
    t = min((x for x in tos if x > f), default=-1)
    if not f < rel < t:
        return False
    # the 'to' side must hold a figure of the same kind: a comparison of two values
    return any(o.kind == claim.kind and o.start - claim.sentence_start > t for o in others
               if o.sentence_index == claim.sentence_index)


def _earlier_round_for_from_side(claims: list[Claim], rnd: str | None, kb: KnowledgeBase) -> list[Claim]:
    prev = kb.previous_round(rnd) if rnd else None
    if prev is None:
        return claims
    by_sentence: dict[int, list[Claim]] = {}
    for c in claims:
        by_sentence.setdefault(c.sentence_index, []).append(c)
    out = []
    for c in claims:
        same = by_sentence[c.sentence_index]
        earlier = _from_side(c, same) or any(
            o.kind == "duration" and o.start < c.start and c.kind == "count" and c.start - o.end < 40
            and _from_side(o, same) for o in same)
        out.append(evolve(c, entities=evolve(c.entities, round=prev)) if earlier else c)
    return out


def reconcile_article(seg: Segmented, claims: list[Claim], official: OfficialResults, kb: KnowledgeBase,
                      settings: Settings) -> list[Claim]:
    scope = out_of_scope(seg, claims, settings)
    claims = _earlier_round_for_from_side(claims, _article_round(claims, seg.article.meta, kb), kb)
    mentions = _benchmark_mentions(seg, kb)
    ctx = ArticleContext(claims, _article_round(claims, seg.article.meta, kb), kb, official,
                         {i: tuple(dict.fromkeys(b for _, b in ms)) for i, ms in mentions.items()}, mentions)
    out: list[Claim] = []
    for i, claim in enumerate(claims):
        if i in scope:
            out.append(evolve(claim, verdict="out_of_scope", explanation=scope[i]))
            continue
        try:
            fact = resolve(claim, ctx)
        except (KeyError, ValueError, ZeroDivisionError, TypeError) as exc:
            out.append(evolve(claim, verdict="unverifiable",
                               explanation=f"The official data could not be queried for this claim ({exc})."))
            continue
        if fact is None:
            what = (claim.metric or claim.kind).replace("_", " ")
            out.append(evolve(claim, verdict="unverifiable", explanation=(
                f"No official result or primary-source statement decides this {what} claim.")))
            continue
        lang = load_language(claim.lang)
        # "up to X" states a maximum, unless the sentence says it is an average ("平均…高达2.7倍")
        maximum_cue = bool(claim.bound_cue) and claim.bound_cue.lower() in {
            m.lower() for m in lang.cues.get("maximum", ())} and not any(
            w.lower() in claim.sentence.lower() for w in lang.cues.get("average", ()))
        j = judge(claim.low, claim.high, claim.value, claim.unit, fact, claim.kind, claim.ratio_reading,
                  maximum_cue=maximum_cue, half=_half_step(claim), magnitude=_is_magnitude(claim))
        official_value = fact.value
        if isinstance(official_value, float) and not math.isnan(official_value):
            official_value = float(f"{official_value:.6g}")
        out.append(evolve(claim, verdict=j.verdict, official=official_value, evidence=tuple(fact.evidence),
                           explanation=j.explanation, distortion=j.distortion))
    return [_ratio_of_stated_times(c, out) if c.verdict == "unverifiable" and c.kind == "ratio" else c for c in out]


def _ratio_of_stated_times(claim: Claim, claims: list[Claim]) -> Claim:
    """"went from 0.85 minutes to 0.26 minutes, more than three times faster": the ratio of the two
    official times the sentence's own figures were checked against."""
    times = [c for c in claims if c.sentence_index == claim.sentence_index and c.kind == "duration"
             and isinstance(c.official, (int, float)) and c.verdict == "supported"]
    if len(times) != 2:
        return claim
    before, after = times
    if claim.metric == "speedup" and float(before.official) < float(after.official):
        # "A takes 49 minutes, B about 166, A is 2.4x faster": a speedup is the longer time over the shorter,
        # whichever the sentence gives first
        before, after = after, before
    ratio = float(before.official) / float(after.official)
    fact = Fact(round(ratio, 4), ratio, ratio, tuple(before.evidence) + tuple(after.evidence),
                f"the two times of the sentence, '{before.text}' and '{after.text}'",
                derivation=f"{float(before.official):.1f} s / {float(after.official):.1f} s = {ratio:.2f}x")
    j = judge(claim.low, claim.high, claim.value, claim.unit, fact, claim.kind, claim.ratio_reading)
    return evolve(claim, verdict=j.verdict, official=fact.value, evidence=fact.evidence, explanation=j.explanation,
                   distortion=j.distortion)
