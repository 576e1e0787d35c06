"""What the knowledge base implies once mentions are attached: the facts recorded on entries fill in
what the text leaves unsaid.

- a system gives its accelerator and org, an accelerator its org (`implied`);
- the org of a claim is the MLPerf submitter (CONTRACT): a chip's maker that did not submit in the round
  gives way to the chip's one submitter there (昇腾 910 in v0.7 was entered by SIAT, not Huawei);
- a task description names the benchmark the round ran for that task (`remap_description`);
- a count of chips that only one machine of the round had names that machine (`systems_with_chips`:
  "the 4,096-chip machine" in a v0.7 story is Google's ML supercomputer);
- a ratio's baseline: what its baseline names, and what that implies (`compared`: 上届 is the round
  before the article's, 上一代 the chip before the subject's).

Plain functions over the KB and the picks of `pipeline.link.attach`: (id, level) per type, where level is
how far from the claim the id was found (0 its clause, 1 its sentence, 2-3 carried, 4 the default).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pipeline.link.frames import Region
from pipeline.link.kb import KnowledgeBase
from pipeline.link.recognize import Cue, Mention
from pipeline.records import Claim

AMBIGUOUS = "\x00list"  # a list of several: no single id
CARRIED = 2  # the level of a value carried from an earlier sentence (attach: 0 clause, 1 sentence)
Picks = dict[str, tuple[str | None, int]]


def implied(kb: KnowledgeBase, chosen: Picks, levels: dict[str, int] | None = None) -> dict[str, str | None]:
    """System -> accelerator and org, accelerator -> org, when they are nearer than what was found.
    `levels`, when given, receives how far from the claim each value's words were (an implied value
    takes the level of what implies it)."""
    got = dict(chosen)
    rnd = got.get("round", (None, 9))[0]
    sys_id, sys_lvl = got.get("system", (None, 9))
    system = kb.get("system", sys_id)
    acc_id, acc_lvl = got.get("accelerator", (None, 9))
    if system is not None and acc_lvl < sys_lvl and acc_id not in (None, AMBIGUOUS) and \
            system.attr("accelerator", rnd) not in (None, acc_id):
        # "……DGX-1 则要约 166 分钟，A100 快了 2.4 倍": the A100 of the clause is not in the DGX-1
        got["system"] = (None, sys_lvl)
        system = None
    if system is not None:
        acc = system.attr("accelerator", rnd)
        if acc and got.get("accelerator", (None, 9))[1] > sys_lvl:
            got["accelerator"] = (acc, sys_lvl)
    # a chip or system found further away than the org, and made by another org, belongs to another
    # part of the sentence ("谷歌训练BERT只用23秒，英伟达A100打破八项纪录": 23 秒 is not the A100's)
    org_id, org_lvl = got.get("org", (None, 9))
    for t in ("system", "accelerator"):
        eid, lvl = got.get(t, (None, 9))
        entry = kb.get(t, eid)
        if entry is not None and org_id and org_id != AMBIGUOUS and lvl > org_lvl and \
                entry.attr("org") not in (None, org_id) and org_id not in _submitters(kb, t, eid, rnd):
            # (the org must have entered the chip: "tiny corp's six-GPU tinybox" after NVIDIA's H100s is no H100)
            got[t] = (None, lvl)
    system = kb.get("system", got.get("system", (None, 9))[0])
    acc_id, acc_lvl = got.get("accelerator", (None, 9))
    sources = [(sys_lvl, system), (acc_lvl, kb.get("accelerator", acc_id))]
    for lvl, entry in sorted(sources, key=lambda x: x[0]):
        org = entry.attr("org") if entry is not None else None
        found = got.get("org", (None, 9))[0]
        if entry is not None and entry.type == "accelerator" and found in _submitters(kb, "accelerator", entry.id, rnd):
            continue  # "Azure … 768 GPUs": A100s that Microsoft entered stay Microsoft's result
        if org and got.get("org", (None, 9))[1] > lvl:
            got["org"] = (org, lvl)
    values = {t: (v if v != AMBIGUOUS else None) for t, (v, _) in got.items()}
    # An org named nearer than a chip carried from before stays ("英伟达表示自己包揽了全部7项" after a sentence on
    # Cisco's H100s is NVIDIA's claim, not the H100's one submitter's), unless it is named as the maker of the
    # framework beside it ("512 chips running Huawei's MindSpore": the Ascend 910s' v0.7 submitter was SIAT)
    org_lvl, acc_lvl = got.get("org", (None, 9))[1], got.get("accelerator", (None, 9))[1]
    framework = kb.get("framework", values.get("framework"))
    maker_of_framework = framework is not None and framework.attr("org") == values.get("org")
    if not (values.get("org") and org_lvl < acc_lvl and acc_lvl >= CARRIED and not maker_of_framework):
        values["org"] = submitter(kb, values.get("org"), values.get("accelerator"), rnd)
    if levels is not None:
        levels.update({t: lvl for t, (v, lvl) in got.items() if v is not None})
    return values


def _submitters(kb: KnowledgeBase, etype: str, eid: str | None, rnd: str | None) -> list[str]:
    entry = kb.get(etype, eid) if etype == "accelerator" else None
    return list(entry.attr("submitters", rnd) or []) if entry is not None else []


def may_run(kb: KnowledgeBase, orgs: set[str], accelerator: str | None, rnd: str | None) -> bool:
    """Whether one of `orgs` makes the chip or entered it in the round (its KB `submitters`), or the KB
    does not know who entered it."""
    chip = kb.get("accelerator", accelerator)
    if chip is None or not orgs:
        return True
    subs = _submitters(kb, "accelerator", accelerator, rnd)
    return chip.attr("org") in orgs or bool(orgs & set(subs)) or (not subs and chip.attr("org") is None)


def submitter(kb: KnowledgeBase, org: str | None, accelerator: str | None, rnd: str | None) -> str | None:
    """The org as MLPerf submitter: when the org is the chip's maker (or none) and the maker did not
    submit in the round, the chip's one submitter of that round (昇腾 910 in v0.7: siat)."""
    chip = kb.get("accelerator", accelerator)
    subs = _submitters(kb, "accelerator", accelerator, rnd)
    if chip is None or len(subs) != 1:
        return org
    maker = chip.attr("org")
    if maker in subs or org not in (None, maker):
        return org
    return str(subs[0])


def remap_description(kb: KnowledgeBase, values: dict[str, str | None], described: bool) -> dict[str, str | None]:
    """推荐 is DLRM from v0.7 and NCF before: a task description names the round's benchmark.
    `described`: the benchmark was found as a description, not a name."""
    bid, rid = values.get("benchmark"), values.get("round")
    entry = kb.get("benchmark", bid)
    if entry is None or not rid or rid in (entry.attrs.get("rounds") or [rid]) or not described:
        return values
    same = [e.id for e in kb.entries["benchmark"].values()
            if e.attrs.get("task") == entry.attrs.get("task") and rid in (e.attrs.get("rounds") or [])]
    # no benchmark of that task in the round: the words describe the field, not a benchmark
    return {**values, "benchmark": same[0] if same else None}


def systems_with_chips(kb: KnowledgeBase, count: Any, rounds: Iterable[str], accelerator: str | None = None,
                       org: str | None = None) -> list[str]:
    """The machines of these rounds with exactly `count` chips (of `accelerator`, built by `org`, when
    given), and the named machines of that design that ran in those rounds (Selene is a DGX SuperPOD).
    Only systems that record the rounds they ran in are machines of a round; a product (a DGX A100 has
    8 GPUs) is never named by its size."""
    if not isinstance(count, (int, float)) or count != int(count):
        return []
    out: list[str] = []
    for e in kb.entries["system"].values():
        ran = set(e.attrs.get("rounds") or [])
        for rnd in rounds:
            if rnd not in ran or e.attr("chips", rnd) != int(count):
                continue
            if accelerator and e.attr("accelerator", rnd) != accelerator:
                continue
            if org and e.attr("org") != org:
                continue
            if e.id not in out:
                out.append(e.id)
    for e in kb.entries["system"].values():
        if e.attrs.get("instance_of") in out and set(rounds) & set(e.attrs.get("rounds") or []) \
                and (not accelerator or e.attr("accelerator") == accelerator) and e.id not in out:
            out.append(e.id)
    return out


def compared(kb: KnowledgeBase, regions: Sequence[Region], mentions: Sequence[Mention], cues: Sequence[Cue],
             claim: Claim, subject: dict[str, str | None], article_round: str | None) -> dict[str, Any] | None:
    """{"subject": {...}, "baseline": {...}} from the baselines (`regions`) that belong to this ratio."""

    def within(m: Mention | Cue) -> bool:
        return any(r.start <= m.start and m.end <= r.end for r in regions)

    base_m = [m for m in mentions if m.id and within(m) and m.how != "relative"]
    base: dict[str, str] = {}
    for m in sorted(base_m, key=lambda m: abs(m.start - claim.start)):
        base.setdefault(m.type, m.id or "")
    for c in cues:
        if not within(c):
            continue
        # 上届 / 本次 are written from the article's round, whatever the claim's round
        if "relative:round:previous" in c.keys and kb.previous_round(article_round):
            base.setdefault("round", kb.previous_round(article_round) or "")
        if "relative:round:current" in c.keys and article_round:
            base.setdefault("round", article_round)
        if "relative:accelerator:previous" in c.keys:
            acc = kb.get("accelerator", subject.get("accelerator"))
            if acc is not None and acc.attrs.get("previous"):
                base.setdefault("accelerator", acc.attrs["previous"])
    if not base:
        return None
    system = kb.get("system", base.get("system"))
    if system is not None and system.attr("accelerator", base.get("round")):
        base.setdefault("accelerator", system.attr("accelerator", base.get("round")))
    for t in ("system", "accelerator"):
        entry = kb.get(t, base.get(t))
        if entry is not None and entry.attrs.get("org"):
            base.setdefault("org", entry.attrs["org"])
    subj = {t: subject[t] for t in base if subject.get(t)}
    if "round" in base and "round" not in subj and article_round:
        subj["round"] = article_round
    return {"subject": subj, "baseline": base}
