"""Character offsets between Python and the annotation tools.

Our offsets (claims.jsonl, annotations/) count Unicode code points, as Python's str does.  A tool
written in JavaScript may count UTF-16 code units instead, where every character outside the Basic
Multilingual Plane (emoji, CJK Extension B such as 𠀀) takes two.  What each tool stores:

- Label Studio (Text tag): code points.  Its editor converts DOM positions to code points before it
  saves a region and back when it draws one (its own end-to-end test "NER - Emoji - Text / Should
  calculate offsets by code points in text" pins this); `value.text` is saved beside the offsets.
- Prodigy: Python on both ends, code points.
- doccano: UTF-16 code units (JavaScript string indices; doccano issues #2290 and #2484 are open about
  exactly this), so doccano offsets are converted on the way out and back.

Whatever a tool claims, an import checks the offsets against the span text the tool saved and takes
the counting that reproduces it (`resolve_span`), so a file from an older or newer tool version that
counts the other way is still read right.
"""

from __future__ import annotations

from bisect import bisect_right

CODEPOINT = "codepoint"
UTF16 = "utf16"
UNITS = {"label-studio": CODEPOINT, "prodigy": CODEPOINT, "doccano": UTF16}


class OffsetMap:
    """Converts offsets in one text between code points and UTF-16 code units."""

    def __init__(self, text: str) -> None:
        self.text = text
        # Code-point positions of astral characters; empty for most texts, and then both countings agree.
        self._astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]
        # UTF-16 position of each astral character (its first surrogate).
        self._astral16 = [i + k for k, i in enumerate(self._astral)]

    @property
    def same(self) -> bool:
        """True when the text has no astral characters, so code points and UTF-16 units count alike."""
        return not self._astral

    def to_utf16(self, cp: int) -> int:
        """The UTF-16 offset of code-point offset `cp`; ValueError when `cp` is outside the text."""
        if not 0 <= cp <= len(self.text):
            raise ValueError(f"offset {cp} is outside the text (0..{len(self.text)})")
        return cp + bisect_right(self._astral, cp - 1)

    def from_utf16(self, u: int) -> int:
        """The code-point offset of UTF-16 offset `u`; ValueError when `u` falls inside a surrogate pair."""
        if not 0 <= u <= len(self.text) + len(self._astral):
            raise ValueError(f"UTF-16 offset {u} is outside the text")
        k = bisect_right(self._astral16, u - 1)  # astral characters starting before u
        if k and self._astral16[k - 1] == u - 1:
            raise ValueError(f"UTF-16 offset {u} splits a surrogate pair")
        return u - k

    def to_unit(self, cp: int, unit: str) -> int:
        """Code-point offset `cp` as `unit` counts it: in UTF-16 code units, or unchanged in code points."""
        return self.to_utf16(cp) if unit == UTF16 else cp

    def from_unit(self, off: int, unit: str) -> int:
        """Offset `off`, counted in `unit`, as a code-point offset; ValueError as for `from_utf16`."""
        return self.from_utf16(off) if unit == UTF16 else off


def utf16_len(text: str) -> int:
    """The length of `text` in UTF-16 code units, as JavaScript counts it."""
    return len(text.encode("utf-16-le")) // 2


def resolve_span(omap: OffsetMap, start: int, end: int, text: str | None, unit: str) -> tuple[int, int]:
    """Code-point offsets of a span a tool saved as (start, end) in `unit`, checked against the span's
    own text when the tool saved it.  Raises ValueError naming the problem when nothing fits."""
    tried: list[str] = []
    for u in (unit, CODEPOINT if unit == UTF16 else UTF16):
        try:
            s, e = omap.from_unit(start, u), omap.from_unit(end, u)
        except ValueError as exc:
            tried.append(f"{u}: {exc}")
            continue
        if not 0 <= s <= e <= len(omap.text):
            tried.append(f"{u}: [{s}, {e}) is outside the text")
            continue
        if text is None or omap.text[s:e] == text:
            return s, e
        # Some tools trim or normalise whitespace at the edges of a selection.
        if omap.text[s:e].strip() == text.strip():
            return s, e
        tried.append(f"{u}: the text there is {omap.text[s:e]!r}")
    raise ValueError(f"span [{start}, {end}) with text {text!r} does not fit the article ({'; '.join(tried)})")
