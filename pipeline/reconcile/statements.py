"""Facts from primary-source statements: records, peaks, dated events, result counts."""

from __future__ import annotations

from dataclasses import replace

from pipeline.reconcile.context import (
    ArticleContext,
    clause_span,
    cue_distance,
    folded,
    has_cue,
    possessive,
    round_name,
    round_of,
    sentence_chips,
    system_chips,
)
from pipeline.reconcile.verdicts import Fact
from pipeline.records import Claim


# -- statements ------------------------------------------------------------------------------------
def _related_orgs(ctx: ArticleContext, org: str | None) -> set[str]:
    """The org, the company that owns it and the companies it owns (the KB's `parent`)."""
    return {org} | ctx.kb.related_orgs(org) if org else set()


def _same_chip(ctx: ArticleContext, acc: str, accs: tuple[str, ...]) -> bool:
    """Whether a statement about `accs` is about the chip `acc`: one of them, or of its generation ("Hopper"
    for a statement on the H100, "GB200" for one on Blackwell's B200)."""
    if acc in accs:
        return True
    gens = ctx.kb.generations()
    kin = set(gens.get(acc, ())) | {m for members in gens.values() if acc in members for m in members}
    return bool(kin & set(accs))


def statement_fact(claim: Claim, ctx: ArticleContext, metric: str, keys: tuple[str, ...],
                   scale: str | None = None, require: dict[str, str] | None = None) -> Fact | None:
    """The `metric` statement that shares the most of the claim's `keys` entities and contradicts none (at
    `scale`, if given; naming each `require` value, such as the round a speedup is over), with the interval
    its wording allows; None when none shares any."""
    e = claim.entities.as_dict()
    e.setdefault("round", None)
    e["round"] = e.get("round") or ctx.round
    cands = [s for s in ctx.official.statements_of(metric) if s.value is not None and _at_scale(s, scale)
             and all(v in s.entity_values(k) for k, v in (require or {}).items())]
    if not any(e.get(k) for k in ("org", "accelerator", "system")):
        # a claim about no company is about the round as a whole: not checked against a company's figure,
        # nor, naming no benchmark, against a figure of one benchmark ("the best Stable Diffusion time
        # improved 2.28 times" says nothing of a ratio whose benchmark is not known)
        cands = [s for s in cands if not any(s.entity_values(k) for k in ("org", "accelerator", "system"))
                 and (e.get("benchmark") or not s.entity_values("benchmark"))]
    best, score = None, -1
    orgs = _related_orgs(ctx, e.get("org"))
    for s in cands:
        ok, n = True, 0
        for k in keys:
            want = e.get(k)
            have = s.entity_values(k)
            if k == "org" and have and want and want not in have:
                # "Intel says FP8 doubled Gaudi2's speed": Habana Labs' statement, its parent named
                have = tuple(want for o in have if o in orgs) or have
            if have and want and want not in have:
                ok = False
            if k == "round" and claim.kind == "ratio" and len(have) > 1 and want != have[0]:
                ok = False  # a gain of round A over round B is A's: not a claim about B
            n += int(bool(have and want in have))
        if ok and n > score:
            best, score = s, n
    if best is None or score <= 0:
        return None
    v = best.value
    if v is None:
        return None  # a statement without a figure (who backed MLPerf) decides no number
    if not isinstance(v, (int, float)):
        return Fact(v, None, None, best.evidence, best.text, source="statement")
    bound = _note_value(best.note, "bound")
    lo, hi = stated_interval(float(v), bound)
    # one figure stated: "up to X" repeats it only as X
    top = float(v) if bound in (None, "upper") else None
    return Fact(v, lo, hi, best.evidence, best.text, source="statement", maximum=top)


def stated_interval(v: float, bound: str | None) -> tuple[float | None, float | None]:
    """The interval a statement's figure allows: "more than 100 petaflops" is (100, -), "nearly tenfold"
    [9, 10], "about" +-10 %; "up to 3.5x" states the largest of several figures, which a claim repeats."""
    return {"lower": (v, None), "approx": (v * 0.9, v * 1.1), "nearly": (v * 0.9, v)}.get(bound or "", (v, v))


def records_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The records a company claims: a statement at the scale its sentence names (at scale, per chip),
    one that states the very number, or the sum of its counts at the two scales ("16 records" = eight at
    scale + eight per accelerator)."""
    org, rnd = claim.entities.org, round_of(claim, ctx)
    scale = _scale(claim, ctx)
    same = [s for s in ctx.official.statements_of("records_claimed") if org in s.entity_values("org")
            and rnd in s.entity_values("round") and isinstance(s.value, (int, float)) and _at_scale(s, scale)]
    if isinstance(claim.value, (int, float)):
        exact = next((s for s in same if abs(s.number - claim.number) < 0.5), None)
        if exact is not None:
            return Fact(exact.number, exact.number, exact.number, exact.evidence, exact.text,
                        source="statement")
        scales = {_scale_of(s): s for s in same if _scale_of(s) in ("at_scale", "per_chip")}
        if len(scales) == 2:
            parts = list(scales.values())
            total = sum(s.number for s in parts)
            if abs(total - claim.number) < 0.5:
                return Fact(total, total, total, tuple(s.source_url for s in parts),
                            f"{possessive(ctx.name('org', org))} records at scale and per chip", source="statement",
                            derivation=" + ".join(f"{s.number:g} ({s.id})" for s in parts))
        if scale is None and len({s.number for s in same}) > 1:
            return None  # "won six": at scale or per chip, the words do not say, and the counts differ
    return statement_fact(claim, ctx, "records_claimed", ("org", "round", "system", "accelerator"),
                          scale=scale)


def peak_compute(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """A system's peak: the maker's statement, with chips x per-chip peak shown as a cross-check.  When its
    sentence gives the chips ("a slice of 3,456 TPU v4 chips ... a peak of 1.1 exaflops"), the peak of
    those chips: chips x the chip's highest stated peak."""
    rnd = round_of(claim, ctx)
    acc = claim.entities.accelerator
    per_chip = max((s for s in ctx.official.statements if s.metric == "per_chip_peak_compute"
                    and acc in s.entity_values("accelerator") and isinstance(s.value, (int, float))),
                   key=lambda s: s.number, default=None)
    stated_chips = sentence_chips(claim, ctx)
    if per_chip is not None and len(stated_chips) == 1 and not _known_size(ctx, acc, next(iter(stated_chips))):
        stated = next(iter(stated_chips))
        total = stated * per_chip.number
        deriv = f"{stated} chips x {per_chip.number / 1e12:.0f} TFLOPS = {total / 1e15:.0f} PFLOPS"
        return Fact(total, total, total, per_chip.evidence, f"peak of {stated} {ctx.name('accelerator', acc)} chips",
                    derivation=deriv)
    fact = statement_fact(claim, ctx, "peak_compute", ("org", "accelerator", "round"))
    chips = system_chips(ctx, claim.entities.system, rnd)
    if chips is None and acc and rnd:
        largest = ctx.official.largest_system(acc, rnd, claim.entities.org)
        chips = largest.accelerator_count if largest else None
    if chips and per_chip is not None:
        total = chips * per_chip.number
        deriv = f"{chips} chips x {per_chip.number / 1e12:.0f} TFLOPS = {total / 1e15:.0f} PFLOPS"
        if fact is None:
            return Fact(total, total, total, per_chip.evidence, f"peak of {chips} {acc} chips", derivation=deriv)
        return replace(fact, derivation=deriv)
    return fact


def submissions_count(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The round's count of results, as its statement gives it."""
    return statement_fact(claim, ctx, "results_count", ("round",))


DATE_EVENTS = {"founding_date": "founding", "launch_date": "launch", "results_date": "results"}


def date(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """A date is checked against a dated statement about the same event (founding, launch, results)
    of the same entities, or against the round's results date."""
    if not isinstance(claim.value, str) or claim.value.startswith("--"):
        return None
    e = claim.entities.as_dict()
    # the event whose word stands nearest the date ("今年5月才推出训练基准，12月12日便公布了首批成绩": 12月12日
    # is when results were published, 5月 when the suite was launched)
    near = {ev: cue_distance(ctx, claim, ev) for ev in DATE_EVENTS.values()}
    # on a tie ("the v0.7 round, released in July 2020": released is both), a round named in the date's
    # clause makes it the results' date; else the results, the launch, the founding, in that order
    named_round = (claim.support or {}).get("round", (9,))[0] == 0
    rank = {"results": 0, "launch": 1, "founding": 2}
    order = sorted((ev for ev, d in near.items() if d is not None),
                   key=lambda ev: (not (named_round and ev == "results"), near[ev], rank[ev]))
    statements = sorted((s for s in ctx.official.statements if DATE_EVENTS.get(s.metric) in order),
                        key=lambda s: order.index(DATE_EVENTS[s.metric]))
    for s in statements:
        event = DATE_EVENTS.get(s.metric)
        if event is None or not isinstance(s.value, str):
            continue
        rounds = s.entity_values("round")
        if rounds and (e.get("round") or ctx.round) not in rounds:
            continue
        keys = [k for k, _ in s.entities if k != "round"]
        if keys and not all(e.get(k) in s.entity_values(k) for k in keys):
            continue
        if not keys and not has_cue(ctx, claim, "mlperf"):
            continue
        precision = len(claim.value)
        return Fact(s.value[:precision], None, None, s.evidence, s.text, source="statement")
    rnd = claim.entities.round
    entry = ctx.kb.get("round", rnd) if rnd else None
    when = entry.attr("date") if entry else None
    if rnd is None:
        return None
    if when and has_cue(ctx, claim, "results"):
        return Fact(str(when)[: len(claim.value)], None, None, (rnd,),
                    f"the {round_name(ctx.kb, rnd)} results' date")
    if when and str(when)[:7] == claim.value[:7]:
        return Fact(str(when)[: len(claim.value)], None, None, (rnd,),
                    f"the {round_name(ctx.kb, rnd)} results' date")
    return None


def pod_chips(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The chips of one pod of the claim's accelerator (a product spec the maker states)."""
    acc = claim.entities.accelerator
    if acc is None and claim.entities.system:
        entry = ctx.kb.get("system", claim.entities.system)
        acc = entry.attr("accelerator") if entry is not None else None
    for s in ctx.official.statements:
        if s.metric == "pod_chips" and acc in s.entity_values("accelerator") and isinstance(s.value, (int, float)):
            v = s.number
            return Fact(v, v, v, s.evidence, s.text, source="statement")
    return None


def pod_share(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """"a slice of 3,456 chips, about 84% of a full pod": the chips its sentence (else the sentence before)
    gives, over the chips of one pod of that accelerator."""
    pod = pod_chips(claim, ctx)
    chips = sentence_chips(claim, ctx) or {
        int(c.value) for c in ctx.claims
        if c.sentence_index == claim.sentence_index - 1 and c.metric in ("chip_count", "gpu_count")
        and c.bound == "exact" and isinstance(c.value, (int, float))
        and c.entities.accelerator in (None, claim.entities.accelerator)}
    if pod is None or len(chips) != 1 or not pod.value:
        return None
    n = next(iter(chips))
    share = 100.0 * n / pod.number
    acc = ctx.name("accelerator", claim.entities.accelerator) if claim.entities.accelerator else "its chip"
    return Fact(round(share, 2), share, share, pod.evidence, f"{n} chips of a {pod.number:g}-chip {acc} pod",
                derivation=f"{n} / {pod.number:g} = {share:.1f} %")


STATED = "stated:"  # a reading's metric that names one statement: "stated:<statement id>"


def _note_value(note: str, key: str) -> str | None:
    for part in note.replace(";", " ").replace(",", " ").split():
        k, sep, v = part.partition("=")
        if sep and k.strip().lower() == key:
            return v.strip().strip(".").lower()
    return None


def _scale_of(st) -> str | None:
    """The scale a statement is at: its scale= note, else a single-node category (one server is neither
    per chip nor at scale, so a claim that names either never rests on it)."""
    said = _note_value(st.note, "scale")
    if said is None and _note_value(st.note, "category") in ("single_node", "per_system"):
        return "single_node"
    return said


def _at_scale(st, scale: str | None) -> bool:
    """A statement may be about a claim at this scale: the claim names none, or the statement none or it."""
    return not scale or _scale_of(st) in (None, scale)


# What a statement reading may be about, by the claim's kind: a ratio repeats a speedup, a compute figure
# the peak of a chip or of a pod or system.
STATED_METRICS = {"ratio": ("speedup",), "compute": ("peak_compute", "per_chip_peak_compute")}


def stated_ratios(claim: Claim, ctx: ArticleContext) -> list:
    """The statements a ratio or compute claim may repeat: about its subject (and its baseline, when it
    names one), in its round when the statement is tied to rounds, at its scale (per chip, at scale) when
    its sentence says which."""
    e = claim.entities
    metrics = STATED_METRICS.get(claim.kind, ())
    base = (claim.compared_to or {}).get("baseline") or {}
    if claim.kind == "ratio" and not base and compares_unnamed(claim, ctx):
        return []  # "达到世界第一超算的两倍": measured against something no statement is about
    scale = _scale(claim, ctx)
    averaged = has_cue(ctx, claim, "average", clause=True)
    out = []
    for st in (st for m in metrics for st in ctx.official.statements_of(m)):
        if not isinstance(st.value, (int, float)):
            continue
        orgs, accs, rounds = st.entity_values("org"), st.entity_values("accelerator"), st.entity_values("round")
        # a company's statement is about its subject; a statement about a round as a whole (MLCommons)
        # only about claims that name no company or chip
        if bool(e.org or e.accelerator) != bool(orgs or accs):
            continue
        if e.org and orgs and not (_related_orgs(ctx, e.org) & set(orgs)) or (
                e.accelerator and accs and not _same_chip(ctx, e.accelerator, accs)):
            continue
        if base.get("accelerator") and not _same_chip(ctx, base["accelerator"], accs):
            continue
        if base.get("org") and base["org"] not in orgs and base.get("org") != e.org:
            continue
        # rounds: the statement's first is its subject's, the second its baseline's (a spec has none)
        if claim.kind == "ratio" and e.round and rounds and e.round != rounds[0]:
            continue
        if base.get("round") and len(rounds) > 1 and base["round"] != rounds[1]:
            continue
        if not _at_scale(st, scale):
            continue
        if averaged and _note_value(st.note, "bound") == "upper":
            continue  # "H100 averaged 2.6x": an up-to figure (the best benchmark's) is no average
        if st.metric == "peak_compute" and _other_size(claim, ctx, st):
            continue  # a pod's peak is not that of a slice its sentence sizes otherwise
        out.append(st)
    return out


def _known_size(ctx: ArticleContext, acc: str | None, chips: int) -> bool:
    """A pod or a named machine of that chip has this many chips: its peak is stated, not derived."""
    pods = {int(s.value) for s in ctx.official.statements if s.metric == "pod_chips"
            and acc in s.entity_values("accelerator") and isinstance(s.value, (int, float))}
    machines = {e.attr("chips") for e in ctx.kb.entries["system"].values() if e.attr("accelerator") == acc}
    return chips in pods or chips in machines


def _other_size(claim: Claim, ctx: ArticleContext, st) -> bool:
    stated = sentence_chips(claim, ctx)
    if not stated:
        return False
    pods = {int(s.value) for s in ctx.official.statements
            if s.metric == "pod_chips" and isinstance(s.value, (int, float))
            and set(s.entity_values("accelerator")) & set(st.entity_values("accelerator"))}
    return bool(pods) and not stated & pods


def _scale(claim: Claim, ctx: ArticleContext) -> str | None:
    """single_node, per_chip or at_scale: the nearest of the cues in the claim's clause, else in its
    sentence (a single-node word is also a per-chip one: the narrower reading wins a tie)."""
    for where in ({"clause": True}, {"others": tuple(ctx.siblings(claim))}):
        near = {k: cue_distance(ctx, claim, k, **where) for k in ("single_node", "per_chip", "at_scale")}
        found = {k: d for k, d in near.items() if d is not None}
        if found:
            return min(found, key=lambda k: (found[k], k != "single_node"))
    return None


def compares_unnamed(claim: Claim, ctx: ArticleContext) -> bool:
    """The claim's clause writes a comparison (than, 是…的, 比) whose baseline names no known entity."""
    a, b = clause_span(claim, ctx.kb)
    text = folded(claim.sentence)
    rel = claim.start - claim.sentence_start
    end = rel + len(claim.text)
    before, after = text[a:rel].rstrip(), text[end:b]
    for form, keys in ctx.kb.linking.cues.items():
        f = form.lower()
        if ("cmp:open" in keys or "cmp:paired_open" in keys) and _has_word(text[a:b], f):
            return True  # than X, 与 X 相比, 较 X
        if "cmp:frame_close" in keys and before.endswith(f):
            return True  # X 的 N 倍
        if "cmp:after_ratio" in keys and _has_word(" ".join(after.split()[:3]), f):
            return True  # N times the speed of X
    return False


def _has_word(text: str, form: str) -> bool:
    i = text.find(form)
    while i >= 0:
        latin = form[:1].isascii() and form[:1].isalpha()
        edge_ok = not latin or ((i == 0 or not text[i - 1].isalnum()) and
                                (i + len(form) >= len(text) or not text[i + len(form)].isalnum()))
        if edge_ok:
            return True
        i = text.find(form, i + 1)
    return False


def stated(claim: Claim, ctx: ArticleContext) -> Fact | None:
    """The fact of the one statement a `stated:<id>` reading names, with its bound."""
    sid = (claim.metric or "")[len(STATED):]
    st = next((s for s in ctx.official.statements if s.id == sid), None)
    if st is None or not isinstance(st.value, (int, float)):
        return None
    v = st.number
    bound = _note_value(st.note, "bound")
    lo, hi = stated_interval(v, bound)
    # a claim repeats the one figure stated: "up to X" must be X
    top = v if bound in (None, "upper") else None
    return Fact(v, lo, hi, st.evidence, st.text, source="statement", maximum=top)
