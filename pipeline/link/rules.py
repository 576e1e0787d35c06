"""`linking.yaml`, validated and compiled: the words and punctuation the linker looks for.

The algorithm modules never hold a word of any language; they ask this object.  Phrases become "cues"
with a key that says what they signal:

    anaphor:<type>              该系统 / this system: look back beyond the paragraph for a <type>
    relative:<type>:<which>     上届 / the previous round (which = previous, current)
    cmp:open                    较 / than: a baseline follows
    cmp:paired_open, cmp:paired_close   与 ... 相比: the baseline lies between
    cmp:frame_open, cmp:frame_close     是 ... 的 N 倍
    cmp:after_ratio             "2.7 times the speed of X": within a few words after a ratio, opens its baseline
    metric:<n>                  a cue word of metric rule n
    aggregate                   平均 / on average: the claim is over benchmarks
    respectively                分别 / respectively: names and figures of a list pair up in order
    figure_first                "2.5 minutes for Stable Diffusion": the name right after goes with the figure before
    contrast                    而 / whereas: the clause is about another subject than the one before
    exclusion                   除 / apart from: the name right after it is set aside, no figure's subject

Besides cues, the punctuation and words that shape a sentence: clause delimiters, words that continue
the clause before them (", which ..."), the brackets of an aside, list separators.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import DataFileError
from pipeline.lang.loader import LANGUAGES
from pipeline.records import KINDS

TOP_KEYS = {"source", "min_confidence", "confidence", "fuzzy", "clause_delimiters", "list_separators",
            "count_accelerator", "count_window", "carry_types", "anaphora", "relative", "comparison",
            "cue_veto", "alias_veto", "metrics", "ner", "aggregate", "round_level", "respectively",
            "figure_first",
            "clause_continuations", "brackets",
            "baseline_shares", "list_markers", "clause_owned", "contrast", "exclusion", "appositive",
            "segment_delimiters", "list_heads", "ago", "cpu_nouns", "orgless", "debut_round", "topic", "headings"}
CONFIDENCE_KEYS = {"alias", "cased", "context", "description", "generic", "date", "relative", "fuzzy", "ner",
                   "count"}
FUZZY_KEYS = {"types", "min_alias_len", "long_alias_len", "never"}
COMPARISON_KEYS = {"paired", "open", "frame_open", "frame_close", "after_ratio", "after_ratio_words", "two_chips",
                   "two_systems", "region_ends"}
METRIC_KEYS = {"metric", "kind", "counted", "cues", "ignore", "with_entity", "qualifies"}
RELATIVE_WHICH = {"previous", "current"}
TOPIC_KEYS = {"types", "metrics", "max_seconds"}
HEADING_KEYS = {"markers", "sentence_ends", "closers", "not_markers", "max_chars"}
LANGS = LANGUAGES


@dataclass(frozen=True)
class MetricRule:
    metric: str  # may hold "{counted}"
    kind: str
    counted: tuple[str, ...] = ()
    cues: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    with_entity: tuple[str, ...] = ()  # without a cue, the rule still fits when these types are linked
    # its cue anywhere in the claim's clause beats a nearer cue of a plain rule ("up to 1.8x better performance
    # per dollar" is a per-dollar figure, however near "better" stands)
    qualifies: bool = False


@dataclass(frozen=True)
class Linking:
    source: str
    min_confidence: float
    confidence: dict[str, float]
    fuzzy_types: frozenset[str]
    fuzzy_min_len: int
    fuzzy_long_len: int
    fuzzy_never: frozenset[str]
    clause_delimiters: tuple[str, ...]
    clause_continuations: tuple[str, ...]  # a clause starting with one of these continues the one before
    brackets: tuple[tuple[str, str], ...]  # (opening, closing) of an aside
    baseline_shares: tuple[str, ...]  # types a baseline shares with its subject when it names none
    list_markers: tuple[str, ...]  # a line starting with one is a list item: its own paragraph
    clause_owned: tuple[str, ...]  # types a clause (or aside) that makes claims keeps to itself
    appositive: tuple[str, ...]  # words between the comma and the number of an appositive count (a, an)
    segment_delimiters: tuple[str, ...]  # what sets off independent clauses (semicolons)
    list_heads: tuple[str, ...]  # what ends the head of a list of independent clauses (a colon)
    ago: tuple[str, ...]  # after a span of time, these make it a time ("two years ago", 两年前)
    cpu_nouns: tuple[str, ...]  # what a CPU is called when counted ("32 Sapphire Rapids CPUs": its chips)
    # the round a benchmark first ran in: (words before its name, round words after it, words after alone)
    debut_round: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    after_ratio_words: int  # how many words may stand between a ratio and its after_ratio cue
    two_chips: str | None  # the metric of a ratio no cue word decided that sets one chip against another
    two_systems: str | None  # ... one machine against another, in a sentence that counts chips
    region_ends: tuple[str, ...]  # lowercased: a baseline running into the next comparison stops at these
    list_separators: frozenset[str]
    count_accelerator: frozenset[str]
    count_window: int
    carry_types: tuple[str, ...]
    # what a story or section is about, for claims of topic_metrics whose paragraph names none of topic_types
    topic_types: tuple[str, ...]
    topic_metrics: frozenset[str]
    topic_max_seconds: float  # a longer span of time is no training time: it takes no topic
    headings: Headings
    orgless: frozenset[str]  # what a count counts when it is about no one org (companies, countries...)
    cues: dict[str, frozenset[str]]  # phrase (as written) -> cue keys
    paired: dict[str, frozenset[str]]  # lowercased opener -> lowercased closers
    cue_veto: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # lowercased cue -> (before, after)
    # lowercased alias -> (before, after): the name is no link after / before these words
    alias_veto: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    metrics: tuple[MetricRule, ...]
    ner_labels: dict[str, str]
    ner_min_score: float


@dataclass(frozen=True)
class Headings:
    """How a section heading looks once an article is text (linking.yaml `headings`)."""

    markers: tuple[str, ...] = ()  # a line starting with one is a heading ("## BERT")
    sentence_ends: tuple[str, ...] = ()  # a line ending in none of these (closers aside) may be a heading
    closers: tuple[str, ...] = ()  # closing quotes, brackets and emphasis set aside at the end of a line
    not_markers: tuple[str, ...] = ()  # a line starting with one is never a heading (a table row)
    max_chars: int = 0  # an unmarked heading is no longer than this


def _headings(path: Path, section: Any) -> Headings:
    parts = _check(path, section, HEADING_KEYS, "headings")
    return Headings(markers=_strs(path, parts.get("markers"), "headings.markers"),
                    sentence_ends=_strs(path, parts.get("sentence_ends"), "headings.sentence_ends"),
                    closers=_strs(path, parts.get("closers"), "headings.closers"),
                    not_markers=_strs(path, parts.get("not_markers"), "headings.not_markers"),
                    max_chars=int(parts.get("max_chars", 0)))


def _topic(path: Path, section: Any, kb_types: tuple[str, ...], metrics: list[MetricRule]
           ) -> tuple[tuple[str, ...], frozenset[str], float]:
    parts = _check(path, section, TOPIC_KEYS, "topic")
    names = _strs(path, parts.get("metrics"), "topic.metrics")
    known = {m.metric for m in metrics}
    for name in names:
        if name not in known:
            raise DataFileError(path, f"unknown metric {name!r} (not one of the file's metric rules)", "topic.metrics")
    return (_types(path, parts.get("types"), "topic.types", kb_types), frozenset(names),
            float(parts.get("max_seconds", 0)))


def _strs(path: Path, value: Any, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise DataFileError(path, "expected a list of strings", key)
    return tuple(str(v) for v in value)


def by_lang(path: Path, value: Any, key: str) -> dict[str, tuple[str, ...]]:
    """{zh: [...], en: [...]} validated: known languages, lists of strings (shared with the KB reader)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise DataFileError(path, "expected a mapping of language -> list of forms", key)
    for lang in value:
        if lang not in LANGS:
            raise DataFileError(path, f"unknown language (use {', '.join(LANGS)})", f"{key}.{lang}")
    return {lang: _strs(path, forms, f"{key}.{lang}") for lang, forms in value.items()}


def _debut(path: Path, section: Any) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    parts = _check(path, section, {"before", "round", "after_alone"}, "debut_round")
    return tuple(tuple(sorted({f.lower() for f in _lang_forms(path, parts.get(k), f"debut_round.{k}")},  # type: ignore
                              key=lambda f: (-len(f), f))) for k in ("before", "round", "after_alone"))


def _lang_forms(path: Path, value: Any, key: str) -> tuple[str, ...]:
    """All forms of every language (cues are looked for whatever the sentence's language)."""
    return tuple(f for forms in by_lang(path, value, key).values() for f in forms)


def _check(path: Path, section: Any, allowed: set[str], key: str) -> dict[str, Any]:
    if section is None:
        return {}
    if not isinstance(section, dict):
        raise DataFileError(path, "expected a mapping", key)
    for sub in section:
        if sub not in allowed:
            raise DataFileError(path, f"unknown key in section {key!r}", f"{key}.{sub}")
    return section


def _types(path: Path, value: Any, key: str, kb_types: tuple[str, ...]) -> tuple[str, ...]:
    out = _strs(path, value, key)
    for t in out:
        if t not in kb_types:
            raise DataFileError(path, f"unknown entity type {t!r}", key)
    return out


def _cue_words(path: Path, data: dict[str, Any], cmp_: dict[str, Any], kb_types: tuple[str, ...],
               cues: dict[str, set[str]]) -> dict[str, frozenset[str]]:
    """Add every cue word of the file to `cues` (form -> cue names); returns the paired comparison
    openers with their closers."""
    def add(forms: tuple[str, ...], cue: str) -> None:
        for form in forms:
            cues.setdefault(form, set()).add(cue)

    for etype, by_lang in _check(path, data.get("anaphora"), set(kb_types), "anaphora").items():
        add(_lang_forms(path, by_lang, f"anaphora.{etype}"), f"anaphor:{etype}")
    for etype, kinds in _check(path, data.get("relative"), set(kb_types), "relative").items():
        for which, by_lang in _check(path, kinds, RELATIVE_WHICH, f"relative.{etype}").items():
            add(_lang_forms(path, by_lang, f"relative.{etype}.{which}"), f"relative:{etype}:{which}")
    paired: dict[str, frozenset[str]] = {}
    for lang, openers in (cmp_.get("paired") or {}).items():
        if lang not in LANGS or not isinstance(openers, dict):
            raise DataFileError(path, "expected language -> {opener: [closers]}", f"comparison.paired.{lang}")
        for opener, closers in openers.items():
            closers_t = _strs(path, closers, f"comparison.paired.{lang}.{opener}")
            add((str(opener),), "cmp:paired_open")
            add(closers_t, "cmp:paired_close")
            paired[str(opener).lower()] = frozenset(c.lower() for c in closers_t)
    add(_lang_forms(path, data.get("aggregate"), "aggregate"), "aggregate")
    add(_lang_forms(path, data.get("round_level"), "round_level"), "round_level")
    add(_lang_forms(path, data.get("respectively"), "respectively"), "respectively")
    add(_lang_forms(path, data.get("figure_first"), "figure_first"), "figure_first")
    add(_lang_forms(path, data.get("contrast"), "contrast"), "contrast")
    add(_lang_forms(path, data.get("exclusion"), "exclusion"), "exclusion")
    for name in ("open", "frame_open", "frame_close", "after_ratio"):
        add(_lang_forms(path, cmp_.get(name), f"comparison.{name}"), f"cmp:{name}")
    return paired


def _metric_rules(path: Path, data: dict[str, Any], kb_types: tuple[str, ...],
                  cues: dict[str, set[str]]) -> list[MetricRule]:
    """The metric rules, their cue words added to `cues` as metric:<n>."""
    metrics: list[MetricRule] = []
    for i, raw in enumerate(data.get("metrics") or []):
        rule = _check(path, raw, METRIC_KEYS, f"metrics[{i}]")
        if not rule.get("metric") or rule.get("kind") not in KINDS:
            raise DataFileError(path, f"a metric rule needs a metric and a kind in {KINDS}", f"metrics[{i}]")
        cue_forms = _lang_forms(path, rule.get("cues"), f"metrics[{i}].cues")
        for form in cue_forms:
            cues.setdefault(form, set()).add(f"metric:{i}")
        counted = _strs(path, rule.get("counted"), f"metrics[{i}].counted")
        ignore = _types(path, rule.get("ignore"), f"metrics[{i}].ignore", kb_types)
        with_entity = _types(path, rule.get("with_entity"), f"metrics[{i}].with_entity", kb_types)
        metrics.append(MetricRule(str(rule["metric"]), rule["kind"], counted, cue_forms, ignore, with_entity,
                                  bool(rule.get("qualifies", False))))
    return metrics


def parse_linking(path: Path, data: Any, kb_types: tuple[str, ...]) -> Linking:
    """The linking rules of linking.yaml's parsed `data`, validated: a wrong key, a missing source or
    confidence, or a malformed cue names the file and the key."""
    if not isinstance(data, dict):
        raise DataFileError(path, "top level must be a mapping")
    _check(path, data, TOP_KEYS, "linking")
    if not str(data.get("source") or "").strip():
        raise DataFileError(path, "every knowledge-base file records its source", "source")
    conf = {str(k): float(v) for k, v in _check(path, data.get("confidence"), CONFIDENCE_KEYS, "confidence").items()}
    missing = CONFIDENCE_KEYS - set(conf)
    if missing:
        raise DataFileError(path, "confidence must give every kind", f"confidence.{sorted(missing)[0]}")
    fz = _check(path, data.get("fuzzy"), FUZZY_KEYS, "fuzzy")
    cues: dict[str, set[str]] = {}
    cmp_ = _check(path, data.get("comparison"), COMPARISON_KEYS, "comparison")
    paired = _cue_words(path, data, cmp_, kb_types, cues)
    metrics = _metric_rules(path, data, kb_types, cues)
    veto: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for cue, sides in (data.get("cue_veto") or {}).items():
        sides = _check(path, sides, {"before", "after"}, f"cue_veto.{cue}")
        veto[str(cue).lower()] = (_strs(path, sides.get("before"), f"cue_veto.{cue}.before"),
                                  _strs(path, sides.get("after"), f"cue_veto.{cue}.after"))
    alias_veto: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for n, group in enumerate(data.get("alias_veto") or []):
        group = _check(path, group, {"forms", "before", "after"}, f"alias_veto[{n}]")
        sides = (_lang_forms(path, group.get("before"), f"alias_veto[{n}].before"),
                 _lang_forms(path, group.get("after"), f"alias_veto[{n}].after"))
        for form in _lang_forms(path, group.get("forms"), f"alias_veto[{n}].forms"):
            alias_veto[form.lower()] = sides
    brackets: list[tuple[str, str]] = []
    for pair in _strs(path, data.get("brackets"), "brackets"):
        if len(pair) != 2:
            raise DataFileError(path, "a bracket pair is two characters, opening and closing", "brackets")
        brackets.append((pair[0], pair[1]))
    topic_types, topic_metrics, topic_max_seconds = _topic(path, data.get("topic"), kb_types, metrics)
    ner = data.get("ner") or {}
    labels = ner.get("labels") or {}
    return Linking(
        source=str(data["source"]).strip(),
        min_confidence=float(data.get("min_confidence", 0.6)),
        confidence=conf,
        fuzzy_types=frozenset(_types(path, fz.get("types"), "fuzzy.types", kb_types)),
        fuzzy_min_len=int(fz.get("min_alias_len", 4)),
        fuzzy_long_len=int(fz.get("long_alias_len", 10)),
        fuzzy_never=frozenset(_strs(path, fz.get("never"), "fuzzy.never")),
        clause_delimiters=_strs(path, data.get("clause_delimiters"), "clause_delimiters"),
        clause_continuations=tuple(f.lower() for f in _lang_forms(path, data.get("clause_continuations"),
                                                                  "clause_continuations")),
        brackets=tuple(brackets),
        baseline_shares=_types(path, data.get("baseline_shares"), "baseline_shares", kb_types),
        list_markers=_strs(path, data.get("list_markers"), "list_markers"),
        clause_owned=_types(path, data.get("clause_owned"), "clause_owned", kb_types),
        appositive=_lang_forms(path, data.get("appositive"), "appositive"),
        segment_delimiters=_strs(path, data.get("segment_delimiters"), "segment_delimiters"),
        list_heads=_strs(path, data.get("list_heads"), "list_heads"),
        ago=_lang_forms(path, data.get("ago"), "ago"),
        cpu_nouns=_lang_forms(path, data.get("cpu_nouns"), "cpu_nouns"),
        debut_round=_debut(path, data.get("debut_round")),
        after_ratio_words=int(cmp_.get("after_ratio_words", 3)),
        two_chips=str(cmp_["two_chips"]) if cmp_.get("two_chips") else None,
        two_systems=str(cmp_["two_systems"]) if cmp_.get("two_systems") else None,
        region_ends=tuple(f.lower() for f in _lang_forms(path, cmp_.get("region_ends"), "comparison.region_ends")),
        list_separators=frozenset(
            s.strip().lower() for s in _strs(path, data.get("list_separators"), "list_separators")),
        count_accelerator=frozenset(_strs(path, data.get("count_accelerator"), "count_accelerator")),
        count_window=int(data.get("count_window", 14)),
        carry_types=_types(path, data.get("carry_types"), "carry_types", kb_types),
        topic_types=topic_types,
        topic_metrics=topic_metrics,
        topic_max_seconds=topic_max_seconds,
        headings=_headings(path, data.get("headings")),
        orgless=frozenset(_strs(path, data.get("orgless"), "orgless")),
        cues={k: frozenset(v) for k, v in cues.items()},
        paired=paired,
        cue_veto=veto,
        alias_veto=alias_veto,
        metrics=tuple(metrics),
        ner_labels={str(k): str(v) for k, v in labels.items()},
        ner_min_score=float(ner.get("min_score", 0.5)),
    )
