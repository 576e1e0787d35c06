"""Compiled stages: the per-claim reading (segmentation helpers, extraction, linking, reconciliation), the
merge and the report's per-claim formatting compiled with mypyc, used when a build of exactly the sources
in place exists, pure Python otherwise.

Why: the per-article work is ordinary Python spread over a hundred small functions (attribute reads,
short calls, comprehensions), with no hot spot to rewrite; compiled, it takes about a third less time
(benchmarks/README.md).  Nothing changes in what newsclaims reads or writes: the compiled modules are the
same source, and the outputs of both are compared in tests/test_native.py.

How: `python -m pipeline.nativebuild` (run by `make native`, which `make run` calls) compiles NATIVE_MODULES
into a folder of their own, named by a key of every source file of the package and the interpreter, under the
environment's prefix (or NEWSCLAIMS_NATIVE_DIR).  `install()`, called when the package is imported, puts
a finder in front of the import system that serves those modules from that folder, and only when its key
is the key of the sources now in place: edit any module and the package runs as pure Python until it is
built again (the compiled modules assume each other's compiled classes, so they are used all together or
not at all).  NEWSCLAIMS_NATIVE=0 turns them off.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

# the package's folder, where its data files are (a compiled module's own __file__ is in its build)
PACKAGE = Path(__file__).resolve().parent
# The stages' modules that the per-article work runs through, with the records they pass on and the data
# classes they read (pipeline.records, the loader's Language, the linking rules): a compiled stage reads a
# compiled class's fields from its struct, a Python one's through a dictionary look-up each.  A compiled
# function checks the classes of its arguments, and a compiled record those of its fields: where a caller may
# hand in something else that quacks alike, the parameter is a Protocol.
NATIVE_MODULES = (
    "pipeline.extract.claims",
    "pipeline.extract.dates",
    "pipeline.extract.numbers",
    "pipeline.extract.prefilter",
    "pipeline.extract.quantities",
    "pipeline.link.attach",
    "pipeline.link.frames",
    "pipeline.link.infer",
    "pipeline.link.recognize",
    "pipeline.link.kb",
    "pipeline.link.rules",
    "pipeline.lang.loader",
    "pipeline.official.answers",
    "pipeline.official.query",
    "pipeline.official.statements",
    "pipeline.reconcile.context",
    "pipeline.reconcile.counts",
    "pipeline.reconcile.conflicts",
    "pipeline.reconcile.engine",
    "pipeline.reconcile.policy",
    "pipeline.reconcile.readings",
    "pipeline.reconcile.ratios",
    "pipeline.reconcile.resolve",
    "pipeline.reconcile.scope",
    "pipeline.reconcile.sizes",
    "pipeline.reconcile.stated",
    "pipeline.reconcile.statements",
    "pipeline.reconcile.times",
    "pipeline.reconcile.verdicts",
    "pipeline.records",
    "pipeline.report.blocks",
    "pipeline.report.chart",
    "pipeline.report.corpus",
    "pipeline.report.fmt",
    "pipeline.report.load",
    "pipeline.report.markdown",
    "pipeline.report.summary",
    "pipeline.report.table",
    "pipeline.run.merge",
    "pipeline.segment.jieba_dag",
    "pipeline.segment.jieba_doc",
    "pipeline.segment.normalize",
    "pipeline.segment.sentences",
)
LIBRARY = "__mypyc"  # each module is a small shim that loads its code from the module's name + LIBRARY
MANIFEST = "manifest.json"
OFF_VALUES = ("0", "false", "no", "off")


def enabled() -> bool:
    """Whether compiled modules may be used (NEWSCLAIMS_NATIVE=0 turns them off)."""
    return os.environ.get("NEWSCLAIMS_NATIVE", "1").strip().lower() not in OFF_VALUES


def cache_root() -> Path:
    """Where builds live: NEWSCLAIMS_NATIVE_DIR, else beside the environment the package runs in (a
    virtualenv's own folder), else the user's cache."""
    given = os.environ.get("NEWSCLAIMS_NATIVE_DIR")
    if given:
        return Path(given)
    if sys.prefix != sys.base_prefix:
        return Path(sys.prefix) / "newsclaims-native"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "newsclaims" / "native"


def source_key(package: Path = PACKAGE) -> str:
    """The key a build must carry to be used: every .py file of the package (a compiled module reads the
    types of the modules it imports, so any of them changing makes a build stale), the module list and
    the interpreter's ABI."""
    h = hashlib.sha256()
    h.update(repr((NATIVE_MODULES, LIBRARY, sys.implementation.cache_tag, sysconfig.get_config_var("EXT_SUFFIX"),
                   sys.platform)).encode())
    for path in sorted(package.rglob("*.py")):
        h.update(str(path.relative_to(package)).encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:24]


def build_dir(key: str | None = None) -> Path:
    """The folder of the build for these sources (whether or not it exists)."""
    return cache_root() / (key or source_key())


def _module_file(folder: Path, name: str) -> Path:
    return folder.joinpath(*name.split(".")).with_name(name.rsplit(".", 1)[-1] + _ext_suffix())


def _ext_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or importlib.machinery.EXTENSION_SUFFIXES[0])


def complete(folder: Path) -> bool:
    """Whether `folder` holds a whole build: its manifest and every module's file."""
    return (folder / MANIFEST).is_file() and all(
        _module_file(folder, name + suffix).is_file() for name in NATIVE_MODULES for suffix in ("", LIBRARY))


class _Finder(importlib.abc.MetaPathFinder):
    """Serves the compiled modules (and their shared library) from one build folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files = {name + suffix: _module_file(folder, name + suffix) for name in NATIVE_MODULES
                      for suffix in ("", LIBRARY)}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.machinery.ModuleSpec(fullname, loader, origin=str(file))


def active() -> Path | None:
    """The build folder the compiled modules are served from in this process, if any."""
    return next((f.folder for f in sys.meta_path if isinstance(f, _Finder)), None)


def install() -> Path | None:
    """Serve the compiled modules when a build of these very sources exists (called by `import pipeline`,
    before any stage is imported); returns its folder, or None (pure Python)."""
    if not enabled() or active() is not None:
        return active()
    if any(name in sys.modules for name in NATIVE_MODULES):
        return None  # already imported as Python: mixing the two is not allowed
    try:
        folder = build_dir()
    except OSError:
        return None
    if not complete(folder):
        return None
    sys.meta_path.insert(0, _Finder(folder))
    return folder


def status() -> dict[str, Any]:
    """What this process runs: compiled (and from where) or Python, and why."""
    folder = build_dir()
    return {"enabled": enabled(), "built": complete(folder), "active": str(active()) if active() else None,
            "build_dir": str(folder)}
