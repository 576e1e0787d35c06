"""One cached loader for all language data.

Every language folder (`pipeline/lang/<code>/lexicon.yaml`) is layered over `pipeline/lang/base/`.
Files are validated against the fixed key schema below (dateparser-style): an unknown key, a duplicate
key or a broken regex raises DataFileError naming the file and the key.  The algorithm modules only see
the `Language` object built here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.errors import DataFileError
from pipeline.lang.yamlio import read_yaml
from pipeline.native import PACKAGE

LANG_DIR = PACKAGE / "lang"  # not beside __file__: a compiled module's is its build's

# Allowed keys per section: anything else is a typo in a data file.
SCHEMA: dict[str, set[str] | None] = {
    "lang": None,
    "script": None,
    # how words are cut: "jieba" (spaCy's jieba segmenter, with `user_dict` beside the lexicon), else
    # spaCy's rule tokenizer of the language (its blank pipeline, or the multi-language one)
    "segmenter": None,
    "user_dict": None,
    # another language whose units, nouns, cues and markers also apply (mixed zh/en sentences)
    "mixed_with": None,
    "numerals": {
        "digits", "scales", "decimal_point", "suffix_scales", "vague_prefixes", "lower_prefixes",
        "vague", "half", "words", "indefinite", "half_after", "compound_joiners", "exponents",
        "dimensions", "either_or", "fractions", "denominators", "bare_scale_after",
    },
    "units": {"duration", "compute", "percent", "money", "other", "compound", "tenths"},
    "prefix_units": None,
    "ratio": {"markers", "magnitude", "before", "clause", "after", "percent_increase", "implicit", "rise_by",
              "decrease", "occurrence_markers", "possessive", "cue_window", "owner_after"},
    "bounds": {"before", "after", "inner", "gap", "near"},
    "counts": {"classifiers", "nouns", "partitive_links", "noun_window", "coordinators", "modifiers",
               "classifier_counts", "far_partitive_links", "noun_joiners", "partitive_verbs", "verb_markers",
               "anaphora", "elided_after", "elided_before", "elided_from", "counted_by_modifier", "range_links",
               "anaphora_numbers", "list_separators", "plural_suffix", "weak_classifiers", "elided_time_before",
               "modifier_classifiers"},
    "dates": {"year_suffix", "month_suffix", "day_suffix", "months", "year_cues", "min_year", "max_year",
              "month_round",
              "relative_years", "following_year", "publication_cues", "event_nouns",
              "last_month", "numeric_order", "season_months"},
    "not_claims": None,
    # reconciliation: what puts a number out of scope, and cue words resolvers read
    "scope": {"ad_markers", "section_end", "history", "in_scope_subjects", "hypothetical", "opinion", "plan",
              "difference_before", "difference_after", "difference_inside", "count_difference_before", "pod", "past",
              "definition", "likeness", "per_unit", "per_unit_before", "one_unit", "retracted"},
    "cues": {"size", "maximum", "founding", "launch", "results", "mlperf", "submit", "average", "from", "to",
             "unchanged", "other", "range", "each", "some_workloads", "fastest", "single", "emphatic", "wins",
             "at_scale", "narrow_group", "all_submitters",
             "per_chip", "single_node", "new", "systems_of", "area_vision", "area_detection", "area_language",
             "area_nlp", "area_translation", "area_speech", "area_medical", "area_recommendation",
             "area_reinforcement", "partners", "absent", "shrink", "last_year", "same_size", "largest", "not_won",
             "debut", "tenure", "ratio_size", "ratio_speed", "ratio_time"},
    "sentences": {"terminators", "closers"},
    # a cue word followed by one of these is not that cue ("第一份榜单" is the first list, not first place)
    "cue_veto": None,
    # the one-line verdict summary a report shows in the article's language (pipeline/report/summary.py)
    "summary": {"verdicts", "templates", "units", "distortions", "readings", "bounds", "joiner", "possessive",
                "sources"},
}
BOUND_KEYS = {"upper", "lower", "approx"}
READING_KEYS = {"times_as", "increase_by", "ambiguous"}


@dataclass(frozen=True)
class Unit:
    key: str
    kind: str
    unit: str
    factor: float


@dataclass(frozen=True, eq=False)
class Language:
    """Everything the extractor knows about one language, compiled once (one object per language and data
    folder, so it is compared and hashed by identity: caches may key on it)."""

    code: str
    script: str  # "cjk" or "latin": decides word-boundary handling
    digits: dict[str, int]
    scales: dict[str, float]
    decimal_points: tuple[str, ...]
    suffix_scales: dict[str, float]
    vague_prefixes: dict[str, tuple[float, float]]
    lower_prefixes: tuple[str, ...]
    vague: dict[str, dict[str, Any]]
    half: tuple[str, ...]
    words: dict[str, float]
    indefinite: tuple[str, ...]
    half_after: tuple[str, ...]
    exponents: tuple[re.Pattern[str], ...]  # 10^18, 1e18, 10的18次方: groups m (mantissa), b (base), e
    dimensions: tuple[re.Pattern[str], ...]  # 19×19 boards, 256×256 matrices: group n, the side
    either_or: tuple[str, ...]  # "one or two minutes": a number or the next one up, one vague quantity
    fractions: tuple[re.Pattern[str], ...]  # 八分之一: groups n (numerator), d (denominator)
    denominators: dict[str, float]  # "a third": the word of a denominator and its number
    bare_scale_after: tuple[str, ...]  # 近千块: a scale word alone after one of these is one of that scale
    compound_joiners: tuple[str, ...]
    units: dict[str, Unit]  # surface form -> unit (longest-first lists below)
    prefix_units: dict[str, Unit]
    ratio_markers: tuple[str, ...]
    magnitude_words: tuple[str, ...]
    reading_before: dict[str, tuple[str, ...]]
    reading_clause: dict[str, tuple[str, ...]]
    # "improved on H100 by up to 47%": a percent after one of `by` is an increase when a rise verb comes
    # before it in its clause ({"by": (...), "verbs": (...)})
    rise_by: dict[str, tuple[str, ...]]
    decrease: dict[str, tuple[str, ...]]  # a percent of how much less: words after it, before it, or by + verb
    reading_after: dict[str, tuple[str, ...]]
    percent_increase: tuple[str, ...]
    implicit_ratios: dict[str, float]
    occurrence_markers: frozenset[str]
    ratio_possessive: tuple[str, ...]
    ratio_cue_window: int  # how far (characters) from a ratio a cue word saying what it compares may stand
    compound_units: dict[str, Unit]
    bound_gap: tuple[str, ...]
    near_bounds: frozenset[str]  # bound cues that stay close to the number ("just over four hours")
    classifier_counts: dict[str, tuple[str, ...]]
    far_partitive_links: tuple[str, ...]
    partitive_verbs: tuple[str, ...]  # 六项中拿下四项: a verb between a partitive link and the part
    bounds_before: dict[str, tuple[str, ...]]
    bounds_after: dict[str, tuple[str, ...]]
    bounds_inner: dict[str, tuple[str, ...]]
    classifiers: tuple[str, ...]
    nouns: dict[str, str]  # surface -> counted
    partitive_links: tuple[str, ...]
    noun_window: int
    coordinators: tuple[str, ...]
    modifiers: frozenset[str]
    noun_joiners: tuple[str, ...]
    verb_markers: tuple[str, ...]
    # a count whose noun is left out: "three of them", "16 records: eight on ... and eight in ..."
    anaphora: tuple[str, ...]
    anaphora_numbers: dict[str, float]  # "both of them": a number word that counts only before an anaphor
    elided_after: tuple[str, ...]
    elided_before: tuple[str, ...]
    elided_from: tuple[str, ...]
    elided_time_before: tuple[str, ...]  # before a bare number that takes the unit of the time before it
    counted_by_modifier: dict[str, str]  # "three top results": a top result is a record
    range_links: tuple[str, ...]  # "from 4 GPUs all the way up to 4096": the end of a range, not a bound
    list_separators: tuple[str, ...]  # "8.68, 1.43 and 1.06 minutes", "0.39 / 0.28", 8.68、1.43: one unit for all
    plural_suffix: str  # "50,000 images", "768 H100s": a plural after a number is a count ("" for none)
    dates: dict[str, Any]
    not_claims: dict[str, re.Pattern[str]]
    terminators: tuple[str, ...]
    closers: tuple[str, ...]
    scope: dict[str, tuple[str, ...]] = field(default_factory=dict)
    cues: dict[str, tuple[str, ...]] = field(default_factory=dict)
    cue_veto: dict[str, tuple[str, ...]] = field(default_factory=dict)  # cue word -> what may not follow it
    summary: dict[str, Any] = field(default_factory=dict)  # verdict summaries: templates and their words
    # classifiers with no usual sense of their own: what they count must be said after them (三张图片)
    weak_classifiers: tuple[str, ...] = ()
    modifier_classifiers: tuple[str, ...] = ()  # 8卡成绩: a size that qualifies the noun after it
    # endings of a name right after a ratio marker that make it the owner of what is multiplied ("NVIDIA's")
    ratio_owner_after: tuple[str, ...] = ()
    segmenter: str = ""  # "jieba", or "" for spaCy's rule tokenizer
    user_dict: Path | None = None  # words the segmenter must keep whole
    mixed_with: str = ""  # the language whose forms load_language adds to this one's (the lexicon's mixed_with)
    source: str = ""
    cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def cjk(self) -> bool:
        """Whether the language is written in CJK characters (no spaces between words)."""
        return self.script == "cjk"


def _longest_first(forms: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(set(forms), key=lambda s: (-len(s), s)))


def _check_keys(path: Path, data: dict[str, Any]) -> None:
    for key, value in data.items():
        if key not in SCHEMA:
            raise DataFileError(path, "unknown section", key)
        allowed = SCHEMA[key]
        if allowed is not None and isinstance(value, dict):
            for sub in value:
                if sub not in allowed:
                    raise DataFileError(path, f"unknown key in section {key!r}", f"{key}.{sub}")


def _compile_patterns(path: Path, section: dict[str, str] | None, prefix: str,
                      where: str = "not_claims") -> dict[str, re.Pattern[str]]:
    out: dict[str, re.Pattern[str]] = {}
    for name, pattern in (section or {}).items():
        try:
            out[f"{prefix}{name}"] = re.compile(pattern)
        except re.error as exc:
            raise DataFileError(path, f"broken pattern: {exc}", f"{where}.{name}") from exc
    return out


def _reading_map(path: Path, section: dict[str, Any] | None, key: str) -> dict[str, tuple[str, ...]]:
    section = section or {}
    for reading in section:
        if reading not in READING_KEYS:
            raise DataFileError(path, "unknown ratio reading", f"{key}.{reading}")
    return {r: _longest_first(section.get(r) or []) for r in READING_KEYS}


def _bound_map(path: Path, section: dict[str, Any] | None, key: str) -> dict[str, tuple[str, ...]]:
    section = section or {}
    for bound in section:
        if bound not in BOUND_KEYS:
            raise DataFileError(path, "unknown bound", f"{key}.{bound}")
    return {b: _longest_first(section.get(b) or []) for b in BOUND_KEYS}


def _units(path: Path, base: dict[str, Unit], section: dict[str, Any], key: str) -> dict[str, Unit]:
    out: dict[str, Unit] = {}
    for group, forms in (section or {}).items():
        for surface, ukey in (forms or {}).items():
            if ukey not in base:
                raise DataFileError(path, f"unit {ukey!r} is not in base/units.yaml", f"{key}.{group}.{surface}")
            if str(surface) in out:
                raise DataFileError(path, "unit form listed twice", f"{key}.{group}.{surface}")
            out[str(surface)] = base[ukey]
    return out


@lru_cache(maxsize=1)
def base_units() -> dict[str, Unit]:
    """The units common to every language (base/units.yaml), by key."""
    path = LANG_DIR / "base" / "units.yaml"
    data = read_yaml(path) or {}
    out = {}
    for key, spec in (data.get("units") or {}).items():
        try:
            out[key] = Unit(key, spec["kind"], spec["unit"], float(spec["factor"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataFileError(path, f"unit needs kind, unit and factor ({exc})", f"units.{key}") from exc
    return out


@lru_cache(maxsize=8)
def _load_one(code: str, lang_dir: str | None = None) -> Language:
    """Build the Language object for `code` from its own lexicon; cached per process."""
    root = Path(lang_dir) if lang_dir else LANG_DIR
    path = root / code / "lexicon.yaml"
    if not path.exists():
        raise DataFileError(path, f"no lexicon for language {code!r}")
    data = read_yaml(path) or {}
    if not isinstance(data, dict):
        raise DataFileError(path, "top level must be a mapping")
    _check_keys(path, data)
    base_path = root / "base" / "not_claims.yaml"
    base_nc = (read_yaml(base_path) or {}).get("patterns") if base_path.exists() else {}
    not_claims = _compile_patterns(base_path, base_nc, "")
    not_claims.update(_compile_patterns(path, data.get("not_claims"), f"{code}."))
    sents = data.get("sentences") or {}
    return Language(
        code=code,
        script=data.get("script", "latin"),
        **_numerals(path, data.get("numerals") or {}),
        **_units_and_ratios(path, data),
        **_counts(path, data.get("counts") or {}),
        dates=dict(data.get("dates") or {}),
        not_claims=not_claims,
        terminators=tuple(sents.get("terminators") or ()),
        closers=tuple(sents.get("closers") or ()),
        scope={k: tuple(v or ()) for k, v in (data.get("scope") or {}).items()},
        cues={k: tuple(v or ()) for k, v in (data.get("cues") or {}).items()},
        cue_veto={str(k).lower(): tuple(str(x).lower() for x in (v or ()))
                  for k, v in (data.get("cue_veto") or {}).items()},
        summary=dict(data.get("summary") or {}),
        segmenter=str(data.get("segmenter") or ""),
        user_dict=(path.parent / str(data["user_dict"])) if data.get("user_dict") else None,
        mixed_with=str(data.get("mixed_with") or ""),
        source=str(path),
    )


def _patterns(path: Path, forms: list | None, key: str) -> tuple[re.Pattern[str], ...]:
    return tuple(_compile_patterns(path, {str(i): p for i, p in enumerate(forms or [])}, "", key).values())


def _numerals(path: Path, num: dict[str, Any]) -> dict[str, Any]:
    """The Language fields of the `numerals` section."""
    return dict(
        digits={str(k): int(v) for k, v in (num.get("digits") or {}).items()},
        scales={str(k): float(v) for k, v in (num.get("scales") or {}).items()},
        decimal_points=tuple(num.get("decimal_point") or ()),
        suffix_scales={str(k): float(v) for k, v in (num.get("suffix_scales") or {}).items()},
        vague_prefixes={k: (float(v["low"]), float(v["high"])) for k, v in (num.get("vague_prefixes") or {}).items()},
        lower_prefixes=tuple(num.get("lower_prefixes") or ()),
        vague=dict(num.get("vague") or {}),
        half=tuple(num.get("half") or ()),
        words={str(k).lower(): float(v) for k, v in (num.get("words") or {}).items()},
        indefinite=tuple(num.get("indefinite") or ()),
        half_after=_longest_first(num.get("half_after") or []),
        exponents=_patterns(path, num.get("exponents"), "numerals.exponents"),
        either_or=tuple(str(w) for w in num.get("either_or") or ()),
        denominators={str(k).lower(): float(v) for k, v in (num.get("denominators") or {}).items()},
        bare_scale_after=tuple(str(w) for w in num.get("bare_scale_after") or ()),
        fractions=_patterns(path, num.get("fractions"), "numerals.fractions"),
        dimensions=_patterns(path, num.get("dimensions"), "numerals.dimensions"),
        compound_joiners=tuple(num.get("compound_joiners") or ()),
    )


def _units_and_ratios(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """The Language fields of the `units`, `prefix_units`, `ratio` and `bounds` sections."""
    units = base_units()
    ratio = data.get("ratio") or {}
    bounds = data.get("bounds") or {}
    own_units = data.get("units") or {}
    return dict(
        units=_units(path, units, {k: v for k, v in own_units.items() if k != "compound"}, "units"),
        prefix_units={str(k): units[v] for k, v in (data.get("prefix_units") or {}).items()},
        compound_units={str(k): units[v] for k, v in (own_units.get("compound") or {}).items()},
        ratio_markers=_longest_first(ratio.get("markers") or []),
        magnitude_words=_longest_first(ratio.get("magnitude") or []),
        reading_before=_reading_map(path, ratio.get("before"), "ratio.before"),
        reading_clause=_reading_map(path, ratio.get("clause"), "ratio.clause"),
        rise_by={k: _longest_first(v or []) for k, v in (ratio.get("rise_by") or {}).items()},
        decrease={k: _longest_first(v or []) for k, v in (ratio.get("decrease") or {}).items()},
        reading_after=_reading_map(path, ratio.get("after"), "ratio.after"),
        percent_increase=_longest_first(ratio.get("percent_increase") or []),
        implicit_ratios={str(k): float(v) for k, v in (ratio.get("implicit") or {}).items()},
        occurrence_markers=frozenset(str(m).lower() for m in ratio.get("occurrence_markers") or []),
        ratio_possessive=tuple(ratio.get("possessive") or ()),
        ratio_owner_after=tuple(str(x) for x in ratio.get("owner_after") or ()),
        ratio_cue_window=int(ratio.get("cue_window") or 16),
        bound_gap=_longest_first(bounds.get("gap") or []),
        near_bounds=frozenset(str(f).lower() for f in bounds.get("near") or []),
        bounds_before=_bound_map(path, bounds.get("before"), "bounds.before"),
        bounds_after=_bound_map(path, bounds.get("after"), "bounds.after"),
        bounds_inner=_bound_map(path, bounds.get("inner"), "bounds.inner"),
    )


def _counts(path: Path, cnt: dict[str, Any]) -> dict[str, Any]:
    """The Language fields of the `counts` section."""
    nouns: dict[str, str] = {}
    for counted, forms in (cnt.get("nouns") or {}).items():
        for form in forms or []:
            if form in nouns:
                raise DataFileError(path, f"noun listed for both {nouns[form]!r} and {counted!r}",
                                    f"counts.nouns.{form}")
            nouns[str(form)] = counted
    return dict(
        classifier_counts={str(k): tuple(v) for k, v in (cnt.get("classifier_counts") or {}).items()},
        weak_classifiers=tuple(str(c) for c in cnt.get("weak_classifiers") or ()),
        modifier_classifiers=tuple(str(c) for c in cnt.get("modifier_classifiers") or ()),
        far_partitive_links=_longest_first(cnt.get("far_partitive_links") or []),
        partitive_verbs=_longest_first(cnt.get("partitive_verbs") or []),
        classifiers=_longest_first(cnt.get("classifiers") or []),
        nouns=nouns,
        partitive_links=_longest_first(cnt.get("partitive_links") or []),
        noun_window=int(cnt.get("noun_window") or 12),
        coordinators=_longest_first(cnt.get("coordinators") or []),
        modifiers=frozenset(str(m).lower() for m in cnt.get("modifiers") or []),
        noun_joiners=tuple(cnt.get("noun_joiners") or ()),
        verb_markers=tuple(str(m) for m in cnt.get("verb_markers") or ()),
        anaphora=_longest_first(cnt.get("anaphora") or []),
        anaphora_numbers={str(k).lower(): float(v) for k, v in (cnt.get("anaphora_numbers") or {}).items()},
        elided_after=_longest_first(cnt.get("elided_after") or []),
        elided_before=_longest_first(cnt.get("elided_before") or []),
        elided_from=_longest_first(cnt.get("elided_from") or []),
        elided_time_before=_longest_first(cnt.get("elided_time_before") or []),
        counted_by_modifier={str(k).lower(): str(v) for k, v in (cnt.get("counted_by_modifier") or {}).items()},
        range_links=_longest_first(cnt.get("range_links") or []),
        list_separators=tuple(str(x) for x in cnt.get("list_separators") or ()),
        plural_suffix=str(cnt.get("plural_suffix") or ""),
    )


def _merged(own: dict, other: dict) -> dict:
    out = dict(other)
    out.update(own)
    return out


def _merged_forms(own: dict[str, tuple[str, ...]], other: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    keys = dict.fromkeys([*own, *other])  # in the files' order: a set's order would change with the hash seed
    return {k: _longest_first(list(own.get(k, ())) + list(other.get(k, ()))) for k in keys}


@lru_cache(maxsize=8)
def load_language(code: str, lang_dir: str | None = None) -> Language:
    """The Language object for `code` ("zh", "en"), with the forms of its `mixed_with` language added
    (its own forms win): news mixes "64 chips" into Chinese and 机器之心 into English."""
    own = _load_one(code, lang_dir)
    if not own.mixed_with:
        return own
    other = _load_one(own.mixed_with, lang_dir)
    return replace(
        own,
        units=_merged(own.units, other.units),
        nouns=_merged(own.nouns, other.nouns),
        ratio_markers=_longest_first(own.ratio_markers + other.ratio_markers),
        magnitude_words=_longest_first(own.magnitude_words + other.magnitude_words),
        exponents=own.exponents + tuple(p for p in other.exponents if p not in own.exponents),
        dimensions=own.dimensions + tuple(p for p in other.dimensions if p not in own.dimensions),
        reading_after=_merged_forms(own.reading_after, other.reading_after),
        percent_increase=_longest_first(own.percent_increase + other.percent_increase),
        near_bounds=own.near_bounds | other.near_bounds,
        decrease=_merged_forms(own.decrease, other.decrease),
        bounds_before=_merged_forms(own.bounds_before, other.bounds_before),
        bounds_after=_merged_forms(own.bounds_after, other.bounds_after),
        implicit_ratios=_merged(own.implicit_ratios, other.implicit_ratios),
        not_claims=_merged(own.not_claims, other.not_claims),
        # a sentence in the other language, or a phrase of it, carries its cue words
        cues=_merged_forms(own.cues, other.cues),
        scope=_merged_forms(own.scope, other.scope),
        cue_veto=_merged_forms(own.cue_veto, other.cue_veto),
        cache={},
    )


def language_codes(lang_dir: str | None = None) -> tuple[str, ...]:
    """The languages a data folder holds, in the order its base/languages.yaml lists them (the first of a
    script is that script's default: a Latin sentence in a Chinese article is read as English)."""
    root = Path(lang_dir) if lang_dir else LANG_DIR
    path = root / "base" / "languages.yaml"
    data = read_yaml(path) if path.exists() else None
    codes = (data or {}).get("languages") if isinstance(data, dict) else None
    if not codes or not all(isinstance(c, str) for c in codes):
        raise DataFileError(path, "needs `languages:`, a list of language codes (folders beside base/)")
    return tuple(codes)


LANGUAGES = language_codes()  # the shipped languages


@dataclass(frozen=True, eq=False)
class Languages:
    """Every language of one data folder, loaded on first use: what the stages are handed (by the
    Pipeline) instead of looking languages up by code themselves, so that a data folder of another
    language set (settings.lang_dir) reaches every stage."""

    root: str | None  # None: the shipped folder
    codes: tuple[str, ...]
    # the languages looked up so far (the stages ask hundreds of times per article): read-only outside this
    # class, where a hot path may try `loaded.get(code)` before `[code]` (a compiled stage's dict look-up
    # against a call of this interpreted method)
    loaded: dict[str, Language] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, code: str) -> Language:
        lang = self.loaded.get(code)
        if lang is not None:
            return lang
        if code not in self.codes:
            raise DataFileError((Path(self.root) if self.root else LANG_DIR) / "base" / "languages.yaml",
                                f"no language {code!r} (it lists {', '.join(self.codes)})")
        lang = self.loaded[code] = load_language(code, self.root)
        return lang

    def __contains__(self, code: object) -> bool:
        return code in self.codes

    def __iter__(self) -> Iterator[Language]:
        return (self[c] for c in self.codes)

    def others(self, code: str) -> list[Language]:
        """The language of `code` first, then the others (dates of a mixed sentence)."""
        return [self[code], *(self[c] for c in self.codes if c != code)]

    def default(self, script: str) -> str | None:
        """The first language of that script ("cjk", "latin"), or None."""
        return next((c for c in self.codes if self[c].script == script), None)

    def of_sentence(self, cjk: bool, declared: str | None = None) -> str:
        """A sentence's language from its script: the article's declared language when it is written in
        that script, else the script's first language, else the first language of all."""
        script = "cjk" if cjk else "latin"
        if declared in self.codes and self[declared].script == script:
            return declared
        return self.default(script) or self.codes[0]


@lru_cache(maxsize=8)
def languages(lang_dir: str | None = None) -> Languages:
    """The languages of a data folder (default: the shipped one), one registry per folder and process."""
    root = str(Path(lang_dir).resolve()) if lang_dir else None
    return Languages(root, language_codes(root))


def load_all(lang_dir: str | None = None) -> dict[str, Language]:
    """Every language of a data folder, by code."""
    return {lang.code: lang for lang in languages(lang_dir)}
