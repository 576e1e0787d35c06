"""Read article folders: find files, detect encodings, turn HTML into text.

The decoded text of an article is what every offset refers to.  For .txt and .md it is the file's text;
for .html/.htm it is the main text extracted from the page (boilerplate removed), which is what a reader
of the article sees and what reviewers annotate.

Every way a file can be bad (empty, binary, a PDF renamed .txt, undecodable, unreadable, too large, a
FIFO or device named .txt, a symlink loop) is an IngestError with a reason code and a sentence saying what
to do; reading never raises anything else, and never reads more than max_bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from pipeline.errors import IngestError
from pipeline.ingest.decode import declared_charset, decode_bytes, looks_binary, sniff_format
from pipeline.ingest.html import html_to_text, published_date
from pipeline.lang.yamlio import read_yaml
from pipeline.records import META_DATE_KEYS, Article

__all__ = ["ARTICLE_SUFFIXES", "decode_bytes", "doc_id", "find_articles", "html_to_text", "read_article",
           "read_meta"]

ARTICLE_SUFFIXES = {".txt": "txt", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html"}
META_SUFFIX = ".meta.yaml"
MAX_BYTES_DEFAULT = 50 * 1024 * 1024
MAX_META_BYTES = 1 << 20  # a sidecar is a few lines of YAML; anything bigger is not one
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")  # UTF-8, UTF-16/32 LE, BE


class OutsideLink(OSError):
    """A file symlink whose target lies outside the folder being read: not followed unless asked."""


def find_articles(root: Path, exclude: Iterable[Path] = (), walk_errors: list[OSError] | None = None,
                  follow_symlinks: bool = False) -> Iterator[Path]:
    """Article files under `root`, recursively, in a stable order.  Directory symlinks are not followed
    (no loops); file symlinks are listed when their target lies inside `root` (or with follow_symlinks;
    reading one that loops is an "unreadable" error), else appended to `walk_errors` as OutsideLink.
    Folders in `exclude` (the output folder, when it lies inside the input) are skipped; folders that
    cannot be listed are appended to `walk_errors` instead of being skipped silently."""
    root = Path(root)
    if root.is_file():
        yield root
        return
    skip = {os.path.realpath(p) for p in exclude}

    def onerror(exc: OSError) -> None:
        if walk_errors is not None:
            walk_errors.append(exc)

    inside = os.path.realpath(root)
    for dirpath, filenames in _walk(str(root), skip, onerror):
        for name in sorted(filenames):
            if name.endswith(META_SUFFIX):
                continue
            if Path(name).suffix.lower() in ARTICLE_SUFFIXES:
                path = Path(dirpath) / name
                if not follow_symlinks and path.is_symlink():
                    target = os.path.realpath(path)
                    if target != inside and not target.startswith(inside + os.sep):
                        onerror(OutsideLink(errno.EXDEV, "a symbolic link to a file outside the input folder",
                                            str(path)))
                        continue
                yield path


def _walk(root: str, skip: set[str], onerror) -> Iterator[tuple[str, list[str]]]:
    """(folder, its file names), top-down, folders in name order, directory symlinks not followed.  An
    explicit stack, not recursion: 1,000 nested folders are a path, not a RecursionError."""
    stack = [root]
    while stack:
        top = stack.pop()
        try:
            with os.scandir(top) as it:
                entries = list(it)
        except OSError as exc:
            onerror(exc)
            continue
        dirs: list[str] = []
        files: list[str] = []
        for e in entries:
            try:
                is_dir = e.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(e.name)
        yield top, files
        for d in sorted(dirs, reverse=True):
            path = os.path.join(top, d)
            if os.path.realpath(path) not in skip:
                stack.append(path)


def printable(name: str) -> str:
    """A file name as text that can be written as UTF-8: bytes that are not UTF-8 (kept by Python as
    lone surrogates) are shown as \\xNN, so one odd name cannot make the outputs unwritable."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", errors="backslashreplace")


def doc_id(path: Path, root: Path) -> str:
    """The article's id in every output: its path relative to the input folder, with forward slashes."""
    root = Path(root)
    if root.is_file():
        return printable(path.name)
    return printable(Path(os.path.relpath(path, root)).as_posix())


def read_meta(path: Path) -> dict:
    """The article's sidecar (<file>.meta.yaml) as a mapping; empty when it has none."""
    meta_path = path.with_name(path.name + META_SUFFIX)
    try:
        st = meta_path.stat()
    except OSError:
        return {}
    # Like articles, only a regular file of sane size is read: a FIFO sidecar must not block the run.
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_META_BYTES:
        raise ValueError(f"{meta_path.name}: not a regular file under {MAX_META_BYTES} bytes; ignored")
    data = read_yaml(meta_path)
    return data if isinstance(data, dict) else {}


def _read_bytes(path: Path, doc: str, max_bytes: int) -> bytes:
    """The file's bytes, at most max_bytes: size is checked before reading and again while reading (a
    file may grow, and /proc-like files report size 0).  Only regular files are read: a FIFO would block
    forever and /dev/zero would never end."""
    try:
        st = path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise IngestError(doc, "unreadable", "the file is a symbolic link that loops; remove the link") from exc
        raise IngestError(doc, "unreadable", f"cannot open the file ({exc.strerror}); check it exists "
                          "and that symbolic links point somewhere") from exc
    if not stat.S_ISREG(st.st_mode):
        raise IngestError(doc, "unreadable", "not a regular file (a device, pipe or socket); only files "
                          "are read: copy the article into a file")
    if st.st_size > max_bytes:
        raise IngestError(doc, "too_large", f"{st.st_size} bytes is over the {max_bytes}-byte limit "
                          "(setting max_bytes); split the file or raise max_bytes")
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise IngestError(doc, "unreadable", f"cannot read the file ({exc.strerror}); check its "
                          "permissions") from exc
    if len(data) > max_bytes:
        raise IngestError(doc, "too_large", f"over the {max_bytes}-byte limit (setting max_bytes) while "
                          "reading; split the file or raise max_bytes")
    return data


def read_article(path: Path, root: Path, max_bytes: int = MAX_BYTES_DEFAULT) -> Article:
    """Read and decode one article file.  Every failure is an IngestError with a reason code and a
    sentence saying what to do."""
    path = Path(path)
    doc = doc_id(path, root)
    fmt = ARTICLE_SUFFIXES.get(path.suffix.lower(), "txt")
    data = _read_bytes(path, doc, max_bytes)
    if not data.strip():
        raise IngestError(doc, "empty", "the file is empty (or only blank space); nothing to check")
    what = sniff_format(data)
    if what is not None:
        raise IngestError(doc, "binary", f"the file is {what}, not a text article (whatever its name "
                          "says); export the article's text as .txt, .md or .html")
    if not data.startswith(_BOMS) and looks_binary(data):
        raise IngestError(doc, "binary", "the file is binary, not text; remove it or export the article "
                          "as .txt/.html")
    text, encoding = decode_bytes(data, doc, declared_charset(data) if fmt == "html" else None)
    page_date = None
    if fmt == "html":
        page_date = published_date(text)
        text = html_to_text(text)
    if not text.strip():
        raise IngestError(doc, "empty", "no article text found in the file")
    try:
        meta = read_meta(path)
    except Exception as exc:  # noqa: BLE001 - a broken sidecar must not lose the article
        meta = {"meta_error": str(exc)}
    if page_date and not any(meta.get(k) for k in META_DATE_KEYS):
        # a page that carries its date in its markup dates "last December" and the round
        meta = {**meta, "date_text": page_date, "date_line": "HTML metadata (published date)"}
    return Article(doc=doc, text=text, encoding=encoding, fmt=fmt, meta=meta)
