"""What a count of benchmarks, systems or results counts, and the official figure of each.

A count of benchmarks is a different fact depending on its words: the benchmarks a company entered
("results for all eight benchmarks", 只在六项中的一项提交了成绩), those where it holds the fastest result
("topped four of the six", 三项大规模第一) or the least chip-time ("eight on a per-chip basis"), the round's
suite ("three vision models"), the benchmarks new in the round (新增了两项).  `counted_metric` reads which
from the cue words of the claim's clause (then sentence); what the words leave open is weighed by the
policy as other readings.  Suites, entries, submitters and new benchmarks are facts of a round, computed
from its official table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pipeline.official.query import SINGLE_NODE_ACCELERATORS
from pipeline.reconcile.context import (
    ArticleContext,
    clause_at,
    clause_span,
    cue_before,
    cue_distance,
    has_cue,
    language_of,
    names,
    round_name,
    round_of,
)
from pipeline.reconcile.readings import CLAUSE, EARLIER, SENTENCE, level
from pipeline.reconcile.sizes import _limit, _same_clause
from pipeline.reconcile.verdicts import Fact
from pipeline.records import Claim, evolve

AREA_PREFIX = "area_"
NEW_WINDOW = 8  # characters between a count and the word that says its benchmarks are new


def counted_metric(claim: Claim, ctx: ArticleContext) -> Claim:
    """A count of benchmarks (or records) with the metric its words say it counts, and how near those
    words are in `support['metric']` (0 its clause, 1 its sentence, 3 nothing says)."""
    if claim.metric not in ("benchmarks_count", "records_count", "models_count"):
        return claim
    metric, lvl = _which(claim, ctx)
    if metric is None:
        return claim
    support = dict(claim.support or {})
    support["metric"] = (lvl, ())
    return evolve(claim, metric=metric, support=support)


def _which(claim: Claim, ctx: ArticleContext) -> tuple[str | None, int]:  # noqa: C901 - one cue list
    org = claim.entities.org or claim.entities.accelerator or claim.entities.system
    near: dict[str, Any] = {"others": tuple(ctx.siblings(claim))}  # its clause, and clauses with no claim
    if claim.metric == "models_count":
        if _areas(claim, ctx) and _limit(claim, ctx) is None:
            return "suite_count", CLAUSE
        return None, CLAUSE  # a time limit decides (models_count), or nothing does
    limit = _limit(claim, ctx)
    if limit is not None and _same_clause(claim, limit, ctx):
        return "models_count", CLAUSE  # "four of the six benchmarks in about a minute or two"
    for lvl, where in ((CLAUSE, {"clause": True}), (SENTENCE, near)):
        if lvl == SENTENCE and limit is not None:
            return "models_count", CLAUSE  # "four of the eight models were trained, each within 30 seconds"
        if has_cue(ctx, claim, "unchanged", **where) or has_cue(ctx, claim, "other", **where):
            return None, lvl  # the existing resolvers read these (benchmarks_count)
        # a sentence that counts both ways ("both at scale and per chip: eight per chip, sixteen in all")
        # fixes neither qualifier for a count whose own clause names none
        both = (lvl == SENTENCE and has_cue(ctx, claim, "per_chip", **where)
                and has_cue(ctx, claim, "at_scale", **where))
        if has_cue(ctx, claim, "single_node", **where) and claim.metric != "records_count" and not both:
            return "single_node_wins_count", lvl  # "单机测试中拿下四项第一": among one-server results
        if has_cue(ctx, claim, "per_chip", **where) and claim.metric != "records_count" and not both:
            return "per_chip_wins_count", lvl
        if claim.metric == "records_count":
            if has_cue(ctx, claim, "per_chip", **where) or has_cue(ctx, claim, "at_scale", **where):
                return "records_count", lvl
            continue
        if _near_new(claim, ctx) and not has_cue(ctx, claim, "wins", **where):
            return "new_count", CLAUSE
        if has_cue(ctx, claim, "wins", **where) or has_cue(ctx, claim, "at_scale", **where):
            if lvl == CLAUSE and not has_cue(ctx, claim, "at_scale", **where):
                # "On single-node systems, X won four": a scale its sentence sets qualifies the win
                for cue, metric in (("single_node", "single_node_wins_count"), ("per_chip", "per_chip_wins_count")):
                    if has_cue(ctx, claim, cue, **near):
                        return metric, SENTENCE
            return "wins_count", lvl
        if has_cue(ctx, claim, "submit", **where) and org:
            return "entries_count", lvl
        if _areas(claim, ctx):
            return "suite_count", CLAUSE
    if claim.metric == "records_count":
        return "records_count", EARLIER
    return (None if org else "suite_count"), EARLIER


def _near_new(claim: Claim, ctx: ArticleContext) -> bool:
    """"two new benchmarks", "新增了两项": the word for new stands right by the count; or before the list of
    the benchmarks it counts ("新增了语音识别 RNN-T 和医学影像 3D U-Net 两项基准", "added RNN-T and 3D U-Net,
    two benchmarks")."""
    d = cue_distance(ctx, claim, "new", clause=True)
    if d is not None and d <= NEW_WINDOW:
        return True
    cue_end = cue_before(ctx, claim, "new")
    return cue_end is not None and any(cue_end <= at < claim.start
                                       for at, _ in ctx.benchmark_mentions.get(claim.sentence_index, ()))


def _areas(claim: Claim, ctx: ArticleContext) -> list[str]:
    """The fields named in the claim's own words ("three vision models"): area names."""
    cues = language_of(ctx.langs, claim).cues
    low = claim.text.lower()
    return [k[len(AREA_PREFIX):] for k, words in cues.items() if k.startswith(AREA_PREFIX)
            and any(w.lower() in low for w in words)]


def _org(claim: Claim, ctx: ArticleContext) -> str | None:
    e = claim.entities
    if e.org:
        return e.org
    for etype, eid in (("system", e.system), ("accelerator", e.accelerator)):
        entry = ctx.kb.get(etype, eid) if eid else None
        if entry is not None and entry.attr("org"):
            return str(entry.attr("org"))
    return None


def wins_count(claim: Claim, ctx: ArticleContext, per_chip: bool = False, single_node: bool = False) -> Fact | None:
    """Benchmarks where the subject holds the fastest scored result of the round (closed division), the
    least chip-minutes (per chip), or the fastest time of one server (single node)."""
    org, rnd = _org(claim, ctx), round_of(claim, ctx)
    if org is None or rnd is None:
        return None
    leads = ctx.official.leads(org, rnd, per_chip=per_chip, single_node=single_node)
    if not leads.of_total:
        return None
    how = ("the least chip-minutes" if per_chip else
           f"the fastest single-node time (one server, up to {SINGLE_NODE_ACCELERATORS} accelerators)"
           if single_node else "the fastest time")
    label = (f"the {round_name(ctx.kb, rnd)} benchmarks where {ctx.name('org', org)} has {how} in the closed "
             f"division ({names(ctx.kb, 'benchmark', leads.benchmarks)}, of {leads.of_total})")
    # missing logs leave a win count open, but only as far as they could change it, and never above the
    # benchmarks the company entered
    entered = len({r.benchmark for r in ctx.official.select(who=org, round=rnd)})
    lo, hi = leads.possible
    if has_cue(ctx, claim, "not_won", clause=True):
        # "the one benchmark NVIDIA did not win": the rest of the suite
        rest = leads.of_total - leads.count
        return Fact(rest, rest, rest, leads.evidence,
                    f"the {round_name(ctx.kb, rnd)} benchmarks where {ctx.name('org', org)} does not have {how} "
                    f"in the closed division: {leads.of_total} less the {leads.count} it leads "
                    f"({names(ctx.kb, 'benchmark', leads.benchmarks)})", complete=not leads.uncertain)
    named = _listed_before(claim, ctx)
    if len(named) >= 2 and claim.value == len(named):
        # "还拿下了GNMT和Mask R-CNN两项": the count totals the benchmarks it lists, not all the company won
        won = [b for b in named if b in leads.benchmarks]
        return Fact(len(won), len(won), len(won), leads.evidence,
                    f"the benchmarks it names ({names(ctx.kb, 'benchmark', named)}) where {ctx.name('org', org)} "
                    f"has {how} in the closed division of {round_name(ctx.kb, rnd)} "
                    f"({names(ctx.kb, 'benchmark', won) if won else 'none'})", complete=not leads.uncertain)
    beyond = claim.low is not None and claim.low > min(hi, entered) or claim.high is not None and claim.high < lo
    if claim.low is not None and claim.low > entered:
        label += f"; it entered {entered}"
    elif beyond and leads.uncertain:
        label += f"; with the missing logs, {lo}-{hi}"
    return Fact(leads.count, leads.count, leads.count, leads.evidence, label, complete=beyond or not leads.uncertain)


def _listed_before(claim: Claim, ctx: ArticleContext) -> list[str]:
    """The benchmarks named in the claim's clause before it, in order, each once ("GNMT和Mask R-CNN两项"); for a
    count that opens its clause, the clause before ("won GNMT and Mask R-CNN, two of the six")."""
    a, _ = clause_span(claim, ctx.kb)
    rel = claim.start - claim.sentence_start
    if not claim.sentence[a:rel].strip(" ,，、") or claim.sentence[a:rel].strip().lower() in ctx.kb.linking.appositive:
        a, _ = clause_at(ctx.kb, claim.sentence, max(0, a - 2))
    start = claim.sentence_start + a
    return list(dict.fromkeys(b for at, b in ctx.benchmark_mentions.get(claim.sentence_index, ())
                              if start <= at < claim.start))


def per_chip_wins_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """Benchmarks where the subject holds the least chip-minutes of the round (see `wins_count`)."""
    return wins_count(claim, ctx, per_chip=True)


def single_node_wins_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """Benchmarks where the subject holds the fastest single-node time of the round (see `wins_count`)."""
    return wins_count(claim, ctx, single_node=True)


def entries_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """Benchmarks the subject entered in the round: in the closed division, or in any division."""
    org, rnd = _org(claim, ctx), round_of(claim, ctx)
    if org is None or rnd is None:
        return None
    rows = [r for r in ctx.official.select(who=org, round=rnd, accelerator=claim.entities.accelerator)]
    if not rows:
        return None
    closed = sorted({r.benchmark for r in rows if r.division == "closed"})
    every = sorted({r.benchmark for r in rows})
    lo, hi = sorted((len(closed), len(every)))
    label = (f"the benchmarks {ctx.name('org', org)} entered in {round_name(ctx.kb, rnd)} "
             f"({names(ctx.kb, 'benchmark', closed or every)})")
    if closed != every:
        label += f" (closed division; {len(every)} in all divisions)"
    return Fact(len(closed or every), lo, hi, tuple(r.record_id for r in rows[:8]), label)


def suite_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The round's benchmarks, limited to the fields its words name ("three vision models"): a field word
    read narrowly or broadly ("language model": BERT alone, or with translation and speech) gives a range."""
    rnd = round_of(claim, ctx)
    if rnd is None:
        return None
    benches = suite(ctx, rnd)
    if not benches:
        return None
    areas = _areas(claim, ctx)
    if not areas:
        n = len(benches)
        return Fact(n, n, n, (rnd,),
                    f"the benchmarks of {round_name(ctx.kb, rnd)} ({names(ctx.kb, 'benchmark', benches)})")
    counts = {}
    for area in areas:
        counts[area] = tuple(b for b in benches if area in (_area_of(ctx, b)))
    lo, hi = min(len(v) for v in counts.values()), max(len(v) for v in counts.values())
    shown = "; ".join(f"{a}: {names(ctx.kb, 'benchmark', v)}" for a, v in counts.items())
    value = len(next(iter(counts.values())))
    return Fact(value, lo, hi, (rnd,), f"the benchmarks of {round_name(ctx.kb, rnd)} by field ({shown})")


def suite(ctx: ArticleContext, rnd: str) -> tuple[str, ...]:
    """The benchmarks of a round: those with a closed-division entry, scored or not (v0.5's Mask R-CNN and
    MiniGo entries have no score in the snapshot; v0.6 ran no NCF)."""
    return tuple(sorted({r.benchmark for r in ctx.official.select(round=rnd, division="closed")}))


def _area_of(ctx: ArticleContext, bench: str) -> tuple[str, ...]:
    entry = ctx.kb.get("benchmark", bench)
    area = entry.attrs.get("area") if entry is not None else None
    return tuple(area or ())


def new_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """Benchmarks of the round that the round before did not run."""
    rnd = round_of(claim, ctx)
    prev = ctx.kb.previous_round(rnd)
    if rnd is None or prev is None:
        return None
    now, before = suite(ctx, rnd), set(suite(ctx, prev))
    new = [b for b in now if b not in before]
    return Fact(len(new), len(new), len(new), (rnd, prev),
                f"the benchmarks new in {round_name(ctx.kb, rnd)} ({names(ctx.kb, 'benchmark', new)})")


def size_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"Google ran its entries on six sizes of pod slice": the distinct system sizes (chips) the subject
    entered in the round (on the benchmark, if named)."""
    e = claim.entities
    org, rnd = _org(claim, ctx), round_of(claim, ctx)
    if rnd is None or (org is None and e.accelerator is None):
        return None
    rows = ctx.official.select(who=org, accelerator=e.accelerator, round=rnd, benchmark=e.benchmark)
    rows = [r for r in rows if r.division == "closed"] or rows
    sizes = sorted({r.accelerator_count for r in rows if r.accelerator_count})
    if not sizes:
        return None
    who = ctx.name("org", org) if org else ctx.name("accelerator", e.accelerator)
    label = (f"the system sizes {who} entered in {round_name(ctx.kb, rnd)}"
             f"{' on ' + e.benchmark if e.benchmark else ''} ({', '.join(map(str, sizes))} chips)")
    return Fact(len(sizes), len(sizes), len(sizes), tuple(r.record_id for r in rows[:8]), label)


def system_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """Systems the subject ran in the round (on the benchmark, if named): as entries name them (a TF and
    a JAX entry of one machine are two) or by size (one machine), whichever the words mean."""
    e = claim.entities
    org, rnd = _org(claim, ctx), round_of(claim, ctx)
    if rnd is None or (org is None and e.accelerator is None):
        return None
    entry = ctx.kb.get("system", e.system) if e.system else None
    if entry is not None and entry.attr("chips") and not entry.attrs.get("rounds"):
        return _nodes(claim, ctx, org, entry, rnd)
    rows = ctx.official.select(who=org, accelerator=e.accelerator, round=rnd, benchmark=e.benchmark)
    rows = [r for r in rows if r.division == "closed"] or rows
    if not rows:
        return None
    names = sorted({r.system for r in rows})
    sizes = sorted({r.accelerator_count for r in rows if r.accelerator_count})
    lo, hi = sorted((len(names), len(sizes) or len(names)))
    label = (f"the systems of {ctx.name('org', org) if org else ctx.name('accelerator', e.accelerator)} in "
             f"{round_name(ctx.kb, rnd)}"
             f"{' on ' + e.benchmark if e.benchmark else ''}: {', '.join(names)} ({len(sizes)} sizes)")
    return Fact(len(names), lo, hi, tuple(r.record_id for r in rows[:8]), label)


def _nodes(claim: Claim, ctx: ArticleContext, org: str | None, product, rnd: str) -> Fact | None:
    """"14 DGX A100 systems": machines of one product joined in a cluster are its nodes (hosts)."""
    acc = product.attr("accelerator")
    per_node = int(product.attr("chips"))
    rows = [r for r in ctx.official.select(who=org, accelerator=acc, round=rnd, benchmark=claim.entities.benchmark)
            if r.accelerator_count and r.accelerator_count % per_node == 0]
    if not rows:
        return None
    nodes = sorted({r.accelerator_count // per_node for r in rows if r.accelerator_count})
    target = float(claim.value) if isinstance(claim.value, (int, float)) else nodes[-1]
    pick = min(nodes, key=lambda n: abs(n - target))
    on = f" on {ctx.name('benchmark', claim.entities.benchmark)}" if claim.entities.benchmark else ""
    label = (f"the {ctx.name('system', product.id)} nodes of {ctx.name('org', org) + chr(39) + 's' if org else 'the'} "
             f"{round_name(ctx.kb, rnd)} systems{on} ({', '.join(map(str, nodes))})")
    evidence = tuple(r.record_id for r in rows if r.accelerator_count == pick * per_node)[:6]
    return Fact(pick, pick, pick, evidence, label)


def submissions_of(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """Results a company submitted in the round: closed division, or all divisions.  A benchmark narrows them
    only when the claim's sentence names it ("英伟达本轮共提交了44项成绩" after a paragraph on BERT is all of
    NVIDIA's results); a sentence that also counts the submitters is about the round's results, not those of
    a company carried from before ("The round drew more than 200 results from 18 submitters")."""
    org, rnd = _org(claim, ctx), round_of(claim, ctx)
    if org is None or rnd is None:
        return None
    if level(claim, "org") > SENTENCE and any(c.metric == "companies_count" for c in ctx.siblings(claim)):
        return None
    if level(claim, "org") >= SENTENCE and has_cue(ctx, claim, "all_submitters", clause=True):
        # "本轮参赛厂商共提交了154项成绩，英伟达……": the submitters as a group are its subject, not the company
        # named in the next clause
        return None
    bench = claim.entities.benchmark if level(claim, "benchmark") <= SENTENCE else None
    rows = ctx.official.select(who=org, round=rnd, benchmark=bench)
    if not rows:
        return None
    closed = [r for r in rows if r.division == "closed"]
    lo, hi = sorted((len(closed), len(rows)))
    label = (f"the results {ctx.name('org', org)} submitted to {round_name(ctx.kb, rnd)} ({len(closed)} in the closed "
             f"division, {len(rows)} in all)")
    fact = Fact(len(closed or rows), lo, hi, tuple(r.record_id for r in rows[:8]), label)
    if level(claim, "org") > SENTENCE:
        # a company carried from an earlier sentence may not be whose results these are ("Llama 3.1 8B was the
        # most popular new test, with 39 results"): borne out when they fit, never refuted
        return replace(fact, complete=False, open_why="its sentence does not say whose results they are")
    return fact
