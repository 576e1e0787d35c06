"""The merge at the end of a batch: streamed part by part, same outputs as merging everything at once."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hostile import read_jsonl

import pipeline.run.batch as batch
from pipeline.reconcile.conflicts import ConflictFinder, find_conflicts
from pipeline.records import Claim
from pipeline.run import current
from pipeline.run.batch import csv_cell, run_batch
from pipeline.settings import Settings


def test_conflicts_streamed_one_claim_at_a_time_equal_the_whole_list(clean_run: Path):
    claims = [Claim.from_contract(r) for r in read_jsonl(clean_run / "claims.jsonl")]
    finder = ConflictFinder()
    for c in claims:
        finder.add(c)
    streamed = list(finder.conflicts())
    assert streamed == find_conflicts(iter(claims)) and streamed
    assert streamed == read_jsonl(clean_run / "conflicts.jsonl")


def test_a_conflict_side_carries_what_a_report_needs_to_show_it(clean_run: Path):
    for record in read_jsonl(clean_run / "conflicts.jsonl"):
        for side in record["claims"]:
            assert {"id", "doc", "text", "kind", "value", "unit", "low", "high", "verdict", "explanation"} <= set(side)


def test_claims_csv_has_one_row_per_claim_and_numbers_as_in_the_jsonl(clean_run: Path):
    rows = read_jsonl(clean_run / "claims.jsonl")
    with open(clean_run / "claims.csv", encoding="utf-8", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert [r["id"] for r in table] == [r["id"] for r in rows]
    for r, t in zip(rows, table, strict=True):
        assert t["start"] == str(r["start"]) and t["text"] == r["text"]
        # an integer count stays an integer (no "4096.0"), a float keeps its digits
        # (a value a spreadsheet would run, such as the date "--05" of "last May", gets an apostrophe)
        assert t["value"] == ("" if r["value"] is None else str(csv_cell(r["value"])))
        assert t["entity_round"] == (r["entities"].get("round") or "")


def test_the_index_the_merge_builds_equals_the_one_read_from_its_files(corpus: Path, tmp_path: Path):
    from dataclasses import fields

    from pipeline.report.corpus import index_corpus

    built = run_batch(corpus, tmp_path / "out", Settings()).index
    read = index_corpus(tmp_path / "out")
    assert built is not None and built.claims > 0 and built.conflicts > 0
    for f in fields(read):
        if f.name == "chart":
            assert built.chart.points() == read.chart.points()
        else:
            assert getattr(built, f.name) == getattr(read, f.name), f.name


def test_a_part_that_cannot_be_read_back_is_reported_not_dropped(corpus: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "out"
    real = batch._read_part
    lost: list[str] = []

    def flaky(path: Path) -> dict | None:
        part = real(path)
        # the first read (checking for a reusable part) finds nothing; the merge's read of one part fails
        if part is not None and not lost:
            lost.append(part["doc"])
            return None
        return part

    monkeypatch.setattr(batch, "_read_part", flaky)
    summary = run_batch(corpus, out, Settings())
    errors = read_jsonl(out / "errors.jsonl")
    assert [e["doc"] for e in errors] == lost and errors[0]["error"] == "internal"
    assert "run again" in errors[0]["detail"]
    assert summary.errors == 1 and summary.succeeded == summary.articles - 1
    # the next run redoes it, and nothing is missing or doubled
    monkeypatch.setattr(batch, "_read_part", real)
    again = run_batch(corpus, out, Settings())
    assert again.errors == 0 and again.processed == 0
    rows = read_jsonl(out / "claims.jsonl")
    assert lost[0] in {r["doc"] for r in rows} and len({r["id"] for r in rows}) == len(rows)


def test_a_crash_during_the_merge_leaves_the_previous_outputs(corpus: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "out"
    run_batch(corpus, out, Settings())
    before = {n: (out / n).read_bytes() for n in ("claims.jsonl", "claims.csv", "errors.jsonl", "conflicts.jsonl")}

    def boom(path: Path) -> dict:
        raise OSError("disk full")

    # (a function of the batch module, which is never compiled: a compiled class's methods cannot be patched)
    monkeypatch.setattr(batch, "_read_part", boom)
    current.forget(out, "merge")  # else the rerun finds its outputs current and does not merge
    with pytest.raises(OSError, match="disk full"):
        run_batch(corpus, out, Settings())
    assert {n: (out / n).read_bytes() for n in before} == before
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_part_holds_the_lines_the_merge_copies(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    run_batch(corpus, out, Settings())
    parts = sorted((out / ".parts").glob("*.part"))
    jsonl, csv_text, texts = b"", b"", b""
    for part in parts:  # a header line, the article's claims.jsonl lines, its claims.csv lines, its texts.jsonl line
        head, _, body = part.read_bytes().partition(b"\n")
        header = json.loads(head)
        n, n_text = header["claims"], header["text_bytes"]
        cut = sum(len(line) for line in body.splitlines(keepends=True)[:n])
        jsonl, csv_text = jsonl + body[:cut], csv_text + body[cut:len(body) - n_text]
        texts += body[len(body) - n_text:]
    assert sorted(jsonl.splitlines()) == sorted((out / "claims.jsonl").read_bytes().splitlines())
    assert sorted(csv_text.splitlines()) == sorted((out / "claims.csv").read_bytes().splitlines()[1:])
    assert sorted(texts.splitlines()) == sorted((out / "texts.jsonl").read_bytes().splitlines())
    assert len(texts.splitlines()) == len(parts)  # every article of the corpus was read


@pytest.mark.parametrize("damage", [
    lambda b: b[:len(b) // 2],                      # cut short
    lambda b: b.replace(b"\n", b"", 1),             # header run into the first claim
    lambda b: b + b'{"doc": "x"}\n',                # a line too many
    lambda b: b'{"doc": "x", "claims": [], "version": "0.0.1"}',  # a part of an older version
])
def test_a_damaged_or_older_part_is_redone_not_merged(corpus: Path, tmp_path: Path, damage):
    out = tmp_path / "out"
    run_batch(corpus, out, Settings())
    first = {n: (out / n).read_bytes() for n in ("claims.jsonl", "claims.csv")}
    part = next(p for p in sorted((out / ".parts").glob("*.part"))
                if json.loads(p.read_bytes().partition(b"\n")[0])["claims"])
    part.write_bytes(damage(part.read_bytes()))
    again = run_batch(corpus, out, Settings())
    assert again.processed == 1 and again.errors == 0
    assert {n: (out / n).read_bytes() for n in first} == first


# --- the merge beside the workers: parts merged in the articles' order whatever order they finish in

class _Outputs:
    def __init__(self) -> None:
        self.added: list[int] = []

    def add(self, part: dict) -> None:
        self.added.append(part["n"])


@pytest.mark.parametrize("finish_order, stored", [
    ([0, 1, 2, 3], []),        # in order
    ([3, 2, 1, 0], []),        # backwards: nothing merges until the first is in
    ([1, 0, 3, 2], []),        # pairs swapped (two workers)
    ([2, 0], [1, 3]),          # parts kept from an earlier run fill the gaps
    ([], [0, 1, 2, 3]),        # all kept: merged when finish() is called
])
def test_parts_are_merged_in_the_articles_order(finish_order: list[int], stored: list[int]):
    from pipeline.run.merge import OrderedMerge

    out = _Outputs()
    order = OrderedMerge(out, 4, lambda i: {"n": i}, stored=stored)
    for i in finish_order:
        order.ready(i)
        assert out.added == list(range(len(out.added)))  # never one out of turn
    order.finish()
    assert out.added == [0, 1, 2, 3]


def test_a_merge_that_still_waits_for_an_article_when_the_run_ends_says_so():
    from pipeline.run.merge import OrderedMerge

    order = OrderedMerge(_Outputs(), 3, lambda i: {"n": i})
    order.ready(0)
    order.ready(2)
    with pytest.raises(RuntimeError, match="article 2 of 3"):
        order.finish()


@pytest.mark.parametrize("sentence", [
    "Line\u2028separator inside a sentence: 4096 chips.",   # splitlines() cuts here, JSON does not escape it
    "Next\u0085line and \x1cfile separator: 2.7 times.",
    "Paragraph\u2029separator: 23 seconds.",
])
def test_a_part_whose_claims_hold_unicode_line_breaks_reads_back_whole(sentence: str, tmp_path: Path):
    claim = {"id": "c1", "doc": "a.txt", "sentence": sentence, "text": "4096", "kind": "count", "value": 4096}
    part = {"doc": "a.txt", "file_sha256": "x", "version": "v", "lang": "en", "dated": None, "problems": [],
            "error": None, "claims": [claim, dict(claim, id="c2")]}
    path = tmp_path / "a.part"
    path.write_bytes(batch._part_text(part))
    back = batch._read_part(path)
    assert back is not None and [c["sentence"] for c in back["claims"]] == [sentence, sentence]


def test_claims_parquet_written_by_the_merge_equals_the_one_the_report_builds(clean_run: Path, tmp_path: Path):
    import pandas as pd

    from pipeline.report.table import claims_parquet

    merged = pd.read_parquet(clean_run / "claims.parquet")
    rebuilt = pd.read_parquet(io.BytesIO(claims_parquet(read_jsonl(clean_run / "claims.jsonl"))))
    assert len(merged) > 0 and merged.equals(rebuilt)


def test_a_claim_with_a_field_the_table_lacks_has_the_parquet_rebuilt_with_its_column(tmp_path: Path):
    import pyarrow.parquet as pq

    from pipeline.report.table import ParquetStream, extra_columns, write_parquet

    rows = [{"id": "a", "kind": "count", "value": 1}, {"id": "b", "kind": "count", "value": 2, "later_field": [1]}]
    stream = ParquetStream([])
    with open(tmp_path / "s.parquet", "wb") as fh:
        stream.open(fh)
        stream.add_all(rows)
        stream.close()
    assert not stream.complete  # the caller rebuilds it
    with open(tmp_path / "r.parquet", "wb") as fh:
        write_parquet(fh, rows, extra_columns(k for r in rows for k in r))
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.num_rows == 2 and table.column("later_field").to_pylist() == [None, "[1]"]
