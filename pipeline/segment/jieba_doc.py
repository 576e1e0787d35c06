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

import unicodedata
from collections.abc import Collection
from dataclasses import dataclass


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
