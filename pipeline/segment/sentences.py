"""Sentences with offsets, language per sentence.

spaCy blank pipelines with a sentencizer: Chinese through spaCy's jieba segmenter (with our user
dictionary of domain terms), English through spaCy's rule tokenizer, whose exceptions keep "U.S." and
"e.g." whole and whose number handling keeps "0.39" whole.  Each line of an article is a paragraph;
a paragraph goes to the Chinese pipeline when it is mostly CJK, and each sentence then gets its own
language tag, so an English quote inside a Chinese article is tagged "en".

By default (segmenter="lazy") Chinese does not go through the whole pipeline: its sentences are read off the
characters by the sentencizer's rule, and its words are cut by spaCy's jieba segmenter only in the stretches
where extraction asks for a word boundary (jieba_doc.ZhText); the tokens and sentences are the same.
"""

from __future__ import annotations

import bisect
import functools
import logging
import re
import unicodedata
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.lang.loader import Language, Languages, languages
from pipeline.records import Article, Sentence
from pipeline.segment.jieba_doc import ZhText, zh_doc
from pipeline.segment.normalize import analysis_text
from pipeline.settings import SEGMENTERS, Settings


@dataclass(frozen=True)
class Segmented:
    """An article split into sentences, with its analysis text (same length as article.text)."""

    article: Article
    analysis: str
    traditional: bool
    sentences: tuple[Sentence, ...]
    # offsets where a token starts or ends: Chinese nouns must match whole words (人 is not in 人工智能)
    boundaries: Container[int] = frozenset()
    # the language data it was read with, handed on to the later stages (as a spaCy Doc carries its vocab)
    langs: Languages = field(default_factory=languages)


# Everything but CJK ideographs (normalize.is_cjk's ranges), and everything but a superset of the
# str.isalpha() characters (it keeps numerals such as 〇 and ²; _alpha_count checks those): deleting
# them counts a whole text in C rather than character by character.
_NOT_CJK = re.compile("[^\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002fa1f\uf900-\ufaff]+")
_NOT_ALPHA_ISH = re.compile(r"[\W\d_]+")


def _alpha_count(chars: str) -> int:
    return len(chars) if chars.isalpha() else sum(map(str.isalpha, chars))


def _cjk_share(text: str) -> float:
    ideographs = _NOT_CJK.sub("", text)
    cjk = len(ideographs)
    # letters: alphabetic characters that are not CJK ideographs
    letters = _alpha_count(_NOT_ALPHA_ISH.sub("", text)) - _alpha_count(ideographs)
    if cjk + letters == 0:
        return 0.0
    # A CJK character carries about as much as a Latin word: weight letters per ~5.
    return cjk / (cjk + letters / 5)


def sentence_lang(text: str, langs: Languages | None = None, declared: str | None = None) -> str:
    """A sentence's language: the CJK language for a sentence mostly in CJK characters, else the Latin-script
    one (the article's `declared` language where it is one of that script; see Languages.of_sentence)."""
    return (langs or languages()).of_sentence(_cjk_share(text) >= 0.3, declared)


@lru_cache(maxsize=4)
def _jieba_ready(user_dict: Path | None) -> bool:
    import jieba

    from pipeline.segment.jieba_dict import prepare

    jieba.setLogLevel(logging.WARNING)
    prepare(jieba.dt)  # its dictionary memory-mapped, not unmarshalled (1 s of every start-up)
    if user_dict is not None:
        jieba.load_userdict(str(user_dict))
    return True


@lru_cache(maxsize=8)
def get_nlp(lang: Language):
    """The spaCy pipeline for a language, built once per process: spaCy's jieba segmenter where the
    lexicon asks for it, else spaCy's blank pipeline of that language, else its multi-language one."""
    from pipeline.spacy_import import import_spacy

    spacy = import_spacy()
    if lang.segmenter == "jieba":
        _jieba_ready(lang.user_dict)
        nlp = spacy.blank(lang.code, config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
    else:
        try:
            nlp = spacy.blank(lang.code)
        except ImportError:  # spaCy has no rules of its own for this language
            nlp = spacy.blank("xx")
    nlp.add_pipe("sentencizer", config={"punct_chars": list(lang.terminators)})
    return nlp


def _paragraphs(text: str) -> list[tuple[int, int]]:
    spans = []
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        stripped = body.strip()
        if stripped:
            lead = len(body) - len(body.lstrip())
            spans.append((pos + lead, pos + lead + len(stripped)))
        pos += len(line)
    return spans


def _clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# A "sentence" longer than this is not prose (a table flattened into a line, a 100 MB single line): it is
# cut into pieces, so that every claim's `sentence` stays small and no stage works on an unbounded string.
MAX_SENTENCE_CHARS = 2_000


def _good_cut(text: str, j: int) -> bool:
    """A piece may end before text[j]: after a space, or after punctuation that is not inside a number."""
    prev = text[j - 1]
    if prev.isspace():
        return True
    if unicodedata.category(prev).startswith("P"):
        return not (j >= 2 and text[j - 2].isdigit() and j < len(text) and text[j].isdigit())
    return False


def _inside_word(text: str, j: int) -> bool:
    a, b = text[j - 1], text[j]
    return a.isascii() and b.isascii() and (a.isalnum() or a == ".") and (b.isalnum() or b == ".")


def _pieces(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """[start, end) as pieces of at most `limit` characters, cut at a space or punctuation in the second
    half of each piece where there is one (else exactly at the limit)."""
    out = []
    while end - start > limit:
        cut = start + limit
        j = cut
        while j > start + limit // 2 and not _good_cut(text, j):
            j -= 1
        if j > start + limit // 2:
            cut = j
        else:
            # no space or punctuation in the second half: not prose but a run without punctuation, whose
            # claims sit densely; quarter-size pieces keep the linker's work per claim (it weighs every
            # name in the sentence) small.  The cut never splits a number or a Latin word
            cut = start + limit // 4
            while cut > start + limit // 8 and _inside_word(text, cut):
                cut -= 1
        out.append((start, cut))
        start = cut
    out.append((start, end))
    return out


def _tokens_and_sentences(lang: Language, texts: list[str], segmenter: str = "spacy"
                          ) -> Iterator[tuple[Any, list[tuple[int, int]]]]:
    """(token starts, token ends, sentence spans) of each text, as the language's spaCy pipeline has
    them; token offsets are only kept for a language cut into words by jieba (Chinese).  segmenter="jieba"
    takes those straight from jieba's words (pipeline.segment.jieba_doc: the same tokens and sentences,
    checked against spaCy in the tests, without building a Doc), the rest of the article's time unchanged."""
    words = lang.segmenter == "jieba"
    if words and segmenter == "jieba":
        _jieba_ready(lang.user_dict)
        punct = frozenset(lang.terminators)
        for text in texts:
            d = zh_doc(text, punct)
            yield (d.starts, d.ends), d.sentences
        return
    nlp = get_nlp(lang)
    from spacy.attrs import IDX, LENGTH

    for doc in nlp.pipe(texts, batch_size=64):
        sents = [(sent.start_char, sent.end_char) for sent in doc.sents]
        if not words:
            yield ((), ()), sents
            continue
        offsets = doc.to_array([IDX, LENGTH]).tolist()  # arrays, not one Token object per word
        yield ([i for i, _ in offsets], [i + n for i, n in offsets]), sents


def _spacy_words(block: str, lang: Language | None = None) -> list[str]:
    """The words spaCy's jieba segmenter gives one block (no whitespace in it, so they are its tokens
    as they are): its own jieba call, without building the Doc.  Default: the shipped Chinese."""
    nlp = get_nlp(lang or languages()["zh"])
    return [w for w in nlp.tokenizer.jieba_seg.cut(block, cut_all=False) if w]


def _lazy_sentences(texts: list[str], lang: Language) -> Iterator[tuple[ZhText, list[tuple[int, int]]]]:
    """segmenter="lazy": spaCy's sentences read off the characters, words cut when asked for."""
    get_nlp(lang)
    punct = frozenset(lang.terminators)
    cut = functools.partial(_spacy_words, lang=lang)
    for text in texts:
        z = ZhText(text, cut)
        yield z, z.sentences(punct)


class WordBoundaries:
    """`offset in boundaries` for Chinese chunks whose words are cut on demand (segmenter="lazy"): the
    same answers as the set of every token's start and end offsets."""

    def __init__(self, chunks: list[tuple[int, ZhText]]) -> None:
        self._chunks = sorted(chunks, key=lambda c: c[0])
        self._bases = [base for base, _ in self._chunks]

    def __contains__(self, pos: object) -> bool:
        if not isinstance(pos, int):
            return False
        i = bisect.bisect_right(self._bases, pos) - 1
        # a chunk's end may be the next chunk's start: either one's token edge counts
        return any(0 <= pos - base <= len(z.text) and z.is_boundary(pos - base)
                   for base, z in self._chunks[max(0, i - 1):i + 1])

    def __bool__(self) -> bool:
        return bool(self._chunks)


def segment(article: Article, max_paragraph_chars: int = 100_000, segmenter: str = "lazy",
            traditional_threshold: float = Settings.traditional_threshold,
            langs: Languages | None = None) -> Segmented:
    """Sentences of an article, in the languages of `langs` (default: the shipped ones).  Chinese goes
    through spaCy's jieba segmenter: only where a word boundary is asked for (segmenter="lazy", see
    jieba_doc.ZhText), over whole paragraphs (segmenter="spacy"), or through jieba directly with the same
    result (segmenter="jieba", see _tokens_and_sentences).  Text is read as Simplified Chinese when at least
    `traditional_threshold` of its ideographs are Traditional."""
    langs = langs or languages()
    declared = str(article.meta.get("language") or "") or None
    if segmenter not in SEGMENTERS:
        raise ConfigError(f"segmenter must be one of {', '.join(SEGMENTERS)}, not {segmenter!r}")
    ends = frozenset(t for code in langs.codes if langs[code].cjk for t in langs[code].terminators)
    analysis, traditional = analysis_text(article.text, traditional_threshold, ends)
    # A paragraph past max_paragraph_chars (a 100 MB single line) goes to spaCy in pieces of that size,
    # so time and memory grow linearly with the text.
    chunks = [(s2, e2, i) for i, (s, e) in enumerate(_paragraphs(analysis))
              for s2, e2 in _pieces(analysis, s, e, max_paragraph_chars)]
    by_lang: dict[str, list[int]] = {code: [] for code in langs.codes}
    chunk_lang: dict[tuple[int, int], str] = {}  # a one-sentence paragraph needs no second count
    for k, (s, e, _) in enumerate(chunks):
        code = chunk_lang[s, e] = sentence_lang(analysis[s:e], langs, declared)
        by_lang[code].append(k)
    found: list[tuple[int, int, int]] = []  # (start, end, paragraph)
    bounds: set[int] = set()
    lazy: list[tuple[int, ZhText]] = []
    for code, idxs in by_lang.items():
        if not idxs:
            continue
        texts = [analysis[chunks[k][0]:chunks[k][1]] for k in idxs]
        lang = langs[code]
        # (a ZhText, or token starts and ends) and the sentence spans, of each text
        results: Iterator[tuple[Any, list[tuple[int, int]]]]
        if lang.segmenter == "jieba" and segmenter == "lazy":
            results = _lazy_sentences(texts, lang)
        else:
            results = _tokens_and_sentences(lang, texts, segmenter)
        for k, (words, sents) in zip(idxs, results, strict=True):
            base, _, para = chunks[k]
            if isinstance(words, ZhText):
                lazy.append((base, words))
            elif lang.segmenter == "jieba":
                bounds.update(base + i for i in words[0])
                bounds.update(base + i for i in words[1])
            for ss, se in sents:
                for ps, pe in _pieces(analysis, base + ss, base + se, MAX_SENTENCE_CHARS):
                    s, e = _clean_span(analysis, ps, pe)
                    if e > s:
                        found.append((s, e, para))
    found.sort()
    sentences = tuple(
        Sentence(doc=article.doc, index=n, start=s, end=e, text=article.text[s:e],
                 lang=chunk_lang.get((s, e)) or sentence_lang(analysis[s:e], langs, declared), paragraph=p)
        for n, (s, e, p) in enumerate(found)
    )
    return Segmented(article=article, analysis=analysis, traditional=traditional, sentences=sentences,
                     boundaries=WordBoundaries(lazy) if lazy else frozenset(bounds), langs=langs)
