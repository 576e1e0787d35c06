"""Which numbers are not about the story: ads, reference matter after the article, company histories,
and counts of things no benchmark result speaks to (languages, users, devices).  Words come from the
lexicons' `scope` sections; the counted kinds from settings."""

from __future__ import annotations

import re

from pipeline.lang.loader import Languages
from pipeline.reconcile.context import Lookups, cue_words, has_cue, language_of
from pipeline.reconcile.verdicts import overlaps
from pipeline.records import Claim
from pipeline.segment.sentences import Segmented
from pipeline.settings import Settings


def _markers(langs: Languages, key: str) -> tuple[str, ...]:
    out: list[str] = []
    for lang in langs:
        out.extend(lang.scope.get(key, ()))
    return tuple(out)


def reference_start(seg: Segmented) -> int | None:
    """Offset where the article's reference matter begins (a line starting 参考链接 / References)."""
    marks = _markers(seg.langs, "section_end")
    for sent in seg.sentences:
        head = seg.analysis[sent.start:sent.end].lstrip("#*-• ").strip()
        if any(head.startswith(m) for m in marks) and len(head) <= max(len(m) for m in marks) + 6:
            return sent.start
    return None


def out_of_scope(seg: Segmented, claims: list[Claim], settings: Settings) -> dict[int, str]:
    """Index of each out-of-scope claim -> the reason, in words."""
    reasons: dict[int, str] = {}
    ref = reference_start(seg)
    paragraphs: dict[int, str] = {}
    for sent in seg.sentences:
        paragraphs[sent.paragraph] = paragraphs.get(sent.paragraph, "") + seg.analysis[sent.start:sent.end]
    para_of = {s.index: s.paragraph for s in seg.sentences}
    ads = [m.lower() for m in _markers(seg.langs, "ad_markers")]
    lowered = {p: text.lower() for p, text in paragraphs.items()}
    ad_paragraphs = {p for p, low in lowered.items() if any(m in low for m in ads)}
    history = _markers(seg.langs, "history")
    subjects = _markers(seg.langs, "in_scope_subjects")
    for i, c in enumerate(claims):
        sentence = seg.analysis[c.sentence_start:c.sentence_start + len(c.sentence)]
        if ref is not None and c.start >= ref:
            reasons[i] = "It appears in the reference matter after the article (links, company boxes, glossary)."
        elif para_of.get(c.sentence_index, -1) in ad_paragraphs:
            reasons[i] = "It appears in an advertisement or promotion, not in the reporting."
        elif c.kind == "date" and any(h in sentence for h in history) and not any(s in sentence for s in subjects):
            reasons[i] = "It dates a company's founding, which is company history, not the benchmark story."
        elif c.kind == "count" and c.counted in settings.off_topic_counted:
            reasons[i] = f"It counts {c.counted}s, which no benchmark result or statement speaks to."
    return reasons


def not_a_result(claim: Claim, ctx: Lookups) -> str | None:
    """Why a figure is no MLPerf result, when its words say so: a correction's withdrawn figure, a hypothetical
    in its clause ("a farm
    of a thousand chips would take another year", 如果要……), or an opinion or estimate that its sentence
    reports before it ("analysts estimated ...", 业内人士认为……).  Dates are when something happened,
    never hypothetical."""
    if claim.kind == "date":
        return None
    if has_cue(ctx, claim, "retracted", section="scope"):
        return ("It is a figure the article itself withdraws (a correction says an earlier version stated it), not "
                "one it claims: no official figure is checked against it.")
    if has_cue(ctx, claim, "hypothetical", section="scope", clause=True):
        return ("It is a hypothetical figure (its clause says what would or could be), not a result: no "
                "official figure can confirm or contradict it.")
    if has_cue(ctx, claim, "plan", section="scope", clause=True):
        return ("It is a plan or a goal (its clause says what is to be done), not a result: no official figure "
                "can confirm or contradict it.")
    if claim.kind == "duration" and (_right_after(claim, ctx.langs, "difference_before")
                                     or _right_before(claim, ctx.langs, "difference_after")):
        return ("It is how far apart two times are (a margin or a difference), not a training time: no single "
                "official time confirms or contradicts it.")
    if claim.kind == "count" and (_right_after(claim, ctx.langs, "count_difference_before")
                                  or _says_difference(claim, ctx)):
        return ("It is how many more or fewer there are (a difference of two counts), not a count the tables "
                "hold: no single official figure confirms or contradicts it.")
    if claim.kind == "count" and (_right_after(claim, ctx.langs, "per_unit_before")
                                  or has_cue(ctx, claim, "one_unit", section="scope", clause=True)):
        return ("It is what each machine holds (a count per node or per chassis), while the official tables count "
                "a system's total: no official figure decides it.")
    if claim.kind == "count" and _rate(claim, ctx.langs):
        return ("It is a count per item (a rate, such as one result per system), while the official tables "
                "count totals: no official figure decides it.")
    if has_cue(ctx, claim, "opinion", section="scope", before_claim=True):
        return ("It is part of an opinion or an estimate its sentence reports, not a result: no official "
                "figure can confirm or contradict it.")
    return None


def _right_after(claim: Claim, langs: Languages | None, key: str) -> bool:
    """Whether the claim follows at once one of the scope's `key` words (a Latin one as a whole word)."""
    head = claim.sentence[:claim.start - claim.sentence_start].rstrip().lower()
    for word in cue_words(language_of(langs, claim), key, section="scope"):
        w = word.lower()
        if head.endswith(w) and not (w[0].isascii() and w[0].isalpha() and len(head) > len(w)
                                     and head[-len(w) - 1].isalnum()):
            return True
    return False


def _says_difference(claim: Claim, ctx: Lookups) -> bool:
    """"3,000-odd fewer GPUs", "512 more GPUs than last time": a word of difference inside the count's own
    words, not in its bound ("more than 512" is a bound)."""
    bound = set(re.findall(r"[\w-]+", (claim.bound_cue or "").lower()))
    forms = {w.lower() for w in cue_words(language_of(ctx.langs, claim), "difference_inside", section="scope")}
    return any(w in forms and w not in bound for w in re.findall(r"[\w-]+", claim.text.lower()))


def _right_before(claim: Claim, langs: Languages | None, key: str) -> bool:
    """Whether one of the scope's `key` words follows the claim at once (a Latin one as a whole word)."""
    rest = claim.sentence[claim.end - claim.sentence_start:].lstrip().lower()
    for word in cue_words(language_of(langs, claim), key, section="scope"):
        w = word.lower()
        if rest.startswith(w) and (not w[-1].isalpha() or not w.isascii() or len(rest) == len(w)
                                   or not rest[len(w)].isalpha()):
            return True
    return False


def _rate(claim: Claim, langs: Languages | None) -> bool:
    """A per-unit word right after the count ("1 result per system", "two apiece")."""
    return _right_before(claim, langs, "per_unit")


APPOSITION = {",", "，", "—", "–", "(", "（"}


def _same_figure(a: Claim, b: Claim) -> bool:
    """Two figures equal within a twentieth (an appositive restates the figure before it)."""
    if not isinstance(a.value, (int, float)) or not isinstance(b.value, (int, float)) or not a.value or not b.value:
        return False
    return abs(float(a.value) - float(b.value)) <= 0.05 * max(abs(float(a.value)), abs(float(b.value)))


def restated(claim: Claim, claims: list[Claim], ctx: Lookups) -> tuple[str, str, float | None] | None:
    """A figure that defines or restates another of its clause ("one TFLOP being 1 trillion floating-point
    operations per second"; 2.7倍，即提高了1.7倍): (verdict, explanation, the other's value), checked
    against that other figure, never against a result table.  None when the clause holds no such pair."""
    lang = language_of(ctx.langs, claim)
    words = cue_words(lang, "definition", section="scope")
    # a sentence end or a semicolon between them: two statements, not one restating the other
    stops = (*lang.terminators, *(d.strip() for d in ctx.kb.linking.segment_delimiters))
    for other in claims:
        if other is claim or other.sentence_index != claim.sentence_index:
            continue
        a, b = sorted((claim, other), key=lambda c: c.start)
        between = claim.sentence[a.end - claim.sentence_start:b.start - claim.sentence_start].lower()
        # apposition: "more than an exaflop, a billion billion operations per second" restates the figure
        # before it; a list ("8.68, 1.43") holds different figures, so only the same figure counts
        # (the same figure: a bound's open interval meets any other, "8 records, at most 1,536 GPUs")
        appositive = b is claim and between.strip() in APPOSITION and (a.kind, a.unit) == (b.kind, b.unit) and (
            _same_figure(claim, other))
        if not appositive and (len(between) > 24 or not any(w in between for w in words)
                               or any(p in between for p in stops)):
            continue
        if not isinstance(other.value, (int, float)) or not isinstance(claim.value, (int, float)):
            continue
        if (a.kind, a.unit) != (b.kind, b.unit):
            # a unit read as a plain count ("1 trillion floating-point operations per second"): the same
            # number restated is a definition; anything else is not a pair
            if overlaps(claim.low, claim.high, other.low, other.high):
                return ("supported", f"It is restated as '{other.text}', the same figure: a definition, not a "
                        "result.", float(other.value))
            continue
        if overlaps(claim.low, claim.high, other.low, other.high):
            return ("supported", f"It restates '{other.text}' of the same sentence, and the two agree.",
                    float(other.value))
        return ("contradicted", f"It restates '{other.text}' of the same sentence, but the two differ.",
                float(other.value))
    return None
