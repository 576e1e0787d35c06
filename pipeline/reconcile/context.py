"""What resolvers share: the article context and small helpers for asking the official data."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pipeline.lang.loader import load_language
from pipeline.link.kb import KnowledgeBase, fold, load_kb
from pipeline.official.answers import OfficialResult
from pipeline.official.query import OfficialResults
from pipeline.reconcile.verdicts import Fact
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
    # sentence index -> the ids of each type it names (all types), and its paragraph
    named: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    paragraph: dict[int, int] = field(default_factory=dict)
    # the article's round comes from its metadata, its path, a date line, or is the only round it names
    round_certain: bool = False
    round_mentions: dict[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)  # (offset, id)

    def siblings(self, claim: Claim) -> list[Claim]:
        return [c for c in self.claims if c.sentence_index == claim.sentence_index and c is not claim]

    def earlier(self, claim: Claim, window: int = 3) -> list[Claim]:
        return [c for c in self.claims if claim.sentence_index - window <= c.sentence_index < claim.sentence_index]

    def paragraph_rounds(self, claim: Claim) -> tuple[str, ...]:
        """Rounds named in the claim's paragraph outside its sentence, nearest sentence first (ids the
        recognizer finds: names and aliases, not relative words)."""
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
                before = text[:p]
                compared = any(("cmp:open" in keys or "cmp:paired_open" in keys) and _word_positions(f.lower(), before)
                               for f, keys in self.kb.linking.cues.items())
                return not compared and not has_cue(claim, "likeness", section="scope", before_claim=True)
        return False

    def name(self, etype: str, eid: str | None) -> str:
        """An entity as people write it: its first English name in the knowledge base, else its id."""
        return entity_name(self.kb, etype, eid) if eid else str(eid)

    def accelerators_of(self, org: str, rnd: str | None) -> list[str]:
        """The accelerators of that maker with results in the round (by any submitter)."""
        made = {e.id for e in self.kb.entries["accelerator"].values() if e.attrs.get("org") == org}
        return sorted({r.accelerator for r in self.official.select(round=rnd) if r.accelerator in made})


def round_of(claim: Claim, ctx: ArticleContext) -> str | None:
    return claim.entities.round or ctx.round


def clause_span(claim: Claim, ctx: ArticleContext | None = None) -> tuple[int, int]:
    """The claim's clause as offsets into its sentence (the linker's clause delimiters)."""
    kb = ctx.kb if ctx is not None else load_kb()
    text, rel = claim.sentence, claim.start - claim.sentence_start
    start, end = 0, len(text)
    for d in kb.linking.clause_delimiters:
        i = text.rfind(d, 0, max(rel, 0))
        if i >= 0:
            start = max(start, i + len(d))
        j = text.find(d, max(rel, 0) + len(claim.text))
        if j >= 0:
            end = min(end, j)
    return start, end


def sentence_before(claim: Claim, ctx: ArticleContext, what: str, whole: bool = False) -> bool:
    """Whether the claim's sentence, before the claim (or anywhere, `whole`), holds a linking phrase of
    this kind (relative_previous: 上届 / last year's round; relative_current: 本轮 / this round)."""
    keys = {"relative_previous": "relative:round:previous", "relative_current": "relative:round:current"}
    want = keys[what]
    text = folded(claim.sentence)
    low = text if whole else text[:max(0, claim.start - claim.sentence_start)]
    return any(want in cues and _word_positions(form.lower(), low) for form, cues in ctx.kb.linking.cues.items())


def org_of(claim: Claim, ctx: ArticleContext) -> str | None:
    """The claim's org, else the one the nearest earlier claim of the article is about."""
    if claim.entities.org:
        return claim.entities.org
    for c in reversed([c for c in ctx.claims if c.start <= claim.start]):
        if c.entities.org:
            return c.entities.org
    return None


def has_cue(claim: Claim, key: str, section: str = "cues", *, clause: bool = False,
            before_claim: bool = False, others: tuple[Claim, ...] | None = None) -> bool:
    """Whether the claim's sentence (or only its clause, or only the words before it, or - given the
    sentence's `others` claims - its clause and the clauses that hold no claim of their own) holds a
    word of the lexicon's `section`.`key` list."""
    return cue_distance(claim, key, section, clause=clause, before_claim=before_claim, others=others) is not None


def cue_distance(claim: Claim, key: str, section: str = "cues", *, clause: bool = False,
                 before_claim: bool = False, others: tuple[Claim, ...] | None = None) -> int | None:
    """How many characters from the claim the nearest such word is (None: there is none)."""
    lang = load_language(claim.lang)
    words = (lang.cues if section == "cues" else lang.scope).get(key, ())
    if not words:
        return None
    text = folded(claim.sentence)
    rel = claim.start - claim.sentence_start
    spans: list[tuple[int, int]]
    if clause:
        spans = [clause_span(claim)]
    elif before_claim:
        spans = [(0, max(0, rel))]
    elif others is not None:
        spans = [s for s in clause_spans(claim) if s[0] <= rel < s[1] or not any(
            s[0] <= o.start - claim.sentence_start < s[1] for o in others if o is not claim)]
    else:
        spans = [(0, len(text))]
    best: int | None = None
    for a, b in spans:
        part = text[a:b]
        for w in words:
            for i in _word_positions(w.lower(), part):
                d = max(0, a + i - (rel + len(claim.text)), rel - (a + i + len(w)))
                best = d if best is None else min(best, d)
    return best


@lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """A sentence as the lexicons' words are matched: lowercased, Traditional folded to Simplified and
    full-width to half-width, one character for one (offsets keep)."""
    return fold(text).lower()


def clause_spans(claim: Claim) -> list[tuple[int, int]]:
    """All clauses of the claim's sentence, as offsets into it."""
    text = claim.sentence
    cuts = {0, len(text)}
    for d in load_kb().linking.clause_delimiters:
        i = text.find(d)
        while i >= 0:
            cuts.add(i + len(d))
            i = text.find(d, i + 1)
    edges = sorted(cuts)
    return [(a, b) for a, b in zip(edges, edges[1:], strict=False) if b > a]


def _word_positions(word: str, text: str) -> list[int]:
    """Where a cue stands as a word: Latin cues must not start or end inside a longer word ("if" is not
    in "different")."""
    out = []
    i = text.find(word)
    latin = word[:1].isascii() and word[:1].isalpha()
    while i >= 0:
        before = text[i - 1] if i > 0 else " "
        after = text[i + len(word)] if i + len(word) < len(text) else " "
        if not latin or (not (before.isascii() and before.isalnum()) and
                         not (word[-1:].isalnum() and after.isascii() and after.isalnum())):
            out.append(i)
        i = text.find(word, i + 1)
    return out


def label_of(**parts: Any) -> str:
    """What a fact is about, in words people read: "Google's ResNet-50 on 4,096 TPU v3 chips (JAX, MLPerf
    Training v0.7)", from ids (org, acc or accelerator, system, benchmark, chips, fw or framework, round;
    several rounds joined with '/').  Flags (True/False) are notes for the resolver, not part of it."""
    kb = load_kb()
    org = parts.get("org")
    acc = parts.get("acc") or parts.get("accelerator")
    system, bench, chips = parts.get("system"), parts.get("benchmark"), parts.get("chips")
    fw = parts.get("fw") or parts.get("framework")
    rnd = parts.get("round")
    words = []
    if org:
        words.append(f"{entity_name(kb, 'org', org)}'s")
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
        if c.entities.benchmark and claim.entities.benchmark and c.entities.benchmark != claim.entities.benchmark:
            continue
        a, b = sorted((c.start, claim.start))
        between = claim.sentence[a - claim.sentence_start:b - claim.sentence_start]
        if any(p in between for p in ";；"):
            continue
        out.add(int(c.value))
    return out


def seconds_fact(r: OfficialResult, label: str, alternatives=()) -> Fact:
    lo, hi = r.published_interval_seconds or (r.seconds, r.seconds)
    return Fact(r.seconds or 0.0, lo, hi, r.evidence, label + f" ({r.published_minutes:.2f} min)",
                alternatives=alternatives)


def fastest_time(ctx: ArticleContext, org: str | None, acc: str | None, bench: str, rnd: str
                  ) -> tuple[float, str] | None:
    """An org's (anyone's, for None) fastest time on a benchmark in a round: its best scored result, or the
    time it published for a result whose logs are missing, whichever is faster."""
    best: tuple[float, str] | None = None
    for r in ctx.official.select(who=org, accelerator=acc, benchmark=bench, round=rnd,
                                 division=None if org else "closed"):
        if r.seconds is not None and (best is None or r.seconds < best[0]):
            best = (r.seconds, r.record_id)
    for st in ctx.official.statements:
        if (st.metric == "train_time" and (org is None or org in st.entity_values("org"))
                and bench in st.entity_values("benchmark")
                and rnd in st.entity_values("round") and isinstance(st.value, (int, float))):
            if best is None or float(st.value) < best[0]:
                best = (float(st.value), st.source_url)
    return best
