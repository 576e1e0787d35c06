"""Sentences with offsets, language per sentence.

spaCy blank pipelines with a sentencizer: Chinese through spaCy's jieba segmenter (with our user
dictionary of domain terms), English through spaCy's rule tokenizer, whose exceptions keep "U.S." and
"e.g." whole and whose number handling keeps "0.39" whole.  Each line of an article is a paragraph;
a paragraph goes to the Chinese pipeline when it is mostly CJK, and each sentence then gets its own
language tag, so an English quote inside a Chinese article is tagged "en".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pipeline.lang.loader import LANG_DIR, load_language
from pipeline.records import Article, Sentence
from pipeline.segment.normalize import analysis_text, is_cjk


@dataclass(frozen=True)
class Segmented:
    """An article split into sentences, with its analysis text (same length as article.text)."""

    article: Article
    analysis: str
    traditional: bool
    sentences: tuple[Sentence, ...]
    # offsets where a token starts or ends: Chinese nouns must match whole words (人 is not in 人工智能)
    boundaries: frozenset[int] = frozenset()


def _cjk_share(text: str) -> float:
    cjk = letters = 0
    for ch in text:
        if is_cjk(ch):
            cjk += 1
        elif ch.isalpha():
            letters += 1
    if cjk + letters == 0:
        return 0.0
    # A CJK character carries about as much as a Latin word: weight letters per ~5.
    return cjk / (cjk + letters / 5)


def sentence_lang(text: str) -> str:
    return "zh" if _cjk_share(text) >= 0.3 else "en"


@lru_cache(maxsize=1)
def _jieba_ready() -> bool:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.load_userdict(str(LANG_DIR / "zh" / "user_dict.txt"))
    return True


@lru_cache(maxsize=4)
def get_nlp(code: str):
    """The spaCy pipeline for a language, built once per process."""
    import spacy

    lang = load_language(code)
    if code == "zh":
        _jieba_ready()
        nlp = spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
    else:
        nlp = spacy.blank(code)
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


def segment(article: Article, max_paragraph_chars: int = 100_000) -> Segmented:
    analysis, traditional = analysis_text(article.text)
    paras = _paragraphs(analysis)
    by_lang: dict[str, list[int]] = {"zh": [], "en": []}
    for i, (s, e) in enumerate(paras):
        by_lang["zh" if _cjk_share(analysis[s:e]) >= 0.3 else "en"].append(i)
    found: list[tuple[int, int, int]] = []  # (start, end, paragraph)
    bounds: set[int] = set()
    for code, idxs in by_lang.items():
        if not idxs:
            continue
        nlp = get_nlp(code)
        texts = []
        for i in idxs:
            s, e = paras[i]
            texts.append(analysis[s:min(e, s + max_paragraph_chars)])
        for i, doc in zip(idxs, nlp.pipe(texts, batch_size=64), strict=True):
            base = paras[i][0]
            if code == "zh":
                for tok in doc:
                    bounds.add(base + tok.idx)
                    bounds.add(base + tok.idx + len(tok.text))
            for sent in doc.sents:
                s, e = _clean_span(analysis, base + sent.start_char, base + sent.end_char)
                if e > s:
                    found.append((s, e, i))
            # A paragraph past the limit (a 100 MB single line) is not sentence-split beyond it:
            # its rest is kept as one span so offsets stay whole, but not run through spaCy.
            if paras[i][1] - base > max_paragraph_chars:
                found.append((base + max_paragraph_chars, paras[i][1], i))
    found.sort()
    sentences = tuple(
        Sentence(doc=article.doc, index=n, start=s, end=e, text=article.text[s:e],
                 lang=sentence_lang(analysis[s:e]), paragraph=p)
        for n, (s, e, p) in enumerate(found)
    )
    return Segmented(article=article, analysis=analysis, traditional=traditional, sentences=sentences,
                     boundaries=frozenset(bounds))


def user_dict_path() -> Path:
    return LANG_DIR / "zh" / "user_dict.txt"
