"""Read article folders: find files, detect encodings, turn HTML into text.

The decoded text of an article is what every offset refers to.  For .txt and .md it is the file's text;
for .html/.htm it is the main text extracted from the page (boilerplate removed), which is what a reader
of the article sees and what reviewers annotate.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import IngestError
from pipeline.lang.yamlio import read_yaml
from pipeline.records import Article

ARTICLE_SUFFIXES = {".txt": "txt", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html"}
META_SUFFIX = ".meta.yaml"
# Encodings news in our two languages comes in; charset-normalizer chooses among these only, since
# unrestricted detection on short Chinese text often lands on exotic code pages.
CANDIDATE_ENCODINGS = ["utf_8", "gb18030", "big5", "utf_16", "cp1252", "latin_1"]
MAX_BYTES_DEFAULT = 50 * 1024 * 1024


def find_articles(root: Path) -> Iterator[Path]:
    """Article files under `root`, recursively, in a stable order.  Directory symlinks are not followed
    (no loops); file symlinks are read if they point at a file."""
    root = Path(root)
    if root.is_file():
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(META_SUFFIX):
                continue
            if Path(name).suffix.lower() in ARTICLE_SUFFIXES:
                yield Path(dirpath) / name


def doc_id(path: Path, root: Path) -> str:
    root = Path(root)
    if root.is_file():
        return path.name
    return Path(os.path.relpath(path, root)).as_posix()


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        # UTF-16 text has NULs in every other byte; binary has them scattered.
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        half = max(1, len(sample) // 2)
        if max(even, odd) / half > 0.3 and min(even, odd) / half < 0.05:
            return False
        return True
    controls = sum(1 for b in sample if b < 9 or 13 < b < 32)
    return controls / max(1, len(sample)) > 0.1


def decode_bytes(data: bytes, doc: str = "") -> tuple[str, str]:
    """Decode article bytes; returns (text, encoding).  Raises IngestError when no encoding fits."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(enc), enc
            except UnicodeDecodeError as exc:
                raise IngestError(doc, "decode", f"starts with a {enc} byte-order mark but does not decode "
                                  f"as {enc} ({exc.reason} at byte {exc.start}); re-save it as UTF-8") from exc
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    sample = data[:4096]
    if sample and b"\x00" in sample:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        enc = "utf-16-le" if odd > even else "utf-16-be"
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            pass
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=CANDIDATE_ENCODINGS).best()
    if best is None or best.encoding is None:
        raise IngestError(doc, "decode", "no text encoding fits (tried UTF-8, UTF-16, GB18030, Big5, "
                          "Windows-1252); re-save the file as UTF-8")
    enc = best.encoding
    return data.decode(enc, errors="strict"), enc


def html_to_text(html: str) -> str:
    """Main text of a page, boilerplate (navigation, footers, ads) removed.  Falls back to all visible
    text when the extractor finds no main content (short pages)."""
    text = None
    try:
        import trafilatura

        text = trafilatura.extract(html, include_comments=False, include_tables=True, favor_precision=False,
                                   deduplicate=False)
    except Exception:  # noqa: BLE001 - a parser crash on hostile HTML must not lose the article
        text = None
    if text and text.strip():
        return text
    return _visible_text(html)


def _visible_text(html: str) -> str:
    from html.parser import HTMLParser

    class _Text(HTMLParser):
        skip = {"script", "style", "noscript", "template", "head"}
        blocks = {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section", "article"}

        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []
            self.depth = 0

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag in self.skip:
                self.depth += 1
            elif tag in self.blocks:
                self.parts.append("\n")

        def handle_endtag(self, tag: str) -> None:
            if tag in self.skip and self.depth:
                self.depth -= 1
            elif tag in self.blocks:
                self.parts.append("\n")

        def handle_data(self, data: str) -> None:
            if not self.depth:
                self.parts.append(data)

    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = [" ".join(line.split()) for line in "".join(parser.parts).splitlines()]
    return "\n".join(line for line in lines if line)


def read_meta(path: Path) -> dict:
    meta_path = path.with_name(path.name + META_SUFFIX)
    if not meta_path.exists():
        return {}
    data = read_yaml(meta_path)
    return data if isinstance(data, dict) else {}


def read_article(path: Path, root: Path, max_bytes: int = MAX_BYTES_DEFAULT) -> Article:
    """Read and decode one article file.  Every failure is an IngestError with a reason code and a
    sentence saying what to do."""
    doc = doc_id(path, root)
    fmt = ARTICLE_SUFFIXES.get(path.suffix.lower(), "txt")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise IngestError(doc, "unreadable", f"cannot stat the file ({exc.strerror}); check it exists") from exc
    if size > max_bytes:
        raise IngestError(doc, "too_large", f"{size} bytes is over the {max_bytes}-byte limit; split the "
                          "file or raise --max-bytes")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(doc, "unreadable", f"cannot read the file ({exc.strerror}); check its permissions") from exc
    if not data.strip():
        raise IngestError(doc, "empty", "the file is empty; nothing to check")
    if _looks_binary(data):
        raise IngestError(doc, "binary", "the file is binary, not text; remove it or export the article as "
                          ".txt/.html")
    text, encoding = decode_bytes(data, doc)
    if fmt == "html":
        text = html_to_text(text)
    if not text.strip():
        raise IngestError(doc, "empty", "no article text found in the file")
    try:
        meta = read_meta(path)
    except Exception as exc:  # noqa: BLE001 - a broken sidecar must not lose the article
        meta = {"meta_error": str(exc)}
    return Article(doc=doc, text=text, encoding=encoding, fmt=fmt, meta=meta)
