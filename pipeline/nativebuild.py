"""Build the compiled stages (pipeline.native): `python -m pipeline.nativebuild [build] [--force] [--optional]`
compiles them for the sources in place, unless that build exists; `python -m pipeline.nativebuild status`
says what `import pipeline` will run.  With --optional a missing mypyc or a failed compile is reported and
the command succeeds: pure Python always works."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from pipeline.native import (
    MANIFEST,
    NATIVE_MODULES,
    PACKAGE,
    build_dir,
    cache_root,
    complete,
    source_key,
    status,
)


def build(force: bool = False, keep: int = 3, log: Any = None) -> Path:
    """Compile NATIVE_MODULES for the sources in place (unless that build exists); returns its folder.
    The build is made in a temporary folder and renamed into place, so a reader never sees half of one;
    earlier builds of this cache beyond the `keep` newest are removed (nothing else in it is touched)."""
    key = source_key()
    target = build_dir(key)
    if complete(target) and not force:
        return target
    say = log or (lambda msg: None)
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".build-", dir=root) as tmp:
        work = Path(tmp)
        say(f"compiling {len(NATIVE_MODULES)} modules with mypyc (a few minutes)")
        _compile(work)
        out = work / "out"
        (out / MANIFEST).write_text(json.dumps({
            "key": key, "modules": list(NATIVE_MODULES), "python": sys.version.split()[0],
            "mypy": _mypy_version()}, indent=1), encoding="utf-8")
        if not complete(out):
            raise RuntimeError(f"the mypyc build in {work} is missing modules")
        if target.exists():
            if not _ours(target):
                raise RuntimeError(f"{target} exists and is not a build of newsclaims: not replaced")
            shutil.rmtree(target)
        os.replace(out, target)
    _prune(root, keep, target)
    say(f"compiled modules in {target}")
    return target


def _mypy_version() -> str:
    from mypy.version import __version__

    return str(__version__)


def _compile(work: Path) -> None:
    """mypyc over the modules' sources, then setuptools' build_ext (parallel) into work/out."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    sources = [str(Path(*name.split(".")).with_suffix(".py")) for name in NATIVE_MODULES]
    cwd = os.getcwd()
    os.chdir(PACKAGE.parent)  # module names come from the paths, relative to the package's parent
    try:
        exts = mypycify(["--ignore-missing-imports", "--python-version", f"{sys.version_info[0]}.{sys.version_info[1]}",
                         *sources], target_dir=str(work / "c"), separate=True)
        # one library per module (separate=True), so the C compiler runs on every core
        dist = Distribution({"name": "newsclaims-native", "ext_modules": exts})
        cmd: Any = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "out")
        cmd.build_temp = str(work / "tmp")
        cmd.parallel = os.cpu_count() or 1
        dist.run_command("build_ext")
    finally:
        os.chdir(cwd)


def _ours(folder: Path) -> bool:
    """Whether `folder` is a build this module wrote: its manifest names the folder's own key."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("key") == folder.name and "modules" in manifest


def _prune(root: Path, keep: int, current: Path) -> None:
    """Remove older builds of this cache, keeping the newest `keep`; nothing but our own builds is touched
    (NEWSCLAIMS_NATIVE_DIR may be a folder that holds other things)."""
    builds = sorted((p for p in root.iterdir() if p.is_dir() and p != current and _ours(p)),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[max(0, keep - 1):]:
        shutil.rmtree(old, ignore_errors=True)


def write_bytecode(package: Path = PACKAGE) -> bool:
    """The package's bytecode in its __pycache__ folders, as installing a wheel writes it; True when all of
    it was written.  Where Python writes none itself (PYTHONDONTWRITEBYTECODE, a read-only checkout), every
    process would otherwise compile newsclaims' pure-Python modules from source: 41 of them, 0.07 s of each
    `newsclaims run` start-up.  A module edited later is compiled from source again until this runs."""
    import compileall

    try:
        return bool(compileall.compile_dir(str(package), quiet=2))
    except OSError:  # a folder it may not write: Python compiles in memory, as before
        return False


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["build"], []) or args[:1] in (["--force"], ["--optional"]):
        write_bytecode()
        try:
            build(force="--force" in args, log=lambda msg: print(msg, file=sys.stderr))
        except ImportError as exc:
            print(f"newsclaims runs as pure Python: mypyc is not installed ({exc})", file=sys.stderr)
            return 0 if "--optional" in args else 1
        except Exception as exc:  # noqa: BLE001 - a failed compile leaves pure Python, which always works
            print(f"newsclaims runs as pure Python: the mypyc build failed ({exc})", file=sys.stderr)
            return 0 if "--optional" in args else 1
        return 0
    if args[:1] == ["status"]:
        print(json.dumps(status(), indent=1))
        return 0
    print("usage: python -m pipeline.nativebuild [build [--force] [--optional] | status]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
