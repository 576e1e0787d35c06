"""What resolvers share: the article context and small helpers for asking the official data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import ahocorasick

from pipeline.lang.loader import Language, Languages, languages
from pipeline.link.kb import KnowledgeBase, fold
from pipeline.official.answers import OfficialResult
from pipeline.official.query import OfficialResults
from pipeline.reconcile.verdicts import Fact
from pipeline.records import Claim


class Lookups(Protocol):
    """What the reconcile helpers read besides the claim: the article's languages (None: the shipped) and
    knowledge base, as its Pipeline loaded them.  An ArticleContext is one; so is a Resources."""

    @property
    def langs(self) -> Languages | None: ...

    @property
    def kb(self) -> KnowledgeBase: ...


@dataclass(frozen=True)
class Resources:
    """Lookups before an article's context exists."""

    langs: Languages | None
    kb: KnowledgeBase


@dataclass
class ArticleContext:
    """What resolvers may look at besides the claim: the article's other claims and defaults."""

    claims: list[Claim]
    round: str | None
    kb: KnowledgeBase
    official: OfficialResults
    benchmarks_in_sentence: dict[int, tuple[str, ...]]  # sentence index -> benchmarks it names
    benchmark_mentions: dict[int, tuple[tuple[int, str], ...]]  # sentence index -> (article offset, id)
    # sentence index -> the ids of each type it names (all types), and its paragraph
    named: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    paragraph: dict[int, int] = field(default_factory=dict)
    # the article's round comes from its metadata, its path, a date line, or is the only round it names
    round_certain: bool = False
    round_mentions: dict[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)  # (offset, id)
    langs: Languages | None = None  # the article's language data (its Segmented's); None: the shipped
    # answers computed once per article (claims by sentence, rounds near a claim...), by question
    memo: dict[str, dict] = field(default_factory=dict, compare=False, repr=False)

    def siblings(self, claim: Claim) -> list[Claim]:
        """The other claims of the claim's sentence (told apart by span: a copy of the claim is not its sibling)."""
        by = self.memo.get("by_sentence")
        if by is None:
            by = self.memo["by_sentence"] = {}
            for c in self.claims:
                by.setdefault(c.sentence_index, []).append(c)
        # by span, not identity: a resolver may ask about a copy of the claim (another metric or reading)
        return [c for c in by.get(claim.sentence_index, ()) if (c.start, c.end) != (claim.start, claim.end)]

    def earlier(self, claim: Claim, window: int = 3) -> list[Claim]:
        """The article's claims in the `window` sentences before the claim's."""
        return [c for c in self.claims if claim.sentence_index - window <= c.sentence_index < claim.sentence_index]

    def paragraph_rounds(self, claim: Claim) -> tuple[str, ...]:
        """Rounds named in the claim's paragraph outside its sentence, nearest sentence first (ids the
        recognizer finds: names and aliases, not relative words)."""
        memo = self.memo.setdefault("paragraph_rounds", {})
        if claim.sentence_index not in memo:
            memo[claim.sentence_index] = self._paragraph_rounds(claim)
        return memo[claim.sentence_index]

    def _paragraph_rounds(self, claim: Claim) -> tuple[str, ...]:
        para = self.paragraph.get(claim.sentence_index)
        if para is None:
            return ()
        idx = sorted((i for i, p in self.paragraph.items() if p == para and i != claim.sentence_index),
                     key=lambda i: abs(i - claim.sentence_index))
        return tuple(dict.fromkeys(r for i in idx for r in self.named.get(i, {}).get("round", ())))

    def opens_sentence(self, claim: Claim) -> bool:
        """The claim's round is named before it in its sentence as the sentence's time ("两年前的首轮，谷歌
        ……"), not as a likeness ("As in the inaugural round", 与……一样) or a comparison's far side
        ("Compared with the v0.6 round, ...")."""
        rel = claim.start - claim.sentence_start
        text = folded(claim.sentence)
        for pos, rid in self.round_mentions.get(claim.sentence_index, ()):
            p = pos - claim.sentence_start
            if rid == claim.entities.round and 0 <= p < rel:
                opener = _linking_regex(self.kb, "cmp:open")
                paired = _linking_regex(self.kb, "cmp:paired_open")
                compared = any(rx is not None and rx.search(text, 0, p) for rx in (opener, paired))
                return not compared and not has_cue(self, claim, "likeness", section="scope", before_claim=True)
        return False

    def name(self, etype: str, eid: str | None) -> str:
        """An entity as people write it: its first English name in the knowledge base, else its id."""
        return entity_name(self.kb, etype, eid) if eid else str(eid)

    def accelerators_of(self, org: str, rnd: str | None) -> list[str]:
        """The accelerators of that maker with results in the round (by any submitter)."""
        made = {e.id for e in self.kb.entries["accelerator"].values() if e.attrs.get("org") == org}
        return sorted({r.accelerator for r in self.official.select(round=rnd) if r.accelerator in made})


def round_of(claim: Claim, ctx: ArticleContext) -> str | None:
    """The claim's round: the one its words name, else the article's."""
    return claim.entities.round or ctx.round


def clause_span(claim: Claim, kb: KnowledgeBase) -> tuple[int, int]:
    """The claim's clause as offsets into its sentence (the linker's clause delimiters)."""
    return _clause_span(kb, claim.sentence, claim.start - claim.sentence_start, len(claim.text))


def segment_span(claim: Claim, kb: KnowledgeBase) -> tuple[int, int]:
    """The claim's independent clause (set off by semicolons) as offsets into its sentence."""
    text, rel = claim.sentence, claim.start - claim.sentence_start
    start = max((text.rfind(d, 0, rel) + len(d) for d in kb.linking.segment_delimiters if text.rfind(d, 0, rel) >= 0),
                default=0)
    ends = [i for i in (text.find(d, rel + len(claim.text)) for d in kb.linking.segment_delimiters) if i >= 0]
    return start, min(ends, default=len(text))


def clause_at(kb: KnowledgeBase, text: str, rel: int) -> tuple[int, int]:
    """The clause of a sentence that holds offset `rel` (offsets into the sentence)."""
    return _clause_span(kb, text, rel, 0)


@lru_cache(maxsize=8192)
def _clause_span(kb: KnowledgeBase, text: str, rel: int, length: int) -> tuple[int, int]:
    start, end = 0, len(text)
    for d in kb.linking.clause_delimiters:
        i = text.rfind(d, 0, max(rel, 0))
        if i >= 0:
            start = max(start, i + len(d))
        j = text.find(d, max(rel, 0) + length)
        if j >= 0:
            end = min(end, j)
    return start, end


def sentence_before(claim: Claim, ctx: ArticleContext, what: str, whole: bool = False) -> bool:
    """Whether the claim's sentence, before the claim (or anywhere, `whole`), holds a linking phrase of
    this kind (relative_previous: 上届 / last year's round; relative_current: 本轮 / this round)."""
    keys = {"relative_previous": "relative:round:previous", "relative_current": "relative:round:current"}
    rx = _linking_regex(ctx.kb, keys[what])
    text = folded(claim.sentence)
    end = len(text) if whole else max(0, claim.start - claim.sentence_start)
    return rx is not None and rx.search(text, 0, end) is not None


@lru_cache(maxsize=64)
def _linking_regex(kb: KnowledgeBase, key: str) -> re.Pattern[str] | None:
    """One pattern for the linking phrases that carry a cue key (as words; see _words_regex)."""
    forms = sorted({f.lower() for f, keys in kb.linking.cues.items() if key in keys}, key=lambda f: (-len(f), f))
    return _words_regex(forms)


def baseline_span(claim: Claim, ctx: Lookups) -> tuple[int, int] | None:
    """Where the claim's clause names what it is compared with, as offsets into its sentence: after an
    opener that follows the claim ("45% faster than June's time") or between an opener and the claim
    ("比上一轮快了 45%"); None when its clause names no baseline."""
    rx = _linking_regex(ctx.kb, "cmp:open")
    if rx is None:
        return None
    text = folded(claim.sentence)
    a, b = clause_span(claim, ctx.kb)
    rel, end = claim.start - claim.sentence_start, claim.end - claim.sentence_start
    after = rx.search(text, end, b)
    # "45% faster than June's time": the opener right after the claim, or after its comparative word
    if after is not None and len(text[end:after.start()].strip(" ,，").split()) <= 1:
        return after.start(), b
    before = [m for m in rx.finditer(text, a, rel)]
    return (before[-1].end(), rel) if before else None


def frame_span(claim: Claim, ctx: Lookups) -> tuple[int, int] | None:
    """Where a ratio's frame names its baseline, as offsets into its sentence: "速度是 512 块 GB200 时的 4.4 倍"
    from the opener (是) to the closer (的) written right before the ratio; None when it has no frame."""
    opener, closer = _linking_regex(ctx.kb, "cmp:frame_open"), _linking_regex(ctx.kb, "cmp:frame_close")
    if opener is None or closer is None:
        return None
    text = folded(claim.sentence)
    a, _ = clause_span(claim, ctx.kb)
    rel = claim.start - claim.sentence_start
    close = [m for m in closer.finditer(text, a, rel) if not text[m.end():rel].strip()]
    if not close:
        return None
    opens = [m for m in opener.finditer(text, a, close[-1].start())]
    return (opens[-1].start(), close[-1].end()) if opens else None


def org_of(claim: Claim, ctx: ArticleContext) -> str | None:
    """The claim's org, else the one the nearest earlier claim of the article is about."""
    if claim.entities.org:
        return claim.entities.org
    for c in reversed([c for c in ctx.claims if c.start <= claim.start]):
        if c.entities.org:
            return c.entities.org
    return None


def has_cue(ctx: Lookups, claim: Claim, key: str, section: str = "cues", *, clause: bool = False,
            before_claim: bool = False, others: tuple[Claim, ...] | None = None) -> bool:
    """Whether the claim's sentence (or only its clause, or only the words before it, or - given the
    sentence's `others` claims - its clause and the clauses that hold no claim of their own) holds a
    word of the lexicon's `section`.`key` list."""
    return cue_distance(ctx, claim, key, section, clause=clause, before_claim=before_claim,
                        others=others) is not None


def cue_distance(ctx: Lookups, claim: Claim, key: str, section: str = "cues", *, clause: bool = False,
                 before_claim: bool = False, others: tuple[Claim, ...] | None = None) -> int | None:
    """How many characters from the claim the nearest such word is (None: there is none)."""
    hits = _cue_hits(claim.sentence, language_of(ctx.langs, claim), section, key)
    if not hits:
        return None
    rel = claim.start - claim.sentence_start
    spans: list[tuple[int, int]]
    if clause:
        spans = [clause_span(claim, ctx.kb)]
    elif before_claim:
        spans = [(0, max(0, rel))]
    elif others is not None:
        spans = [s for s in _clauses(ctx.kb, claim.sentence) if s[0] <= rel < s[1] or not any(
            s[0] <= o.start - claim.sentence_start < s[1] for o in others if o is not claim)]
    else:
        spans = [(0, len(claim.sentence))]
    best: int | None = None
    end = rel + len(claim.text)
    for a, b in spans:
        for hs, he in hits:
            if a <= hs and he <= b:
                d = max(0, hs - end, rel - he)
                best = d if best is None else min(best, d)
    return best


def clause_cue_spans(ctx: Lookups, claim: Claim, key: str) -> set[tuple[int, int]]:
    """Where the words of the lexicon's `cues.key` list stand in the claim's clause (offsets in its sentence)."""
    a, b = clause_span(claim, ctx.kb)
    hits = _cue_hits(claim.sentence, language_of(ctx.langs, claim), "cues", key)
    return {(s, e) for s, e in hits if a <= s and e <= b}


def cue_before(ctx: Lookups, claim: Claim, key: str) -> int | None:
    """Where the nearest word of the lexicon's `cues.key` list before the claim, in its clause, ends (an
    article offset), or None."""
    rel = claim.start - claim.sentence_start
    a, _ = clause_span(claim, ctx.kb)
    ends = [he for hs, he in _cue_hits(claim.sentence, language_of(ctx.langs, claim), "cues", key)
            if a <= hs and he <= rel]
    return claim.sentence_start + max(ends) if ends else None


def nearest_cue(ctx: Lookups, claim: Claim, keys: tuple[str, ...], span: tuple[int, int],
                window: int | None = None, skip: tuple[int, int] | None = None) -> str | None:
    """Of several lexicon cue lists, the one whose word stands nearest the claim within `span` (offsets into
    its sentence) and at most `window` characters from it; at equal distance a word after the claim wins (the
    noun a ratio multiplies: "three times the GPUs and 3.5 times the speed"), and a tie on both sides is None,
    as is a span with no such word.  Words inside `skip` (a baseline between the claim and what it says: "速度
    是 512 块 GB200 时的 4.4 倍") do not count, nor does its length."""
    lang = language_of(ctx.langs, claim)
    rel = claim.start - claim.sentence_start
    end = rel + len(claim.text)
    best: dict[str, tuple[int, int]] = {}
    for key in keys:
        for hs, he in _cue_hits(claim.sentence, lang, "cues", key):
            if skip is not None and hs < skip[1] and he > skip[0]:
                continue
            if span[0] <= hs and he <= span[1]:
                gap = rel - he
                if skip is not None and he <= skip[0] and skip[1] <= rel:
                    gap -= skip[1] - skip[0]
                rank = (max(0, hs - end, gap), 0 if hs >= rel else 1)  # distance, then after before before
                if window is None or rank[0] <= window:
                    best[key] = min(best.get(key, rank), rank)
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda kv: kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def language_of(langs: Languages | None, claim: Claim) -> Language:
    """The claim's language data, from the article's languages (None: the shipped ones).  Asked hundreds
    of times per article: the languages already loaded are read straight from their dict."""
    langs = langs or languages()
    return langs.loaded.get(claim.lang) or langs[claim.lang]


def cue_words(lang: Language, key: str, section: str = "cues") -> frozenset[str]:
    """A lexicon list's words, lowercased (to test a single word, such as a claim's bound cue)."""
    return _cue_words(lang, section, key)


@lru_cache(maxsize=256)
def _cue_words(lang: Language, section: str, key: str) -> frozenset[str]:
    table = lang.cues if section == "cues" else lang.scope
    return frozenset(w.lower() for w in table.get(key, ()))


def _cue_hits(sentence: str, lang: Language, section: str, key: str) -> tuple[tuple[int, int], ...]:
    """Where a lexicon list's words stand in a sentence."""
    return _sentence_hits(sentence, lang).get((section, key), ())


@lru_cache(maxsize=4096)
def _sentence_hits(sentence: str, lang: Language) -> dict[tuple[str, str], tuple[tuple[int, int], ...]]:
    """Every word of the language's cue and scope lists in a sentence, found in one pass (Aho-Corasick):
    (section, key) -> spans.  A Latin word must not start or end inside a longer word ("if" is not in
    "different")."""
    text = folded(sentence)
    found: dict[tuple[str, str], list[tuple[int, int]]] = {}
    veto = lang.cue_veto
    auto = _automaton(lang)
    if auto.kind != ahocorasick.AHOCORASICK:  # a language with no cue words yet (only just added)
        return {}
    for last, (word, keys) in auto.iter(text):
        start, end = last - len(word) + 1, last + 1
        if word in veto and text.startswith(veto[word], end):
            continue
        latin = word[:1].isascii()
        if latin and word[:1].isalnum() and start > 0 and text[start - 1].isascii() and text[start - 1].isalnum():
            continue
        if latin and word[-1:].isalnum() and end < len(text) and text[end].isascii() and text[end].isalnum():
            continue
        for k in keys:
            found.setdefault(k, []).append((start, end))
    return {k: tuple(v) for k, v in found.items()}


@lru_cache(maxsize=16)
def _automaton(lang: Language) -> ahocorasick.Automaton:
    """The language's cue and scope words (with its mixed-in language's), lowercased, in one automaton."""
    keys_of: dict[str, list[tuple[str, str]]] = {}
    for section, table in (("cues", lang.cues), ("scope", lang.scope)):
        for key, words in table.items():
            for w in words:
                if w.strip():
                    keys_of.setdefault(w.lower(), []).append((section, key))
    auto = ahocorasick.Automaton()
    for word, keys in keys_of.items():
        auto.add_word(word, (word, tuple(keys)))
    auto.make_automaton()
    return auto


def _words_regex(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    parts = []
    for w in words:
        head = r"(?<![a-z0-9])" if w[:1].isascii() and w[:1].isalnum() else ""
        tail = r"(?![a-z0-9])" if w[-1:].isascii() and w[-1:].isalnum() and w[:1].isascii() else ""
        parts.append(head + re.escape(w) + tail)
    # a lookahead for the possible first characters: most positions fail at once (re tries every
    # alternative at every position otherwise)
    firsts = "".join(sorted({re.escape(w[0]) for w in words}))
    return re.compile(f"(?=[{firsts}])(?:{'|'.join(parts)})")


@lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """A sentence as the lexicons' words are matched: lowercased, Traditional folded to Simplified and
    full-width to half-width, one character for one (offsets keep)."""
    return fold(text).lower()


def clause_spans(claim: Claim, kb: KnowledgeBase) -> list[tuple[int, int]]:
    """All clauses of the claim's sentence, as offsets into it."""
    return list(_clauses(kb, claim.sentence))


@lru_cache(maxsize=4096)
def _clauses(kb: KnowledgeBase, text: str) -> tuple[tuple[int, int], ...]:
    cuts = {0, len(text)}
    for d in kb.linking.clause_delimiters:
        i = text.find(d)
        while i >= 0:
            cuts.add(i + len(d))
            i = text.find(d, i + 1)
    edges = sorted(cuts)
    return tuple((a, b) for a, b in zip(edges, edges[1:], strict=False) if b > a)


def label_of(kb: KnowledgeBase, **parts: Any) -> str:
    """What a fact is about, in words people read (see `_label`); the same parts give the same words."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in parts.items()))
    return _label(kb, key)


@lru_cache(maxsize=4096)
def _label(kb: KnowledgeBase, key: tuple) -> str:
    return _label_of(kb, **dict(key))


def _label_of(kb: KnowledgeBase, **parts: Any) -> str:
    """What a fact is about, in words people read: "Google's ResNet-50 on 4,096 TPU v3 chips (JAX, MLPerf
    Training v0.7)", from ids (org, acc or accelerator, system, benchmark, chips, fw or framework, round;
    several rounds joined with '/').  Flags (True/False) are notes for the resolver, not part of it."""
    org = parts.get("org")
    acc = parts.get("acc") or parts.get("accelerator")
    system, bench, chips = parts.get("system"), parts.get("benchmark"), parts.get("chips")
    fw = parts.get("fw") or parts.get("framework")
    rnd = parts.get("round")
    words = []
    if org:
        words.append(possessive(entity_name(kb, "org", org)))
    if bench:
        words.append(entity_name(kb, "benchmark", bench))
    acc_name = entity_name(kb, "accelerator", acc) if acc else ""
    if chips:
        counts = "/".join(f"{int(c):,}" for c in (chips if isinstance(chips, (tuple, list)) else (chips,)))
        words.append(f"{'on ' if bench else ''}{counts} {acc_name + ' ' if acc_name else ''}chips")
    elif system:
        words.append(("on " if bench else "") + entity_name(kb, "system", system))
    elif acc_name:
        words.append(("on " if bench else "") + acc_name + ("" if bench else " systems"))
    notes = [entity_name(kb, "framework", fw)] if fw and not isinstance(fw, bool) else []
    if rnd:
        notes.append(round_name(kb, str(rnd)))
    if org and len(words) == 1:
        words.append("systems")
    text = " ".join(words) or "the systems"
    fw_note = f" ({notes.pop(0)})" if fw and not isinstance(fw, bool) else ""
    return text + fw_note + (f" in {notes[0]}" if notes else "")


def entity_name(kb: KnowledgeBase, etype: str, eid: Any) -> str:
    """An id as people write it: the first English name the knowledge base lists, else the id."""
    entry = kb.get(etype, str(eid))
    if entry is None:
        return str(eid)
    names = [*(entry.aliases.get("en") or ()), *(entry.cased.get("en") or ()), *(entry.aliases.get("zh") or ())]
    return names[0] if names else str(eid)


def possessive(name: str) -> str:
    """"NVIDIA's", "Habana Labs'": a name ending in a plural s takes the apostrophe alone."""
    return name + ("'" if name.endswith("s") else "'s")


def names(kb: KnowledgeBase, etype: str, ids: Any) -> str:
    """Several ids as people write them, joined: "ResNet-50, BERT-large"."""
    return ", ".join(entity_name(kb, etype, i) for i in ids) or "none"


def round_name(kb: KnowledgeBase, rounds: str) -> str:
    """"training-v0.6/training-v0.7" -> "MLPerf Training v0.6/v0.7"."""
    ids = [r for r in rounds.split("/") if r]
    names = [entity_name(kb, "round", r) for r in ids]
    if len(names) > 1 and all(n.startswith("MLPerf Training ") for n in names):
        return "MLPerf Training " + "/".join(n[len("MLPerf Training "):] for n in names)
    return "/".join(names)


def system_chips(ctx: ArticleContext, system: str | None, rnd: str | None) -> int | None:
    """The chips the knowledge base gives a named system in the round (None: no system, or no size)."""
    entry = ctx.kb.get("system", system) if system else None
    chips = entry.attr("chips", rnd) if entry else None
    return int(chips) if chips else None


def sentence_chips(claim: Claim, ctx: ArticleContext) -> set[int]:
    """Chip counts stated with the claim: same sentence, same benchmark (or none), and no semicolon
    between them ("BERT 用时 0.81 分钟；DLRM 只用了一台 8 卡 DGX A100" gives DLRM 8 GPUs, not BERT)."""
    out = set()
    for c in ctx.siblings(claim):
        if c.metric not in ("chip_count", "gpu_count") or not isinstance(c.value, (int, float)) or c.bound != "exact":
            continue
        if any(getattr(c.entities, t) and getattr(claim.entities, t)
               and getattr(c.entities, t) != getattr(claim.entities, t) for t in ("benchmark", "accelerator", "org")):
            continue  # "…3.79 minutes with 256 IPUs, … the 29.15 minutes of a DGX A100": another chip's count
        a, b = sorted((c.start, claim.start))
        between = claim.sentence[a - claim.sentence_start:b - claim.sentence_start]
        if any(p.strip() in between for p in ctx.kb.linking.segment_delimiters):
            continue
        out.add(int(c.value))
    return out


def seconds_fact(r: OfficialResult, label: str, alternatives=()) -> Fact:
    """A result's time as a Fact: the interval its published two-decimal minutes allow, and those minutes
    in its label."""
    lo, hi = r.published_interval_seconds or (r.seconds, r.seconds)
    return Fact(r.seconds or 0.0, lo, hi, r.evidence, label + f" ({r.published_minutes:.2f} min)",
                alternatives=alternatives)


def fastest_known(ctx: ArticleContext, org: str | None, acc: str | None, bench: str, rnd: str | None,
                  chips: int | None = None) -> bool:
    """Whether the fastest time of `fastest_time` is sure: no result that could be faster lacks a score
    (its logs missing), unless its maker published the time."""
    unscored = [r for r in ctx.official.select(who=org, accelerator=acc, benchmark=bench, round=rnd, chip_count=chips,
                                               division=None if org else "closed") if r.seconds is None]
    if not unscored:
        return True
    published = {o for st in ctx.official.statements if st.metric == "train_time"
                 and bench in st.entity_values("benchmark") and rnd in st.entity_values("round")
                 for o in st.entity_values("org")}
    return chips is None and all(r.org in published for r in unscored)


# how far a time published in words ("3.4 minutes") may stand from the result it rounds
STATED_ROUNDING = 0.02


def fastest_time(ctx: ArticleContext, org: str | None, acc: str | None, bench: str, rnd: str | None,
                 chips: int | None = None) -> tuple[float, str] | None:
    """An org's (anyone's, for None) fastest time on a benchmark in a round (on systems of `chips`, if
    given): its best scored result, or the time it published for a result whose logs are missing,
    whichever is faster."""
    best: tuple[float, str] | None = None
    # the closed division's results, where the company has any: an open-division entry trains another model
    # (Google's 480-billion-parameter BERT-like run of v1.1) and is no time of the benchmark
    rows = ctx.official.select(who=org, accelerator=acc, benchmark=bench, round=rnd, chip_count=chips,
                               division="closed")
    if org and not any(r.seconds is not None for r in rows):
        rows = ctx.official.select(who=org, accelerator=acc, benchmark=bench, round=rnd, chip_count=chips)
    for r in rows:
        if r.seconds is not None and (best is None or r.seconds < best[0]):
            best = (r.seconds, r.record_id)
    if chips is not None:
        return best  # a published time does not say on how many chips
    table = best
    for st in ctx.official.statements:
        if (st.metric == "train_time" and (org is None or org in st.entity_values("org"))
                and bench in st.entity_values("benchmark")
                and rnd in st.entity_values("round") and isinstance(st.value, (int, float))):
            # a published time within its own rounding of the table's best is that result, rounded ("3.4
            # minutes" for 206.7 s): the table's figure stands
            if table is not None and float(st.value) >= table[0] * (1 - STATED_ROUNDING):
                continue
            if best is None or float(st.value) < best[0]:
                best = (float(st.value), st.source_url)
    return best
