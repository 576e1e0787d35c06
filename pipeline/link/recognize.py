"""Entity mentions in a text, with character offsets: the knowledge base's aliases matched over spaCy
tokens with an EntityRuler's rules (Recognizer), then fuzzy matching (rapidfuzz) for misspelt names.

Tokenization: `spacy.blank("en")` with one change -- every CJK character is a token of its own, and the
text between two of them is tokenized as a text of its own.  Latin words stay whole, so an alias only
matches whole words ("vert" in "convert" is not a token, "SSD" in "SSDs" is not "SSD"), while a Chinese
alias matches anywhere inside a run of characters (谷歌 in 谷歌的), which is what Chinese needs: it has no
spaces, and a word segmenter would split names its dictionary does not know.  Spaces between a Chinese
name and digits do not matter (昇腾910 = 昇腾 910: both are the tokens 昇 腾 910), and neither do quotes or
brackets around a Latin name inside Chinese text (在“GPT-3”上: spaCy alone, seeing one chunk of text with
no space, splits the CJK characters off as infixes and leaves “GPT-3” one token).  The text is folded
first (full-width -> half-width, Traditional -> Simplified, one character for one character) so offsets
stay those of the original.

Case: most aliases are phrase patterns on LOWER; aliases that are also ordinary words or names when
written otherwise (BERT vs "Bert Smith", JAX, SSD) are token patterns on ORTH.  The EntityRuler keeps the
longest of overlapping matches (Cloud TPU v3 Pod over TPU v3).  Vetoes (SSD before "drive", 浪潮 after
发展) and context-only aliases ("Research" right after a round) are checked after the ruler.

Fuzzy: a Latin token that no alias matched, that looks like a name (capitals, digits, or long; never a
word of lowercase letters only, which is an ordinary word: "popular" is no misspelt Poplar), may link
to a single-token alias at edit distance 1 (2 for names of 10+ characters).  Edits may not change a digit
into another digit or add/drop one (A100 is never H100 or A10); the only digit edit allowed is a digit
lost to punctuation ("v-.7" -> v0.7).  Names shorter than 4 characters never link fuzzily, and tokens in
linking.yaml `fuzzy.never` never do.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from pipeline.link.kb import Alias, KnowledgeBase, alias_key, fold, load_kb
from pipeline.segment.normalize import written_in

# Ranges of characters that are one token each: CJK ideographs, CJK punctuation, full-width forms.
CJK_CHAR = r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe6f\uff00-\uffef]"
# ASCII punctuation that Chinese text writes without spaces ("Pod(1024", "v3,ResNet") splits a token too,
# and so do Markdown's emphasis and code marks ("**v3.0**"); a comma before a digit stays (2,048).
SPLIT_PUNCT = [r"[()\[\]{};*`]", r",(?![0-9])"]


@dataclass(frozen=True, init=False)
class Mention:
    type: str  # org, accelerator, system, benchmark, framework, round, category (or a NER type)
    id: str | None  # canonical id; None for a family mention ("TPU") not yet resolved
    start: int  # character offsets in the text given (plus the offset given)
    end: int
    text: str  # as written in the original text
    confidence: float
    how: str  # alias, cased, context, description, generic, fuzzy, ner (attach adds date, relative)
    family: str | None = None  # for a generic mention: the family's entry id

    # Written out, not generated: under mypyc (pipeline.native) the generated __init__ of a frozen dataclass
    # runs as interpreted code, about 25 times slower than this one; the stages build hundreds per article.
    def __init__(self, type: str, id: str | None, start: int, end: int, text: str, confidence: float, how: str,
                 family: str | None = None) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "confidence", confidence)
        object.__setattr__(self, "how", how)
        object.__setattr__(self, "family", family)


@dataclass(frozen=True, init=False)
class Cue:
    keys: frozenset[str]  # what the phrase signals (see pipeline.link.rules)
    start: int
    end: int
    text: str

    # written out for mypyc: see Mention.__init__
    def __init__(self, keys: frozenset[str], start: int, end: int, text: str) -> None:
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "text", text)


@dataclass(frozen=True, init=False)
class Analysis:
    mentions: tuple[Mention, ...]
    cues: tuple[Cue, ...]

    # written out for mypyc: see Mention.__init__
    def __init__(self, mentions: tuple[Mention, ...], cues: tuple[Cue, ...]) -> None:
        object.__setattr__(self, "mentions", mentions)
        object.__setattr__(self, "cues", cues)


def _tokenizer() -> Any:
    """A spaCy tokenizer with English's punctuation rules and CJK characters split into single tokens.

    Built on its own vocabulary, without spacy.blank("en"): a Language would load English's ~5,000 special
    cases (don't, a.m., emoticons), which never change where a name starts or ends, and that was 0.3 s of
    every start-up."""
    from pipeline.spacy_import import import_spacy

    import_spacy()
    from spacy.lang.en import English
    from spacy.tokenizer import Tokenizer
    from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex
    from spacy.vocab import Vocab

    d = English.Defaults
    prefixes, suffixes, infixes = list(d.prefixes or []), list(d.suffixes or []), list(d.infixes or [])
    return Tokenizer(
        Vocab(),
        rules={},
        prefix_search=compile_prefix_regex([*prefixes, CJK_CHAR]).search,
        suffix_search=_suffix_search(compile_suffix_regex([*suffixes, CJK_CHAR]).search),
        infix_finditer=compile_infix_regex([*infixes, CJK_CHAR, *SPLIT_PUNCT]).finditer,
        url_match=None,
    )


_ONE_CJK = re.compile(CJK_CHAR)
_NOT_CJK = re.compile(f"[^{CJK_CHAR[1:-1]}]+")


def _suffix_search(search: Callable[[str], re.Match[str] | None]) -> Callable[[str], re.Match[str] | None]:
    """The suffix regex's search, answered at once when the text ends in a CJK character: that
    character is the suffix, as no other suffix pattern ends in one.  (A `$`-anchored alternation is
    tried at every position of the text, and spaCy asks again after each character it strips, which
    made Chinese runs quadratic.)"""
    one = _ONE_CJK.match

    def suffix_search(text: str) -> re.Match[str] | None:
        return (text and one(text, len(text) - 1)) or search(text)

    return suffix_search


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


@lru_cache(maxsize=4096)
def _fold_lower(form: str) -> str:
    return fold(form).lower()


def vetoed(text: str, start: int, end: int, before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    """True when the text right before the span ends with a `before` form or the text right after starts
    with an `after` form (spaces skipped; a Latin form must be a whole word)."""
    if before:
        left = text[:start].rstrip().lower()
    if after:
        right = text[end:].lstrip().lower()
    for form in before:
        f = _fold_lower(form)
        if left.endswith(f) and not (_latin(f[0]) and len(left) > len(f) and _latin(left[-len(f) - 1])):
            return True
    for form in after:
        f = _fold_lower(form)
        if right.startswith(f) and not (_latin(f[-1]) and len(right) > len(f) and _latin(right[len(f)])):
            return True
    return False


def _name_like(tok: str) -> bool:
    """A token that may be a misspelt name: Latin, with a letter, and capitals, digits or length; a word of
    lowercase letters only is an ordinary word ("popular" is no misspelt Poplar)."""
    if not tok.isascii() or not any(c.isalpha() for c in tok) or (tok.isalpha() and tok.islower()):
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
    """The compiled matcher for one knowledge base (built once; `get_recognizer` caches it on the KB).

    Only spaCy's tokenizer is used at run time: patterns are matched over token texts here, as the
    EntityRuler and PhraseMatcher would (same tokens, same longest-first choice), without building
    Token objects or running pipeline components, which cost most of the time on Chinese text (one token
    per character)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.rules = kb.linking
        self._memo: OrderedDict[tuple[str, int], Analysis] = OrderedDict()
        self._by_text: OrderedDict[str, Analysis] = OrderedDict()  # at offset 0
        self.tokenizer = _tokenizer()
        from spacy.attrs import IDX, LENGTH

        self._offsets = [IDX, LENGTH]
        # spaCy's tokens of each stretch of non-CJK text met so far ("4096 ", "TPU v3", "BERT"): the same
        # stretches recur in every sentence, and a Doc per stretch was a tenth of the linker's time
        self._pieces: dict[str, list[Any]] = {}
        self.forms: dict[tuple[str, str, tuple[str, ...]], Alias] = {}
        # entity patterns by first token: cased aliases on the exact text, the others lowercased
        self._cased: _Index = {}
        self._caseless: _Index = {}
        for a in kb.aliases:
            tokens = self._words(fold(a.text))
            lower = tuple(t.lower() for t in tokens)
            key = (a.type, a.id, lower)
            # a listed name outranks the same tokens listed as a description or context form
            if key not in self.forms or a.kind in ("alias", "cased", "generic"):
                self.forms[key] = a
            if a.kind == "cased":
                _add(self._cased, tuple(tokens), (a.type, a.id))
            else:
                _add(self._caseless, lower, (a.type, a.id))

        self.cue_keys: dict[str, set[str]] = {}
        self._cue_index: _Index = {}
        for phrase, keys in self.rules.cues.items():
            label = fold(phrase).lower()
            self.cue_keys.setdefault(label, set()).update(keys)
            _add(self._cue_index, tuple(t.lower() for t in self._words(fold(phrase))), label)
        self._cue_keyset = {label: frozenset(keys) for label, keys in self.cue_keys.items()}
        self._cue_kinds = {label: {k.split(":")[0] for k in keys} for label, keys in self.cue_keys.items()}

        # fuzzy candidates: single-token names of the fuzzy types
        self.fuzzy_cased: dict[str, Alias] = {}
        self.fuzzy_caseless: dict[str, Alias] = {}
        for a in kb.aliases:
            entry = kb.get(a.type, a.id)
            if (a.kind in ("alias", "cased") and a.type in self.rules.fuzzy_types and entry is not None
                    and entry.fuzzy and len(fold(a.text)) >= self.rules.fuzzy_min_len
                    and len(self._words(fold(a.text))) == 1):
                if a.kind == "cased":
                    self.fuzzy_cased[fold(a.text)] = a
                else:
                    self.fuzzy_caseless[fold(a.text).lower()] = a
        self._fuzzy_memo: dict[str, tuple[int, float, Alias] | None] = {}
        self._alias_veto = {_fold_lower(form): sides for form, sides in self.rules.alias_veto.items()}

    def _tokens(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each token: each CJK character alone, and spaCy's tokens of each stretch of other
        text between them, read as arrays (no Token objects).  The space right after a CJK character is
        that token's trailing space, as spaCy would have it."""
        out: list[tuple[int, int]] = []
        tokenizer, offsets, pieces = self.tokenizer, self._offsets, self._pieces
        pos = 0
        for m in _NOT_CJK.finditer(text):
            start, end = m.span()
            out.extend((k, k + 1) for k in range(pos, start))
            if start and text[start] == " ":
                start += 1
            if start < end:
                piece = text[start:end]
                toks = pieces.get(piece)
                if toks is None:
                    toks = tokenizer(piece).to_array(offsets).tolist()
                    if len(pieces) >= PIECES_SIZE:
                        pieces.clear()  # a new start now and then keeps memory flat on any corpus
                    pieces[piece] = toks
                out.extend((start + i, start + i + n) for i, n in toks)
            pos = end
        out.extend((k, k + 1) for k in range(pos, len(text)))
        return out

    def _words(self, text: str) -> list[str]:
        return [text[s:e] for s, e in self._tokens(text)]

    # ------------------------------------------------------------------------------------------ matching

    def analyze(self, text: str, offset: int = 0) -> Analysis:
        """Cached: linking and reconciliation both ask about every sentence, and spaCy is the cost.  A
        sentence met again elsewhere (a repost, a syndicated paragraph, boilerplate) is analysed once and
        its mentions moved to where it stands now."""
        key = (text, offset)
        hit = self._memo.get(key)
        if hit is not None:
            self._memo.move_to_end(key)
            return hit
        here = self._by_text.get(text)
        if here is None:
            here = self._analyze(text, 0)
            _remember(self._by_text, text, here)
        else:
            self._by_text.move_to_end(text)
        result = _shift(here, offset) if offset else here
        _remember(self._memo, key, result)
        return result

    def _analyze(self, text: str, offset: int) -> Analysis:
        folded = fold(text)
        spans = self._tokens(folded)
        words = [folded[s:e] for s, e in spans]
        lower = [w.lower() for w in words]
        conf = self.rules.confidence
        mentions: list[Mention] = []
        covered: set[int] = set()
        for i, j, (label, ent_id) in _entities(_find(self._cased, words) + _find(self._caseless, lower)):
            covered.update(range(i, j))
            start, end = spans[i][0], spans[j - 1][1]
            a = self.forms.get((label, ent_id, tuple(lower[i:j])))
            if a is not None and self.kb.regional:
                a = self._regional(a, text)
                label, ent_id = a.type, a.id
            entry = self.kb.get(label, ent_id)
            if a is None or entry is None:
                continue
            if vetoed(folded, start, end, entry.veto_before, entry.veto_after):
                continue
            own = self._alias_veto.get(_fold_lower(a.text))
            if own is not None and vetoed(folded, start, end, *own):
                continue  # "in its second round": this form names no round of MLPerf's here
            mentions.append(self._mention(a, start, end, text, conf[a.kind]))
        mentions += self._fuzzy(spans, words, folded, text, covered)
        mentions.sort(key=lambda m: m.start)
        mentions = self._check_context(mentions, folded)
        shifted = tuple(Mention(m.type, m.id, m.start + offset, m.end + offset, m.text, m.confidence, m.how,
                                m.family) for m in mentions)
        return Analysis(shifted, self._cues(spans, lower, folded, text, offset))

    def _regional(self, a: Alias, text: str) -> Alias:
        """The entry a form names in the regional variant the sentence is written in (超微 in Taiwanese text
        is AMD, in mainland text Supermicro)."""
        key = alias_key(a.text)
        for variant, forms in self.kb.regional.items():
            hit = forms.get(key)
            if hit is not None and hit[0] == a.type and written_in(text, variant):
                return Alias(a.text, hit[0], hit[1], a.kind, a.lang)
        return a

    def _mention(self, a: Alias, start: int, end: int, text: str, confidence: float, how: str | None = None
                 ) -> Mention:
        generic = a.kind == "generic"
        return Mention(a.type, None if generic else a.id, start, end, text[start:end], confidence,
                       how or a.kind, a.id if generic else None)

    def _fuzzy(self, spans: list[tuple[int, int]], words: list[str], folded: str, text: str,
               covered: set[int]) -> list[Mention]:
        out: list[Mention] = []
        memo = self._fuzzy_memo
        for i, word in enumerate(words):
            if i in covered:
                continue
            best = memo[word] if word in memo else self._closest(word)
            if best is None:
                continue
            a = best[2]
            entry = self.kb.get(a.type, a.id)
            start, end = spans[i]
            if entry is None or vetoed(folded, start, end, entry.veto_before, entry.veto_after):
                continue
            out.append(self._mention(a, start, end, text, round(best[1] * self.rules.confidence["fuzzy"], 3),
                                     "fuzzy"))
        return out

    def _closest(self, word: str) -> tuple[int, float, Alias] | None:
        """The fuzzy alias nearest to `word` (distance, similarity, alias), or None for a token that is
        not a candidate name; memoized, since words recur."""
        r = self.rules
        best: tuple[int, float, Alias] | None = None
        if word not in r.fuzzy_never and _name_like(word):
            for query, choices in ((word, self.fuzzy_cased), (word.lower(), self.fuzzy_caseless)):
                for form, dist, _ in process.extract(query, list(choices), scorer=Levenshtein.distance,
                                                     score_cutoff=2, limit=5):
                    allowed = 2 if len(form) >= r.fuzzy_long_len else 1
                    if dist == 0 or dist > allowed or not _digit_safe(query, form):
                        continue
                    sim = 1.0 - dist / max(len(form), len(query))
                    if best is None or (dist, -sim) < (best[0], -best[1]):
                        best = (dist, sim, choices[form])
        if len(self._fuzzy_memo) > 65536:
            self._fuzzy_memo.clear()
        self._fuzzy_memo[word] = best
        return best

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

    def _cues(self, spans: list[tuple[int, int]], lower: list[str], folded: str, text: str, offset: int
              ) -> tuple[Cue, ...]:
        out: list[Cue] = []
        taken: dict[int, list[tuple[int, int, set[str]]]] = {}  # token -> the cues taken over it
        for s, e, label in sorted(_find(self._cue_index, lower), key=lambda x: (-(x[1] - x[0]), x[0])):
            cs, ce = spans[s][0], spans[e - 1][1]
            kinds = self._cue_kinds[label]
            if s in taken and any(ts <= cs and ce <= te and kinds & tk for ts, te, tk in taken[s]):
                continue  # 比 inside 相比于: the longer phrase of the same kind is the cue
            before, after = self.rules.cue_veto.get(label, ((), ()))
            if vetoed(folded, cs, ce, before, after):
                continue
            for k in range(s, e):
                taken.setdefault(k, []).append((cs, ce, kinds))
            out.append(Cue(self._cue_keyset[label], cs + offset, ce + offset, text[cs:ce]))
        return tuple(sorted(out, key=lambda c: c.start))


MEMO_SIZE = 4096
PIECES_SIZE = 65536


def _remember(memo: OrderedDict, key: Any, value: Analysis) -> None:
    memo[key] = value
    if len(memo) > MEMO_SIZE:
        memo.popitem(last=False)


def _shift(a: Analysis, offset: int) -> Analysis:
    """An analysis of a text at offset 0 moved to where the text starts."""
    return Analysis(tuple(Mention(m.type, m.id, m.start + offset, m.end + offset, m.text, m.confidence, m.how,
                                  m.family) for m in a.mentions),
                    tuple(Cue(c.keys, c.start + offset, c.end + offset, c.text) for c in a.cues))


# token patterns by their first token, then by their length: first token -> {n tokens: {tokens: payloads}}
# (a common first token, 英 or 第, starts dozens of patterns: one lookup per length, not one per pattern)
_Index = dict[str, dict[int, dict[tuple[str, ...], list[Any]]]]


def _add(index: _Index, tokens: tuple[str, ...], payload: Any) -> None:
    payloads = index.setdefault(tokens[0], {}).setdefault(len(tokens), {}).setdefault(tokens, [])
    if payload not in payloads:
        payloads.append(payload)


def _find(index: _Index, words: list[str]) -> list[tuple[int, int, Any]]:
    """Every (start token, end token, payload) where a pattern's tokens occur, overlaps included (as
    spaCy's PhraseMatcher and Matcher report them).  Matches of one span keep the patterns' order."""
    out: list[tuple[int, int, Any]] = []
    for i in [i for i, w in enumerate(words) if w in index]:  # most tokens start no pattern
        for n, table in index[words[i]].items():
            payloads = table.get(tuple(words[i:i + n]))
            if payloads:
                out.extend((i, i + n, p) for p in payloads)
    return out


def _entities(matches: list[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    """The EntityRuler's choice among matches: longest first, then leftmost, skipping any that touches
    a chosen one; returned in text order.  (Two entries whose aliases tokenize alike would tie on a span;
    the KB has none, and the first found is kept.)"""
    seen: set[int] = set()
    chosen = []
    for i, j, payload in sorted(dict.fromkeys(matches), key=lambda m: (m[0] - m[1], m[0])):
        if i not in seen and j - 1 not in seen:
            chosen.append((i, j, payload))
            seen.update(range(i, j))
    return sorted(chosen)


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
