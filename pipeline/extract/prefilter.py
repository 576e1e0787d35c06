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
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]

DIGIT = "\0digit"  # stands for "any character that \d matches"
# Under IGNORECASE, an ASCII letter also matches these four (Python's re documentation, re.IGNORECASE).
_ICASE = str.maketrans({**{chr(c): chr(c + 32) for c in range(65, 91)},
                        "\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
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


def _search(alts: Alternatives) -> tuple[re.Pattern[str], bool] | None:
    """One set of alternatives as one search: over the folded view when every text is case-folded,
    over the text itself when none is (a set that mixes both stays unchecked)."""
    views = {icase for t, icase in alts if t != DIGIT}
    if len(views) > 1:
        return None
    parts = sorted((r"\d" if t == DIGIT else re.escape(t) for t, _ in alts), key=lambda x: (-len(x), x))
    return re.compile("|".join(parts)), views == {True}


class Prefilter:
    """`Prefilter(rx)(text)` is False only where `rx` cannot match `text`: each required set of
    alternatives is one regex search, the rarest-looking first."""

    def __init__(self, rx: re.Pattern[str]) -> None:
        reqs = sorted(requirement(rx), key=_score, reverse=True)
        self.checks = tuple(c for c in map(_search, reqs) if c is not None)

    def __call__(self, text: Text) -> bool:
        for search, folded in self.checks:
            if search.search(text.folded if folded else text.text) is None:
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
