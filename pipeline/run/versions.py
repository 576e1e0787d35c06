"""What a stored per-article result was made with: the package's code and language data (hashed) and
the versions of the libraries that read the text.  A change to either makes earlier results stale."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.lang.loader import LANG_DIR

__version__ = "0.1.0"


PACKAGE_DIR = Path(__file__).resolve().parents[1]
# Parts of the package that cannot change what an article yields: editing them keeps earlier parts valid.
_NOT_PER_ARTICLE = ("report/", "review/", "cli.py", "fileio.py", "run/batch.py", "run/pool.py", "run/outdir.py",
                    "run/dask_engine.py", "run/isolated.py", "run/current.py", "run/worker.py", "procs.py")


def hash_tree(h: Any, root: Path, suffixes: set[str], skip: tuple[str, ...] = ()) -> None:
    """Feed `h` the path and bytes of every file under root with one of `suffixes`, in a fixed order,
    leaving out paths (relative to root) that start with one of `skip`."""
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.suffix in suffixes and path.is_file() and "__pycache__" not in rel and not rel.startswith(skip):
            h.update(rel.encode())
            h.update(path.read_bytes())


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """Code version plus a hash of the code and language data that process an article: a changed
    extractor or lexicon makes earlier per-article results stale, so a rerun redoes them."""
    h = hashlib.sha1(__version__.encode())
    hash_tree(h, PACKAGE_DIR, {".py", ".yaml", ".txt", ".jsonl", ".csv"}, _NOT_PER_ARTICLE)
    if not LANG_DIR.resolve().is_relative_to(PACKAGE_DIR):
        hash_tree(h, LANG_DIR.resolve(), {".yaml", ".txt", ".jsonl"}, _NOT_PER_ARTICLE)
    return f"{__version__}+{h.hexdigest()[:10]}"


# The libraries whose upgrade can change what an article yields (decoding, HTML text, segmentation, numerals,
# Traditional Chinese, fuzzy names): their versions are part of the run fingerprint.
RESULT_LIBRARIES = ("spacy", "jieba", "cn2an", "opencc", "trafilatura", "charset-normalizer", "rapidfuzz")


def library_versions() -> dict[str, str]:
    """The versions of the libraries that read the text (RESULT_LIBRARIES), "absent" where one is missing."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in RESULT_LIBRARIES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "absent"
    return out
