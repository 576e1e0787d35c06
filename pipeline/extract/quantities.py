"""What a number measures: the unit, classifier or counted noun after it, ratio markers, partitives.

Works on the analysis text with article offsets.  Every word it looks for comes from the Language
object; the functions here only know the order in which such words appear around a number.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.extract.numbers import Num, _match_form
from pipeline.lang.loader import Language, Unit

PUNCT_STOP = set("，。、；：！？,;:!?()（）「」“”\"\n")


@dataclass(frozen=True)
class Quantity:
    kind: str
    unit: str
    factor: float
    end: int  # end of the quantity phrase (unit, marker, classifier, or noun)
    counted: str | None = None
    inner_bound: str | None = None  # 三个多星期, 2000余块, 30-odd
    magnitude: bool = False
    percent_increase: bool = False
    marker: str | None = None  # the ratio marker or unit as written
    reading_after: tuple[str, str] | None = None  # (reading, cue) decided by words after the marker
    classifier: str | None = None
    unit_key: str | None = None


def skip_spaces(text: str, pos: int, limit: int) -> int:
    while pos < limit and text[pos] in " \t":
        pos += 1
    return pos


class Reader:
    """Reads the phrases around numbers in one sentence of the analysis text."""

    def __init__(self, text: str, lang: Language, sent_start: int, sent_end: int, num_starts: set[int]):
        self.text = text
        self.lang = lang
        self.s0 = sent_start
        self.s1 = sent_end
        self.latin = not lang.cjk
        self.num_starts = num_starts
        c = lang.cache
        self.unit_forms = c.setdefault("unit_forms", tuple(sorted(lang.units, key=lambda s: (-len(s), s))))
        self.noun_forms = c.setdefault("noun_forms", tuple(sorted(lang.nouns, key=lambda s: (-len(s), s))))
        self.inner = tuple(f for b in ("lower", "upper", "approx") for f in lang.bounds_inner.get(b, ()))

    # -- small matchers -------------------------------------------------------------------------
    def match(self, pos: int, forms) -> str | None:
        if pos >= self.s1:
            return None
        m = _match_form(self.text[: self.s1], pos, forms, latin=self.latin)
        if m and self.latin and m[0].isalpha() and pos > 0 and self.text[pos - 1].isalpha():
            return None
        return m

    def unit_at(self, pos: int) -> tuple[str, Unit] | None:
        m = self.match(pos, self.unit_forms)
        if m is None:
            return None
        unit = self.lang.units.get(m) or self.lang.units.get(m.lower()) or next(
            u for f, u in self.lang.units.items() if f.lower() == m.lower())
        return m, unit

    def inner_at(self, pos: int) -> tuple[str, str] | None:
        for bound, forms in self.lang.bounds_inner.items():
            m = self.match(pos, forms)
            if m:
                return bound, m
        return None

    # -- the quantity after a number -----------------------------------------------------------
    def quantity(self, num: Num) -> Quantity | None:
        lang = self.lang
        p = skip_spaces(self.text, num.end, self.s1)
        if self.latin and p < self.s1 and self.text[p] == "-" and p == num.end:
            p += 1  # 23-second, 2,048-chip
        inner = self.inner_at(p)
        p_in = p + len(inner[1]) if inner else p
        p_in = skip_spaces(self.text, p_in, self.s1)
        # orders of magnitude (五个数量级, five orders of magnitude)
        for q in {p, p_in}:
            mag = self.match(q, lang.magnitude_words)
            if mag:
                return Quantity("ratio", "x", 1.0, q + len(mag), magnitude=True, marker=mag,
                                inner_bound=inner[0] if inner and q == p_in else None)
        # ratio markers (倍, x, times, -fold)
        for q in {p, p_in}:
            marker = self.ratio_marker_at(q, num)
            if marker:
                end = q + len(marker)
                return Quantity("ratio", "x", 1.0, end, marker=marker, reading_after=self.reading_after(end),
                                inner_bound=inner[0] if inner and q == p_in else None)
        # units, possibly after 个 and an inner bound: 三个多星期
        u = self.unit_at(p_in)
        cls = None
        if u is None and lang.classifiers:
            cls = self.match(p, lang.classifiers)
            if cls:
                q = p + len(cls)
                inner2 = self.inner_at(q)
                if inner2:
                    q += len(inner2[1])
                    inner = inner or inner2
                u2 = self.unit_at(skip_spaces(self.text, q, self.s1))
                if u2 and u2[1].kind == "duration":
                    u = u2
                    p_in = skip_spaces(self.text, q, self.s1)
        if u is not None:
            form, unit = u
            end = p_in + len(form)
            end = self.parenthetical(end, unit)
            if unit.kind == "percent":
                inc = self.match(skip_spaces(self.text, end, self.s1), lang.percent_increase)
                if inc:
                    end2 = skip_spaces(self.text, end, self.s1) + len(inc)
                    return Quantity("ratio", "x", 0.01, end2, percent_increase=True, marker=form + " " + inc,
                                    inner_bound=inner[0] if inner else None)
            return Quantity(unit.kind, unit.unit, unit.factor, end, marker=form, unit_key=unit.key,
                            inner_bound=inner[0] if inner else None)
        # counts: classifier (+ noun) in Chinese; noun in English
        if cls is None and lang.classifiers:
            cls = self.match(p_in, lang.classifiers)
            if cls:
                p = p_in
        if cls:
            q = p + len(cls)
            inner2 = self.inner_at(q)
            if inner2 and not inner:
                inner = inner2
                q += len(inner2[1])
            noun, nstart, nend = self.noun_after(q)
            end = nend if noun and nstart - q <= 8 else q
            return Quantity("count", "count", 1.0, end, counted=noun or "other",
                            inner_bound=inner[0] if inner else None, classifier=cls)
        noun, nstart, nend = self.noun_after(p_in, direct=lang.cjk)
        if noun:
            return Quantity("count", "count", 1.0, nend, counted=noun, inner_bound=inner[0] if inner else None)
        return None

    def ratio_marker_at(self, pos: int, num: Num) -> str | None:
        m = self.match(pos, self.lang.ratio_markers)
        if not m:
            return None
        if m.lower() == "x" and self.latin:
            # "2.7x" or "2.7 x" but not "x86"; a spaced "x" must end the word
            nxt = pos + 1
            if nxt < self.s1 and self.text[nxt].isalnum():
                return None
        return m

    def reading_after(self, pos: int) -> tuple[str, str] | None:
        q = skip_spaces(self.text, pos, self.s1)
        for reading in ("ambiguous", "times_as", "increase_by"):
            m = self.match(q, self.lang.reading_after.get(reading, ()))
            if m:
                return reading, m
        return None

    def parenthetical(self, end: int, unit: Unit) -> int:
        """430千万亿次（PFLOPs）: a bracketed restatement of the same unit belongs to the phrase."""
        if end < self.s1 and self.text[end] in "（(":
            u = self.unit_at(end + 1)
            if u and u[1].key == unit.key:
                close = end + 1 + len(u[0])
                if close < self.s1 and self.text[close] in "）)":
                    return close + 1
        return end

    def noun_after(self, pos: int, direct: bool = False) -> tuple[str | None, int, int]:
        """The counted noun after a number or classifier: first noun form within the window, passing
        over names (TPU v3, 英伟达 A100) but not over punctuation or another number."""
        lang = self.lang
        limit = min(self.s1, pos + lang.noun_window)
        q = pos
        while q < limit:
            ch = self.text[q]
            if ch in PUNCT_STOP:
                break
            if q in self.num_starts and q != pos:
                break
            noun = self.match(q, self.noun_forms)
            if noun:
                counted = lang.nouns.get(noun) or next(v for k, v in lang.nouns.items() if k.lower() == noun.lower())
                return counted, q, q + len(noun)
            if direct and not ch.isspace():
                # Chinese without a classifier: the noun must follow at once (4096 TPU芯片)
                if not (ch.isascii() and ch.isalnum()):
                    break
            if self.latin:
                # pass over names (TPU, v3, A100, Nvidia's) and listed modifiers, stop at other words
                if ch.isspace():
                    q += 1
                    continue
                wend = q
                while wend < limit and not self.text[wend].isspace() and self.text[wend] not in PUNCT_STOP:
                    wend += 1
                word = self.text[q:wend]
                if not (any(c.isupper() or c.isdigit() for c in word) or word.lower() in lang.modifiers):
                    break
                q = wend
                continue
            q += 1
        return None, -1, -1
