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
