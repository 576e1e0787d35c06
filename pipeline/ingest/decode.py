"""Bytes -> text for articles in any common encoding, and a clear error for what is not text.

Order of the checks, and why:
1. a byte-order mark decides (UTF-8, UTF-16, UTF-32); it is the only reliable label a file carries;
2. known binary formats (PDF, images, archives, Office files) are named by their magic bytes, so that a
   PDF renamed .txt gets "this is a PDF" rather than a page of mojibake claims;
3. strict UTF-8, the common case;
4. UTF-16 without a BOM, by the pattern of NUL bytes (ASCII characters);
5. line by line: a line that is (mostly) valid UTF-8 is UTF-8, any other line is in the legacy encoding
   detected on those lines (GB18030/GBK, Big5, Windows-1252).  This handles a GBK file, a UTF-8 file
   with a stray bad byte (replaced by U+FFFD, not re-read as GBK), and a file pasted together from UTF-8
   and GBK parts;
6. when no legacy encoding fits: UTF-16 without a BOM or NULs (pure CJK text), if its characters are
   plausible text.

A file whose bytes fit no encoding is an IngestError("decode"); a decoder never raises anything else.
"""

from __future__ import annotations

import codecs
import re

from pipeline.errors import IngestError

# Legacy encodings news in our two languages comes in; charset-normalizer chooses among these only, since
# unrestricted detection on short Chinese text often lands on exotic code pages.
LEGACY_ENCODINGS = ["gb18030", "big5", "cp1252", "latin_1"]
# A <meta charset> is only believed for encodings we would have considered anyway.
DECLARED = {"gbk": "gb18030", "gb2312": "gb18030", "gb18030": "gb18030", "big5": "big5", "big5-hkscs": "big5hkscs",
            "windows-1252": "cp1252", "iso-8859-1": "cp1252", "latin1": "cp1252"}
# Detection reads at most this much: charset-normalizer on a 50 MB file is slow, and a sample decides.
DETECT_BYTES = 1 << 20
# More replaced bytes than this share of the file means the guess was wrong, not that the file is damaged.
MAX_REPLACED_SHARE = 0.01

_BOMS = (  # UTF-32 first: its little-endian BOM starts with the UTF-16 one
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)
# (magic bytes at offset 0, what the file is); checked before any decoding.
_MAGIC = (
    (b"%PDF-", "a PDF document"), (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"), (b"GIF89a", "a GIF image"), (b"PK\x03\x04", "a ZIP archive (or .docx/.xlsx/.epub)"),
    (b"\x1f\x8b", "a gzip archive"), (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office document (.doc/.xls)"),
    (b"\x7fELF", "an executable (ELF)"), (b"{\\rtf", "an RTF document"),
    (b"SQLite format 3\x00", "an SQLite database"), (b"\x00\x00\x01\x00", "an icon image"),
    (b"\x1aE\xdf\xa3", "a Matroska/WebM video"), (b"\x00asm", "a WebAssembly module"),
)
# Short or offset magics that a sentence could contain: believed only with non-text bytes nearby.
_WEAK_MAGIC = ((b"MZ", "a Windows executable"), (b"ID3", "an MP3 file"), (b"OggS", "an Ogg media file"),
               (b"BZh", "a bzip2 archive"), (b"wOFF", "a web font"), (b"wOF2", "a web font"))
_MAGIC_AT = ((4, b"ftyp", "an MP4/QuickTime video or HEIC image"), (8, b"WEBP", "a WebP image"),
             (8, b"AVI ", "an AVI video"), (8, b"WAVE", "a WAV file"))
_META_CHARSET = re.compile(rb"<meta[^>]{0,200}?charset\s*=\s*[\"']?\s*([A-Za-z0-9_\-]{2,20})", re.I)


# control bytes other than tab, newlines, form feed (and escape, which terminals' text holds), counted with
# bytes.translate: a Python loop over 8 KB was a third of a millisecond of every article
_CONTROL_BYTES = bytes(b for b in range(256) if b < 9 or 13 < b < 32)
_CONTROLS_NOT_ESC = bytes(b for b in _CONTROL_BYTES if b != 27)


def sniff_format(data: bytes) -> str | None:
    """What a file is when its first bytes say it is not text (a PDF, an image, an archive), else None."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    head = data[:512]
    if len(head.translate(None, _CONTROL_BYTES)) != len(head):
        for magic, what in _WEAK_MAGIC:
            if data.startswith(magic):
                return what
        for offset, magic, what in _MAGIC_AT:
            if data[offset:offset + len(magic)] == magic:
                return what
    return None


def looks_binary(data: bytes) -> bool:
    """Binary when NUL bytes are more than stray (and not the one-sided pattern of UTF-16), or when
    control characters are a real share of the bytes.  A stray NUL or two in a text file keeps it text."""
    sample = data[:8192]
    if not sample:
        return False
    nuls = sample.count(0)
    if nuls:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        if min(even, odd) <= 0.05 * max(even, odd):
            # NULs on one side only: UTF-16 whose ASCII characters (few, in dense Chinese) hold them
            enc = "utf-16-le" if odd > even else "utf-16-be"
            if _plausible_share(sample[:len(sample) - len(sample) % 2].decode(enc, errors="replace")) >= 0.9:
                return False
        if nuls > max(2, 0.002 * len(sample)):  # random bytes hold one NUL in 256
            return True
    controls = len(sample) - len(sample.translate(None, _CONTROLS_NOT_ESC))
    return controls / len(sample) > 0.05  # random bytes: 10 %; text: next to none


def decode_bytes(data: bytes, doc: str = "", declared: str | None = None) -> tuple[str, str]:
    """Decode article bytes; returns (text, encoding label).  Raises IngestError("decode") when no
    encoding fits; never another exception.  `declared` is an encoding the file names (HTML meta)."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return _decode_with_bom(data, enc, doc)
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if b"\x00" in data[:DETECT_BYTES]:
        found = _utf16_without_bom(data, nuls=True)
        if found is not None:
            return found
    try:
        return _line_by_line(data, doc, declared)
    except IngestError:
        # Pure CJK text in UTF-16 has no NUL bytes.  Tried last: GBK, Shift-JIS or even ASCII read as
        # UTF-16 can look like CJK too, so it is believed only when no legacy encoding fits.
        found = _utf16_without_bom(data, nuls=False)
        if found is not None:
            return found
        raise


def declared_charset(data: bytes) -> str | None:
    """The legacy encoding an HTML page declares in <meta charset>, if it is one we consider."""
    m = _META_CHARSET.search(data[:4096])
    if not m:
        return None
    return DECLARED.get(m.group(1).decode("ascii").lower())


def _decode_with_bom(data: bytes, enc: str, doc: str) -> tuple[str, str]:
    try:
        return data.decode(enc), enc
    except UnicodeDecodeError as exc:
        text = data.decode(enc, errors="replace")
        bad = text.count("\ufffd")
        if bad <= max(1, MAX_REPLACED_SHARE * len(text)):
            return text, f"{enc} ({bad} invalid sequences replaced)"
        raise IngestError(doc, "decode", f"starts with a {enc} byte-order mark but does not decode as {enc} "
                          f"({exc.reason} at byte {exc.start}); re-save it as UTF-8") from exc


def _plausible_share(text: str) -> float:
    """Share of characters that ordinary Chinese/English text is made of."""
    if not text:
        return 0.0
    ok = 0
    for ch in text:
        o = ord(ch)
        if (0x20 <= o < 0x7F or ch in "\t\r\n" or 0x4E00 <= o <= 0x9FFF or 0x3000 <= o <= 0x303F
                or 0xFF00 <= o <= 0xFFEF or 0x3400 <= o <= 0x4DBF or 0x2010 <= o <= 0x2027):
            ok += 1
    return ok / len(text)


def _utf16_without_bom(data: bytes, nuls: bool) -> tuple[str, str] | None:
    """UTF-16 without a byte-order mark: the byte order by where the NULs of ASCII characters are, or
    (no NULs) both orders; believed when nearly every character is one ordinary text is made of."""
    body = data[:len(data) - len(data) % 2]  # a truncated file's odd last byte becomes U+FFFD below
    sample = body[:DETECT_BYTES]
    if nuls:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        candidates = ["utf-16-le" if odd > even else "utf-16-be"]
    else:
        candidates = ["utf-16-le", "utf-16-be"]
    for enc in candidates:
        try:
            text = body.decode(enc)
        except UnicodeDecodeError:
            continue
        if _plausible_share(text[:20000]) >= 0.9:
            return (text, enc) if body is data else (text + "\ufffd", f"{enc} (truncated)")
    return None


_SURROGATE = re.compile("[\udc80-\udcff]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def _utf8_counts(line: bytes) -> tuple[int, int]:
    """(valid multi-byte UTF-8 characters, invalid bytes) in a line: surrogateescape turns each invalid
    byte into one lone surrogate, so both are counted in one decode."""
    text = line.decode("utf-8", errors="surrogateescape")
    bad = len(_SURROGATE.findall(text))
    return len(_NON_ASCII.findall(text)) - bad, bad


def _detect_legacy(sample: bytes, declared: str | None) -> str | None:
    if declared:
        try:
            sample.decode(declared)
            return declared
        except (UnicodeDecodeError, LookupError):
            pass
    from charset_normalizer import from_bytes

    try:
        best = from_bytes(sample[:DETECT_BYTES], cp_isolation=LEGACY_ENCODINGS).best()
    except Exception:  # noqa: BLE001 - a detector crash is "no encoding fits", not a lost batch
        return None
    return best.encoding if best is not None and best.encoding else None


def _line_by_line(data: bytes, doc: str, declared: str | None) -> tuple[str, str]:
    lines = data.split(b"\n")  # safe in GBK and Big5: their trail bytes are never 0x0A
    utf8_lines: set[int] = set()
    legacy: list[bytes] = []
    for i, line in enumerate(lines):
        if line.isascii():
            continue
        good, bad = _utf8_counts(line)
        # A valid UTF-8 line, or one with a few bad bytes among many good characters (a damaged file),
        # is UTF-8; GBK or Big5 read as UTF-8 has nearly no valid multi-byte characters.
        if bad == 0 or good >= 4 * bad:
            utf8_lines.add(i)
        else:
            legacy.append(line)
    enc = _detect_legacy(b"\n".join(legacy), declared) if legacy else None
    if legacy and enc is None:
        legacy_bytes = sum(len(x) for x in legacy)
        if not utf8_lines or legacy_bytes > MAX_REPLACED_SHARE * len(data) * 10:
            raise IngestError(doc, "decode", "no text encoding fits (tried UTF-8, UTF-16, GB18030, Big5, "
                              "Windows-1252); re-save the file as UTF-8")
    parts = []
    replaced = 0
    for i, line in enumerate(lines):
        if i in utf8_lines or line.isascii() or enc is None:
            text = line.decode("utf-8", errors="replace")
        else:
            text = line.decode(enc, errors="replace")
        replaced += text.count("\ufffd")
        parts.append(text)
    text = "\n".join(parts)
    if replaced > max(8, MAX_REPLACED_SHARE * len(text)):
        raise IngestError(doc, "decode", f"{replaced} byte sequences fit no encoding (best guess "
                          f"{enc or 'UTF-8'}); the file is damaged or not text: re-save it as UTF-8")
    if enc is None:
        label = "utf-8"
    elif utf8_lines:
        label = f"utf-8+{enc}"  # mixed: some lines UTF-8, others legacy
    else:
        label = enc
    if replaced:
        label += f" ({replaced} invalid sequences replaced)"
    return text, label
