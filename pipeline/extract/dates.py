"""Dates as written: 2018 年 5 月, 2020年7月29日, 二〇二〇年, July 29, 2020, May 2018, in 2015.

The patterns are assembled from the lexicon's date words; the value is ISO text ("2018-05").  A month
without a year takes the year of a relative word (今年, last year) and the article's date when known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.extract.numbers import cached, parse_cjk
from pipeline.extract.prefilter import Text, prefilter, with_first_chars
from pipeline.lang.loader import Language


@dataclass(frozen=True)
class DateMatch:
    start: int
    end: int
    iso: str


def date_patterns(lang: Language) -> list[tuple[str, re.Pattern[str]]]:
    """The language's date patterns as (name, regex), in the order they are tried (built once)."""
    key = "date_res"
    if key in lang.cache:
        return lang.cache[key]
    d = lang.dates
    # ISO 8601 dates read the same in every language
    iso = re.compile(r"(?<![\d/-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?![\d:])")
    out: list[tuple[str, re.Pattern[str]]] = [("iso", iso)]
    # dates in figures with slashes or dots, in the orders the language's news writes them (2020/7/29;
    # 8/3/2020 is August 3 in US-style English: `numeric_order`)
    for order in d.get("numeric_order") or ():
        parts = {"y": r"(?P<y>\d{4})", "m": r"(?P<m>\d{1,2})", "d": r"(?P<d>\d{1,2})"}
        body = r"[/.]".join(parts[c] for c in order)
        out.append((f"num_{order}", re.compile(rf"(?<![\d/.]){body}(?![\d/]|\.\d|\s*\d{{1,2}}:\d{{2}})")))
    follow = sorted(d.get("following_year") or [], key=len, reverse=True)
    follow_alt = "|".join(re.escape(f) for f in follow) or r"(?!x)x"
    rel = sorted(d.get("relative_years") or {}, key=len, reverse=True)
    rel_alt = "|".join(re.escape(r) for r in rel) or r"(?!x)x"
    if lang.cjk:
        y, mo = re.escape(d.get("year_suffix", "")), re.escape(d.get("month_suffix", ""))
        days = "|".join(re.escape(x) for x in d.get("day_suffix") or []) or r"(?!x)x"
        cjk_digit = "".join(re.escape(c) for c in lang.digits)
        year = rf"(?P<y>(?<!\d)\d{{4}}|[{cjk_digit}]{{4}})"
        numeral = "".join(re.escape(c) for c in list(lang.digits) + [k for k, v in lang.scales.items() if v == 10])
        month = rf"(?P<m>\d{{1,2}}|[{numeral}]{{1,3}})"
        day = rf"(?P<d>\d{{1,2}}|[{numeral}]{{1,3}})"
        out.append(("ymd", re.compile(rf"{year}\s*{y}(?:\s*{month}\s*{mo}(?:\s*{day}\s*(?:{days}))?)?")))
        out.append(("rel", re.compile(rf"(?P<rel>{rel_alt})\s*{month}\s*{mo}(?:\s*{day}\s*(?:{days}))?")))
        out.append(("follow", re.compile(rf"(?P<follow>{follow_alt})\s*{month}\s*{mo}(?:\s*{day}\s*(?:{days}))?")))
        out.append(("md", re.compile(rf"(?<![\d{y}]){month}\s*{mo}\s*{day}\s*(?:{days})")))
    else:
        months = sorted(d.get("months") or {}, key=len, reverse=True)
        malt = "|".join(re.escape(m) for m in months)
        cues = sorted(d.get("year_cues") or [], key=len, reverse=True)
        calt = "|".join(re.escape(c) for c in cues) or r"(?!x)x"
        mdy = rf"(?i)\b(?P<mn>{malt})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{{4}}))?\b"
        out.append(("mdy", re.compile(mdy)))
        out.append(("dmy", re.compile(rf"(?i)\b(?P<d>\d{{1,2}})\s+(?P<mn>{malt})\.?,?\s+(?P<y>\d{{4}})\b")))
        out.append(("my", re.compile(rf"(?i)\b(?P<mn>{malt})\.?,?\s+(?:of\s+)?(?P<y>\d{{4}})\b")))
        out.append(("rel", re.compile(rf"(?i)\b(?P<mn>{malt})\s+(?P<rel>{rel_alt})\b")))
        # "last December": the latest such month before the article's date
        last = sorted(d.get("last_month") or [], key=len, reverse=True)
        lalt = "|".join(re.escape(w) for w in last) or r"(?!x)x"
        out.append(("last_m", re.compile(rf"(?i)\b(?P<last>{lalt})\s+(?P<mn>{malt})\b(?!\s+\d)")))
        out.append(("follow", re.compile(rf"(?i)\b(?P<mn>{malt})\s+(?:of\s+)?(?P<follow>{follow_alt})\b")))
        # "down from 311.9 minutes in June": a month alone after a year cue, the latest such month
        out.append(("cue_m", re.compile(rf"(?i)\b(?:{calt})\s+(?P<mn>{malt})\b(?![\s,.]*\d)")))
        # a year is no count: "built from 2048 chips", "in 2048-GPU runs"
        counted = sorted({*lang.nouns, *lang.units}, key=lambda f: (-len(f), f))
        nalt = "|".join(re.escape(f) for f in counted if f.isascii() and f[:1].isalpha()) or r"(?!x)x"
        events = sorted(d.get("event_nouns") or [], key=len, reverse=True)
        ealt = "|".join(re.escape(e) for e in events) or r"(?!x)x"
        out.append(("event_y", re.compile(
            rf"(?<![\d,.])(?P<y>\d{{4}})\s+(?:[A-Z][\w-]*\s+)?(?=(?i:{ealt})\b)")))
        out.append(("cue_y", re.compile(
            rf"(?i)\b(?P<cue>{calt})(?:\s+|(?<=-))(?P<y>\d{{4}})\b(?!\s*(?:%|percent)|-|\s+(?:\S+\s+)?(?:{nalt})\b)")))
    lang.cache[key] = out
    return out


def _num(s: str | None, lang: Language) -> int | None:
    if not s:
        return None
    if s.isdigit():
        return int(s)
    if len(s) == 4 and all(c in lang.digits for c in s):  # 二〇二〇
        return int("".join(str(lang.digits[c]) for c in s))
    parsed = parse_cjk(s, lang)
    return int(parsed[0]) if parsed else None


def _month_named(text: str, lang: Language) -> bool:
    """Whether a month's name stands in the text as a word (a date with no digit needs one)."""
    rx = cached(lang, "date_month_word", lambda: re.compile(
        r"(?i)\b(?:" + "|".join(re.escape(m) for m in sorted(lang.dates.get("months") or {}, key=len, reverse=True))
        + r")\b" if lang.dates.get("months") else r"(?!x)x"))
    return rx.search(text) is not None


def _span(name: str, m: re.Match[str], seasons: dict[str, int]) -> tuple[int, int, int | None]:
    """Where a match's date is written, and the month its cue says ("mid-2022": June), if any."""
    if name == "cue_y":
        season = seasons.get(m.group("cue").lower())
        if season is not None:
            return m.start("cue"), m.end("y"), season
    if name in ("cue_y", "event_y"):
        return m.start("y"), m.end("y"), None
    if name == "cue_m":
        return m.start("mn"), m.end("mn"), None
    return m.start(), m.end(), None


def _year_of_month(name: str, g: dict, month: int | None, year: int | None, article_year: int | None,
                   article_month: int | None, last_words: dict) -> tuple[bool, int | None]:
    """The year of a month written without one ("last May", "in June"), else `year`; (False, _) when the
    match is no date (no article date to count back from)."""
    if g.get("last") is not None:
        if article_year is None or month is None:
            return False, None
        if last_words.get(g["last"].lower()) == "latest":  # "this past May": the latest May before the article
            return True, article_year if article_month and month < article_month else article_year - 1
        if article_month is None or month < article_month:
            # "last May" in a July story is this May for some writers and a year before for others: the year
            # stays unknown (--05) rather than guessed
            return True, None
        return True, article_year - 1
    if name == "cue_m" and article_year is not None and month is not None:
        # "in June" in a November story is that year's June; "in December" in a July story, the last one
        return True, article_year if article_month is None or month <= article_month else article_year - 1
    return True, year


def find_dates(text: str, offset: int, lang: Language, article_year: int | None = None,
               patterns: list[tuple[str, re.Pattern[str]]] | None = None,
               article_month: int | None = None) -> list[DateMatch]:
    """Dates in `text` (at article offset `offset`).  `patterns`: date_patterns(lang), or the ones of them
    that may match the article at all (see claims.ArticleScan)."""
    d = lang.dates
    # every date pattern needs a digit, or (Chinese) a year/month word
    if not any(map(str.isdigit, text)) and not (
            lang.cjk and (d.get("year_suffix", "\0") in text or d.get("month_suffix", "\0") in text)) and not (
            article_year and not lang.cjk and _month_named(text, lang)):  # last December, in June
        return []
    lo, hi = int(d.get("min_year", 1900)), int(d.get("max_year", 2100))
    months = cached(lang, "date_months", lambda: {k.lower(): v for k, v in (d.get("months") or {}).items()})
    rel_years = cached(lang, "date_relative_years",
                       lambda: {k.lower(): v for k, v in (d.get("relative_years") or {}).items()})
    seasons = cached(lang, "date_season_months",
                     lambda: {k.lower(): int(v) for k, v in (d.get("season_months") or {}).items()})
    last_words = cached(lang, "date_last_month", lambda: {k.lower(): v for k, v in (d.get("last_month") or {}).items()})
    found: list[DateMatch] = []
    taken: list[tuple[int, int]] = []
    view = Text(text)
    for name, rx in date_patterns(lang) if patterns is None else patterns:
        if not prefilter(rx)(view):  # month names, 年, a digit...: skip a pattern whose words are absent
            continue
        for m in with_first_chars(rx).finditer(text):
            s, e, season = _span(name, m, seasons)
            if any(a < e and s < b for a, b in taken):
                continue
            g = m.groupdict()
            year = _num(g.get("y"), lang)
            if g.get("rel") is not None:
                year = article_year + rel_years[g["rel"].lower()] if article_year else None
            if g.get("follow") is not None:
                # 次年 / the following year: one after the last year written before it
                prior = [x for x in found if x.start < offset + s and x.iso[:4].isdigit()]
                if not prior:
                    continue
                year = int(max(prior, key=lambda x: x.start).iso[:4]) + 1
            month = months.get((g.get("mn") or "").lower()) if g.get("mn") else _num(g.get("m"), lang)
            if season is not None:
                month = season
            ok, year = _year_of_month(name, g, month, year, article_year, article_month, last_words)
            if not ok:
                continue
            day = _num(g.get("d"), lang)
            if year is not None and not lo <= year <= hi:
                continue
            if month is not None and not 1 <= month <= 12:
                continue
            if day is not None and not 1 <= day <= 31:
                continue
            if year is None and month is None:
                continue
            if year is None and g.get("last") is not None:
                found.append(DateMatch(offset + s, offset + e, f"--{month:02d}"))
                taken.append((s, e))
                continue
            if year is None and article_year is not None and name in ("md", "mdy"):
                # "August 31" in an article of July 2020 means that year's August 31
                year = article_year
            if year is None:
                iso = f"--{month:02d}" + (f"-{day:02d}" if day else "")
            else:
                iso = f"{year:04d}" + (f"-{month:02d}" if month else "") + (f"-{day:02d}" if month and day else "")
            found.append(DateMatch(offset + s, offset + e, iso))
            taken.append((s, e))
    found.sort(key=lambda x: x.start)
    return found


# a dated permalink in an article's first lines ("原文链接：https://site/2020/07/30/slug"): its date
_URL_DATE = re.compile(r"https?://[^\s]*?/(?P<y>(?:19|20)\d{2})[/-](?P<m>\d{1,2})[/-](?P<d>\d{1,2})(?=[/-]|\b)")


def dated_line(sentences, text: str, langs: dict, window: int = 600) -> tuple[str, str] | None:
    """The date an article gives for itself when no sidecar does, read before any claim: the first date
    written to the month or the day in its opening lines (a date line, a byline, "Published July 6, 2021",
    "发布于 2020-07-31", "2021-05-19" in an editor's note), else a dated permalink there, as (ISO text, the
    line it stands on).  Date lines are no claims (not_claims), so this reads the sentences' text itself."""
    head = min(len(text), max(window, len(text) // 8))
    for sent in sentences:
        if sent.start >= head:
            break
        codes = [sent.lang] + [c for c in langs if c != sent.lang]
        hits = []
        for code in codes:
            hits += find_dates(sent.text, sent.start, langs[code])
        for d in sorted(hits, key=lambda d: d.start):
            if len(d.iso) >= 7 and d.iso[:4].isdigit():
                line_start = text.rfind("\n", 0, d.start) + 1
                line_end = text.find("\n", d.start)
                line = text[line_start: line_end if line_end >= 0 else len(text)].strip()
                return d.iso, line[:120]
    m = _URL_DATE.search(text, 0, head)
    if m and 1 <= int(m.group("m")) <= 12 and 1 <= int(m.group("d")) <= 31:
        return f"{m.group('y')}-{int(m.group('m')):02d}-{int(m.group('d')):02d}", m.group(0)[:120]
    return None
