"""A claim's verdict in one sentence of its own language, for the report's panel and the article page.

The explanation of a verdict (claims.jsonl `explanation`) shows the arithmetic, in English.  A Chinese
reader of a Chinese article also gets this summary in Chinese: the verdict, what the official figure is of
(org, benchmark, chip, round, named as the knowledge base names them in that language), the figure, how the
claim was read and, for a contradiction, the kind of distortion.  Its words and templates are language data
(the `summary` section of pipeline/lang/<code>/lexicon.yaml); a language without one gets none.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from pipeline.lang.loader import Languages, languages
from pipeline.link.kb import KnowledgeBase

SUBJECT_PARTS = ("org", "benchmark", "accelerator", "system", "round")
_SUBJECT_SET = frozenset(SUBJECT_PARTS)  # membership without a comparison per tuple item


def name_in(kb: KnowledgeBase, etype: str, eid: str, lang: str) -> str:
    """An entity as the language writes it: its first name in that language, else its first English name
    (kept per knowledge base: a report names the same few entities in every claim's summary)."""
    names = kb.cache.get("names_in")
    if names is None:
        names = kb.cache["names_in"] = {}
    key = (etype, eid, lang)
    name = names.get(key)
    if name is None:
        name = names[key] = _name_in(kb, etype, eid, lang)
    return str(name)


def _name_in(kb: KnowledgeBase, etype: str, eid: str, lang: str) -> str:
    entry = kb.get(etype, eid)
    if entry is None:
        return eid
    for code in (lang, "en", "zh"):
        for names in (entry.aliases.get(code), entry.cased.get(code)):  # its aliases first, then cased forms
            if names:
                return str(names[0])
    return eid


def _number(x: float) -> str:
    if abs(x) >= 1000 and float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:.4g}"


def _with_unit(number: str, word: str) -> str:
    """"2.7x", "63%", "23秒", "7纳米" run on (CJK unit words are written so); "23 s", "7 nm" take a space."""
    tight = word in ("x", "%") or word[:1] > "\u2e7f"
    return f"{number}{'' if tight else ' '}{word}"


def figure(value: Any, unit: str | None, words: dict[str, Any]) -> str:
    """A value with its unit in the language's words: 23.1 秒, 0.39 分钟, 2.7 倍, 4,096."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    units = words.get("units") or {}
    x = float(value)
    if unit == "s":
        if abs(x) >= 120:
            return _with_unit(_number(x / 60), str(units.get("min", "min")))
        return _with_unit(_number(x), str(units.get("s", "s")))
    if unit == "FLOP/s":
        return _with_unit(_number(x / 1e15), str(units.get("FLOP/s", "PFLOP/s")))
    if unit in ("count", "date", None, ""):
        return _number(x)
    word = str(units.get(unit, unit))
    return _with_unit(_number(x), word)


def _reads(claim: dict[str, Any], words: dict[str, Any]) -> str:
    said = figure(claim.get("value"), claim.get("unit"), words)
    bound = (words.get("bounds") or {}).get(claim.get("bound") or "")
    return f"{bound} {said}".strip() if bound else said


def _subject(claim: dict[str, Any], kb: KnowledgeBase, lang: str, words: dict[str, Any]) -> str:
    frame = claim.get("frame") or {}
    ents = {**(claim.get("entities") or {}), **{k: v for k, v in frame.items() if k in _SUBJECT_SET and v}}
    parts = [name_in(kb, t, str(ents[t]), lang) for t in SUBJECT_PARTS if ents.get(t)]
    templates = words.get("templates") or {}
    return str(words.get("joiner", ", ")).join(parts) if parts else str(templates.get("no_subject", ""))


def summarize(claim: dict[str, Any], kb: KnowledgeBase, lang: str | None = None,
              langs: Languages | None = None) -> str | None:
    """The claim's verdict in one sentence of `lang` (default: the claim's own), or None where the language
    has no summary words."""
    code = lang or claim.get("lang") or "en"
    try:
        words = (langs or languages())[code].summary
    except Exception:  # noqa: BLE001 - an unknown language has no summary, not an error
        return None
    template = (words.get("templates") or {}).get(claim.get("verdict") or "")
    if not template:
        return None
    distortion = (words.get("distortions") or {}).get(claim.get("distortion") or "")
    why = str(templates_of(words).get("why", " ({distortion})")).format(distortion=distortion) if distortion else ""
    derivation = str((claim.get("frame") or {}).get("derivation") or "")
    if derivation and claim.get("verdict") in ("supported", "contradicted", "ambiguous"):
        # a derived figure (4096 chips / 1024 chips = 4x) shows its arithmetic, which reads in any language
        template = template.rstrip("。.") + str(templates_of(words).get("derivation", " ({derivation})")).format(
            derivation=derivation) + ("。" if template.endswith("。") else ".")
    return template.format(text=claim.get("text", ""), reads=_reads(claim, words),
                           official=figure(claim.get("official"), claim.get("unit"), words)
                           + _source(claim, kb, code, words),
                           subject=_subject(claim, kb, code, words), why=why,
                           reading=(words.get("readings") or {}).get(_fitting_reading(claim), ""))


def _source(claim: dict[str, Any], kb: KnowledgeBase, lang: str, words: dict[str, Any]) -> str:
    """Where the official figure comes from, as the language says it after the figure: the result logs, or
    the statement of the company the claim is about (else of the site that published it)."""
    frame = claim.get("frame") or {}
    said = (words.get("sources") or {}).get(str(frame.get("source") or ""))
    if not said or claim.get("official") is None or claim.get("kind") == "date":
        return ""  # a round's date is the knowledge base's (its sources in kb/rounds.yaml), not a log's
    publisher = ""
    if "{publisher}" in said:
        org = frame.get("org") or (claim.get("entities") or {}).get("org")
        url = next((str(e) for e in claim.get("evidence") or () if "://" in str(e)), "")
        publisher = name_in(kb, "org", str(org), lang) if org else urlsplit(url).hostname or ""
        publisher = publisher.removeprefix("www.")
        if not publisher:
            return ""
    return str(said).format(publisher=publisher)


def fact_heading(conflict: dict[str, Any], kb: KnowledgeBase, langs: Languages | None = None) -> str | None:
    """A conflict's heading in its wordings' language, when they are all in one language with summary
    words other than English ("谷歌，BERT，第三轮：官方数据为 23.57秒（据官方 MLPerf 成绩日志）"); None otherwise."""
    claims = conflict.get("claims") or []
    codes = {c.get("lang") for c in claims}
    if len(codes) != 1 or None in codes or "en" in codes:
        return None
    code = str(next(iter(codes)))
    try:
        words = (langs or languages())[code].summary
    except Exception:  # noqa: BLE001 - a language without summary words keeps the English heading
        return None
    heading = (words.get("templates") or {}).get("heading")
    if not heading:
        return None
    first = claims[0]
    subject = _subject(first, kb, code, words)
    if subject == str((words.get("templates") or {}).get("no_subject", "")):
        return None  # the claims' entities are not at hand (a corpus page): the English name says more
    return str(heading).format(subject=subject,
                               official=figure(conflict.get("official"), first.get("unit"), words)
                               + _source({**first, "official": conflict.get("official")}, kb, code, words))


def templates_of(words: dict[str, Any]) -> dict[str, Any]:
    """The language's summary templates (by verdict, and "why", "no_subject"); empty when it has none."""
    return words.get("templates") or {}


def _fitting_reading(claim: dict[str, Any]) -> str:
    """For an ambiguous verdict on an "N倍 / N times" phrase: the reading under which it fits, the one of N
    and N+1 nearer the official figure."""
    value, official = claim.get("value"), claim.get("official")
    if not isinstance(value, (int, float)) or not isinstance(official, (int, float)):
        return str(claim.get("ratio_reading") or "")
    return "times_as" if abs(official - value) <= abs(official - (value + 1)) else "increase_by"
