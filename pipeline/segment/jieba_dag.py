"""jieba's word graph and best route over our memory-mapped dictionary (jieba_dict.TrieFreq), compiled.

jieba cuts a block of text in two steps, both pure Python: `get_DAG` asks its dictionary, at every position,
for each longer fragment whether it is a word or the prefix of one, and `calc` finds the route of highest
log frequency through the words found.  Over the trie each question is a Python method call of TrieFreq,
three per fragment, which made these two steps most of a Chinese cut.  Here they are the same loops,
compiled with the stages (pipeline/native.py), with a memo of the fragments already asked about (the
same characters recur: 的, 训练, 芯片).  The graph and the route are jieba's, element for element: the same
fragments are looked up in the same order, the same log sums are added in the same order, and ties go to
the longer word as `max` over (score, end) gives them (tests/test_segment.py cuts the corpus both ways).
"""

from __future__ import annotations

from math import log
from typing import Any

# Fragments remembered per process (a fragment and its frequency take about 100 bytes): the 500 Chinese
# articles of the benchmark ask about some 150,000
MEMO_MAX = 400_000


class DagCutter:
    """get_DAG and calc for one jieba tokenizer whose FREQ is `freq` (a TrieFreq: `lookup(word)` gives the
    frequency, 0 for a prefix, -1 for neither; `changes` counts the words added since it was made)."""

    def __init__(self, tokenizer: Any, freq: Any) -> None:
        self.tokenizer = tokenizer
        self.freq = freq
        self.memo: dict[str, int] = {}
        self.seen = -1  # freq.changes when the memo was started

    def _fresh(self) -> dict[str, int]:
        """The memo, emptied when words were added to the dictionary since it was started."""
        changes = int(self.freq.changes)
        if changes != self.seen:
            self.memo = {}
            self.seen = changes
        return self.memo

    def _frequency(self, memo: dict[str, int], frag: str) -> int:
        f = memo.get(frag)
        if f is None:
            f = int(self.freq.lookup(frag))
            if len(memo) < MEMO_MAX:
                memo[frag] = f
        return f

    def get_DAG(self, sentence: str) -> dict[int, list[int]]:  # noqa: N802 - jieba's name
        """For each position, the ends of the dictionary words that start there (itself when none)."""
        memo = self._fresh()
        dag: dict[int, list[int]] = {}
        n = len(sentence)
        for k in range(n):
            ends: list[int] = []
            i = k
            frag = sentence[k]
            while i < n:
                f = self._frequency(memo, frag)
                if f < 0:
                    break
                if f:
                    ends.append(i)
                i += 1
                frag = sentence[k:i + 1]
            if not ends:
                ends.append(k)
            dag[k] = ends
        return dag

    def calc(self, sentence: str, dag: dict[int, list[int]], route: dict[int, Any]) -> None:
        """The best route from each position to the end: (log probability, end of the first word)."""
        memo = self._fresh()
        n = len(sentence)
        route[n] = (0, 0)
        logtotal = log(self.tokenizer.total)
        for idx in range(n - 1, -1, -1):
            best: tuple[float, int] | None = None
            for x in dag[idx]:
                f = self._frequency(memo, sentence[idx:x + 1])
                candidate = (log(f if f > 0 else 1) - logtotal + route[x + 1][0], x)
                if best is None or candidate > best:
                    best = candidate
            route[idx] = best
