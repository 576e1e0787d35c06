"""The real command line, run as a user would: exit codes, outputs per the contract, resume, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.records import CONTRACT_FIELDS

REQUIRED = [f for f in CONTRACT_FIELDS if f != "id"]  # the output contract's fields


def newsclaims(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    (root / "zh").mkdir(parents=True)
    (root / "zh" / "a.txt").write_text("谷歌的 4096 块 TPU V3 将 VERT 的训练时间缩短到了 23 秒。平均提高了 1.7 倍。",
                                       encoding="utf-8")
    (root / "zh" / "a.txt.meta.yaml").write_text("date: 2020-07-30\nround: training-v0.7\n", encoding="utf-8")
    (root / "b article.md").write_text("# Title\n\nNvidia set records in six of the eight benchmarks.\n",
                                       encoding="utf-8")
    (root / "empty.txt").write_bytes(b"")
    (root / "blob.txt").write_bytes(bytes(range(256)) * 10)
    return root


def test_run_writes_contract_outputs(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    proc = newsclaims("run", str(corpus), "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (out / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["doc"] for r in rows} == {"zh/a.txt", "b article.md"}
    for r in rows:
        assert all(k in r for k in REQUIRED)
    text = (corpus / "zh" / "a.txt").read_text(encoding="utf-8")
    for r in rows:
        if r["doc"] == "zh/a.txt":
            assert text[r["start"]:r["end"]] == r["text"]
    ratio = next(r for r in rows if r["kind"] == "ratio")
    assert (ratio["value"], ratio["ratio_reading"]) == (1.7, "increase_by")
    assert (out / "claims.csv").read_text(encoding="utf-8").startswith("id,doc,lang")


def test_bad_articles_are_listed_and_the_batch_goes_on(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    proc = newsclaims("run", str(corpus), "--out", str(out), "--quiet")
    assert proc.returncode == 0
    errors = {e["doc"]: e for e in map(json.loads, (out / "errors.jsonl").read_text().splitlines())}
    assert errors["empty.txt"]["error"] == "empty"
    assert errors["blob.txt"]["error"] == "binary"
    assert all(e["detail"] for e in errors.values())


def test_rerun_reuses_unchanged_articles(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    newsclaims("run", str(corpus), "--out", str(out), "--quiet")
    first = (out / "claims.jsonl").read_text(encoding="utf-8")
    proc = newsclaims("run", str(corpus), "--out", str(out), "--quiet")
    assert "4 unchanged" in proc.stderr
    assert (out / "claims.jsonl").read_text(encoding="utf-8") == first


def test_exit_code_is_1_when_no_article_can_be_read(tmp_path: Path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.txt").write_bytes(b"")
    proc = newsclaims("run", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--quiet")
    assert proc.returncode == 1
    assert "no article could be read" in proc.stderr


def test_missing_input_is_a_clear_error(tmp_path: Path):
    proc = newsclaims("run", str(tmp_path / "nope"), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "no such file or folder" in proc.stderr


def test_extract_prints_claims_as_json():
    proc = newsclaims("extract", "谷歌的超级计算机比 Cloud TPU v3 Pod 大三倍。", "--json")
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout.splitlines()[0])
    assert (row["text"], row["value"], row["ratio_reading"]) == ("大三倍", 3, "ambiguous")


def test_dask_engine_gives_the_same_outputs_as_the_local_one(corpus: Path, tmp_path: Path):
    pytest.importorskip("dask.distributed", reason="install the dask extra: pip install -e '.[dask]'")
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert newsclaims("run", str(corpus), "--out", str(local), "--quiet").returncode == 0
    proc = newsclaims("run", str(corpus), "--out", str(dask), "--quiet", "--engine", "dask", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    for name in ("claims.jsonl", "errors.jsonl", "conflicts.jsonl"):
        a = sorted((local / name).read_text(encoding="utf-8").splitlines())
        b = sorted((dask / name).read_text(encoding="utf-8").splitlines())
        assert a == b, name


def test_claimreview_export_is_json_ld(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    newsclaims("run", str(corpus), "--out", str(out), "--quiet")
    proc = newsclaims("export", "claimreview", str(out))
    assert proc.returncode == 0, proc.stderr
    reviews = json.loads((out / "claimreview.jsonld").read_text(encoding="utf-8"))
    assert reviews and all(r["@type"] == "ClaimReview" for r in reviews)
    r = reviews[0]
    assert r["reviewRating"]["alternateName"] and r["itemReviewed"]["appearance"] and r["author"]["name"]
    assert r["claimReviewed"] and r["datePublished"]


@pytest.mark.parametrize("command", ["run", "extract", "evaluate", "official build", "export claimreview", "report",
                                     "annotate export", "annotate import", "review"])
def test_every_command_has_help(command: str):
    proc = newsclaims(*command.split(), "--help")
    assert proc.returncode == 0 and "Usage" in proc.stdout


def test_workers_0_is_one_per_core_and_below_0_is_refused(corpus: Path, tmp_path: Path):
    proc = newsclaims("run", str(corpus), "--out", str(tmp_path / "out"), "--quiet", "--workers", "0")
    assert proc.returncode == 0, proc.stderr
    assert {json.loads(line)["doc"] for line in (tmp_path / "out" / "claims.jsonl").read_text().splitlines()}
    refused = newsclaims("run", str(corpus), "--out", str(tmp_path / "out2"), "--quiet", "--workers", "-1")
    assert refused.returncode == 2 and "--workers" in refused.stdout + refused.stderr
    assert not (tmp_path / "out2").exists()


@pytest.mark.parametrize(("code", "status", "said"), [
    (None, 0, ""),
    (0, 0, ""),
    (3, 3, ""),
    (130, 130, ""),
    ("newsclaims: stopped", 1, "newsclaims: stopped"),
])
def test_the_console_script_exits_with_pythons_status_for_each_exit(code: object, status: int, said: str,
                                                                     capsys: pytest.CaptureFixture[str]):
    from pipeline.cli import exit_status

    assert exit_status(code) == status
    assert capsys.readouterr().err.strip() == said


_ENTRY = """
import atexit, sys
import pipeline.cli
atexit.register(lambda: print("exit handler ran", flush=False))
sys.stdout.write("unflushed output")
sys.argv = ["newsclaims", *sys.argv[1:]]
pipeline.cli.entry()
"""


@pytest.mark.parametrize(("args", "status"), [(["--help"], 0), (["run", "/no/such/folder", "--out", "x"], 2)])
def test_the_console_script_skips_only_the_teardown(args: list[str], status: int, tmp_path: Path):
    # exit handlers run and buffered output is written before the process ends without the interpreter's
    # teardown; the exit status is main's
    proc = subprocess.run([sys.executable, "-c", _ENTRY, *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == status, proc.stderr
    assert proc.stdout.startswith("unflushed output") and proc.stdout.rstrip().endswith("exit handler ran")


@pytest.mark.parametrize(("own", "expected"), [(None, "1"), ("4", "4")])
def test_the_command_line_keeps_blas_to_one_thread_unless_told(monkeypatch: pytest.MonkeyPatch, own, expected):
    from pipeline.cli import one_blas_thread

    if own is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", own)
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == expected


def test_the_command_line_module_loads_without_numpy():
    """one_blas_thread, the console script's first step, comes before anything loads numpy (and OpenBLAS)."""
    code = "import sys, pipeline.cli; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.strip() == "False"
