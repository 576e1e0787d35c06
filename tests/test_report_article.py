"""One article's fact-check on a page of its own (#18): to send to a colleague, print, or save as PDF."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.errors import ReportError
from pipeline.report.article import render_article, write_article
from pipeline.run.batch import run_batch
from pipeline.settings import Settings

ARTICLES = {
    "zh/a.txt": "谷歌：TPU 超算刷新纪录\n\n谷歌用了4096块TPU v3芯片，把BERT的训练时间缩短到23秒。\n"
                "英伟达则用了2048块A100 <b>GPU</b>。\n",
    "en/b.txt": "Records <script>alert(1)</script>\n\nGoogle trained BERT in 23 seconds on 4,096 TPU v3 chips.\n",
}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("article")
    src = base / "in"
    for doc, text in ARTICLES.items():
        (src / doc).parent.mkdir(parents=True, exist_ok=True)
        (src / doc).write_text(text, encoding="utf-8")
        (src / (doc + ".meta.yaml")).write_text("title: a test article\ndate: 2020-07-30\n", encoding="utf-8")
    run_batch(src, base / "out", Settings())
    return src, base / "out"


@pytest.mark.parametrize("doc", sorted(ARTICLES))
def test_every_claim_is_numbered_in_the_text_and_noted_beside_it(run, doc: str) -> None:
    src, out = run
    page = render_article(out, doc)
    numbers = re.findall(r'<sup class="n v-\w+">(\d+)</sup>', page)
    notes = re.findall(r'<p class="head">(\d+)\. ', page)
    assert numbers and numbers == notes == [str(n) for n in range(1, len(numbers) + 1)]
    assert page.count('class="note v-') == len(numbers)


def test_a_note_gives_the_verdict_the_official_figure_and_the_reason(run) -> None:
    page = render_article(run[1], "en/b.txt")
    note = page[page.index("“23 seconds”"):]
    note = note[:note.index("</div>")]
    assert "supported" in note and "Official:" in note and "The claim allows" in note
    assert "github.com/mlcommons/training_results_v0.7/tree/" in note  # evidence links to the result logs


def test_the_page_runs_nothing_and_escapes_the_article(run) -> None:
    page = render_article(run[1], "en/b.txt")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "default-src 'none'" in page


def test_paragraphs_keep_their_notes_beside_them(run) -> None:
    page = render_article(run[1], "zh/a.txt")
    rows = page.split('<section class="row">')[1:]
    with_claims = [r for r in rows if '<mark' in r]
    assert with_claims and all(r.count("<mark") >= r.count('class="note ') > 0 for r in with_claims)


def test_an_unknown_article_is_named(run) -> None:
    with pytest.raises(ReportError, match="no article of that name"):
        render_article(run[1], "zh/none.txt")


@pytest.mark.skipif(not any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")),
                    reason="no Chromium to print with (make test installs it)")
def test_a_pdf_is_printed_by_chromium(run, tmp_path: Path) -> None:
    pdf = write_article(run[1], "zh/a.txt", tmp_path / "a.pdf")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 5_000


def test_the_command_writes_a_page_per_article(run, tmp_path: Path, capsys, monkeypatch) -> None:
    import sys

    from pipeline import cli

    monkeypatch.setattr(sys, "argv", ["newsclaims", "article", str(run[1]), *sorted(ARTICLES), "--to",
                                      str(tmp_path / "pages")])
    with pytest.raises(SystemExit) as done:
        cli.main()
    assert done.value.code == 0
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["en__b.txt.html", "zh__a.txt.html"]


def test_a_chinese_claims_note_leads_with_its_verdict_in_chinese(run) -> None:
    page = render_article(run[1], "zh/a.txt")
    lines = re.findall(r'<p class="summary-line" lang="zh">(.*?)</p>', page)
    assert lines and all(line.startswith(("相符", "不符", "有歧义", "无法核实", "不在核查范围")) for line in lines)
    assert '<p class="summary-line"' not in render_article(run[1], "en/b.txt")  # English has its explanation
