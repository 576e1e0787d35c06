"""The merge at the end of a batch: streamed part by part, same outputs as merging everything at once."""

from __future__ import annotations

import csv
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

    def boom(self, row: dict) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(ConflictFinder, "add_row", boom)
    current.forget(out, "merge")  # else the rerun finds its outputs current and does not merge
    with pytest.raises(OSError, match="disk full"):
        run_batch(corpus, out, Settings())
    assert {n: (out / n).read_bytes() for n in before} == before
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_part_holds_the_lines_the_merge_copies(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    run_batch(corpus, out, Settings())
    parts = sorted((out / ".parts").glob("*.part"))
    jsonl, csv_text = b"", b""
    for part in parts:  # a header line, then the article's claims.jsonl lines, then its claims.csv lines
        head, _, body = part.read_bytes().partition(b"\n")
        n = json.loads(head)["claims"]
        cut = sum(len(line) for line in body.splitlines(keepends=True)[:n])
        jsonl, csv_text = jsonl + body[:cut], csv_text + body[cut:]
    assert sorted(jsonl.splitlines()) == sorted((out / "claims.jsonl").read_bytes().splitlines())
    assert sorted(csv_text.splitlines()) == sorted((out / "claims.csv").read_bytes().splitlines()[1:])


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
