"""Facts from primary-source statements: records, peaks, dated events, result counts."""

from __future__ import annotations

from dataclasses import replace

from pipeline.reconcile.context import ArticleContext, has_cue, round_of, system_chips
from pipeline.reconcile.verdicts import Fact
from pipeline.records import Claim


# -- statements ------------------------------------------------------------------------------------
def statement_fact(claim: Claim, ctx: ArticleContext, metric: str, keys: tuple[str, ...]) -> Fact | None:
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
    fact = statement_fact(claim, ctx, "records_claimed", ("org", "round", "system", "accelerator"))
    org, rnd = claim.entities.org, round_of(claim, ctx)
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
    fact = statement_fact(claim, ctx, "peak_compute", ("org", "accelerator", "round"))
    rnd = round_of(claim, ctx)
    acc = claim.entities.accelerator
    chips = system_chips(ctx, claim.entities.system, rnd)
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


def submissions_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    return statement_fact(claim, ctx, "results_count", ("round",))


DATE_EVENTS = {"founding_date": "founding", "launch_date": "launch", "results_date": "results"}


def date(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """A date is checked against a dated statement about the same event (founding, launch, results)
    of the same entities, or against the round's results date."""
    if not isinstance(claim.value, str) or claim.value.startswith("--"):
        return None
    e = claim.entities.as_dict()
    for s in ctx.official.statements:
        event = DATE_EVENTS.get(s.metric)
        if event is None or not has_cue(claim, event) or not isinstance(s.value, str):
            continue
        rounds = s.entity_values("round")
        if rounds and (e.get("round") or ctx.round) not in rounds:
            continue
        keys = [k for k, _ in s.entities if k != "round"]
        if keys and not all(e.get(k) in s.entity_values(k) for k in keys):
            continue
        if not keys and not has_cue(claim, "mlperf"):
            continue
        precision = len(claim.value)
        return Fact(s.value[:precision], None, None, s.evidence, f"{s.id}: {s.text}")
    rnd = claim.entities.round
    entry = ctx.kb.get("round", rnd) if rnd else None
    when = entry.attr("date") if entry else None
    if when and has_cue(claim, "results"):
        return Fact(str(when)[: len(claim.value)], None, None, (rnd,), f"{rnd} results date")
    if when and str(when)[:7] == claim.value[:7]:
        return Fact(str(when)[: len(claim.value)], None, None, (rnd,), f"{rnd} results date")
    return None
