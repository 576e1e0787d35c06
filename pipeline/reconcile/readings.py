"""What a claim may be about: its frame as the article's words give it, and the other plausible readings.

A claim's frame is its round, its subject (org, accelerator, system), its benchmark and its metric (what
is measured or counted).  The linker says how near the claim each part was written (`Claim.support`:
0 its clause, 1 its sentence, 2-3 carried from earlier sentences, 4 the article's default) and which other
ids of the same type its sentence names (rivals).  A part is *fixed* when the claim's own words, or an
unambiguous context, give it; otherwise the other plausible values are readings to weigh:

- round: a round its sentence names, a past cue before it ("last year", 此前, "in the first round"), a
  year written in the sentence, a round named elsewhere in its paragraph, the article's round;
- subject: another org its sentence names, any submitter (the words name nobody in particular), and for
  a count of chips named by their maker ("Nvidia submitted from 4 GPUs ...") systems with that maker's
  chips from any submitter;
- metric: for a count of chips written next to a pod, the pod's size (a product spec, not a system that
  ran); for a count of benchmarks, the other things such a count can count (entries, wins, the suite).

Each reading carries its support (how near its words are, lower is nearer) and why it was considered;
`pipeline.reconcile.policy` weighs their verdicts.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from pipeline.reconcile.context import ArticleContext, has_cue, possessive, sentence_before
from pipeline.reconcile.statements import STATED, stated_ratios
from pipeline.records import Claim, Entities, evolve

CLAUSE, SENTENCE, PREVIOUS, EARLIER, ARTICLE, NONE = 0, 1, 2, 3, 4, 9
LEVEL_NAMES = {CLAUSE: "clause", SENTENCE: "sentence", PREVIOUS: "previous sentence", EARLIER: "earlier",
               ARTICLE: "article", NONE: "none"}
SUBJECT = ("org", "accelerator", "system")
# The parts of the frame a metric's question needs before a mismatch can be called a contradiction.
NEEDS: dict[str, tuple[str, ...]] = {
    "train_time": ("round", "subject", "benchmark"),
    "chip_count": ("round", "subject"),
    "gpu_count": ("round", "subject"),
    "host_count": ("round", "subject"),
    "system_count": ("round", "subject"),
    "records_count": ("round", "subject"),
    "models_count": ("round", "subject"),
    "entries_count": ("round", "subject"),
    "wins_count": ("round", "subject"),
    "per_chip_wins_count": ("round", "subject"),
    "single_node_wins_count": ("round", "subject"),
    "submissions_count": ("round",),
    "suite_count": ("round",),
    "new_count": ("round",),
    "companies_count": ("round",),
    "date": (),  # a date is checked against the dated event, whatever the round
    "quality_target": ("round", "benchmark"),
}
# Metrics whose figure is a count of benchmarks, and what else such a count can count.
BENCHMARK_COUNTS = ("wins_count", "per_chip_wins_count", "single_node_wins_count", "entries_count", "records_count",
                    "suite_count", "new_count", "models_count")
CHIP_COUNTS = ("chip_count", "gpu_count")
ROUND_WIDE = ("submissions_count", "companies_count")


@dataclass(frozen=True, init=False)
class Reading:
    """One way to read what a claim is about."""

    entities: Entities
    metric: str | None
    support: int  # how near the claim the words for it are (see the module docstring); lower is nearer
    why: str  # how this reading came about, in words ("the round its paragraph names")

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, entities: Entities, metric: str | None, support: int, why: str) -> None:
        object.__setattr__(self, "entities", entities)
        object.__setattr__(self, "metric", metric)
        object.__setattr__(self, "support", support)
        object.__setattr__(self, "why", why)

    def apply(self, claim: Claim) -> Claim:
        """The claim read this way: with this reading's entities and metric."""
        return evolve(claim, entities=self.entities, metric=self.metric)


def level(claim: Claim, etype: str) -> int:
    """How near the claim the words for that part of its frame are (`metric`: what a count counts)."""
    if etype == "metric":
        return (claim.support or {}).get("metric", (CLAUSE, ()))[0]
    return (claim.support or {}).get(etype, (NONE, ()))[0] if claim.support else _level_without_support(claim, etype)


def rivals(claim: Claim, etype: str) -> tuple[str, ...]:
    """The other ids of that type the claim's sentence names (from its support)."""
    return tuple((claim.support or {}).get(etype, (NONE, ()))[1])


def _level_without_support(claim: Claim, etype: str) -> int:
    # claims linked before support was recorded (or built by hand): what they name counts as written
    return CLAUSE if getattr(claim.entities, etype) else NONE


def subject_level(claim: Claim) -> int:
    """How near the claim its subject is written: the nearest of its org, accelerator and system."""
    return min(level(claim, t) for t in SUBJECT)


def primary(claim: Claim) -> Reading:
    """The claim as its words give it, with the support of the furthest part it names (the article's if none)."""
    named = [level(claim, t) for t in ("round", *SUBJECT, "benchmark") if getattr(claim.entities, t)]
    return Reading(claim.entities, claim.metric, max(named, default=ARTICLE), "as the article's words give it")


# -- what is fixed --------------------------------------------------------------------------------

def round_fixed(claim: Claim, ctx: ArticleContext) -> bool:
    """The claim's words name its round (and no other), or it takes the article's round in an article
    that is about one round, with nothing in its sentence or paragraph pointing to another time."""
    lvl = level(claim, "round")
    if lvl <= SENTENCE and len(_last_year(claim, ctx)) > 1:
        return False  # "去年的64.3分钟": a year of two rounds names neither alone
    if lvl == CLAUSE and not rivals(claim, "round"):
        return True
    if lvl == SENTENCE and not rivals(claim, "round"):
        # written in another clause: its own when the article is about that round too, or about none, or
        # when it opens the sentence as its time ("两年前的首轮，谷歌……"), not as a likeness ("As in the
        # inaugural round, ...: Intel entered one of six")
        return claim.entities.round == ctx.round or ctx.round is None or ctx.opens_sentence(claim)
    if claim.kind == "ratio" and ((claim.compared_to or {}).get("baseline") or {}).get("round") \
            and claim.entities.round == ctx.round and lvl >= ARTICLE:
        return True  # "13 times faster than a year earlier": now against then
    if lvl == ARTICLE and claim.entities.round == ctx.round:
        if list(_other_rounds(claim, ctx)):
            return False
        # an article that names several rounds: its round is still this claim's when the claim's
        # paragraph names it, or its sentence says "this round" (本轮)
        return ctx.round_certain or ctx.round in ctx.paragraph_rounds(claim) or sentence_before(
            claim, ctx, "relative_current", whole=True)
    return False


def subject_fixed(claim: Claim) -> bool:
    """Whether the claim's words fix its subject: named in its clause, or no further back than the previous
    sentence with no other subject named beside it."""
    lvl = subject_level(claim)
    if lvl == CLAUSE:
        return True
    others = rivals(claim, "org") + rivals(claim, "accelerator") + rivals(claim, "system")
    return lvl <= PREVIOUS and not others


def benchmark_fixed(claim: Claim) -> bool:
    """Whether the claim's words fix its benchmark: named in its clause, or in its sentence with no other."""
    lvl = level(claim, "benchmark")
    return lvl == CLAUSE or (lvl <= SENTENCE and not rivals(claim, "benchmark"))


def needs(claim: Claim) -> tuple[str, ...]:
    """The parts of the frame the claim's metric needs fixed before a mismatch can be called a contradiction."""
    metric = claim.metric or ""
    if metric in NEEDS:
        parts = NEEDS[metric]
    else:
        parts = ("round", "subject") if any(getattr(claim.entities, t) for t in SUBJECT) else ("round",)
    if claim.entities.benchmark and level(claim, "benchmark") == ARTICLE and "benchmark" not in parts:
        # a benchmark the claim's paragraph leaves unsaid, taken from what the story or its section is about
        # (the linker's topic): enough to find the result that fits, never to call one that does not
        parts = (*parts, "benchmark")
    return parts


def determined(claim: Claim, ctx: ArticleContext) -> tuple[bool, str]:
    """Whether the frame the question needs is fixed by the claim's words; if not, which part is open."""
    if claim.kind == "count" and (claim.support or {}).get("counted", (0,))[0] >= 1:
        return False, "noun (what it counts is left unsaid)"  # "three of them", "sixteen in all"
    for part in needs(claim):
        if part == "round" and not round_fixed(claim, ctx):
            return False, "round"
        if part == "subject" and not subject_fixed(claim):
            return False, "subject"
        if part == "benchmark" and not benchmark_fixed(claim):
            return False, "benchmark"
    return True, ""


# -- the other readings ---------------------------------------------------------------------------

def _other_rounds(claim: Claim, ctx: ArticleContext) -> Iterator[tuple[str, int, str]]:
    """(round, support, why) of the other times the claim's surroundings point to."""
    rnd = claim.entities.round
    # a ratio's baseline round ("比去年快了三倍") is the far side of its comparison, not another reading
    base = ((claim.compared_to or {}).get("baseline") or {}).get("round")
    for rid, support, why in _rounds_near(claim, ctx):
        if rid not in (rnd, base):
            yield rid, support, why


def _rounds_near(claim: Claim, ctx: ArticleContext) -> Iterator[tuple[str, int, str]]:
    key = (claim.start, claim.end, claim.entities.round)
    memo = ctx.memo.setdefault("rounds_near", {})
    if key not in memo:
        memo[key] = tuple(_find_rounds_near(claim, ctx))
    return iter(memo[key])


def _last_year(claim: Claim, ctx: ArticleContext) -> list[str]:
    """The rounds of the year before the article's, when the claim's clause says "last year" (去年) and its
    round is one of them."""
    if claim.entities.round is None or not has_cue(ctx, claim, "last_year", clause=True):
        return []
    rounds = ctx.kb.rounds_of_year_before(ctx.round)
    return rounds if claim.entities.round in rounds else []


def _find_rounds_near(claim: Claim, ctx: ArticleContext) -> Iterator[tuple[str, int, str]]:
    rnd = claim.entities.round
    for rid in _last_year(claim, ctx):
        yield rid, CLAUSE, "a round of last year, as its clause says"
    for rid in rivals(claim, "round"):
        yield rid, SENTENCE, "the other round its sentence names"
    if (has_cue(ctx, claim, "past", section="scope", before_claim=True)
            or sentence_before(claim, ctx, "relative_previous")):
        prev = ctx.kb.previous_round(rnd or ctx.round)
        if prev:
            yield prev, SENTENCE, "the round before, as its sentence looks back"
    for c in ctx.siblings(claim):
        if c.kind == "date" and isinstance(c.value, str) and c.start < claim.start:
            year_round = ctx.kb.round_in_month(c.value[:7]) or ctx.kb.round_in_month(c.value[:4], after=ctx.round)
            if year_round:
                yield year_round, SENTENCE, f"the round of '{c.text}'"
    for rid in ctx.paragraph_rounds(claim):
        yield rid, EARLIER, "a round its paragraph names"
    if ctx.round and rnd != ctx.round:
        yield ctx.round, ARTICLE, "the article's round"


def round_readings(claim: Claim, ctx: ArticleContext) -> list[tuple[str, int, str]]:
    """The other rounds the claim may be about, each once: (round, support, why)."""
    seen = {claim.entities.round}
    out = []
    for rid, support, why in _other_rounds(claim, ctx):
        if rid not in seen:
            seen.add(rid)
            out.append((rid, support, why))
    return out


def subject_readings(claim: Claim, ctx: ArticleContext) -> list[tuple[Entities, int, str]]:
    """The other subjects the claim may be about: another org or accelerator its sentence names, or any
    submitter: (entities, support, why)."""
    e = claim.entities
    out: list[tuple[Entities, int, str]] = []
    for org in rivals(claim, "org"):
        out.append((evolve(e, org=org, accelerator=None, system=None), SENTENCE, f"{ctx.name('org', org)}, "
                    "also named in its sentence"))
    for acc in rivals(claim, "accelerator"):
        maker = ctx.kb.get("accelerator", acc)
        out.append((evolve(e, accelerator=acc, system=None, org=maker.attr("org") if maker else None), SENTENCE,
                    f"{ctx.name('accelerator', acc)}, also named in its sentence"))
    lvl = subject_level(claim)
    if any(getattr(e, t) for t in SUBJECT):
        out.append((evolve(e, org=None, accelerator=None, system=None), max(lvl, SENTENCE),
                    "any submitter: its words name nobody in particular"))
    return out


def round_wide_readings(claim: Claim) -> list[tuple[Entities, int, str]]:
    """Results and submitters are counted for a round as often as for a company ("the round drew more than
    650 results, and NVIDIA ..."): unless the company is named in the count's own clause."""
    e = claim.entities
    if claim.metric not in ROUND_WIDE or subject_level(claim) == CLAUSE or not any(getattr(e, t) for t in SUBJECT):
        return []
    return [(evolve(e, org=None, accelerator=None, system=None), SENTENCE, "the whole round")]


def maker_readings(claim: Claim, ctx: ArticleContext) -> list[tuple[Entities, int, str]]:
    """A chip maker named as the subject of a count of chips may stand for its chips, in systems of any
    submitter ("Nvidia ... from 4 GPUs all the way up to 4096": partners' servers included)."""
    e = claim.entities
    if claim.metric not in CHIP_COUNTS or not e.org or e.system:
        return []
    rnd = e.round or ctx.round
    chips = [e.accelerator] if e.accelerator else ctx.accelerators_of(e.org, rnd)
    return [(evolve(e, org=None, accelerator=acc), level(claim, "org"),
             f"systems with {possessive(ctx.name('org', e.org))} {ctx.name('accelerator', acc)} from any submitter")
            for acc in chips if acc and ctx.kb.get("accelerator", acc) is not None
            and ctx.kb.get("accelerator", acc).attr("org") == e.org]  # type: ignore[union-attr]


def metric_readings(claim: Claim, ctx: ArticleContext, base: int) -> list[tuple[str, int, str]]:
    """The other metrics the claim may be about: a pod's size or share, a company's own stated figure, what
    else a count of benchmarks counts: (metric, support, why); `base` is the first reading's support."""
    out: list[tuple[str, int, str]] = []
    sibs = tuple(ctx.siblings(claim))
    if claim.metric in CHIP_COUNTS and has_cue(ctx, claim, "pod", section="scope", others=sibs):
        near = CLAUSE if has_cue(ctx, claim, "pod", section="scope", clause=True) else SENTENCE
        out.append(("pod_chips", near, "the size of a pod, which its sentence names: a product spec"))
    if claim.kind == "percent" and has_cue(ctx, claim, "pod", section="scope", clause=True):
        out.append(("pod_share", CLAUSE, "the share of a pod that the chips its text gives make up"))
    if claim.kind in ("ratio", "compute"):
        # what the companies themselves said: a story may repeat a vendor's ratio or spec the tables cannot
        # give; a statement of the very number written is the one it repeats, others are further readings
        for st in stated_ratios(claim, ctx):
            who = ", ".join(ctx.name("org", o) for o in st.entity_values("org")) or "MLCommons"
            same = isinstance(claim.value, (int, float)) and math.isclose(float(st.value), float(claim.value),
                                                                            rel_tol=0.05)
            # said by whom and when (the statement's text follows in the explanation), not by its table id
            when = f" of {st.source_date[:7]}" if st.source_date else ""
            out.append((f"{STATED}{st.id}", base if same else base + 1, f"{possessive(who)} own figure{when}"))
    if claim.metric in BENCHMARK_COUNTS:
        said = level(claim, "metric")
        if claim.metric in ("wins_count", "per_chip_wins_count", "single_node_wins_count"):
            # a company counts its own records its own way (categories, per chip, at scale)
            out.append(("records_count", said, "the company's own count of its records"))
        if said > SENTENCE:
            for metric in BENCHMARK_COUNTS:
                if metric != claim.metric:
                    out.append((metric, EARLIER, _COUNTS_WHY.get(metric, "another thing the count may count")))
    return out


_COUNTS_WHY = {
    "wins_count": "the benchmarks it won (fastest time)",
    "per_chip_wins_count": "the benchmarks it won per chip",
    "single_node_wins_count": "the benchmarks it won among single-node results",
    "entries_count": "the benchmarks it entered",
    "records_count": "the records it claims",
    "suite_count": "the benchmarks of the round",
    "new_count": "the benchmarks new in the round",
    "models_count": "the benchmarks trained within the time its sentence gives",
}


def alternatives(claim: Claim, ctx: ArticleContext, base: int | None = None) -> list[Reading]:
    """The other plausible readings of a claim: one part of its frame changed at a time (and the open
    round with each open subject), the fixed parts never.  `base`: the support of its first reading."""
    out: list[Reading] = []
    e = claim.entities
    base = primary(claim).support if base is None else base
    rounds = [] if round_fixed(claim, ctx) else round_readings(claim, ctx)
    subjects = [] if subject_fixed(claim) else subject_readings(claim, ctx)
    for rid, support, why in rounds:
        out.append(Reading(evolve(e, round=rid), claim.metric, support, why))
    for ents, support, why in subjects + maker_readings(claim, ctx) + round_wide_readings(claim):
        out.append(Reading(ents, claim.metric, support, why))
        for rid, rsupport, rwhy in rounds:
            out.append(Reading(evolve(ents, round=rid), claim.metric, max(support, rsupport), f"{why}; {rwhy}"))
    if claim.metric == "train_time" and e.benchmark and has_cue(ctx, claim, "fastest", clause=True):
        # "首轮最快成绩为6.24分钟": the round's fastest, of anyone unless the clause says whose
        whose = e if subject_level(claim) == CLAUSE else evolve(e, org=None, accelerator=None, system=None)
        out.append(Reading(whose, "fastest_time", CLAUSE, "the fastest result of the round, as its clause says"))
        for rid, rsupport, rwhy in rounds:
            out.append(Reading(evolve(whose, round=rid), "fastest_time", rsupport, f"the fastest result; {rwhy}"))
    for metric, support, why in metric_readings(claim, ctx, base):
        out.append(Reading(e, metric, min(support, base) if support == CLAUSE else support, why))
        for rid, rsupport, rwhy in rounds:
            out.append(Reading(evolve(e, round=rid), metric, max(support, rsupport), f"{why}; {rwhy}"))
    seen: set[tuple[Entities, str | None]] = {(e, claim.metric)}
    unique = []
    for r in out:
        if (r.entities, r.metric) not in seen:
            seen.add((r.entities, r.metric))
            unique.append(r)
    return unique


