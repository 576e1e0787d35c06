"""justext's stop words of every language, kept between processes: a third of a second off the first HTML
page of every process that reads pages.

When trafilatura finds little main text in a page it tries justext, with the stop words of all of justext's
100 languages when the page's language is not given (ours never is).  trafilatura builds that list once per
process, reading and splitting justext's 100 word files: 0.3 s of CPU in each article worker, on its first
such page.  The first process on a machine writes the words to a file beside the other caches (the temp
folder, as re_programs does); every later one reads them from it and gives them to trafilatura as the list
it would have built.  The file is named for the versions of trafilatura and justext, read only when this
user owns it and no one else may write it (fileio.own_cache_file), and checked: any fault and the words
are read from justext as usual.  The words are the same set, so pages read the same.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import sys
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pipeline.fileio import cache_dir, own_cache_file, write_cache_file

log = logging.getLogger(__name__)


def _path() -> Path:
    try:
        versions = f"{version('trafilatura')}:{version('jusText')}"
    except PackageNotFoundError:
        versions = "unknown"
    key = f"{versions}:{sys.version}".encode()
    return cache_dir() / f"newsclaims-stoplist-{hashlib.sha1(key).hexdigest()[:16]}.marshal"


def _read(path: Path) -> tuple[str, ...] | None:
    if not own_cache_file(path):
        return None
    try:
        words = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError) as exc:
        log.debug("stop words in %s not used (%s)", path, exc)
        return None
    if not isinstance(words, tuple) or not words or not all(type(w) is str for w in words):
        return None
    return words


def _write(path: Path, words: tuple[str, ...]) -> None:
    if not write_cache_file(path, marshal.dumps(words)):
        log.debug("stop words not written to %s", path)


@lru_cache(maxsize=1)
def prepare() -> bool:
    """Give trafilatura its all-language stop words from the file (written here the first time); whether
    they came from the file.  A trafilatura without that list (another version's layout) is left alone."""
    try:
        import trafilatura.external
    except ImportError:
        return False
    # Any: trafilatura declares the list as None until built, which a type checker reading it would hold to
    external: Any = trafilatura.external
    build = getattr(external, "jt_stoplist_init", None)
    if getattr(external, "JT_STOPLIST", "absent") is not None or not callable(build):
        return False  # already built here, or not the list this module knows
    path = _path()
    words = _read(path)
    if words is None:
        built: Any = build()
        if isinstance(built, tuple):
            _write(path, tuple(sorted(built)))  # sorted: the same file whatever the process's hash seed
        return False
    external.JT_STOPLIST = words
    return True
