"""spaCy's blank Chinese pipeline (jieba tokenizer + sentencizer), computed without building a Doc.

Chinese text becomes one token per word, and spaCy's wrapping of jieba's words (a Doc, its Token
objects, the sentencizer's pass over them) cost about as much as jieba itself.  This module gives the
same tokens and sentences from jieba's words directly, following spacy/lang/zh (ChineseTokenizer with
the jieba segmenter), spacy.util.get_words_and_spaces and spacy/pipeline/sentencizer.pyx:
- whitespace words are dropped; each word is found in the text from the current position, text skipped
  on the way is a token of its own, and one space right after a word is that word's trailing space;
- a sentence ends after a token in `punct_chars`, at the first later token that is neither punctuation
  (every character of Unicode category P*) nor in `punct_chars`;
- a sentence runs from its first token's start to its last token's end.
tests/test_segment.py checks it against spaCy itself.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class ZhDoc:
    starts: list[int]  # token start offsets
    ends: list[int]  # token end offsets (before any trailing space)
    sentences: list[tuple[int, int]]  # (start, end) character offsets


_PUNCT: dict[str, bool] = {}


def _is_punct(word: str) -> bool:
    """spaCy's lexical attribute is_punct (spacy.lang.lex_attrs.is_punct), memoized by word."""
    hit = _PUNCT.get(word)
    if hit is None:
        hit = all(unicodedata.category(c).startswith("P") for c in word)
        if len(_PUNCT) < 100_000:
            _PUNCT[word] = hit
    return hit


def _tokens(words: list[str], text: str) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for word in words:
        if word.isspace():
            continue
        at = text.index(word, pos)
        if at > pos:  # skipped text (whitespace) is a token
            starts.append(pos)
            ends.append(at)
        starts.append(at)
        pos = at + len(word)
        ends.append(pos)
        if pos < len(text) and text[pos] == " ":
            pos += 1
    if pos < len(text):
        starts.append(pos)
        ends.append(len(text))
    return starts, ends


def zh_doc(text: str, punct_chars: Collection[str]) -> ZhDoc:
    """The tokens and sentences spaCy's jieba pipeline gives `text`, without building a Doc."""
    import jieba

    words = [w for w in jieba.cut(text, cut_all=False) if w]
    if "".join("".join(words).split()) != "".join(text.split()):
        raise ValueError(f"jieba's words do not cover the text: {text[:80]!r}")  # as spaCy's E194
    starts, ends = _tokens(words, text)
    sentences: list[tuple[int, int]] = []
    first = 0
    seen_period = False
    for i in range(len(starts)):
        word = text[starts[i]:ends[i]]
        in_punct_chars = word in punct_chars
        if seen_period and not in_punct_chars and not _is_punct(word):
            sentences.append((starts[first], ends[i - 1]))
            first = i
            seen_period = False
        elif in_punct_chars:
            seen_period = True
    if first < len(starts):
        sentences.append((starts[first], ends[-1]))
    return ZhDoc(starts, ends, sentences)


# --------------------------------------------------------------------------------------- computed lazily
#
# jieba cuts a text in blocks: maximal runs of its "han" characters (CJK ideographs, ASCII letters and
# digits, + # & . _ % -) are cut by its dictionary; every other character is a word of its own (a
# whitespace character, or \r\n, too).  So a block's words depend on that block alone, and every offset
# outside the inside of a block is known without jieba.  Sentences only need jieba where a block starts
# with punctuation right after a terminator; word boundaries only inside the blocks asked about (the
# ones around a number and its noun), so most of the text is never cut.


def _han_chars() -> re.Pattern[str]:
    import jieba

    return re.compile(jieba.re_han_default.pattern.strip("()").removesuffix("+"))


@lru_cache(maxsize=8)
def _any_of(forms: frozenset[str]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(f) for f in sorted(forms, key=lambda f: (-len(f), f))))


class ZhText:
    """The tokens and sentences of one text as zh_doc has them, cutting blocks only on demand.

    `cut(block)` gives the words of one block (spaCy's jieba segmenter in the pipeline)."""

    def __init__(self, text: str, cut: Callable[[str], list[str]]) -> None:
        self.text = text
        self._cut = cut
        self._han = _han_chars()
        self._blocks: list[tuple[int, int]] | None = None
        self._edges: dict[int, frozenset[int]] = {}

    def _is_han(self, ch: str) -> bool:
        return self._han.match(ch) is not None

    def _block_at(self, pos: int) -> tuple[int, int]:
        """The block holding text[pos]."""
        if self._blocks is None:
            self._blocks = [m.span() for m in re.finditer(self._han.pattern + "+", self.text)]
        i = bisect.bisect_right(self._blocks, (pos, len(self.text) + 1)) - 1
        return self._blocks[i]

    def _block_edges(self, start: int, end: int) -> frozenset[int]:
        hit = self._edges.get(start)
        if hit is None:
            edges = {start}
            pos = start
            for word in self._cut(self.text[start:end]):
                pos += len(word)
                edges.add(pos)
            if pos != end:
                raise ValueError(f"jieba's words do not cover the text: {self.text[start:end][:80]!r}")
            hit = self._edges[start] = frozenset(edges)
        return hit

    def is_boundary(self, pos: int) -> bool:
        """`pos` is where a token starts or ends (zh_doc's starts and ends)."""
        t, n = self.text, len(self.text)
        if not 0 <= pos <= n or n == 0:
            return False
        left = t[pos - 1] if pos > 0 else ""
        right = t[pos] if pos < n else ""
        if left and right and self._is_han(left) and self._is_han(right):
            return pos in self._block_edges(*self._block_at(pos))
        if (left and not left.isspace()) or (right and not right.isspace()):
            return True  # the edge of a block or of a one-character word
        # inside a run of whitespace: zh_doc's _tokens gives a word the one space after it, and the rest
        # of the run (or all of it, after no word or when it starts with another space) is one token
        r0, r1 = pos, pos
        while r0 > 0 and t[r0 - 1].isspace():
            r0 -= 1
        while r1 < n and t[r1].isspace():
            r1 += 1
        if r0 == 0:
            return pos in (0, r1)
        if t[r0] != " ":
            return pos in (r0, r1)
        if r0 + 1 < r1:
            return pos in (r0, r0 + 1, r1)
        return pos == r0 or (pos == r1 and r1 < n)

    def sentences(self, punct_chars: Collection[str]) -> list[tuple[int, int]]:
        """zh_doc's sentences: the sentencizer's rule, reading tokens off the characters."""
        t, n = self.text, len(self.text)
        if n == 0:
            return []
        terminators = _any_of(frozenset(punct_chars))
        out: list[tuple[int, int]] = []
        first = 0
        pos = 0
        while (m := terminators.search(t, pos)) is not None:
            end, nxt = self._after_terminator(m.end(), punct_chars)
            if nxt is None:
                break
            out.append((first, end))
            first = pos = nxt
        out.append((first, self._last_token_end()))
        return out

    def _after_terminator(self, pos: int, punct_chars: Collection[str]) -> tuple[int, int | None]:
        """(end of the sentence's last token, start of the next sentence's first token, None at the end
        of the text) for a sentence whose terminator ends at `pos`: punctuation tokens stay with it."""
        t, n = self.text, len(self.text)
        end = pos  # the end of the last token taken
        while pos < n:
            ch = t[pos]
            if ch.isspace():
                nxt = pos + 1 if ch == " " else pos  # a single space belongs to the word before it
                if nxt == n:
                    return end, None
                if nxt > pos and not t[nxt].isspace():
                    pos = nxt
                    continue
                return end, nxt  # a whitespace token is not punctuation
            if self._is_han(ch):
                if not _is_punct(ch):
                    return end, pos
                block_end = self._block_at(pos)[1]
                for edge in sorted(e for e in self._block_edges(pos, block_end) if e > pos):
                    if not _is_punct(t[pos:edge]):
                        return end, pos
                    end = pos = edge
                continue
            if ch not in punct_chars and not _is_punct(ch):
                return end, pos
            end = pos = pos + 1
        return end, None

    def _last_token_end(self) -> int:
        t, n = self.text, len(self.text)
        r0 = len(t.rstrip())
        if 0 < r0 == n - 1 and t[r0] == " ":
            return r0  # the last word's own space
        return n
