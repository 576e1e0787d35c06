"""A rerun with nothing new rewrites nothing; anything changed, removed or edited by hand is rebuilt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import SENTENCE, read_jsonl

import pipeline.run.batch as batch
from pipeline.run import current
from pipeline.run.batch import OUTPUT_FILES, run_batch
from pipeline.settings import Settings

REPORTS = ("report.html", "report.md", "chart.svg", "claims.parquet")


def _stamps(out: Path, names: tuple[str, ...]) -> dict[str, int]:
    return {n: os.stat(out / n).st_mtime_ns for n in names}


def _cli_run(small: Path, out: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "run", str(small), "--out", str(out), "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_rerun_with_nothing_changed_keeps_the_merged_outputs(small: Path, tmp_path: Path):
    out = tmp_path / "out"
    first = run_batch(small, out, Settings())
    before = _stamps(out, OUTPUT_FILES)
    again = run_batch(small, out, Settings())
    assert again.unchanged and not first.unchanged
    assert _stamps(out, OUTPUT_FILES) == before
    # what the run says is what the first run said
    assert (again.claims, again.errors, again.succeeded, again.reused) == (first.claims, 0, 2, 2)
    assert again.outputs_key == first.outputs_key != ""


@pytest.mark.parametrize("change", ["edit an article", "add an article", "edit claims.jsonl", "remove claims.csv"])
def test_a_change_of_input_or_output_merges_again(small: Path, tmp_path: Path, change: str):
    out = tmp_path / "out"
    run_batch(small, out, Settings())
    if change == "edit an article":
        (small / "ok.txt").write_text(SENTENCE + " AMD set 3 records.", encoding="utf-8")
    elif change == "add an article":
        (small / "new.txt").write_text(SENTENCE, encoding="utf-8")
    elif change == "edit claims.jsonl":
        (out / "claims.jsonl").write_text("", encoding="utf-8")
    else:
        (out / "claims.csv").unlink()
    again = run_batch(small, out, Settings())
    assert not again.unchanged
    rows = read_jsonl(out / "claims.jsonl")
    assert rows and len(rows) == again.claims and (out / "claims.csv").exists()


def test_an_edited_sidecar_redoes_its_article(small: Path, tmp_path: Path):
    # the sidecar's round and date are part of what the article yields
    out = tmp_path / "out"
    meta = small / "ok.txt.meta.yaml"
    meta.write_text("round: training-v0.7\n", encoding="utf-8")
    run_batch(small, out, Settings())
    meta.write_text("round: training-v0.6\n", encoding="utf-8")
    again = run_batch(small, out, Settings())
    assert (again.processed, again.reused, again.unchanged) == (1, 1, False)
    rounds = {r["entities"].get("round") for r in read_jsonl(out / "claims.jsonl") if r["doc"] == "ok.txt"}
    assert rounds == {"training-v0.6"}


def test_outputs_holding_an_unstored_result_are_never_kept(small: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    real = batch._work

    def crash_ok(args):
        if Path(args[0]).name == "ok.txt":
            os._exit(3)  # the worker dies: a transient failure, not stored as a part
        return real(args)

    out = tmp_path / "out"
    monkeypatch.setattr(batch, "_work", crash_ok)
    crashed = run_batch(small, out, Settings())
    assert crashed.errors == 1 and crashed.outputs_key == ""
    monkeypatch.setattr(batch, "_work", real)
    again = run_batch(small, out, Settings())
    assert not again.unchanged and again.errors == 0 and again.processed == 1
    assert run_batch(small, out, Settings()).unchanged


def test_a_state_vouches_only_for_its_key_and_untouched_files(tmp_path: Path):
    (tmp_path / "a.txt").write_text("one", encoding="utf-8")
    current.mark(tmp_path, "step", "k1", [tmp_path / "a.txt"], {"n": 1})
    assert current.current(tmp_path, "step", "k1") == {"n": 1}
    assert current.current(tmp_path, "step", "k2") is None
    (tmp_path / "a.txt").write_text("two!", encoding="utf-8")
    assert current.current(tmp_path, "step", "k1") is None
    current.forget(tmp_path, "step")
    assert current.current(tmp_path, "step", "k1") is None


def test_the_cli_rerun_keeps_the_reports_and_rebuilds_a_removed_one(small: Path, tmp_path: Path):
    out = tmp_path / "out"
    _cli_run(small, out)
    before = _stamps(out, REPORTS)
    _cli_run(small, out)
    assert _stamps(out, REPORTS) == before
    (out / "report.md").unlink()
    _cli_run(small, out)
    assert (out / "report.md").exists()
    assert (out / "report.html").read_bytes()  # rebuilt with the rest, from the same outputs
