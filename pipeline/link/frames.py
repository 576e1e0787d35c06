"""The shape of a sentence as the linker needs it: clauses, comparison baselines, lists, the metric.

All functions work on article offsets and on the words of linking.yaml (via `Linking`); none holds a
word of any language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.link.recognize import Cue, Mention
from pipeline.link.rules import Linking, MetricRule
from pipeline.records import Claim

Span = tuple[int, int]
_NON_SPACE = re.compile(r"\S")


def clauses(text: str, start: int, delimiters: Iterable[str], continuations: Iterable[str] = ()) -> list[Span]:
    """Clause spans (article offsets) of a sentence that starts at `start`: split after each delimiter,
    except before a word that continues the clause before it (", which still needed ..." belongs to
    the noun it follows)."""
    cuts = {0, len(text)}
    for d in delimiters:
        i = text.find(d)
        while i >= 0:
            cuts.add(i + len(d))
            i = text.find(d, i + 1)
    lower = text.lower()
    firsts = {w[:1] for w in continuations}
    for cut in list(cuts):
        m = _NON_SPACE.search(lower, cut)  # where lower[cut:].lstrip() starts
        p = m.start() if m else len(lower)
        if lower[p:p + 1] in firsts and any(
                lower.startswith(w, p) and not lower[p + len(w):p + len(w) + 1].isalnum() for w in continuations):
            cuts.discard(cut)
    edges = sorted(cuts | {0, len(text)})
    return [(start + a, start + b) for a, b in zip(edges, edges[1:], strict=False) if b > a]


def asides(text: str, start: int, brackets: Iterable[tuple[str, str]]) -> list[Span]:
    """Bracketed spans (article offsets, brackets included), outermost pairs only."""
    out: list[Span] = []
    for opening, closing in brackets:
        depth, begin = 0, 0
        for i, ch in enumerate(text):
            if ch == opening:
                if depth == 0:
                    begin = i
                depth += 1
            elif ch == closing and depth > 0:
                depth -= 1
                if depth == 0:
                    out.append((start + begin, start + i + 1))
    return sorted(out)


def span_of(spans: Sequence[Span], pos: int) -> Span | None:
    """The span that holds `pos` (None: none does)."""
    return next((s for s in spans if s[0] <= pos < s[1]), None)


def inside(m: Mention | Cue, span: Span) -> bool:
    """Whether the mention or cue lies wholly within `span`."""
    return span[0] <= m.start and m.end <= span[1]


def _gap_is_space(text: str, offset: int, a: int, b: int) -> bool:
    return a <= b and not text[a - offset:b - offset].strip()


@dataclass(frozen=True)
class Region:
    """Where a comparison's baseline is written: entities and relative words in it are the baseline."""

    start: int
    end: int
    kind: str  # paired, open, frame
    owner: int = -1  # start offset of the ratio claim whose baseline this is


NUMBER_TAIL = 8  # the most characters a ratio's number and marker take after a cue inside its text


def _opens_number(cue: Cue, claim: Claim) -> bool:
    """A cue inside the claim's text right before its number (the text opens with a bound phrase:
    最多达到上一轮的 2.1 倍)."""
    return claim.start < cue.start and cue.end < claim.end and claim.end - cue.end <= NUMBER_TAIL


def bound_spans(claims: Iterable[Claim]) -> list[Span]:
    """Where each claim's bound phrase is written ("more than" in "more than 18 hours")."""
    out: list[Span] = []
    for c in claims:
        i = c.text.lower().find(c.bound_cue.lower()) if c.bound_cue else -1
        if i >= 0 and c.bound_cue:
            out.append((c.start + i, c.start + i + len(c.bound_cue)))
    return out


def baseline_regions(text: str, offset: int, cues: Sequence[Cue], mentions: Sequence[Mention],
                     ratio_claims: Sequence[Claim], clause_spans: Sequence[Span], rules: Linking,
                     bounds: Sequence[Span] = ()) -> list[Region]:
    """Baselines of the comparisons in one sentence (only sentences with a ratio claim compare).  A cue
    inside a claim's bound phrase ("more than 18 hours") is the bound, not a comparison."""
    if not ratio_claims:
        return []
    cues = [c for c in cues if not any(a <= c.start and c.end <= b for a, b in bounds)]
    regions: list[Region] = []
    used_as_closer: set[int] = set()
    # 与 X 相比: opener ... one of its closers
    for i, c in enumerate(cues):
        if "cmp:paired_open" not in c.keys:
            continue
        closers = rules.paired.get(c.text.lower(), frozenset())
        for j in range(i + 1, len(cues)):
            d = cues[j]
            if "cmp:paired_close" in d.keys and d.text.lower() in closers:
                regions.append(Region(c.end, d.start, "paired"))
                used_as_closer.add(j)
                break
    # 较 X / than X: to the ratio (when it follows in the clause) or to the end of the clause
    for j, c in enumerate(cues):
        if "cmp:open" not in c.keys or j in used_as_closer:
            continue
        clause = span_of(clause_spans, c.start) or (c.start, offset + len(text))
        end = clause[1]
        for claim in ratio_claims:
            if c.end <= claim.start < end:
                end = claim.start
        if end < clause[1]:  # the next comparison follows: the baseline ends where its part begins
            low = text.lower()
            cuts = [k for w in rules.region_ends if (k := low.rfind(w, c.end - offset, end - offset)) >= 0]
            end = offset + max(cuts) if cuts else end
        # "four times as large as X and ten times as fast as Y": an opener right after a ratio (its
        # comparative word between) is that ratio's, however near the next ratio stands
        before = [r for r in ratio_claims if clause[0] <= r.start and r.end <= c.start
                  and len(text[r.end - offset:c.start - offset].split()) <= rules.after_ratio_words]
        if end > c.end:
            regions.append(Region(c.end, end, "open", max(before, key=lambda r: r.end).start if before else -1))
    # "2.7 times the speed of X", "twice the matrix-multiplication throughput of X": a cue a few words
    # after the ratio opens the baseline, to the end of the clause
    for claim in ratio_claims:
        clause = span_of(clause_spans, claim.start) or (offset, offset + len(text))
        after = next((c for c in cues if "cmp:after_ratio" in c.keys and claim.end <= c.start < clause[1]
                      and len(text[claim.end - offset:c.start - offset].split()) <= rules.after_ratio_words), None)
        if after is not None and clause[1] > after.end:
            regions.append(Region(after.end, clause[1], "open", claim.start))
    # 是 X 的 N 倍: frame_open ... frame_close right before the ratio's number (after any bound word that
    # opens the claim: 最多达到上一轮的 2.1 倍)
    for claim in ratio_claims:
        close = next((c for c in cues if "cmp:frame_close" in c.keys
                      and (_gap_is_space(text, offset, c.end, claim.start) or _opens_number(c, claim))), None)
        if close is None:
            continue
        clause = span_of(clause_spans, claim.start) or (offset, offset + len(text))
        opener = [c for c in cues if "cmp:frame_open" in c.keys and clause[0] <= c.start and c.end <= close.start]
        if opener:
            regions.append(Region(opener[-1].end, close.start, "frame", claim.start))
            continue
        # no opener: the mention or relative word written right before 的 is the baseline
        written: list[Mention | Cue] = [*mentions, *cues]
        near = [m for m in written if m.end <= close.start and _gap_is_space(text, offset, m.end, close.start)
                and (isinstance(m, Mention) or any(k.startswith("relative:") for k in m.keys))]
        if near:
            regions.append(Region(min(m.start for m in near), close.start, "frame", claim.start))
    # each baseline belongs to one ratio: the one it was built for (frame), else the nearest
    def owner(r: Region) -> int:
        if r.owner >= 0:
            return r.owner
        return min(ratio_claims, key=lambda c: max(0, c.start - r.end, r.start - c.end)).start

    return [Region(r.start, r.end, r.kind, owner(r)) for r in regions if r.end > r.start]


def list_sizes(text: str, offset: int, mentions: Sequence[Mention], separators: frozenset[str]) -> dict[int, int]:
    """For each mention (by position in `mentions`), how many distinct ids its list holds: mentions of one
    type joined only by list separators ("ResNet-50、BERT、SSD") form a list."""
    sizes: dict[int, int] = {}
    by_type: dict[str, list[int]] = {}
    for i, m in enumerate(mentions):
        by_type.setdefault(m.type, []).append(i)
    for idx in by_type.values():
        run = [idx[0]]
        for prev, cur in zip(idx, idx[1:], strict=False):
            gap = text[mentions[prev].end - offset:mentions[cur].start - offset].strip().lower()
            if gap in separators:
                run.append(cur)
                continue
            _close_run(run, mentions, sizes)
            run = [cur]
        _close_run(run, mentions, sizes)
    return sizes


def _close_run(run: list[int], mentions: Sequence[Mention], sizes: dict[int, int]) -> None:
    n = len({mentions[i].id for i in run})
    for i in run:
        sizes[i] = n


def choose_metric(claim: Claim, cues: Sequence[Cue], clause: Span | None, rules: Linking) -> MetricRule | None:
    """The metric rule for a claim: among rules of its kind (and counted), the one with a cue nearest to
    the number (in its clause, else in its sentence); a rule without cues is the fallback."""
    fits = [(i, r) for i, r in enumerate(rules.metrics)
            if r.kind == claim.kind and (not r.counted or claim.counted in r.counted)]
    for level, scope in enumerate(([c for c in cues if clause and inside(c, clause)], list(cues))):
        best: tuple[int, int, MetricRule] | None = None
        # a qualifying rule's cue in the clause decides before any plain one
        qualifying = [x for x in fits if x[1].qualifies] if level == 0 else []
        for group in ([qualifying] if qualifying else []) + [fits]:
            best = _nearest_rule(claim, scope, group)
            if best is not None:
                break
        if best is not None:
            return best[2]
    # rules with `counted` and no cues are exact fits; then the plain fallback of the kind
    return next((r for _, r in fits if not r.cues and r.counted), None) or next(
        (r for _, r in fits if not r.cues), None)


def _nearest_rule(claim: Claim, scope: Sequence[Cue], fits: Sequence[tuple[int, MetricRule]]
                  ) -> tuple[int, int, MetricRule] | None:
    best: tuple[int, int, MetricRule] | None = None
    for i, r in fits:
        if not r.cues:
            continue
        for c in scope:
            if f"metric:{i}" in c.keys:
                dist = max(0, c.start - claim.end, claim.start - c.end)
                if best is None or (dist, i) < best[:2]:
                    best = (dist, i, r)
    return best


def refine_metric(rule: MetricRule | None, claim: Claim, linked: dict[str, str | None], rules: Linking
                  ) -> MetricRule | None:
    """A claim that no cue word decided takes a rule whose entities it has: a duration next to a
    benchmark ("ResNet-50: 0.47 minutes") is a training time."""
    if rule is not None and rule.cues:
        return rule
    for r in rules.metrics:
        if r.kind == claim.kind and r.with_entity and all(linked.get(t) for t in r.with_entity):
            return r
    return rule


def metric_name(rule: MetricRule | None, claim: Claim) -> str | None:
    """The metric a rule gives a claim, its `{counted}` filled in with what the claim counts (None: no rule)."""
    if rule is None:
        return None
    return rule.metric.replace("{counted}", claim.counted or "other")
