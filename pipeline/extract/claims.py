"""Numeric claims of an article: numbers + what they measure + bound + ratio reading + interval."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.extract.dates import find_dates
from pipeline.extract.intervals import interval
from pipeline.extract.numbers import Num, find_numbers
from pipeline.extract.quantities import Quantity, Reader, skip_spaces
from pipeline.lang.loader import Language, load_language
from pipeline.records import Claim, Sentence
from pipeline.segment.sentences import Segmented
from pipeline.settings import Settings

CLAUSE_STOP = "，。；;,!?！？：:\n"


@dataclass(frozen=True)
class _Cue:
    kind: str  # bound or reading name
    form: str
    start: int


def blocked_spans(text: str, langs: list[Language]) -> list[tuple[int, int]]:
    """Spans of the analysis text that hold no claim (versions, model names, footnote ids...)."""
    spans: set[tuple[int, int]] = set()
    for lang in langs:
        for rx in lang.not_claims.values():
            for m in rx.finditer(text):
                if m.end() > m.start():
                    spans.add((m.start(), m.end()))
    return sorted(spans)


def _overlaps(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    # spans are sorted; a linear scan is fine for sentence-sized lookups after bisecting
    import bisect

    i = bisect.bisect_left(spans, (s, -1))
    for j in range(max(0, i - 8), min(len(spans), i + 8)):
        a, b = spans[j]
        if a < e and s < b:
            return True
    # long spans (URLs) starting well before s
    return any(a < e and s < b for a, b in spans[: max(0, i - 8)] if b > s)


def _cue_before(text: str, pos: int, floor: int, forms: dict[str, tuple[str, ...]], latin: bool,
                order: tuple[str, ...]) -> _Cue | None:
    """The longest cue (of any kind in `order`) that ends just before `pos` (spaces allowed)."""
    q = pos
    while q > floor and text[q - 1] in " \t":
        q -= 1
    best: _Cue | None = None
    for kind in order:
        for form in forms.get(kind, ()):
            n = len(form)
            if q - n < floor:
                continue
            seg = text[q - n:q]
            if (seg.lower() if latin else seg) != (form.lower() if latin else form):
                continue
            if latin and form[0].isalnum() and q - n > 0 and text[q - n - 1].isalnum():
                continue
            if best is None or n > len(best.form):
                best = _Cue(kind, seg, q - n)
            break
    return best


def _cue_after(text: str, pos: int, limit: int, forms: dict[str, tuple[str, ...]], latin: bool) -> _Cue | None:
    q = skip_spaces(text, pos, limit)
    if latin and q == pos and q < limit and text[q].isalnum():
        return None
    best: _Cue | None = None
    for kind, fs in forms.items():
        for form in fs:
            seg = text[q:q + len(form)]
            if (seg.lower() if latin else seg) == (form.lower() if latin else form):
                end = q + len(form)
                if latin and form[-1].isalnum() and end < limit and text[end].isalnum():
                    continue
                if best is None or len(form) > len(best.form):
                    best = _Cue(kind, seg, q)
                break
    return best


class SentenceExtractor:
    def __init__(self, seg: Segmented, sent: Sentence, lang: Language, blocked: list[tuple[int, int]],
                 settings: Settings, article_year: int | None):
        self.seg = seg
        self.text = seg.analysis
        self.sent = sent
        self.lang = lang
        self.blocked = blocked
        self.settings = settings
        self.article_year = article_year
        self.latin = not lang.cjk

    def run(self) -> list[Claim]:
        s0, s1 = self.sent.start, self.sent.end
        body = self.text[s0:s1]
        claims: list[Claim] = []
        dates = [d for d in find_dates(body, s0, self.lang, self.article_year)
                 if not _overlaps(self.blocked, d.start, d.end)]
        for d in dates:
            claims.append(self._claim(d.start, d.end, "date", d.iso, "date", None, None, "exact", None, None))
        nums = [n for n in find_numbers(body, s0, self.lang)
                if not _overlaps(self.blocked, n.start, n.end)
                and not any(d.start < n.end and n.start < d.end for d in dates)]
        reader = Reader(self.text, self.lang, s0, s1, {n.start for n in nums})
        quantities: list[Quantity | None] = [reader.quantity(n) for n in nums]
        consumed: set[int] = set()
        for i, num in enumerate(nums):
            if i in consumed:
                continue
            q = quantities[i]
            # partitive: 八项…的六项 (total first) / six of the eight benchmarks (part first)
            part = self._partitive(nums, quantities, i, reader)
            if part is not None:
                j, value_num, total_num, end, counted = part
                consumed.add(j)
                claims.append(self._build(value_num, Quantity("count", "count", 1.0, end, counted=counted),
                                          span_start=nums[i].start, of_total=total_num.value))
                continue
            if q is None:
                q = self._coordinated(nums, quantities, i)
                if q is None:
                    continue
            if q.kind != "count" and num.source == "word" and num.value == 1 and q.kind == "ratio":
                continue  # "one times" never occurs as a claim; "once" is not a ratio
            claims.append(self._build(num, q))
        claims.sort(key=lambda c: (c.start, c.end))
        return claims

    # -- partitives and coordination -------------------------------------------------------------
    def _partitive(self, nums, quantities, i, reader: Reader):
        lang, text = self.lang, self.text
        first, q1 = nums[i], quantities[i]
        if i + 1 >= len(nums):
            return None
        second, q2 = nums[i + 1], quantities[i + 1]
        if lang.cjk:
            if q1 is None or q1.kind != "count" or not q1.classifier or q2 is None or q2.classifier != q1.classifier:
                return None
            between = text[first.end:second.start]
            link_ok = any(between.rstrip().endswith(link) for link in lang.partitive_links)
            if not link_ok or any(c in "，。；,;" for c in between) or len(between) > 24:
                return None
            if second.value > first.value:
                return None
            counted = q1.counted if q1.counted != "other" else q2.counted
            return i + 1, second, first, q2.end, counted
        # English: six of the eight benchmarks
        gap = text[first.end:second.start].strip().lower()
        if gap not in {link.lower() for link in lang.partitive_links}:
            return None
        if q2 is None or q2.kind != "count" or first.value > second.value:
            return None
        return i + 1, first, second, q2.end, q2.counted

    def _coordinated(self, nums, quantities, i) -> Quantity | None:
        """2048或4096 TPU芯片, 8 to 4,096 chips: the first number shares the second one's quantity."""
        if i + 1 >= len(nums) or quantities[i + 1] is None:
            return None
        gap = self.text[nums[i].end:nums[i + 1].start].strip()
        forms = {c.lower() for c in self.lang.coordinators}
        if gap.lower() not in forms:
            return None
        q = quantities[i + 1]
        return Quantity(q.kind, q.unit, q.factor, nums[i].end, counted=q.counted, unit_key=q.unit_key,
                        marker=q.marker, magnitude=q.magnitude)

    # -- one claim ---------------------------------------------------------------------------
    def _build(self, num: Num, q: Quantity, span_start: int | None = None, of_total: float | None = None) -> Claim:
        lang, text = self.lang, self.text
        s0, s1 = self.sent.start, self.sent.end
        start = span_start if span_start is not None else num.start
        bound = num.bound or "exact"
        bound_cue = None
        # bound cue before the number (不到, more than), then a reading cue before that (提高了近2倍)
        before = _cue_before(text, start, s0, lang.bounds_before, self.latin, ("upper", "lower", "approx"))
        reading_floor = start
        if before is not None:
            bound, bound_cue = before.kind, before.form
            reading_floor = before.start
            start = before.start
        if q.inner_bound and not before:
            bound, bound_cue = q.inner_bound, "inner"
        end = q.end
        after = _cue_after(text, end, s1, lang.bounds_after, self.latin)
        if after is not None and not before and not q.inner_bound:
            bound, bound_cue = after.kind, after.form
            end = after.start + len(after.form)
        reading = reading_cue = None
        kind, unit, value = q.kind, q.unit, num.value * q.factor
        if q.kind == "ratio":
            rb = _cue_before(text, reading_floor, s0, lang.reading_before, self.latin,
                             ("increase_by", "times_as", "ambiguous"))
            if q.percent_increase:
                reading, reading_cue = "increase_by", q.marker
            elif rb is not None:
                reading, reading_cue = rb.kind, rb.form
                if rb.start >= reading_floor - 4:
                    start = min(start, rb.start)
            elif q.reading_after is not None:
                reading, reading_cue = q.reading_after
            else:
                reading, reading_cue = self._clause_reading(reading_floor) or ("times_as", None)
            if q.magnitude:
                value = 10.0 ** num.value
        elif q.kind == "percent":
            rb = _cue_before(text, reading_floor, s0, lang.reading_before, self.latin, ("increase_by",))
            if rb is not None:
                kind, unit, value = "ratio", "x", num.value / 100.0
                reading, reading_cue = "increase_by", rb.form
                start = min(start, rb.start)
        low, high = interval(num, q, value, bound, kind, self.settings)
        return self._claim(start, end, kind, value, unit, q.counted if kind == "count" else None, of_total,
                           bound, low, high, reading, reading_cue, bound_cue)

    def _clause_reading(self, pos: int) -> tuple[str, str] | None:
        s0 = self.sent.start
        q = pos
        while q > s0 and self.text[q - 1] not in CLAUSE_STOP:
            q -= 1
        clause = self.text[q:pos]
        for reading in ("increase_by", "times_as", "ambiguous"):
            for form in self.lang.reading_clause.get(reading, ()):
                if form and form in clause:
                    return reading, form
        return None

    def _claim(self, start, end, kind, value, unit, counted, of_total, bound, low, high,
               reading=None, reading_cue=None, bound_cue=None) -> Claim:
        article = self.seg.article
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
            value = int(value)
        elif isinstance(value, float):
            value = float(f"{value:.12g}")
        return Claim(
            doc=article.doc, lang=self.sent.lang, sentence=self.sent.text, start=start, end=end,
            text=article.text[start:end], kind=kind, value=value, unit=unit, counted=counted,
            of_total=(int(of_total) if of_total is not None and float(of_total).is_integer() else of_total),
            bound=bound, low=low, high=high, ratio_reading=reading, reading_cue=reading_cue,
            bound_cue=bound_cue, sentence_index=self.sent.index, sentence_start=self.sent.start,
        )


_YEAR = re.compile(r"(\d{4})")


def article_year(meta: dict) -> int | None:
    raw = meta.get("date") if meta else None
    m = _YEAR.search(str(raw)) if raw else None
    return int(m.group(1)) if m else None


def extract_claims(seg: Segmented, settings: Settings | None = None) -> list[Claim]:
    """Every numeric claim of a segmented article, in document order."""
    settings = settings or Settings()
    langs = {code: load_language(code) for code in {s.lang for s in seg.sentences}}
    blocked = blocked_spans(seg.analysis, list(langs.values()))
    year = article_year(seg.article.meta)
    out: list[Claim] = []
    for sent in seg.sentences:
        out.extend(SentenceExtractor(seg, sent, langs[sent.lang], blocked, settings, year).run())
    return out
