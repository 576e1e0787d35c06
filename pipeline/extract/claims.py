"""Numeric claims of an article: numbers + what they measure + bound + ratio reading + interval."""

from __future__ import annotations

import bisect
import itertools
import math
import re
from dataclasses import dataclass
from functools import cached_property

from pipeline.extract.dates import DateMatch, date_patterns, find_dates
from pipeline.extract.intervals import interval
from pipeline.extract.numbers import Num, _match_form, cached, find_numbers
from pipeline.extract.prefilter import Prefilter, Text, prefilter, with_first_chars
from pipeline.extract.quantities import Quantity, Reader, skip_spaces
from pipeline.lang.loader import Language
from pipeline.records import META_DATE_KEYS, Claim, Sentence, evolve
from pipeline.segment.sentences import Segmented
from pipeline.settings import Settings

CLAUSE_STOP = "，。；;,!?！？：:\n"


@dataclass(frozen=True)
class _Cue:
    kind: str  # bound or reading name
    form: str
    start: int


def blocked_spans(text: str, langs: list[Language], offset: int = 0) -> list[tuple[int, int]]:
    """Spans of the analysis text that hold no claim (versions, model names, footnote ids...), as
    article offsets when `text` starts at `offset`."""
    spans: set[tuple[int, int]] = set()
    view = Text(text)
    for rx, may_match in _not_claim_patterns(langs):
        if not may_match(view):  # most patterns need text the article lacks ("@", "第", a digit)
            continue
        for m in rx.finditer(text):
            if m.end() > m.start():
                spans.add((offset + m.start(), offset + m.end()))
    return sorted(spans)


def _not_claim_patterns(langs: list[Language]) -> list[tuple[re.Pattern[str], Prefilter]]:
    def build() -> list[tuple[re.Pattern[str], Prefilter]]:
        patterns: dict[str, re.Pattern[str]] = {}
        for lang in langs:
            patterns.update(lang.not_claims)  # mixed languages share pattern names: run each once
        return [(with_first_chars(rx), prefilter(rx)) for rx in patterns.values()]
    if not langs:
        return []
    return cached(langs[0], "not_claims+" + "+".join(lang.code for lang in langs[1:]), build)


class Blocked:
    """Not-claim spans of an article, asked whether they overlap [s, e): the spans starting before e
    overlap it when the furthest end among them is past s."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self._starts = [a for a, _ in self.spans]
        self._reach = list(itertools.accumulate((b for _, b in self.spans), max))

    def overlaps(self, s: int, e: int) -> bool:
        """Whether any not-claim span overlaps [s, e)."""
        k = bisect.bisect_left(self._starts, e)
        return k > 0 and self._reach[k - 1] > s


def _by_first_char(forms: dict[str, tuple[str, ...]], order: tuple[str, ...]) -> dict[str, tuple[tuple[str, str], ...]]:
    """{first character: ((kind, form), ...)} of the forms that are not ASCII, kinds in `order` and each
    kind's forms in their order: at a position, only the forms that can start there are tried."""
    index: dict[str, list[tuple[str, str]]] = {}
    for kind in order:
        for form in forms.get(kind, ()):
            if form and not form.isascii():
                index.setdefault(form[0], []).append((kind, form))
    return {ch: tuple(pairs) for ch, pairs in index.items()}


_ByLast = dict[str, dict[str, tuple[str, ...]]]
_BY_LAST: dict[tuple[int, tuple[str, ...], bool], tuple[dict, _ByLast]] = {}


def _by_last_char(forms: dict[str, tuple[str, ...]], order: tuple[str, ...], latin: bool) -> _ByLast:
    """{last character: {kind: its forms ending in it, in their order}}, by the forms dict's identity (the
    language data lives as long as the process); a form can only end just before q in text[q - 1]."""
    key = (id(forms), order, latin)
    hit = _BY_LAST.get(key)
    if hit is None or hit[0] is not forms:
        index: dict[str, dict[str, list[str]]] = {}
        for kind in order:
            for form in filter(None, forms.get(kind, ())):
                last = form[-1].lower() if latin else form[-1]
                index.setdefault(last, {}).setdefault(kind, []).append(form)
        hit = _BY_LAST[key] = (forms, {c: {k: tuple(v) for k, v in d.items()} for c, d in index.items()})
    return hit[1]


def _cue_before(text: str, pos: int, floor: int, forms: dict[str, tuple[str, ...]], latin: bool,
                order: tuple[str, ...]) -> _Cue | None:
    """The longest cue (of any kind in `order`) that ends just before `pos` (spaces allowed)."""
    q = pos
    while q > floor and text[q - 1] in " \t":
        q -= 1
    if q <= floor:
        return None
    last = text[q - 1].lower() if latin else text[q - 1]
    candidates = _by_last_char(forms, order, latin).get(last)
    if not candidates:
        return None
    best: _Cue | None = None
    for kind in order:
        for form in candidates.get(kind, ()):
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


class ArticleScan:
    """What an article's sentences share, found once per article: its not-claim spans (each pattern run
    over the whole text, so it sees all the context there is: footnote markers after a full stop, URLs
    that run over a sentence break), and the date patterns its text can match at all (a pattern whose
    required text the article lacks cannot match any of its sentences)."""

    def __init__(self, text: str) -> None:
        self.view = Text(text)
        self._blocked: dict[str, Blocked] = {}
        self._dates: dict[str, list[tuple[str, re.Pattern[str]]]] = {}

    def blocked(self, langs: list[Language]) -> Blocked:
        """The article's not-claim spans under these languages' patterns, found once per set of languages."""
        key = "+".join(lang.code for lang in langs)
        if key not in self._blocked:
            self._blocked[key] = Blocked(blocked_spans(self.view.text, langs))
        return self._blocked[key]

    def dates(self, lang: Language) -> list[tuple[str, re.Pattern[str]]]:
        """The language's date patterns that the article's text can match at all, found once per language."""
        if lang.code not in self._dates:
            self._dates[lang.code] = [(name, rx) for name, rx in date_patterns(lang) if prefilter(rx)(self.view)]
        return self._dates[lang.code]


# the largest magnitude a number may have and still be read (10^30: beyond any count, time or FLOP/s)
MAX_VALUE = 1e30


class SentenceExtractor:
    def __init__(self, seg: Segmented, sent: Sentence, lang: Language, settings: Settings,
                 article_year: int | None, scan: ArticleScan | None = None, article_month: int | None = None,
                 article_iso: str | None = None):
        self.scan = scan or ArticleScan(seg.analysis)
        self.seg = seg
        self.text = seg.analysis
        self.sent = sent
        self.lang = lang
        self.settings = settings
        self.article_year = article_year
        self.article_month = article_month
        self.article_iso = article_iso  # the article's own date to the day (a masthead's stamp)
        self.latin = not lang.cjk
        self.stamps: list = []  # dates that are when a source was published (see _timestamp)
        self.before: list[Claim] = []  # the claims of the sentence before (a count it may continue)
        self.problems: list[dict] = []  # numbers lost with a reason (out of range, an internal error)

    @cached_property
    def blocked(self) -> Blocked:
        """The article's not-claim spans, found once a number or date needs them."""
        # not-claim patterns of every language apply everywhere: an "EPYC 7742" in Chinese is a model name
        return self.scan.blocked(list(self.seg.langs))

    def run(self) -> list[Claim]:
        """The sentence's claims in text order: its dates, and each number that reads as a quantity worth checking;
        a number out of range or whose reading fails is lost with a reason in `problems`."""
        s0, s1 = self.sent.start, self.sent.end
        body = self.text[s0:s1]
        claims: list[Claim] = []
        if not _may_hold_number(body, self.lang):
            return claims
        dates = self._dates(body)
        for d in dates:
            claims.append(self._claim(d.start, d.end, "date", d.iso, "date", None, None, "exact", None, None))
        nums = [n for n in find_numbers(body, s0, self.lang)
                if not self.blocked.overlaps(n.start, n.end)
                and not any(d.start < n.end and n.start < d.end for d in dates + self.stamps)]
        # a number no quantity of this world reaches (a 400-digit "N倍") is lost with a reason, never
        # written as Infinity; the rest of the article goes on
        sane = [n for n in nums if math.isfinite(n.value) and abs(n.value) <= MAX_VALUE]
        for n in nums:
            if n not in sane:
                self._problem(n.start, n.end, f"a number out of range ({n.end - n.start} characters): not read")
        nums = sane
        reader = Reader(self.text, self.lang, s0, s1, {n.start for n in nums}, self.seg.boundaries)
        quantities: list[Quantity | None] = [reader.quantity(n) for n in nums]
        consumed: set[int] = set()
        last_end = s0
        for i, num in enumerate(nums):
            if i in consumed or num.start < last_end:
                continue
            try:
                claim = self._one(i, num, nums, quantities, reader, claims, consumed)
            except Exception as exc:  # noqa: BLE001 - one claim's failure loses that claim, not the article
                self._problem(num.start, num.end, f"internal: {type(exc).__name__}: {exc}"[:200])
                continue
            if claim is None:
                continue
            claims.append(claim)
            last_end = claim.end
        claims.sort(key=lambda c: (c.start, c.end))
        return claims

    def _problem(self, start: int, end: int, reason: str) -> None:
        self.problems.append({"start": start, "end": end, "text": self.seg.article.text[start:end][:80],
                              "reason": reason})

    def _one(self, i, num, nums, quantities, reader, claims, consumed) -> Claim | None:
        """The claim of one number (None: it is no claim)."""
        q = quantities[i]
        part = self._partitive(nums, quantities, i)
        if part is not None:
            j, value_num, total_num, end, counted = part
            consumed.add(j)
            claim = self._build(value_num, Quantity("count", "count", 1.0, end, counted=counted),
                                span_start=nums[i].start, of_total=total_num.value)
        elif (whole := self._far_whole(nums, quantities, i)) is not None:
            # "17家机构提交了205项成绩，其中4家为首次参赛": a part of a group counted earlier in the sentence
            claim = self._build(num, q, of_total=whole.value)
        else:
            elided = False
            if q is None:
                q = self._coordinated(nums, quantities, i) or self._listed(nums, quantities, i)
            if q is None:
                q = self._range_end(nums, quantities, i) or self._table_cell(num)
            if q is None:
                q = self._elided_time(nums, quantities, i)
                elided = q is not None
            if q is None:
                q = self._elided(num, claims)
                elided = q is not None
            if q is None or not (elided or reader.newsworthy(num, q)):
                return None
            either = self._or_next(nums, quantities, i, q)
            if either is not None:
                j, num, q = either
                consumed.update(range(i + 1, j + 1))
            elif q.kind == "duration":
                merged = self._compound(nums, quantities, i, q)
                if merged is not None:
                    j, num, q = merged
                    consumed.update(range(i + 1, j + 1))
            claim = self._build(num, q)
            if elided:
                # what it counts is read from another count, not written: no frame is fixed by it
                claim = evolve(claim, support={"counted": (1, ())})
        prev = claims[-1] if claims else None
        if (prev is not None and claim.kind == "ratio" and prev.kind == "ratio" and prev.ratio_reading
                and claim.reading_cue is None and self.text[prev.end:claim.start].strip().lower()
                in self._lowered("coordinators")):
            # "快了 2.5 倍至 4 倍", "2.5 to 4 times faster": the far end reads like the near one
            claim = evolve(claim, ratio_reading=prev.ratio_reading, reading_cue=prev.reading_cue)
        return claim

    def _dates(self, body: str) -> list[DateMatch]:
        found: list[DateMatch] = []
        for lang in self.seg.langs.others(self.lang.code):
            for d in find_dates(body, self.sent.start, lang, self.article_year, self.scan.dates(lang),
                                self.article_month):
                if self.blocked.overlaps(d.start, d.end) or any(
                        x.start < d.end and d.start < x.end for x in found + self.stamps):
                    continue
                if self._timestamp(d.start, lang) or self._timestamp(d.start, self.lang) or self._dateline(d):
                    self.stamps.append(d)  # no claim, and its digits are no numbers either
                    continue
                found.append(d)
        return sorted(found, key=lambda d: d.start)

    def _lowered(self, name: str) -> frozenset[str]:
        """A list of the language's forms, lowercased, built once per language (asked per number)."""
        return cached(self.lang, "lowered:" + name,
                      lambda: frozenset(f.lower() for f in getattr(self.lang, name)))

    def _dateline(self, d: DateMatch, longest: int = 40) -> bool:
        """The article's own date on a line of its head that holds no sentence ("原创 某某笔记 2022-11-11",
        "【记者综合报导／2023年6月29日】", "*Weekly · Friday, November 14, 2025*"): the page's stamp, whatever
        words its masthead uses, not a claim about what it reports."""
        if not self.article_iso or d.iso != self.article_iso:
            return False
        text = self.seg.article.text
        if d.start >= max(600, len(text) // 8):
            return False
        line_start = text.rfind("\n", 0, d.start) + 1
        line_end = text.find("\n", d.end)
        rest = (text[line_start:d.start] + text[d.end:line_end if line_end >= 0 else len(text)]).strip()
        ends = cached(self.lang, "all_terminators", lambda: frozenset(
            t for lang in self.seg.langs for t in lang.terminators))
        # a sentence ends in a terminator: "2023年6月29日，MLCommons公布了成绩。" is a claim
        return len(rest) <= longest and not any(t in rest for t in ends)

    def _timestamp(self, start: int, lang: Language, window: int = 48) -> bool:
        """A date after a publication cue in its sentence or bracket ("a blog post dated July 29, 2020",
        （转载自…，2021-05-19）) is when a source was published: a timestamp, not a claim."""
        cues = lang.dates.get("publication_cues") or ()
        floor = max(self.sent.start, start - window)
        head = self.text[floor:start]
        cut = max(head.rfind(c) for c in "（([")
        if cut >= 0:
            head = head[cut:]
        head = head.lower()
        return any(c.lower() in head for c in cues)

    def _compound(self, nums, quantities, i, q: Quantity):
        """1 hour 20 minutes, 1分28秒: later parts in smaller units join the first."""
        j = i
        total = nums[i].value * q.factor + q.add * q.factor
        last_num, last_q = nums[i], q
        while j + 1 < len(nums):
            nq = quantities[j + 1]
            gap = self.text[last_q.end:nums[j + 1].start].strip().lower()
            joiners = {"", ","} | {j.lower() for j in self.lang.compound_joiners}
            if nq is None or nq.kind != "duration" or nq.factor >= last_q.factor or gap not in joiners:
                break
            j += 1
            last_num, last_q = nums[j], nq
            total += nums[j].value * nq.factor
        if j == i:
            return None
        merged = Num(nums[i].start, last_num.end, total, last_num.step * last_q.factor, False, "arabic")
        return j, merged, Quantity("duration", "s", 1.0, last_q.end, marker=last_q.marker, unit_key=last_q.unit_key,
                                   inner_bound=last_q.inner_bound)

    # -- partitives and coordination -------------------------------------------------------------
    def _partitive(self, nums, quantities, i):
        lang, text = self.lang, self.text
        first, q1 = nums[i], quantities[i]
        if i + 1 >= len(nums):
            return None
        second, q2 = nums[i + 1], quantities[i + 1]
        if lang.cjk:
            if q1 is None or q1.kind != "count" or not q1.classifier or q2 is None or q2.classifier != q1.classifier:
                return None
            between = text[first.end:second.start]
            # 八项中的六项; 六项中拿下四项 (a verb of winning or taking between the link and the part)
            linked = between.rstrip()
            for verb in lang.partitive_verbs:
                head = linked[: -len(verb)].rstrip()
                if linked.endswith(verb) and any(head.endswith(k) for k in lang.partitive_links):
                    linked = linked[: -len(verb)].rstrip()
                    break
            near = any(linked.endswith(link) for link in lang.partitive_links) and not any(
                c in "，。；,;" for c in between)
            far = any(between.rstrip().endswith(link) for link in lang.far_partitive_links) and not any(
                c in "。；;" for c in between)
            if not (near or far) or len(between) > 24:
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

    def _far_whole(self, nums, quantities, i) -> Num | None:
        """The group a count right after a far partitive link (其中 4 家) is a part of: the nearest earlier
        count of the sentence with the same classifier and no smaller, other counts between allowed."""
        q, lang = quantities[i], self.lang
        if not lang.cjk or q is None or q.kind != "count" or not q.classifier:
            return None
        before = self.text[self.sent.start:nums[i].start].rstrip()
        if not any(before.endswith(link) for link in lang.far_partitive_links):
            return None
        for j in range(i - 1, -1, -1):
            qj = quantities[j]
            if any(c in "。；;" for c in self.text[nums[j].end:nums[i].start]):
                return None
            if qj is not None and qj.kind == "count" and qj.classifier == q.classifier:
                return nums[j] if nums[j].value >= nums[i].value else None
        return None

    def _coordinated(self, nums, quantities, i) -> Quantity | None:
        """2048或4096 TPU芯片, 8 to 4,096 chips: the first number shares the second one's quantity."""
        if i + 1 >= len(nums) or quantities[i + 1] is None:
            return None
        gap = self.text[nums[i].end:nums[i + 1].start].strip()
        forms = self._lowered("coordinators")
        if gap.lower() not in forms:
            return None
        q = quantities[i + 1]
        return Quantity(q.kind, q.unit, q.factor, nums[i].end, counted=q.counted, unit_key=q.unit_key,
                        marker=q.marker, magnitude=q.magnitude)

    def _or_next(self, nums, quantities, i, q: Quantity):
        """"one or two minutes", "a minute or two", "two or three days": a number or the next one up is one
        vague quantity [N, N+1], not two claims (Chinese writes it 一两分钟, read as one numeral)."""
        if not nums[i].integer or nums[i].low is not None or i + 1 >= len(nums):
            return None
        nxt = nums[i + 1]
        if not nxt.integer or nxt.value != nums[i].value + 1 or nxt.value > 20:
            return None
        joiners = self._lowered("either_or")
        if quantities[i] is None and quantities[i + 1] is not None:
            # "one or two minutes": the unit is written once, after the second number
            gap, q2, end = self.text[nums[i].end:nxt.start].strip().lower(), quantities[i + 1], quantities[i + 1].end
        elif quantities[i] is not None and quantities[i + 1] is None and q.end < nxt.start:
            # "a minute or two": the second number comes after the unit
            gap, q2, end = self.text[q.end:nxt.start].strip().lower(), q, nxt.end
        else:
            return None
        if gap not in joiners or q2 is None:
            return None
        v = nums[i].value
        num = Num(nums[i].start, nxt.end, v, 1.0, True, "vague", v, v + 1, "approx")
        return i + 1, num, Quantity(q2.kind, q2.unit, q2.factor, end, counted=q2.counted,
                                    unit_key=q2.unit_key, marker=q2.marker)

    def _listed(self, nums, quantities, i) -> Quantity | None:
        """"8.68, 1.43 and 1.06 minutes": each number of a list takes the quantity written after the last;
        a year (2019, 64 chips) is no member."""
        if _year_like(nums[i], self.text):
            return None
        forms = self._lowered("coordinators") | self._lowered("list_separators")  # "0.39 / 0.28 minutes"
        j = i
        while j + 1 < len(nums):
            gap = self.text[nums[j].end:nums[j + 1].start].strip().lower()
            if gap not in forms and not (gap[:1] in forms and gap[1:].strip() in forms):
                return None
            j += 1
            if quantities[j] is not None:
                q = quantities[j]
                if q.kind in ("date",) or _year_like(nums[j], self.text):
                    return None
                return Quantity(q.kind, q.unit, q.factor, nums[i].end, counted=q.counted, unit_key=q.unit_key,
                                marker=q.marker, magnitude=q.magnitude)
            if _year_like(nums[j], self.text):
                return None
        return None

    def _range_end(self, nums, quantities, i) -> Quantity | None:
        """"from 4 GPUs all the way up to 4096", "8 to 4,096": the far end of a range takes the quantity of
        the near end; the link is no bound of its own (range=True)."""
        if i == 0 or quantities[i - 1] is None:
            return None
        q = quantities[i - 1]
        gap = self.text[q.end:nums[i].start].strip().lower()
        if gap not in self._lowered("range_links"):
            return None
        return Quantity(q.kind, q.unit, q.factor, nums[i].end, counted=q.counted, unit_key=q.unit_key,
                        marker=q.marker, magnitude=q.magnitude, range_end=True)

    def _elided_time(self, nums, quantities, i) -> Quantity | None:
        """A bare number after a word of change or comparison, when the figure it is compared with is a time:
        "in 1.19 minutes, down from 1.49 in June", "24.7 minutes versus 28.2 for the H100" (the unit is
        written once)."""
        lang, text, num = self.lang, self.text, nums[i]
        if lang.cjk or num.source != "arabic" or _year_like(num, text):
            return None
        prior = next((quantities[k] for k in range(i - 1, -1, -1) if quantities[k] is not None), None)
        if prior is None or prior.kind != "duration" or prior.end > num.start:
            return None
        back = num.start
        while back > self.sent.start and text[back - 1] in " \t":
            back -= 1
        head = text[max(self.sent.start, back - 20):back].lower()
        if not any(head.endswith(f.lower()) and (len(head) == len(f) or not head[-len(f) - 1].isalnum())
                   for f in (*lang.elided_from, *lang.elided_time_before)):
            return None
        if any(c in "。；;!?！？\n" for c in text[prior.end:back]):
            return None  # another part's number: "took 3 minutes; from 2019 on, ..."
        return Quantity("duration", prior.unit, prior.factor, num.end, marker=prior.marker, unit_key=prior.unit_key)

    def _elided(self, num: Num, claims: list[Claim]) -> Quantity | None:
        """A count whose noun is left out, read from the count before it in the sentence: "three of them";
        "16 records: eight on a per-chip basis and eight in at-scale training"; "all seven"."""
        lang, text, s1 = self.lang, self.text, self.sent.end
        if lang.cjk or not num.integer or _year_like(num, text) or num.source not in ("arabic", "word"):
            return None
        # the count it continues: one before it in the sentence, else the last of the sentence before
        prior = [c for c in claims if c.kind == "count" and c.end <= num.start] or [
            c for c in self.before if c.kind == "count"]
        counted = prior[-1].counted if prior else self._head_noun(num.start)
        back = num.start
        while back > self.sent.start and text[back - 1] in " \t":
            back -= 1
        s0 = self.sent.start
        change = next((f for f in lang.elided_from if text[max(s0, back - len(f)):back].lower() == f.lower()
                       and (back - len(f) <= s0 or not text[back - len(f) - 1].isalnum())), None)
        if counted is None and change:
            counted = self._head_noun(num.start, anywhere=True)  # "Submissions rose to 650 from 138"
        after = skip_spaces(text, num.end, s1)
        ana = _match_form(text, after, lang.anaphora, latin=True, end=s1)
        if ana:
            return Quantity("count", "count", 1.0, after + len(ana), counted=counted or "other")
        if not counted:
            return None

        def ends_with(forms: tuple[str, ...]) -> str | None:
            return next((f for f in forms if text[max(self.sent.start, back - len(f)):back].lower() == f.lower()
                         and (not f[-1].isalnum() or back - len(f) <= self.sent.start
                              or not text[back - len(f) - 1].isalnum())), None)

        if change:  # "up from nine last July"
            return Quantity("count", "count", 1.0, num.end, counted=counted)
        if ends_with(lang.elided_before) is None:
            return None
        ends_clause = after >= s1 or text[after] in CLAUSE_STOP or text[after] in ".)"
        if not (ends_clause or _match_form(text, after, lang.elided_after, latin=True, end=s1)):
            return None
        return Quantity("count", "count", 1.0, num.end, counted=counted)

    def _table_cell(self, num: Num) -> Quantity | None:
        """A bare number in a Markdown table takes the unit its column's header names
        ("| v0.7 best (minutes) |" over "| 0.46 |")."""
        text = self.text
        ls = text.rfind("\n", 0, num.start) + 1
        le = text.find("\n", num.end)
        le = len(text) if le < 0 else le
        line = text[ls:le]
        if not line.lstrip().startswith("|") or line.count("|") < 3:
            return None
        col = text.count("|", ls, num.start)
        # the header is the first row of the table's block of pipe lines
        top = ls
        while top > 0:
            prev = text.rfind("\n", 0, top - 1) + 1
            if not text[prev:top - 1].lstrip().startswith("|"):
                break
            top = prev
        header_end = text.find("\n", top)
        header = text[top:header_end if header_end >= 0 else len(text)]
        cells = header.split("|")
        if top == ls or col >= len(cells):
            return None
        cell_start = top + sum(len(c) + 1 for c in cells[:col])
        own = self._unit_in(cell_start, cell_start + len(cells[col]), num.end)
        if own is not None:
            return own
        # "| Benchmark (minutes, 8 accelerators) | DGX A100 | DGX H100 |": a unit the row labels' header names is
        # every other column's figures' (not the labels' own: "3D U-Net"); a unit named over one column is that
        # column's only
        label = next((i for i, c in enumerate(cells) if c.strip()), None)
        if label is None or col == label:
            return None
        start = top + sum(len(c) + 1 for c in cells[:label])
        return self._unit_in(start, start + len(cells[label]), num.end)

    def _unit_in(self, start: int, end: int, num_end: int) -> Quantity | None:
        """The unit a table header cell names ("(minutes)", "Minutes", "秒"), as the quantity of a figure."""
        text = self.text
        unit_forms = cached(self.lang, "unit_forms", lambda: tuple(sorted(self.lang.units, key=len, reverse=True)))
        for pos in range(start, end):
            if pos > start and text[pos - 1].isalnum():
                continue
            m = _match_form(text, pos, unit_forms, latin=self.latin, end=end)
            if m:
                unit = self.lang.units.get(m) or next(u for f, u in self.lang.units.items() if f.lower() == m.lower())
                return Quantity(unit.kind, unit.unit, unit.factor, num_end, marker=m, unit_key=unit.key)
        return None

    def _head_noun(self, pos: int, anywhere: bool = False) -> str | None:
        """The noun of a list's head ("NVIDIA counts its records both at scale and per chip: eight on a
        per-chip basis, sixteen in all"): the first count noun before the colon that opens the list; with
        `anywhere`, the first before the number ("Submissions rose to 650")."""
        text, s0 = self.text, self.sent.start
        colon = max(text.rfind(":", s0, pos), text.rfind("：", s0, pos))
        if anywhere and colon < 0:
            colon = pos
        if colon < 0:
            return None
        forms = cached(self.lang, "noun_forms", lambda: tuple(sorted(self.lang.nouns, key=len, reverse=True)))
        found = None
        for i in range(s0, colon):
            if i > s0 and text[i - 1].isalnum():
                continue
            m = _match_form(text, i, forms, latin=True, end=colon)
            if m:
                found = self.lang.nouns.get(m) or next(v for k, v in self.lang.nouns.items() if k.lower() == m.lower())
                break
        return found

    # -- one claim ---------------------------------------------------------------------------
    def _build(self, num: Num, q: Quantity, span_start: int | None = None, of_total: float | None = None) -> Claim:
        lang, text = self.lang, self.text
        s0, s1 = self.sent.start, self.sent.end
        start = span_start if span_start is not None else num.start
        if q.prefix:
            start -= len(q.marker or "")
        bound = num.bound or "exact"
        bound_cue = None
        # bound cue before the number (不到, more than), then a reading cue before that (提高了近2倍)
        before = None if q.range_end else self._bound_before(start, q)
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
        elif not before and not q.inner_bound and q.end > num.end:
            # "50+ partners", "4,000-plus chips": a sign glued to the number bounds the whole phrase
            glued = _cue_after(text, num.end, s1, lang.bounds_after, self.latin)
            if glued is not None and glued.start == num.end and not glued.form[0].isalnum():
                bound, bound_cue = glued.kind, glued.form
        reading = reading_cue = None
        kind, unit, value = q.kind, q.unit, (num.value + q.add) * q.factor
        if q.kind == "ratio":
            rb = _cue_before(text, reading_floor, s0, lang.reading_before, self.latin,
                             ("increase_by", "times_as", "ambiguous"))
            if q.magnitude:
                # "提高近五个数量级": orders of magnitude multiply; there is no N+1 reading
                reading, reading_cue = "times_as", q.marker
                value = 10.0 ** num.value
            elif q.percent_increase:
                reading, reading_cue = "increase_by", q.marker
            elif rb is not None:
                reading, reading_cue = rb.kind, rb.form
                # a verb cue belongs to the phrase (提高了 1.7 倍, 大三倍); 是…的 does not
                if rb.kind != "times_as":
                    start = min(start, rb.start)
                    outer = None if before else self._bound_before(rb.start, q)
                    if outer is not None:  # 最多提高了 2 倍: the bound before the verb
                        bound, bound_cue, start = outer.kind, outer.form, outer.start
            elif q.reading_after is not None:
                reading, reading_cue = q.reading_after
                if reading == "ambiguous":
                    end = skip_spaces(text, end, s1) + len(reading_cue)
            else:
                reading, reading_cue = self._clause_reading(reading_floor) or ("times_as", None)
        elif q.kind == "percent" and q.factor == 1:
            fall = self._decrease(reading_floor, q.end)
            if fall is not None:
                low, high = interval(num, q, value, bound, kind, self.settings)
                return self._decrease_claim(fall, start, end, value, of_total, bound, low, high, bound_cue)
            # 提高了 50%, 快了 30%: a percentage after a change verb is an increase-by ratio
            rb = _cue_before(text, reading_floor, s0, lang.reading_before, self.latin, ("increase_by", "ambiguous"))
            rise = None if rb is not None else self._rise_by(reading_floor)
            if rise is not None:
                low, high = interval(num, q, value, bound, kind, self.settings)
                return self._claim(start, end, "percent", value, "%", None, of_total, bound, low, high,
                                   "increase_by", rise, bound_cue)
            if rb is not None:
                outer = None if before else self._bound_before(rb.start, q)
                if outer is not None:  # 最多提升了 80%: the bound before the verb
                    bound, bound_cue, start = outer.kind, outer.form, outer.start
                low, high = interval(num, q, value, bound, kind, self.settings)
                return self._claim(min(start, rb.start), end, "percent", value, "%", None, of_total, bound, low, high,
                                   "increase_by", rb.form, bound_cue)
        if q.percent_increase:
            # "25% faster": a percent as written (CONTRACT), with the ratio reading it implies (1.25x)
            pq = Quantity("percent", "%", 1.0, q.end)
            low, high = interval(num, pq, num.value, bound, "percent", self.settings)
            return self._claim(start, end, "percent", num.value, "%", None, of_total, bound, low, high, reading,
                               reading_cue, bound_cue)
        low, high = interval(num, q, value, bound, kind, self.settings)
        return self._claim(start, end, kind, value, unit, q.counted if kind == "count" else None, of_total,
                           bound, low, high, reading, reading_cue, bound_cue)

    def _bound_before(self, start: int, q: Quantity) -> _Cue | None:
        """The bound cue before a number: adjacent (不到 30 秒), across a gap word (最多使用 4096 块,
        up to a 2x), or, for a ratio written 是…的N倍, anywhere earlier in the clause (接近上一代的 3 倍)."""
        lang, text, s0 = self.lang, self.text, self.sent.start
        order = ("upper", "lower", "approx")
        cue = _cue_before(text, start, s0, lang.bounds_before, self.latin, order)
        if cue is not None:
            return cue
        gap = _cue_before(text, start, s0, cached(lang, "bound_gap_forms", lambda: {"gap": lang.bound_gap}),
                          self.latin, ("gap",))
        if gap is not None:
            cue = _cue_before(text, gap.start, s0, lang.bounds_before, self.latin, order)
            if cue is not None:
                return cue
        back = start
        while back > s0 and text[back - 1] in " \t":
            back -= 1
        possessive = lang.ratio_possessive
        if q.kind in ("ratio", "percent") and any(text[max(s0, back - len(p)):back] == p for p in possessive):
            start = back
            floor = start
            while floor > s0 and text[floor - 1] not in CLAUSE_STOP and start - floor < 16:
                floor -= 1
            bounds = self.seg.boundaries
            by_first = cached(lang, "bounds_before_by_first", lambda: _by_first_char(lang.bounds_before, order))
            for pos in range(floor, start):
                for kind, form in by_first.get(text[pos], ()):
                    # a whole word only: 超 in 超算 (supercomputer) is no "more than"
                    if text.startswith(form, pos) and (not bounds or (pos in bounds and pos + len(form) in bounds)):
                        return _Cue(kind, form, pos)
        return None

    def _decrease_claim(self, fall: _Cue, start, end, value, of_total, bound, low, high, bound_cue) -> Claim:
        """"45% less time", "a 62% reduction", 缩短了 9%: a percent of how much less, as written (its words
        before or after it included), read later as the share that remains."""
        a = fall.start if fall.kind == "before" else start
        b = fall.start + len(fall.form) if fall.kind == "after" else end
        return evolve(self._claim(min(start, a), max(end, b), "percent", value, "%", None, of_total, bound, low,
                                  high, None, fall.form, bound_cue), change="decrease")

    def _decrease(self, pos: int, end: int) -> _Cue | None:
        """The words that make a percent one of how much less: right after it ("45% less time"), right before
        it (缩短了 9%), or `by` before it with a verb of falling earlier in its clause ("cut its time by 51%")."""
        forms = self.lang.decrease
        if not forms:
            return None
        if forms.get("after"):
            after = _cue_after(self.text, end, self.sent.end, {"after": forms["after"]}, self.latin)
            if after is not None:
                return after
        if forms.get("before"):
            before = _cue_before(self.text, pos, self.sent.start, {"before": forms["before"]}, self.latin, ("before",))
            if before is not None:
                return before
        verb = self._rise_by(pos, forms)
        return _Cue("by", verb, pos) if verb is not None else None

    def _rise_by(self, pos: int, forms: dict[str, tuple[str, ...]] | None = None) -> str | None:
        """The rise verb of "improved on H100 by up to 47%": `by` right before the number (its bound passed)
        and a rise verb (or the verbs of `forms`) earlier in the clause; None otherwise."""
        forms = self.lang.rise_by if forms is None else forms
        if not forms.get("by") or not forms.get("verbs"):
            return None
        by = _cue_before(self.text, pos, self.sent.start, {"by": forms["by"]}, self.latin, ("by",))
        if by is None:
            return None
        q = by.start
        while q > self.sent.start and self.text[q - 1] not in CLAUSE_STOP:
            q -= 1
        clause = self.text[q:by.start].lower() if self.latin else self.text[q:by.start]
        for verb in forms["verbs"]:
            at = clause.find(verb.lower() if self.latin else verb)
            if at >= 0 and not (self.latin and at > 0 and clause[at - 1].isalnum()) and not (
                    self.latin and at + len(verb) < len(clause) and clause[at + len(verb)].isalnum()):
                return verb
        return None

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
        if bound_cue and bound_cue.lower() in self.lang.near_bounds and isinstance(value, (int, float)):
            # "just over four hours": the open end stays within the tolerance of "about"
            spread = abs(value) * self.settings.approx_tolerance
            if bound == "lower" and high is None:
                high = float(f"{value + spread:.12g}")
            elif bound == "upper" and low is None:
                low = float(f"{value - spread:.12g}")
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


def _year_like(num: Num, text: str) -> bool:
    """2019 in "In 2019, 64 chips...": a four-digit whole number that could be a year joins no list."""
    return (num.source == "arabic" and num.integer and 1900 <= num.value <= 2100
            and "," not in text[num.start:num.end])


def _scaled(x, factor):
    return None if x is None else float(f"{x * factor:.12g}")


_YM = re.compile(r"(\d{4})(?:-(\d{2}))?")


def article_year(meta: dict) -> int | None:
    """The year of the article's date: its sidecar's, else the one its date line gives (`date_text`)."""
    return _article_date(meta)[0]


def _article_iso(meta: dict) -> str | None:
    """The article's own date to the day (its sidecar's, else the one its page gives), or None."""
    raw = next((meta[k] for k in (*META_DATE_KEYS, "date_text") if meta.get(k)), None) if meta else None
    m = re.match(r"\d{4}-\d{2}-\d{2}", str(raw)) if raw else None
    return m.group(0) if m else None


def _article_date(meta: dict) -> tuple[int | None, int | None]:
    raw = next((meta[k] for k in (*META_DATE_KEYS, "date_text") if meta.get(k)), None) if meta else None
    m = _YM.search(str(raw)) if raw else None
    if not m:
        return None, None
    return int(m.group(1)), (int(m.group(2)) if m.group(2) else None)


def extract_claims(seg: Segmented, settings: Settings | None = None, problems: list | None = None) -> list[Claim]:
    """Every numeric claim of a segmented article, in document order.  `problems`, when given, receives
    the numbers that were lost and why ({start, end, text, reason})."""
    settings = settings or Settings()
    langs = {code: seg.langs[code] for code in {s.lang for s in seg.sentences}}
    year, month = _article_date(seg.article.meta)
    iso = _article_iso(seg.article.meta)
    out: list[Claim] = []
    scan = ArticleScan(seg.analysis)
    before: list[Claim] = []
    for sent in seg.sentences:
        extractor = SentenceExtractor(seg, sent, langs[sent.lang], settings, year, scan, month, iso)
        extractor.before = before
        before = extractor.run()
        out.extend(before)
        if problems is not None:
            problems.extend(extractor.problems)
    return out


def _may_hold_number(text: str, lang: Language) -> bool:
    """Cheap test before the real work: a digit, a numeral character, or a number word."""
    chars = cached(lang, "numeral_chars", lambda: frozenset(
        "0123456789" + "".join(lang.digits) + "".join(lang.scales) + "".join(lang.half)
        + "".join(f[0] for f in lang.vague) + "".join(lang.vague_prefixes)
        + "".join(f[0] for f in lang.implicit_ratios if not f.isascii())))
    if not chars.isdisjoint(text):
        return True
    if lang.words or lang.indefinite or lang.implicit_ratios:
        return True  # English number words need the word scan
    return False
