"""Compiled regular expressions kept between processes: a third of a second off every start-up.

Python compiles a pattern in pure Python (re._parser, re._compiler) into a program of integers for its C
engine, and keeps the result only in the process's own cache (re._cache).  Loading newsclaims compiles
some 330 patterns, a quarter of them its own: cn2an builds two for every numeral it could validate (0.2 s
between them), spaCy's tokenizer rules and proces' a few more.  The first warm-up on a machine writes each
pattern's program to a file beside jieba's dictionary trie (segment/jieba_dict.py); every later process
gives the programs straight to the engine (`_sre.compile`, what re._compiler.compile itself ends with) and
puts the patterns in re's cache, where any `re.compile` of the same text and flags finds them.

A program is written only after the pattern built from it compared equal to the one `re.compile` made
(pattern equality compares the programs).  The file is named for the interpreter's build and its engine's
version, and is read only when this user owns it and no one else may write it (fileio.own_cache_file);
whatever goes wrong with it (missing, damaged, another Python's), the patterns are compiled as usual.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from pipeline.fileio import own_cache_file

log = logging.getLogger(__name__)

# what the programs of this file were made with: they hold only for the same engine and compiler
_PROGRAMS: dict[tuple[str | bytes, int], tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]] = {}
_loaded: set[tuple[str | bytes, int]] = set()


def _path() -> Path:
    import _sre

    key = f"{sys.version}:{sys.platform}:{_sre.MAGIC}:{_sre.CODESIZE}:{Path(re.__file__).parent}".encode()
    return Path(tempfile.gettempdir()) / f"newsclaims-re-{hashlib.sha1(key).hexdigest()[:16]}.marshal"


def _cache() -> dict | None:
    """re's own cache of compiled patterns, where this Python has one of the expected shape."""
    cache = getattr(re, "_cache", None)
    return cache if isinstance(cache, dict) else None


def preload() -> int:
    """Put the stored patterns in re's cache (once per process); how many."""
    if _loaded:
        return len(_loaded)
    cache, path = _cache(), _path()
    if cache is None or not own_cache_file(path):
        return 0
    try:
        import _sre

        programs = marshal.loads(path.read_bytes())
        made = {}
        for (pattern, flags), (final, code, groups, groupindex, indexgroup) in programs.items():
            made[type(pattern), pattern, flags] = _sre.compile(pattern, final, code, groups, groupindex, indexgroup)
    except Exception as exc:  # noqa: BLE001 - any fault in the file means only that patterns compile as usual
        log.debug("regex programs in %s not used (%s)", path, exc)
        return 0
    for key, compiled in made.items():
        cache.setdefault(key, compiled)  # one compiled meanwhile stays
    _PROGRAMS.update(programs)
    _loaded.update(programs)
    return len(programs)


def save() -> int:
    """Add the programs of the patterns compiled since `preload` to the file (after a warm-up has compiled
    what every article needs); how many were added.  Nothing is written when the file was read and only a
    few are new."""
    cache = _cache()
    if cache is None:
        return 0
    new = {}
    for key, compiled in list(cache.items()):
        # plain str and bytes patterns only: marshal writes no subclass (a library's str type)
        if not (isinstance(key, tuple) and len(key) == 3 and key[0] in (str, bytes)
                and isinstance(compiled, re.Pattern)):
            continue
        _, pattern, flags = key
        if (pattern, int(flags)) in _PROGRAMS:
            continue
        program = _program(pattern, int(flags), compiled)
        if program is not None:
            new[pattern, int(flags)] = program
    # A few patterns are built anew by every process (a library's alternation in a set's order, which
    # changes with the hash seed): they are compiled as usual rather than rewrite the file on every run.
    if len(new) < max(1, len(_loaded) // 20) or not new:
        return 0
    programs = {**_PROGRAMS, **new}
    path = _path()
    try:
        data = marshal.dumps(programs)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except (OSError, ValueError) as exc:  # a read-only temp folder, a value marshal cannot write: compiled as usual
        log.debug("regex programs not written to %s (%s)", path, exc)
        return 0
    _PROGRAMS.update(new)
    return len(new)


def _program(pattern: Any, flags: int, compiled: re.Pattern) -> tuple | None:
    """What `_sre.compile` needs to make `compiled` again, as re._compiler.compile computes it; None when
    this Python's re works otherwise or the result would differ."""
    try:
        import _sre
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        code = [int(x) for x in _compiler._code(parsed, flags)]
        groupindex = {str(k): int(v) for k, v in parsed.state.groupdict.items()}
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        final, groups = int(flags | parsed.state.flags), int(parsed.state.groups - 1)
        if _sre.compile(pattern, final, code, groups, groupindex, tuple(indexgroup)) != compiled:
            return None
        return final, code, groups, groupindex, tuple(indexgroup)
    except Exception:  # noqa: BLE001 - a pattern this cannot redo is compiled as usual
        return None
