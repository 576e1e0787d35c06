"""Issue #17, round two: input that must take at most one claim down, never an article or the batch, and
output that is safe to open (a spreadsheet does not run a cell as a formula)."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from pipeline.ingest.read import find_articles
from pipeline.records import Article
from pipeline.run.batch import run_batch
from pipeline.run.process import get_pipeline
from pipeline.settings import Settings

BIG = "9" * 400


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def test_a_number_out_of_range_loses_that_claim_with_a_reason_and_nothing_else():
    for text, kept in ((f"The new chip is {BIG} times faster. Google used 4096 chips.", "4096 chips"),
                       (f"谷歌用了{BIG}块GPU，训练用时23秒。", "23秒")):
        result = get_pipeline(Settings()).process(Article(doc="x.txt", text=text, meta={}))
        assert [c.text for c in result.claims] == [kept]
        assert [p["reason"] for p in result.problems] == ["a number out of range (400 characters): not read"]


def test_no_infinity_reaches_the_outputs(tmp_path: Path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "big.txt").write_text(f"It is {BIG} times faster, and Google used {BIG} GPUs and 4096 chips.\n")
    run_batch(src, tmp_path / "out", Settings())
    for line in (tmp_path / "out" / "claims.jsonl").read_text().splitlines():
        json.loads(line, parse_constant=_no_constants)
    rows = [json.loads(x) for x in (tmp_path / "out" / "articles.jsonl").read_text().splitlines()]
    assert rows[0]["claims"] == 1 and len(rows[0]["problems"]) == 2 and not rows[0]["error"]


def test_a_thousand_nested_folders_are_walked_without_recursion(tmp_path: Path):
    deep = str(tmp_path / "nest")
    os.mkdir(deep)
    try:
        for _ in range(1200):
            deep = os.path.join(deep, "d")
            os.mkdir(deep)
        Path(deep, "deep.txt").write_text("Google used 4096 chips.\n")
        (tmp_path / "top.txt").write_text("NVIDIA used 2048 GPUs.\n")
        assert sorted(p.name for p in find_articles(tmp_path)) == ["deep.txt", "top.txt"]
    finally:
        _remove_deep(str(tmp_path / "nest"))


def _remove_deep(top: str) -> None:
    """Bottom-up, without recursion: pytest's own cleanup (shutil.rmtree) recurses once per level."""
    if not os.path.isdir(top):
        return
    path = top
    while os.path.isdir(os.path.join(path, "d")):
        path = os.path.join(path, "d")
    while True:
        for name in os.listdir(path):
            if not os.path.isdir(os.path.join(path, name)):
                os.unlink(os.path.join(path, name))
        os.rmdir(path)
        if path == top:
            break
        path = os.path.dirname(path)


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tmp_path: Path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "=HYPERLINK(1).txt").write_text('=HYPERLINK("http://x") says Google used 4096 chips.\n')
    run_batch(src, tmp_path / "out", Settings())
    with open(tmp_path / "out" / "claims.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and rows[0]["doc"].startswith("'=") and rows[0]["sentence"].startswith("'=")
    claim = json.loads((tmp_path / "out" / "claims.jsonl").read_text().splitlines()[0])
    assert claim["doc"].startswith("=") and claim["sentence"].startswith("=")  # the faithful copy


def test_a_file_link_out_of_the_input_folder_is_listed_not_read(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("The password has 12 characters and 4096 chips.\n")
    src = tmp_path / "in"
    src.mkdir()
    (src / "ok.txt").write_text("Google used 4096 chips.\n")
    (src / "inner.txt").symlink_to(src / "ok.txt")  # inside: read
    (src / "leak.txt").symlink_to(secret)
    run_batch(src, tmp_path / "out", Settings())
    docs = {json.loads(x)["doc"] for x in (tmp_path / "out" / "claims.jsonl").read_text().splitlines()}
    assert docs == {"ok.txt", "inner.txt"}
    errors = [json.loads(x) for x in (tmp_path / "out" / "errors.jsonl").read_text().splitlines()]
    assert [(e["doc"], e["error"]) for e in errors] == [("leak.txt", "unreadable")]
    assert "--follow-symlinks" in errors[0]["detail"]
    run_batch(src, tmp_path / "out2", Settings(follow_symlinks=True))
    docs = {json.loads(x)["doc"] for x in (tmp_path / "out2" / "claims.jsonl").read_text().splitlines()}
    assert "leak.txt" in docs


# one payload table for every output format (#17, item 6): text from outside is inert in html, md and csv
PAYLOADS = ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '=HYPERLINK("http://x")',
            "**bold** `code` | pipe"]


def test_text_from_outside_is_inert_in_every_output(tmp_path: Path):
    from pipeline.report.build import write_reports

    src = tmp_path / "in"
    src.mkdir()
    name = "a\n<img src=x onerror=alert(1)>.txt"  # a file name with a newline and a tag
    (src / name).write_text("".join(f"{p} Google used 4096 chips.\n" for p in PAYLOADS), encoding="utf-8")
    out = tmp_path / "out"
    run_batch(src, out, Settings())
    write_reports(out, src)
    md = (out / "report.md").read_text(encoding="utf-8")
    html = (out / "report.html").read_text(encoding="utf-8")
    for payload in PAYLOADS[:2]:
        assert payload not in md and payload not in html
    assert not any(line.lstrip().startswith("<img") for line in md.splitlines())
    with open(out / "claims.csv", newline="", encoding="utf-8") as fh:
        cells = [c for row in csv.reader(fh) for c in row]
    assert not any(c.startswith(("=", "+", "@")) for c in cells)


def _reviewer(root: str, reviewer: str, n: int) -> None:
    """One reviewer's process: n accepted decisions, one at a time, as a review page sends them."""
    from pipeline.review.gold import GoldStore
    from pipeline.review.model import CONTRACT_FIELDS, Decision

    store = GoldStore(Path(root))
    for i in range(n):
        row = {k: None for k in CONTRACT_FIELDS}
        row.update(doc="a.txt", start=i * 10 + (0 if reviewer == "alice" else 5), end=i * 10 + 4, text="4096",
                   kind="count", value=4096, unit="count", status="accepted", reviewer=reviewer)
        cid = f"{reviewer}-{i}"
        row["id"] = cid
        store.apply([Decision(doc="a.txt", id=cid, reviewer=reviewer, action="add", row=row, source="test",
                              time="2026-12-02T00:00:00Z")])


def test_two_reviewers_at_once_lose_no_decision(tmp_path: Path):
    # (#17, item 1) two review processes on one annotations folder: every decision lands in the gold
    import multiprocessing as mp

    from pipeline.review.gold import GoldStore

    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_reviewer, args=(str(tmp_path), who, 20)) for who in ("alice", "bob")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    rows = GoldStore(tmp_path).rows("a.txt")
    assert len(rows) == 40 and len(GoldStore(tmp_path).log()) == 40


def test_a_rerun_removes_only_what_newsclaims_wrote(small: Path, tmp_path: Path):
    # (#17, item 12) files a user put beside the outputs survive every rerun, whatever the report's shape;
    # the temporary files of a writer killed mid-report do not
    from pipeline.report import write_reports
    from pipeline.report.paged import PAGES_DIR

    out = tmp_path / "out"
    run_batch(small, out, Settings())
    write_reports(out, small, per_page=1)  # two articles: report-pages/ with two parts
    pages = out / PAGES_DIR
    planted = {out / "my-notes.md": "mine", out / ".notes.tmp": "mine", pages / "README.txt": "mine",
               pages / "part-notes.md": "mine", out / ".parts" / "keep.txt": "mine"}
    for path, text in planted.items():
        path.write_text(text, encoding="utf-8")
    killed = [pages / ".part-0001.html.k3j9x_2a.tmp", out / ".report.html.q8w7e6r5.tmp"]
    for path in killed:
        path.write_text("half", encoding="utf-8")
    for per_page in (100, 1, 100):  # one page (the parts go), parts again, one page again
        run_batch(small, out, Settings())
        write_reports(out, small, per_page=per_page)
        assert all(path.read_text(encoding="utf-8") == "mine" for path in planted), per_page
        assert not any(path.exists() for path in killed), per_page
    assert sorted(p.name for p in pages.iterdir()) == ["README.txt", "part-notes.md"]


@pytest.mark.slow
def test_a_million_character_line_without_punctuation_stays_within_the_article_limit():
    # (#17, item 10) the shipped Chinese articles run together with every space and punctuation mark
    # removed, to a million characters: a run without a sentence end, whose pieces the linker must not
    # weigh claim by claim against thousands of names.  Before: minutes (~200 ms per 1,000 characters).
    import re
    import time

    from hostile import CORPUS

    text = "".join(p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("*.txt")) if "/zh/" in p.as_posix())
    line = re.sub(r"[\s\W_]+", "", text)
    line = (line * (1_000_000 // len(line) + 1))[:1_000_000]
    pipe = get_pipeline(Settings())
    started = time.monotonic()
    result = pipe.process(Article(doc="long.txt", text=line, meta={}))
    took = time.monotonic() - started
    assert took < Settings().article_timeout, took
    assert len(result.claims) > 10_000 and max(len(c.sentence) for c in result.claims) <= 2_000
