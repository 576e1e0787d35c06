"""claims.csv lines are written by pipeline.run.merge.csv_text: the csv module's dialect (minimal quoting,
\\n line ends), field for field, with a carriage return quoted as well."""

import csv
import io
import random

import pytest

from pipeline.run.merge import csv_field, csv_text


def _csv_module(rows: list[list]) -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode("utf-8")


@pytest.mark.parametrize("value, written", [
    ("TPU v4 训练 BERT 用了 23 秒", "TPU v4 训练 BERT 用了 23 秒"),
    ("4,096 chips", '"4,096 chips"'),
    ('the "fastest" system', '"the ""fastest"" system"'),
    ("two\nlines", '"two\nlines"'),
    ("a\rb", '"a\rb"'),
    ("", ""),
    (None, ""),
    (2.7, "2.7"),
    (1e-07, "1e-07"),
    (True, "True"),
    (4096, "4096"),
    (" padded ", " padded "),
])
def test_a_field_is_written_as_csv_writes_it(value, written):
    assert csv_field(value) == written


@pytest.mark.parametrize("rows", [
    [["doc.txt", "zh", 2.7, None, "提高了1.7倍"], ["b.md", "en", 4096, True, 'said "4x", twice']],
    [[""]],  # a lone empty field is written "" so that the row is not an empty line
    [[]],
    [],
])
def test_rows_are_the_csv_modules_rows(rows):
    assert csv_text(rows) == _csv_module(rows)


def test_random_rows_match_the_csv_module():
    rng = random.Random(7)
    alphabet = ["a", ",", '"', "\n", " ", "中", "'", "\t", "=", "\u2028"]

    def value():
        pick = rng.random()
        if pick < 0.1:
            return None
        if pick < 0.25:
            return rng.random() * 10 ** rng.randint(-8, 20)
        if pick < 0.3:
            return rng.randint(-10**20, 10**20)
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))

    for _ in range(2000):
        rows = [[value() for _ in range(rng.randint(0, 4))] for _ in range(rng.randint(0, 3))]
        assert csv_text(rows) == _csv_module(rows)


def test_a_carriage_return_reads_back_inside_its_field():
    rows = [["a\rb", "c"], ["d", "e"]]
    back = list(csv.reader(io.StringIO(csv_text(rows).decode("utf-8"), newline="")))
    assert back == rows


def _rows_of_a_run(seeds) -> list[dict]:
    """Claims as a run writes them (every field, nested ones included): the two founding articles'."""
    from pipeline.ingest.read import find_articles
    from pipeline.run.process import process_path
    from pipeline.settings import Settings

    return [c.to_contract() for path in find_articles(seeds)
            for c in process_path(path, seeds, Settings()).claims]


def _flattened(r: dict) -> list:
    """claims.csv's row of a claims.jsonl row, as the contract describes it: the row's fields by CSV_COLUMNS,
    entities one column per type, evidence joined by spaces, compared_to, frame and alternatives as JSON
    (empty when empty), a formula's first character made inert."""
    from pipeline.fileio import json_text
    from pipeline.run.merge import CSV_COLUMNS, csv_cell

    flat = {k: v for k, v in r.items() if k not in ("entities", "evidence", "compared_to", "frame", "alternatives")}
    for key, value in (r.get("entities") or {}).items():
        flat[f"entity_{key}"] = value
    flat["evidence"] = " ".join(r.get("evidence") or [])
    for key in ("compared_to", "frame", "alternatives"):
        flat[key] = json_text(r[key]) if r.get(key) else ""
    return ["" if flat.get(k) is None else csv_cell(flat[k]) for k in CSV_COLUMNS]


def test_a_claims_lines_are_its_csv_rows(seeds):
    from pipeline.run.merge import csv_lines

    rows = _rows_of_a_run(seeds)
    assert len(rows) > 10 and any(r.get("frame") for r in rows) and any(r.get("alternatives") for r in rows)
    edge = {**rows[0], "sentence": '=SUM(A1), "quoted"\r\nnext', "value": None, "unit": "-1",
            "evidence": ["a,b", "c"], "entities": {"org": "@org", "nobody": "x"}, "frame": None,
            "alternatives": [], "compared_to": {"baseline": {"round": "training-v0.6"}}}
    rows.append(edge)
    rows.append({k: v for k, v in rows[1].items() if k != "frame"})  # a row that lacks a field
    assert csv_lines(rows) == _csv_module([_flattened(r) for r in rows])


@pytest.mark.parametrize("value, written", [
    ("=SUM(A1:A2)", "'=SUM(A1:A2)"),
    ("+4096 chips", "'+4096 chips"),
    ("-1", "'-1"),
    ("@cmd", "'@cmd"),
    ("\tlead", "'\tlead"),
    ("\rlead", "'\rlead"),
    ("", ""),  # nothing a spreadsheet runs
    ("a=b", "a=b"),  # only the first character counts
    ("谷歌", "谷歌"),
    (-1, -1),  # numbers stay numbers
    (None, None),
])
def test_a_cell_a_spreadsheet_would_run_gets_an_apostrophe(value, written):
    from pipeline.run.merge import csv_cell

    assert csv_cell(value) == written
