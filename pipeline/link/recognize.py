"""Entity mentions in a text, with character offsets: a spaCy EntityRuler over the knowledge base's
aliases, then fuzzy matching (rapidfuzz) for misspelt names.

Tokenization: `spacy.blank("en")` with one change -- every CJK character is a token of its own.  Latin
words stay whole, so an alias only matches whole words ("vert" in "convert" is not a token, "SSD" in
"SSDs" is not "SSD"), while a Chinese alias matches anywhere inside a run of characters (谷歌 in 谷歌的),
which is what Chinese needs: it has no spaces, and a word segmenter would split names its dictionary
does not know.  Spaces between a Chinese name and digits do not matter (昇腾910 = 昇腾 910: both are the
tokens 昇 腾 910).  The text is folded first (full-width -> half-width, Traditional -> Simplified, one
character for one character) so offsets stay those of the original.

Case: most aliases are phrase patterns on LOWER; aliases that are also ordinary words or names when
written otherwise (BERT vs "Bert Smith", JAX, SSD) are token patterns on ORTH.  The EntityRuler keeps the
longest of overlapping matches (Cloud TPU v3 Pod over TPU v3).  Vetoes (SSD before "drive", 浪潮 after
发展) and context-only aliases ("Research" right after a round) are checked after the ruler.

Fuzzy: a Latin token that no alias matched, that looks like a name (capitals, digits, or long), may link
to a single-token alias at edit distance 1 (2 for names of 10+ characters).  Edits may not change a digit
into another digit or add/drop one (A100 is never H100 or A10); the only digit edit allowed is a digit
lost to punctuation ("v-.7" -> v0.7).  Names shorter than 4 characters never link fuzzily, and tokens in
linking.yaml `fuzzy.never` never do.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from pipeline.link.kb import Alias, KnowledgeBase, fold, load_kb

# Ranges of characters that are one token each: CJK ideographs, CJK punctuation, full-width forms.
CJK_CHAR = r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe6f\uff00-\uffef]"
# ASCII punctuation that Chinese text writes without spaces ("Pod(1024", "v3,ResNet") splits a token too;
# a comma before a digit stays (2,048).
SPLIT_PUNCT = [r"[()\[\]{};]", r",(?![0-9])"]


@dataclass(frozen=True)
class Mention:
    type: str  # org, accelerator, system, benchmark, framework, round, category (or a NER type)
    id: str | None  # canonical id; None for a family mention ("TPU") not yet resolved
    start: int  # character offsets in the text given (plus the offset given)
    end: int
    text: str  # as written in the original text
    confidence: float
    how: str  # alias, cased, context, description, generic, fuzzy, ner (attach adds date, relative)
    family: str | None = None  # for a generic mention: the family's entry id


@dataclass(frozen=True)
class Cue:
    keys: frozenset[str]  # what the phrase signals (see pipeline.link.rules)
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Analysis:
    mentions: tuple[Mention, ...]
    cues: tuple[Cue, ...]


def _blank_nlp() -> Any:
    """spacy.blank("en")'s punctuation rules with CJK characters split into single tokens.

    The tokenizer is rebuilt once, without English's ~5,000 special cases (don't, a.m., emoticons): they
    never change where a name starts or ends, and reloading them for each rule we replace was most of
    the start-up time (0.9 s of 1.4 s)."""
    import spacy
    from spacy.tokenizer import Tokenizer
    from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

    nlp = spacy.blank("en")
    d = nlp.Defaults
    prefixes, suffixes, infixes = list(d.prefixes or []), list(d.suffixes or []), list(d.infixes or [])
    nlp.tokenizer = Tokenizer(
        nlp.vocab,
        rules={},
        prefix_search=compile_prefix_regex([*prefixes, CJK_CHAR]).search,
        suffix_search=compile_suffix_regex([*suffixes, CJK_CHAR]).search,
        infix_finditer=compile_infix_regex([*infixes, CJK_CHAR, *SPLIT_PUNCT]).finditer,
        url_match=None,
    )
    return nlp


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def vetoed(text: str, start: int, end: int, before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    """True when the text right before the span ends with a `before` form or the text right after starts
    with an `after` form (spaces skipped; a Latin form must be a whole word)."""
    left = text[:start].rstrip().lower()
    right = text[end:].lstrip().lower()
    for form in before:
        f = fold(form).lower()
        if left.endswith(f) and not (_latin(f[0]) and len(left) > len(f) and _latin(left[-len(f) - 1])):
            return True
    for form in after:
        f = fold(form).lower()
        if right.startswith(f) and not (_latin(f[-1]) and len(right) > len(f) and _latin(right[len(f)])):
            return True
    return False


def _name_like(tok: str) -> bool:
    """A token that may be a misspelt name: Latin, with a letter, and capitals, digits or length."""
    if not tok.isascii() or not any(c.isalpha() for c in tok):
        return False
    return (any(c.isdigit() for c in tok) or (tok.isupper() and len(tok) >= 3)
            or any(c.isupper() for c in tok[1:]) or len(tok) >= 6)


def _digit_safe(cand: str, alias: str) -> bool:
    """Edits that turn `cand` into `alias` keep every digit: model codes differ by one digit (A10, A100,
    H100; v0.6, v0.7).  Allowed: edits among punctuation, and a digit of the alias written as punctuation."""
    if not any(c.isdigit() for c in cand + alias):
        return True
    for op in Levenshtein.editops(cand, alias):
        src = cand[op.src_pos] if op.tag != "insert" else ""
        dst = alias[op.dest_pos] if op.tag != "delete" else ""
        if op.tag == "replace" and dst.isdigit() and not src.isalnum():
            continue
        if not src.isalnum() and not dst.isalnum():
            continue
        if src.isdigit() or dst.isdigit() or any(c.isdigit() for c in alias):
            return False
    return True


class Recognizer:
    """The compiled matcher for one knowledge base (built once; `get_recognizer` caches it on the KB)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        from spacy.matcher import PhraseMatcher

        self.kb = kb
        self.rules = kb.linking
        self._memo: OrderedDict[tuple[str, int], Analysis] = OrderedDict()
        self.nlp = _blank_nlp()
        ruler = self.nlp.add_pipe("entity_ruler", config={"phrase_matcher_attr": "LOWER"})
        patterns: list[dict[str, Any]] = []
        self.forms: dict[tuple[str, str, tuple[str, ...]], Alias] = {}
        for a in kb.aliases:
            tokens = [t.text for t in self.nlp.make_doc(fold(a.text))]
            key = (a.type, a.id, tuple(t.lower() for t in tokens))
            # a listed name outranks the same tokens listed as a description or context form
            if key not in self.forms or a.kind in ("alias", "cased", "generic"):
                self.forms[key] = a
            pattern: Any = [{"ORTH": t} for t in tokens] if a.kind == "cased" else fold(a.text)
            patterns.append({"label": a.type, "pattern": pattern, "id": a.id})
        ruler.add_patterns(patterns)

        self.cue_matcher = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.cue_keys: dict[str, set[str]] = {}
        for phrase, keys in self.rules.cues.items():
            label = fold(phrase).lower()
            self.cue_keys.setdefault(label, set()).update(keys)
            self.cue_matcher.add(label, [self.nlp.make_doc(fold(phrase))])

        # fuzzy candidates: single-token names of the fuzzy types
        self.fuzzy_cased: dict[str, Alias] = {}
        self.fuzzy_caseless: dict[str, Alias] = {}
        for a in kb.aliases:
            entry = kb.get(a.type, a.id)
            if (a.kind in ("alias", "cased") and a.type in self.rules.fuzzy_types and entry is not None
                    and entry.fuzzy and len(fold(a.text)) >= self.rules.fuzzy_min_len
                    and len(self.nlp.make_doc(fold(a.text))) == 1):
                if a.kind == "cased":
                    self.fuzzy_cased[fold(a.text)] = a
                else:
                    self.fuzzy_caseless[fold(a.text).lower()] = a

    # ------------------------------------------------------------------------------------------ matching

    def analyze(self, text: str, offset: int = 0) -> Analysis:
        """Cached: linking and reconciliation both ask about every sentence, and spaCy is the cost."""
        key = (text, offset)
        hit = self._memo.get(key)
        if hit is not None:
            self._memo.move_to_end(key)
            return hit
        result = self._analyze(text, offset)
        self._memo[key] = result
        if len(self._memo) > 4096:
            self._memo.popitem(last=False)
        return result

    def _analyze(self, text: str, offset: int) -> Analysis:
        folded = fold(text)
        doc = self.nlp(folded)
        conf = self.rules.confidence
        mentions: list[Mention] = []
        covered: set[int] = set()
        for ent in doc.ents:
            covered.update(range(ent.start, ent.end))
            a = self.forms.get((ent.label_, ent.ent_id_, tuple(t.lower_ for t in ent)))
            entry = self.kb.get(ent.label_, ent.ent_id_)
            if a is None or entry is None:
                continue
            if vetoed(folded, ent.start_char, ent.end_char, entry.veto_before, entry.veto_after):
                continue
            mentions.append(self._mention(a, ent.start_char, ent.end_char, text, conf[a.kind]))
        mentions += self._fuzzy(doc, folded, text, covered)
        mentions.sort(key=lambda m: m.start)
        mentions = self._check_context(mentions, folded)
        shifted = tuple(Mention(m.type, m.id, m.start + offset, m.end + offset, m.text, m.confidence, m.how,
                                m.family) for m in mentions)
        return Analysis(shifted, self._cues(doc, folded, text, offset))

    def _mention(self, a: Alias, start: int, end: int, text: str, confidence: float, how: str | None = None
                 ) -> Mention:
        generic = a.kind == "generic"
        return Mention(a.type, None if generic else a.id, start, end, text[start:end], confidence,
                       how or a.kind, a.id if generic else None)

    def _fuzzy(self, doc: Any, folded: str, text: str, covered: set[int]) -> list[Mention]:
        out: list[Mention] = []
        r = self.rules
        for tok in doc:
            word = tok.text
            if tok.i in covered or word in r.fuzzy_never or not _name_like(word):
                continue
            best: tuple[int, float, Alias] | None = None
            for query, choices in ((word, self.fuzzy_cased), (word.lower(), self.fuzzy_caseless)):
                for form, dist, _ in process.extract(query, list(choices), scorer=Levenshtein.distance,
                                                     score_cutoff=2, limit=5):
                    allowed = 2 if len(form) >= r.fuzzy_long_len else 1
                    if dist == 0 or dist > allowed or not _digit_safe(query, form):
                        continue
                    sim = 1.0 - dist / max(len(form), len(query))
                    if best is None or (dist, -sim) < (best[0], -best[1]):
                        best = (dist, sim, choices[form])
            if best is None:
                continue
            a = best[2]
            entry = self.kb.get(a.type, a.id)
            start, end = tok.idx, tok.idx + len(word)
            if entry is None or vetoed(folded, start, end, entry.veto_before, entry.veto_after):
                continue
            out.append(self._mention(a, start, end, text, round(best[1] * r.confidence["fuzzy"], 3), "fuzzy"))
        return out

    def _check_context(self, mentions: list[Mention], folded: str) -> list[Mention]:
        """A context-only form ("Research") stands only right after a mention of the type it needs."""
        out: list[Mention] = []
        for m in mentions:
            if m.how == "context":
                a = self.kb.lookup(folded[m.start:m.end], m.type)
                need = a.after if a is not None else None
                prev = out[-1] if out else None
                if (prev is None or prev.type != need or folded[prev.end:m.start].strip()):
                    continue
            out.append(m)
        return out

    def _cues(self, doc: Any, folded: str, text: str, offset: int) -> tuple[Cue, ...]:
        spans = [(s, e, self.nlp.vocab.strings[mid]) for mid, s, e in self.cue_matcher(doc)]
        out: list[Cue] = []
        taken: list[tuple[int, int, set[str]]] = []
        for s, e, label in sorted(spans, key=lambda x: (-(x[1] - x[0]), x[0])):
            cs, ce = doc[s].idx, doc[e - 1].idx + len(doc[e - 1])
            kinds = {k.split(":")[0] for k in self.cue_keys[label]}
            if any(ts <= cs and ce <= te and kinds & tk for ts, te, tk in taken):
                continue  # 比 inside 相比于: the longer phrase of the same kind is the cue
            before, after = self.rules.cue_veto.get(label, ((), ()))
            if vetoed(folded, cs, ce, before, after):
                continue
            taken.append((cs, ce, kinds))
            out.append(Cue(frozenset(self.cue_keys[label]), cs + offset, ce + offset, text[cs:ce]))
        return tuple(sorted(out, key=lambda c: c.start))


def get_recognizer(kb: KnowledgeBase | None = None) -> Recognizer:
    """The recognizer of `kb` (default: the shipped KB), built on first use and kept on the KB."""
    kb = kb or load_kb()
    rec = kb.cache.get("recognizer")
    if rec is None:
        rec = kb.cache["recognizer"] = Recognizer(kb)
    return rec


def analyze(text: str, kb: KnowledgeBase | None = None, offset: int = 0) -> Analysis:
    """Mentions and cues in `text`; offsets are `offset` + offsets in `text`."""
    return get_recognizer(kb).analyze(text, offset)


def recognize(text: str, kb: KnowledgeBase | None = None, offset: int = 0) -> list[Mention]:
    """The entity mentions in `text` (KB aliases and fuzzy matches), in text order."""
    return list(analyze(text, kb, offset).mentions)
