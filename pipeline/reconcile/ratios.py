"""Ratios: speedups between result sets, system size ratios, per-chip peaks, orders of magnitude."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Any

from pipeline.reconcile.context import (
    ArticleContext,
    baseline_span,
    clause_cue_spans,
    cue_words,
    fastest_known,
    fastest_time,
    folded,
    has_cue,
    label_of,
    language_of,
    org_of,
    possessive,
    round_name,
    round_of,
    system_chips,
)
from pipeline.reconcile.readings import CLAUSE, subject_level
from pipeline.reconcile.statements import statement_fact
from pipeline.reconcile.verdicts import Fact
from pipeline.records import Claim


# -- ratios --------------------------------------------------------------------------------------
def _sides(claim: Claim, ctx: ArticleContext) -> tuple[dict, dict] | None:
    comp = claim.compared_to or {}
    subject, baseline = dict(comp.get("subject") or {}), dict(comp.get("baseline") or {})
    if not baseline:
        return None
    if subject == baseline or not subject:
        # the subject is this round's counterpart of the baseline ("the new system is 4x the old Pod")
        subject = {"org": baseline.get("org") or claim.entities.org, "accelerator": baseline.get("accelerator"),
                   "round": ctx.round}
    subject.setdefault("round", round_of(claim, ctx))
    if not baseline.get("round"):
        # the same chip (or, naming no chip, the same company) compared with itself: most likely with the
        # previous round; two companies compared: most likely in the same round
        chips = subject.get("accelerator"), baseline.get("accelerator")
        orgs = subject.get("org"), baseline.get("org")
        same = chips[0] == chips[1] if any(chips) else orgs[0] in (None, orgs[1])
        if all(orgs) and orgs[0] != orgs[1]:
            same = False  # "15% faster than NVIDIA's result on the same number of GPUs": two companies, one round
        baseline["round"] = ctx.kb.previous_round(subject.get("round")) if same else subject.get("round")
        baseline["round_guessed"] = True
    return subject, baseline


def _size_of(side: dict, ctx: ArticleContext, bench: str | None = None) -> tuple[int, tuple[str, ...]] | None:
    chips = system_chips(ctx, side.get("system"), side.get("round"))
    acc = side.get("accelerator")
    if acc is None and side.get("system"):
        entry = ctx.kb.get("system", side["system"])
        acc = entry.attr("accelerator") if entry else None
    if chips:
        # a named machine or pod has its size: the results it ran, else the maker's statement of it
        recs = tuple(r.record_id for r in ctx.official.select(who=side.get("org"), accelerator=acc,
                                                               round=side.get("round"))
                     if r.accelerator_count == chips)[:4]
        stated = tuple(s.source_url for s in ctx.official.statements if s.metric == "pod_chips"
                       and acc in s.entity_values("accelerator") and s.value == chips)
        return chips, recs or stated[:1]
    if acc and side.get("round"):
        largest = ctx.official.largest_system(acc, side["round"], side.get("org"))
        if largest is not None:
            return largest.accelerator_count, largest.records[:4]
    if chips:
        return chips, ()
    if side.get("org") and side.get("round") and not acc:
        # "Google used twice as many chips as Nvidia('s largest run)": each company's largest system, on
        # the benchmark the sentence names if it names one (a side of a chip the round did not run has none)
        largest = (bench and ctx.official.largest_system(None, side["round"], side["org"], bench)) or \
            ctx.official.largest_system(None, side["round"], side["org"])
        if largest is not None:
            return largest.accelerator_count, largest.records[:4]
    return None


def system_size_ratio(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The ratio of the chip counts of the two sides the claim compares (its subject's over its baseline's)."""
    sides = _sides(claim, ctx)
    if sides is None:
        return None
    a, b = (_size_of(s, ctx, claim.entities.benchmark) for s in sides)
    if not a or not b:
        return None
    ratio = a[0] / b[0]
    label = f"system size {label_of(ctx.kb, **sides[0])} vs {label_of(ctx.kb, **sides[1])}"
    return Fact(ratio, ratio, ratio, a[1] + b[1], label, derivation=f"{a[0]} chips / {b[0]} chips = {ratio:.3g}x")


UNSAID_SCALE = "its words do not say at what scale the two chips are compared (per chip, at one size, at scale)"


def speedup(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The speed-up the claim's comparison asks for; with a shrink cue and a value under 1 ("nearly halved"),
    the share of the earlier time that remains."""
    fact = _speedup(claim, ctx)
    if (fact is not None and isinstance(claim.value, (int, float)) and 0 < claim.value < 1
            and isinstance(fact.value, (int, float)) and fact.value > 1
            and (claim.change == "decrease" or has_cue(ctx, claim, "shrink", clause=True))):
        # "DLRM's time has nearly halved", 缩短为原来的八分之一: the time now over the time then
        lo, hi = fact.low or fact.value, fact.high or fact.value
        return replace(fact, value=round(1 / fact.value, 4), low=1 / hi, high=1 / lo,
                       label=f"{fact.label}, as the share of the earlier time that remains",
                       derivation=f"1 / {fact.value:.3g} = {1 / fact.value:.3g}", maximum=None)
    if (fact is not None and isinstance(fact.value, (int, float)) and 0 < fact.value < 1
            and isinstance(claim.value, (int, float)) and claim.value > 1 and _of_times(claim, ctx)):
        # "用了 49 秒，约为谷歌的两倍", "took 49 seconds, about twice Google's": the subject's time over the
        # other's, not their speeds
        lo, hi = fact.low or fact.value, fact.high or fact.value
        return replace(fact, value=round(1 / fact.value, 4), low=1 / hi, high=1 / lo,
                       label=f"{fact.label}, as the ratio of the times", maximum=None,
                       derivation=f"1 / {fact.value:.3g} = {1 / fact.value:.3g}")
    return fact


def _of_times(claim: Claim, ctx: ArticleContext) -> bool:
    """A ratio that compares times: a word for the time taken in its clause and none for speed ("耗时是英特尔
    集群的近两倍", "took twice as long"), or no speed word and the subject's time given just before it."""
    timed = clause_cue_spans(ctx, claim, "ratio_time")
    pace = clause_cue_spans(ctx, claim, "ratio_speed") - timed
    if pace or has_cue(ctx, claim, "fastest", clause=True):
        return False
    if timed:
        return True
    before = [c for c in ctx.siblings(claim) if c.kind == "duration" and c.end <= claim.start]
    return bool(before) and claim.start - before[-1].end <= 12


def _speedup(claim: Claim, ctx: ArticleContext) -> Fact | None:
    if is_magnitude(claim, ctx):
        return magnitude(claim, ctx)
    sides = _sides(claim, ctx)
    # two sizes of one company's system in one round (the earlier side's round only guessed): a scaling speedup
    same_round = sides is None or sides[0].get("round") == sides[1].get("round") or sides[1].get("round_guessed")
    scaled = _scaling(claim, ctx) if same_round else None
    if scaled is not None:
        return scaled
    if sides is None:
        # "the fastest results improved 2.7x on average": a statement about the round as a whole
        if claim.entities.org or claim.entities.accelerator:
            return None
        return statement_fact(claim, ctx, "speedup", ("round",))
    sub, base = sides
    if sub.get("accelerator") == base.get("accelerator") and sub.get("system") != base.get("system") and (
            _size_cue(claim, ctx)):
        return system_size_ratio(claim, ctx)
    org = sub.get("org") or org_of(claim, ctx)
    bench = claim.entities.benchmark
    products = _product_chips(ctx, sub.get("system")), _product_chips(ctx, base.get("system"))
    if bench and all(products) and sub.get("system") != base.get("system"):
        # "a lone DGX-2H is more than twice as fast as a DGX-1 on ResNet-50": one machine of each product
        return _product_vs_product(claim, ctx, sub, base, bench, products)
    base_org = base.get("org") or _maker(ctx, base.get("accelerator"))
    if bench and base_org and org and base_org != org and sub.get("round") == base.get("round"):
        return _fastest_vs_fastest(claim, ctx, org, sub, base_org, base, bench)
    if bench and sub.get("round") and base.get("round") and sub.get("round") != base.get("round") and (
            not sub.get("accelerator") or not base.get("accelerator")):
        if has_cue(ctx, claim, "per_chip"):
            # "单卡性能比上一轮提升到1.3倍", "per-GPU performance up 1.3x": per chip, which the fastest
            # whole systems do not tell; the vendor's own per-chip figure, or nothing
            return statement_fact(claim, ctx, "speedup", ("org", "accelerator", "round", "benchmark"),
                                  scale="per_chip", require={"round": base["round"]})
        # "the fastest Transformer time is five times last year's", "Nvidia's ResNet-50 time improved 1.75x
        # over its best of the v0.6 round": the fastest time of each round (of the company, if named)
        anyone = has_cue(ctx, claim, "fastest", clause=True) and subject_level(claim) > CLAUSE
        return _round_vs_round(claim, ctx, org if claim.entities.org and not anyone else None, sub, base, bench)
    if not sub.get("accelerator") or not base.get("accelerator"):
        if claim.entities.org or claim.entities.accelerator:
            return None
        return statement_fact(claim, ctx, "speedup", ("round",))
    chips = _nearby_chips(claim, ctx, {sub.get("accelerator"), base.get("accelerator")}) | {
        c for s in (sub, base) for c in [system_chips(ctx, s.get("system"), s.get("round"))] if c}
    rounds = [base["round"]]
    if base.pop("round_guessed", False):
        prev = ctx.kb.previous_round(sub["round"])
        rounds = [r for r in (base["round"], prev) if r]
    sp, scale = None, None
    for rnd_b in rounds:
        base["round"] = rnd_b
        sp, scale = _best_speedup(ctx, org, sub, base, chips)
        if sp is not None:
            break
    if sp is None or sp.arithmetic_mean is None:
        return None
    per = ", ".join(f"{ctx.name('benchmark', k)} {v:.2f}x" for k, v in sp.per_benchmark)
    if bench and bench not in sp.ratios:
        return None  # the benchmark named has no result at the shared size: others' mean would not be its
    between = _speedup_sides(ctx, sub, base, scale)
    if bench and bench in sp.ratios:
        r = sp.ratios[bench]
        ids = tuple(x for x in sp.evidence if x.endswith("/" + bench))
        return Fact(round(r, 4), r, r, ids, f"{ctx.name('benchmark', bench)} speedup of {between}",
                    derivation=f"per benchmark {per}")
    label = f"speedup of {between}"
    deriv = f"per benchmark {per}; arithmetic mean {sp.arithmetic_mean:.2f}x, geometric {sp.geometric_mean:.2f}x"
    mean = sp.arithmetic_mean
    lo, hi = sorted((mean, sp.geometric_mean or mean))
    # "the A100 delivered up to 4x the performance of the V100": a vendor's best case of two chips, at a scale
    # (and on workloads) its words do not give, is borne out by the results at a shared size but not refuted
    maximum = (claim.bound_cue or "").lower() in cue_words(language_of(ctx.langs, claim), "maximum")
    unsaid = maximum and not chips and sub.get("accelerator") != base.get("accelerator")
    return Fact(round(mean, 4), lo, hi, sp.evidence, label, derivation=deriv, maximum=max(sp.ratios.values()),
                complete=not unsaid, open_why=UNSAID_SCALE)


def _speedup_sides(ctx: ArticleContext, sub: dict, base: dict, scale: Any) -> str:
    """"H100 over A100 systems in MLPerf Training v2.1 at 8 chips": the two sides, their round said once
    when they share it."""
    first = (ctx.name("accelerator", sub["accelerator"]) if sub.get("round") == base.get("round")
             else label_of(ctx.kb, acc=sub["accelerator"], round=sub["round"]))
    return f"{first} over {label_of(ctx.kb, acc=base['accelerator'], round=base['round'])} at {scale} chips"


def _scaling(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"2496 顆的成績比 512 顆快了 5 倍", "scaling from 768 to 3,584 GPUs cut the time 4.6-fold": one company's
    time on a benchmark at the two system sizes its sentence gives, the smaller's over the larger's."""
    e = claim.entities
    rnd = round_of(claim, ctx)
    sizes = sorted(_nearby_chips(claim, ctx, {e.accelerator, None}))
    if not e.benchmark or rnd is None or len(sizes) != 2:
        return None
    base = baseline_span(claim, ctx)
    if base is not None and not any(
            base[0] <= c.start - c.sentence_start < base[1] for c in ctx.siblings(claim)
            if c.metric in ("chip_count", "gpu_count")):
        return None  # "..., 45% faster than its June time": the baseline its clause names holds no size
    small, large = (fastest_time(ctx, e.org, e.accelerator, e.benchmark, rnd, n) for n in sizes)
    if small is None or large is None:
        return None
    ratio = small[0] / large[0]
    who = possessive(ctx.name('org', e.org)) if e.org else "the"
    label = f"{ctx.name('benchmark', e.benchmark)}: {who} time on {sizes[0]:,} chips over its time on {sizes[1]:,}"
    return Fact(round(ratio, 4), ratio, ratio, (small[1], large[1]), label,
                derivation=f"{small[0]:.1f} s / {large[0]:.1f} s = {ratio:.2f}x")


def _maker(ctx: ArticleContext, acc: str | None) -> str | None:
    entry = ctx.kb.get("accelerator", acc) if acc else None
    return entry.attr("org") if entry else None


def _fastest_vs_fastest(claim: Claim, ctx: ArticleContext, org: str, sub: dict, base_org: str, base: dict,
                        bench: str) -> Fact | None:
    """"Google trained BERT roughly twice as fast as NVIDIA": two companies' best times, any scale."""
    rnd = sub.get("round") or round_of(claim, ctx)
    # a side that names a machine of one size ("英伟达单台DGX-1") is that machine's time, not the company's best;
    # "on the same number of GPUs" with the number in the sentence: both at that size
    same = sorted(_nearby_chips(claim, ctx, {sub.get("accelerator"), base.get("accelerator"), None})) \
        if has_cue(ctx, claim, "same_size") else []
    at = same[0] if len(same) == 1 else None
    # (the claim's own machine is its subject's: "單節點的DGX-1……耗時是英特爾集群的近兩倍")
    own = sub.get("system") or claim.entities.system
    sides = [(org, sub.get("accelerator"), bench, rnd, _product_chips(ctx, own) or at),
             (base_org, base.get("accelerator"), bench, rnd, _product_chips(ctx, base.get("system")) or at)]
    a, b = (fastest_time(ctx, *side) for side in sides)
    if a is None or b is None:
        return None
    ratio = b[0] / a[0]
    label = (f"{ctx.name('benchmark', bench)}: {possessive(ctx.name('org', org))} fastest "
             f"{round_name(ctx.kb, str(rnd))} time vs {possessive(ctx.name('org', base_org))}"
             + (f", both on {at:,} chips" if at else ""))
    # two chips compared ("the MI325X beat the H200 by 20%") at a scale the words do not give: the best times
    # are one reading of several (per chip, at one size), so they may bear a claim out but not refute it
    chips = sub.get("accelerator") and base.get("accelerator") and sub.get("accelerator") != base.get("accelerator")
    scale_said = bool(at) or any(side[4] for side in sides) or any(
        has_cue(ctx, claim, cue) for cue in ("fastest", "at_scale", "single", "single_node"))
    known = all(fastest_known(ctx, *side) for side in sides)
    if chips and not scale_said and base.get("accelerator"):
        # two chips at a scale the words do not give: the maker's own comparison of exactly these two chips
        # ("the MI325X beat the H200 by up to 8%") is what the sentence retells, if it made one
        own = statement_fact(claim, ctx, "speedup", ("org", "accelerator", "round", "benchmark"),
                             require={"accelerator": str(base["accelerator"])})
        if own is not None:
            return own
    fact = Fact(round(ratio, 4), ratio, ratio, (a[1], b[1]), label,
                derivation=f"{b[0]:.1f} s / {a[0]:.1f} s = {ratio:.2f}x", complete=known and (scale_said or not chips))
    return replace(fact, open_why=UNSAID_SCALE) if known else fact


def _product_vs_product(claim: Claim, ctx: ArticleContext, sub: dict, base: dict, bench: str,
                        chips: tuple) -> Fact | None:
    rnd_a = sub.get("round") or round_of(claim, ctx)
    rnd_b = rnd_a if base.pop("round_guessed", False) else (base.get("round") or rnd_a)
    sides = [(sub.get("org"), sub.get("accelerator"), bench, rnd_a, chips[0], sub.get("system")),
             (base.get("org"), base.get("accelerator"), bench, rnd_b, chips[1], base.get("system"))]
    times = []
    for org, acc, b, rnd, n, system in sides:
        best = None
        for r in ctx.official.select(who=org, accelerator=acc, benchmark=b, round=rnd, chip_count=n):
            if r.seconds is not None and _is_product(ctx, r, system) and (best is None or r.seconds < best[0]):
                best = (r.seconds, r.record_id)
        if best is None:
            return None
        times.append(best)
    (a, ida), (b_, idb) = times
    ratio = b_ / a
    label = (f"{ctx.name('benchmark', bench)}: one {ctx.name('system', sides[0][5])} "
             f"({round_name(ctx.kb, str(rnd_a))}) against one {ctx.name('system', sides[1][5])} "
             f"({round_name(ctx.kb, str(rnd_b))})")
    return Fact(round(ratio, 4), ratio, ratio, (ida, idb), label, derivation=f"{b_:.1f} s / {a:.1f} s = {ratio:.2f}x")


def _is_product(ctx: ArticleContext, result, system: str | None) -> bool:
    """Whether a result ran on one machine of that product (its system name names it)."""
    entry = ctx.kb.get("system", system) if system else None
    if entry is None:
        return False
    name = str(result.system or "").lower().replace("-", "")
    key = entry.id.lower().replace("-", "")  # dgx-1 -> dgx1 names dgx1_ngc19.05_mxnet, not dgx1_n6
    return name.startswith(key) and (len(name) == len(key) or name[len(key)] in "_.") and not re.search(
        r"_n\d", name[len(key):])  # dgx1_n6: six of them


def _product_chips(ctx: ArticleContext, system: str | None) -> int | None:
    entry = ctx.kb.get("system", system) if system else None
    if entry is None or entry.attrs.get("rounds") or not entry.attr("chips"):
        return None
    return int(entry.attr("chips"))


def _round_vs_round(claim: Claim, ctx: ArticleContext, org: str | None, sub: dict, base: dict,
                    bench: str) -> Fact | None:
    # "on a DGX A100, Mask R-CNN runs about 60% faster than in v0.7": one machine of that product each round
    # "on a DGX A100 ... than it did in v0.7": the machine its sentence names, then and now (not at scale)
    named = (claim.support or {}).get("system", (9,))[0] <= 1 and not has_cue(ctx, claim, "at_scale")
    own = sub.get("system") or (claim.entities.system if named else None)
    sides = [(org, sub.get("accelerator"), bench, sub["round"], _product_chips(ctx, own)),
             (org, base.get("accelerator"), bench, base["round"], _product_chips(ctx, base.get("system") or own))]
    a, b = (fastest_time(ctx, *side) for side in sides)
    if a is None or b is None:
        return None
    ratio = b[0] / a[0]
    who = possessive(ctx.name('org', org)) if org else "the"
    on = f" on {sides[0][4]} chips" if sides[0][4] else ""
    label = (f"{ctx.name('benchmark', bench)}: {who} fastest time{on} of {round_name(ctx.kb, sub['round'])} "
             f"against {round_name(ctx.kb, base['round'])}")
    derivation = f"{b[0]:.1f} s / {a[0]:.1f} s = {ratio:.2f}x"
    lo = hi = ratio
    others = _last_years_rounds(claim, ctx, a[0], sub["round"], base, org, bench)
    if others:
        lo, hi = min(ratio, *others.values()), max(ratio, *others.values())
        derivation += "; against the year's other rounds: " + ", ".join(f"{r} {x:.2f}x" for r, x in others.items())
    at_size = _at_stated_size(claim, ctx, sides)
    if at_size is not None:
        lo, hi = min(lo, at_size[0]), max(hi, at_size[1])
        derivation += f"; at the size the sentence gives: {at_size[2]}"
    # "the fastest time ... against its best of last round", "at scale": the words say best against best
    said_best = has_cue(ctx, claim, "fastest") or has_cue(ctx, claim, "at_scale")
    same = None if sides[0][4] or said_best else _same_scale(ctx, org, sides)
    if same is not None:
        # the two bests ran on systems of different sizes: "X times faster than last round" may mean the
        # best against the best or the same system then and now; either reading may be the one meant
        lo, hi = min(lo, same[0]), max(hi, same[1])
        derivation += f" (fastest against fastest, at different sizes); at the same size: {same[2]}"
    return Fact(round(ratio, 4), lo, hi, (a[1], b[1]), label, derivation=derivation,
                complete=all(fastest_known(ctx, *side) for side in sides))


def _at_stated_size(claim: Claim, ctx: ArticleContext, sides: list) -> tuple[float, float, str] | None:
    """"On 2,560 GPUs ... 45% faster than in v5.0": the subject's time at the size its sentence gives against
    the earlier round's times at the sizes nearest it (within a tenth: 2,496 and 2,560), readings of their own;
    (lowest, highest, in words)."""
    (org, acc_a, bench, rnd_a, _), (_, acc_b, _, rnd_b, _) = sides
    ratios: dict[str, float] = {}
    for n in sorted(_nearby_chips(claim, ctx, {acc_a, acc_b, None})):
        a = fastest_time(ctx, org, acc_a, bench, rnd_a, n)
        if a is None:
            continue
        sizes = {r.accelerator_count for r in ctx.official.select(who=org, accelerator=acc_b, benchmark=bench,
                                                                  round=rnd_b) if r.seconds is not None}
        for m in sorted(m for m in sizes if m and abs(m - n) <= n / 10):
            b = fastest_time(ctx, org, acc_b, bench, rnd_b, m)
            if b is not None:
                ratios[f"{n:,} chips against {m:,}"] = b[0] / a[0]
    if not ratios:
        return None
    words = ", ".join(f"{x:.2f}x ({k})" for k, x in ratios.items())
    return min(ratios.values()), max(ratios.values()), words


def _last_years_rounds(claim: Claim, ctx: ArticleContext, seconds: float, rnd: str, base: dict, org: str | None,
                       bench: str) -> dict[str, float]:
    """"比去年的 10.94 分钟提高了 3 倍", "twice as fast as last year": a year of two rounds; the ratio of the
    subject's time (`seconds`, in round `rnd`) against each of the year's other rounds (round -> ratio), a
    reading as good as the one against its last."""
    if not has_cue(ctx, claim, "last_year"):
        return {}
    out = {}
    for other in ctx.kb.rounds_of_year_before(rnd):
        b = fastest_time(ctx, org, base.get("accelerator"), bench, other) if other != base["round"] else None
        if b is not None:
            out[other] = b[0] / seconds
    return out


def _same_scale(ctx: ArticleContext, org: str | None, sides: list) -> tuple[float, float, str] | None:
    """(lowest, highest, in words) of the same-size comparisons when the two rounds' fastest results ran on
    systems of different sizes: the ratio at each size both rounds have (a speedup "on the same hardware" may
    be any of them); None when the sizes agree or no size is shared."""
    sizes: list[dict[int, float]] = []  # per side: chips -> fastest time at that size
    for _, acc, bench, rnd, _ in sides:
        best: dict[int, float] = {}
        for r in ctx.official.select(who=org, accelerator=acc, benchmark=bench, round=rnd):
            if r.seconds is not None and r.accelerator_count:
                best[r.accelerator_count] = min(r.seconds, best.get(r.accelerator_count, r.seconds))
        sizes.append(best)
    if not all(sizes):
        return None
    n_a, n_b = (min(s, key=lambda n: s[n]) for s in sizes)  # the size of each round's best
    shared = sorted(set(sizes[0]) & set(sizes[1]))
    if n_a == n_b or not shared:
        return None
    ratios = {n: sizes[1][n] / sizes[0][n] for n in shared}
    words = ", ".join(f"{r:.2f}x on {n:,}" for n, r in ratios.items())
    return min(ratios.values()), max(ratios.values()), words


def _nearby_chips(claim: Claim, ctx: ArticleContext, accs: set) -> set[int]:
    """Chip counts of those accelerators in this sentence or the next (a figure caption often gives the
    scale of a speedup stated just before)."""
    return {int(c.value) for c in ctx.claims
            if claim.sentence_index <= c.sentence_index <= claim.sentence_index + 1 and c.kind == "count"
            and c.metric in ("chip_count", "gpu_count") and c.bound == "exact" and isinstance(c.value, (int, float))
            and (c.entities.accelerator in accs or c.entities.accelerator is None)}


def _best_speedup(ctx: ArticleContext, org, sub: dict, base: dict, chips: set[int]):
    """The speedup at the scale the text gives, else at the scale where the two sides share the most
    benchmarks (the fairest like-for-like comparison)."""
    org_b = base.get("org") or org
    sizes_a = {r.accelerator_count for r in ctx.official.select(who=org, accelerator=sub["accelerator"],
                                                                round=sub["round"])
               if r.scored and r.accelerator_count is not None}
    sizes_b = {r.accelerator_count for r in ctx.official.select(who=org_b, accelerator=base["accelerator"],
                                                                round=base["round"])
               if r.scored and r.accelerator_count is not None}
    common = sorted((chips & sizes_a & sizes_b) or (sizes_a & sizes_b))
    best = None
    for scale in common:
        sp = ctx.official.speedup(ctx.official.results_for(org, sub["accelerator"], scale, sub["round"]),
                                  ctx.official.results_for(org_b, base["accelerator"], scale, base["round"]))
        if sp.arithmetic_mean is not None and (best is None or len(sp.per_benchmark) >= len(best[0].per_benchmark)):
            best = (sp, scale)
    return best if best else (None, None)


def is_magnitude(claim: Claim, ctx: ArticleContext) -> bool:
    """Whether the claim is a ratio in orders of magnitude (its text holds one of the language's magnitude words)."""
    words = language_of(ctx.langs, claim).magnitude_words
    return claim.kind == "ratio" and any(w.lower() in claim.text.lower() for w in words)


def _size_cue(claim: Claim, ctx: ArticleContext) -> bool:
    words = language_of(ctx.langs, claim).cues.get("size", ())
    return any(w.lower() in folded(claim.sentence) for w in words)


def magnitude(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"近五个数量级": an old time written earlier vs this round's times of the same org."""
    # the old time is stated in an earlier sentence ("三个多星期"); a span in the same sentence is the
    # time between ("五年之后")
    old = next((c for c in reversed(ctx.earlier(claim) + ctx.siblings(claim)) if c.kind == "duration"
                and c.start < claim.start and isinstance(c.value, (int, float))
                and 86400 <= c.number < 365 * 86400), None)
    rnd = round_of(claim, ctx)
    if old is None or rnd is None:
        return None
    rows = [r for r in ctx.official.select(who=claim.entities.org, round=rnd) if r.scored]
    if not rows:
        return None
    fastest: dict[str, float] = {}
    for r in rows:
        fastest[r.benchmark] = min(fastest.get(r.benchmark, math.inf), r.seconds or math.inf)
    t_min, t_max = min(fastest.values()), max(fastest.values())
    old_lo = old.low if old.low is not None else old.number
    old_hi = old.high if old.high is not None else old.number
    lo, hi = old_lo / t_max, old_hi / t_min
    deriv = (f"{old.text} = {old_lo / 86400:.0f}-{old_hi / 86400:.0f} days vs this round's fastest times "
             f"{t_min:.1f}-{t_max:.1f} s: {lo:.3g}-{hi:.3g}x = 10^{math.log10(lo):.2f}-10^{math.log10(hi):.2f}")
    return Fact(math.sqrt(lo * hi), lo, hi, tuple(r.record_id for r in rows[:6]),
                f"speed-up since '{old.text}'", derivation=deriv)


# -- statements ------------------------------------------------------------------------------------
def per_chip_ratio(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The ratio of the two sides' per-chip peak compute, as the statements of their chips give it."""
    sides = _sides(claim, ctx)
    if sides is None:
        return None
    peaks = []
    for side in sides:
        acc = side.get("accelerator")
        st = [s for s in ctx.official.statements if s.metric == "per_chip_peak_compute"
              and acc in s.entity_values("accelerator")]
        if not st:
            return None
        peaks.append(st[0])
    ratio = peaks[0].number / peaks[1].number
    return Fact(ratio, ratio, ratio, peaks[0].evidence + peaks[1].evidence, "per-chip peak compute",
                derivation=f"{peaks[0].number / 1e12:.0f} / {peaks[1].number / 1e12:.0f} TFLOPS "
                           f"= {ratio:.3g}x")
