"""What a number measures: the unit, classifier or counted noun after it, ratio markers, partitives.

Works on the analysis text with article offsets.  Every word it looks for comes from the Language
object; the functions here only know the order in which such words appear around a number.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass

from pipeline.extract.numbers import Num, _longest, _match_form, cached
from pipeline.lang.loader import Language, Unit

PUNCT_STOP = set("，。、；：！？,;:!?()（）「」“”\"\n")


# what a count's noun may name that is a whole machine (canonical counted values, not words): after a
# classifier of chips, such a noun is the machine the chips make up
MACHINES = ("system", "host")


# a capitalised Latin name (NVIDIA's, Hopper's: its ending is the language's ratio owner_after)
_NAME = re.compile(r"[A-Z][\w.'’-]*")
# a product's model name: a Latin word with a digit in it or in the word after it (H100, MI300X, TPU v5p)
_MODEL_NAME = re.compile(r"[A-Za-z][A-Za-z-]*(?:[0-9]|[ ]?[A-Za-z-]*[0-9])")

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
    add: float = 0.0  # 一个半小时, a minute and a half: half a unit more
    prefix: bool = False  # the unit was written before the number (百分之九十, $10 million)
    # a hyphenated compound (eight-socket) or a name's plural (eight H100s): what it counts is named, if not known
    compound: bool = False
    range_end: bool = False  # the far end of a range ("from 4 GPUs up to 4096"): its link is no bound


def skip_spaces(text: str, pos: int, limit: int) -> int:
    """The first position from `pos` (before `limit`) that is not a space or tab."""
    while pos < limit and text[pos] in " \t":
        pos += 1
    return pos


class Reader:
    """Reads the phrases around numbers in one sentence of the analysis text."""

    def __init__(self, text: str, lang: Language, sent_start: int, sent_end: int, num_starts: set[int],
                 boundaries: Container[int] = frozenset()):
        self.text = text
        self.lang = lang
        self.s0 = sent_start
        self.s1 = sent_end
        self.latin = not lang.cjk
        self.num_starts = num_starts
        self.boundaries = boundaries
        self.unit_forms = cached(lang, "unit_forms", lambda: _longest(lang.units))
        self.noun_forms = cached(lang, "noun_forms", lambda: _longest(lang.nouns))
        self.compound_forms = cached(lang, "compound_forms", lambda: _longest(lang.compound_units))

    # -- small matchers -------------------------------------------------------------------------
    def match(self, pos: int, forms, glued_ok: bool = False) -> str | None:
        """The longest of `forms` written at `pos` within the sentence; a Latin form may not start inside a word,
        unless glued on (`glued_ok`: threefold)."""
        if pos >= self.s1:
            return None
        m = _match_form(self.text, pos, forms, latin=self.latin, end=self.s1)
        # a Latin form must not start inside a word ("...s"), except a marker glued on (threefold)
        if m and m.isascii() and m[0].isalpha() and pos > 0 and self.text[pos - 1].isascii() and (
                self.text[pos - 1].isalpha()) and not glued_ok:
            return None
        return m

    def unit_at(self, pos: int) -> tuple[str, Unit] | None:
        """The unit form written at `pos`, as written, and its Unit (None: no unit there)."""
        m = self.match(pos, self.unit_forms)
        if m is None:
            return None
        unit = self.lang.units.get(m) or self.lang.units.get(m.lower()) or next(
            u for f, u in self.lang.units.items() if f.lower() == m.lower())
        return m, unit

    def inner_at(self, pos: int) -> tuple[str, str] | None:
        """A bound written inside the phrase at `pos` (三个多星期, 2000余块, 30-odd): (bound, form as written)."""
        for bound, forms in self.lang.bounds_inner.items():
            m = self.match(pos, forms)
            if m:
                return bound, m
        return None

    # -- the quantity after a number -----------------------------------------------------------
    def quantity(self, num: Num) -> Quantity | None:
        """What the number measures (see `_quantity`), with a half unit more for "a minute and a half"."""
        q = self._quantity(num)
        if q is not None and q.kind == "duration":
            # a minute and a half
            half = self.match(skip_spaces(self.text, q.end, self.s1), self.lang.half_after)
            if half:
                end = skip_spaces(self.text, q.end, self.s1) + len(half)
                return Quantity(q.kind, q.unit, q.factor, end, marker=q.marker, unit_key=q.unit_key,
                                inner_bound=q.inner_bound, add=0.5)
        return q

    def classifier_at(self, pos: int) -> str | None:
        """The classifier at `pos`, unless it is the first character of a longer noun ("32节点": 节点 is what
        is counted, not 节)."""
        cls = self.match(pos, self.lang.classifiers)
        if cls:
            own = self.match(pos, self.noun_forms)
            if own and len(own) > len(cls):
                return None
        return cls

    @staticmethod
    def newsworthy(num: Num, q: Quantity) -> bool:
        """"two traps", 几个重要细节: a number in words counts something worth checking only when we know
        what it counts; one in digits is kept whatever it counts (50,000 images)."""
        return not (q.kind == "count" and q.counted in (None, "other") and num.source != "arabic" and not q.compound)

    def prefix_unit(self, num: Num) -> tuple[int, Unit] | None:
        """A unit written before the number: 百分之九十, $10."""
        for form, unit in cached(self.lang, "prefix_units", lambda: sorted(self.lang.prefix_units.items(),
                                                                          key=lambda kv: -len(kv[0]))):
            start = num.start - len(form)
            if start >= self.s0 and self.text[start:num.start] == form:
                return start, unit
        return None

    def _quantity(self, num: Num) -> Quantity | None:
        """What the number measures, read from the words after it (or a unit before it): a ratio, a unit,
        or a count; None when it is no quantity."""
        special = self._special(num)
        if special is not None or num.source in ("fraction", "dimension", "implicit"):
            return special
        p = skip_spaces(self.text, num.end, self.s1)
        hyphen = p == num.end and p + 1 < self.s1 and self.text[p] == "-" and self.text[p + 1].isascii() and (
            self.text[p + 1].isalpha())
        if hyphen:
            p += 1  # 23-second, 2,048-chip
        inner = self.inner_at(p)
        p_in = p + len(inner[1]) if inner else p
        p_in = skip_spaces(self.text, p_in, self.s1)
        ratio = self._ratio(num, p, p_in, inner)
        if ratio is not None:
            return ratio
        found, cls, inner = self._unit(num, p, p_in, inner)
        if found is not None:
            return found
        if num.source in ("indefinite", "half"):
            return None
        return self._count(num, p, p_in, inner, cls, hyphen)

    def _special(self, num: Num) -> Quantity | None:
        """A share (八分之一), a dimension (19×19), an implicit ratio, or a unit written before the number."""
        if num.source == "fraction":  # 缩短为原来的八分之一: a share of something, as a ratio
            return Quantity("ratio", "x", 1.0, num.end, marker=self.text[num.start:num.end],
                            reading_after=("times_as", self.text[num.start:num.end]))
        if num.source == "dimension":  # 19×19: a size, whatever follows
            return Quantity("other", "count", 1.0, num.end, counted="dimension")
        if num.source == "implicit":
            return Quantity("ratio", "x", 1.0, num.end, marker=self.text[num.start:num.end],
                            reading_after=("times_as", self.text[num.start:num.end]))
        pre = self.prefix_unit(num)
        if pre is not None:
            start, unit = pre
            return Quantity(unit.kind, unit.unit, unit.factor, num.end, marker=self.text[start:num.start],
                            unit_key=unit.key, prefix=True)
        return None

    def _ratio(self, num: Num, p: int, p_in: int, inner: tuple[str, str] | None) -> Quantity | None:
        """Orders of magnitude (五个数量级, five orders of magnitude) and ratio markers (倍, x, times, -fold)."""
        lang = self.lang
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
                after = self.reading_after(end)
                if after is None and lang.ratio_owner_after:
                    # "ten times NVIDIA's 0.35-minute record", "four times Hopper's performance": a name's
                    # possessive after the marker names what is multiplied, as "its" does
                    owner = _NAME.match(self.text, skip_spaces(self.text, end, self.s1), self.s1)
                    if owner and owner.group(0).endswith(lang.ratio_owner_after):
                        after = ("times_as", owner.group(0))
                if after is None and marker.lower() in lang.occurrence_markers and num.integer:
                    # "each benchmark is run five times": a count of runs, not a ratio
                    return Quantity("count", "count", 1.0, end, counted="run", marker=marker)
                return Quantity("ratio", "x", 1.0, end, marker=marker, reading_after=after,
                                inner_bound=inner[0] if inner and q == p_in else None)
        return None

    def _unit(self, num: Num, p: int, p_in: int, inner: tuple[str, str] | None
              ) -> tuple[Quantity | None, str | None, tuple[str, str] | None]:
        """A unit after the number (possibly after 个 and an inner bound: 三个多星期), or the first unit of a
        compound duration; else (None, the classifier met, the inner bound as it now stands)."""
        lang = self.lang
        # units, possibly after 个 and an inner bound: 三个多星期
        u = self.unit_at(p_in)
        cls = None
        add = 0.0
        if u is None and lang.classifiers:
            at = p
            cls = self.classifier_at(p)
            if cls is None and p_in != p:  # 100多个PFLOPS: the classifier after an inner bound
                at, cls = p_in, self.classifier_at(p_in)
            if cls:
                q = at + len(cls)
                inner2 = self.inner_at(q)
                if inner2:
                    q += len(inner2[1])
                    inner = inner or inner2
                half = self.match(q, lang.half)
                if half:
                    q += len(half)
                u2 = self.unit_at(skip_spaces(self.text, q, self.s1))
                # 三个多星期, 一个半小时, 100多个PFLOPS: the classifier stands before a unit
                if u2 and u2[1].kind in ("duration", "compute"):
                    u = u2
                    p_in = skip_spaces(self.text, q, self.s1)
                    add = 0.5 if half else 0.0
        if u is None:
            # 1分28秒: a unit that only counts as the first part of a compound duration
            comp = self.match(p_in, self.compound_forms)
            if comp:
                nxt = skip_spaces(self.text, p_in + len(comp), self.s1)
                unit = lang.compound_units[comp]
                if nxt in self.num_starts:
                    return Quantity(unit.kind, unit.unit, unit.factor, p_in + len(comp), marker=comp,
                                    unit_key=unit.key), cls, inner
                half = self.match(p_in + len(comp), lang.half_after)
                if half:  # 十三分半钟, 两分半: the short unit with a half after it
                    return Quantity(unit.kind, unit.unit, unit.factor, p_in + len(comp) + len(half),
                                    marker=comp, unit_key=unit.key, add=0.5), cls, inner
        if u is not None:
            form, unit = u
            end = p_in + len(form)
            end = self.parenthetical(end, unit)
            if unit.kind == "percent":
                inc = self.match(skip_spaces(self.text, end, self.s1), lang.percent_increase)
                if inc:
                    end2 = skip_spaces(self.text, end, self.s1) + len(inc)
                    return Quantity("ratio", "x", 0.01, end2, percent_increase=True, marker=form + " " + inc,
                                    inner_bound=inner[0] if inner else None), cls, inner
            return Quantity(unit.kind, unit.unit, unit.factor, end, marker=form, unit_key=unit.key,
                            inner_bound=inner[0] if inner else None, add=add), cls, inner
        return None, cls, inner

    def _count(self, num: Num, p: int, p_in: int, inner: tuple[str, str] | None, cls: str | None,
               hyphen: bool) -> Quantity | None:
        """What the number counts: a classifier and its noun (Chinese), a noun or a hyphenated compound
        (English), a scaled number or one before a plural; a year before a name counts nothing."""
        lang = self.lang
        end = num.end
        if (end + 1 <= self.s1 and self.text[end:end + 1].isascii() and self.text[end:end + 1].isalpha()
                and not (end + 1 < self.s1 and self.text[end + 1].isascii() and self.text[end + 1].isalnum())):
            return None  # "3D U-Net", "5G": a digit and one letter written together are a name, not a count
        # counts: classifier (+ noun) in Chinese; noun in English
        if cls is None and lang.classifiers:
            cls = self.classifier_at(p_in)
            if cls:
                p = p_in
        if cls:
            return self._classified(num, p, cls, inner)
        year_like = num.source == "arabic" and num.integer and num.step == 1 and 1900 <= num.value <= 2100 and (
            "," not in self.text[num.start:num.end])
        if year_like:
            # a year before a name (2020 AI 开发者大会) counts nothing; "2048 chips", "2048-chip" count chips
            if lang.cjk:
                return None
            own = self.match(p_in, self.noun_forms) if hyphen else None
            if own:
                return Quantity("count", "count", 1.0, p_in + len(own), counted=self._counted(own))
            noun, nstart, nend = (None, -1, -1) if hyphen else self.noun_after(p_in)
            if noun:
                return Quantity("count", "count", 1.0, nend, counted=noun, inner_bound=inner[0] if inner else None)
            return None
        if hyphen:
            # a hyphenated compound counts its own word: "8-GPU server" GPUs, "32-socket cluster" sockets
            word_end = p_in
            while word_end < self.s1 and self.text[word_end].isascii() and self.text[word_end].isalpha():
                word_end += 1
            own = self.match(p_in, self.noun_forms)
            if own and p_in + len(own) == word_end:
                return Quantity("count", "count", 1.0, word_end, counted=self._counted(own),
                                inner_bound=inner[0] if inner else None)
            if word_end - p_in > 1:
                return Quantity("count", "count", 1.0, word_end, counted="other", compound=True)
        noun, nstart, nend = self.noun_after(p_in, direct=lang.cjk)
        if noun:
            return Quantity("count", "count", 1.0, nend, counted=noun, inner_bound=inner[0] if inner else None)
        # 1750 亿, 175 billion parameters, 50,000 images: a scaled number or one before a plural noun
        plural = self.plural_after(p_in)
        if num.step > 1 and num.source == "arabic":
            return Quantity("count", "count", 1.0, plural or num.end, counted="other")
        if plural and num.source in ("arabic", "word", "vague"):
            # "eight H100s": a model number's plural names what it counts (the linker reads which), in words
            # too ("Four CEOs" is no claim)
            return Quantity("count", "count", 1.0, plural, counted="other",
                            compound=any(ch.isdigit() for ch in self.text[p_in:plural]))
        return None

    def _classified(self, num: Num, p: int, cls: str, inner: tuple[str, str] | None) -> Quantity:
        """A count with a classifier (Chinese): what its noun, or the classifier's usual sense, counts."""
        lang = self.lang
        q = p + len(cls)
        inner2 = self.inner_at(q)
        if inner2 and not inner:
            inner = inner2
            q += len(inner2[1])
        # "两款8卡H100机型", "两台8卡服务器": another count right after the classifier is the thing's own
        # attribute; its noun (卡) is not what the first count counts
        noun, nstart, nend = self.noun_after(q) if skip_spaces(self.text, q, self.s1) not in self.num_starts \
            else (None, -1, -1)
        if noun and self.text.startswith(lang.verb_markers, nend):
            noun = None  # "三家提交了成绩": a word read as a verb (提交了) is no noun of the count
        allowed = lang.classifier_counts.get(cls)
        head = self.match(nend, self.noun_forms) if noun and allowed and noun not in allowed else None
        if head and allowed and self._counted(head) in allowed:
            # "9家提交机构": a noun the classifier counts right after another is the compound's head
            noun, nend = self._counted(head), nend + len(head)
        joined = noun and any(j in self.text[q:nstart] for j in lang.noun_joiners)
        sizes = cls in lang.modifier_classifiers  # "8卡成绩": the cards are counted, what they ran is not
        if noun and allowed and noun not in allowed and (noun in MACHINES or joined or sizes):
            # "8卡的DGX-1", "8卡服务器": the cards are counted, the machine named after them is not
            return Quantity("count", "count", 1.0, q, counted=allowed[0],
                            inner_bound=inner[0] if inner else None, classifier=cls)
        # the noun joins the phrase only when it follows at once (4096 块 TPU), not across names
        end = nend if noun and not self.text[q:nstart].strip() else q
        if noun and allowed and noun not in allowed and allowed[0] in MACHINES and self.text[q:nstart].strip():
            # "16台ND96amsr A100 v4虚拟机": a chip's name inside a machine's name after a classifier of
            # machines is the machine's; the count is of machines ("2000 颗輝達 A100 GPU" still counts GPUs)
            noun = allowed[0]
        model = False
        if noun is None:
            allowed = lang.classifier_counts.get(cls)
            noun = self.noun_before(num.start, q, allowed)
            nxt = skip_spaces(self.text, q, self.s1)
            name_follows = nxt < self.s1 and self.text[nxt].isascii() and self.text[nxt].isalpha()
            if noun is None and allowed and not name_follows and cls not in lang.weak_classifiers:
                noun = allowed[0]  # 五项沿用…: the classifier's usual sense; not before a name (2 颗 CPU)
            # "两千块H100", "三百颗TPU v5p": a model number right after the classifier names what is counted
            # (the linker reads which), in words too, as "eight H100s" does
            model = name_follows and _MODEL_NAME.match(self.text, nxt, self.s1) is not None
        return Quantity("count", "count", 1.0, end, counted=noun or "other",
                        inner_bound=inner[0] if inner else None, classifier=cls, compound=model)

    def plural_after(self, pos: int) -> int | None:
        """End of a plural noun right after `pos`, else None: a common noun (images, parameters) or a name's
        plural (768 H100s, 256 IPUs: the linker reads what the name counts), by the language's plural ending."""
        suffix = self.lang.plural_suffix
        if not suffix:
            return None
        end = pos
        while end < self.s1 and self.text[end].isascii() and (self.text[end].isalnum() or self.text[end] == "-"):
            end += 1
        word = self.text[pos:end].rstrip("-")
        if not word.endswith(suffix) or word.endswith(suffix * 2):
            return None
        stem = word[:-len(suffix)]
        if len(word) >= 4 and word.isalpha() and word.islower():
            return pos + len(word)
        if stem[:1].isupper() and (stem[-1].isupper() or stem[-1].isdigit()):
            return pos + len(word)
        return None

    def _counted(self, noun: str) -> str:
        return self.lang.nouns.get(noun) or next(v for k, v in self.lang.nouns.items() if k.lower() == noun.lower())

    def noun_before(self, pos: int, after: int, allowed: tuple[str, ...] | None) -> str | None:
        """What a classifier that ends its phrase counts (GPU 集群规模已达 1.2 万块。 厂商少于 5 家。
        八项中的六项): a noun earlier in the clause that the classifier can count (any noun, the nearest,
        for a general classifier such as 个), else the classifier's usual sense."""
        if not self.lang.cjk:
            return None
        nxt = skip_spaces(self.text, after, self.s1)
        links = {link[0] for link in self.lang.partitive_links}
        if nxt < self.s1 and self.text[nxt] not in PUNCT_STOP and self.text[nxt] not in links:
            return None
        q = pos
        floor = max(self.s0, pos - 16)
        while q > floor and self.text[q - 1] not in PUNCT_STOP and not self.text[q - 1].isdigit():
            q -= 1
        found = []
        i = q
        while i < pos:
            noun = self.match(i, self.noun_forms)
            if noun and (not self.boundaries or self._whole_word(i, i + len(noun))):
                found.append(self._counted(noun))
                i += len(noun)
                continue
            i += 1
        if allowed:
            return next((c for c in found if c in allowed), allowed[0])
        return found[-1] if found else None

    def _whole_word(self, start: int, end: int) -> bool:
        b = self.boundaries
        ok_start = start in b or not self.text[start - 1: start].strip() or self.text[start - 1].isascii()
        ok_end = end in b or end >= self.s1 or self.text[end].isascii()
        return ok_start and ok_end

    def ratio_marker_at(self, pos: int, num: Num) -> str | None:
        """The ratio marker written at `pos` (倍, times, x); a Latin "x" must not run into a word ("x86")."""
        m = self.match(pos, self.lang.ratio_markers, glued_ok=pos == num.end)
        if not m:
            return None
        if m.lower() == "x" and self.latin:
            # "2.7x" or "2.7 x" but not "x86"; a spaced "x" must end the word
            nxt = pos + 1
            if nxt < self.s1 and self.text[nxt].isalnum():
                return None
        return m

    def reading_after(self, pos: int) -> tuple[str, str] | None:
        """How the words after a ratio marker say to read it (ambiguous, times_as, increase_by): (reading, cue)."""
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

    def _past_name(self, pos: int, limit: int) -> int:
        """Past the rest of a name that no noun form covers ("TPU v4 systems": v4), to what follows it."""
        q = pos
        while q < limit:
            end = q
            while end < self.s1 and self.text[end].isascii() and (self.text[end].isalnum() or self.text[end] in "-."):
                end += 1
            word = self.text[q:end]
            if not word or not any(c.isdigit() for c in word) or self.match(q, self.noun_forms):
                break
            q = skip_spaces(self.text, end, self.s1)
        return q

    def noun_after(self, pos: int, direct: bool = False) -> tuple[str | None, int, int]:
        """The counted noun after a number or classifier: first noun form within the window, passing
        over names (TPU v3, 英伟达 A100) but not over punctuation or another number."""
        lang = self.lang
        limit = min(self.s1, pos + lang.noun_window)
        q = pos
        unknown = False
        modified: str | None = None  # what a modifier says is counted ("top results" are records)
        named = False  # a name (A100, TPU v4) passed over
        while q < limit:
            ch = self.text[q]
            if ch in PUNCT_STOP:
                break
            if q in self.num_starts and q != pos:
                break
            noun = self.match(q, self.noun_forms)
            if noun and self.lang.cjk and self.boundaries and not self._whole_word(q, q + len(noun)):
                noun = None
            if noun:
                # compounds are head-final: DGX A100 系统 counts systems, A100 GPUs counts GPUs
                # only a name (A100, TPU) modifies a following noun; 公司提交 is noun + verb
                while any(c.isupper() or c.isdigit() for c in noun):
                    nxt = self._past_name(skip_spaces(self.text, q + len(noun), self.s1), limit)
                    more = self.match(nxt, self.noun_forms)
                    if not more or (self.lang.cjk and self.boundaries and not self._whole_word(nxt, nxt + len(more))):
                        break
                    q, noun = nxt, more
                counted = self._counted(noun)
                if modified and counted == "submission":
                    counted = modified
                return counted, q, q + len(noun)
            if named and lang.cjk and not ch.isspace() and not ch.isascii() and ch not in lang.noun_joiners:
                # "8192块H100完成同一测试": after a model name, a word that is no noun ends the phrase (完成 is a
                # verb; the 测试 after it is what the chips did, not what is counted)
                break
            if direct and not ch.isspace():
                # Chinese without a classifier: the noun must follow at once (4096 TPU芯片, 数以亿计的用户)
                if not (ch.isascii() and ch.isalnum()) and not (q == pos and ch in lang.noun_joiners):
                    break
            if ch.isascii() and ch.isalpha() or (self.latin and ch.isspace()):
                # pass over names (TPU, v3, A100, Nvidia's) and listed modifiers, stop at other words
                if ch.isspace():
                    q += 1
                    continue
                wend = q
                while wend < limit and self.text[wend].isascii() and not self.text[wend].isspace() and (
                        self.text[wend] not in PUNCT_STOP):
                    wend += 1
                word = self.text[q:wend]
                modified = lang.counted_by_modifier.get(word.lower(), modified)
                if any(c.isupper() or c.isdigit() for c in word):
                    named = True
                if not (any(c.isupper() or c.isdigit() for c in word) or word.lower() in lang.modifiers):
                    # one plain word may qualify the noun (six application areas), not two
                    if unknown:
                        break
                    unknown = True
                q = wend
                continue
            q += 1
        return None, -1, -1
