"""Cheap necessary conditions for regular expressions, derived from the patterns themselves.

Many patterns run over every sentence (not-claim patterns, dates), and most find nothing.  A pattern
that can only match where some literal text occurs ("@", "mlperf", "第", a digit) need not run over a
text that lacks all of it.  `requirement` reads that from the parsed pattern: a list of alternatives
sets, each set holding strings of which at least one must occur in any match; `may_match` tests a text
against it with plain substring checks.  The derivation only keeps what is certain (lookarounds,
optional parts and back-references add nothing), so a pattern is skipped only where it cannot match.
"""

from __future__ import annotations

import re
from re import _compiler as K  # type: ignore[attr-defined]
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]

DIGIT = "\0digit"  # stands for "any character that \d matches"
# Under IGNORECASE, an ASCII letter also matches these four (Python's re documentation, re.IGNORECASE).
_ICASE_SPECIAL = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_ICASE = str.maketrans({**{chr(c): chr(c + 32) for c in range(65, 91)}, **_ICASE_SPECIAL})
_MAX_CLASS = 64  # a character class larger than this adds no requirement

# (text, ignorecase) pairs; a match contains one of the set's texts
Alternatives = frozenset[tuple[str, bool]]


def _char(code: int, icase: bool) -> tuple[str, bool] | None:
    """A literal as it is looked for: under IGNORECASE in the folded text (ASCII lowercased), where a
    non-ASCII cased letter is not tracked (None)."""
    ch = chr(code)
    if not icase:
        return ch, False
    if ch.isascii():
        return ch.translate(_ICASE), True
    if ch.lower() != ch or ch.upper() != ch:
        return None
    return ch, True


def _class(items: list, icase: bool) -> Alternatives | None:
    out: set[tuple[str, bool]] = set()
    for op, av in items:
        if op is C.LITERAL:
            c = _char(av, icase)
            if c is None:
                return None
            out.add(c)
        elif op is C.RANGE:
            lo, hi = av
            if hi - lo >= _MAX_CLASS:
                return None
            for code in range(lo, hi + 1):
                c = _char(code, icase)
                if c is None:
                    return None
                out.add(c)
        elif op is C.CATEGORY and av is C.CATEGORY_DIGIT:
            out.add((DIGIT, False))
        else:  # NEGATE, other categories
            return None
        if len(out) > _MAX_CLASS:
            return None
    return frozenset(out) or None


def _score(alts: Alternatives) -> tuple[int, int]:
    """How selective a set looks: longest shortest text, then fewest texts."""
    return (min(0 if t == DIGIT else len(t) for t, _ in alts), -len(alts))


def _best(reqs: list[Alternatives]) -> Alternatives | None:
    return max(reqs, key=_score) if reqs else None


def _seq(items, icase: bool) -> list[Alternatives]:
    """Requirements of a sequence: every one holds (consecutive literals form one text)."""
    out: list[Alternatives] = []
    run: list[str] = []
    run_icase = False

    def flush() -> None:
        if run:
            out.append(frozenset({("".join(run), run_icase)}))
            run.clear()

    for op, av in items:
        if op is C.LITERAL:
            c = _char(av, icase)
            if c is not None and (not run or c[1] == run_icase):
                run.append(c[0])
                run_icase = c[1]
                continue
            flush()
            if c is not None:
                run.append(c[0])
                run_icase = c[1]
            continue
        flush()
        if op is C.IN:
            alts = _class(av, icase)
            if alts is not None:
                out.append(alts)
        elif op is C.SUBPATTERN:
            _group, add, remove, sub = av
            inner = (icase or bool(add & C.SRE_FLAG_IGNORECASE)) and not remove & C.SRE_FLAG_IGNORECASE
            out.extend(_seq(sub, inner))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, _hi, sub = av
            if lo >= 1:
                out.extend(_seq(sub, icase))
        elif op is C.BRANCH:
            union: set[tuple[str, bool]] = set()
            for alt in av[1]:
                best = _best(_seq(alt, icase))
                if best is None:
                    union.clear()
                    break
                union |= best
            if union:
                out.append(frozenset(union))
        elif op is C.ATOMIC_GROUP:
            out.extend(_seq(av, icase))
        # AT, ASSERT, ASSERT_NOT, GROUPREF, ANY, NOT_LITERAL, CATEGORY...: nothing certain
    flush()
    return out


def requirement(rx: re.Pattern[str]) -> list[Alternatives]:
    """What every match of `rx` must contain (an empty list: nothing known)."""
    parsed = P.parse(rx.pattern, rx.flags)
    icase = bool(parsed.state.flags & C.SRE_FLAG_IGNORECASE)
    return _seq(parsed, icase)


class Text:
    """A text and its case-folded view (made on first use)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: str | None = None

    @property
    def folded(self) -> str:
        """Lowercased, with the non-ASCII letters that IGNORECASE equates with ASCII ones made ASCII
        (str.lower already turns K into k; İ becomes i plus a combining dot, which goes).  Lengths may
        change: only containment is asked of this view."""
        if self._folded is None:
            low = self.text.lower()
            if not low.isascii():
                low = low.replace("\u0131", "i").replace("\u017f", "s").replace("\u0307", "")
            self._folded = low
        return self._folded


def _check(alts: Alternatives) -> tuple[re.Pattern[str] | None, tuple[str, ...], bool] | None:
    """One set of alternatives as one check: over the folded view when every text is case-folded, over the
    text itself when none is (a set that mixes both stays unchecked).  Plain texts are looked for with
    `in`, each a fast scan, where one search of their alternation tried every one at every position; a
    set that takes any digit is one regex search."""
    views = {icase for t, icase in alts if t != DIGIT}
    if len(views) > 1:
        return None
    folded = views == {True}
    if all(t != DIGIT for t, _ in alts):
        return None, tuple(sorted((t for t, _ in alts), key=lambda x: (-len(x), x))), folded
    parts = sorted((r"\d" if t == DIGIT else re.escape(t) for t, _ in alts), key=lambda x: (-len(x), x))
    return re.compile("|".join(parts)), (), folded


class Prefilter:
    """`Prefilter(rx)(text)` is False only where `rx` cannot match `text`: each required set of
    alternatives is one check, the rarest-looking first."""

    def __init__(self, rx: re.Pattern[str]) -> None:
        reqs = sorted(requirement(rx), key=_score, reverse=True)
        self.checks = tuple(c for c in map(_check, reqs) if c is not None)

    def __call__(self, text: Text) -> bool:
        for search, texts, folded in self.checks:
            s = text.folded if folded else text.text
            if search is None:
                if not any(t in s for t in texts):
                    return False
            elif search.search(s) is None:
                return False
        return True


# by id: hashing a compiled pattern hashes its whole program, which costs more than the prefilter saves
_CACHE: dict[int, tuple[re.Pattern[str], Prefilter]] = {}


def prefilter(rx: re.Pattern[str]) -> Prefilter:
    """The prefilter of a compiled pattern, derived once (the entry keeps the pattern, so its id stays
    its own)."""
    hit = _CACHE.get(id(rx))
    if hit is None or hit[0] is not rx:
        hit = _CACHE[id(rx)] = (rx, Prefilter(rx))
    return hit[1]


# ------------------------------------------------------------------------------------ first characters

# the same four, by the ASCII letter they match
_ICASE_EXTRA = {a: "".join(c for c, b in _ICASE_SPECIAL.items() if b == a) for a in set(_ICASE_SPECIAL.values())}
_CATEGORY_ESCAPES = {C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s",
                     C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w", C.CATEGORY_NOT_WORD: r"\W"}


class _Unknown(Exception):
    """The first character of a match cannot be pinned down (., a back-reference, a negated class...)."""


def _first_literal(code: int, icase: bool, out: set[str]) -> None:
    ch = chr(code)
    if not icase:
        out.add(re.escape(ch))
        return
    if not ch.isascii() and (ch.lower() != ch or ch.upper() != ch):
        raise _Unknown  # a non-ASCII cased letter: its case partners are not listed here
    for c in {ch.lower(), ch.upper()}:
        out.add(re.escape(c))
        out.update(_ICASE_EXTRA.get(c.lower(), ""))


def _first_class(items: list, icase: bool, out: set[str]) -> None:
    for op, av in items:
        if op is C.LITERAL:
            _first_literal(av, icase, out)
        elif op is C.RANGE:
            lo, hi = av
            if not icase:
                out.add(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
            elif hi - lo > _MAX_CLASS:
                raise _Unknown
            else:
                for code in range(lo, hi + 1):
                    _first_literal(code, icase, out)
        elif op is C.CATEGORY and av in _CATEGORY_ESCAPES:
            out.add(_CATEGORY_ESCAPES[av])  # the lookahead is compiled with the pattern's flags
        else:  # NEGATE and the rest
            raise _Unknown


def _first(items, icase: bool, out: set[str]) -> bool:
    """Adds to `out` (as character-class items) every character a match of the sequence can start with;
    returns whether the sequence can match the empty string, when what follows it supplies the first
    character too.  Zero-width items (lookarounds, anchors) consume nothing and are stepped over."""
    for op, av in items:
        if op is C.LITERAL:
            _first_literal(av, icase, out)
            return False
        if op is C.IN:
            _first_class(av, icase, out)
            return False
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        if op is C.SUBPATTERN:
            _group, add, remove, sub = av
            inner = (icase or bool(add & C.SRE_FLAG_IGNORECASE)) and not remove & C.SRE_FLAG_IGNORECASE
            if not _first(sub, inner, out):
                return False
        elif op is C.ATOMIC_GROUP:
            if not _first(av, icase, out):
                return False
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, _hi, sub = av
            if not _first(sub, icase, out) and lo >= 1:
                return False
        elif op is C.BRANCH:
            empty = False
            for alt in av[1]:
                empty |= _first(alt, icase, out)
            if not empty:
                return False
        else:  # ANY, NOT_LITERAL, GROUPREF, GROUPREF_EXISTS, CATEGORY outside a class...
            raise _Unknown
    return True


def _slow_start(parsed, icase: bool) -> bool:
    """Whether re's own search cannot skip ahead to a possible start: its program's header holds neither
    a literal prefix nor a class of first characters (a pattern that opens with a lookbehind, a word
    boundary, a line start, an optional item or a case-insensitive alternation), so it tries a match at
    every position (measured on the not-claim patterns: 1.5 to 4x slower than with a first-character
    lookahead).  A pattern anchored at the start of the text is tried there alone, and left as it is."""
    if not len(parsed):
        return False
    op, av = parsed[0]
    if op is C.AT and (av is C.AT_BEGINNING_STRING or (av is C.AT_BEGINNING
                                                      and not parsed.state.flags & C.SRE_FLAG_MULTILINE)):
        return False
    try:
        header: list[int] = []
        K._compile_info(header, parsed, parsed.state.flags)  # [INFO, skip, mask, ...], as re writes it
        return not header[2] & (C.SRE_INFO_PREFIX | C.SRE_INFO_CHARSET)
    except Exception:  # noqa: BLE001 - another Python's compiler: the shapes known to start slowly
        return _slow_shape(parsed, icase)


def _slow_shape(parsed, icase: bool) -> bool:
    op, av = parsed[0]
    if op is C.ASSERT_NOT or (op is C.AT and av is C.AT_BOUNDARY):
        return True
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return av[0] == 0
    if op is C.SUBPATTERN:
        _group, add, remove, sub = av
        inner = (icase or bool(add & C.SRE_FLAG_IGNORECASE)) and not remove & C.SRE_FLAG_IGNORECASE
        return bool(len(sub)) and sub[0][0] is C.BRANCH and inner
    return False


_GLOBAL_FLAGS = re.compile(r"\A(?:\(\?[aiLmsux]+\))+")


_FAST: dict[int, tuple[re.Pattern[str], re.Pattern[str]]] = {}


def with_first_chars(rx: re.Pattern[str]) -> re.Pattern[str]:
    """`rx`, or the same pattern behind a lookahead for the characters its matches can start with, where
    that lets re skip the positions no match can start at.  Both find the same matches (with the same
    groups).  Derived once per compiled pattern, as prefilter() is."""
    hit = _FAST.get(id(rx))
    if hit is None or hit[0] is not rx:
        hit = _FAST[id(rx)] = (rx, _with_first_chars(rx))
    return hit[1]


def _with_first_chars(rx: re.Pattern[str]) -> re.Pattern[str]:
    try:
        parsed = P.parse(rx.pattern, rx.flags)
        icase = bool(parsed.state.flags & C.SRE_FLAG_IGNORECASE)
        if not _slow_start(parsed, icase):
            return rx
        chars: set[str] = set()
        if _first(list(parsed), icase, chars):
            return rx  # it can match the empty string: any position may start a match
    except (_Unknown, re.error):
        return rx
    body = _GLOBAL_FLAGS.sub("", rx.pattern)  # kept in rx.flags; they may not follow the lookahead
    looked = re.compile("(?=[" + "".join(sorted(chars)) + "])(?:" + body + ")", rx.flags)
    return _skipping(looked) or looked


def _skipping(looked: re.Pattern[str]) -> re.Pattern[str] | None:
    """`looked` (a first-character lookahead, then the pattern) as a program whose header gives re's
    engine the lookahead's class: its search then steps over the characters outside it in one C loop, as
    it does for a pattern that opens with a class, where with the lookahead it starts a match attempt at
    every position (measured on the not-claim patterns over Chinese articles: 1.3 to 3.6x faster again).
    The class is a superset of the characters a match can start with, so the lookahead itself can go.
    The header is written as re._compiler._compile_info writes one for a pattern that opens with a class;
    None (the lookahead pattern is used) wherever this Python's compiler is not the one expected."""
    try:
        parsed = P.parse(looked.pattern, looked.flags)
        flags = parsed.state.flags | looked.flags
        (op, (_direction, ahead)), body = parsed.data[0], P.SubPattern(parsed.state, parsed.data[1:])
        if op is not C.ASSERT or len(ahead.data) != 1:
            return None
        kind, av = ahead.data[0]
        items = [(C.LITERAL, av)] if kind is C.LITERAL else av if kind is C.IN else None
        lo, hi = body.getwidth()
        if items is None or lo == 0:
            return None
        code = [C.INFO, 0, C.SRE_INFO_CHARSET, min(lo, K.MAXCODE), min(hi, K.MAXCODE)]
        charset, _cased = K._optimize_charset(items)
        # the class lists every case of its letters itself, so it is tested as written (re's own header
        # never holds a case-insensitive class)
        K._compile_charset(charset, flags & ~C.SRE_FLAG_IGNORECASE, code)
        code[1] = len(code) - 1
        K._compile(code, body.data, flags)
        code.append(C.SUCCESS)
        groups = parsed.state.groupdict
        names: list[str | None] = [None] * parsed.state.groups
        for name, i in groups.items():
            names[i] = name
        import _sre

        return _sre.compile(looked.pattern, flags, code, parsed.state.groups - 1, groups, tuple(names))
    except Exception:  # noqa: BLE001 - re's internals differ here: the lookahead pattern does the same
        return None
