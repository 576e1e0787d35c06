"""Verdicts for the claims of one article."""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from itertools import pairwise

from pipeline.extract.numbers import find_numbers
from pipeline.extract.quantities import skip_spaces
from pipeline.lang.loader import Language, Languages
from pipeline.link.attach import SPECIFIC, article_round, inferred
from pipeline.link.kb import KnowledgeBase
from pipeline.link.recognize import Mention, analyze, recognize
from pipeline.official.query import OfficialResults
from pipeline.reconcile.context import Lookups, Resources, baseline_span, cue_words, folded, has_cue, language_of
from pipeline.reconcile.counts import counted_metric
from pipeline.reconcile.policy import weigh
from pipeline.reconcile.resolve import ArticleContext, resolve
from pipeline.reconcile.scope import not_a_result, out_of_scope, restated
from pipeline.reconcile.stated import ratio_of_stated_figures
from pipeline.reconcile.verdicts import Fact, Judgement, as_decrease, judge
from pipeline.records import Claim, evolve, is_percent_change, percent_as_ratio, ratio_as_percent
from pipeline.segment.sentences import Segmented
from pipeline.settings import Settings


def _mentions(seg: Segmented, kb: KnowledgeBase) -> dict[int, tuple[Mention, ...]]:
    out = {}
    for s in seg.sentences:
        # same text and offset as the linker asked, so the recognizer's cache answers
        found = tuple(m for m in recognize(s.text, kb, s.start) if m.id)
        if found:
            out[s.index] = found
    return out


def _half_step(claim: Claim) -> float:
    digits = "".join(ch for ch in claim.text if ch.isdigit() or ch == ".")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return 0.5 * 10.0 ** -decimals


def _is_magnitude(claim: Claim, langs: Languages | None) -> bool:
    lang = language_of(langs, claim)
    return claim.kind == "ratio" and any(w.lower() in claim.text.lower() for w in lang.magnitude_words)


def _from_to(claim: Claim, others: list[Claim], look: Lookups) -> tuple[int, int] | None:
    """(from, to) offsets in the claim's sentence when it compares an earlier and a later figure of the
    claim's kind ("ResNet-50 went from 1.28 minutes to 0.76", "从 1.28 分钟缩短到 0.76 分钟") and the claim
    stands between them or after 'to'; None otherwise (or for a range: "sizes range from 8 to 4096")."""
    lang = language_of(look.langs, claim)
    sent = folded(claim.sentence)
    rel = claim.start - claim.sentence_start
    starts = [sent.rfind(f.lower(), 0, rel) for f in lang.cues.get("from", ())]
    f = max(starts, default=-1)
    if f < 0 or has_cue(look, claim, "range"):
        return None
    tos = [sent.find(t.lower(), f) for t in lang.cues.get("to", ())]
    t = min((x for x in tos if x > f), default=-1)
    if t < 0:
        return None
    if f < rel < t:
        # the 'to' side must hold a figure of the same kind: a comparison of two values
        later = any(o.kind == claim.kind and o.start - claim.sentence_start > t for o in others
                    if o.sentence_index == claim.sentence_index)
        return (f, t) if later else None
    if rel > t and any(o.kind == claim.kind and f < o.start - claim.sentence_start < t for o in others
                       if o.sentence_index == claim.sentence_index):
        return f, t
    return None


def _from_side(claim: Claim, others: list[Claim], look: Lookups) -> bool:
    span = _from_to(claim, others, look)
    return span is not None and span[0] < claim.start - claim.sentence_start < span[1]


def _rounds_between(claim: Claim, a: int, b: int, mentions: dict[int, tuple[Mention, ...]]) -> list[str]:
    """Rounds named between two offsets of the claim's sentence."""
    return [m.id for m in mentions.get(claim.sentence_index, ()) if m.type == "round" and m.id
            and a <= m.start - claim.sentence_start < b]


def _past_year_between(claim: Claim, a: int, b: int, look: Lookups) -> bool:
    """Whether a year before the article's is named by a relative word (去年, last year) between two offsets of
    the claim's sentence."""
    years = (language_of(look.langs, claim).dates.get("relative_years") or {})
    part = folded(claim.sentence)[a:b]
    return any(int(shift) < 0 and str(word).lower() in part for word, shift in years.items())


_BARE_NUMBER = re.compile(r"\s*\d")


def _earlier_side(claim: Claim, span: tuple[int, int] | None, same: list[Claim], look: Lookups
                  ) -> tuple[int, int] | None:
    """The offsets of a change's earlier side when the claim is its later figure: after 'to' in "from A to
    B", or between 'to' and 'from' in "fell to B from A in June" (up to the end of A's clause)."""
    rel = claim.start - claim.sentence_start
    if span is not None:
        return span if rel > span[1] else None
    lang = language_of(look.langs, claim)
    sent = folded(claim.sentence)
    tos = [sent.rfind(t.lower(), 0, rel) for t in lang.cues.get("to", ())]
    t = max(tos, default=-1)
    if t < 0 or has_cue(look, claim, "range"):
        return None
    froms = [sent.find(f.lower(), rel) for f in lang.cues.get("from", ())]
    hits = [(x, len(w)) for x, w in zip(froms, lang.cues.get("from", ()), strict=True) if x > rel]
    if not hits:
        return None
    f, n = min(hits)
    # the earlier figure: a claim of the kind, or a number whose unit the later one gives ("from 12.48 in June")
    if not (any(o.kind == claim.kind and o.start - claim.sentence_start > f for o in same)
            or _BARE_NUMBER.match(sent, f + n)):
        return None
    if any(o.kind == claim.kind and t < o.start - claim.sentence_start < rel for o in same):
        return None
    ends = [i for i in (sent.find(p, f) for p in look.kb.linking.clause_delimiters) if i > f]
    return f, min(ends, default=len(sent))


def _later_side(claim: Claim, span: tuple[int, int] | None, earlier: tuple[int, int]) -> tuple[int, int]:
    """Where a round named would date the later figure itself: between 'to' and the claim (forward), or
    between the claim and 'from' (reversed)."""
    rel = claim.start - claim.sentence_start
    return (span[1], rel) if span is not None else (rel, earlier[0])


def _dated_before(claim: Claim, earlier: tuple[int, int], same: list[Claim],
                  mentions: dict[int, tuple[Mention, ...]], look: Lookups) -> bool:
    """Whether the earlier side of a change is dated (a round, a date, last year, the previous round) by what
    gave the later figure its round."""
    a, b = earlier
    return (claim.entities.round in _rounds_between(claim, a, b, mentions)
            or any(o.kind == "date" and a < o.start - o.sentence_start < b for o in same)
            or _past_year_between(claim, a, b, look)
            or _previous_round_between(claim, a, b, look))


def _previous_round_between(claim: Claim, a: int, b: int, look: Lookups) -> bool:
    """Whether "the previous round" (上一轮) is written between two offsets of the claim's sentence."""
    cues = analyze(claim.sentence, look.kb, claim.sentence_start).cues
    return any("relative:round:previous" in c.keys and a <= c.start - claim.sentence_start < b for c in cues)


def _earlier_round_for_from_side(claims: list[Claim], rnd: str | None, kb: KnowledgeBase,
                                 mentions: dict[int, tuple[Mention, ...]], langs: Languages) -> list[Claim]:
    look = Resources(langs, kb)
    """A comparison of an earlier and a later figure: the earlier is the round its side names (首轮), else
    the round before the article's; the later one is the article's round, not one named on the earlier
    side ("参赛机构从首轮的3家增加到9家": 9 is this round's)."""
    prev = kb.previous_round(rnd) if rnd else None
    by_sentence: dict[int, list[Claim]] = {}
    for c in claims:
        by_sentence.setdefault(c.sentence_index, []).append(c)
    out = []
    for c in claims:
        same = by_sentence[c.sentence_index]
        span = _from_to(c, same, look)
        rel = c.start - c.sentence_start
        if span is not None and span[0] < rel < span[1]:
            named = _rounds_between(c, span[0], rel, mentions)
            if named:
                c = evolve(c, entities=evolve(c.entities, round=named[-1]))
            elif prev:
                c = evolve(c, entities=evolve(c.entities, round=prev))
        elif rnd and c.entities.round != rnd and (earlier := _earlier_side(c, span, same, look)) is not None \
                and _dated_before(c, earlier, same, mentions, look) \
                and not _rounds_between(c, *_later_side(c, span, earlier), mentions):
            # "from 6.3 minutes last December to 1.33 minutes", "从上一轮的64.3分钟降到了58.3分钟", "fell to 11.77
            # minutes from 12.48 in June": the date dates the earlier side only
            c = evolve(c, entities=evolve(c.entities, round=rnd))
        elif prev and c.kind == "count" and any(
                o.kind == "duration" and o.start < c.start and c.start - o.end < 40 and _from_side(o, same, look)
                for o in same):
            c = evolve(c, entities=evolve(c.entities, round=prev))
        out.append(c)
    return out


def _owning_org(claim: Claim, rnd: str | None, kb: KnowledgeBase, official: OfficialResults) -> Claim:
    """"Intel cut its GPT-3 time": a company named for the results its subsidiary entered (the KB's `parent`:
    Habana Labs is Intel's): when the named org entered nothing of the claim's chip and benchmark in the round
    and exactly one of its subsidiaries did, the results are that one's."""
    e = claim.entities
    round_ = e.round or rnd
    if not e.org or not round_ or claim.kind == "date":
        return claim
    # a parent's name for a subsidiary's results (news calls Habana's Gaudi2 results Intel's), not the reverse
    entries = [kb.get("org", o) for o in kb.related_orgs(e.org)]
    related = {x.id for x in entries if x is not None and x.attr("parent") == e.org}
    if not related or official.select(who=e.org, accelerator=e.accelerator, benchmark=e.benchmark, round=round_):
        return claim
    entered = [o for o in sorted(related)
               if official.select(who=o, accelerator=e.accelerator, benchmark=e.benchmark, round=round_)]
    return evolve(claim, entities=evolve(e, org=entered[0])) if len(entered) == 1 else claim


def _ratio_ranges(claims: list[Claim], langs: Languages | None) -> list[Claim]:
    """"快了 1.5 到 2.5 倍", "1.5 to 2.5 times faster": two ratios joined by a range word are one range (a spread
    over benchmarks or systems), so each end allows the whole of it and neither is held to a figure alone."""
    out = list(claims)
    ratios: dict[int, list[int]] = {}
    for i, c in enumerate(claims):
        if c.kind == "ratio":
            ratios.setdefault(c.sentence_index, []).append(i)
    for idx in ratios.values():
        idx.sort(key=lambda k: claims[k].start)
        for i, j in pairwise(idx):
            a, b = claims[i], claims[j]
            if a.low is None or b.high is None or not a.low < b.high:
                continue
            between = a.sentence[a.end - a.sentence_start:b.start - b.sentence_start].strip().lower()
            if between in {w.strip().lower() for w in language_of(langs, a).range_links}:
                out[i], out[j] = evolve(out[i], high=b.high), evolve(out[j], low=a.low)
    return out


def _month_round(claim: Claim, rnd: str | None, kb: KnowledgeBase, langs: Languages | None) -> Claim:
    """"1.5 times faster than its June time of 12.48 minutes", "6 月的成绩为 12.48 分钟": a month named before
    a time or a count in its clause is the round published that month (the article's year, or the year
    before for a later month), when one was."""
    if rnd is None:
        return claim
    lang = language_of(langs, claim)
    after = tuple(str(w).lower() for w in lang.dates.get("month_round") or ())
    entry = kb.get("round", rnd)
    date = str(entry.attr("date") or "") if entry is not None else ""
    if not after or len(date) < 7:
        return claim
    if claim.kind == "ratio":
        # "比 6 月快了近三倍", "1.5 times faster than in June": a month in what the ratio is compared with
        # names the baseline's round
        span = baseline_span(claim, Resources(langs, kb))
        month = _month_before(folded(claim.sentence)[span[0]:span[1]], lang, after, anywhere=True) if span else None
        found = kb.round_in_month(_month_of(date, month)) if month else None
        if not found or found == rnd:
            return claim
        comp = dict(claim.compared_to or {})
        comp["subject"] = {**(comp.get("subject") or {}), "round": (comp.get("subject") or {}).get("round") or rnd}
        comp["baseline"] = {**(comp.get("baseline") or {}), "round": found}
        return evolve(claim, compared_to=comp)
    head = folded(claim.sentence)[:claim.start - claim.sentence_start]
    start = max((head.rfind(d) + len(d) for d in kb.linking.clause_delimiters if d in head), default=0)
    month = _month_before(head[start:], lang, after)
    if month is None:
        return claim
    found = kb.round_in_month(_month_of(date, month))
    return evolve(claim, entities=evolve(claim.entities, round=found)) if found else claim


def _month_of(date: str, month: int) -> str:
    """The year-month a month named in an article of the round published on `date` means: this year's, or
    last year's for a later month."""
    year = int(date[:4]) - (1 if month > int(date[5:7]) else 0)
    return f"{year}-{month:02d}"


def _month_before(text: str, lang: Language, after: tuple[str, ...], anywhere: bool = False) -> int | None:
    """The month a clause's words name as a round before the claim ("its June time of", "6 月的成绩"): a month
    name of the language, or a number read by its numerals with its month suffix ("6 月", "六月"), followed by
    one of `after` (by anything, with `anywhere`: the baseline of a comparison is a time)."""
    if not anywhere and not any(a in text for a in after):  # most clauses name no round by its month
        return None
    months = {str(k).lower(): int(v) for k, v in (lang.dates.get("months") or {}).items()}
    for name, number in months.items():
        for m in re.finditer(rf"(?<![a-z]){re.escape(name)}(?![a-z])", text):
            if anywhere or text.startswith(after, m.end()):
                return number
    suffix = str(lang.dates.get("month_suffix") or "")
    if suffix and suffix in text:
        for n in find_numbers(text, 0, lang):
            end = skip_spaces(text, n.end, len(text))
            if (n.integer and 1 <= n.value <= 12 and text.startswith(suffix, end)
                    and (anywhere or text.startswith(after, end + len(suffix)))):
                return int(n.value)
    return None


def reconcile_article(seg: Segmented, claims: list[Claim], official: OfficialResults, kb: KnowledgeBase,
                      settings: Settings) -> list[Claim]:
    """The article's claims with their verdicts: each weighed in the article's context (its round, mentions
    and other claims), ratios last, percent changes checked as the ratios they imply."""
    # "25% faster" is checked as the ratio it implies, and reported as written
    changes = [is_percent_change(c) for c in claims]
    claims = [percent_as_ratio(c) if changes[i] else c for i, c in enumerate(claims)]
    # an entity the linker inferred (the chip an org's results were about) is shown, never a frame
    hidden = {i: inferred(c) for i, c in enumerate(claims) if inferred(c)}
    shown = {i: claims[i].entities for i in hidden}
    claims = [evolve(c, entities=replace(c.entities, **{t: None for t in hidden[i]})) if i in hidden else c
              for i, c in enumerate(claims)]
    scope = out_of_scope(seg, claims, settings)
    mentions = _mentions(seg, kb)
    named_rounds = [m.id for s in seg.sentences for m in mentions.get(s.index, ())
                    if m.type == "round" and m.how in SPECIFIC and m.id]
    rnd, certain = article_round(kb, seg.article.meta, seg.article.doc, named_rounds)
    # a month first, then the sides of a change: a month on its earlier side dates that side only
    claims = [_month_round(c, rnd, kb, seg.langs) for c in claims]
    claims = _earlier_round_for_from_side(claims, rnd, kb, mentions, seg.langs)
    claims = _ratio_ranges(claims, seg.langs)
    claims = [_owning_org(c, rnd, kb, official) for c in claims]
    named: dict[int, dict[str, tuple[str, ...]]] = {}
    for i, ms in mentions.items():
        for m in ms:
            named.setdefault(i, {}).setdefault(m.type, ())
            if m.id not in named[i][m.type]:
                named[i][m.type] += (m.id,)  # type: ignore[operator]
    bench = {i: tuple((m.start, m.id) for m in ms if m.type == "benchmark" and m.id) for i, ms in mentions.items()}
    bench = {i: b for i, b in bench.items() if b}
    ctx = ArticleContext(claims, rnd, kb, official,
                         {i: tuple(dict.fromkeys(b for _, b in ms)) for i, ms in bench.items()},
                         bench, named, {s.index: s.paragraph for s in seg.sentences}, certain,
                         {i: tuple((m.start, m.id) for m in ms if m.type == "round" and m.id)
                          for i, ms in mentions.items()}, seg.langs)
    done: dict[int, Claim] = {}
    # ratios last: a ratio may compare two times of its own sentence, written after it
    for i in sorted(range(len(claims)), key=lambda i: claims[i].kind == "ratio"):
        done[i] = _verdict(i, claims[i], claims, scope, ctx, [done[k] for k in sorted(done)])
    out = [evolve(done[i], entities=_shown(done[i], shown[i], official)) if i in shown else done[i]
           for i in range(len(claims))]
    out = [_with_framework(c, official) for c in out]
    out = [ratio_as_percent(c) if changes[i] else c for i, c in enumerate(out)]
    return [evolve(c, explanation=as_decrease(c.explanation)) if c.change == "decrease" else c for c in out]



def _records(claim: Claim, official: OfficialResults) -> list:
    out = []
    for rid in claim.evidence:
        try:
            out.append(official.record(rid))
        except (KeyError, LookupError, ValueError):
            continue
    return out


def _shown(claim: Claim, inferred_entities, official: OfficialResults):
    """The entities to show: the inferred ones back, unless the result the verdict rests on is another
    org's (an inferred topic org is no match for "Google's SSD time" that answered the claim)."""
    orgs = {r.org for r in _records(claim, official)}
    if len(orgs) == 1 and inferred_entities.org not in orgs | {None}:
        return replace(claim.entities, org=claim.entities.org or next(iter(orgs)))
    return replace(inferred_entities, **{t: v for t, v in claim.entities.as_dict().items() if v})


def _with_framework(claim: Claim, official: OfficialResults) -> Claim:
    """A result the verdict rests on names its framework where the text does not ("NVIDIA's 0.76
    minutes" ran MXNet): shown, like the other entities the words leave unsaid."""
    if claim.entities.framework or claim.verdict not in ("supported", "contradicted", "ambiguous"):
        return claim
    frameworks = {r.framework for r in _records(claim, official) if r.framework}
    if len(frameworks) != 1 or ";" in next(iter(frameworks)):
        return claim
    return evolve(claim, entities=replace(claim.entities, framework=next(iter(frameworks))))


def _verdict(i: int, claim: Claim, claims: list[Claim], scope: dict[int, str], ctx: ArticleContext,
             judged: list[Claim]) -> Claim:
    if i in scope:
        return evolve(claim, verdict="out_of_scope", explanation=scope[i])
    why_not = not_a_result(claim, ctx)
    if why_not:
        return evolve(claim, verdict="unverifiable", explanation=why_not)
    pair = restated(claim, ctx.siblings(claim), ctx) if claim.kind != "ratio" else None
    if pair is not None:
        return evolve(claim, verdict=pair[0], explanation=pair[1], official=pair[2])
    if claim.kind == "ratio":
        # "went from 0.85 minutes to 0.26 minutes, more than three times faster", "0.48 minutes, more than
        # twice as fast as the 0.82 minutes it posted last year", "4.7 times the hardware": the two times or
        # chip counts the text gives are what it compares, before any table or statement
        own = ratio_of_stated_figures(claim, judged, ctx, claims)
        if own is not claim:
            return own
    claim = counted_metric(claim, ctx)
    judge_in = functools.partial(_judge, look=ctx)
    qualified = _restricted(claim, ctx)
    if qualified is None:
        return weigh(claim, ctx, resolve, judge_in)
    done = weigh(claim, qualified, resolve, judge_in)
    if done.verdict == "contradicted":
        # "在市售类别中 ... 0.51 分钟" where 0.51 minutes is a preview result: the figure is of another
        # category or division than its words give it
        anywhere = weigh(claim, ctx, resolve, judge_in)
        if anywhere.verdict == "supported":
            where = ", ".join(ctx.name("category", q) for q in claim.qualifiers)
            done = evolve(done, distortion="mixed_categories",
                          explanation=f"It fits a result outside the {where} results its words give it "
                                      f"({anywhere.explanation.rstrip('.')}); within them: {done.explanation}")
    return done


# facts of one result, which a category or division its words name restricts (a ratio's two sides may be of
# two categories: "v0.7 Research ... 2.7倍 ... v0.6 Available", so a ratio is not restricted)
QUALIFIED_METRICS = ("train_time", "fastest_time", "chip_count", "gpu_count", "host_count")


def _restricted(claim: Claim, ctx: ArticleContext) -> ArticleContext | None:
    """The article context with only the results of the category and division the claim's words name
    (None when they name none)."""
    if claim.metric not in QUALIFIED_METRICS:
        return None  # records, submitters and suites are counted over every result of the round
    axes: dict[str, str] = {}
    for q in claim.qualifiers:
        entry = ctx.kb.get("category", q)
        axes[str(entry.attr("axis") or "category") if entry else "category"] = q
    if not axes:
        return None
    return replace(ctx, official=ctx.official.restricted(axes.get("category"), axes.get("division")), memo={})


# Counts of a whole set: in a partitive ("one of two benchmarks added this year", 八项中的六项 of a suite)
# the set's size is the figure these facts check, not the part.
WHOLE_COUNTS = ("suite_count", "new_count", "companies_count")


def _judge(claim: Claim, fact: Fact, look: Lookups) -> Judgement:
    if claim.of_total is not None and claim.metric in WHOLE_COUNTS:
        n = float(claim.of_total)
        claim = evolve(claim, value=n, low=n, high=n)
    # "up to X" states a maximum, unless the sentence says it is an average ("平均…高达2.7倍")
    cue = (claim.bound_cue or "").lower()
    lang = language_of(look.langs, claim)
    maximum_cue = bool(cue) and cue in cue_words(lang, "maximum") and not has_cue(look, claim, "average")
    emphatic = maximum_cue and cue in cue_words(lang, "emphatic")
    return judge(claim.low, claim.high, claim.value, claim.unit, fact, claim.kind, claim.ratio_reading,
                 maximum_cue=maximum_cue, half=_half_step(claim), magnitude=_is_magnitude(claim, look.langs),
                 emphatic=emphatic)
