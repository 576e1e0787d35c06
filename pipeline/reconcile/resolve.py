"""Find the deciding fact for a claim: its metric and entities become a question to the official tables
(or to the primary-source statements), answered with a Fact that names its evidence.

One function per metric family (times, sizes, ratios, statements); each returns None when nothing can
decide the claim (unverifiable).
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.reconcile.context import ArticleContext
from pipeline.reconcile.counts import (
    entries_count,
    new_count,
    per_chip_wins_count,
    single_node_wins_count,
    size_count,
    submissions_of,
    suite_count,
    system_count,
    wins_count,
)
from pipeline.reconcile.ratios import per_chip_ratio, speedup, system_size_ratio
from pipeline.reconcile.sizes import benchmarks_count, chip_count, companies_count, host_count, models_count, run_count
from pipeline.reconcile.statements import (
    STATED,
    date,
    peak_compute,
    pod_chips,
    pod_share,
    records_count,
    stated,
    statement_fact,
    submissions_count,
)
from pipeline.reconcile.times import elapsed, fastest_result, train_time
from pipeline.reconcile.verdicts import Fact
from pipeline.records import Claim, is_span

RESOLVERS: dict[str, Callable[[Claim, ArticleContext], Fact | None]] = {
    "run_count": run_count,
    "train_time": train_time,
    "fastest_time": fastest_result,
    "chip_count": chip_count,
    "gpu_count": chip_count,
    "host_count": host_count,
    "system_size_ratio": system_size_ratio,
    "speedup": speedup,
    "per_chip_compute_ratio": per_chip_ratio,
    "peak_compute": peak_compute,
    "compute": peak_compute,  # a system's compute with no 'peak' word is still its peak figure
    "records_count": records_count,
    "benchmarks_count": benchmarks_count,
    "models_count": models_count,
    "companies_count": companies_count,
    "submissions_count": lambda c, ctx: submissions_of(c, ctx) or submissions_count(c, ctx),
    "wins_count": wins_count,
    "per_chip_wins_count": per_chip_wins_count,
    "single_node_wins_count": single_node_wins_count,
    "entries_count": entries_count,
    "suite_count": suite_count,
    "new_count": new_count,
    "system_count": system_count,
    "size_count": size_count,
    "pod_chips": pod_chips,
    "pod_share": pod_share,
    "date": date,
    # the quality target of a benchmark in a round (corpora/official/round_facts.csv)
    "quality_target": lambda c, ctx: statement_fact(c, ctx, "quality_target", ("round", "benchmark")),
    # what the vendor says of its own systems: performance per dollar, how well a result scales
    "price_performance": lambda c, ctx: statement_fact(c, ctx, "price_performance",
                                                       ("org", "accelerator", "round", "benchmark")),
    "scaling_efficiency": lambda c, ctx: statement_fact(c, ctx, "scaling_efficiency",
                                                        ("org", "accelerator", "round", "benchmark")),
    "duration": elapsed,
}


def resolve(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The official fact for the claim's metric (None: nothing answers it); a duration of four weeks or more
    that no resolver answers is read as the time between two events."""
    if (claim.metric or "").startswith(STATED):
        return stated(claim, ctx)
    if is_span(claim):
        # months and years are never MLPerf training times ("three months ago NVIDIA set a GPT-3 record"):
        # the time between two events
        return elapsed(claim, ctx)
    fn = RESOLVERS.get(claim.metric or "")
    if fn is None and claim.kind == "duration" and claim.entities.benchmark:
        fn = train_time
    return fn(claim, ctx) if fn else None


def answerable(claim: Claim) -> bool:
    """Whether any resolver can answer a claim of this metric and kind (whatever its entities): when none
    can, other rounds or subjects cannot help either."""
    metric = claim.metric or ""
    return metric.startswith(STATED) or metric in RESOLVERS or claim.kind == "duration"
