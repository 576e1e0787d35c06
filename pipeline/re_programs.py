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
import re
import sys
from pathlib import Path
from typing import Any

from pipeline.fileio import cache_dir, own_cache_file, write_cache_file

log = logging.getLogger(__name__)

# Well above what a run's processes compile (some 570): past this, the file keeps only what the writing
# process holds (processes of other settings add their own)
MAX_PROGRAMS = 1000
# re's own room beside the stored programs (its _MAXCACHE in CPython 3.11 and 3.12)
_OWN_ROOM = 512

# the programs this process knows (read from the file, or written to it), by pattern and flags
_PROGRAMS: dict[tuple[str | bytes, int], tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]] = {}
_loaded: set[tuple[str | bytes, int]] = set()


def _path() -> Path:
    import _sre

    key = f"{sys.version}:{sys.platform}:{_sre.MAGIC}:{_sre.CODESIZE}:{Path(re.__file__).parent}".encode()
    return cache_dir() / f"newsclaims-re-{hashlib.sha1(key).hexdigest()[:16]}.marshal"


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
    # re keeps _MAXCACHE patterns and drops its oldest for each new one past that: the stored programs come
    # on top of re's own room, else the patterns compiled meanwhile would push out stored ones before their
    # first use (a start-up compiles more than 512 in all), and a save would miss those pushed out
    size = getattr(re, "_MAXCACHE", None)
    if isinstance(size, int):
        re._MAXCACHE = max(size, len(cache) + len(made) + _OWN_ROOM)  # type: ignore[attr-defined]
    for key, compiled in made.items():
        cache.setdefault(key, compiled)  # one compiled meanwhile stays
    _PROGRAMS.update(programs)
    _loaded.update(programs)
    return len(programs)


def save() -> int:
    """Add the programs of the patterns compiled since `preload` to the file (after a warm-up has compiled
    what every article needs); how many were added.  Nothing is written when the file was read and only a
    few are new, unless it holds more than MAX_PROGRAMS, which are then cut to this process's own."""
    cache = _cache()
    if cache is None:
        return 0
    # plain str and bytes patterns only: marshal writes no subclass (a library's str type)
    unknown = [(key[1], int(key[2]), compiled) for key, compiled in list(cache.items())
               if isinstance(key, tuple) and len(key) == 3 and key[0] in (str, bytes)
               and isinstance(compiled, re.Pattern) and (key[1], int(key[2])) not in _PROGRAMS]
    # A few patterns are built anew by every process (a library's alternation in a set's order, which
    # changes with the hash seed): they are compiled as usual rather than rewrite the file on every run
    # (and not even redone here, which would cost what compiling them did).
    overgrown = len(_PROGRAMS) > MAX_PROGRAMS
    if len(unknown) < max(1, len(_loaded) // 20) and not overgrown:
        return 0
    new = {}
    for pattern, flags, compiled in unknown:
        program = _program(pattern, flags, compiled)
        if program is not None:
            new[pattern, flags] = program
    if not new and not overgrown:
        return 0
    programs = {**_PROGRAMS, **new}
    if len(programs) > MAX_PROGRAMS:
        # processes of other settings (a language folder of one's own, a test suite) added theirs: keep what
        # this one holds (a pattern a module keeps is referenced beyond re's cache, the items list, the loop
        # and the call: more than four times) and what it compiled
        held = {(key[1], int(key[2])) for key, compiled in list(cache.items())
                if isinstance(key, tuple) and len(key) == 3 and sys.getrefcount(compiled) > 4}
        programs = {k: v for k, v in programs.items() if k in held or k in new}
    path = _path()
    try:
        data = marshal.dumps(programs)
    except ValueError as exc:  # a value marshal cannot write: compiled as usual
        log.debug("regex programs not written to %s (%s)", path, exc)
        return 0
    if not write_cache_file(path, data):  # a read-only temp folder: compiled as usual
        log.debug("regex programs not written to %s", path)
        return 0
    _PROGRAMS.clear()
    _PROGRAMS.update(programs)
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
