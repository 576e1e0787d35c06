"""System sizes and counts of benchmarks, models, submitters and runs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pipeline.reconcile.context import (
    ArticleContext,
    cue_words,
    folded,
    has_cue,
    label_of,
    language_of,
    names,
    org_of,
    possessive,
    round_name,
    round_of,
    system_chips,
)
from pipeline.reconcile.statements import records_count, statement_fact
from pipeline.reconcile.verdicts import Fact, fmt, overlaps
from pipeline.records import Claim


# -- sizes ---------------------------------------------------------------------------------------
def chip_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The chip count in the round that fits the claim: a named system's one size, the size of the result
    with the time its clause gives, else the largest, smallest or nearest size of the subject's systems."""
    e = claim.entities
    rnd = round_of(claim, ctx)
    if rnd is None or (e.accelerator is None and e.org is None and not _any_submitter(claim)):
        return None
    scale = _comparison_scale(claim, ctx)
    if scale is not None:
        return scale
    entry = ctx.kb.get("system", e.system) if e.system else None
    rounds = [rnd]
    if entry is not None and entry.attr("chips") and entry.attr("rounds"):
        rounds = list(entry.attr("rounds"))  # the Cloud TPU v3 Pod of v0.6 is named in a v0.7 story
    if entry is not None and entry.attr("chips", rnd) and not e.benchmark and claim.bound == "exact" and not (
            _many_units(entry, claim, rnd)) and not _timed(claim, ctx):
        # "last year's 256-chip Pod", "a DGX A100's eight GPUs": a named system has one size; the table
        # must show a system of that size in the system's rounds
        size = int(entry.attr("chips", rnd))
        acc = e.accelerator or entry.attr("accelerator")
        # a named machine's results are its owner's (Eos is NVIDIA's, whoever else entered the H100 that round)
        org = entry.attr("org") if entry.attr("rounds") and entry.attr("org") else (e.org or entry.attr("org"))
        recs = [r.record_id for x in rounds for r in ctx.official.select(who=org, accelerator=acc, round=x)
                if r.accelerator_count == size]
        if recs:
            return Fact(size, size, size, tuple(recs[:6]), f"{ctx.name('system', e.system)} ({size:,} "
                        f"{ctx.name('accelerator', acc)} chips in {round_name(ctx.kb, '/'.join(rounds))})",
                        maximum=size)
    rows = [r for x in rounds for r in ctx.official.select(who=e.org, accelerator=e.accelerator, round=x,
                                                           benchmark=e.benchmark) if r.accelerator_count]
    timed = _with_its_time(claim, ctx, rows)
    if timed is not None:
        return timed
    if not rows and e.benchmark:
        rows = [r for x in rounds for r in ctx.official.select(who=e.org, accelerator=e.accelerator, round=x)
                if r.accelerator_count]
    if not rows and e.org:
        rows = [r for r in ctx.official.select(accelerator=e.accelerator, round=rnd) if r.accelerator_count]
    if not rows:
        return _largest_stated(claim, ctx)
    sizes = sorted({r.accelerator_count for r in rows if r.accelerator_count})
    top = sizes[-1]
    label = label_of(ctx.kb, acc=e.accelerator, org=e.org, benchmark=e.benchmark, round="/".join(rounds))
    if claim.bound == "lower" or claim.bound == "upper":
        # "more than N" and "up to N" are about the largest system, "under N" about the smallest
        maximum = (claim.bound_cue or "").lower() in cue_words(language_of(ctx.langs, claim), "maximum")
        pick = top if claim.bound == "lower" or maximum else sizes[0]
    else:
        inside = [s for s in sizes if (claim.low is None or s >= claim.low) and (claim.high is None or s <= claim.high)]
        target = float(claim.value) if isinstance(claim.value, (int, float)) else top
        pick = inside[0] if inside else min(sizes, key=lambda s: abs(s - target))
    evidence = tuple(r.record_id for r in rows if r.accelerator_count == pick)[:6]
    # a v0.5 cluster description may give more chips than a run used: a smaller count may be that run's
    bigger = [r for r in rows if r.size_uncertain and isinstance(claim.value, (int, float))
              and claim.value < (r.accelerator_count or 0)]
    if bigger and isinstance(claim.value, (int, float)) and claim.value not in sizes:
        return Fact(pick, pick, pick, evidence, f"{label} (sizes {_sizes_text(sizes)})", maximum=top,
                    complete=False, open_why=f"the system description gives {bigger[0].accelerator_count:,} chips "
                    "for runs that may have used fewer")
    return Fact(pick, pick, pick, evidence, f"{label} (sizes {_sizes_text(sizes)})", maximum=top)


def _comparison_scale(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"TPU v4 was 2.7 times faster than TPU v3 at 64 chips": a count after a ratio of two chips, in its clause,
    is the scale of the comparison, so both sides must have results of that size (each in its round); when one
    has none the count may be the other's, or the comparison's own: no refutation."""
    from pipeline.reconcile.ratios import _sides  # ratios reads sizes: imported here

    if not isinstance(claim.value, (int, float)) or claim.bound != "exact":
        return None
    for r in ctx.siblings(claim):
        if r.kind != "ratio" or r.end > claim.start or not _same_clause(claim, r, ctx):
            continue
        sides = _sides(r, ctx)
        if sides is None or not all(s.get("accelerator") for s in sides) or (
                sides[0].get("accelerator") == sides[1].get("accelerator")):
            continue
        # a baseline round only guessed may be the round before, as the speedup itself reads it
        rounds = [[s.get("round")] + ([ctx.kb.previous_round(s.get("round"))] if s.get("round_guessed") else [])
                  for s in sides]
        every = [[x for rnd in rs for x in ctx.official.select(accelerator=s["accelerator"], round=rnd)
                  if x.accelerator_count] for s, rs in zip(sides, rounds, strict=True)]
        sizes = [{int(x.accelerator_count or 0) for x in rows} for rows in every]
        common = sorted(sizes[0] & sizes[1])
        if not common:
            return None
        n = int(claim.value)
        pick = n if n in common else min(common, key=lambda c: abs(c - n))
        names = " and ".join(f"{ctx.name('accelerator', s['accelerator'])}" for s in sides)
        evidence = tuple(x.record_id for rows in every for x in rows if x.accelerator_count == pick)[:4]
        # a size only one side ran may be that side's own: not refuted
        return Fact(pick, pick, pick, evidence, f"the scale of the comparison: sizes both {names} ran "
                    f"({', '.join(f'{c:,}' for c in common)})", complete=n in common,
                    open_why="a size only one side ran may be that side's own")
    return None


def _largest_stated(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """No result of the subject in the tables (v2.0's logs are not held): the largest system its maker or
    the press stated.  It decides a count said to be the largest, or one above it; a smaller count may be a
    smaller system of the round."""
    if not isinstance(claim.value, (int, float)):
        return None
    fact = statement_fact(claim, ctx, "largest_system_chips", ("org", "accelerator", "round"))
    if fact is None or not isinstance(fact.value, (int, float)):
        return None
    largest = has_cue(ctx, claim, "largest", clause=True) or has_cue(ctx, claim, "at_scale", clause=True)
    if largest or claim.value > fact.value:
        return fact
    return None


def _timed(claim: Claim, ctx: ArticleContext) -> bool:
    """"Eos 用 3472 块 H100 跑出 0.12 分钟": a time in the count's clause makes it the size of that run, which
    may be part of the machine the clause names."""
    return any(c.kind == "duration" and _same_clause(claim, c, ctx) for c in ctx.siblings(claim))


def _many_units(entry: Any, claim: Claim, rnd: str | None) -> bool:
    """"10,752 GPUs in its ND H100 v5 virtual machines", "1,024 GPUs of DGX A100 servers": a product (a server
    or VM design of so many chips, not one named machine) counted many times over; the count is the
    whole system's, which the results decide, not the product's size."""
    unit = entry.attr("chips", rnd)
    return (not entry.attrs.get("rounds") and isinstance(claim.value, (int, float)) and bool(unit)
            and claim.value > int(unit))


def _with_its_time(claim: Claim, ctx: ArticleContext, rows: list) -> Fact | None:
    """"DLRM 仅用 64 颗芯片就跑出 0.64 分钟": a count of chips and a time in one clause describe one result;
    the chips are those of the result with that time."""
    if not claim.entities.benchmark:
        return None
    times = [c for c in ctx.siblings(claim) if c.kind == "duration" and c.entities.benchmark == claim.entities.benchmark
             and c.low is not None and c.high is not None]
    own = [c for c in times if _same_clause(claim, c, ctx)]
    if not own:
        # "以 128 顆 IPU 訓練 ResNet-50，成績 3.79 分鐘", "BERT只用0.13分钟，由768块H100完成": the next clause
        # over, with no other figure of either kind between them, tells the same result
        own = [c for c in times if _adjacent(claim, c, ctx)]
    times = own
    if len(times) != 1:
        return None
    t = times[0]
    # the time's result in the claim's round: a named machine's rows span its rounds (Eos), and a time that
    # fits only another round's result (a wrong time) tells nothing of this round's chips
    rnd = round_of(claim, ctx)
    fits = [r for r in rows if r.published_interval_seconds and overlaps(t.low, t.high, *r.published_interval_seconds)
            and r.round == rnd]
    sizes = sorted({r.accelerator_count for r in fits if r.accelerator_count})
    if len(sizes) != 1:
        return None
    n = sizes[0]
    label = f"the result that took '{t.text}' ({n:,} chips)"
    return Fact(n, n, n, tuple(r.record_id for r in fits)[:6], label)


def _any_submitter(claim: Claim) -> bool:
    """A reading that names no subject on purpose (the policy's 'any submitter'): its words name nobody."""
    return bool(claim.support) and not any(getattr(claim.entities, t) for t in ("org", "accelerator", "system"))


def _sizes_text(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes)) if len(sizes) <= 8 else f"{sizes[0]} to {sizes[-1]} ({len(sizes)} sizes)"


def host_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The hosts of the subject's systems in the round: the count nearest the claim's, or for a named system
    the most among systems of its size."""
    e = claim.entities
    rnd = round_of(claim, ctx)
    chips = system_chips(ctx, e.system, rnd)
    entry = ctx.kb.get("system", e.system) if e.system else None
    if entry is not None and not entry.attr("rounds") and not entry.attr("instance_of"):
        # a server model (DGX H100: one box) counted in nodes: "3 个节点" are three of them, not one's hosts
        chips = None
    rows = [r for r in ctx.official.select(who=e.org, accelerator=e.accelerator, round=rnd)
            if r.host_count and (chips is None or r.accelerator_count == chips)]
    if not rows or rnd is None:
        return None
    hosts = sorted({r.host_count for r in rows if r.host_count})
    target = float(claim.value) if isinstance(claim.value, (int, float)) else hosts[-1]
    pick = min(hosts, key=lambda h: abs(h - target)) if chips is None else hosts[-1]
    evidence = tuple(r.record_id for r in rows if r.host_count == pick)[:6]
    return Fact(pick, pick, pick, evidence,
                "the hosts of " + label_of(ctx.kb, acc=e.accelerator, org=e.org, chips=chips, round=rnd))


# -- ratios --------------------------------------------------------------------------------------

def benchmarks_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """A count of the round's benchmarks, as its words say: those within a time limit, unchanged, skipped or
    led by the org, the others, those its sentence names, or the whole suite."""
    rnd = round_of(claim, ctx)
    if rnd is None:
        return None
    if _limit(claim, ctx) is not None and not _records_cue(claim, ctx):
        return models_count(claim, ctx)  # "four of the eight benchmarks in under 30 seconds"
    if has_cue(ctx, claim, "unchanged"):  # "the five benchmarks unchanged since last year": what MLPerf said
        return statement_fact(claim, ctx, "unchanged_benchmarks", ("round",))
    if claim.entities.org and has_cue(ctx, claim, "absent", clause=True):
        # "只缺席了六项中的一项", "it skipped two of the eight": the benchmarks the org did not enter
        entered = {r.benchmark for r in ctx.official.select(who=claim.entities.org, round=rnd)}
        missed = [b for b in ctx.official.benchmarks(rnd) if b not in entered]
        return Fact(len(missed), len(missed), len(missed), (rnd,),
                    f"the {round_name(ctx.kb, rnd)} benchmarks {ctx.name('org', claim.entities.org)} did not enter "
                    f"({names(ctx.kb, 'benchmark', missed) if missed else 'none'})")
    if claim.entities.org:
        leads = ctx.official.leads(claim.entities.org, rnd)
        stated = records_count(claim, ctx)
        if stated is not None:
            return stated
        return Fact(leads.count, leads.count, leads.count, leads.evidence,
                    f"benchmarks where {ctx.name('org', claim.entities.org)} has the fastest "
                    f"{round_name(ctx.kb, rnd)} result: {names(ctx.kb, 'benchmark', leads.benchmarks)}")
    benches = ctx.official.benchmarks(rnd)
    rest = _the_others(claim, ctx, rnd)
    if rest is not None:
        return Fact(len(rest), len(rest), len(rest), (rnd,),
                    f"the benchmarks of {round_name(ctx.kb, rnd)} other than those named "
                    f"before: {', '.join(rest)}")
    listed = ctx.benchmarks_in_sentence.get(claim.sentence_index, ())
    if isinstance(claim.value, (int, float)) and float(claim.value) < len(benches) and claim.of_total is None:
        if listed and len(listed) == claim.value:
            return Fact(len(listed), len(listed), len(listed), (rnd,),
                        f"the benchmarks named ({names(ctx.kb, 'benchmark', listed)})")
        return None  # "the other four benchmarks": a subset the sentence does not name
    return Fact(len(benches), len(benches), len(benches), (rnd,),
                f"the benchmarks of {round_name(ctx.kb, rnd)} ({names(ctx.kb, 'benchmark', benches)})")


def _the_others(claim: Claim, ctx: ArticleContext, rnd: str) -> tuple[str, ...] | None:
    """"ResNet-50, SSD, Mask R-CNN and DLRM ..., the other four benchmarks": the round's benchmarks that
    the sentence has not named before the claim, when the words just before it say "other"."""
    before = claim.sentence[max(0, claim.start - claim.sentence_start - 16):claim.start - claim.sentence_start]
    if not any(w.lower() in before.lower() for w in language_of(ctx.langs, claim).cues.get("other", ())):
        return None
    named = {b for pos, b in ctx.benchmark_mentions.get(claim.sentence_index, ()) if pos < claim.start}
    if not named:
        return None
    return tuple(b for b in ctx.official.benchmarks(rnd) if b not in named)


def _limit(claim: Claim, ctx: ArticleContext) -> Claim | None:
    """A time limit stated for the counted models ("四套模型…30秒之内"), not one of a single benchmark: the
    nearest in the count's clause, else the nearest before it ("在短短30秒之内，系统即完成了…四套模型"), never
    one in a later clause ("the fastest time in six of the eight benchmarks, and every submission finished
    in under 33 seconds" counts wins, not the models under the limit)."""
    limits = [c for c in ctx.siblings(claim) if c.kind == "duration" and not c.entities.benchmark and (
        c.bound == "upper" or (c.bound == "approx" and _same_clause(claim, c, ctx)))]
    near = [c for c in limits if _same_clause(claim, c, ctx)] or [
        c for c in limits if c.end <= claim.start or _each(c, ctx)]
    return min(near, key=lambda c: abs(c.start - claim.start), default=None)


def _each(limit: Claim, ctx: ArticleContext) -> bool:
    """A later clause that distributes over the count ("four of the eight models were trained, each within
    30 seconds"; 各用时不到 30 秒) gives its time limit."""
    return has_cue(ctx, limit, "each", clause=True)


def _adjacent(a: Claim, b: Claim, ctx: ArticleContext) -> bool:
    """Two claims in neighbouring clauses of one part of the sentence (one clause delimiter between them,
    no semicolon) with no count or time between them."""
    first, second = sorted((a, b), key=lambda c: c.start)
    between = a.sentence[first.end - a.sentence_start:second.start - a.sentence_start]
    cuts = sum(between.count(d) for d in ctx.kb.linking.clause_delimiters)
    if cuts != 1 or any(d.strip() and d.strip() in between for d in ctx.kb.linking.segment_delimiters):
        return False
    return not any(first.end <= c.start and c.end <= second.start and c.kind in ("count", "duration")
                   for c in ctx.siblings(a))


def _same_clause(a: Claim, b: Claim, ctx: ArticleContext) -> bool:
    first, second = sorted((a, b), key=lambda c: c.start)
    between = a.sentence[first.end - a.sentence_start:second.start - a.sentence_start]
    return not any(d in between for d in ctx.kb.linking.clause_delimiters)


def _records_cue(claim: Claim, ctx: ArticleContext) -> bool:
    nouns = language_of(ctx.langs, claim).nouns
    return any(n.lower() in folded(claim.sentence) for n, c in nouns.items() if c == "record" and len(n) > 1)


def models_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The benchmarks the subject (anyone, if it names nobody) trained within the time limit stated with
    the count."""
    rnd = round_of(claim, ctx)
    limit = _limit(claim, ctx)
    if rnd is None or limit is None:
        return None
    org = org_of(claim, ctx)
    if limit is not None and isinstance(limit.value, (int, float)):
        # naming nobody, the count is of the benchmarks anyone trained within the limit (the top of an
        # approximate limit: "about a minute or two")
        top = float(limit.high) if limit.bound == "approx" and limit.high is not None else float(limit.value)
        cu = ctx.official.count_under(org, rnd, top)
        who = possessive(ctx.name('org', org)) if org else "any submitter's"
        return Fact(cu.count, cu.count, cu.count, cu.records[:8],
                    f"{who} {round_name(ctx.kb, rnd)} benchmarks under {fmt(top, 's')} "
                    f"({names(ctx.kb, 'benchmark', cu.benchmarks)})")
    return None


def companies_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The submitters of the round (on the chip the claim names; "partners" leaves out its maker); None when
    the words are not about submitting.  "Oracle, one of four first-time submitters": the group's size is
    checked (the engine reads the whole of a partitive), but its words may narrow the group (first-time, from
    one country), so the round's submitters can bear it out, and refute it only when the group is larger."""
    fact = _companies_count(claim, ctx)
    if fact is None or not isinstance(fact.value, (int, float)):
        return fact
    # "5 家台灣伺服器廠", "five Taiwanese server makers": its own words narrow the group
    group = claim.of_total if claim.of_total is not None else (
        claim.value if has_cue(ctx, claim, "narrow_group", clause=True) else None)
    if isinstance(group, (int, float)) and float(group) < float(fact.value):
        return replace(fact, complete=False, open_why="its words may name a narrower group of submitters than "
                                                      "the round's (the first-time ones, those of one country)")
    return fact


def _companies_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    rnd = round_of(claim, ctx)
    if rnd is None or not has_cue(ctx, claim, "submit"):
        return None  # "dozens of server makers offer A100 servers" is not about the submitters
    acc = claim.entities.accelerator if (claim.support or {}).get("accelerator", (9,))[0] <= 1 else None
    if acc:
        # "NVIDIA and seven partners submitted on A100-based systems": the submitters on that chip, and
        # "partners" leaves out the chip's maker
        orgs = sorted({r.org for r in ctx.official.select(round=rnd, accelerator=acc)})
        entry = ctx.kb.get("accelerator", acc)
        maker = entry.attr("org") if entry is not None else None
        if maker in orgs and has_cue(ctx, claim, "partners", clause=True):
            orgs = [o for o in orgs if o != maker]
            return Fact(len(orgs), len(orgs), len(orgs), (rnd,), f"the submitters of {round_name(ctx.kb, rnd)} "
                        f"on {ctx.name('accelerator', acc)} besides {ctx.name('org', maker)} "
                        f"({names(ctx.kb, 'org', orgs)})")
        if orgs:
            return Fact(len(orgs), len(orgs), len(orgs), (rnd,), f"the submitters of {round_name(ctx.kb, rnd)} "
                        f"on {ctx.name('accelerator', acc)} ({names(ctx.kb, 'org', orgs)})")
    # How many submitted is the organiser's count where it gave one: the tables only approximate it (joint
    # submissions, one submitter under several folders, folders renamed), and news repeats the organiser's
    stated = statement_fact(claim, ctx, "submitters_count", ("round",))
    if stated is not None:
        return stated
    # else the submitters as the results name them (a joint "NVIDIA+CoreWeave" is one more, not NVIDIA again)
    subs = sorted({r.submitter for r in ctx.official.select(round=rnd)})
    return Fact(len(subs), len(subs), len(subs), (rnd,), f"the submitters of {round_name(ctx.kb, rnd)} "
                f"({', '.join(subs)})")


def submissions_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The round's count of results, as its statement gives it."""
    return statement_fact(claim, ctx, "results_count", ("round",))


def run_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"each is run five times": the runs the round's rules require for the benchmarks named."""
    rnd = round_of(claim, ctx)
    prev = max((c.end for c in ctx.siblings(claim) if c.end <= claim.start), default=claim.sentence_start)
    listed = tuple(dict.fromkeys(b for pos, b in ctx.benchmark_mentions.get(claim.sentence_index, ())
                                 if prev <= pos < claim.end))
    if rnd is not None and not listed:
        # "..., and the other four benchmarks ten times": the set a count between names
        counts = [c for c in ctx.siblings(claim) if c.end <= claim.start and c.counted == "benchmark"]
        rest = next((r for c in reversed(counts) if (r := _the_others(c, ctx, rnd))), None)
        listed = rest or ()
    if rnd is None or not listed:
        return None
    required = sorted({r.runs_required for r in ctx.official.results
                       if r.round == rnd and r.benchmark in listed and r.runs_required is not None})
    if len(required) != 1:
        return None
    n = required[0]
    return Fact(n, n, n, (rnd,), f"the runs required per result for {names(ctx.kb, 'benchmark', listed)} in "
                f"{round_name(ctx.kb, rnd)}")
