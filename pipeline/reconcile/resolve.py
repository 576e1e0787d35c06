"""Find the deciding fact for a claim: its metric and entities become a question to the official tables
(or to the primary-source statements), answered with a Fact that names its evidence.

One function per metric family; each returns None when nothing can decide the claim (unverifiable).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pipeline.lang.loader import load_language
from pipeline.link.kb import KnowledgeBase
from pipeline.official.answers import OfficialResult
from pipeline.official.query import OfficialResults
from pipeline.reconcile.verdicts import ATTRIBUTION, CHIP_COUNT, MIXED_ROUNDS, Fact
from pipeline.records import Claim


@dataclass
class ArticleContext:
    """What resolvers may look at besides the claim: the article's other claims and defaults."""

    claims: list[Claim]
    round: str | None
    kb: KnowledgeBase
    official: OfficialResults
    benchmarks_in_sentence: dict[int, tuple[str, ...]]  # sentence index -> benchmarks it names
    benchmark_mentions: dict[int, tuple[tuple[int, str], ...]]  # sentence index -> (article offset, id)

    def siblings(self, claim: Claim) -> list[Claim]:
        return [c for c in self.claims if c.sentence_index == claim.sentence_index and c is not claim]

    def earlier(self, claim: Claim, window: int = 3) -> list[Claim]:
        return [c for c in self.claims if claim.sentence_index - window <= c.sentence_index < claim.sentence_index]


def _round(claim: Claim, ctx: ArticleContext) -> str | None:
    return claim.entities.round or ctx.round


def _org(claim: Claim, ctx: ArticleContext) -> str | None:
    """The claim's org, else the one the nearest earlier claim of the article is about."""
    if claim.entities.org:
        return claim.entities.org
    for c in reversed([c for c in ctx.claims if c.start <= claim.start]):
        if c.entities.org:
            return c.entities.org
    return None


def _cue(claim: Claim, key: str) -> bool:
    words = load_language(claim.lang).cues.get(key, ())
    return any(w.lower() in claim.sentence.lower() for w in words)


def _label(**parts: Any) -> str:
    names = {"tpu-v3": "TPU v3", "tpu-v4": "TPU v4", "a100": "A100", "v100": "V100"}
    out = []
    for key, value in parts.items():
        if value is None or value == ():
            continue
        if key == "chips":
            out.append(f"{value} chips")
        elif isinstance(value, (tuple, list)):
            out.append("/".join(str(v) for v in value))
        else:
            out.append(names.get(str(value), str(value)))
    return ", ".join(out)


def _system_chips(ctx: ArticleContext, system: str | None, rnd: str | None) -> int | None:
    entry = ctx.kb.get("system", system) if system else None
    chips = entry.attr("chips", rnd) if entry else None
    return int(chips) if chips else None


def _sentence_chips(claim: Claim, ctx: ArticleContext) -> set[int]:
    """Chip counts stated with the claim: same sentence, same benchmark (or none), and no semicolon
    between them ("BERT 用时 0.81 分钟；DLRM 只用了一台 8 卡 DGX A100" gives DLRM 8 GPUs, not BERT)."""
    out = set()
    for c in ctx.siblings(claim):
        if c.metric not in ("chip_count", "gpu_count") or not isinstance(c.value, (int, float)) or c.bound != "exact":
            continue
        if c.entities.benchmark and claim.entities.benchmark and c.entities.benchmark != claim.entities.benchmark:
            continue
        a, b = sorted((c.start, claim.start))
        between = claim.sentence[a - claim.sentence_start:b - claim.sentence_start]
        if any(p in between for p in ";；"):
            continue
        out.add(int(c.value))
    return out


def _seconds_fact(r: OfficialResult, label: str, alternatives=()) -> Fact:
    lo, hi = r.published_interval_seconds or (r.seconds, r.seconds)
    return Fact(r.seconds or 0.0, lo, hi, r.evidence, label + f": {r.published_minutes:.2f} min", alternatives=alternatives)


# -- training times ------------------------------------------------------------------------------------
def train_time(claim: Claim, ctx: ArticleContext) -> Fact | None:
    e = claim.entities
    rnd = _round(claim, ctx)
    if rnd is None:
        return None
    benches = (e.benchmark,) if e.benchmark else ctx.benchmarks_in_sentence.get(claim.sentence_index, ())
    explicit = _sentence_chips(claim, ctx)
    chips = explicit or ({_system_chips(ctx, e.system, rnd)} - {None})
    if e.benchmark:
        return _one_result(claim, ctx, e.benchmark, rnd, chips, bool(explicit))
    if claim.bound == "upper" and _org(claim, ctx):
        return _all_within(claim, ctx, benches, rnd, chips)
    return None


def _candidate_sets(ctx: ArticleContext, org, acc, bench, rnd, fw, chips: set[int]) -> list[list[OfficialResult]]:
    """Result sets matching the claim, from strict to loose: the text may state the framework or scale
    loosely, and the org differently (Ascend results were submitted by SIAT, not Huawei).  Unscored rows
    are kept so the caller can tell 'no such result' from 'its logs are missing'."""
    out = []
    for who in [org] + ([None] if org and acc else []):
        base = dict(who=who, accelerator=acc, benchmark=bench, round=rnd)
        for f, cs in [(fw, chips), (None, chips), (fw, set()), (None, set())]:
            rows = [r for r in ctx.official.select(**base, framework=f) if not cs or r.accelerator_count in cs]
            if any(r.scored for r in rows):
                out.append(rows)
    return out


def _one_result(claim: Claim, ctx: ArticleContext, bench: str, rnd: str, chips: set[int],
                explicit_chips: bool) -> Fact | None:
    e = claim.entities
    if explicit_chips:
        named = ctx.official.select(who=e.org, accelerator=e.accelerator, benchmark=bench, round=rnd)
        sized = [r for r in named if r.accelerator_count in chips]
        if sized and not any(r.scored for r in sized):
            # the system the text names exists, but its logs are missing: a published time or nothing
            return _stated_time(claim, ctx, bench, rnd)
    sets = _candidate_sets(ctx, e.org, e.accelerator, bench, rnd, e.framework, chips)
    if not sets:
        return _stated_time(claim, ctx, bench, rnd)
    all_rows = next((rs for rs in sets if any(_fits(claim, r) for r in rs if r.scored)), sets[0])
    rows = [r for r in all_rows if r.scored]
    fitting = [r for r in rows if _fits(claim, r)]
    if not fitting:
        stated = _stated_time(claim, ctx, bench, rnd)
        if stated is not None:
            return stated
        if not _plausible(claim, ctx, bench, rnd):
            return None  # three weeks is not a time of this round: the sentence is about something else
        # A larger system of the same org whose logs are missing may hold the figure: say so, don't guess.
        org_rows = ctx.official.select(who=e.org or rows[0].org, benchmark=bench, round=rnd)
        biggest = max((r.accelerator_count or 0 for r in rows), default=0)
        if not explicit_chips and any(not r.scored and (r.accelerator_count or 0) > biggest for r in org_rows):
            return None
    best = min(fitting or rows, key=lambda r: r.minutes or math.inf)
    label = _label(benchmark=bench, chips=best.accelerator_count, acc=best.accelerator, org=best.org,
                   fw=best.framework, round=rnd)
    alts = []
    for other in ctx.official.select(who=e.org, round=rnd):
        if other.scored and other.benchmark != bench and other.published_interval_seconds:
            alts.append((ATTRIBUTION, other.record_id, *other.published_interval_seconds))
    for other in ctx.official.select(who=e.org, benchmark=bench, accelerator=e.accelerator):
        if other.scored and other.round != rnd and other.published_interval_seconds:
            alts.append((MIXED_ROUNDS, other.record_id, *other.published_interval_seconds))
    for other in ctx.official.select(who=e.org, benchmark=bench, round=rnd):
        if other.scored and other.accelerator_count != best.accelerator_count and other.published_interval_seconds:
            alts.append((CHIP_COUNT, other.record_id, *other.published_interval_seconds))
    return _seconds_fact(best, label, tuple(alts))


def _plausible(claim: Claim, ctx: ArticleContext, bench: str, rnd: str) -> bool:
    """Whether a time could be a result of this benchmark in this round at all (within 10x of the range)."""
    secs = [r.seconds for r in ctx.official.select(benchmark=bench, round=rnd) if r.seconds]
    if not secs or not isinstance(claim.value, (int, float)):
        return True
    v = float(claim.value)
    return min(secs) / 10 <= v <= max(secs) * 10


def _stated_time(claim: Claim, ctx: ArticleContext, bench: str, rnd: str) -> Fact | None:
    """A published time from a primary source, for results whose logs are missing."""
    for st in ctx.official.statements:
        if st.metric != "train_time" or bench not in st.entity_values("benchmark") or rnd not in st.entity_values("round"):
            continue
        if st.entity_values("org") and claim.entities.org not in st.entity_values("org"):
            continue
        # a max-scale time says nothing about one 8-GPU machine: a claim about a single-node system
        # (DGX A100, 8 GPUs) is not checked against a statement about another system
        chips = _system_chips(ctx, claim.entities.system, rnd)
        if (claim.entities.system and st.entity_values("system") and claim.entities.system not in st.entity_values(
                "system") and chips is not None and chips <= 16):
            continue
        v = float(st.value)  # seconds, published to two decimals of a minute
        return Fact(v, v - 0.3, v + 0.3, st.evidence, f"{st.id}: {st.text}")
    return None


def _fits(claim: Claim, r: OfficialResult) -> bool:
    from pipeline.reconcile.verdicts import overlaps

    iv = r.published_interval_seconds
    return iv is not None and overlaps(claim.low, claim.high, *iv)


def _all_within(claim: Claim, ctx: ArticleContext, benches: tuple[str, ...], rnd: str, chips: set[int]) -> Fact | None:
    """"all these models trained in under 33 s": the slowest of them must be within it."""
    e = claim.entities
    org = _org(claim, ctx)
    count = next((c for c in ctx.siblings(claim) if c.kind == "count" and c.counted in ("model", "benchmark")
                  and c.of_total is not None), None)
    if not benches and count is None and not chips:
        return None  # "under 30 seconds" of what? Without the models, the count or the scale, nothing decides it
    best: dict[str, OfficialResult] = {}
    for r in ctx.official.select(who=org, round=rnd, accelerator=e.accelerator):
        if not r.scored or (benches and r.benchmark not in benches) or (chips and r.accelerator_count not in chips):
            continue
        if r.benchmark not in best or (r.minutes or math.inf) < (best[r.benchmark].minutes or math.inf):
            best[r.benchmark] = r
    if not best:
        return None
    ranked = sorted(best.values(), key=lambda r: r.minutes or math.inf)
    if count is not None and isinstance(count.value, (int, float)) and 0 < count.value <= len(ranked):
        # "four of the eight models in 30 s": the fourth fastest must be within it
        ranked = ranked[: int(count.value)]
    slowest = ranked[-1]
    lo, hi = slowest.published_interval_seconds or (slowest.seconds, slowest.seconds)
    names = ", ".join(f"{r.benchmark} {r.published_minutes:.2f} min" for r in ranked)
    label = _label(org=org, round=rnd, chips=tuple(sorted(chips)) or None) + f": slowest of {names}"
    return Fact(slowest.seconds or 0.0, lo, hi, tuple(r.record_id for r in ranked), label)


# -- sizes ---------------------------------------------------------------------------------------
def chip_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    e = claim.entities
    rnd = _round(claim, ctx)
    if rnd is None or (e.accelerator is None and e.org is None):
        return None
    entry = ctx.kb.get("system", e.system) if e.system else None
    rounds = [rnd]
    if entry is not None and entry.attr("chips") and entry.attr("rounds"):
        rounds = list(entry.attr("rounds"))  # the Cloud TPU v3 Pod of v0.6 is named in a v0.7 story
    if entry is not None and entry.attr("chips", rnd) and not e.benchmark and claim.bound == "exact":
        # "last year's 256-chip Pod", "a DGX A100's eight GPUs": a named system has one size; the table
        # must show a system of that size in the system's rounds
        size = int(entry.attr("chips", rnd))
        acc = e.accelerator or entry.attr("accelerator")
        org = e.org or entry.attr("org")
        recs = [r.record_id for x in rounds for r in ctx.official.select(who=org, accelerator=acc, round=x)
                if r.accelerator_count == size]
        if recs:
            return Fact(size, size, size, tuple(recs[:6]), f"{e.system}: {size} {acc} chips in {', '.join(rounds)}",
                        maximum=size)
    rows = [r for x in rounds for r in ctx.official.select(who=e.org, accelerator=e.accelerator, round=x,
                                                           benchmark=e.benchmark) if r.accelerator_count]
    if not rows and e.benchmark:
        rows = [r for x in rounds for r in ctx.official.select(who=e.org, accelerator=e.accelerator, round=x)
                if r.accelerator_count]
    if not rows and e.org:
        rows = [r for r in ctx.official.select(accelerator=e.accelerator, round=rnd) if r.accelerator_count]
    if not rows:
        return None
    sizes = sorted({r.accelerator_count for r in rows if r.accelerator_count})
    top = sizes[-1]
    label = _label(acc=e.accelerator, org=e.org, benchmark=e.benchmark, round="/".join(rounds))
    if claim.bound == "lower" or claim.bound == "upper":
        pick = top if claim.bound == "lower" else sizes[0]
    else:
        inside = [s for s in sizes if (claim.low is None or s >= claim.low) and (claim.high is None or s <= claim.high)]
        target = float(claim.value) if isinstance(claim.value, (int, float)) else top
        pick = inside[0] if inside else min(sizes, key=lambda s: abs(s - target))
    evidence = tuple(r.record_id for r in rows if r.accelerator_count == pick)[:6]
    return Fact(pick, pick, pick, evidence, f"{label}: system sizes {_sizes_text(sizes)}", maximum=top)


def _sizes_text(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes)) if len(sizes) <= 8 else f"{sizes[0]} to {sizes[-1]} ({len(sizes)} sizes)"


def host_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    e = claim.entities
    rnd = _round(claim, ctx)
    chips = _system_chips(ctx, e.system, rnd)
    rows = [r for r in ctx.official.select(who=e.org, accelerator=e.accelerator, round=rnd)
            if r.host_count and (chips is None or r.accelerator_count == chips)]
    if not rows or rnd is None:
        return None
    hosts = sorted({r.host_count for r in rows if r.host_count})
    target = float(claim.value) if isinstance(claim.value, (int, float)) else hosts[-1]
    pick = min(hosts, key=lambda h: abs(h - target)) if chips is None else hosts[-1]
    evidence = tuple(r.record_id for r in rows if r.host_count == pick)[:6]
    return Fact(pick, pick, pick, evidence, _label(acc=e.accelerator, org=e.org, chips=chips, round=rnd) + ": hosts")


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
    subject.setdefault("round", _round(claim, ctx))
    if not baseline.get("round"):
        same = subject.get("accelerator") == baseline.get("accelerator")
        baseline["round"] = ctx.kb.previous_round(subject.get("round")) if same else subject.get("round")
        baseline["round_guessed"] = True
    return subject, baseline


def _size_of(side: dict, ctx: ArticleContext) -> tuple[int, tuple[str, ...]] | None:
    chips = _system_chips(ctx, side.get("system"), side.get("round"))
    acc = side.get("accelerator")
    if acc is None and side.get("system"):
        entry = ctx.kb.get("system", side["system"])
        acc = entry.attr("accelerator") if entry else None
    if acc and side.get("round"):
        largest = ctx.official.largest_system(acc, side["round"], side.get("org"))
        if largest is not None:
            return largest.accelerator_count, largest.records[:4]
    return (chips, ()) if chips else None


def system_size_ratio(claim: Claim, ctx: ArticleContext) -> Fact | None:
    sides = _sides(claim, ctx)
    if sides is None:
        return None
    a, b = (_size_of(s, ctx) for s in sides)
    if not a or not b:
        return None
    ratio = a[0] / b[0]
    label = f"system size {_label(**sides[0])} vs {_label(**sides[1])}"
    return Fact(ratio, ratio, ratio, a[1] + b[1], label, derivation=f"{a[0]} chips / {b[0]} chips = {ratio:.3g}x")


def speedup(claim: Claim, ctx: ArticleContext) -> Fact | None:
    if _is_magnitude(claim):
        return magnitude(claim, ctx)
    sides = _sides(claim, ctx)
    if sides is None:
        # "the fastest results improved 2.7x on average": a statement about the round as a whole
        if claim.entities.org or claim.entities.accelerator:
            return None
        return _statement_fact(claim, ctx, "speedup", ("round",))
    sub, base = sides
    if sub.get("accelerator") == base.get("accelerator") and sub.get("system") != base.get("system") and (
            _size_cue(claim, ctx)):
        return system_size_ratio(claim, ctx)
    if not sub.get("accelerator") or not base.get("accelerator"):
        if claim.entities.org or claim.entities.accelerator:
            return None
        return _statement_fact(claim, ctx, "speedup", ("round",))
    org = sub.get("org") or _org(claim, ctx)
    chips = _nearby_chips(claim, ctx, {sub.get("accelerator"), base.get("accelerator")}) | {
        c for s in (sub, base) for c in [_system_chips(ctx, s.get("system"), s.get("round"))] if c}
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
    per = ", ".join(f"{k} {v:.2f}x" for k, v in sp.per_benchmark)
    bench = claim.entities.benchmark
    if bench and bench in sp.ratios:
        r = sp.ratios[bench]
        ids = tuple(x for x in sp.evidence if x.endswith("/" + bench))
        return Fact(round(r, 4), r, r, ids, f"{bench} speedup of {_label(acc=sub['accelerator'], round=sub['round'])} "
                    f"over {_label(acc=base['accelerator'], round=base['round'])} at {scale} chips",
                    derivation=f"per benchmark {per}")
    label = (f"speedup of {_label(acc=sub['accelerator'], round=sub['round'])} over "
             f"{_label(acc=base['accelerator'], round=base['round'])} at {scale} chips")
    deriv = f"per benchmark {per}; arithmetic mean {sp.arithmetic_mean:.2f}x, geometric {sp.geometric_mean:.2f}x"
    mean = sp.arithmetic_mean
    lo, hi = sorted((mean, sp.geometric_mean or mean))
    return Fact(round(mean, 4), lo, hi, sp.evidence, label, derivation=deriv, maximum=max(sp.ratios.values()))


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
                                                                round=sub["round"]) if r.scored}
    sizes_b = {r.accelerator_count for r in ctx.official.select(who=org_b, accelerator=base["accelerator"],
                                                                round=base["round"]) if r.scored}
    common = sorted((chips & sizes_a & sizes_b) or (sizes_a & sizes_b))
    best = None
    for scale in common:
        sp = ctx.official.speedup(ctx.official.results_for(org, sub["accelerator"], scale, sub["round"]),
                                  ctx.official.results_for(org_b, base["accelerator"], scale, base["round"]))
        if sp.arithmetic_mean is not None and (best is None or len(sp.per_benchmark) >= len(best[0].per_benchmark)):
            best = (sp, scale)
    return best if best else (None, None)


def _is_magnitude(claim: Claim) -> bool:
    words = load_language(claim.lang).magnitude_words
    return claim.kind == "ratio" and any(w.lower() in claim.text.lower() for w in words)


def _size_cue(claim: Claim, ctx: ArticleContext) -> bool:
    words = load_language(claim.lang).cues.get("size", ())
    return any(w.lower() in claim.sentence.lower() for w in words)


def magnitude(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"近五个数量级": an old time written earlier vs this round's times of the same org."""
    # the old time is stated in an earlier sentence ("三个多星期"); a span in the same sentence is the
    # time between ("五年之后")
    old = next((c for c in reversed(ctx.earlier(claim) + ctx.siblings(claim)) if c.kind == "duration"
                and c.start < claim.start and isinstance(c.value, (int, float))
                and 86400 <= float(c.value) < 365 * 86400), None)
    rnd = _round(claim, ctx)
    if old is None or rnd is None:
        return None
    rows = [r for r in ctx.official.select(who=claim.entities.org, round=rnd) if r.scored]
    if not rows:
        return None
    fastest: dict[str, float] = {}
    for r in rows:
        fastest[r.benchmark] = min(fastest.get(r.benchmark, math.inf), r.seconds or math.inf)
    t_min, t_max = min(fastest.values()), max(fastest.values())
    old_lo = old.low if old.low is not None else float(old.value)
    old_hi = old.high if old.high is not None else float(old.value)
    lo, hi = old_lo / t_max, old_hi / t_min
    deriv = (f"{old.text} = {old_lo / 86400:.0f}-{old_hi / 86400:.0f} days vs this round's fastest times "
             f"{t_min:.1f}-{t_max:.1f} s: {lo:.3g}-{hi:.3g}x = 10^{math.log10(lo):.2f}-10^{math.log10(hi):.2f}")
    return Fact(math.sqrt(lo * hi), lo, hi, tuple(r.record_id for r in rows[:6]),
                f"speed-up since '{old.text}'", derivation=deriv)


# -- statements ------------------------------------------------------------------------------------
def _statement_fact(claim: Claim, ctx: ArticleContext, metric: str, keys: tuple[str, ...]) -> Fact | None:
    e = claim.entities.as_dict()
    e.setdefault("round", None)
    e["round"] = e.get("round") or ctx.round
    cands = [s for s in ctx.official.statements if s.metric == metric and s.value is not None]
    best, score = None, -1
    for s in cands:
        ok, n = True, 0
        for k in keys:
            want = e.get(k)
            have = s.entity_values(k)
            if have and want and want not in have:
                ok = False
            n += int(bool(have and want in have))
        if ok and n > score:
            best, score = s, n
    if best is None or score <= 0:
        return None
    v = best.value
    lo = hi = v if isinstance(v, (int, float)) else None
    note = best.note.lower()
    if "bound=upper" in note:
        lo = None
    return Fact(v, lo, hi, best.evidence, f"{best.id}: {best.text}")


def records_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    fact = _statement_fact(claim, ctx, "records_claimed", ("org", "round", "system", "accelerator"))
    org, rnd = claim.entities.org, _round(claim, ctx)
    same = [s for s in ctx.official.statements if s.metric == "records_claimed" and org in s.entity_values("org")
            and rnd in s.entity_values("round") and isinstance(s.value, (int, float))]
    if len(same) > 1 and isinstance(claim.value, (int, float)):
        total = sum(float(s.value) for s in same)
        if abs(total - float(claim.value)) < 0.5:  # "16 records" = 8 at scale + 8 per accelerator
            return Fact(total, total, total, tuple(s.source_url for s in same),
                        f"{org}'s {rnd} records", derivation=" + ".join(f"{s.value:g} ({s.id})" for s in same))
    return fact


def peak_compute(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """A system's peak: the maker's statement, with chips x per-chip peak shown as a cross-check."""
    fact = _statement_fact(claim, ctx, "peak_compute", ("org", "accelerator", "round"))
    rnd = _round(claim, ctx)
    acc = claim.entities.accelerator
    chips = _system_chips(ctx, claim.entities.system, rnd)
    if chips is None and acc and rnd:
        largest = ctx.official.largest_system(acc, rnd, claim.entities.org)
        chips = largest.accelerator_count if largest else None
    per_chip = [s for s in ctx.official.statements if s.metric == "per_chip_peak_compute"
                and acc in s.entity_values("accelerator") and isinstance(s.value, (int, float))]
    if chips and per_chip:
        total = chips * float(per_chip[0].value)
        deriv = f"{chips} chips x {float(per_chip[0].value) / 1e12:.0f} TFLOPS = {total / 1e15:.0f} PFLOPS"
        if fact is None:
            return Fact(total, total, total, per_chip[0].evidence, f"peak of {chips} {acc} chips", derivation=deriv)
        return replace(fact, derivation=deriv)
    return fact


def per_chip_ratio(claim: Claim, ctx: ArticleContext) -> Fact | None:
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
    ratio = float(peaks[0].value) / float(peaks[1].value)
    return Fact(ratio, ratio, ratio, peaks[0].evidence + peaks[1].evidence, "per-chip peak compute",
                derivation=f"{float(peaks[0].value) / 1e12:.0f} / {float(peaks[1].value) / 1e12:.0f} TFLOPS = {ratio:.3g}x")


def benchmarks_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    rnd = _round(claim, ctx)
    if rnd is None:
        return None
    if _limit(claim, ctx) is not None and not _records_cue(claim):
        return models_count(claim, ctx)  # "four of the eight benchmarks in under 30 seconds"
    if claim.entities.org:
        leads = ctx.official.leads(claim.entities.org, rnd)
        stated = records_count(claim, ctx)
        if stated is not None:
            return stated
        return Fact(leads.count, leads.count, leads.count, leads.evidence,
                    f"benchmarks where {claim.entities.org} has the fastest {rnd} result: {', '.join(leads.benchmarks)}")
    benches = ctx.official.benchmarks(rnd)
    listed = ctx.benchmarks_in_sentence.get(claim.sentence_index, ())
    if isinstance(claim.value, (int, float)) and float(claim.value) < len(benches) and claim.of_total is None:
        if listed and len(listed) == claim.value:
            return Fact(len(listed), len(listed), len(listed), (rnd,), f"the benchmarks named: {', '.join(listed)}")
        return None  # "the other four benchmarks": a subset the sentence does not name
    return Fact(len(benches), len(benches), len(benches), (rnd,), f"benchmarks of {rnd}: {', '.join(benches)}")


def _limit(claim: Claim, ctx: ArticleContext) -> Claim | None:
    """A time limit stated for the counted models ("四套模型…30秒之内"), not one of a single benchmark."""
    return next((c for c in ctx.siblings(claim) if c.kind == "duration" and c.bound == "upper"
                 and not c.entities.benchmark), None)


def _records_cue(claim: Claim) -> bool:
    nouns = load_language(claim.lang).nouns
    return any(n.lower() in claim.sentence.lower() for n, c in nouns.items() if c == "record" and len(n) > 1)


def models_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    rnd = _round(claim, ctx)
    limit = _limit(claim, ctx)
    if rnd is None or limit is None:
        return None
    org = _org(claim, ctx)
    if limit is not None and org and isinstance(limit.value, (int, float)):
        cu = ctx.official.count_under(org, rnd, float(limit.value))
        return Fact(cu.count, cu.count, cu.count, cu.records[:8],
                    f"{org}'s {rnd} benchmarks under {limit.value} s: {', '.join(cu.benchmarks)}")
    return None


def companies_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    rnd = _round(claim, ctx)
    if rnd is None or not _cue(claim, "submit"):
        return None  # "dozens of server makers offer A100 servers" is not about the submitters
    orgs = sorted({r.org for r in ctx.official.select(round=rnd)})
    return Fact(len(orgs), len(orgs), len(orgs), (rnd,), f"submitters of {rnd}: {', '.join(orgs)}")


def submissions_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    return _statement_fact(claim, ctx, "results_count", ("round",))


DATE_EVENTS = {"founding_date": "founding", "launch_date": "launch", "results_date": "results"}


def date(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """A date is checked against a dated statement about the same event (founding, launch, results)
    of the same entities, or against the round's results date."""
    if not isinstance(claim.value, str) or claim.value.startswith("--"):
        return None
    e = claim.entities.as_dict()
    for s in ctx.official.statements:
        event = DATE_EVENTS.get(s.metric)
        if event is None or not _cue(claim, event) or not isinstance(s.value, str):
            continue
        rounds = s.entity_values("round")
        if rounds and (e.get("round") or ctx.round) not in rounds:
            continue
        keys = [k for k, _ in s.entities if k != "round"]
        if keys and not all(e.get(k) in s.entity_values(k) for k in keys):
            continue
        if not keys and not _cue(claim, "mlperf"):
            continue
        precision = len(claim.value)
        return Fact(s.value[:precision], None, None, s.evidence, f"{s.id}: {s.text}")
    rnd = claim.entities.round
    entry = ctx.kb.get("round", rnd) if rnd else None
    when = entry.attr("date") if entry else None
    if when and _cue(claim, "results"):
        return Fact(str(when)[: len(claim.value)], None, None, (rnd,), f"{rnd} results date")
    if when and str(when)[:7] == claim.value[:7]:
        return Fact(str(when)[: len(claim.value)], None, None, (rnd,), f"{rnd} results date")
    return None


def run_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"each is run five times": the runs the round's rules require for the benchmarks named."""
    rnd = _round(claim, ctx)
    prev = max((c.end for c in ctx.siblings(claim) if c.end <= claim.start), default=claim.sentence_start)
    listed = tuple(dict.fromkeys(b for pos, b in ctx.benchmark_mentions.get(claim.sentence_index, ())
                                 if prev <= pos < claim.end))
    if rnd is None or not listed or "runs_required" not in ctx.official.table.columns:
        return None
    table = ctx.official.table
    rows = table[(table["round"] == rnd) & (table["benchmark"].isin(listed))]
    required = sorted({int(v) for v in rows["runs_required"].dropna()})
    if len(required) != 1:
        return None
    n = required[0]
    return Fact(n, n, n, (rnd,), f"runs required per result for {', '.join(listed)} in {rnd}")


# -- time between events -------------------------------------------------------------------------
def _date_range(iso: str) -> tuple[dt.date, dt.date] | None:
    """The days an ISO date written to some precision covers: "2015" is all of 2015."""
    try:
        if len(iso) == 4:
            return dt.date(int(iso), 1, 1), dt.date(int(iso), 12, 31)
        if len(iso) == 7:
            y, m = int(iso[:4]), int(iso[5:7])
            nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
            return dt.date(y, m, 1), nxt - dt.timedelta(days=1)
        d = dt.date.fromisoformat(iso[:10])
        return d, d
    except ValueError:
        return None


def elapsed(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"五年之后", "less than three months after its launch", "a year ago": the time from an earlier
    event (a date written nearby, a launch on record, the previous round) to this round's results."""
    rnd = ctx.round or _round(claim, ctx)
    entry = ctx.kb.get("round", rnd) if rnd else None
    end = _date_range(str(entry.attr("date"))) if entry and entry.attr("date") else None
    if end is None:
        return None
    start, label, evidence = None, "", ()
    near = [c for c in ctx.claims if c.kind == "date" and isinstance(c.value, str) and not c.value.startswith("--")
            and claim.sentence_index - 2 <= c.sentence_index <= claim.sentence_index and c.start < claim.start]
    # The end point is this round's results: a span that ends at another event ("six weeks after launch
    # it reached Google Cloud") is not decided by the results.
    if near and not _cue(claim, "launch"):
        d = near[-1]
        start, label, evidence = _date_range(d.value), f"from '{d.text}'", (d.id,)
    elif _cue(claim, "launch") and (_cue(claim, "results") or _cue(claim, "mlperf")):
        for s in ctx.official.statements:
            if claim.entities.system and claim.entities.system not in s.entity_values("system"):
                continue  # the SuperPOD's launch is not the A100's
            if s.metric == "launch_date" and isinstance(s.value, str) and claim.entities.accelerator in s.entity_values(
                    "accelerator"):
                start, label, evidence = _date_range(s.value), f"from {s.id} ({s.value})", s.evidence
                break
    elif claim.entities.round and claim.entities.round != rnd:
        other = ctx.kb.get("round", claim.entities.round)
        if other and other.attr("date"):
            start = _date_range(str(other.attr("date")))
            label, evidence = f"from the {claim.entities.round} results ({other.attr('date')})", (claim.entities.round,)
    if start is None:
        return None
    lo = (end[0] - start[1]).days * 86400.0
    hi = (end[1] - start[0]).days * 86400.0
    if hi <= 0:
        return None
    return Fact((lo + hi) / 2, max(lo, 0.0), hi, tuple(evidence) + (rnd,),
                f"time {label} to the {rnd} results ({entry.attr('date')})",
                derivation=f"{lo / 86400:.0f}-{hi / 86400:.0f} days")


RESOLVERS: dict[str, Callable[[Claim, ArticleContext], Fact | None]] = {
    "run_count": run_count,
    "train_time": train_time,
    "chip_count": chip_count,
    "gpu_count": chip_count,
    "host_count": host_count,
    "system_size_ratio": system_size_ratio,
    "speedup": speedup,
    "per_chip_compute_ratio": per_chip_ratio,
    "peak_compute": peak_compute,
    "records_count": records_count,
    "benchmarks_count": benchmarks_count,
    "models_count": models_count,
    "companies_count": companies_count,
    "submissions_count": submissions_count,
    "date": date,
    "duration": elapsed,
}


def resolve(claim: Claim, ctx: ArticleContext) -> Fact | None:
    fn = RESOLVERS.get(claim.metric or "")
    if fn is None and claim.kind == "duration" and claim.entities.benchmark:
        fn = train_time
    fact = fn(claim, ctx) if fn else None
    if fact is None and claim.kind == "duration" and fn is not elapsed and isinstance(claim.value, (int, float)) and (
            float(claim.value) >= 28 * 86400):
        # months and years are never MLPerf training times: the time between two events
        return elapsed(claim, ctx)
    return fact
