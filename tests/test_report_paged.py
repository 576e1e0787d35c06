"""Reports of corpora larger than one page: a corpus page (report.html, report.md) and parts of N articles
under report-pages/, every article and claim reachable, counts equal to the one-page report's, untrusted
text escaped, stale parts removed; and the streamed pieces (chart thinning, Parquet in row groups)."""

from __future__ import annotations

import io
import json
import posixpath
import re
from pathlib import Path

import pandas as pd
import pytest
from test_report import EVIL_IMG, EVIL_SCRIPT, _script_blocks, _tags, run  # noqa: F401

from pipeline.report import write_reports
from pipeline.report.chart import claims_chart, thinned
from pipeline.report.load import load_report
from pipeline.report.paged import PAGES_DIR
from pipeline.report.table import claims_parquet, extra_columns, write_parquet

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpora" / "articles"


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    out = tmp_path_factory.mktemp("paged") / "out"
    run_batch(CORPUS, out, Settings())
    return out


@pytest.fixture(scope="module")
def paged(corpus_run: Path) -> Path:
    write_reports(corpus_run, CORPUS, per_page=PER_PAGE)
    return corpus_run


def _anchors(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def _hrefs(html: str) -> list[str]:
    return [v for tag, attrs in _tags(html) if tag == "a" for k, v in attrs if k == "href" and v]


PER_PAGE = 3
ARTICLES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".txt", ".md", ".html", ".htm"))
N_PARTS = -(-len(ARTICLES) // PER_PAGE)


def test_the_articles_are_split_into_parts_of_the_page_size(paged: Path):
    parts = sorted(p.name for p in (paged / PAGES_DIR).iterdir())
    assert parts == [f"part-{n:04d}.{ext}" for n in range(1, N_PARTS + 1) for ext in ("html", "md")]
    articles = [len(re.findall(r'<article class="doc"', (paged / PAGES_DIR / f"part-{n:04d}.html").read_text()))
                for n in range(1, N_PARTS + 1)]
    assert articles == [PER_PAGE] * (N_PARTS - 1) + [len(ARTICLES) - PER_PAGE * (N_PARTS - 1)]


def test_every_claim_is_highlighted_in_exactly_one_part(paged: Path):
    single = load_report(paged, CORPUS)
    ids = [re.findall(r'<mark class="claim[^>]* id="c-([0-9a-f]+)"', p.read_text(encoding="utf-8"))
           for p in sorted((paged / PAGES_DIR).glob("*.html"))]
    flat = [i for part in ids for i in part]
    assert sorted(flat) == sorted(c["id"] for c in single.claims)


def test_the_corpus_page_counts_what_the_one_page_report_counts(paged: Path):
    s = load_report(paged, CORPUS).summary
    html = (paged / "report.html").read_text(encoding="utf-8")
    assert f'<b id="n-discrepancies">{s["discrepancies"]}</b>' in html
    assert f'<b id="n-conflicts">{s["conflicts"]}</b>' in html
    assert f"{s['claims']} numeric claims in {s['articles']} articles" in html
    md = (paged / "report.md").read_text(encoding="utf-8")
    assert f"{s['claims']} numeric claims in {s['articles']} articles" in md
    assert md.count("](report-pages/part-") == N_PARTS


def test_every_link_of_the_corpus_page_and_the_parts_lands_on_an_element(paged: Path):
    pages = {p.relative_to(paged).as_posix(): p.read_text(encoding="utf-8")
             for p in [paged / "report.html", *sorted((paged / PAGES_DIR).glob("*.html"))]}
    checked = 0
    for name, html in pages.items():
        for href in _hrefs(html):
            if href.startswith(("http:", "https:")):
                continue
            target, _, frag = href.partition("#")
            where = posixpath.normpath(posixpath.join(posixpath.dirname(name), target)) if target else name
            assert where in pages, (name, href)
            if frag:
                assert frag in _anchors(pages[where]), (name, href)
            checked += 1
    assert checked > 100


def test_a_conflict_across_parts_links_to_the_other_part(paged: Path):
    linked = [re.findall(r'href="(part-\d{4})\.html#c-[0-9a-f]+"', (paged / PAGES_DIR / f"part-{n:04d}.html")
                         .read_text(encoding="utf-8")) for n in range(1, N_PARTS + 1)]
    assert any(set(links) - {f"part-{n:04d}"} for n, links in enumerate(linked, start=1))


def test_the_corpus_page_runs_no_script_and_escapes_article_text(run, tmp_path: Path):  # noqa: F811
    inp, out, _ = run
    write_reports(out, inp, per_page=1)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert not _script_blocks(html) and "script-src 'none'" in html
    for page in [html, *(p.read_text(encoding="utf-8") for p in (out / PAGES_DIR).glob("*.html"))]:
        assert EVIL_SCRIPT not in page and EVIL_IMG not in page
    assert "javascript:" not in " ".join(_hrefs(html))


def test_fewer_parts_remove_the_stale_ones_and_one_page_removes_the_folder(run):  # noqa: F811
    inp, out, _ = run
    write_reports(out, inp, per_page=1)
    assert len(list((out / PAGES_DIR).glob("part-*.html"))) == 3
    write_reports(out, inp, per_page=2)
    assert sorted(p.name for p in (out / PAGES_DIR).glob("part-*.html")) == ["part-0001.html", "part-0002.html"]
    write_reports(out, inp, per_page=100)
    assert not (out / PAGES_DIR).exists() and "<article class=\"doc\"" in (out / "report.html").read_text()


def test_a_page_size_below_one_is_refused(run):  # noqa: F811
    from pipeline.errors import ConfigError

    inp, out, _ = run
    with pytest.raises(ConfigError, match="report_page_articles"):
        write_reports(out, inp, per_page=0)


@pytest.mark.parametrize("values, points", [
    ([(23, 23.57)] * 500, 1),  # one fact repeated: one point standing for all
    ([(23, 23.57), (23.001, 23.57)], 1),  # within a hundredth of a decade
    ([(23, 23.57), (33, 23.57)], 2),
])
def test_claims_on_the_same_spot_are_drawn_once_with_their_count(values, points):
    claims = [{"id": f"c{i}", "doc": "a", "text": "t", "value": v, "official": o, "unit": "s", "low": v, "high": v,
               "verdict": "supported"} for i, (v, o) in enumerate(values)]
    kept = thinned(claims)
    assert len(kept) == points and sum(p["count"] for p in kept) == len(claims)
    svg = claims_chart(claims)
    assert svg.count('class="point"') == points
    if points == 1 and len(claims) > 2:
        assert f"{len(claims) - 1} more claims at this point" in svg


def test_a_chart_point_links_where_href_says():
    c = {"id": "abc", "doc": "a", "text": "t", "value": 2, "official": 2, "unit": "x", "verdict": "supported"}
    assert '<a href="p.html#c-abc"><g class="point"' in claims_chart([c], href=lambda c: f"p.html#c-{c['id']}")


def test_parquet_written_in_row_groups_equals_the_whole_table(run):  # noqa: F811
    _, _, claims = run
    buf = io.BytesIO()
    write_parquet(buf, iter(claims), extra_columns(k for c in claims for k in c), batch=2)
    streamed = pd.read_parquet(io.BytesIO(buf.getvalue()))
    whole = pd.read_parquet(io.BytesIO(claims_parquet(claims)))
    pd.testing.assert_frame_equal(streamed, whole)
    assert len(streamed) == len(claims)


def test_past_the_point_limit_the_bins_grow_and_every_claim_is_still_counted():
    from pipeline.report.chart import ChartPoints

    acc = ChartPoints(max_points=10)
    for i in range(1000):
        acc.add({"id": str(i), "value": 1 + i, "official": 1 + i, "unit": "s", "verdict": "supported"})
    points = acc.points()
    assert len(points) <= 10 and sum(p["count"] for p in points) == 1000 == acc.claims


def test_a_claim_with_a_nan_value_still_renders_as_null(run):  # noqa: F811
    inp, out, claims = run
    rows = [dict(c, official=float("nan")) if i == 0 else c for i, c in enumerate(claims)]
    (out / "claims.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows),
                                      encoding="utf-8")
    write_reports(out, inp)
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                     (out / "report.html").read_text(encoding="utf-8"), flags=re.S)
    assert data and json.loads(data.group(1))["claims"][0]["official"] is None


def test_parts_rendered_by_two_processes_equal_those_rendered_by_one(run, tmp_path: Path):  # noqa: F811
    inp, out, _ = run
    write_reports(out, inp, per_page=1, workers=1)
    one = {p.name: p.read_bytes() for p in (out / PAGES_DIR).iterdir()} | {"index": (out / "report.html").read_bytes()}
    write_reports(out, inp, per_page=1, workers=2)
    two = {p.name: p.read_bytes() for p in (out / PAGES_DIR).iterdir()} | {"index": (out / "report.html").read_bytes()}
    assert one == two and len(one) == 7


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="part processes are forked where the platform allows")
def test_the_parent_renders_one_page_unwritten_before_the_part_processes_fork(run, monkeypatch):  # noqa: F811
    # what a part loads on its first page (templates, evidence tables, lazily imported modules) is loaded
    # once and inherited, not again in each process
    from pipeline.report import paged

    inp, out, _ = run
    rendered: list[list[str]] = []
    real = paged._part_pages
    monkeypatch.setattr(paged, "_part_pages", lambda *a: rendered.append(list(a[4])) or real(*a))
    write_reports(out, inp, per_page=1, workers=2)
    parts = sorted(p.name for p in (out / PAGES_DIR).iterdir())
    assert len(rendered) == 1 and len(rendered[0]) == 1  # in this process: the warm-up's one article only
    assert parts == [f"part-{n:04d}.{ext}" for n in range(1, len(parts) // 2 + 1) for ext in ("html", "md")]


def _collector() -> tuple[tuple[int, int, int], int]:
    import gc

    return gc.get_threshold(), gc.get_freeze_count()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="part processes are forked where the platform allows")
def test_a_part_process_freezes_what_it_inherited_and_collects_young_objects_less_often():
    # its collections walk only what it makes, not the parent's index and modules
    import multiprocessing as mp

    from pipeline.report.paged import PART_GC_THRESHOLDS, _part_process

    with mp.get_context("fork").Pool(1, initializer=_part_process) as pool:
        threshold, frozen = pool.apply(_collector)
    assert threshold == PART_GC_THRESHOLDS and frozen > 0


def test_progress_hears_of_every_part_and_the_end(run):  # noqa: F811
    inp, out, _ = run
    heard: list[tuple[int, int, str]] = []
    write_reports(out, inp, per_page=1, progress=lambda *a: heard.append(a))
    assert [h for h in heard if h[2] == "report parts"] == [(1, 3, "report parts"), (2, 3, "report parts"),
                                                            (3, 3, "report parts")]
    assert heard[-1] == (1, 1, "report written")


def test_a_conflict_is_listed_in_full_once_and_linked_from_its_other_parts(paged: Path):
    # (#18) a conflict between articles of two parts is drawn in one of them, the other links to it
    full: dict[str, list[str]] = {}
    linked: dict[str, list[str]] = {}
    pages = {n: (paged / PAGES_DIR / f"part-{n:04d}.html").read_text(encoding="utf-8") for n in range(1, N_PARTS + 1)}
    for n, html in pages.items():
        for key in re.findall(r'<article class="conflict[^"]*" id="k-([0-9a-f]+)"', html):
            full.setdefault(key, []).append(f"part-{n:04d}.html")
        for target, key in re.findall(r'href="(part-\d{4}\.html)#k-([0-9a-f]+)"', html):
            linked.setdefault(key, []).append(target)
    assert full and all(len(where) == 1 for where in full.values())
    assert linked  # the shipped corpus has conflicts across parts
    for key, targets in linked.items():
        assert all(t == full[key][0] for t in targets)  # each link lands where the conflict is drawn


def test_every_conflict_card_of_every_page_says_the_official_figure(paged: Path):
    pages = [paged / "report.html", *sorted((paged / PAGES_DIR).glob("*.html"))]
    assert not [p.name for p in pages if "官方数据为-" in p.read_text(encoding="utf-8")]


def test_the_conflict_finder_reads_a_row_as_it_reads_the_claim(corpus_run: Path):
    from pipeline.reconcile.conflicts import _Shown
    from pipeline.records import Claim

    rows = [json.loads(line) for line in (corpus_run / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and all(_Shown.of_row(r) == _Shown.of(Claim.from_contract(r)) for r in rows)
