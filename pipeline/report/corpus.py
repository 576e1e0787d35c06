"""A run's output read as streams, for reports of corpora too large to hold: one pass over claims.jsonl and
conflicts.jsonl records the corpus counts, the chart points and where each article's lines are (byte
offsets); an article's claims are read back when its page is written.  Memory grows with the number of
articles (a few numbers each), not with the number of claims.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import CorruptFileError
from pipeline.fileio import json_loads
from pipeline.report.chart import ChartPoints
from pipeline.report.fmt import DISCREPANCY, VERDICT_LABELS, VERDICT_ORDER

# The corpus page lists this many conflicts and discrepancies; every one is on its article's page and in
# conflicts.jsonl / claims.jsonl.
INDEX_ROWS = 200


def _lines(path: Path) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(line number, byte offset, row) of each non-blank JSON line; a broken line is an error naming it."""
    if not path.exists():
        return
    offset = 0
    with open(path, "rb") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    row = json_loads(line)
                except ValueError as exc:
                    raise CorruptFileError(f"{path}:{n}: not a JSON line ({exc}); the file is damaged: "
                                           "rerun newsclaims to write it again") from exc
                yield n, offset, row
            offset += len(line)


def read_at(path: Path, offsets: Iterable[int], ids: bool = True) -> list[dict[str, Any]]:
    """The JSON lines that start at these byte offsets, in the order given; with `ids`, a row without an id
    (an older claims.jsonl) gets one from its offset, the same in every pass."""
    rows = []
    with open(path, "rb") as fh:
        for at in offsets:
            fh.seek(at)
            row = json_loads(fh.readline())
            if ids:
                row.setdefault("id", f"claim-{at}")
            rows.append(row)
    return rows


def conflict_order(conflict: dict[str, Any]) -> tuple[int, int]:
    """Conflicts that hold a wrong or ambiguous claim first, then those across articles."""
    bad = any(c.get("verdict") in DISCREPANCY for c in conflict.get("claims") or [])
    return (0 if bad else 1, 0 if conflict.get("cross_article") else 1)


@dataclass
class DocCounts:
    claims: int = 0
    discrepancies: int = 0
    conflicts: int = 0


# The articles' texts as the run read them, one JSON line each ({doc, text, shown}): what a report shows
TEXTS_FILE = "texts.jsonl"


@dataclass
class CorpusIndex:
    claims_path: Path
    conflicts_path: Path
    texts_path: Path | None = None
    claim_offsets: dict[str, array] = field(default_factory=dict)
    text_offsets: dict[str, int] = field(default_factory=dict)
    conflict_offsets: dict[str, array] = field(default_factory=dict)
    counts: dict[str, DocCounts] = field(default_factory=dict)
    verdicts: Counter = field(default_factory=Counter)
    languages: Counter = field(default_factory=Counter)
    distortions: Counter = field(default_factory=Counter)
    keys: set[str] = field(default_factory=set)  # every field name seen in claims.jsonl
    chart: ChartPoints = field(default_factory=ChartPoints)
    claims: int = 0
    discrepancies: int = 0
    top_discrepancies: list[dict[str, Any]] = field(default_factory=list)
    conflicts: int = 0
    cross_article: int = 0
    top_conflicts: list[dict[str, Any]] = field(default_factory=list)

    # Built in one pass: add_claim for each line of claims.jsonl, then add_conflict for each line of
    # conflicts.jsonl (with its byte offset), then finish.  index_corpus reads them from the files; a batch
    # run's merge feeds them as it writes the files, so that the report need not read them again.
    _firsts: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict, repr=False)

    def add_claim(self, c: dict[str, Any], at: int) -> None:
        """Index the claim at byte offset `at` of claims.jsonl: its article's place and counts, the chart,
        the discrepancies the corpus page shows."""
        doc = str(c.get("doc"))
        c.setdefault("id", f"claim-{at}")
        self.claim_offsets.setdefault(doc, array("q")).append(at)
        counts = self.counts.setdefault(doc, DocCounts())
        counts.claims += 1
        self.claims += 1
        self.keys.update(c)
        verdict = c.get("verdict")
        self.verdicts[verdict] += 1
        if c.get("lang"):
            self.languages[c["lang"]] += 1
        if c.get("distortion"):
            self.distortions[c["distortion"]] += 1
        if verdict in DISCREPANCY:
            counts.discrepancies += 1
            self.discrepancies += 1
            if len(self.top_discrepancies) < INDEX_ROWS:
                self.top_discrepancies.append(c)
        self.chart.add(c)

    def add_text(self, doc: str, at: int) -> None:
        """Index the text of `doc` at byte offset `at` of texts.jsonl."""
        self.text_offsets[doc] = at

    def add_conflict(self, k: dict[str, Any], at: int) -> None:
        """Index the conflict at byte offset `at` of conflicts.jsonl: the counts of its articles, and the
        first ones in report order."""
        self.conflicts += 1
        self.cross_article += bool(k.get("cross_article"))
        for doc in {str(c.get("doc")) for c in k.get("claims") or []}:
            self.conflict_offsets.setdefault(doc, array("q")).append(at)
            self.counts.setdefault(doc, DocCounts()).conflicts += 1
        # the first INDEX_ROWS in report order: at most that many of each of the four orders are kept
        kept = self._firsts.setdefault(conflict_order(k), [])
        if len(kept) < INDEX_ROWS:
            kept.append(k)

    def finish(self) -> None:
        """Settle the conflicts the corpus page shows, once every conflict is added."""
        self.top_conflicts = [k for order in sorted(self._firsts) for k in self._firsts[order]][:INDEX_ROWS]
        self._firsts = {}

    def doc_claims(self, doc: str) -> list[dict[str, Any]]:
        """The claims of `doc`, read back from claims.jsonl."""
        return read_at(self.claims_path, self.claim_offsets.get(doc, ()))

    def doc_texts(self, docs: list[str]) -> dict[str, dict[str, Any]]:
        """The texts.jsonl rows of those of `docs` the run kept a text of, by doc."""
        held = [(at, d) for d in docs if (at := self.text_offsets.get(d)) is not None]
        if not held or self.texts_path is None:
            return {}
        rows = read_at(self.texts_path, [at for at, _ in held], ids=False)
        return {d: row for (_, d), row in zip(held, rows, strict=True) if row.get("doc") == d}

    def doc_conflicts(self, docs: list[str]) -> list[dict[str, Any]]:
        """The conflicts that involve any of `docs`, each once, in report order."""
        offsets = sorted({at for d in docs for at in self.conflict_offsets.get(d, ())})
        return sorted(read_at(self.conflicts_path, offsets), key=conflict_order)

    def summary(self, articles: int, with_claims: int, errors: int) -> dict[str, Any]:
        """The shape of ReportData.summary, for the same templates."""
        return {
            "articles": articles,
            "articles_with_claims": with_claims,
            "claims": self.claims,
            "verdicts": [(v, VERDICT_LABELS[v], self.verdicts.get(v, 0)) for v in VERDICT_ORDER],
            "discrepancies": self.discrepancies,
            "conflicts": self.conflicts,
            "cross_article": self.cross_article,
            "errors": errors,
            "languages": sorted(self.languages.items()),
            "distortions": self.distortions.most_common(),
        }


def claim_rows(index: CorpusIndex) -> Iterator[dict[str, Any]]:
    """Every claim of claims.jsonl, read one at a time."""
    for _, _, c in _lines(index.claims_path):
        yield c


def index_corpus(out_dir: Path) -> CorpusIndex:
    """The index of a run's claims.jsonl and conflicts.jsonl, read from the files."""
    out_dir = Path(out_dir)
    index = CorpusIndex(out_dir / "claims.jsonl", out_dir / "conflicts.jsonl", out_dir / TEXTS_FILE)
    for _, at, c in _lines(index.claims_path):
        index.add_claim(c, at)
    for _, at, t in _lines(out_dir / TEXTS_FILE):
        index.add_text(str(t.get("doc")), at)
    for _, at, k in _lines(index.conflicts_path):
        index.add_conflict(k, at)
    index.finish()
    return index
