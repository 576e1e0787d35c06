"""The compiled stages (pipeline/native.py): used only as a whole build of exactly the sources in place,
never mixed with Python, and giving the same outputs as Python."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import native, nativebuild

ROOT = Path(__file__).resolve().parents[1]


def _module_path(name: str) -> Path:
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "pipeline"
    shutil.copytree(native.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return copy


@pytest.mark.parametrize("edited", [
    "records.py",  # compiled, and every other compiled module reads its types
    "run/batch.py",  # not compiled
    "link/attach.py",  # compiled
    "lang/loader.py",
])
def test_any_source_edit_makes_a_build_stale(package_copy: Path, edited: str) -> None:
    before = native.source_key(package_copy)
    path = package_copy / edited
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert native.source_key(package_copy) != before


def test_the_key_is_the_sources_not_their_place(package_copy: Path) -> None:
    assert native.source_key(package_copy) == native.source_key(native.PACKAGE)


@pytest.mark.parametrize("value, on", [("0", False), ("off", False), ("false", False), ("1", True), ("", True)])
def test_the_off_switch(monkeypatch: pytest.MonkeyPatch, value: str, on: bool) -> None:
    monkeypatch.setenv("NEWSCLAIMS_NATIVE", value)
    assert native.enabled() is on


def test_a_partial_build_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "build"
    (folder / "pipeline" / "link").mkdir(parents=True)
    (folder / native.MANIFEST).write_text("{}", encoding="utf-8")
    for name in native.NATIVE_MODULES:
        for suffix in ("", native.LIBRARY):
            path = native._module_file(folder, name + suffix)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")
    assert native.complete(folder)
    native._module_file(folder, native.NATIVE_MODULES[-1] + native.LIBRARY).unlink()
    assert not native.complete(folder)  # one module's library missing


def test_builds_live_where_they_are_told(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NEWSCLAIMS_NATIVE_DIR", str(tmp_path))
    assert native.build_dir().parent == tmp_path


@pytest.mark.parametrize("name", native.NATIVE_MODULES)
def test_compiled_modules_find_data_through_the_package_not_their_file(name: str) -> None:
    # a compiled module's __file__ is the .so in its build folder, where no data file is
    code = [line.split("#", 1)[0] for line in _module_path(name).read_text(encoding="utf-8").splitlines()]
    assert not [line for line in code if re.search(r"\b__file__\b", line)]


def test_a_failed_optional_build_leaves_python(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NEWSCLAIMS_NATIVE_DIR", str(tmp_path))

    def broken(work: Path) -> None:
        raise RuntimeError("gcc: not found")

    monkeypatch.setattr(nativebuild, "_compile", broken)
    monkeypatch.setattr(nativebuild, "write_bytecode", lambda package=None: True)
    assert nativebuild.main(["build", "--optional"]) == 0
    assert nativebuild.main(["build"]) == 1
    assert "pure Python" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # its temporary folder removed, no build left


def test_the_packages_bytecode_is_written_where_python_writes_none(package_copy: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # as PYTHONDONTWRITEBYTECODE sets it
    assert nativebuild.write_bytecode(package_copy)
    for module in ("records.py", "run/batch.py", "cli.py"):  # pure Python, loaded by every run
        assert Path(importlib.util.cache_from_source(str(package_copy / module))).is_file()


def _run(folder: Path, out: Path, compiled: bool) -> dict:
    env = {**os.environ, "NEWSCLAIMS_NATIVE": "1" if compiled else "0", "PYTHONHASHSEED": "0"}
    probe = ("import json, sys, pipeline; from pipeline import native; from pipeline.run.batch import run_batch; "
             "from pipeline.settings import Settings; run_batch(sys.argv[1], sys.argv[2], Settings(), workers=1); "
             "print(json.dumps({'active': str(native.active() or '')}))")
    done = subprocess.run([sys.executable, "-c", probe, str(folder), str(out)], env=env, capture_output=True,
                          text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.skipif(not native.complete(native.build_dir()),
                    reason="no compiled build for these sources (`make native` builds one)")
def test_compiled_and_python_give_the_same_outputs(tmp_path: Path) -> None:
    articles = ROOT / "corpora" / "articles"
    picked = sorted(articles.rglob("*.txt"))[::6] + sorted(articles.rglob("*.md"))[::4]
    folder = tmp_path / "in"
    for src in picked:
        dest = folder / src.relative_to(articles)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dest)
        meta = src.with_name(src.name + ".meta.yaml")
        if meta.exists():
            shutil.copy(meta, dest.with_name(meta.name))
    compiled = _run(folder, tmp_path / "compiled", compiled=True)
    python = _run(folder, tmp_path / "python", compiled=False)
    assert compiled["active"] and not python["active"]
    for name in ("claims.jsonl", "conflicts.jsonl", "errors.jsonl"):
        assert (tmp_path / "compiled" / name).read_bytes() == (tmp_path / "python" / name).read_bytes(), name


def test_pruning_keeps_what_is_not_a_build(tmp_path: Path) -> None:
    def build(name: str, key: str | None = None) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        (folder / native.MANIFEST).write_text(json.dumps({"key": key or name, "modules": []}), encoding="utf-8")
        return folder

    old = [build(f"{n:024x}") for n in range(4)]
    foreign = build("notes", key="something else")  # a folder of someone else's with a manifest.json
    plain = tmp_path / "photos"
    plain.mkdir()
    current = build("f" * 24)
    nativebuild._prune(tmp_path, keep=2, current=current)
    assert foreign.exists() and plain.exists() and current.exists()
    assert sum(p.exists() for p in old) == 1  # the newest old build, beside the current one
