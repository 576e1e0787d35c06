"""The runner under faults: hanging and crashing articles, kill -9 of the run, output-folder safety."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile import REPO, SENTENCE, claims_by_doc, copy_corpus, read_jsonl

import pipeline.run.batch as batch
from pipeline.errors import OutputDirError
from pipeline.fileio import atomic_write_bytes, locked_dir
from pipeline.run.batch import run_batch
from pipeline.settings import Settings

_real_work = batch._work


def _faulty_work(args):
    """Hangs on articles named hang*, kills its own process on crash*; the rest as usual."""
    name = Path(args[0]).name
    if name.startswith("hang"):
        time.sleep(3600)
    if name.startswith("crash"):
        os.kill(os.getpid(), signal.SIGKILL)
    return _real_work(args)


def _tree(root: Path) -> dict[str, str]:
    """Every file under root (following nothing) with its content hash."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            p = Path(dirpath) / n
            if p.is_file() and not p.is_symlink():
                out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.mark.parametrize("workers", [1, 2])
def test_a_hanging_or_crashing_article_is_listed_and_the_batch_goes_on(small: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       workers: int):
    (small / "hang.txt").write_text(SENTENCE, encoding="utf-8")
    (small / "crash.txt").write_text(SENTENCE, encoding="utf-8")
    monkeypatch.setattr(batch, "_work", _faulty_work)
    out = tmp_path / "out"
    started = time.monotonic()
    summary = run_batch(small, out, Settings(article_timeout=2), workers=workers)
    assert time.monotonic() - started < 40
    errors = {e["doc"]: e for e in read_jsonl(out / "errors.jsonl")}
    assert errors["hang.txt"]["error"] == "timeout" and "article_timeout" in errors["hang.txt"]["detail"]
    assert errors["crash.txt"]["error"] == "crashed" and "SIGKILL" in errors["crash.txt"]["detail"]
    assert {r["doc"] for r in read_jsonl(out / "claims.jsonl")} == {"ok.txt", "en.txt"}
    assert summary.timeouts == 1 and summary.succeeded == 2

    # Timeouts and crashes are not stored: the next run tries those articles again (and reuses the rest).
    monkeypatch.setattr(batch, "_work", _real_work)
    again = run_batch(small, out, Settings(article_timeout=60))
    assert (again.reused, again.processed, again.errors) == (2, 2, 0)
    assert {r["doc"] for r in read_jsonl(out / "claims.jsonl")} == {"ok.txt", "en.txt", "hang.txt", "crash.txt"}


def test_a_run_never_writes_outside_out_dir(tmp_path: Path, small: Path, repo: Path):
    """Annotations beside the output folder are left exactly as they were."""
    import shutil

    shutil.copytree(repo / "annotations", tmp_path / "annotations")
    before = _tree(tmp_path)
    run_batch(small, tmp_path / "out", Settings())
    after = _tree(tmp_path)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert changed and all(k.startswith("out/") for k in changed), sorted(changed)[:5]


@pytest.mark.parametrize("target", ["annotations", "in", "a file"])
def test_a_folder_that_is_not_a_run_output_is_refused_before_writing(tmp_path: Path, small: Path, repo: Path,
                                                                     target: str):
    import shutil

    shutil.copytree(repo / "annotations", tmp_path / "annotations")
    (tmp_path / "a file").write_text("x", encoding="utf-8")
    before = _tree(tmp_path)
    with pytest.raises(OutputDirError, match="--out"):
        run_batch(small, tmp_path / target, Settings())
    assert _tree(tmp_path) == before


def test_a_log_redirected_into_the_out_dir_is_allowed(tmp_path: Path, small: Path):
    """`newsclaims run IN --out out > out/run.log`: the shell creates the log before the run starts."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "stdout.log").write_text("", encoding="utf-8")
    run_batch(small, out, Settings())
    assert (out / "claims.jsonl").exists() and (out / "stdout.log").exists()


def test_an_out_dir_inside_the_input_is_not_read_as_articles(small: Path):
    out = small / "results"
    run_batch(small, out, Settings())
    (out / "report.md").write_text(SENTENCE, encoding="utf-8")  # what a report step writes
    summary = run_batch(small, out, Settings())
    assert summary.articles == 2 and summary.reused == 2


def test_a_second_run_into_the_same_folder_is_refused(small: Path, tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    with locked_dir(out), pytest.raises(OutputDirError, match="another newsclaims run"):
        run_batch(small, out, Settings())


def test_leftovers_of_a_killed_writer_are_removed(small: Path, tmp_path: Path):
    out = tmp_path / "out"
    run_batch(small, out, Settings())
    (out / ".claims.jsonl.x1y2ab_9.tmp").write_text("half", encoding="utf-8")
    (out / ".parts" / ".abc.json.x1y2ab_9.tmp").write_text("half", encoding="utf-8")
    (out / ".parts" / "0123456789abcdef0123.json").write_text("{damaged", encoding="utf-8")  # an older version's
    (out / ".parts" / "0123456789abcdef0124.part").write_text("{damaged", encoding="utf-8")
    run_batch(small, out, Settings())
    assert not list(out.glob(".*.tmp")) and not list((out / ".parts").glob(".*.tmp"))
    assert not (out / ".parts" / "0123456789abcdef0123.json").exists()  # parts of no input are pruned
    assert not (out / ".parts" / "0123456789abcdef0124.part").exists()


def test_an_interrupted_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "claims.jsonl"
    path.write_bytes(b"old\n")

    def boom(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write_bytes(path, b"new\n" * 1000)
    assert path.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["claims.jsonl"]


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and SIGKILL")
def test_kill_9_mid_run_loses_and_duplicates_nothing(tmp_path: Path, clean_run: Path):
    src, out = tmp_path / "in", tmp_path / "out"
    copy_corpus(src / "a")
    run_batch(src, out, Settings())  # the previous, complete run
    previous = {n: (out / n).read_bytes() for n in ("claims.jsonl", "errors.jsonl", "claims.csv")}
    copy_corpus(src / "b")
    copy_corpus(src / "c")
    parts_before = len(list((out / ".parts").glob("*.part")))
    log = tmp_path / "stderr.txt"
    with open(log, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "pipeline.cli", "run", str(src), "--out", str(out), "--quiet"],
                                cwd=REPO, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        workers.update(_children(proc.pid))
        if len(list((out / ".parts").glob("*.part"))) >= parts_before + 2:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed: " + log.read_text()[-500:]
    workers.update(_children(proc.pid))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    # The previous outputs are intact; the worker processes die with the run.
    assert {n: (out / n).read_bytes() for n in previous} == previous
    for _ in range(100):
        if not [w for w in workers if _alive(w)]:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"worker processes {sorted(workers)} outlived the killed run")

    summary = run_batch(src, out, Settings())  # the rerun completes the work
    assert summary.reused >= parts_before + 2 and summary.errors == 0
    rows = read_jsonl(out / "claims.jsonl")
    assert len({r["id"] for r in rows}) == len(rows)  # nothing twice
    clean = claims_by_doc(read_jsonl(clean_run / "claims.jsonl"))
    for prefix in ("a/", "b/", "c/"):
        assert claims_by_doc(rows, prefix) == clean, prefix  # nothing lost, nothing changed


def test_a_folder_that_cannot_be_listed_is_reported(small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    locked = small / "locked"
    locked.mkdir()
    (locked / "x.txt").write_text(SENTENCE, encoding="utf-8")
    real_scandir = os.scandir

    def refuse(path="."):
        if os.fspath(path) == os.fspath(locked):  # as root chmod cannot stop listing: simulate it
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    summary = run_batch(small, tmp_path / "out", Settings())
    errors = {e["doc"]: e for e in read_jsonl(tmp_path / "out" / "errors.jsonl")}
    assert errors["locked"]["error"] == "unreadable" and "Permission denied" in errors["locked"]["detail"]
    assert summary.ok and summary.succeeded == 2


def test_stored_results_are_not_reused_against_another_official_table(small: Path, tmp_path: Path):
    """A part holds verdicts: checked against other official figures, it must be redone, not reused."""
    import shutil

    from pipeline.official.query import DEFAULT_DIR

    official = tmp_path / "official"
    official.mkdir()
    for f in [*DEFAULT_DIR.glob("training-v*.csv"), DEFAULT_DIR / "statements.csv"]:
        shutil.copy(f, official / f.name)
    out = tmp_path / "out"
    assert run_batch(small, out, Settings(official=str(official))).processed == 2
    assert run_batch(small, out, Settings(official=str(official))).reused == 2
    table = official / "training-v0.7.csv"
    table.write_text(table.read_text(encoding="utf-8").replace(",scored,", ",no_score,", 1), encoding="utf-8")
    again = run_batch(small, out, Settings(official=str(official)))
    assert (again.reused, again.processed) == (0, 2)


def test_stored_results_are_not_reused_after_a_library_upgrade(small: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch):
    """A new jieba or spaCy may cut or read the text differently: the articles are redone."""
    import pipeline.run.process as process

    out = tmp_path / "out"
    assert run_batch(small, out, Settings()).processed == 2
    assert run_batch(small, out, Settings()).reused == 2
    upgraded = {**process.library_versions(), "jieba": "0.43.0"}
    monkeypatch.setattr(process, "library_versions", lambda: upgraded)
    again = run_batch(small, out, Settings())
    assert (again.reused, again.processed) == (0, 2)
