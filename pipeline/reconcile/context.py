"""What resolvers share: the article context and small helpers for asking the official data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.lang.loader import load_language
from pipeline.link.kb import KnowledgeBase, load_kb
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

    def siblings(self, claim: Claim) -> list[Claim]:
        return [c for c in self.claims if c.sentence_index == claim.sentence_index and c is not claim]

    def earlier(self, claim: Claim, window: int = 3) -> list[Claim]:
        return [c for c in self.claims if claim.sentence_index - window <= c.sentence_index < claim.sentence_index]


def round_of(claim: Claim, ctx: ArticleContext) -> str | None:
    return claim.entities.round or ctx.round


def org_of(claim: Claim, ctx: ArticleContext) -> str | None:
    """The claim's org, else the one the nearest earlier claim of the article is about."""
    if claim.entities.org:
        return claim.entities.org
    for c in reversed([c for c in ctx.claims if c.start <= claim.start]):
        if c.entities.org:
            return c.entities.org
    return None


def has_cue(claim: Claim, key: str) -> bool:
    words = load_language(claim.lang).cues.get(key, ())
    return any(w.lower() in claim.sentence.lower() for w in words)


def label_of(**parts: Any) -> str:
    """A fact's label from its parts: chips as "N chips", an accelerator by its first English name in the
    knowledge base, other ids as they are.  Flags (True/False) are notes for the resolver, not part of it."""
    kb = load_kb()
    out = []
    for key, value in parts.items():
        if value is None or value == () or isinstance(value, bool):
            continue
        if key == "chips":
            out.append(f"{value} chips")
        elif isinstance(value, (tuple, list)):
            out.append("/".join(str(v) for v in value))
        elif key in ("acc", "accelerator") and (entry := kb.get("accelerator", str(value))) is not None:
            out.append(next(iter(entry.aliases.get("en") or ()), str(value)))
        else:
            out.append(str(value))
    return ", ".join(out)


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
    return Fact(r.seconds or 0.0, lo, hi, r.evidence, label + f": {r.published_minutes:.2f} min",
                alternatives=alternatives)
