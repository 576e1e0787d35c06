"""Numbers as written: Arabic (4,096 / 0.39 / 2万), Chinese numerals (四千零九十六, 两三, 数百, 上百),
English number words (four, twenty-four, a dozen, half a), and vague quantities (成百上千, hundreds of).

Only the lexicon (pipeline/lang/<code>/lexicon.yaml) knows the words; this module knows the shapes.
Chinese numeral strings are converted with cn2an, after the ranges it misreads (两三 -> 23) are split off.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

from pipeline.extract.prefilter import with_first_chars
from pipeline.lang.loader import Language

# patterns that open with a lookbehind or a word boundary go through with_first_chars: re then skips
# to the characters a match can start with instead of trying every position
_ARABIC = with_first_chars(re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d])"))


@dataclass(frozen=True, init=False)
class Num:
    """A number found in the analysis text; offsets are article offsets."""

    start: int
    end: int
    value: float
    step: float = 1.0  # the unit of the last digit written, after any scale word
    integer: bool = True
    source: str = "arabic"  # arabic, cjk, word, vague, indefinite, half, implicit
    low: float | None = None  # vague quantities and ranges carry their own interval
    high: float | None = None
    bound: str | None = None  # bound implied by the quantity word (上百 -> lower)

    # written out for mypyc: see pipeline.link.recognize.Mention.__init__
    def __init__(self, start: int, end: int, value: float, step: float = 1.0, integer: bool = True,
                 source: str = "arabic", low: float | None = None, high: float | None = None,
                 bound: str | None = None) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "integer", integer)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "bound", bound)


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


@lru_cache(maxsize=512)
def _by_first_char(forms: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Forms grouped by their (lower-cased) first character, longest first: a match tries only the
    forms that can start at that character."""
    groups: dict[str, list[str]] = {}
    for form in sorted(set(forms), key=lambda f: (-len(f), f)):
        if form:
            groups.setdefault(form[0].lower() if form.isascii() else form[0], []).append(form)
    return {k: tuple(v) for k, v in groups.items()}


_GROUPS: dict[int, tuple[tuple[str, ...], dict[str, tuple[str, ...]]]] = {}


def _groups(forms: tuple[str, ...] | list[str]) -> dict[str, tuple[str, ...]]:
    """_by_first_char of a tuple of forms, looked up by identity: hashing a long tuple on every call
    cost more than the match (the language data's tuples live as long as the process)."""
    if type(forms) is not tuple:
        return _by_first_char(tuple(forms))
    hit = _GROUPS.get(id(forms))
    if hit is None or hit[0] is not forms:
        hit = _GROUPS[id(forms)] = (forms, _by_first_char(forms))
    return hit[1]


def _match_form(text: str, pos: int, forms: tuple[str, ...] | list[str], latin: bool = False,
                end: int | None = None) -> str | None:
    """Longest form that `text` starts with at `pos`, within text[:end].  Forms made of Latin letters
    match case-insensitively and only as whole words; CJK forms match exactly."""
    end = len(text) if end is None else end
    if pos >= end:
        return None
    ch = text[pos]
    candidates = _groups(forms).get(ch.lower() if ch.isascii() else ch, ())
    for form in candidates:
        if pos + len(form) > end:
            continue
        seg = text[pos:pos + len(form)]
        if form.isascii():
            if seg.lower() != form.lower():
                continue
            after = pos + len(form)
            if _ascii_alnum(form[-1]) and after < end and _ascii_alnum(text[after]):
                continue
            return seg
        if seg == form:
            return form
    return None


@lru_cache(maxsize=1024)
def _literal(form: str) -> re.Pattern[str]:
    return re.compile(re.escape(form))


def _longest(forms) -> tuple[str, ...]:
    return tuple(sorted(set(forms), key=lambda s: (-len(s), s)))


def cached(lang: Language, key: str, build):
    """A value derived from a Language, built once per process (Language objects are cached)."""
    try:
        return lang.cache[key]
    except KeyError:
        value = lang.cache[key] = build()
        return value


def _cjk_regex(lang: Language) -> re.Pattern[str]:
    key = "cjk_numeral_re"
    if key not in lang.cache:
        chars = "".join(re.escape(c) for c in list(lang.digits) + list(lang.scales) + list(lang.decimal_points))
        lang.cache[key] = re.compile(f"[{chars}]+") if chars else re.compile(r"(?!x)x")
    return lang.cache[key]


def _word_regex(lang: Language) -> re.Pattern[str]:
    key = "word_numeral_re"
    if key not in lang.cache:
        forms = _longest(list(lang.words) + list(lang.scales))
        # "three quarters" is also written "three-quarter"
        alt = "|".join(re.escape(f).replace(r"\ ", r"[\s-]+") for f in forms)
        piece = f"(?:{alt})"
        # "threefold": a number word may run straight into -fold
        rx = rf"(?i)\b{piece}(?:(?:\s+and\s+|[\s-]+){piece})*(?:\b|(?=fold\b))"
        lang.cache[key] = with_first_chars(re.compile(rx)) if forms else None
    return lang.cache[key]


def _decimals(s: str) -> int:
    return len(s.split(".")[1]) if "." in s else 0


def _arabic(text: str, offset: int, lang: Language) -> list[Num]:
    out = []
    scale_forms = cached(lang, "scale_forms", lambda: _longest(lang.suffix_scales))
    unit_forms = cached(lang, "unit_forms", lambda: _longest(lang.units))
    for m in _ARABIC.finditer(text):
        raw = m.group(0)
        digits = raw.replace(",", "")
        value = float(digits)
        dec = _decimals(digits)
        step = 10.0 ** -dec
        end = m.end()
        # A scale word after the digits (2万, 1.5 million, 10k) unless a unit starts there (430千万亿次).
        pos = end
        gap = pos
        while gap < len(text) and text[gap] == " " and gap - end < 2:
            gap += 1
        if not _match_form(text, gap, unit_forms, latin=not lang.cjk):
            scale = _match_form(text, gap, scale_forms, latin=not lang.cjk)
            if scale and (lang.cjk or gap > end or len(scale) == 1):
                factor = lang.suffix_scales.get(scale, lang.suffix_scales.get(scale.lower(), 1.0))
                value *= factor
                step *= factor
                end = gap + len(scale)
        integer = dec == 0 and float(value).is_integer()
        out.append(Num(offset + m.start(), offset + end, value, step, integer, "arabic"))
    return out


@cache
def _cn2an() -> Any:
    """cn2an, loaded when a Chinese numeral first needs it (its import takes 0.2 s of an English-only
    `newsclaims extract`).

    cn2an imports the `proces` package for its text clean-up, and proces's __init__ imports its address
    masking, which compiles a pattern of 9,000 characters of Chinese place names from a set (in an order of
    that process's own, so never one of re_programs' stored programs): 35 ms of every start-up that reads
    Chinese, for a function newsclaims never calls.  While cn2an loads, proces.masking is a stand-in whose
    functions load the real module when called; afterwards `import proces.masking` loads the real one."""
    if "proces" in sys.modules or "cn2an" in sys.modules:
        import cn2an

        return cn2an
    stub = ModuleType("proces.masking")
    for name in ("mask_phone", "mask_address"):
        setattr(stub, name, _deferred_masking(name))
    sys.modules["proces.masking"] = stub
    try:
        import cn2an
    finally:
        if sys.modules.get("proces.masking") is stub:
            del sys.modules["proces.masking"]
    return cn2an


def _deferred_masking(name: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module("proces.masking"), name)(*args, **kwargs)
    return call


def parse_cjk(run: str, lang: Language) -> tuple[float, float, float] | None:
    """Value, low, high of a Chinese numeral run; ranges (两三, 三四百) give low < high.  Memoized per
    language: the same few runs (一, 两, 三百) recur, and cn2an validates its input with several regexes."""
    memo = cached(lang, "parse_cjk_memo", dict)
    if run not in memo:
        if len(memo) > 50_000:
            memo.clear()
        memo[run] = _parse_cjk(run, lang)
    return memo[run]


def _parse_cjk(run: str, lang: Language) -> tuple[float, float, float] | None:
    digits = lang.digits
    # Range: two successive digits, optionally followed by scale characters: 两三 -> [2, 3], 三四百 -> [300, 400]
    if len(run) >= 2 and run[0] in digits and run[1] in digits:
        a, b = digits[run[0]], digits[run[1]]
        rest = run[2:]
        if b == a + 1 and all(c in lang.scales for c in rest):
            scale = 1.0
            for c in rest:
                scale *= lang.scales[c]
            return a * scale, a * scale, b * scale
    if all(c in lang.decimal_points for c in run):
        return None
    try:
        value = float(_cn2an().cn2an(run, "normal"))
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return value, value, value


def _cjk(text: str, offset: int, lang: Language, taken: list[tuple[int, int]]) -> list[Num]:
    out = []
    for m in _cjk_regex(lang).finditer(text):
        s, e = m.start(), m.end()
        run = m.group(0)
        # strip a trailing decimal point (一点 -> 一) and leading scale-only noise
        while run and run[-1] in lang.decimal_points:
            run = run[:-1]
            e -= 1
        if not run:
            continue
        if any(a < offset + e and offset + s < b for a, b in taken):
            continue
        # vague prefix (数百, 几十) or lower prefix (上百) just before a scale-only run
        prev = text[s - 1] if s > 0 else ""
        if all(c in lang.scales for c in run) and prev in lang.vague_prefixes:
            lo, hi = lang.vague_prefixes[prev]
            scale = 1.0
            for c in run:
                scale *= lang.scales[c]
            low, high = lo * scale, hi * scale + scale - 1
            out.append(Num(offset + s - 1, offset + e, low, scale, True, "vague", low, high, "approx"))
            continue
        if all(c in lang.scales for c in run) and prev in lang.bare_scale_after:
            scale = 1.0
            for c in run:
                scale *= lang.scales[c]
            out.append(Num(offset + s, offset + e, scale, scale, True, "cjk"))
            continue
        if all(c in lang.scales for c in run) and prev in lang.lower_prefixes:
            scale = 1.0
            for c in run:
                scale *= lang.scales[c]
            out.append(Num(offset + s - 1, offset + e, scale, scale, True, "vague", scale, None, "lower"))
            continue
        parsed = parse_cjk(run, lang)
        if parsed is None:
            continue
        value, low, high = parsed
        if low != high:
            out.append(Num(offset + s, offset + e, low, 1.0, True, "cjk", low, high, "approx"))
        else:
            dec = len(run.split(next(iter(lang.decimal_points), "\0"))[1]) if any(
                p in run for p in lang.decimal_points) else 0
            out.append(Num(offset + s, offset + e, value, 10.0 ** -dec, dec == 0, "cjk"))
    return out


def _vague(text: str, offset: int, lang: Language) -> list[Num]:
    out: list[Num] = []
    forms = cached(lang, "vague_forms", lambda: _longest(lang.vague))
    if not forms:
        return out
    if "vague_re" not in lang.cache:
        alt = "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in forms)
        lang.cache["vague_re"] = with_first_chars(re.compile(f"(?i)\\b(?:{alt})\\b" if not lang.cjk else f"(?:{alt})"))
    for m in lang.cache["vague_re"].finditer(text):
        key = next(f for f in forms if re.fullmatch(re.escape(f).replace(r"\ ", r"\s+"), m.group(0), re.I))
        spec = lang.vague[key]
        out.append(Num(offset + m.start(), offset + m.end(), float(spec["value"]), 1.0, True, "vague",
                       spec.get("low"), spec.get("high"), spec.get("bound", "approx")))
    return out


def words_value(phrase: str, lang: Language) -> float | None:
    """Value of an English number-word phrase: "twenty-four", "four thousand ninety-six", "a dozen"."""
    parts = re.split(r"[\s-]+", phrase.lower().strip())
    total = current = 0.0
    i = 0
    seen = False
    big = False  # the last word was a scale of a thousand or more, closing a group
    while i < len(parts):
        # two-word forms first (a dozen, half a)
        two = " ".join(parts[i:i + 2])
        if len(parts) > i + 1 and two in lang.words:
            current += lang.words[two]
            i += 2
            seen = True
            big = False
            continue
        word = parts[i]
        if word == "and":
            i += 1
            continue
        if word in lang.scales:
            scale = lang.scales[word]
            if big and current == 0:
                total *= scale  # stacked scales: "a billion billion" is 10^18, "a thousand million" 10^9
            else:
                current = (current or 1.0) * scale
                if scale >= 1000:
                    total += current
                    current = 0.0
            big = scale >= 1000
            seen = True
        elif word in lang.words:
            value = lang.words[word]
            if current and not _adds_to(parts[i - 1], current, value, lang):
                return None  # "one eight-GPU server": two numbers side by side, not one
            current += value
            seen = True
            big = False
        else:
            return None
        i += 1
    return total + current if seen else None


def _adds_to(previous: str, current: float, value: float, lang: Language) -> bool:
    """Whether a number word continues the number before it: a unit after a ten ("twenty-four"), or
    anything after a scale word ("a hundred and six", "two hundred twenty")."""
    if previous in lang.scales or previous == "and":
        return True
    last = lang.words.get(previous)
    return last is not None and 20 <= last < 100 and last % 10 == 0 and value < 10 and current % 10 == 0


def _word_step(phrase: str, value: float, lang: Language) -> float:
    """The precision a number in words is written to: its last scale word ("a billion billion" 10^18,
    "two million" 10^6, "four thousand ninety-six" 1); a fraction, a half."""
    if value < 1 or not float(value).is_integer():
        return 0.5
    last = re.split(r"[\s-]+", phrase.lower().strip())[-1]
    if last not in lang.scales:
        return 1.0
    step = 1.0
    while value % (step * 10) == 0 and step * 10 <= value:
        step *= 10
    return step


def _words(text: str, offset: int, lang: Language) -> list[Num]:
    rx = _word_regex(lang)
    if rx is None:
        return []
    out = []
    for m in rx.finditer(text):
        for start, end in _word_numbers(text, m.start(), m.end(), lang):
            value = words_value(text[start:end], lang)
            if value is not None:
                out.append(Num(offset + start, offset + end, value, _word_step(text[start:end], value, lang),
                               float(value).is_integer(), "word"))
    return out


def _word_numbers(text: str, start: int, end: int, lang: Language) -> list[tuple[int, int]]:
    """A run of number words as the numbers it holds: itself when it reads as one ("four thousand
    ninety-six"), else its longest readable prefix and then the rest ("one eight" is 1 and 8)."""
    if words_value(text[start:end], lang) is not None:
        return [(start, end)]
    words = [w.span() for w in re.finditer(r"[^\s-]+", text[start:end])]
    out = []
    i = 0
    while i < len(words):
        j = len(words)
        while j > i + 1 and words_value(text[start + words[i][0]:start + words[j - 1][1]], lang) is None:
            j -= 1
        out.append((start + words[i][0], start + words[j - 1][1]))
        i = j
    return out


def _exponents(text: str, offset: int, lang: Language) -> list[Num]:
    """Powers written out: 10^18, 1e18, 10的18次方, "10 to the 18th power".  The lexicon's patterns name
    the mantissa `m` (default 1), the base `b` (default 10) and the exponent `e`."""
    out = []
    for rx in lang.exponents:
        for m in with_first_chars(rx).finditer(text):
            g = m.groupdict()
            exp = _small_int(g.get("e"), lang)
            if exp is None or exp > 300:
                continue
            mantissa = float(g["m"]) if g.get("m") else 1.0
            base = float(g["b"]) if g.get("b") else 10.0
            value = mantissa * base ** exp
            step = base ** max(exp - _decimals(g.get("m") or ""), 0)  # 1.1e18 is written to 1e17
            out.append(Num(offset + m.start(), offset + m.end(), value, step, True, "exponent"))
    return out


def _dimensions(text: str, offset: int, lang: Language) -> list[Num]:
    """Square sizes: 19×19, 256×256 (the side)."""
    return [Num(offset + m.start(), offset + m.end(), float(m.group("n")), 1.0, True, "dimension")
            for rx in lang.dimensions for m in with_first_chars(rx).finditer(text)]


def _anaphoric(text: str, offset: int, lang: Language) -> list[Num]:
    """"both of them": a number word that counts only before an anaphor (see claims._elided)."""
    if not lang.anaphora_numbers or not lang.anaphora:
        return []
    key = "anaphora_numbers_re"
    if key not in lang.cache:
        words = "|".join(re.escape(w) for w in lang.anaphora_numbers)
        after = "|".join(re.escape(a).replace(r"\ ", r"\s+") for a in lang.anaphora)
        lang.cache[key] = with_first_chars(re.compile(rf"(?i)\b(?:{words})\b(?=\s+(?:{after})\b)"))
    return [Num(offset + m.start(), offset + m.end(), lang.anaphora_numbers[m.group(0).lower()], 1.0, True, "word")
            for m in lang.cache[key].finditer(text)]


def _fractions(text: str, offset: int, lang: Language) -> list[Num]:
    """八分之一 (1/8): numerator over denominator, written in either kind of numeral."""
    out = []
    for rx in lang.fractions:
        for m in with_first_chars(rx).finditer(text):
            d, n = _small_num(m.group("d"), lang), _small_num(m.group("n"), lang)
            if d and n is not None:
                # the denominator is written to the unit: 十三分之一 is 1/12.5-1/13.5
                lo, hi = n / (d + 0.5), (n / (d - 0.5) if d > 0.5 else None)
                out.append(Num(offset + m.start(), offset + m.end(), n / d, 0.0, False, "fraction", lo, hi))
    return out


def _small_num(s: str, lang: Language) -> float | None:
    try:
        return float(s)
    except ValueError:
        pass
    low = s.lower()
    if low in lang.denominators:
        return lang.denominators[low]
    if lang.words:
        return 1.0 if low in lang.indefinite else words_value(low, lang)
    parsed = parse_cjk(s, lang) if lang.digits else None
    return parsed[0] if parsed else None


def _small_int(s: str | None, lang: Language) -> int | None:
    if not s:
        return None
    if s.isdigit():
        return int(s)
    parsed = parse_cjk(s, lang) if lang.digits else None
    return int(parsed[0]) if parsed and float(parsed[0]).is_integer() else None


def _regex_of(lang: Language, key: str, forms, word: bool) -> re.Pattern[str] | None:
    if key not in lang.cache:
        forms = sorted(set(forms), key=lambda f: (-len(f), f))
        if not forms:
            lang.cache[key] = None
        else:
            alt = "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in forms)
            lang.cache[key] = with_first_chars(re.compile(f"(?i)\\b(?:{alt})\\b" if word else f"(?:{alt})"))
    return lang.cache[key]


def _implicit(text: str, offset: int, lang: Language) -> list[Num]:
    """Words that are ratios by themselves: twice, doubled, 翻了一番."""
    out = []
    for word in (True, False):
        forms = [f for f in lang.implicit_ratios if f.isascii() == word]
        rx = _regex_of(lang, f"implicit_re_{word}", forms, word)
        if rx is None:
            continue
        for m in rx.finditer(text):
            key = next(f for f in lang.implicit_ratios if f.lower() == re.sub(r"\s+", " ", m.group(0).lower()))
            out.append(Num(offset + m.start(), offset + m.end(), lang.implicit_ratios[key], 1.0, True, "implicit"))
    return out


def _before_unit(text: str, end: int, lang: Language, kinds: tuple[str, ...] = ("duration", "compute")) -> bool:
    """Whether a unit of one of `kinds` (or a magnitude word) follows `end`, spaces allowed."""
    q = end
    while q < len(text) and text[q] == " ":
        q += 1
    unit_forms = cached(lang, "unit_forms", lambda: _longest(lang.units))
    m = _match_form(text, q, unit_forms)
    if m is not None:
        unit = lang.units.get(m) or next(u for f, u in lang.units.items() if f.lower() == m.lower())
        if unit.kind in kinds:
            return True
    return _match_form(text, q, lang.magnitude_words) is not None


def _indefinite_and_half(text: str, offset: int, lang: Language) -> list[Num]:
    """"a week", "an exaflop", "an order of magnitude" (one); 半分钟, 半小时 (one half)."""
    out = []
    rx = _regex_of(lang, "indefinite_re", lang.indefinite, True)
    if rx is not None:
        for m in rx.finditer(text):
            if _before_unit(text, m.end(), lang):
                out.append(Num(offset + m.start(), offset + m.end(), 1.0, 1.0, True, "indefinite"))
    for h in lang.half:
        for m in _literal(h).finditer(text):
            if _before_unit(text, m.end(), lang) and not (m.start() > 0 and text[m.start() - 1] in lang.classifiers):
                out.append(Num(offset + m.start(), offset + m.end(), 0.5, 0.5, False, "half"))
    return out


def _vague_counted(text: str, offset: int, lang: Language) -> list[Num]:
    """数 / 几 straight before a classifier or unit: 几个月, 数家 (two to nine)."""
    out: list[Num] = []
    if not lang.vague_prefixes:
        return out
    heads = cached(lang, "vague_heads",
                   lambda: _longest(set(lang.classifiers) | {u for u in lang.units if not u.isascii()}))
    for prefix, (lo, hi) in lang.vague_prefixes.items():
        for m in _literal(prefix).finditer(text):
            if _match_form(text, m.end(), heads):
                out.append(Num(offset + m.start(), offset + m.end(), lo, 1.0, True, "vague", lo, hi, "approx"))
    return out


def find_numbers(text: str, offset: int, lang: Language) -> list[Num]:
    """All numbers in `text` (a sentence of the analysis text starting at article offset `offset`),
    non-overlapping, in order.  Vague phrases win over the numerals inside them."""
    found = (_implicit(text, offset, lang) + _vague(text, offset, lang) + _exponents(text, offset, lang)
             + _dimensions(text, offset, lang) + _fractions(text, offset, lang) + _anaphoric(text, offset, lang))
    taken = [(n.start, n.end) for n in found]
    for n in _arabic(text, offset, lang):
        if not any(a < n.end and n.start < b for a, b in taken):
            found.append(n)
            taken.append((n.start, n.end))
    if lang.digits:
        found.extend(_cjk(text, offset, lang, taken))
        taken = [(n.start, n.end) for n in found]
    extra = (_words(text, offset, lang) if lang.words else []) + _indefinite_and_half(text, offset, lang) + (
        _vague_counted(text, offset, lang))
    for n in extra:
        if not any(a < n.end and n.start < b for a, b in taken):
            found.append(n)
            taken.append((n.start, n.end))
    found.sort(key=lambda n: (n.start, -n.end))
    out: list[Num] = []
    for n in found:
        if out and n.start < out[-1].end:
            continue
        out.append(n)
    return out
