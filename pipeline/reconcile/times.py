"""Training times and the time between events."""

from __future__ import annotations

import datetime as dt
import math
from typing import cast

from pipeline.official.answers import OfficialResult
from pipeline.reconcile.context import (
    ArticleContext,
    fastest_time,
    has_cue,
    label_of,
    org_of,
    round_name,
    round_of,
    seconds_fact,
    sentence_chips,
    system_chips,
)
from pipeline.reconcile.verdicts import ATTRIBUTION, CHIP_COUNT, MIXED_ROUNDS, Fact, overlaps
from pipeline.records import Claim


# -- training times ------------------------------------------------------------------------------------
def train_time(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The official time of the result the claim describes (benchmark, subject, round, chips); for "under N"
    with no benchmark named, the slowest of the subject's times on its sentence's benchmarks."""
    e = claim.entities
    rnd = round_of(claim, ctx)
    if rnd is None:
        return None
    if e.benchmark and not _plausible(claim, ctx, e.benchmark, rnd):
        return None  # a year is no training time of this benchmark: the sentence is about something else
    benches = (e.benchmark,) if e.benchmark else ctx.benchmarks_in_sentence.get(claim.sentence_index, ())
    explicit = sentence_chips(claim, ctx)
    named = {n for n in (system_chips(ctx, e.system, rnd),) if n is not None}
    # "IPU-POD256，以 128 顆 IPU 訓練 ResNet-50，成績 3.79 分鐘": the machine's own size is a reading too, when
    # the count beside it disagrees (one of the two is wrong, and the count is checked on its own)
    chips: set[int] = (explicit | named) if explicit else named
    if e.benchmark:
        # one machine of a product ("单台DGX-2H", "On one DGX A100 with eight GPUs"): no larger cluster of it
        strict = bool(chips) and _single_machine(claim, ctx)
        return _one_result(claim, ctx, e.benchmark, rnd, chips, bool(explicit), strict)
    if not benches and has_cue(ctx, claim, "some_workloads"):
        return _some_workload(claim, ctx, rnd)
    if claim.bound == "upper" and org_of(claim, ctx):
        return _all_within(claim, ctx, benches, rnd, chips)
    return None


def _some_workload(claim: Claim, ctx: ArticleContext, rnd: str) -> Fact | None:
    """"A class of models can now be trained in around a minute", "部分模型的训练时间已不到两分钟": a time said
    of some of the round's benchmarks, none named.  The nearest of the round's fastest times (the subject's,
    when the sentence has one) is the reading: it supports the claim when it fits, and refutes nothing when
    it does not (the words do not say which benchmarks they mean)."""
    org = org_of(claim, ctx)
    best: list[tuple[float, str, str]] = []
    for bench in ctx.official.benchmarks(rnd):
        found = fastest_time(ctx, org, claim.entities.accelerator, bench, rnd)
        if found is not None:
            best.append((found[0], found[1], bench))
    if not best or claim.value is None:
        return None
    lo = claim.low if claim.low is not None else -math.inf
    hi = claim.high if claim.high is not None else math.inf
    target = float(claim.value)
    secs, ev, bench = min(best, key=lambda b: (not lo <= b[0] <= hi, abs(b[0] - target)))
    who = f" by {ctx.name('org', org)}" if org else ""
    label = (f"the fastest {ctx.name('benchmark', bench)} time of {round_name(ctx.kb, rnd)}{who} "
             f"({secs / 60:.2f} min), the nearest of the fastest times of {len(best)} benchmarks")
    return Fact(secs, secs, secs, (ev,), label, complete=False,
                open_why="its words name none of the round's benchmarks, so no one time refutes it")


def fastest_result(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"首轮最快成绩为 6.24 分钟", "the best ResNet-50 time": the fastest result of the benchmark in the
    round (closed division; of the company, when the reading names one), or a time it published for a
    result whose logs are missing."""
    e = claim.entities
    rnd = round_of(claim, ctx)
    if not e.benchmark or rnd is None:
        return None
    best = fastest_time(ctx, e.org, e.accelerator, e.benchmark, rnd)
    if best is None:
        return None
    secs, ev = best
    try:
        lo, hi = ctx.official.record(ev).published_interval_seconds or (secs, secs)
    except KeyError:  # a published time (a statement), to two decimals of a minute
        lo, hi = secs - 0.3, secs + 0.3
    who = f" by {ctx.name('org', e.org)}" if e.org else ""
    label = (f"the fastest {ctx.name('benchmark', e.benchmark)} time of {round_name(ctx.kb, rnd)}{who} "
             f"({secs / 60:.2f} min)")
    return Fact(secs, lo, hi, (ev,), label)


def _single_machine(claim: Claim, ctx: ArticleContext) -> bool:
    entry = ctx.kb.get("system", claim.entities.system) if claim.entities.system else None
    product = entry is not None and entry.attr("chips") and not entry.attrs.get("rounds")
    return bool(product) and has_cue(ctx, claim, "single")


def _candidate_sets(ctx: ArticleContext, org, acc, bench, rnd, fw, chips: set[int], strict: bool = False,
                    named: bool = False) -> list[list[OfficialResult]]:
    """Result sets matching the claim, from strict to loose: the text may state the framework or scale
    loosely, and the org differently (Ascend results were submitted by SIAT, not Huawei).  Unscored rows
    are kept so the caller can tell 'no such result' from 'its logs are missing'."""
    out: list[list[OfficialResult]] = []
    for who in [org] + ([None] if org and acc else []):
        if who is None and out and named:
            # another submitter's result only where the org its sentence names has none (the Ascend's were
            # SIAT's, not Huawei's): one that merely fits would hide a time given to the wrong company
            break
        base = dict(who=who, accelerator=acc, benchmark=bench, round=rnd)
        for f, cs in [(fw, chips), (None, chips)] + ([] if strict else [(fw, set()), (None, set())]):
            rows = [r for r in ctx.official.select(**base, framework=f) if not cs or r.accelerator_count in cs]
            if any(r.scored for r in rows):
                out.append(rows)
    return out


def _one_result(claim: Claim, ctx: ArticleContext, bench: str, rnd: str, chips: set[int],
                explicit_chips: bool, strict: bool = False) -> Fact | None:
    e = claim.entities
    if explicit_chips:
        named = ctx.official.select(who=e.org, accelerator=e.accelerator, benchmark=bench, round=rnd)
        sized = [r for r in named if r.accelerator_count in chips]
        if sized and not any(r.scored for r in sized):
            # the system the text names exists, but its logs are missing: a published time or nothing
            return _stated_time(claim, ctx, bench, rnd)
    org_named = bool(e.org) and e.org in ctx.named.get(claim.sentence_index, {}).get("org", ())
    sets = _candidate_sets(ctx, e.org, e.accelerator, bench, rnd, e.framework, chips, strict, org_named)
    if not sets:
        return _stated_time(claim, ctx, bench, rnd)
    all_rows = next((rs for rs in sets if any(_fits(claim, r) for r in rs if r.scored)), sets[0])
    rows = [r for r in all_rows if r.scored]
    fitting = [r for r in rows if _fits(claim, r)]
    if not fitting:
        # a published time decides when it is the claim's figure or stands for logs that are missing;
        # otherwise the table's own best result is the evidence
        stated = _stated_time(claim, ctx, bench, rnd)
        if stated is not None and (overlaps(claim.low, claim.high, stated.low, stated.high)
                                   or any(not r.scored for r in all_rows)):
            return stated
        if not _plausible(claim, ctx, bench, rnd):
            return None  # three weeks is not a time of this round: the sentence is about something else
        # A larger system of the same org whose logs are missing may hold the figure: say so, don't guess.
        org_rows = ctx.official.select(who=e.org or rows[0].org, benchmark=bench, round=rnd)
        biggest = max((r.accelerator_count or 0 for r in rows), default=0)
        if not explicit_chips and not strict and any(
                not r.scored and (r.accelerator_count or 0) > biggest for r in org_rows):
            return None
    best = min(fitting or rows, key=lambda r: r.minutes or math.inf)
    label = label_of(ctx.kb, benchmark=bench, chips=best.accelerator_count, acc=best.accelerator, org=best.org,
                   fw=best.framework, round=rnd)
    if fitting:
        return seconds_fact(best, label)  # it fits: no distortion to explain
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
    return seconds_fact(best, label, tuple(alts))


def _plausible(claim: Claim, ctx: ArticleContext, bench: str, rnd: str) -> bool:
    """Whether a time could be a result of this benchmark in this round at all (within 10x of the range)."""
    secs = [r.seconds for r in ctx.official.select(benchmark=bench, round=rnd) if r.seconds]
    if not secs or not isinstance(claim.value, (int, float)):
        return True
    v = float(claim.value)
    return min(secs) / 10 <= v <= max(secs) * 10


def _stated_time(claim: Claim, ctx: ArticleContext, bench: str, rnd: str) -> Fact | None:
    """A published time from a primary source, for results whose logs are missing."""
    for st in ctx.official.statements_of("train_time"):
        if st.metric != "train_time" or bench not in st.entity_values("benchmark") \
                or rnd not in st.entity_values("round"):
            continue
        if st.entity_values("org") and claim.entities.org and claim.entities.org not in st.entity_values("org"):
            continue  # naming nobody, a time may be anyone's published one
        # a max-scale time says nothing about one 8-GPU machine: a claim about a single-node system
        # (DGX A100, 8 GPUs) is not checked against a statement about another system
        chips = system_chips(ctx, claim.entities.system, rnd)
        if (claim.entities.system and st.entity_values("system") and claim.entities.system not in st.entity_values(
                "system") and chips is not None and chips <= 16):
            continue
        if st.value is None:
            continue
        v = float(st.value)  # seconds, published to two decimals of a minute
        return Fact(v, v - 0.3, v + 0.3, st.evidence, st.text, source="statement")
    return None


def _fits(claim: Claim, r: OfficialResult) -> bool:
    iv = r.published_interval_seconds
    return iv is not None and overlaps(claim.low, claim.high, *iv)


def _all_within(claim: Claim, ctx: ArticleContext, benches: tuple[str, ...], rnd: str, chips: set[int]) -> Fact | None:
    """"all these models trained in under 33 s": the slowest of them must be within it."""
    e = claim.entities
    org = org_of(claim, ctx)
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
    label = f"the slowest of {names} by " + label_of(ctx.kb, org=org, round=rnd, chips=tuple(sorted(chips)) or None)
    return Fact(slowest.seconds or 0.0, lo, hi, tuple(r.record_id for r in ranked), label)


# -- time between events -------------------------------------------------------------------------
def _debut_or_tenure(claim: Claim, ctx: ArticleContext, rnd: str
                     ) -> tuple[tuple[dt.date, dt.date], tuple[dt.date, dt.date], str, tuple[str, ...], str] | None:
    """(start, end, label, evidence, end round) of a span its words tie to a chip's debut ("since the chip's
    debut two and a half years ago": its first round with results, to this round) or to a benchmark's time in
    the suite ("服役两年的 GPT-3", "告别 BERT … 五年": its first round to its last, this one at the latest)."""
    def date_of(rid: str | None) -> tuple[dt.date, dt.date] | None:
        entry = ctx.kb.get("round", rid) if rid else None
        return _date_range(str(entry.attr("date"))) if entry is not None and entry.attr("date") else None

    acc, bench = claim.entities.accelerator, claim.entities.benchmark
    if acc and has_cue(ctx, claim, "debut", clause=True):
        seen = {r.round for r in ctx.official.select(accelerator=acc)}
        first = next((r.id for r in ctx.kb.rounds if r.id in seen), None)
        start, end = date_of(first), date_of(rnd)
        if first and start and end and first != rnd:
            return start, end, f"from {ctx.name('accelerator', acc)}'s first MLPerf results ({first})", (first,), rnd
    if bench and has_cue(ctx, claim, "tenure"):
        first, last = ctx.kb.first_round(bench), ctx.kb.last_round(bench)
        order = [r.id for r in ctx.kb.rounds]
        if last and rnd in order and last in order:
            # served until the round that replaced it ("服役两年的 GPT-3": v3.0 to v5.0), or, still in the
            # suite, until this one
            after = order.index(last) + 1
            last = order[after] if after < len(order) and after <= order.index(rnd) else rnd
        start, end = date_of(first), date_of(last)
        if first and last and start and end and first != last:
            return (start, end, f"from {ctx.name('benchmark', bench)}'s first round ({first})", (first, last),
                    last)
    return None


def _locates(claim: Claim, ctx: ArticleContext) -> bool:
    """"six months earlier", "半年前": a span that points back to a round (the linker took the round from
    these words) rather than one measured between two events."""
    after = claim.sentence[claim.end - claim.sentence_start:].lstrip().lower()
    return any(after.startswith(w.lower()) for w in ctx.kb.linking.ago)


def _round_back(ctx: ArticleContext, named: str, rnd: str, end: dt.date) -> Fact | None:
    """What "N months earlier" may say and still point at the round it names: any span nearer to that
    round's distance back than to another round's (rounds come twice a year, and news rounds the gap)."""
    back = sorted(((end - d[0]).days, r.id) for r in ctx.kb.rounds
                  if r.attr("date") and (d := _date_range(str(r.attr("date")))) is not None and d[0] <= end)
    days = [n for n, _ in back]
    i = next((k for k, (_, rid) in enumerate(back) if rid == named), None)
    if i is None or days[i] <= 0:
        return None
    lo = (days[i - 1] + days[i]) / 2 if i > 0 else 0.0
    hi = (days[i] + days[i + 1]) / 2 if i + 1 < len(days) else days[i] * 1.5
    entry = ctx.kb.get("round", named)
    return Fact(days[i] * 86400.0, lo * 86400.0, hi * 86400.0, (named, rnd),
                f"the time back to the {round_name(ctx.kb, named)} results ({entry.attr('date') if entry else ''}) "
                f"from the {round_name(ctx.kb, rnd)} results: {days[i]} days, and any span from {lo:.0f} to "
                f"{hi:.0f} days back points at that round, not another",
                derivation=f"{days[i]} days")


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


DAY = 86_400.0  # seconds


def elapsed(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"五年之后", "less than three months after its launch", "a year ago": the time from an earlier
    event (a date written nearby, a launch on record, the previous round) to this round's results."""
    if isinstance(claim.high, (int, float)) and claim.high < DAY:
        return None  # seconds or minutes are no span between dates: a result's time (its verb unknown)
    rnd = ctx.round or round_of(claim, ctx)
    entry = ctx.kb.get("round", rnd) if rnd else None
    end = _date_range(str(entry.attr("date"))) if entry and entry.attr("date") else None
    if end is None or entry is None or rnd is None:
        return None
    start, label, evidence = None, "", cast(tuple[str, ...], ())
    near = [c for c in ctx.claims if c.kind == "date" and isinstance(c.value, str) and not c.value.startswith("--")
            and claim.sentence_index - 2 <= c.sentence_index <= claim.sentence_index and c.start < claim.start]
    # The end point is this round's results: a span that ends at another event ("six weeks after launch
    # it reached Google Cloud") is not decided by the results.
    if near and not has_cue(ctx, claim, "launch"):
        d = near[-1]
        start, label, evidence = _date_range(str(d.value)), f"from '{d.text}'", (d.id,)
    elif has_cue(ctx, claim, "launch") and (has_cue(ctx, claim, "results")
                                                  or has_cue(ctx, claim, "mlperf")):
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
            if _locates(claim, ctx):
                return _round_back(ctx, claim.entities.round, rnd, end[0])
            start = _date_range(str(other.attr("date")))
            label = f"from the {round_name(ctx.kb, claim.entities.round)} results ({other.attr('date')})"
            evidence = (claim.entities.round,)
    if start is None:
        spanned = _debut_or_tenure(claim, ctx, rnd)
        if spanned is None:
            return None
        start, end, label, evidence, rnd = spanned
        entry = ctx.kb.get("round", rnd) or entry
    lo = (end[0] - start[1]).days * 86400.0
    hi = (end[1] - start[0]).days * 86400.0
    if hi <= 0:
        return None
    return Fact((lo + hi) / 2, max(lo, 0.0), hi, tuple(evidence) + (rnd,),
                f"the time {label} to the {round_name(ctx.kb, rnd)} results ({entry.attr('date')})",
                derivation=f"{lo / 86400:.0f}-{hi / 86400:.0f} days")
