"""Length-preserving normalisation: the analysis text has exactly the original's length, so every
offset found in it is an offset in the original.

- full-width digits, Latin letters, ％ and ． become ASCII (４０９６ -> 4096); Chinese punctuation stays;
- Traditional Chinese becomes Simplified (opencc t2s) when an article is written in Traditional.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Full-width forms folded to ASCII: digits, letters and the few symbols that occur inside numbers.
_FOLD = {chr(c): chr(c - 0xFEE0) for c in range(0xFF10, 0xFF1A)}
_FOLD.update({chr(c): chr(c - 0xFEE0) for c in range(0xFF21, 0xFF3B)})
_FOLD.update({chr(c): chr(c - 0xFEE0) for c in range(0xFF41, 0xFF5B)})
_FOLD.update({"％": "%", "．": ".", "＋": "+", "－": "-", "／": "/", "\u3000": " ", "\u00a0": " "})


# A text holds none or a few of these: one regex scan finds them, and each is replaced by str.replace (a C
# scan), where str.translate looked every character of a Chinese article up in a table (half a percent of a
# Chinese article's instructions)
_FOLD_ANY = re.compile("[" + "".join(re.escape(c) for c in _FOLD) + "]")


def fold_width(text: str) -> str:
    """Full-width ASCII and spaces folded to their half-width forms (offsets unchanged)."""
    for ch in set(_FOLD_ANY.findall(text)):
        text = text.replace(ch, _FOLD[ch])
    return text


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=1)
def _s2t():
    import opencc

    return opencc.OpenCC("s2t")


def is_cjk(ch: str) -> bool:
    """Whether the character is a CJK ideograph."""
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2FA1F or 0xF900 <= o <= 0xFAFF


# The same ranges as is_cjk, for counting or collecting a whole text's ideographs in one C-level pass.
CJK_RE = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002fa1f\uf900-\ufaff]")


_T2S_CHANGES: dict[str, bool] = {}


def _t2s_changes(ch: str) -> bool:
    """Whether t2s changes the character on its own (asked once per character a process meets)."""
    hit = _T2S_CHANGES.get(ch)
    if hit is None:
        hit = _T2S_CHANGES[ch] = _t2s().convert(ch) != ch
    return hit


def _changed(sample: str, conv) -> int:
    converted = conv.convert(sample)
    if len(converted) != len(sample):
        return sum(1 for c in sample if conv.convert(c) != c)
    return sum(map(str.__ne__, sample, converted))  # same length: characters that differ


def traditional_share(text: str, below: float = 0.0) -> float:
    """How Traditional the text is: the share of CJK characters that t2s changes, counted only when
    Traditional-only characters outnumber Simplified-only ones (昇腾 is Simplified text, though t2s
    turns 昇 into 升).  A share under `below` is answered 0.0 without counting the Simplified side (most
    Simplified text has a character or two that t2s changes, and only the threshold matters then)."""
    return _share(CJK_RE.findall(text), below)


# the ideographs traditional_share() weighs: enough to tell a text's script, however long the text
SHARE_SAMPLE = 5000


def _share(cjk: list[str], below: float, distinct: set[str] | None = None) -> float:
    """traditional_share() of a text whose ideographs are `cjk`; `distinct` is their set, when the caller
    has it (used only while all of `cjk` fits in the sample)."""
    if not cjk:
        return 0.0
    sample = "".join(cjk[:SHARE_SAMPLE])
    if distinct is None or len(cjk) > SHARE_SAMPLE:
        distinct = set(sample)
    if not any(map(_t2s_changes, distinct)):
        # no character t2s changes on its own: Simplified text (what only a phrase changes, 看著 -> 看着,
        # is written with a character t2s changes elsewhere in Traditional text), without converting it
        return 0.0
    trad = _changed(sample, _t2s())
    if trad == 0 or trad / len(sample) < below:  # the Simplified count cannot change the answer
        return 0.0
    simp = _changed(sample, _s2t())
    if trad <= simp:
        return 0.0
    return trad / len(sample)


def written_in(text: str, variant: str) -> bool:
    """Whether `text` is written in a regional variant ("zh-Hant", "zh-Hans"): by its script, since the
    words that differ by region (超微) are the same characters in both."""
    script = variant.rpartition("-")[2]
    if script == "Hant":
        return traditional_share(text) > 0
    if script == "Hans":
        return bool(CJK_RE.search(text)) and traditional_share(text) == 0
    return False


def to_simplified(text: str) -> str:
    """t2s that keeps the length: phrase conversion when it happens to keep it, else per character."""
    converted = _t2s().convert(text)
    if len(converted) == len(text):
        return converted
    out = []
    for ch in text:
        c = _t2s().convert(ch)
        out.append(c if len(c) == 1 else ch)
    return "".join(out)


# A Simplified article may quote a Traditional passage (a repost from Taiwan or Hong Kong): each sentence of
# at least this many ideographs is judged on its own
MIN_PASSAGE_CJK = 6


@lru_cache(maxsize=8)
def _passage_ends(ends: frozenset[str]) -> re.Pattern[str]:
    return re.compile("(?<=" + "|".join(re.escape(e) for e in sorted({*ends, "\n"})) + ")")


def analysis_text(text: str, traditional_threshold: float = 0.03,
                  sentence_ends: frozenset[str] = frozenset()) -> tuple[str, bool]:
    """The text the stages analyse, and whether (any of) it was converted from Traditional Chinese.
    `sentence_ends` (the CJK languages' terminators) cut the passages judged on their own; lines always do."""
    folded = fold_width(text)
    cjk = CJK_RE.findall(folded)  # once: the share and the marked characters are both read off it
    distinct = set(cjk)
    if _share(cjk, traditional_threshold, distinct) >= traditional_threshold:
        return to_simplified(folded), True
    # the characters t2s changes, tested as a set: a character class of them (in a set's order, which moves with
    # the hash seed) was a pattern compiled anew for each such article and never one of re_programs' stored ones
    marked = frozenset([c for c in distinct if _t2s_changes(c)])
    if not marked:
        return folded, False
    # "單節點的DGX-1訓練MiniGo則需要約27分鐘" inside a Simplified article: that sentence is read as Simplified
    # (its units and classifiers are the Simplified lexicon's); the conversion keeps every offset.  Only the
    # sentences holding a character t2s changes are weighed.
    parts = _passage_ends(sentence_ends).split(folded)
    changed = False
    for i, part in enumerate(parts):
        if (not marked.isdisjoint(part) and len(CJK_RE.findall(part)) >= MIN_PASSAGE_CJK
                and traditional_share(part, below=traditional_threshold) >= traditional_threshold):
            parts[i] = to_simplified(part)
            changed = True
    return ("".join(parts), True) if changed else (folded, False)
