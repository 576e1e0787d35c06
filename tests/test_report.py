"""Reports: escaping of untrusted article text, Markdown tables, summary counts, conflicts first, the chart,
the Parquet table and the fallback when the articles are gone.  Built on a hand-made run folder so the
report's behaviour is pinned independently of extraction; the seeds run is covered at the end."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.report import ReportError, report_command, write_reports
from pipeline.report.chart import claims_chart, plotted
from pipeline.report.fmt import interval, quantity
from pipeline.report.load import highlight, load_report
from pipeline.report.markdown import cell

EVIL_SCRIPT = "<script>alert(1)</script>"
EVIL_IMG = "<img src=x onerror=alert(1)>"
ARTICLE = (f"Google trained BERT in 23 seconds on 4,096 chips. {EVIL_SCRIPT}\n"
           f"The machine is three times larger {EVIL_IMG} than a|pipe pod.\n")
OTHER = "英伟达用 1,792 块 A100 完成训练。\n"
QUIET = "No numbers here at all.\n"


def _claim(doc: str, text: str, source: str, **kw) -> dict:
    start = source.index(text)
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", start)
    row = {"id": hashlib.sha1(f"{doc}:{text}".encode()).hexdigest()[:16], "doc": doc, "lang": "en",
           "sentence": source[line_start:line_end], "start": start, "end": start + len(text), "text": text,
           "kind": "count", "value": 1.0, "unit": "count", "counted": None, "of_total": None, "bound": "exact",
           "low": 1.0, "high": 1.0, "ratio_reading": None, "reading_cue": None, "bound_cue": None,
           "entities": {"org": "google", "accelerator": None, "system": None, "benchmark": None, "round": None,
                        "framework": None},
           "metric": None, "compared_to": None, "verdict": "supported", "official": None, "evidence": [],
           "explanation": "", "distortion": None}
    row.update(kw)
    return row


@pytest.fixture()
def run(tmp_path: Path) -> tuple[Path, Path, list[dict]]:
    inp, out = tmp_path / "articles", tmp_path / "out"
    (inp / "en").mkdir(parents=True)
    (inp / "zh").mkdir()
    out.mkdir()
    (inp / "en" / "evil.txt").write_text(ARTICLE, encoding="utf-8")
    (inp / "zh" / "a100.txt").write_text(OTHER, encoding="utf-8")
    (inp / "en" / "quiet.txt").write_text(QUIET, encoding="utf-8")
    claims = [
        _claim("en/evil.txt", "23 seconds", ARTICLE, kind="duration", value=23, unit="s", low=22.5, high=23.5,
               official=23.57, evidence=["training-v0.7/Google/tpu-v3-8192-TF/bert", "javascript:alert(1)"],
               explanation=f"Official 23.57 s {EVIL_SCRIPT}"),
        _claim("en/evil.txt", "4,096 chips", ARTICLE, value=4096, low=4096, high=4096, official=3456,
               counted="chip", verdict="contradicted", distortion="wrong_value",
               explanation="The largest system had 3,456 chips | not 4,096\nsecond line"),
        _claim("en/evil.txt", "three times larger", ARTICLE, kind="ratio", value=3, unit="x", low=2.5, high=3.5,
               ratio_reading="ambiguous", verdict="ambiguous", official=4.0, distortion="n_vs_n_plus_1",
               evidence=["https://example.org/blog?a=1&b=<2>"]),
        _claim("zh/a100.txt", "1,792 块 A100", OTHER, lang="zh", value=1792, low=1792, high=1792, official=1792,
               counted="gpu", entities={"org": "nvidia", "accelerator": "a100"}),
        _claim("zh/a100.txt", "完成", OTHER, lang="zh", kind="date", value="2020-07-29", unit="date",
               low=None, high=None, verdict="unverifiable"),
    ]
    (out / "claims.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in claims),
                                      encoding="utf-8")
    conflicts = [
        {"fact": "speedup (wording only)", "official": 2.7, "values": [2, 1.7], "cross_article": True,
         "resolution": "Both fit.", "claims": [{"id": claims[0]["id"], "doc": "en/evil.txt", "text": "23 seconds",
                                                "verdict": "supported"},
                                               {"id": claims[3]["id"], "doc": "zh/a100.txt", "text": "1,792 块 A100",
                                                "verdict": "supported"}]},
        {"fact": "system size <b>bold</b>", "official": 4.0, "values": [3, 4], "cross_article": False,
         "resolution": f"'three times larger' is ambiguous {EVIL_IMG}",
         "claims": [{"id": claims[2]["id"], "doc": "en/evil.txt", "text": "three times larger", "verdict": "ambiguous"},
                    {"id": claims[1]["id"], "doc": "en/evil.txt", "text": "4,096 chips", "verdict": "contradicted"}]},
    ]
    (out / "conflicts.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in conflicts),
                                         encoding="utf-8")
    (out / "errors.jsonl").write_text(json.dumps({"doc": "bad.bin", "error": "binary", "detail": "<b>x</b>"}) + "\n",
                                      encoding="utf-8")
    return inp, out, claims


def _tags(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every start tag as a browser's tokenizer sees it."""
    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

    Collect().feed(html)
    return found


def _script_blocks(html: str) -> list[str]:
    return re.findall(r"<script\b[^>]*>(.*?)</script>", html, flags=re.S | re.I)


@pytest.mark.parametrize("name", ["report.html", "report.md", "chart.svg", "claims.parquet"])
def test_write_reports_writes_every_file_atomically(run, name):
    inp, out, _ = run
    paths = write_reports(out, inp)
    assert out / name in paths and (out / name).stat().st_size > 0
    assert not list(out.glob(".*.tmp")), "a temporary file was left behind"


@pytest.mark.parametrize("evil", [EVIL_SCRIPT, EVIL_IMG])
def test_html_shows_article_markup_as_text(run, evil):
    inp, out, _ = run
    write_reports(out, inp)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert evil not in html
    assert evil.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in html
    tags = _tags(html)
    assert not [t for t in tags if t[0] == "img"]
    assert not [t for t in tags if any(name.startswith("on") for name, _ in t[1])]  # no event handler at all
    assert [t for t in tags if t[0] == "script"] == [("script", [("type", "application/json"), ("id", "report-data")]),
                                                     ("script", [])]


def test_html_has_exactly_the_pages_own_scripts(run):
    inp, out, claims = run
    write_reports(out, inp)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert len(re.findall(r"<script\b", html, flags=re.I)) == 2
    data_block, script = _script_blocks(html)
    assert "<" not in data_block and ">" not in data_block  # \u003c-escaped: nothing can close the element
    data = json.loads(data_block)
    assert [c["id"] for c in data["claims"]] == [c["id"] for c in claims]
    # intact after JSON.parse (a text the page says once, in data.strings)
    assert data["strings"][data["claims"][0]["explanation"]].endswith(EVIL_SCRIPT)
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in html  # CSP: only this script may run


def test_html_fetches_nothing(run):
    inp, out, _ = run
    write_reports(out, inp)
    html = (out / "report.html").read_text(encoding="utf-8")
    for attr in re.findall(r"\b(?:src|href)=\"([^\"]*)\"", html):
        assert attr.startswith(("#", "data:")), attr
    assert "<link rel=\"stylesheet\"" not in html and "@import" not in html


def test_html_highlights_every_claim_in_the_article(run):
    inp, out, claims = run
    write_reports(out, inp)
    html = (out / "report.html").read_text(encoding="utf-8")
    for c in claims:
        assert re.search(rf'<mark class="claim v-{c["verdict"]}" data-claim="{c["id"]}"', html), c["text"]
    assert "No numbers here at all." in html  # an article without claims is still shown


def test_summary_counts(run):
    inp, out, _ = run
    s = load_report(out, inp).summary
    assert s["articles"] == 3 and s["articles_with_claims"] == 2 and s["claims"] == 5
    assert dict((v, n) for v, _, n in s["verdicts"]) == {
        "supported": 2, "contradicted": 1, "ambiguous": 1, "unverifiable": 1, "out_of_scope": 0}
    assert s["discrepancies"] == 2 and s["conflicts"] == 2 and s["cross_article"] == 1 and s["errors"] == 1
    write_reports(out, inp)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert '<b id="n-discrepancies">2</b>' in html and '<b id="n-conflicts">2</b>' in html


@pytest.mark.parametrize("name, marks", [("report.html", ['id="summary"', 'id="conflicts"', 'id="discrepancies"',
                                                          'id="articles"']),
                                         ("report.md", ["# Fact-check report", "## Conflicts", "## Discrepancies",
                                                        "## Articles"])])
def test_conflicts_on_top(run, name, marks):
    inp, out, _ = run
    write_reports(out, inp)
    text = (out / name).read_text(encoding="utf-8")
    at = [text.index(m) for m in marks]
    assert at == sorted(at)
    # The conflict holding wrong claims comes before the one that is only wording.
    assert text.index("system size") < text.index("speedup (wording only)")


def test_markdown_tables_escape_structure(run):
    inp, out, _ = run
    write_reports(out, inp)
    md = (out / "report.md").read_text(encoding="utf-8")
    assert EVIL_SCRIPT not in md and "&lt;script&gt;alert(1)&lt;/script&gt;" in md
    assert "3,456 chips \\| not 4,096 second line" in md  # the pipe escaped, the newline folded
    # Every row of a table has as many cells as its header.
    for block in re.findall(r"((?:^\|.*\n)+)", md, flags=re.M):
        widths = {len(re.findall(r"(?<!\\)\|", row)) for row in block.splitlines()}
        assert len(widths) == 1, block


@pytest.mark.parametrize("raw, expected", [
    ("a|b", "a\\|b"),
    ("two\nlines", "two lines"),
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
    ("**bold** _em_ `code` [link](x)", "\\*\\*bold\\*\\* \\_em\\_ \\`code\\` \\[link\\](x)"),
    ("back\\slash", "back\\\\slash"),
    (None, ""),
])
def test_markdown_cell(raw, expected):
    assert cell(raw) == expected


@given(st.text(alphabet="ab 中|*_&<>\\`[]~\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000") | st.text())
@settings(max_examples=300, deadline=None)
def test_a_cell_left_as_it_is_is_one_with_nothing_to_escape(text):
    # cell() returns most text untouched; that shortcut must agree with the full escaping
    escaped = text.translate(str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"}))
    escaped = re.sub(r"([\\`*_\[\]|~])", r"\\\1", escaped)
    escaped = " ".join(escaped.split())
    assert cell(text) == escaped


def test_parquet_round_trip(run):
    inp, out, claims = run
    write_reports(out, inp)
    df = pd.read_parquet(out / "claims.parquet")
    assert len(df) == len(claims)
    assert list(df["id"]) == [c["id"] for c in claims]
    assert df["value"].dtype == "float64" and df.loc[4, "value_text"] == "2020-07-29" and pd.isna(df.loc[4, "value"])
    assert df.loc[0, "official"] == pytest.approx(23.57)
    assert list(df.loc[0, "evidence"]) == claims[0]["evidence"]
    assert df.loc[3, "entity_accelerator"] == "a100"


def test_parquet_with_no_claims(tmp_path):
    (tmp_path / "claims.jsonl").write_text("", encoding="utf-8")
    write_reports(tmp_path)
    df = pd.read_parquet(tmp_path / "claims.parquet")
    assert len(df) == 0 and "verdict" in df.columns
    assert "No claim has both a numeric value" in (tmp_path / "report.html").read_text(encoding="utf-8")


# values a JSON reader could read back otherwise: long decimals, huge and tiny numbers, text that looks like
# a number or holds quotes, newlines and non-BMP characters, an empty evidence list
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("value", 0.1 + 0.2),
        ("value", 1.7976931348623157e308),
        ("value", 5e-324),
        ("value", 12345678901234567890),
        ("text", "007"),
        ("text", 'said "2.7倍"\nthen 𠀋'),
        ("explanation", "\\ and \u2028"),
        ("evidence", []),
    ],
)
def test_parquet_keeps_values_exactly(tmp_path, field, value):
    import io

    from pipeline.report.table import claims_parquet

    claim = {**_claim("a.txt", "23 seconds", ARTICLE), field: value}
    df = pd.read_parquet(io.BytesIO(claims_parquet([claim])))
    got = df.loc[0, field]
    assert (list(got) == value) if field == "evidence" else got == (float(value) if field == "value" else value)


@pytest.mark.parametrize(("value", "text"), [(float("nan"), "nan"), (float("inf"), "inf"), (-float("inf"), "-inf"),
                                           (None, None)])
def test_parquet_has_no_number_that_is_not_finite(value, text):
    # a number column holds finite numbers or null; what is not one is kept as text where the field has a
    # text column (value_text), and is null where it has none (low)
    import io

    import pyarrow.parquet as pq

    from pipeline.report.table import claims_parquet

    claim = {**_claim("a.txt", "23 seconds", ARTICLE), "value": value, "low": value, "counted": None}
    table = pq.read_table(io.BytesIO(claims_parquet([claim])), use_threads=False)
    assert table.column("value").null_count == 1 and table.column("low").null_count == 1
    assert table.column("value_text").to_pylist() == [text] and table.column("counted").null_count == 1


# A column is read off the claims in one pass, with a check of the types it holds; a column that mixes in
# a value of another type (a later version's, a hand-edited row) takes the per-value path, whatever its
# position in the column.
@pytest.mark.parametrize(("column", "values", "expected"), [
    ("value", [2.5, 3, None, True, float("nan")], [2.5, 3.0, None, None, None]),
    ("value_text", [2.5, 3, None, True, float("nan")], [None, None, None, "True", "nan"]),
    ("value_text", [2.5, 1e308, 1e308, None, "2020-07"], [None, None, None, None, "2020-07"]),
    ("low", [1e308, 1e308, 0.5], [1e308, 1e308, 0.5]),
    ("explanation", ["plain", "中文 and 𠀋", None], ["plain", "中文 and 𠀋", None]),
    ("explanation", ["plain", {"b": 1, "a": [2]}, 7], ["plain", '{"a":[2],"b":1}', "7"]),
    ("evidence", [["a", "b"], None, []], [["a", "b"], [], []]),
    ("evidence", [["a"], ["b", 1], ["c", None]], [["a"], ["b", "1"], ["c", "None"]]),
    ("entity_org", ["google", None, 7], ["google", None, "7"]),
])
def test_a_parquet_column_holds_each_value_as_its_type_says(column, values, expected):
    import pyarrow as pa

    from pipeline.records import CLAIM_FIELDS
    from pipeline.report.table import _schema, arrow_table, extra_columns

    field = {"value_text": "value", "entity_org": "entities"}.get(column, column)
    claims = [{**_claim("a.txt", "23 seconds", ARTICLE),
               field: {"org": v} if column == "entity_org" else v} for v in values]
    table = arrow_table(pa, _schema(extra_columns(CLAIM_FIELDS)), claims)
    assert table.column(column).to_pylist() == expected


@pytest.mark.parametrize("reshape", [
    lambda c: dict(reversed(list(c.items()))),  # the same fields in another order
    lambda c: {k: v for k, v in c.items() if k != "counted"},  # a field missing (null in its column)
    lambda c: {**c, "later_field": None},  # a field the others lack
])
def test_claims_of_different_shapes_make_the_same_table_as_uniform_ones(run, reshape):
    # a run's claims share their fields and order, and are read field by field in one transposition; claims
    # of other shapes (an older run's parts beside new ones) are read claim by claim, with the same result
    import pyarrow as pa

    from pipeline.records import CLAIM_FIELDS
    from pipeline.report.table import _schema, arrow_table, by_field, extra_columns

    _, _, claims = run
    mixed = [claims[0], reshape(claims[1]), *claims[2:]]
    assert by_field(claims) and not by_field(mixed)
    schema = _schema(extra_columns(CLAIM_FIELDS))
    as_read = {**claims[1], **{k: None for k in claims[1] if k not in mixed[1]}}  # a missing field reads as null
    assert arrow_table(pa, schema, mixed).equals(arrow_table(pa, schema, [claims[0], as_read, *claims[2:]]))


def test_parquet_columns_are_what_a_json_reader_makes_of_the_rows(run):
    # the columns are built from their buffers; pyarrow's JSON reader, given the same rows and schema, is the
    # reference (nulls, non-BMP text, empty evidence, numbers as text and as numbers)
    import io

    import orjson
    import pyarrow as pa
    import pyarrow.json as pj

    from pipeline.records import CLAIM_FIELDS
    from pipeline.report.table import _schema, arrow_table, claim_row, extra_columns

    _, _, claims = run
    odd = {**claims[0], "value": "2020-07-29", "official": None, "evidence": [], "sentence": "𠀀 said \"4倍\"\n",
           "entities": {}, "counted": "", "low": 0.1 + 0.2}
    extra = extra_columns(CLAIM_FIELDS)
    schema = _schema(extra)
    rows = [claim_row(c, extra) for c in [*claims, odd]]  # the reference: claim_row, one row at a time
    lines = io.BytesIO(b"\n".join(orjson.dumps(r) for r in rows))
    expected = pj.read_json(lines, read_options=pj.ReadOptions(use_threads=False),
                            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error"))
    assert arrow_table(pa, schema, [*claims, odd]).equals(expected)


def test_parquet_written_without_importing_pandas(tmp_path):
    # building Arrow arrays from Python lists imports pandas (0.7 s of every run's merge); arrays built from
    # their buffers do not
    import subprocess
    import sys

    # (read back without threads: pyarrow's thread pool can abort at exit after reading a file object,
    # apache/arrow#34314; and after the check, since reading imports pandas)
    code = ("import sys, io; from pipeline.report.table import claims_parquet; "
            "b = claims_parquet([{'id': 'x', 'value': 2.7, 'evidence': ['e']}]); print('pandas' in sys.modules); "
            "import pyarrow.parquet as pq; t = pq.read_table(io.BytesIO(b), use_threads=False); "
            "assert t.column('value').to_pylist() == [2.7]")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("own, expected", [
    (None, "system"),  # the C library's allocator: mimalloc's first row group took 0.2 s at times
    ("mimalloc", "mimalloc"),  # a user's own setting is kept
])
def test_parquet_is_written_with_the_c_librarys_allocator_unless_told_otherwise(own, expected):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    if own:
        env["ARROW_DEFAULT_MEMORY_POOL"] = own
    code = ("from pipeline.report.table import claims_parquet; claims_parquet([{'id': 'x', 'value': 2.7}]); "
            "import pyarrow as pa; print(pa.default_memory_pool().backend_name)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == expected


def test_input_dir_from_run_json(run):
    inp, out, _ = run
    (out / "run.json").write_text(json.dumps({"input_dir": str(inp), "official": "tables-2020"}), encoding="utf-8")
    report = load_report(out)
    assert report.input_dir == inp and report.official == "tables-2020"
    assert all(a.full_text for a in report.articles)


def test_without_articles_falls_back_to_sentences(run, tmp_path):
    _, out, claims = run
    report = load_report(out, tmp_path / "gone")
    assert report.input_dir is None
    assert [a.doc for a in report.articles] == ["en/evil.txt", "zh/a100.txt"]
    evil = report.articles[0]
    assert not evil.full_text and evil.note
    marked = {s.claim for block in evil.blocks for s in block if s.claim}
    assert marked == {c["id"] for c in claims if c["doc"] == "en/evil.txt"}
    write_reports(out)  # no input folder at all: still a full report
    assert "showing the sentences" in (out / "report.html").read_text(encoding="utf-8")


def test_changed_article_falls_back_to_sentences(run):
    inp, out, _ = run
    (inp / "en" / "evil.txt").write_text("Rewritten. " + ARTICLE, encoding="utf-8")
    evil = next(a for a in load_report(out, inp).articles if a.doc == "en/evil.txt")
    assert not evil.full_text and "changed since the run" in (evil.note or "")


def test_doc_outside_input_folder_is_not_read(run):
    inp, out, claims = run
    (inp.parent / "secret.txt").write_text("SECRET 42", encoding="utf-8")
    row = dict(claims[0], doc="../secret.txt", start=7, end=9, text="42", sentence="SECRET 42")
    (out / "claims.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    view = next(a for a in load_report(out, inp).articles if a.doc == "../secret.txt")
    assert not view.full_text and "outside the input folder" in (view.note or "")


@pytest.mark.parametrize("text, spans, expected", [
    ("abc 23 s def", [(4, 8, "a")], [("abc ", None), ("23 s", "a"), (" def", None)]),
    # a partitive around a count: the inner claim wins where they overlap, the outer keeps the rest
    ("6 of 8 tests", [(0, 12, "outer"), (5, 6, "inner")], [("6 of ", "outer"), ("8", "inner"), (" tests", "outer")]),
    ("xy", [(0, 5, "bad")], [("xy", None)]),  # offsets past the end are ignored, not crashed on
])
def test_highlight_segments(text, spans, expected):
    segs = highlight(text, spans, {})
    assert [(s.text, s.claim) for s in segs] == expected
    assert "".join(s.text for s in segs) == text


def test_report_command(run, tmp_path):
    inp, out, _ = run
    assert {p.name for p in report_command(out, inp)} >= {"report.html", "report.md", "claims.parquet"}
    with pytest.raises(ReportError, match="claims.jsonl"):
        report_command(tmp_path / "nothing-here", None)
    with pytest.raises(ReportError, match="no such folder"):
        report_command(out, tmp_path / "missing")


@pytest.mark.parametrize("value, unit, expected", [
    (23, "s", "23 s"),
    (1814400, "s", "1,814,400 s (3 weeks)"),
    (4.3e17, "FLOP/s", "430 PFLOP/s"),
    (2.7, "x", "2.7×"),
    (4096, "count", "4,096"),
    ("2020-07-29", "date", "2020-07-29"),
    (None, "s", "—"),
])
def test_quantity(value, unit, expected):
    assert quantity(value, unit) == expected


@pytest.mark.parametrize("low, high, expected", [(22.5, 23.5, "22.5 s – 23.5 s"), (30, None, "≥ 30 s"),
                                                 (None, 30, "≤ 30 s"), (None, None, "—")])
def test_interval(low, high, expected):
    assert interval(low, high, "s") == expected


def test_chart_plots_readings_and_escapes(run):
    _, _, claims = run
    increase = dict(claims[2], ratio_reading="increase_by", value=1.7, low=1.65, high=1.75, official=2.7)
    assert plotted(increase) == pytest.approx((2.7, 2.7, 2.65, 2.75))  # "increased by 1.7" is 2.7x
    assert plotted(claims[4]) is None  # a date has no place on a log axis
    evil = dict(claims[0], text=EVIL_SCRIPT)
    svg = claims_chart([evil, claims[1]])
    assert svg.startswith("<svg") and EVIL_SCRIPT not in svg and "&lt;script&gt;" in svg
    assert svg.count('class="point"') == 2 and 'data-verdict="contradicted"' in svg


def test_a_chart_point_draws_its_interval_only_when_it_has_one(run):
    _, _, claims = run
    wide = dict(claims[2], id="wide", ratio_reading="increase_by", value=1.7, low=1.2, high=2.2, official=2.7)
    exact = dict(claims[2], id="exact", ratio_reading="times", value=4.0, low=4.0, high=4.0, official=4.0)
    svg = claims_chart([wide, exact])
    points = {m.group(1): m.group(0) for m in re.finditer(r'<g class="point" data-claim="(\w+)".*?</g>', svg)}
    assert "<line" in points["wide"] and "<line" not in points["exact"]
    assert "<circle" in points["exact"]


def test_seeds_report(seeds, tmp_path):
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    run_batch(seeds, tmp_path, Settings())
    write_reports(tmp_path, seeds)
    report = load_report(tmp_path, seeds)
    assert report.summary["articles"] == 2 and report.summary["claims"] > 0
    assert all(a.full_text for a in report.articles)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "大三倍" in html and html.count('<mark class="claim') >= report.summary["claims"] * 0.9
