"""Attach every claim to what it is about: entities, metric and, for ratios, what it is compared with.

Rules, in order, for each entity type:
  1. a count of chips/GPUs takes the accelerator written right after the number ("4096 块 TPU v3");
  2. the nearest mention in the claim's clause, else in its sentence -- leaving out the baseline of a
     comparison ("较 TPU v3 ... 2.7 倍": TPU v3 is what the ratio is measured against, not its subject);
     a mention inside a list ("ResNet-50、BERT、SSD") leaves the type empty: the claim is about all;
  3. carried over from the nearest earlier sentence of the paragraph that names one (its first mention:
     the topic), or from anywhere earlier in the article when the sentence points back (该系统, this
     system);
  4. implied: a system gives its accelerator and org, an accelerator its org;
  5. the article's round (meta 'round' or 'date', a round id in the path, the latest round the text
     names) when the claim's clause names none; a date in the clause that is no round's date leaves the
     round empty ("2015年" is not a round).
Family mentions ("TPU", "超级计算机") are resolved first: the one member that fits the org and round
around them, else the nearest earlier mention of a member.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pipeline.link import frames
from pipeline.link.kb import KnowledgeBase, load_kb
from pipeline.link.recognize import Cue, Mention, get_recognizer
from pipeline.records import ENTITY_TYPES, Claim, Entities, Sentence

LINK_TYPES = (*ENTITY_TYPES, "category")
SPECIFIC = ("alias", "cased", "context", "fuzzy", "ner")  # mentions that name an entity outright
AMBIGUOUS = "\x00list"  # a list of several: no single id
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
Ner = Callable[[str], list[Mention]]


@dataclass
class _Sent:
    s: Sentence
    mentions: list[Mention]
    cues: list[Cue]
    clauses: list[frames.Span]
    regions: list[frames.Region] = field(default_factory=list)
    list_size: dict[int, int] = field(default_factory=dict)

    def in_region(self, m: Mention | Cue | Claim) -> frames.Region | None:
        return next((r for r in self.regions if r.start <= m.start and m.end <= r.end), None)

    def cue_types(self, prefix: str) -> set[str]:
        return {k.split(":", 1)[1] for c in self.cues for k in c.keys if k.startswith(prefix)}


class _Article:
    def __init__(self, sentences: Sequence[Sentence], claims: Sequence[Claim], meta: dict[str, Any],
                 kb: KnowledgeBase, ner: Ner | None) -> None:
        self.kb = kb
        self.rules = kb.linking
        rec = get_recognizer(kb)
        self.sents: dict[int, _Sent] = {}
        self.order: list[int] = []
        for s in sorted(sentences, key=lambda x: x.start):
            a = rec.analyze(s.text, s.start)
            mentions = list(a.mentions)
            if ner is not None:
                from pipeline.link.ner import merge_mentions

                mentions = merge_mentions(mentions, ner(s.text), kb, s.start, s.text)
            delims = self.rules.clause_delimiters
            self.sents[s.index] = _Sent(s, mentions, list(a.cues), frames.clauses(s.text, s.start, delims))
            self.order.append(s.index)
        self.round = self._article_round(meta, claims)
        self._date_rounds(claims, meta)
        for st in self._in_order():
            self._resolve_relative_rounds(st)
            self._resolve_generics(st)
            ratios = [c for c in claims if c.kind == "ratio" and st.s.start <= c.start < st.s.end]
            st.regions = frames.baseline_regions(st.s.text, st.s.start, st.cues, st.mentions, ratios, st.clauses,
                                                 self.rules)
            named = [m for m in st.mentions if m.id and m.how != "date"]
            sizes = frames.list_sizes(st.s.text, st.s.start, named, self.rules.list_separators)
            st.list_size = {id(m): sizes[i] for i, m in enumerate(named)}

    def _in_order(self) -> list[_Sent]:
        return [self.sents[i] for i in self.order]

    # ---------------------------------------------------------------------------------- article set-up

    def _date_rounds(self, claims: Sequence[Claim], meta: dict[str, Any]) -> None:
        """A date claim is a round mention: the round published that month, or None (no round: blocks
        the article's default round for its clause).  A date without a year ("--07-29", 7 月 29 日)
        takes the article's year."""
        year = next((str(meta[k])[:4] for k in ("date", "published", "pub_date") if meta.get(k)), None)
        entry = self.kb.get("round", self.round)
        year = year or (str(entry.attrs["date"])[:4] if entry is not None else None)
        for c in claims:
            st = self.sent_of(c)
            if c.kind != "date" or st is None or not isinstance(c.value, str):
                continue
            value = f"{year}{c.value[1:]}" if c.value.startswith("--") and year else c.value
            rid = self.kb.round_in_month(value)
            st.mentions.append(Mention("round", rid, c.start, c.end, c.text, self.rules.confidence["date"], "date"))
            st.mentions.sort(key=lambda m: m.start)

    def _article_round(self, meta: dict[str, Any], claims: Sequence[Claim]) -> str | None:
        rid = self.kb.round_id(meta.get("round"))
        if rid:
            return rid
        for key in ("date", "published", "pub_date"):
            if meta.get(key):
                found = self.kb.round_on(str(meta[key]).replace("/", "-"))
                if found:
                    return found
        doc = (claims[0].doc if claims else str(meta.get("doc", ""))).split("/")
        for part in doc:
            if part in self.kb.entries["round"]:
                return part
        m = ISO_DATE.match(doc[-1]) if doc else None
        if m and self.kb.round_on(m.group(0)):
            return self.kb.round_on(m.group(0))
        named = {m.id for st in self._in_order() for m in st.mentions
                 if m.type == "round" and m.id and m.how in SPECIFIC}
        dated = [r.id for r in self.kb.rounds if r.id in named]
        return dated[-1] if dated else None

    def _resolve_relative_rounds(self, st: _Sent) -> None:
        conf = self.rules.confidence["relative"]
        for c in st.cues:
            for k in c.keys:
                if k == "relative:round:previous":
                    rid = self.kb.previous_round(self.round)
                elif k == "relative:round:current":
                    rid = self.round
                else:
                    continue
                if rid:
                    st.mentions.append(Mention("round", rid, c.start, c.end, c.text, conf, "relative"))
        st.mentions.sort(key=lambda m: m.start)

    def _resolve_generics(self, st: _Sent) -> None:
        out = []
        for m in st.mentions:
            if m.how == "generic" and m.family:
                m = replace(m, id=self._resolve_family(st, m))
            out.append(m)
        st.mentions = out

    def _resolve_family(self, st: _Sent, m: Mention) -> str | None:
        members = self.kb.members(m.type, m.family or "")
        clause = frames.span_of(st.clauses, m.start)
        near = [x for x in st.mentions if x.id and x.how != "generic" and clause and frames.inside(x, clause)]
        orgs = {x.id for x in near if x.type == "org"}
        rounds = {x.id for x in near if x.type == "round"} or ({self.round} if self.round else set())
        for attr, wanted in (("org", orgs), ("rounds", rounds)):
            if not wanted:
                continue
            kept = [e for e in members if e.attrs.get(attr) is None or set(_as_list(e.attrs[attr])) & wanted]
            members = kept or members
        if len(members) == 1:
            return members[0].id
        ids = {e.id for e in members}
        for earlier in reversed(self._mentions_before(m.start)):
            if earlier.type == m.type and earlier.id in ids:
                return earlier.id
        return None

    def _mentions_before(self, pos: int) -> list[Mention]:
        return [m for st in self._in_order() if st.s.start < pos for m in st.mentions if m.end <= pos and m.id]

    def sent_of(self, claim: Claim) -> _Sent | None:
        st = self.sents.get(claim.sentence_index)
        if st is not None and st.s.start <= claim.start <= st.s.end:
            return st
        return next((x for x in self.sents.values() if x.s.start <= claim.start < x.s.end), st)

    # ------------------------------------------------------------------------------------- per claim

    def link(self, claim: Claim) -> Claim:
        st = self.sent_of(claim)
        if st is None:
            ents = Entities(round=self.round)
            return replace(claim, entities=ents)
        clause = frames.span_of(st.clauses, claim.start)
        rule = frames.choose_metric(claim, st.cues, clause, self.rules)
        ignore = set(rule.ignore if rule else ())
        region = st.in_region(claim)
        ok = [m for m in st.mentions if m.confidence >= self.rules.min_confidence]
        # inside a baseline, the baseline is the claim's own context; elsewhere the baseline is left out
        pool = ([m for m in ok if frames.inside(m, (region.start, region.end))] if region is not None
                else [m for m in ok if st.in_region(m) is None])
        chosen: dict[str, tuple[str | None, int]] = {}
        for t in LINK_TYPES:
            if t in ignore:
                continue
            pick = self._pick(st, pool, t, clause, claim)
            if pick is None and t in self.rules.carry_types:
                pick = self._carry(st, t)
            if pick is not None:
                chosen[t] = pick
        self._adjust(st, claim, clause, ok, chosen)
        if "round" not in ignore and "round" not in chosen:
            chosen["round"] = (self.round, 4)
        values = self._implied(chosen)
        values = self._remap_description(st, values, pool)
        rule = frames.refine_metric(rule, claim, values, self.rules)
        ents = Entities(**{t: values.get(t) for t in ENTITY_TYPES})
        compared = self._compared(st, claim, values) if claim.kind == "ratio" and region is None else None
        return replace(claim, entities=ents, metric=frames.metric_name(rule, claim), compared_to=compared)

    def _adjust(self, st: _Sent, claim: Claim, clause: frames.Span | None, ok: list[Mention],
                chosen: dict[str, tuple[str | None, int]]) -> None:
        """What the claim's clause says outright beats the nearest-mention rules."""
        # 平均 / on average: the claim is over benchmarks, not about one
        if clause and any("aggregate" in c.keys and frames.inside(c, clause) for c in st.cues):
            chosen["benchmark"] = (None, 0)
        # 上代系统 / the previous system in the claim's clause: the baseline of the sentence's comparison
        for c in st.cues:
            for k in c.keys:
                rtype = k.split(":")[1] if k.startswith("relative:") and k.endswith(":previous") else None
                if rtype and rtype != "round" and clause and frames.inside(c, clause):
                    base = [m for m in ok if m.type == rtype and m.id and st.in_region(m) is not None]
                    if base:
                        chosen[rtype] = (min(base, key=lambda m: abs(m.start - c.start)).id, 0)
        if claim.kind == "date":  # a date is its own round, or none
            own = next((m for m in st.mentions
                        if m.how == "date" and (m.start, m.end) == (claim.start, claim.end)), None)
            if own is not None:
                chosen["round"] = (own.id, 0)

    def _pick(self, st: _Sent, pool: list[Mention], t: str, clause: frames.Span | None, claim: Claim
              ) -> tuple[str | None, int] | None:
        cands = [m for m in pool if m.type == t]
        if not cands:
            return None
        if t == "accelerator" and claim.kind == "count" and claim.counted in self.rules.count_accelerator:
            after = [m for m in cands if m.id and claim.start <= m.start <= claim.end + self.rules.count_window]
            # "8 顆 GPU 的 V100": the named chip, not the family word before it
            after.sort(key=lambda m: (m.how == "generic", m.start))
            if after:
                return after[0].id, 0
        for level, scope in enumerate((clause, (st.s.start, st.s.end))):
            # a date that is no round's date ("2015年") blocks the default round in its clause, and in the
            # clauses after it: they tell what happened then
            here = [m for m in cands if scope and frames.inside(m, scope) and (
                m.id or (m.how == "date" and (level == 0 or m.end <= claim.start)))]
            if not here:
                continue
            if level == 1:
                # beyond the clause, what was written before the claim is its subject; what follows is
                # more often an aside ("……的四倍（上代系统在上届竞赛中……）").  A round written after the
                # claim's clause never beats the article's round.
                before = [m for m in here if m.end <= claim.start]
                here = before if (before or t == "round") else here
                if not here:
                    continue
            best = min(here, key=lambda m: (max(0, m.start - claim.end, claim.start - m.end), m.start))
            if best.id is None:  # a date that is no round's date
                return None, level
            if st.list_size.get(id(best), 1) > 1:
                return AMBIGUOUS, level
            return best.id, level
        return None

    def _carry(self, st: _Sent, t: str) -> tuple[str | None, int] | None:
        """The type from the nearest earlier sentence of the paragraph (or of the article, when the
        sentence points back with an anaphor)."""
        far = t in st.cue_types("anaphor:")
        pos = self.order.index(st.s.index)
        for back, idx in enumerate(reversed(self.order[:pos])):
            prev = self.sents[idx]
            if prev.s.paragraph != st.s.paragraph and not far:
                return None
            cands = [m for m in prev.mentions if m.type == t and m.id and prev.in_region(m) is None
                     and m.confidence >= self.rules.min_confidence]
            if cands:
                # the sentence's first mention: the topic that a following sentence continues
                m = cands[0]
                return (AMBIGUOUS if prev.list_size.get(id(m), 1) > 1 else m.id), 2 if back == 0 else 3
        return None

    def _implied(self, chosen: dict[str, tuple[str | None, int]]) -> dict[str, str | None]:
        """System -> accelerator and org, accelerator -> org, when they are nearer than what was found."""
        got = dict(chosen)
        rnd = got.get("round", (None, 9))[0]
        sys_id, sys_lvl = got.get("system", (None, 9))
        system = self.kb.get("system", sys_id)
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
            entry = self.kb.get(t, eid)
            if entry is not None and org_id and org_id != AMBIGUOUS and lvl > org_lvl and \
                    entry.attr("org") not in (None, org_id):
                got[t] = (None, lvl)
        system = self.kb.get("system", got.get("system", (None, 9))[0])
        acc_id, acc_lvl = got.get("accelerator", (None, 9))
        sources = [(sys_lvl, system), (acc_lvl, self.kb.get("accelerator", acc_id))]
        for lvl, entry in sorted(sources, key=lambda x: x[0]):
            org = entry.attr("org") if entry is not None else None
            if org and got.get("org", (None, 9))[1] > lvl:
                got["org"] = (org, lvl)
        return {t: (v if v != AMBIGUOUS else None) for t, (v, _) in got.items()}

    def _remap_description(self, st: _Sent, values: dict[str, str | None], pool: list[Mention]
                           ) -> dict[str, str | None]:
        """推荐 is DLRM from v0.7 and NCF before: a task description names the round's benchmark."""
        bid, rid = values.get("benchmark"), values.get("round")
        entry = self.kb.get("benchmark", bid)
        if entry is None or not rid or rid in (entry.attrs.get("rounds") or [rid]):
            return values
        if not any(m.type == "benchmark" and m.id == bid and m.how == "description" for m in pool):
            return values
        same = [e.id for e in self.kb.entries["benchmark"].values()
                if e.attrs.get("task") == entry.attrs.get("task") and rid in (e.attrs.get("rounds") or [])]
        # no benchmark of that task in the round: the words describe the field, not a benchmark
        return {**values, "benchmark": same[0] if same else None}

    def _compared(self, st: _Sent, claim: Claim, subject: dict[str, str | None]) -> dict[str, Any] | None:
        """{"subject": {...}, "baseline": {...}} from the baselines that belong to this ratio."""
        mine = [r for r in st.regions if r.owner == claim.start]

        def within(m: Mention | Cue) -> bool:
            return any(r.start <= m.start and m.end <= r.end for r in mine)

        base_m = [m for m in st.mentions if m.id and within(m) and m.how != "relative"]
        base: dict[str, str] = {}
        for m in sorted(base_m, key=lambda m: abs(m.start - claim.start)):
            base.setdefault(m.type, m.id or "")
        for c in st.cues:
            if not within(c):
                continue
            # 上届 / 本次 are written from the article's round, whatever the claim's round
            if "relative:round:previous" in c.keys and self.kb.previous_round(self.round):
                base.setdefault("round", self.kb.previous_round(self.round) or "")
            if "relative:round:current" in c.keys and self.round:
                base.setdefault("round", self.round)
            if "relative:accelerator:previous" in c.keys:
                acc = self.kb.get("accelerator", subject.get("accelerator"))
                if acc is not None and acc.attrs.get("previous"):
                    base.setdefault("accelerator", acc.attrs["previous"])
        if not base:
            return None
        system = self.kb.get("system", base.get("system"))
        if system is not None and system.attr("accelerator", base.get("round")):
            base.setdefault("accelerator", system.attr("accelerator", base.get("round")))
        for t in ("system", "accelerator"):
            entry = self.kb.get(t, base.get(t))
            if entry is not None and entry.attrs.get("org"):
                base.setdefault("org", entry.attrs["org"])
        subj = {t: subject[t] for t in base if subject.get(t)}
        if "round" in base and "round" not in subj and self.round:
            subj["round"] = self.round
        return {"subject": subj, "baseline": base}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def link_claims(sentences: list[Sentence], claims: list[Claim], article_meta: dict[str, Any],
                kb: KnowledgeBase | None = None, *, ner: Ner | None = None) -> list[Claim]:
    """The claims of one article with `entities`, `metric` and (ratios) `compared_to` filled in.

    sentences: the article's sentences (offsets in the article text); claims: its claims, in any order;
    article_meta: the article's metadata ('round' as an id or alias, or 'date'/'published');
    kb: a knowledge base (default: the shipped one); ner: an optional extra recognizer (see ner.py)."""
    kb = kb or load_kb()
    art = _Article(sentences, claims, dict(article_meta or {}), kb, ner)
    return [art.link(c) for c in claims]
