"""jieba's dictionary, memory-mapped instead of unmarshalled: the same words and frequencies, so the same
cuts, without building half a million strings at start-up.

jieba loads its prefix dictionary (498,113 words and prefixes with their frequencies) from a marshal cache
into a dict: 1.1 s of every process that cuts Chinese, most of what `newsclaims extract` makes a person wait
for, and some 60 MB in each worker.  Here the first process that needs it writes the same entries to a
MARISA trie beside jieba's own cache; every later one maps that file (a fraction of a millisecond) and gives
jieba a mapping over it.  Words added at run time (our user dictionary) go to a small dict in front of
the trie, as jieba's add_word expects.  The cut of any text is the same either way (tests/test_segment.py).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

from pipeline.fileio import cache_dir, own_cache_file

log = logging.getLogger(__name__)
FORMAT = "<I"  # one unsigned int per key: its frequency (0 for a prefix)


class TrieFreq(MutableMapping):
    """jieba's FREQ: word -> frequency, read from a trie, with words added later kept in front of it."""

    def __init__(self, trie: Any) -> None:
        self.trie = trie
        self.added: dict[str, int] = {}
        self.changes = 0  # words added or changed since it was made (jieba_dag's memo starts again)

    def lookup(self, word: str) -> int:
        """The word's frequency, 0 for the prefix of a word only, -1 when the dictionary has neither."""
        if word in self.added:
            return self.added[word]
        found = self.trie.get(word)
        return int(found[0][0]) if found else -1

    def __getitem__(self, word: str) -> int:
        freq = self.lookup(word)
        if freq < 0:
            raise KeyError(word)
        return freq

    def get(self, word: str, default: Any = None) -> Any:
        """The word's frequency, or `default` when the dictionary does not hold it."""
        freq = self.lookup(word)
        return freq if freq >= 0 else default

    def __contains__(self, word: object) -> bool:
        return word in self.added or (isinstance(word, str) and word in self.trie)

    def __setitem__(self, word: str, freq: int) -> None:
        self.added[word] = int(freq)
        self.changes += 1

    def __delitem__(self, word: str) -> None:
        raise KeyError(f"{word}: words are not removed from jieba's dictionary here")

    def __iter__(self) -> Iterator[str]:
        yield from self.added
        yield from (w for w in self.trie.keys() if w not in self.added)

    def __len__(self) -> int:
        return len(self.trie) + sum(1 for w in self.added if w not in self.trie)


def _cache_path(dictionary: Path) -> Path:
    """Beside jieba's own cache, named for the dictionary it was made from (its size and time)."""
    import jieba

    st = dictionary.stat()
    key = f"{jieba.__version__}:{dictionary}:{st.st_size}:{st.st_mtime_ns}".encode()
    return cache_dir() / f"newsclaims-jieba-{hashlib.sha1(key).hexdigest()[:16]}.marisa"


def _write(path: Path, freq: dict[str, int], total: int) -> None:
    import marisa_trie

    trie = marisa_trie.RecordTrie(FORMAT, ((w, (int(f),)) for w, f in freq.items()))
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        os.chmod(tmp, 0o644)  # other users' processes may map it too
        trie.save(tmp)
        Path(tmp + ".total").write_text(str(total), encoding="ascii")
        os.chmod(tmp + ".total", 0o644)  # whatever the umask: a group-writable file would not be read back
        os.replace(tmp + ".total", str(path) + ".total")
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp + ".total"):
            if os.path.exists(leftover):
                os.unlink(leftover)


def _mapped(path: Path) -> tuple[Any, int] | None:
    try:
        import marisa_trie

        total = int(Path(str(path) + ".total").read_text(encoding="ascii"))
        return marisa_trie.RecordTrie(FORMAT).mmap(str(path)), total
    except (OSError, ValueError, ImportError, RuntimeError) as exc:
        log.debug("jieba trie %s not usable (%s): jieba loads its own dictionary", path, exc)
        return None


def prepare(tokenizer: Any) -> bool:
    """Give `tokenizer` (jieba's default, jieba.dt) its dictionary from the trie; the first time, load it
    as jieba does and write the trie for the next process.  True when the trie is in use."""
    if getattr(tokenizer, "initialized", False):
        return isinstance(getattr(tokenizer, "FREQ", None), TrieFreq)
    import jieba

    # the default dictionary (None) is jieba's own dict.txt
    dictionary = Path(tokenizer.dictionary or Path(jieba.__file__).with_name("dict.txt"))
    path = _cache_path(dictionary)
    # read only when ours and written by no one else (the temp folder is shared)
    found = _mapped(path) if own_cache_file(path) and own_cache_file(Path(str(path) + ".total")) else None
    if found is None:
        tokenizer.initialize()  # jieba's own way, this once
        try:
            _write(path, tokenizer.FREQ, tokenizer.total)
        except (OSError, ImportError) as exc:  # a read-only temp folder: every process loads jieba's way
            log.debug("jieba trie not written to %s (%s)", path, exc)
        return False
    trie, total = found
    tokenizer.FREQ, tokenizer.total = TrieFreq(trie), total
    tokenizer.initialized = True
    # the word graph and route over it, compiled (jieba_dag), in place of jieba's loops over FREQ's methods
    from pipeline.segment.jieba_dag import DagCutter

    cutter = DagCutter(tokenizer, tokenizer.FREQ)
    tokenizer.get_DAG, tokenizer.calc = cutter.get_DAG, cutter.calc
    return True
