"""report.html in a real browser: headless Chromium (Debian's package) driven by playwright.

The `browser` fixture (tests/conftest.py) launches the system Chromium; locally the test skips when it or
playwright is missing, under CI (CI=true) that is a failure, since .ci/setup-browser installs both.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.report import write_reports


class Page:
    """A page with everything that would betray a broken report recorded: console errors, uncaught
    exceptions, dialogs (an injected alert) and any request that leaves the file."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.errors.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")

    def clean(self) -> None:
        assert self.errors == []
        assert self.dialogs == []
        assert all(u.startswith(("file:", "data:")) for u in self.requests), self.requests


@pytest.fixture(scope="module")
def seeds_report(seeds: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    out = tmp_path_factory.mktemp("seeds-report")
    run_batch(seeds, out, Settings())
    write_reports(out, seeds)
    return out / "report.html"


def _visible(page: Any, selector: str) -> int:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.offsetParent !== null).length")


def test_seeds_report_in_chromium(browser, seeds_report, tmp_path):
    view = Page(browser, seeds_report)
    page = view.page
    n_claims = page.evaluate("JSON.parse(document.getElementById('report-data').textContent).claims.length")
    marks = page.locator("mark.claim")
    assert n_claims > 0 and marks.count() >= 0.9 * n_claims

    # Clicking a claim opens its details: the ambiguous "大三倍" of the seeds, checked against 4x.
    assert page.locator("#details").is_hidden()
    page.locator("mark.claim.v-ambiguous", has_text="大三倍").first.click()
    details = page.locator("#details")
    assert details.is_visible()
    assert page.locator("#details-title").inner_text() == "大三倍"
    body = details.inner_text()
    assert "ambiguous" in body and "4×" in body and "Evidence".upper() in body.upper()
    assert page.locator("#details-list li").count() > 0
    # the page says each text once (data.strings); the panel shows the claim's own sentence and reasons
    assert "大三倍" in page.locator("#details .sentence").inner_text()
    said = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#details-list dt')]
        .map(dt => [dt.textContent, dt.nextElementSibling.textContent]))""")
    assert len(said["Why"]) > 20 and not said["Why"].isdigit() and not said["Read as"].isdigit()
    page.screenshot(path=str(tmp_path / "report.png"))
    assert (tmp_path / "report.png").stat().st_size > 10_000

    # A claim whose evidence is a primary-source URL shows it as a link.
    url_claim = page.evaluate("""() => { const data = JSON.parse(document.getElementById('report-data').textContent);
        return data.claims.find(c => (c.evidence || []).some(e => /^https?:/.test(data.strings[e]))
                                     && document.getElementById('c-' + c.id)).id; }""")
    page.locator(f"#c-{url_claim}").click()
    assert page.locator("#details-list a[href^='http']").count() >= 1

    # The verdict filter: untick "supported" and its highlights go plain and its rows hide; tick it back.
    supported = page.locator("mark.claim[data-verdict='supported']")
    n_supported = supported.count()
    assert n_supported > 0
    page.locator("#filters input[value='supported']").uncheck()
    assert page.locator("mark.claim.off[data-verdict='supported']").count() == n_supported
    assert page.locator("mark.claim.off:not([data-verdict='supported'])").count() == 0
    assert _visible(page, "#articles .claim-row[data-verdict='supported']") == 0
    assert "showing" in page.locator("#f-count").inner_text()
    page.locator("#filters input[value='supported']").check()
    assert page.locator("mark.claim.off").count() == 0

    # Kind and language filters narrow the same way.
    page.select_option("#f-kind", "duration")
    assert page.locator("mark.claim:not(.off)").count() > 0
    kinds = page.evaluate("""() => { const d = JSON.parse(document.getElementById('report-data').textContent);
        const k = {}; d.claims.forEach(c => k[c.id] = c.kind);
        return [...document.querySelectorAll('mark.claim:not(.off)')].map(m => k[m.dataset.claim]); }""")
    assert set(kinds) == {"duration"}
    page.select_option("#f-kind", "")
    page.select_option("#f-lang", "zh")  # the seeds are all Chinese: everything stays
    assert page.locator("mark.claim.off").count() == 0
    page.select_option("#f-lang", "")
    page.select_option("#f-entity", "accelerator:tpu-v4")
    accels = page.evaluate("""() => { const d = JSON.parse(document.getElementById('report-data').textContent);
        const a = {}; d.claims.forEach(c => a[c.id] = (c.entities || {}).accelerator);
        return [...document.querySelectorAll('mark.claim:not(.off)')].map(m => a[m.dataset.claim]); }""")
    assert accels and set(accels) == {"tpu-v4"}
    page.select_option("#f-entity", "")

    # Clicking a point of the chart opens that claim too.
    point = page.locator(".chart-wrap .point").last  # drawn last, so on top of any point it overlaps
    point.click()
    claim_id = point.get_attribute("data-claim")
    expected = page.evaluate(f"""JSON.parse(document.getElementById('report-data').textContent)
        .claims.find(c => c.id === '{claim_id}').text""")
    assert page.locator("#details-title").inner_text() == expected
    view.clean()


def test_injected_markup_stays_text_in_chromium(browser, tmp_path):
    evil = ("Record: 23 秒. <script>window.pwned = 1; alert(1)</script> "
            "<img src=x onerror=\"window.pwned=2;alert(2)\">\n")
    inp, out = tmp_path / "in", tmp_path / "out"
    inp.mkdir()
    out.mkdir()
    (inp / "evil.html.txt").write_text(evil, encoding="utf-8")
    start = evil.index("23 秒")
    claim = {"id": "c1", "doc": "evil.html.txt", "lang": "zh", "sentence": evil.strip(), "start": start,
             "end": start + 4, "text": "23 秒", "kind": "duration", "value": 23, "unit": "s", "bound": "exact",
             "low": 22.5, "high": 23.5, "entities": {}, "verdict": "supported", "official": 23.57,
             "evidence": ["javascript:alert(3)", "https://example.org/x"],
             "explanation": "</script><script>window.pwned=3</script>"}

    (out / "claims.jsonl").write_text(json.dumps(claim, ensure_ascii=False) + "\n", encoding="utf-8")
    write_reports(out, inp)
    view = Page(browser, out / "report.html")
    page = view.page
    assert page.evaluate("window.pwned") is None
    text = page.locator("#articles .text").inner_text()
    assert "<script>window.pwned = 1; alert(1)</script>" in text and "onerror=" in text
    page.locator("mark.claim").first.click()
    assert page.evaluate("window.pwned") is None
    # A javascript: evidence entry is shown as text, never as a link.
    hrefs = page.eval_on_selector_all("#details-list a", "els => els.map(e => e.getAttribute('href'))")
    assert hrefs == ["https://example.org/x"]
    assert "</script><script>window.pwned=3</script>" in page.locator("#details").inner_text()
    view.clean()


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    corpus = Path(__file__).resolve().parents[1] / "corpora" / "articles"
    out = tmp_path_factory.mktemp("corpus-report")
    run_batch(corpus, out, Settings())
    write_reports(out, corpus)
    return out


def test_a_conflict_reads_as_a_fact_with_its_wordings(browser, corpus_run):
    view = Page(browser, corpus_run / "report.html")
    heads = view.page.locator("article.conflict h3").all_inner_texts()
    assert heads and not any(h.startswith(("The claim allows", "the official figure")) for h in heads)
    assert len(set(heads)) >= 0.8 * len(heads)  # a fact is listed once (two facts may share a name)
    card = view.page.locator("article.conflict.cross").first
    assert "Official:" in card.inner_text() and "“" in card.locator(".resolution").inner_text()
    view.clean()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_claims_panel_links_its_evidence_to_the_result_logs(browser, corpus_run, lang):
    view = Page(browser, corpus_run / "report.html")
    page = view.page
    mark = page.locator(f"article.doc[data-langs='{lang}'] mark.claim.v-contradicted").first
    mark.click()
    links = page.locator("#details-list a[href^='https://github.com/mlcommons/training_results_v']")
    assert links.count() >= 1 and "result" in links.first.inner_text()
    view.clean()


@pytest.mark.parametrize("doc", ["training-v0.7/en/2020-07-29_google-tpu-supercomputer-wire.txt",
                                 "training-v0.7/zh/2020-08-01_portal-repost-v07-dateline.txt"])
def test_the_article_page_keeps_each_note_beside_its_paragraph_on_screen_and_paper(browser, corpus_run, doc,
                                                                                   tmp_path):
    from pipeline.report.article import write_article

    path = write_article(corpus_run, doc, tmp_path / "a.html")
    view = Page(browser, path)
    page = view.page
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        rows = page.locator("section.row").all()
        checked = 0
        for row in rows:
            notes = row.locator(".note")
            if notes.count() == 0:
                continue
            text, note = row.locator(".text").bounding_box(), notes.first.bounding_box()
            assert note["x"] > text["x"] + text["width"] * 0.9  # to the right of the text
            assert note["y"] < text["y"] + text["height"] + 5  # starting beside it, not after it
            checked += 1
        assert checked >= 3, media
    view.clean()
