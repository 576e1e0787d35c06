"""Which numbers are not about the story: ads, reference matter after the article, company histories,
and counts of things no benchmark result speaks to (languages, users, devices).  Words come from the
lexicons' `scope` sections; the counted kinds from settings."""

from __future__ import annotations

from pipeline.lang.loader import load_language
from pipeline.records import Claim
from pipeline.segment.sentences import Segmented
from pipeline.settings import Settings

LANGS = ("zh", "en")


def _markers(key: str) -> tuple[str, ...]:
    out: list[str] = []
    for code in LANGS:
        out.extend(load_language(code).scope.get(key, ()))
    return tuple(out)


def reference_start(seg: Segmented) -> int | None:
    """Offset where the article's reference matter begins (a line starting 参考链接 / References)."""
    marks = _markers("section_end")
    for sent in seg.sentences:
        head = seg.analysis[sent.start:sent.end].lstrip("#*-• ").strip()
        if any(head.startswith(m) for m in marks) and len(head) <= max(len(m) for m in marks) + 6:
            return sent.start
    return None


def out_of_scope(seg: Segmented, claims: list[Claim], settings: Settings) -> dict[int, str]:
    """Index of each out-of-scope claim -> the reason, in words."""
    reasons: dict[int, str] = {}
    ref = reference_start(seg)
    paragraphs: dict[int, str] = {}
    for sent in seg.sentences:
        paragraphs[sent.paragraph] = paragraphs.get(sent.paragraph, "") + seg.analysis[sent.start:sent.end]
    para_of = {s.index: s.paragraph for s in seg.sentences}
    ads = [m.lower() for m in _markers("ad_markers")]
    lowered = {p: text.lower() for p, text in paragraphs.items()}
    ad_paragraphs = {p for p, low in lowered.items() if any(m in low for m in ads)}
    history = _markers("history")
    subjects = _markers("in_scope_subjects")
    for i, c in enumerate(claims):
        sentence = seg.analysis[c.sentence_start:c.sentence_start + len(c.sentence)]
        if ref is not None and c.start >= ref:
            reasons[i] = "It appears in the reference matter after the article (links, company boxes, glossary)."
        elif para_of.get(c.sentence_index, -1) in ad_paragraphs:
            reasons[i] = "It appears in an advertisement or promotion, not in the reporting."
        elif c.kind == "date" and any(h in sentence for h in history) and not any(s in sentence for s in subjects):
            reasons[i] = "It dates a company's founding, which is company history, not the benchmark story."
        elif c.kind == "count" and c.counted in settings.off_topic_counted:
            reasons[i] = f"It counts {c.counted}s, which no benchmark result or statement speaks to."
    return reasons
