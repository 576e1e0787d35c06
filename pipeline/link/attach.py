"""Attach every claim to what it is about: entities, metric and, for ratios, what it is compared with.

Rules, in order, for each entity type:
  1. a count of chips/GPUs takes the accelerator written right after the number ("4096 块 TPU v3");
  2. the nearest mention in the claim's clause, else in its sentence -- leaving out the baseline of a
     comparison ("较 TPU v3 ... 2.7 倍": TPU v3 is what the ratio is measured against, not its subject);
     a mention inside a list ("ResNet-50、BERT、SSD") leaves the type empty: the claim is about all;
     a claim inside a baseline takes the baseline's mentions, and from the rest of the sentence only
     what subject and baseline share (linking.yaml `baseline_shares`: the benchmark compared on);
  3. carried over from the nearest earlier sentence of the paragraph that names one (its first mention:
     the topic), or from anywhere earlier in the article when the sentence points back (该系统, this
     system).  In an article whose paragraphs are separated by blank lines, lines joined by a single
     line break (list items, the rows after a lead-in) are one paragraph;
     a benchmark of a time or speedup whose paragraph names none is what the story or section is about
     (linking.yaml `topic`): the one the nearest earlier paragraph of its section names alone, else the
     one its heading or the headline names alone -- found at the article's level, never one a
     contradiction rests on;
  4. implied (pipeline.link.infer): a system gives its accelerator and org, an accelerator its org, the
     org is the round's submitter of the chip; a count of chips that only one machine of the round had
     is a mention of that machine;
  5. the article's round (meta 'round' or 'date', a round id in the path, the latest round the text
     names) when the claim's clause names none; a date in the clause that is no round's date leaves the
     round empty ("2015年" is not a round).  A round written in another clause or bracketed aside that
     holds claims of its own is theirs ("the Pod, a 1,024-chip machine ... in last year's round, and it
     delivers 430 petaflops": the petaflops are this round's); a past date in another clause is the far
     side of a ratio, not its time ("2015 年……如今快了近五个数量级").
A count of one ("one of two benchmarks", 唯一一家) names its member: the metric's `ignore` does not apply.
Family mentions ("TPU", "超级计算机") are resolved first: the one member that fits the org and round
around them, else the nearest earlier mention of a member.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.link import frames, infer
from pipeline.link.infer import AMBIGUOUS
from pipeline.link.kb import KnowledgeBase, fold, load_kb
from pipeline.link.recognize import Cue, Mention, get_recognizer
from pipeline.link.rules import MetricRule
from pipeline.records import (
    ENTITY_TYPES,
    META_DATE_KEYS,
    Claim,
    Entities,
    Sentence,
    evolve,
    is_percent_change,
    is_span,
    percent_as_ratio,
    ratio_as_percent,
)

LINK_TYPES = (*ENTITY_TYPES, "category")
SPECIFIC = ("alias", "cased", "context", "fuzzy", "ner")  # mentions that name an entity outright
# Types whose names pair off with the figures of a sentence, each with the nearest one of its kind
PAIRED_TYPES = ("benchmark", "system", "accelerator", "org")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
Ner = Callable[[str], list[Mention]]


# support level of an entity the words never state (see _support, inferred)
INFERRED = 5
# support level of the article's default: its round, and the benchmark a story or its section is about
# (`_topic`); never one a contradiction may rest on
ARTICLE = 4

@dataclass
class _Sent:
    s: Sentence
    mentions: list[Mention]
    cues: list[Cue]
    clauses: list[frames.Span]
    regions: list[frames.Region] = field(default_factory=list)
    list_size: dict[int, int] = field(default_factory=dict)
    asides: list[frames.Span] = field(default_factory=list)
    claims: list[frames.Span] = field(default_factory=list)  # the spans of the sentence's claims
    kinds: dict[frames.Span, str] = field(default_factory=dict)  # the kind of each of those claims
    segments: list[frames.Span] = field(default_factory=list)  # independent clauses (semicolons)
    head_end: int | None = None  # where the head of a list of segments ends (its colon), if it has one
    _contrast: list[frames.Span] | None = None
    _cue_types: dict[str, set[str]] = field(default_factory=dict)
    block: int = 0  # paragraphs joined by a single line break share a block

    def in_region(self, m: Mention | Cue | Claim) -> frames.Region | None:
        """The comparison baseline region that holds `m` (None: it is in none)."""
        return next((r for r in self.regions if r.start <= m.start and m.end <= r.end), None)

    def closed(self, r: frames.Region) -> bool:
        """Whether the region is closed by words that end a baseline (与 X 相比) or by the comparison it
        belongs to ("比 8 块 A100 快约 8%"), not merely by the end of its clause."""
        return r.kind == "paired" or any(s == r.end and self.kinds.get((s, e)) in ("ratio", "percent")
                                         for s, e in self.claims)

    def home(self, m: Mention | Cue | Claim) -> frames.Span | None:
        """The innermost bracketed aside holding `m`, else its clause."""
        inner = [a for a in self.asides if a[0] <= m.start and m.end <= a[1]]
        return min(inner, key=lambda a: a[1] - a[0]) if inner else frames.span_of(self.clauses, m.start)

    def foreign(self, m: Mention | Cue, claim: Claim) -> bool:
        """`m` is written in another clause or aside than the claim (not one around it), one that holds
        claims of its own."""
        home = self.home(m)
        if home is None or home[0] <= claim.start and claim.end <= home[1]:
            return False
        return self._holds_claims(home, claim)

    def separated(self, m: Mention | Cue, claim: Claim) -> bool:
        """`m` is in another independent clause (set off by a semicolon) that holds claims of its own:
        "256 颗 TPU v3 训练 ResNet-50 用了 7.08 分钟；TPU v2 Pod 用了 11.25 分钟" (the v2's time is not v3's)."""
        if not self.segments:
            return False
        seg = frames.span_of(self.segments, m.start)
        if seg is None or seg[0] <= claim.start < seg[1] or not self._holds_claims(seg, claim):
            return False
        # the head before a list's colon frames every item after it
        return not (self.head_end is not None and m.end <= self.head_end < claim.start)

    def contrasted(self, m: Mention | Cue, claim: Claim) -> bool:
        """`m` is written in another clause than the claim's, one that sets another subject against the
        rest of the sentence ("…, while the top commercial system needed 0.76 minutes using 1840 Nvidia
        accelerators") and holds claims of its own: what it names is theirs."""
        if not self.contrast_clauses:
            return False
        clause = frames.span_of(self.contrast_clauses, m.start)
        return clause is not None and not clause[0] <= claim.start < clause[1] and self._holds_claims(clause, claim)

    @property
    def contrast_clauses(self) -> list[frames.Span]:
        """The clauses that hold a contrast word (computed once)."""
        if self._contrast is None:
            words = [c for c in self.cues if "contrast" in c.keys]
            self._contrast = [cl for cl in self.clauses if any(frames.inside(c, cl) for c in words)] if words else []
        return self._contrast

    def aside_of_others(self, m: Mention | Cue, claim: Claim) -> bool:
        """`m` is inside a bracketed aside that holds claims of its own and not this claim ("went from 18.47
        minutes (Nvidia, 192 V100 GPUs) to 8.13 minutes": Nvidia is not the 8.13 minutes')."""
        inner = [a for a in self.asides if a[0] <= m.start and m.end <= a[1] and self._after_figure(a)]
        return any(not (a[0] <= claim.start and claim.end <= a[1]) and self._holds_claims(a, claim) for a in inner)

    def _after_figure(self, aside: frames.Span) -> bool:
        """Whether an aside follows a figure ("18.47 minutes (Nvidia, 192 V100 GPUs)"): it is that figure's;
        one after a name ("Dell's XE9680 cluster (64 H100s) did ...") describes the name, the clause's subject."""
        before = self.s.text[:aside[0] - self.s.start].rstrip()
        return any(e - self.s.start == len(before) for _, e in self.claims)

    def nearest_claim(self, m: Mention | Cue, kind: str) -> frames.Span | None:
        """The claim of that kind a mention goes with: the first after it ("SSD in 0.82 minutes", "BERT
        trained in 21.69 minutes and DLRM in 0.99 minutes", "Transformer ... finished in 16 seconds, and
        ResNet-50 ... took 23 seconds"), else the last before it ("took 23 seconds on ResNet-50")."""
        same = [c for c in self.claims if self.kinds.get(c) == kind]
        glued = self._figure_first(m, same)
        if glued is not None:
            return glued
        if self.segments:
            # an independent clause keeps its names to its own claims ("二十四台DGX-2H完成GNMT只需1.8分钟；
            # MiniGo则在三台DGX-1上": GNMT is the 24 machines', not the next clause's)
            seg = frames.span_of(self.segments, m.start)
            mine = [c for c in same if seg is not None and seg[0] <= c[0] < seg[1]]
            same = mine or same
        after = [c for c in same if m.end <= c[0]]
        if after:
            return min(after)
        return max(same, default=None)

    def set_aside(self, m: Mention) -> bool:
        """Whether an exclusion word stands right before the mention (除H100之外, "apart from the H100")."""
        text, base = self.s.text, self.s.start
        return any("exclusion" in c.keys and c.end <= m.start and not text[c.end - base:m.start - base].strip()
                   for c in self.cues)

    def set_against(self, names: list[Mention], claim: Claim) -> bool:
        """Whether `names` go with a figure of the claim's kind written before it, and a word that compares or
        contrasts stands between that figure and the claim ("14.7 minutes versus 28.8 minutes", "用时14.7分钟，
        而上一代为28.8分钟"): the claim is the other side, which those names are not."""
        kind = self.kinds.get((claim.start, claim.end))
        found = {self.nearest_claim(m, kind) for m in names} if kind else set()
        theirs = [c for c in found if c is not None]
        if not theirs or len(theirs) < len(found) or any(c[1] > claim.start for c in theirs):
            return False
        return self._contrast_between(max(c[1] for c in theirs), claim)

    def set_before(self, names: list[Mention], claim: Claim) -> bool:
        """Whether `names` go with a figure of the claim's kind written after it, behind a word that opens a
        comparison ("19.39分钟，比英伟达 DGX A100 的20.0分钟还快", "19.39 minutes, faster than NVIDIA's DGX A100
        at 20 minutes"): they name the baseline, and the claim is the side they are set against."""
        kind = self.kinds.get((claim.start, claim.end))
        mine = [m for m in names if self.s.start <= m.start < self.s.end]
        found = {self.nearest_claim(m, kind) for m in mine} if kind else set()
        theirs = [c for c in found if c is not None]
        if not mine or not theirs or len(theirs) < len(found) or any(c[0] < claim.end for c in theirs):
            return False
        first = min(m.start for m in mine)
        return any("cmp:open" in c.keys and claim.end <= c.start and c.end <= first for c in self.cues)

    def other_side(self, claim: Claim) -> bool:
        """Whether a figure of the claim's kind stands before it in the sentence with a contrast word between
        ("nearly 2x: 14.7 minutes versus 28.8 minutes", naming no one): the claim is the other side, so a
        subject carried from before is the first figure's, not its."""
        kind = self.kinds.get((claim.start, claim.end))
        before = [c[1] for c in self.claims if kind and self.kinds.get(c) == kind and c[1] <= claim.start]
        return bool(before) and self._contrast_between(max(before), claim)

    def _contrast_between(self, last: int, claim: Claim) -> bool:
        against = [c for c in self.cues if last <= c.start and c.end <= claim.start and "contrast" in c.keys]
        # "against 21.37 minutes for its own baseline": a word pointing back makes it the same subject's
        return bool(against) and not any(c.start >= against[0].end and any(k.startswith("anaphor:") for k in c.keys)
                                         for c in self.cues)

    def _figure_first(self, m: Mention | Cue, same: list[frames.Span]) -> frames.Span | None:
        """The figure a name follows at once across a figure_first word ("2.5 minutes for Stable Diffusion")."""
        word = next((c for c in self.cues if "figure_first" in c.keys and c.end <= m.start
                     and not self.s.text[c.end - self.s.start:m.start - self.s.start].strip()), None)
        if word is None:
            return None
        return next((c for c in same if c[1] <= word.start
                     and not self.s.text[c[1] - self.s.start:word.start - self.s.start].strip()), None)

    def _holds_claims(self, span: frames.Span, claim: Claim) -> bool:
        return any(span[0] <= a and b <= span[1] and (a, b) != (claim.start, claim.end) for a, b in self.claims)

    def cue_types(self, prefix: str) -> set[str]:
        """The types the sentence's cues name under `prefix` ("anaphor:org" gives org), once per sentence and prefix."""
        # asked once per claim and type: computed once per sentence (a long line holds thousands of claims)
        hit = self._cue_types.get(prefix)
        if hit is None:
            hit = self._cue_types[prefix] = {k.split(":", 1)[1] for c in self.cues for k in c.keys
                                             if k.startswith(prefix)}
        return hit


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
            spans = frames.clauses(s.text, s.start, self.rules.clause_delimiters, self.rules.clause_continuations)
            segmented = any(d in s.text for d in self.rules.segment_delimiters)
            self.sents[s.index] = _Sent(s, mentions, list(a.cues), spans,
                                        asides=frames.asides(s.text, s.start, self._brackets(s.text)),
                                        segments=frames.clauses(s.text, s.start, self.rules.segment_delimiters)
                                        if segmented else [],
                                        head_end=self._head_end(s) if segmented else None)
            self.order.append(s.index)
        self._blocks()
        self._by_block: dict[int, list[_Sent]] = {}
        for x in self._in_order():
            self._by_block.setdefault(x.block, []).append(x)
        self.headings = self._headings()
        self._sections: dict[int, str | None] | None = None  # block -> the round its section's heading names
        self._relative_openers: set[int] = set()  # sentences whose relative words opened a section
        self._named_openers: set[int] = set()  # blocks that open a section by naming its round
        self._topics: dict[str, dict[int, tuple[str | None, int] | None]] = {}
        self._carried: dict[tuple[int, str, bool], tuple[str | None, int] | None] = {}
        self._position = {idx: i for i, idx in enumerate(self.order)}
        self.org_chips = self._org_chips()
        self.topic_org = self._topic_org()
        self.round = self._article_round(meta, claims)
        self._date_rounds(claims, meta)
        for c in claims:
            home = self.sent_of(c)
            if home is not None and c.kind != "date" and not self._ago(c):  # a date is when, not a fact
                home.claims.append((c.start, c.end))
                home.kinds[(c.start, c.end)] = c.kind
        by_start = sorted(range(len(claims)), key=lambda i: claims[i].start)
        starts = [claims[i].start for i in by_start]
        for st in self._in_order():
            self._resolve_relative_rounds(st)
            self._resolve_generics(st)
            # the sentence's claims, in the order given
            here = by_start[bisect.bisect_left(starts, st.s.start):bisect.bisect_left(starts, st.s.end)]
            mine = [claims[i] for i in sorted(here)]
            # a percent of change ("比 8 块 A100 快约 8%", "8% faster than") has a baseline as a ratio has
            ratios = [c for c in mine if c.kind in ("ratio", "percent")]
            st.regions = frames.baseline_regions(st.s.text, st.s.start, st.cues, st.mentions, ratios, st.clauses,
                                                 self.rules, frames.bound_spans(mine))
            named = [m for m in st.mentions if m.id and m.how != "date"]
            sizes = frames.list_sizes(st.s.text, st.s.start, named, self.rules.list_separators)
            st.list_size = {id(m): sizes[i] for i, m in enumerate(named)}

    def _head_end(self, s: Sentence) -> int | None:
        """The end of a list's head: its first colon, when a segment delimiter follows it."""
        found = [i for i in (s.text.find(h) for h in self.rules.list_heads) if i >= 0]
        if not found:
            return None
        i = min(found)
        if not any(s.text.find(d, i) > i for d in self.rules.segment_delimiters):
            return None
        return s.start + i

    def _ago(self, claim: Claim) -> bool:
        """"两年前", "two years ago": a span of time that dates something, like a date."""
        if claim.kind != "duration":
            return False
        st = self.sents.get(claim.sentence_index)
        after = st.s.text[claim.end - st.s.start:].lstrip().lower() if st is not None else ""
        return any(after.startswith(w.lower()) for w in self.rules.ago)

    def _brackets(self, text: str) -> list[tuple[str, str]]:
        """The bracket pairs whose opening one occurs in `text` (the others bracket nothing)."""
        return [(o, c) for o, c in self.rules.brackets if o in text]

    def _in_order(self) -> list[_Sent]:
        return [self.sents[i] for i in self.order]

    def _blocks(self) -> None:
        """Paragraphs are lines.  When the article separates paragraphs with blank lines, lines joined by
        a single line break (a list after its lead-in, table rows, a wrapped paragraph) are one block;
        a one-character gap between two paragraphs is that line break."""
        sents = self._in_order()
        gaps = [(b.s.start - a.s.end) for a, b in zip(sents, sents[1:], strict=False) if a.s.paragraph != b.s.paragraph]
        blank_lines = any(g > 1 for g in gaps)
        block = 0
        for prev, cur in zip(sents, sents[1:], strict=False):
            item = cur.s.text.lstrip().startswith(self.rules.list_markers)
            if cur.s.paragraph != prev.s.paragraph and (item or not (blank_lines and cur.s.start - prev.s.end == 1)):
                block += 1
            cur.block = block

    def _headings(self) -> set[int]:
        """The sentences that are section headings: a line marked as one ("## BERT"), or a short line of one
        sentence, a block of its own, that ends in no sentence punctuation (an HTML <h2> once the page is
        text).  The first line is the headline, not a section's heading."""
        h = self.rules.headings
        out = set()
        for st in self._in_order()[1:]:
            text = st.s.text.strip()
            if not text or text.startswith(h.not_markers) or st.s.text.lstrip().startswith(self.rules.list_markers):
                continue
            if h.markers and text.startswith(h.markers):
                out.add(st.s.index)
                continue
            if len(self._by_block[st.block]) != 1 or len(text) > h.max_chars:
                continue
            end = text
            while end and end.endswith(h.closers):
                end = end[:-1].rstrip()
            if end and not end.endswith(h.sentence_ends):
                out.add(st.s.index)
        return out

    def add_count_systems(self, claims: Sequence[Claim]) -> None:
        """A count of chips that only one machine of the claim's round had is a mention of that machine
        ("the 4,096-chip machine", "4096 块 TPU v3").  Not when the clause names a system or the sentence
        names that machine; when several machines had that many (Selene is a DGX SuperPOD), the one the
        nearest earlier sentence naming one of them names first."""
        conf = self.rules.confidence["count"]
        for c in sorted(claims, key=lambda c: c.start):
            st = self.sent_of(c)
            if st is None or c.kind != "count" or c.counted not in self.rules.count_accelerator:
                continue
            named = [m for m in st.mentions if m.type == "system" and m.id and m.how in SPECIFIC]
            clause = frames.span_of(st.clauses, c.start)
            if clause is not None and any(frames.inside(m, clause) for m in named):
                continue
            e = self.link(c).entities
            cands = infer.systems_with_chips(self.kb, c.value, [r for r in (e.round or self.round,) if r],
                                             e.accelerator, e.org)
            if any(m.id in cands for m in named):  # the sentence names it: the name does the linking
                continue
            sid = cands[0] if len(cands) == 1 else self._topic_among(st, set(cands)) if cands else None
            if sid:
                st.mentions.append(Mention("system", sid, c.start, c.end, c.text, conf, "count"))
                st.mentions.sort(key=lambda m: m.start)

    def _topic_among(self, st: _Sent, ids: set[str]) -> str | None:
        """The first of `ids` named in the nearest earlier sentence that names one (its topic)."""
        for idx in reversed(self.order[:self._position[st.s.index]]):
            hit = next((m.id for m in self.sents[idx].mentions if m.id in ids), None)
            if hit:
                return hit
        return None

    # ---------------------------------------------------------------------------------- article set-up

    def _date_rounds(self, claims: Sequence[Claim], meta: dict[str, Any]) -> None:
        """A date claim is a round mention: the round published that month, or None (no round: blocks
        the article's default round for its clause).  A date without a year ("--07-29", 7 月 29 日)
        takes the article's year."""
        year = next((str(meta[k])[:4] for k in (*META_DATE_KEYS, "date_text") if meta.get(k)), None)
        entry = self.kb.get("round", self.round)
        year = year or (str(entry.attrs["date"])[:4] if entry is not None else None)
        for c in claims:
            st = self.sent_of(c)
            if c.kind != "date" or st is None or not isinstance(c.value, str):
                continue
            value = f"{year}{c.value[1:]}" if c.value.startswith("--") and year else c.value
            rid = self.kb.round_in_month(value, after=self.round)
            st.mentions.append(Mention("round", rid, c.start, c.end, c.text, self.rules.confidence["date"], "date"))
            st.mentions.sort(key=lambda m: m.start)

    def _article_round(self, meta: dict[str, Any], claims: Sequence[Claim]) -> str | None:
        named = [m.id for st in self._in_order() for m in st.mentions
                 if m.type == "round" and m.id and m.how in SPECIFIC]
        doc = claims[0].doc if claims else str(meta.get("doc", ""))
        rid, self.round_certain = article_round(self.kb, meta, doc, named)
        return rid

    def _resolve_relative_rounds(self, st: _Sent) -> None:
        conf = self.rules.confidence["relative"]
        here = None
        for c in st.cues:
            for k in c.keys:
                if k == "relative:round:previous" and here is None:
                    # in a walk through the rounds, "the previous round" is the one before the section's (the
                    # words that opened a section, "Last summer ...", are the article's)
                    section = self._section_round(st)
                    here = section if section and st.s.index not in self._relative_openers else self.round
                if k == "relative:round:previous":
                    rid = self.kb.previous_round(here)
                elif k == "relative:round:current":
                    # "1. v0.7（2020 年 7 月 29 日发布）这一轮有 9 家机构……": right after a section names its round,
                    # "this round" is that one; elsewhere the article's
                    section = self._section_round(st)
                    rid = section if section and st.block in self._named_openers else self.round
                else:
                    continue
                if rid:
                    st.mentions.append(Mention("round", rid, c.start, c.end, c.text, conf, "relative"))
        st.mentions.extend(self._debut_rounds(st))
        st.mentions.sort(key=lambda m: m.start)

    def _debut_rounds(self, st: _Sent) -> list[Mention]:
        """"the first GPT-3 round", "GPT-3 首次亮相的那一轮": the round the named benchmark first ran in."""
        before, round_words, alone = self.rules.debut_round
        text = fold(st.s.text).lower()
        out = []
        for m in st.mentions:
            if m.type != "benchmark" or not m.id:
                continue
            head = text[:m.start - st.s.start].rstrip()
            tail = text[m.end - st.s.start:].lstrip()
            paired = any(head.endswith(b) and (len(head) == len(b) or not head[-len(b) - 1].isalnum())
                         for b in before) and any(tail.startswith(r) for r in round_words)
            if paired or any(tail.startswith(a) for a in alone):
                rid = self.kb.first_round(m.id)
                if rid:
                    out.append(Mention("round", rid, m.start, m.end, m.text, self.rules.confidence["relative"],
                                       "relative"))
        return out

    def _resolve_generics(self, st: _Sent) -> None:
        out = []
        for m in st.mentions:
            if m.how == "generic" and m.family:
                m = evolve(m, id=self._resolve_family(st, m))
            out.append(m)
        st.mentions = out

    def _resolve_family(self, st: _Sent, m: Mention) -> str | None:
        if self._named_by_unknown(st, m):
            return None  # "ABCI超级计算机", "the Frontier supercomputer": a machine the knowledge base lacks
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
        # "四台DGX H100共32块GPU": a system named in the clause says which of the family it is built from
        built = {str(s.attr("accelerator")) for x in near if x.type == "system" and (s := self.kb.get("system", x.id))
                 and s.attr("accelerator") in ids}
        if len(built) == 1:
            return built.pop()
        # "eight-GPU H200 servers": one chip of the family named in the clause is the one it means, before
        # any named earlier in the article
        named = {x.id for x in near if x.type == m.type and x.id in ids}
        if len(named) == 1:
            return named.pop()
        for earlier in reversed(self._mentions_before(m.start)):
            if earlier.type == m.type and earlier.id in ids:
                said = {o for o in orgs if o} or {x.id for x in st.mentions
                                                  if x.type == "org" and x.id and x.how != "generic"}
                if m.type == "accelerator" and not infer.may_run(self.kb, said, earlier.id, self.round):
                    break  # "tiny corp, whose six-GPU tinybox": the H100s named before are not its GPUs
                return earlier.id
        family = self.kb.get(m.type, m.family) if m.family else None
        if family is not None and family.family and m.type == "accelerator":
            # "5,120 Blackwell Ultra GPUs" with no chip of the generation named: the generation itself, whose
            # results are those of any of its chips
            return family.id
        return None

    @staticmethod
    def _named_by_unknown(st: _Sent, m: Mention) -> bool:
        """A family word right after a name no mention covers (a capitalised or upper-case Latin word)."""
        head = st.s.text[:m.start - st.s.start].rstrip()
        word = re.search(r"[A-Za-z][A-Za-z0-9-]*$", head)
        if word is None or not (word.group(0)[0].isupper()):
            return False
        start = st.s.start + word.start()
        return not any(x.start <= start < x.end for x in st.mentions if x is not m)

    def _mentions_before(self, pos: int) -> list[Mention]:
        return [m for st in self._in_order() if st.s.start < pos for m in st.mentions if m.end <= pos and m.id]

    def sent_of(self, claim: Claim) -> _Sent | None:
        """The claim's sentence: the one of its sentence index when it lies there, else the one whose span holds it."""
        st = self.sents.get(claim.sentence_index)
        if st is not None and st.s.start <= claim.start <= st.s.end:
            return st
        return next((x for x in self.sents.values() if x.s.start <= claim.start < x.s.end), st)

    # ------------------------------------------------------------------------------------- per claim

    def _qualified(self, st: _Sent, claim: Claim, clause: frames.Span | None) -> Claim:
        """The category and division its words restrict it to: named in its clause, else named once in
        its sentence ("在市售类别中，DLRM 的最快成绩为 0.51 分钟", "in the closed division ... 7.90 minutes")."""
        if st.in_region(claim) is not None:
            return claim  # a figure inside another's comparison ("against 21.37 minutes for its baseline")
        named = [m for m in st.mentions if m.type == "category" and m.id
                 and m.confidence >= self.rules.min_confidence and st.in_region(m) is None]
        # its clause, else what stands before it in its part of the sentence (not past a semicolon: "在研究
        # 类别中，……7.08分钟；云上可租用的 TPU v2 Pod ……11.25分钟")
        segment = frames.span_of(st.segments, claim.start) if st.segments else None
        # ... with no other figure between them ("in the closed division ... 7.90 minutes, against 21.37
        # minutes for its baseline": the division is the 7.90's)
        own = [m for m in named if clause and frames.inside(m, clause)] or [
            m for m in named if m.end <= claim.start and (segment is None or frames.inside(m, segment))
            and not any(m.end <= a and b <= claim.start for a, b in st.claims)]
        by_axis: dict[str, set[str]] = {}
        for m in own:
            entry = self.kb.get("category", m.id)
            by_axis.setdefault(str(entry.attr("axis") or "category") if entry else "category", set()).add(str(m.id))
        quals = tuple(sorted(next(iter(ids)) for ids in by_axis.values() if len(ids) == 1))
        return evolve(claim, qualifiers=quals) if quals else claim

    def _system_of_its_round(self, chosen: dict[str, tuple[str | None, int]]) -> None:
        """A machine carried from an earlier sentence ("11,616 H100s": Eos of v4.0) is not the one of a claim
        whose own words name a round the machine was not in ("the first GPT-3 round", v3.0)."""
        system, rnd = chosen.get("system"), chosen.get("round")
        if system is None or rnd is None or system[1] < 2 or rnd[1] >= 2:
            return
        entry = self.kb.get("system", system[0])
        rounds = entry.attr("rounds") if entry is not None else None
        if rounds and rnd[0] not in rounds:
            del chosen["system"]

    def _counted_by_name(self, st: _Sent, claim: Claim) -> Claim:
        """"3072 块 H100", "768 H100s": a count whose noun is an accelerator's name counts that accelerator
        (GPUs for a GPU family, else chips), which the extractor, knowing no names, left as "other".  A
        processor counted with the words for hosts ("32 Sapphire Rapids CPUs") is counted as its chips."""
        if claim.kind != "count" or claim.counted not in ("other", "host"):
            return claim
        if claim.counted == "host":
            return self._cpu_chips(st, claim)
        text = st.s.text
        for m in st.mentions:
            # the name right after the number, or inside the claim's span ("768 H100s")
            gap = text[claim.end - st.s.start:m.start - st.s.start] if m.start >= claim.end else ""
            inside = claim.start < m.start and m.end <= claim.end
            # a name as written, not a near spelling ("2 颗 CPU" is no GPU)
            near = inside or (m.start >= claim.end and len(gap) <= 2 and not gap.strip())
            if m.type == "accelerator" and m.how in ("alias", "cased", "generic") and near:
                return evolve(claim, counted=self._counted_as(m.id or m.family))
            if m.type == "system" and m.how in ("alias", "cased") and near:
                return evolve(claim, counted="system")  # "4 台 DGX H100": machines of that model
        return claim

    def _cpu_chips(self, st: _Sent, claim: Claim) -> Claim:
        """"32 Sapphire Rapids CPUs": the count's own words name a processor that news counts as CPUs, so
        what it counts are the chips of the results (accelerator_count), not their hosts."""
        if not claim.text.rstrip().lower().endswith(tuple(w.lower() for w in self.rules.cpu_nouns)):
            return claim  # "16 Sapphire Rapids servers" are hosts
        for m in st.mentions:
            entry = self.kb.get("accelerator", m.id) if m.type == "accelerator" and m.id else None
            if entry is not None and entry.attr("cpu") and claim.start < m.start and m.end <= claim.end:
                return evolve(claim, counted="chip")
        return claim

    def _counted_as(self, acc: str | None) -> str:
        entry = self.kb.get("accelerator", acc)
        while entry is not None and not entry.attr("counted") and entry.family:
            entry = self.kb.get("accelerator", entry.family)
        return str(entry.attr("counted")) if entry is not None and entry.attr("counted") else "chip"

    def link(self, claim: Claim) -> Claim:
        """The claim with its entities, metric, comparison baseline and support, linked from the words of its
        sentence (and carried from earlier sentences for what they leave unnamed)."""
        st = self.sent_of(claim)
        if st is None:
            ents = Entities(round=self.round)
            return evolve(claim, entities=ents)
        # a partitive across a comma ("八项测试中，基于A100的系统拿下了其中七项") is of the clause of its part
        clause = frames.span_of(st.clauses, claim.end - 1 if claim.of_total is not None else claim.start)
        claim = self._counted_by_name(st, claim)
        claim = self._qualified(st, claim, clause)
        rule = frames.choose_metric(claim, st.cues, clause, self.rules)
        # a count of one names its member ("one of two benchmarks", 唯一一家)
        ignore = set(rule.ignore if rule and not (claim.kind == "count" and claim.value == 1) else ())
        region = st.in_region(claim)
        closed = region is not None and st.closed(region)
        # a machine named by another count of chips is not this count's ("8芯片到4096芯片": 8 is not the 4096)
        own_count = claim.kind == "count" and claim.counted in self.rules.count_accelerator
        ok = [m for m in st.mentions if m.confidence >= self.rules.min_confidence
              and not (own_count and m.how == "count" and (m.start, m.end) != (claim.start, claim.end))]
        # inside a baseline, the baseline is the claim's own context; elsewhere the baseline is left out
        outside = [m for m in ok if st.in_region(m) is None]
        pool = [m for m in ok if frames.inside(m, (region.start, region.end))] if region is not None else outside
        chosen: dict[str, tuple[str | None, int]] = {}
        for t in LINK_TYPES:
            if t in ignore:
                continue
            pick = self._pick(st, pool, t, clause, claim)
            if pick is None and region is not None and t in self.rules.baseline_shares:
                pick = self._pick(st, outside, t, clause, claim)
            if t in self.rules.baseline_shares and region is None and (pick is None or pick[1] >= 1):
                # "more than twice as fast as a DGX-1 on ResNet-50": what both sides share, named in the
                # claim's own baseline, beats a name in another clause
                own = [m for r in st.regions if r.owner == claim.start for m in ok
                       if m.type == t and m.id and r.start <= m.start and m.end <= r.end]
                if len({m.id for m in own}) == 1:
                    pick = (own[0].id, 0)
            if (pick is None and t in self.rules.carry_types and t != "benchmark"
                    and claim.kind not in ("ratio", "percent") and st.other_side(claim)):
                pick = (None, 1)  # "14.7 minutes versus 28.8 minutes": the carried subject is the first figure's
            if pick is None and t in self.rules.carry_types and (not closed or t in self.rules.baseline_shares):
                # a baseline ("比 8 块 A100") names its own side: the subject carried from before is the other
                pick = self._carry(st, t)
            if pick is None and t in self.rules.topic_types and self._topical(claim, rule):
                pick = self._topic(st, t)
            if pick is not None:
                chosen[t] = pick
        self._adjust(st, claim, clause, ok, chosen)
        self._system_of_its_round(chosen)
        self._respectively(st, claim, ok, chosen)
        self._table_header(st, claim, chosen)
        if "org" not in chosen and "org" not in ignore and claim.counted not in self.rules.orgless and not closed:
            # where the words name no org: the last one named before, in any paragraph (a subject is carried
            # until another is named), else the org the story is about; shown, never a frame (INFERRED)
            far = self._carry(st, "org", far=True)
            org = far[0] if far and far[0] and far[0] != AMBIGUOUS else self.topic_org
            if org:
                chosen["org"] = (org, INFERRED)
        if "round" not in ignore and "round" not in chosen:
            chosen["round"] = (self._section_round(st) or self.round, ARTICLE)
        levels: dict[str, int] = {}
        values = infer.implied(self.kb, chosen, levels)
        described = any(m.type == "benchmark" and m.id == values.get("benchmark") and m.how == "description"
                        for m in pool)
        values = infer.remap_description(self.kb, values, described)
        org = values.get("org")
        if "accelerator" not in ignore and not values.get("accelerator") and org:
            chip = self._org_chip(org, values.get("round"))
            if chip:
                values["accelerator"] = chip
                levels["accelerator"] = INFERRED
        values.update({t: None for t in ignore if t in values})  # nor implied by what was found
        rule = frames.refine_metric(rule, claim, values, self.rules)
        ents = Entities(**{t: values.get(t) for t in ENTITY_TYPES})
        compared = (infer.compared(self.kb, [r for r in st.regions if r.owner == claim.start], st.mentions, st.cues,
                                   claim, values, self.round) if claim.kind == "ratio" and region is None else None)
        support = self._support(st, claim, region, ok, values, levels, ignore)
        return evolve(claim, entities=ents, metric=self._metric(st, claim, rule, compared), compared_to=compared,
                      support={**(claim.support or {}), **support})

    def _metric(self, st: _Sent, claim: Claim, rule: MetricRule | None, compared: dict | None) -> str | None:
        """The claim's metric: its rule's, unless it is a span, or a ratio no cue word decided whose sides say
        what it compares (two chips: their performance; two machines, chips counted: their sizes)."""
        metric = frames.metric_name(rule, claim)
        if is_span(claim):
            return claim.kind  # "five years", 服役两年: a span between events, whatever its words, no training time
        if metric != claim.kind or not compared or (rule is not None and rule.cues):
            return metric
        sub, base = ((compared.get(k) or {}) for k in ("subject", "baseline"))
        if (self.rules.two_chips and "compute" not in st.kinds.values()  # "312 teraflops, 13% more than …": specs
                and sub.get("accelerator") and base.get("accelerator") not in (None, sub.get("accelerator"))):
            return self.rules.two_chips  # "H100 averaged 2.6 times the A100"
        if (self.rules.two_systems and base.get("system") and sub.get("system") != base.get("system")
                and any(k == "count" for k in st.kinds.values())):
            return self.rules.two_systems  # "4096 块 TPU v3 芯片，是去年 TPU v3 Pod 的四倍"
        return metric

    def _table_header(self, st: _Sent, claim: Claim, chosen: dict[str, tuple[str | None, int]]) -> None:
        """A cell of a Markdown table takes what its column's header names ("| v0.7 best (minutes) |"): the
        round of that column, ahead of the article's."""
        row = st.s.text
        if not row.lstrip().startswith("|"):
            return
        pos = self._position[st.s.index]
        top = None
        for idx in reversed(self.order[:pos]):
            if not self.sents[idx].s.text.lstrip().startswith("|"):
                break
            top = self.sents[idx]
        if top is None:
            return
        col = row.count("|", 0, claim.start - st.s.start)
        cells = top.s.text.split("|")
        if col >= len(cells):
            return
        start = top.s.start + sum(len(c) + 1 for c in cells[:col])
        end = start + len(cells[col])
        named = [m for m in top.mentions if m.id and start <= m.start and m.end <= end
                 and m.type in ("round", "org", "accelerator", "system", "benchmark")]
        for m in named:
            if chosen.get(m.type, (None, 9))[1] >= 1:
                chosen[m.type] = (m.id, 0)
        if not any(m.type == "benchmark" for m in named) and any(m.type == "benchmark" and m.id for m in top.mentions):
            # "| 轮次 | BERT最快成绩 | ResNet-50最快成绩 | 最大系统 |": a column of no benchmark in a table whose
            # columns are benchmarks is of none (the largest system), not of the row's other cells'
            chosen["benchmark"] = (None, 0)

    def _org_chips(self) -> dict[str, set[str]]:
        """The chips the article names, by the org that makes or entered them: the chip a story is about
        is often named once ("built from 4096 TPU v3 chips") and then left unsaid."""
        out: dict[str, set[str]] = {}
        for st in self.sents.values():
            for m in st.mentions:
                entry = self.kb.get("accelerator", m.id) if m.type == "accelerator" else None
                if entry is None or entry.generic or m.confidence < self.rules.min_confidence:
                    continue
                for org in {entry.attr("org"), *(entry.attr("submitters") or [])} - {None}:
                    out.setdefault(str(org), set()).add(entry.id)
        return out

    def _topic_org(self) -> str | None:
        """The org a story is about: the one its headline (first sentence) names alone, else the one that
        has most of its org mentions (at least half of them)."""
        orgs = [(st.s.index, m.id) for st in self.sents.values() for m in st.mentions
                if m.type == "org" and m.id and m.confidence >= self.rules.min_confidence]
        if not orgs:
            return None
        first = self.order[0] if self.order else None
        head = {o for i, o in orgs if i == first}
        if len(head) == 1:
            return next(iter(head))
        counts: dict[str, int] = {}
        for _, o in orgs:
            counts[o] = counts.get(o, 0) + 1
        ranked = sorted(counts.values(), reverse=True)
        top = max(counts, key=lambda o: counts[o])
        # the clear favourite: at least half of the mentions, and more than any other org
        return top if counts[top] * 2 >= len(orgs) and (len(ranked) == 1 or ranked[0] > ranked[1]) else None

    def _org_chip(self, org: str, rnd: str | None) -> str | None:
        """The chip of a claim that names an org and no chip: the one chip of that org the article names,
        else the chip the org's results of the round were about (KB `featured`)."""
        named = self.org_chips.get(org) or set()
        if len(named) == 1:
            return next(iter(named))
        if named:
            return None  # the article names several of the org's chips: which one is not said
        entry = self.kb.get("org", org)
        return entry.attr("featured", rnd) if entry is not None and rnd else None

    def _support(self, st: _Sent, claim: Claim, region: frames.Region | None, ok: list[Mention],
                 values: dict[str, str | None], levels: dict[str, int], ignore: set[str]
                 ) -> dict[str, tuple[int, tuple[str, ...]]]:
        """For each entity type: how near the words that named it are (0 the claim's clause, 1 its
        sentence, 2 the sentence before, 3 further back, 4 the article's default, 5 inferred (INFERRED: what
        the words never say, such as the chip an org's results were about), 9 nothing) and the other
        ids of the type the sentence names that the claim could be about (its rivals).  Mentions in a
        baseline (of another claim's comparison), or in a contrasting clause with claims of its own, are
        no rivals."""
        out: dict[str, tuple[int, tuple[str, ...]]] = {}
        by_type: dict[str, list[Mention]] = {}
        for m in ok:
            if m.id and m.how != "date":
                by_type.setdefault(m.type, []).append(m)
        for t in ENTITY_TYPES:
            if t in ignore:
                continue
            level = levels.get(t, 9) if values.get(t) else 9
            # a value taken from another clause of the sentence has that clause's other names as rivals
            # ("本轮结果距去年12月首轮公布仅七个月，共有五家机构提交成绩": 首轮 or 本轮)
            borrowed = level == 1
            rivals = tuple(dict.fromkeys(
                m.id for m in by_type.get(t, ()) if m.id and m.id != values.get(t)
                and (st.in_region(m) is None) == (region is None) and not st.contrasted(m, claim)
                and (borrowed or not st.foreign(m, claim))
                and (t not in PAIRED_TYPES or st.nearest_claim(m, claim.kind) in (None, (claim.start, claim.end)))))
            if values.get(t) or rivals:
                out[t] = (level, rivals)
        return out

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
                if rtype and rtype != "round" and clause and frames.inside(c, clause) and not st.foreign(c, claim):
                    base = [m for m in ok if m.type == rtype and m.id and st.in_region(m) is not None]
                    if base:
                        chosen[rtype] = (min(base, key=lambda m: abs(m.start - c.start)).id, 0)
        # "the Cloud TPU v3 Pod, a 1,024-chip machine": an appositive count describes the name before it
        if claim.kind == "count":
            named = self._apposed(st, claim, ok)
            if named is not None:
                for t in ("system", "accelerator", "org"):
                    chosen.pop(t, None)
                chosen[named.type] = (named.id, 0)
        self._predecessor(st, claim, clause, ok, chosen)
        if claim.kind == "date":  # a date is its own round, or none
            own = next((m for m in st.mentions
                        if m.how == "date" and (m.start, m.end) == (claim.start, claim.end)), None)
            if own is not None:
                chosen["round"] = (own.id, 0)

    def _predecessor(self, st: _Sent, claim: Claim, clause: frames.Span | None, ok: list[Mention],
                     chosen: dict[str, tuple[str | None, int]]) -> None:
        """"the previous generation tops out at 123 teraflops per chip": a clause that names no chip but
        says 'the previous generation' is about the chip before the one its text is about (a ratio's
        baseline is read by the comparison instead)."""
        if claim.kind == "ratio" or clause is None:
            return
        if not any("relative:accelerator:previous" in c.keys and frames.inside(c, clause) for c in st.cues):
            return
        if any(m.type == "accelerator" and m.id and frames.inside(m, clause) for m in ok):
            return
        before = [m for m in ok if m.type == "accelerator" and m.id and m.end <= clause[0]]
        cur = chosen.get("accelerator") or ((before[-1].id, 1) if before else self._carry(st, "accelerator", far=True))
        entry = self.kb.get("accelerator", cur[0]) if cur and cur[0] and cur[0] != AMBIGUOUS else None
        prev = entry.attrs.get("previous") if entry is not None else None
        if prev:
            chosen["accelerator"] = (str(prev), 0)
            chosen.pop("system", None)
            maker = self.kb.get("accelerator", str(prev))
            if maker is not None and maker.attr("org"):
                chosen["org"] = (str(maker.attr("org")), 0)

    def _respectively(self, st: _Sent, claim: Claim, ok: list[Mention],
                      chosen: dict[str, tuple[str | None, int]]) -> None:
        """"SSD和ResNet-50分别为1.21分钟和1.28分钟": as many names of a type as figures of the claim's kind,
        the names before the figures and a word for 'respectively' with them: the i-th name is the i-th
        figure's."""
        cues = [c for c in st.cues if "respectively" in c.keys]
        if not cues:
            return
        seg = frames.span_of(st.segments, claim.start) if st.segments else (st.s.start, st.s.end)
        if seg is None or not any(frames.inside(c, seg) for c in cues):
            return
        figures = sorted(c for c in st.claims if st.kinds.get(c) == claim.kind and seg[0] <= c[0] < seg[1])
        if len(figures) < 2 or (claim.start, claim.end) not in figures:
            return
        i = figures.index((claim.start, claim.end))
        for t in PAIRED_TYPES:
            names = list(dict.fromkeys(m.id for m in sorted(ok, key=lambda m: m.start)
                                       if m.type == t and m.id and seg[0] <= m.start and m.end <= figures[0][0]
                                       and st.in_region(m) is None))
            if len(names) == len(figures):
                chosen[t] = (names[i], 0)

    def _apposed(self, st: _Sent, claim: Claim, ok: list[Mention]) -> Mention | None:
        """The system or chip named right before a count set off as its appositive (", a 1,024-chip
        machine"; the linker's `appositive` words may stand between the comma and the number)."""
        rel = claim.start - st.s.start
        before = st.s.text[:rel].rstrip()
        for word in self.rules.appositive:
            if before.lower().endswith(" " + word.lower()):
                before = before[: -len(word)].rstrip()
                break
        if not before.endswith(","):
            return None
        end = st.s.start + len(before) - 1
        return next((m for m in ok if m.type in ("system", "accelerator") and m.id and m.end <= end and
                     not st.s.text[m.end - st.s.start:end - st.s.start].strip()), None)

    def _far_side_time(self, m: Mention, clause: frames.Span | None) -> bool:
        """A round mention that dates a ratio's far side, not the ratio: a past date in another clause; "last
        year" / 上届 anywhere ("the gain since last year", "比去年快了"); a date of another round ("went from
        6.24 minutes in December to 1.28 minutes, almost five times faster")."""
        return ((m.how == "date" and m.id is None and clause is not None and not frames.inside(m, clause))
                or (m.how == "relative" and m.id != self.round)
                or (m.how == "date" and bool(m.id) and bool(self.round) and m.id != self.round))

    def _pick(self, st: _Sent, pool: list[Mention], t: str, clause: frames.Span | None, claim: Claim
              ) -> tuple[str | None, int] | None:
        # a subject named in another independent clause with claims of its own is theirs; what both sides of
        # a comparison share (the benchmark) is shared by independent clauses too ("ResNet-50: 7.08 分钟；……")
        # (shared forward only: a benchmark written in a later clause with claims of its own is theirs,
        # "最多用到2048块A100；MiniGo用时十七分钟出头")
        cands = [m for m in pool if m.type == t and not st.contrasted(m, claim) and not st.aside_of_others(m, claim)
                 and not st.set_aside(m)
                 and not ((t not in self.rules.baseline_shares or m.start > claim.end) and st.separated(m, claim))]
        if t in PAIRED_TYPES:
            # "BERT trained in 21.69 minutes and DLRM in 0.99 minutes": each name goes with its own figure
            own = [m for m in cands if st.nearest_claim(m, claim.kind) in (None, (claim.start, claim.end))]
            if not own and t != "benchmark" and claim.kind not in ("ratio", "percent") and st.set_against(cands, claim):
                # "the DGX H100 took 14.7 minutes versus 28.8 minutes": the other side, unnamed; nor is it
                # whatever an earlier sentence was about
                return None, 1
            if not own and t != "benchmark" and claim.kind not in ("ratio", "percent") and st.set_before(cands, claim):
                return None  # the baseline's names, after 比 / than: the claim's subject is found elsewhere
            cands = own or cands
        if t in self.rules.clause_owned:
            # a type a clause keeps to itself (the round): written where other claims are, it is theirs
            cands = [m for m in cands if m.how == "date" or not st.foreign(m, claim)]
        if t == "round" and claim.kind == "ratio":
            cands = [m for m in cands if not self._far_side_time(m, clause)]
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
                # a chip generation named without its chip ("Blackwell Ultra GPUs") says what its own clause
                # counts; the GPUs of another clause may be another chip of another generation (a comparison's
                # subject it stays: "Blackwell首秀MLPerf训练：单卡性能最高达Hopper的2.2倍")
                here = [m for m in here if not (m.how == "generic" and self._generation(m) and claim.kind != "ratio")]
                if not here:
                    continue
                # beyond the clause, what was written before the claim is its subject; what follows is
                # more often an aside ("……的四倍（上代系统在上届竞赛中……）").  A round written after the
                # claim's clause never beats the article's round.
                before = [m for m in here if m.end <= claim.start]
                if t == "org" and not before and clause and claim.kind not in ("ratio", "percent") and any(
                        m.type in ("accelerator", "system") and m.id and frames.inside(m, clause) for m in st.mentions):
                    # "基于A100的系统拿下了其中七项……，剩下的一项被微软Azure摘走": the clause's chip says whose it
                    # is; an org of a later clause is that clause's
                    return None, level
                here = before if (before or t == "round") else here
                if not here:
                    continue
                # the sentence's subject is the anaphor it opens with, not a name later in another clause
                if self._opens_with_anaphor(st, t, here):
                    return None
            elif self._opens_with_anaphor(st, t, here, opening=True) and all(
                    any(d in st.s.text[m.end - st.s.start:claim.start - st.s.start]
                        for d in self.rules.clause_delimiters) for m in here):
                # "The cloud also claimed the one benchmark NVIDIA did not win, 3D U-Net, at 1.26 minutes": a
                # name set off from the figure by a comma is no match for the subject the sentence opens with
                return None
            if t == "round" and any(m.id for m in here):
                # "in v2.0, in mid-2022": a year of two rounds blocks only the article's round, not one named
                here = [m for m in here if m.id]
            best = min(here, key=lambda m: (max(0, m.start - claim.end, claim.start - m.end), m.start))
            if best.id is None:  # a date that is no round's date
                return None, level
            if st.list_size.get(id(best), 1) > 1:
                return AMBIGUOUS, level
            return best.id, level
        return None

    def _generation(self, m: Mention) -> bool:
        """Whether a mention's id is a chip generation itself (its chip not named)."""
        entry = self.kb.get(m.type, m.id)
        return entry is not None and entry.generic

    def _opens_with_anaphor(self, st: _Sent, t: str, here: list[Mention], opening: bool = False) -> bool:
        """Whether an anaphor of type t ("the cloud", 该公司) comes before every name in `here` (and, with
        `opening`, starts the sentence)."""
        key = f"anaphor:{t}"
        first = min(m.start for m in here)
        return any(key in c.keys and c.end <= first and (not opening or not st.s.text[:c.start - st.s.start].strip())
                   for c in st.cues)

    def _carry(self, st: _Sent, t: str, far: bool = False) -> tuple[str | None, int] | None:
        """The type from the nearest earlier sentence of the paragraph's block (or of the article, when
        the sentence points back with an anaphor): that sentence's first mention, the topic that a
        following sentence continues."""
        far = far or t in st.cue_types("anaphor:")
        if t != "round" and any("round_level" in c.keys for c in st.cues) and t not in st.cue_types("anaphor:"):
            return None  # the organiser speaking of the round as a whole: no company's topic goes on
        key = (st.s.index, t, far)
        if key not in self._carried:  # the same for every claim of the sentence
            self._carried[key] = self._find_carry(st, t, far)
        return self._carried[key]

    def _find_carry(self, st: _Sent, t: str, far: bool) -> tuple[str | None, int] | None:
        if t in st.cue_types("anaphor:"):
            # "MosaicML trained BERT in 7.9 minutes, 2.7 times as fast as its own baseline at 21.4 minutes": an
            # anaphor after a name of its type in the same sentence points back to that name
            # (not one written right after a name, which it only stresses: "比英伟达自己的 DGX A100 还快")
            subject = [c.start for c in st.cues if f"anaphor:{t}" in c.keys
                       and not any(m.type == t and not st.s.text[m.end - st.s.start:c.start - st.s.start].strip()
                                   for m in st.mentions)]
            named = [m for m in st.mentions if m.type == t and m.id and subject and m.end <= min(subject)
                     and m.confidence >= self.rules.min_confidence]
            if named:
                return named[-1].id, 1
        pos = self._position[st.s.index]
        for back, idx in enumerate(reversed(self.order[:pos])):
            prev = self.sents[idx]
            if prev.block != st.block and not far:
                return None
            cands = [m for m in prev.mentions if m.type == t and m.id and prev.in_region(m) is None
                     and m.confidence >= self.rules.min_confidence]
            if cands:
                m = cands[0]
                return (AMBIGUOUS if prev.list_size.get(id(m), 1) > 1 else m.id), 2 if back == 0 else 3
        return None

    def _topical(self, claim: Claim, rule: MetricRule | None) -> bool:
        """Whether the claim's metric is one a story's topic frames (linking.yaml `topic`): a training time
        or speedup, not a span of months or a chip's spec."""
        if frames.metric_name(rule, claim) not in self.rules.topic_metrics:
            return False
        return not (claim.kind == "duration" and isinstance(claim.value, (int, float))
                    and claim.value > self.rules.topic_max_seconds)

    def _topic(self, st: _Sent, t: str) -> tuple[str | None, int] | None:
        """What the story or section is about, for a claim whose paragraph names no `t` (linking.yaml `topic`):
        the one the nearest earlier paragraph of its section names alone (a list's other items skipped: they
        stand side by side; its lead-in frames them all), else the one its section's heading names alone,
        else the one the headline names alone.  A paragraph that names several takes the heading's or
        headline's only when that is one of them; a heading or headline naming several gives none; the
        claim's own paragraph, naming some elsewhere, only the one it names.  Found at the article's level
        (ARTICLE): the reconcile stage never calls a contradiction on it."""
        if t not in self._topics:
            self._topics[t] = self._block_topics(t)  # one pass over the article, not one per claim
        return self._topics[t].get(st.block)

    def _block_topics(self, t: str) -> dict[int, tuple[str | None, int] | None]:
        """`_topic` for every block, in one pass in document order."""
        blocks = sorted(self._by_block)
        if not blocks:
            return {}
        headline = self._single(self._named_in(blocks[0], t))
        headline_names = bool(self._named_in(blocks[0], t))
        out: dict[int, tuple[str | None, int] | None] = {}
        heading: set[str] = set()
        near: set[str] = set()  # what the nearest earlier block of the section that names any names
        before_list: set[str] = set()  # the same, as it was before the current run of list items
        in_list = False
        for b in blocks[1:]:
            item = self._is_item(b)
            if item and not in_list:
                before_list = near
            in_list = item
            found = self._topic_of(near if not item else before_list, heading, headline, headline_names)
            own = self._named_in(b, t)
            # its paragraph names some (after the claim, or for other claims): the topic only when that is all
            out[b] = None if own and (found is None or own != {found[0]}) else found
            if any(x.s.index in self.headings for x in self._by_block[b]):
                heading, near = own, set()  # a new section: what came before is another section's
            elif own:
                near = own
        return out

    @staticmethod
    def _topic_of(near: set[str], heading: set[str], headline: str | None, headline_names: bool
                  ) -> tuple[str | None, int] | None:
        if len(near) == 1:
            return next(iter(near)), ARTICLE
        # the section's heading, else (naming none) the headline: one named alone
        topic = _Article._single(heading) if heading else (headline if headline_names else None)
        if topic is None or (near and topic not in near):
            return None
        return topic, ARTICLE

    @staticmethod
    def _single(ids: set[str]) -> str | None:
        return next(iter(ids)) if len(ids) == 1 else None

    def _section_round(self, st: _Sent) -> str | None:
        """The round a section's heading names alone ("## 一、v0.7：谷歌超算首秀"), for its claims that name none:
        in an article that walks through several rounds, the section's round, not the article's."""
        if self._sections is None:
            self._sections = self._heading_sections() or self._paragraph_sections()
        return self._sections.get(st.block)

    def _heading_sections(self) -> dict[int, str | None]:
        out: dict[int, str | None] = {}
        current: str | None = None
        for b in sorted(self._by_block):
            if any(x.s.index in self.headings for x in self._by_block[b]):
                # by name or by its date ("## 二、v1.0：TPU v4登场（2021年6月）": a bare v1.0 is no name)
                named = {m.id for x in self._by_block[b] for m in x.mentions
                         if m.type == "round" and m.id and m.id != AMBIGUOUS and m.how != "relative"}
                current = next(iter(named)) if len(named) == 1 else None
            out[b] = current
        # one heading naming a round ("## Since the first round") frames no walk through the rounds
        return out if len({r for r in out.values() if r}) >= 2 else {}

    def _title_line(self, sents: list[_Sent]) -> bool:
        """Whether a block is a title: one line, marked as a heading or ending in no sentence punctuation."""
        if any(x.s.paragraph != sents[0].s.paragraph for x in sents):
            return False
        h = self.rules.headings
        first, last = sents[0].s.text.strip(), sents[-1].s.text.strip()
        return bool(h.markers and first.startswith(h.markers)) or not last.rstrip("".join(h.closers)).endswith(
            h.sentence_ends)

    def _paragraph_sections(self) -> dict[int, str | None]:
        """A retrospective without headings walks through the rounds paragraph by paragraph: a paragraph that
        opens by naming one round ("The third round, v0.7, arrived on July 29, 2020, ...") frames itself and
        the paragraphs after it that name none, when such paragraphs name three rounds or more in the order
        they ran."""
        out: dict[int, str | None] = {}
        current: str | None = None
        walk: list[str] = []
        headline = self.order[0] if self.order else None
        for b in sorted(self._by_block):
            sents = self._by_block[b]
            if any(x.s.index == headline for x in sents) and self._title_line(sents):
                out[b] = None  # the headline names the article's round, or its span ("从 v0.7 到 v2.1")
                continue
            # the paragraph's first sentence with a claim or a round ("In its first year the benchmark grew
            # quickly. The second round, v0.6, ...": the lead-in names neither)
            first = next((x for x in self._by_block[b] if x.claims or any(m.type == "round" for m in x.mentions)),
                         self._by_block[b][0])
            opens = first.claims[0][0] if first.claims else first.s.end
            named = {m.id for m in first.mentions if m.type == "round" and m.id and m.id != AMBIGUOUS
                     and (m.how in SPECIFIC or m.how == "date") and m.start < opens}
            # "Last summer the field widened ...": a round named relative to the article's own
            relative = {r for c in first.cues if c.start < opens for r in (
                self.kb.previous_round(self.round) if "relative:round:previous" in c.keys else None,
                self.round if "relative:round:current" in c.keys else None) if r}
            if relative:
                self._relative_openers.add(first.s.index)  # its own words are relative to the article's round
            elif len(named) == 1:
                self._named_openers.add(b)
            named |= relative
            if any(x.s.index in self.headings for x in self._by_block[b]):
                current = None  # a new section: what the paragraphs before it walked through is done
            if len(named) == 1:
                current = next(iter(named))
                if not walk or walk[-1] != current:
                    walk.append(current)
            out[b] = current
        entries = [self.kb.get("round", r) for r in walk]
        dates = [str(e.attrs.get("date")) for e in entries if e is not None]
        # three rounds or more: a news story that looks back at last year's round names two
        if len(set(walk)) < 3 or len(dates) != len(walk) or dates != sorted(dates):
            return {}
        return out

    def _named_in(self, block: int, t: str) -> set[str]:
        """The ids of type `t` that a block's sentences name."""
        return {m.id for x in self._by_block.get(block, ()) for m in x.mentions
                if m.type == t and m.id and m.id != AMBIGUOUS and m.how != "date"
                and m.confidence >= self.rules.min_confidence}

    def _is_item(self, block: int) -> bool:
        """Whether a block is a list item (its first line starts with a list marker)."""
        first = self._by_block.get(block) or []
        return bool(first) and first[0].s.text.lstrip().startswith(self.rules.list_markers)


def article_round(kb: KnowledgeBase, meta: dict[str, Any], doc: str, named: Sequence[str]) -> tuple[str | None, bool]:
    """The round an article reports, and whether that is certain: its metadata's round or date, a round
    id or a dated file name in its path (certain); else the latest round its text names (certain when it
    names one); else the round of the date its first lines give (`date_text`, a date line or byline).
    The reconcile stage asks the same, so both agree on the default round of a claim."""
    rid = kb.round_id(meta.get("round"))
    if rid:
        return rid, True
    for key in META_DATE_KEYS:
        if meta.get(key):
            found = kb.round_on(str(meta[key]).replace("/", "-"))
            if found:
                return found, True
    parts = doc.split("/")
    for part in parts:
        if part in kb.entries["round"]:
            return part, True
    m = ISO_DATE.match(parts[-1]) if parts else None
    if m and kb.round_on(m.group(0)):
        return kb.round_on(m.group(0)), True
    dated = [r.id for r in kb.rounds if r.id in set(named)]
    from_date = kb.round_on(str(meta["date_text"])) if meta.get("date_text") else None
    if dated:
        # a retrospective names several rounds: the latest is the news, certain when its date agrees
        return dated[-1], len(dated) == 1 or from_date == dated[-1]
    if from_date:
        return from_date, True
    return None, False


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def inferred(claim: Claim) -> tuple[str, ...]:
    """The entity types of a claim that were inferred, not named (level INFERRED): the output shows them,
    but no frame of a verdict may rest on them."""
    return tuple(t for t, (level, _) in (claim.support or {}).items() if level == INFERRED)


def link_claims(sentences: list[Sentence], claims: list[Claim], article_meta: dict[str, Any],
                kb: KnowledgeBase | None = None, *, ner: Ner | None = None) -> list[Claim]:
    """The claims of one article with `entities`, `metric` and (ratios) `compared_to` filled in.

    sentences: the article's sentences (offsets in the article text); claims: its claims, in any order;
    article_meta: the article's metadata ('round' as an id or alias, or 'date'/'published');
    kb: a knowledge base (default: the shipped one); ner: an optional extra recognizer (see ner.py)."""
    kb = kb or load_kb()
    # "25% faster" is linked as the ratio it implies (a speedup), and handed on as written
    changes = [is_percent_change(c) for c in claims]
    claims = [percent_as_ratio(c) if changes[i] else c for i, c in enumerate(claims)]
    art = _Article(sentences, claims, dict(article_meta or {}), kb, ner)
    art.add_count_systems(claims)
    # a ratio with a baseline of its own words ("four times as large as the 2019 pod") keeps it, even when
    # they name nothing the knowledge base holds
    own = {(st.s.index, r.owner) for st in art.sents.values() for r in st.regions}
    linked = _shared_comparisons([art.link(c) for c in claims], own)
    return [ratio_as_percent(c) if changes[i] else c for i, c in enumerate(linked)]


def _shared_comparisons(claims: list[Claim], own: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()
                        ) -> list[Claim]:
    """A ratio that names neither side continues the comparison of the sentence's ratio before it (or,
    with none before, after it): "谷歌用的芯片是英伟达最大规模的 2 倍，BERT 的速度也快了约 1 倍", "Google's
    BERT run used twice as many chips as Nvidia's and finished roughly twice as fast" (Google against
    NVIDIA, both times)."""
    ratios = sorted((i for i, c in enumerate(claims) if c.kind == "ratio"), key=lambda i: claims[i].start)
    shared: dict[int, Claim] = {}
    for n, i in enumerate(ratios):
        c = claims[i]
        if c.compared_to or (c.sentence_index, c.start) in own:
            continue
        same = [j for j in ratios if claims[j].sentence_index == c.sentence_index and claims[j].compared_to]
        before = [j for j in same if ratios.index(j) < n]
        source = before[-1] if before else (same[0] if same else None)
        if source is not None:
            shared[i] = evolve(c, compared_to=claims[source].compared_to)
    return [shared.get(i, c) for i, c in enumerate(claims)]
