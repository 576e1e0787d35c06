"""Finding the rounds, systems and benchmark folders of MLPerf Training results trees.

A root may be one round's folder (named like its repository, training_results_v0.7, or v0.5.0's parent),
or a folder holding several of them.  An optional MANIFEST.csv (in the root or its parent, as in the
shared snapshot) lists every result log of the source repositories; logs it marks
`missing_in_snapshot` are reported on their record instead of being silently absent.
"""

from __future__ import annotations

import csv
import fnmatch
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pipeline.errors import OfficialTableError
from pipeline.official.canon import RoundRule, rule_for_folder

# The official summarizer scores exactly the files matching this name; others are side logs.
RESULT_GLOB = "result_*.txt"
# Files the scorer reads besides the logs (v1.1 on: the review committee's score factor), not side logs.
SCORER_FILES = frozenset({"scaling.json"})
MANIFEST = "MANIFEST.csv"
MISSING = "missing_in_snapshot"


@dataclass
class BenchmarkFolder:
    rel: str  # benchmark folder relative to the round folder, '/'-separated
    submitter: str  # as the folder spells it
    system: str  # results folder; v0.5: "<entry path>/<results folder>" (v0.5 reuses names like "tpu")
    system_dir: str  # relative path of results/<system>
    system_file: str | None  # relative path of the description that should exist
    benchmark_dir: str  # folder name, e.g. "mask"
    logs: list[str] = field(default_factory=list)  # result_*.txt present, relative paths
    other_files: list[str] = field(default_factory=list)  # other files present (e.g. Alibaba *.log)
    missing_logs: list[str] = field(default_factory=list)  # result_*.txt the manifest lists as absent
    missing_other: list[str] = field(default_factory=list)  # other files the manifest lists as absent


@dataclass
class RoundTree:
    rule: RoundRule
    path: Path
    folders: list[BenchmarkFolder]
    manifest: Path | None


def _manifest_rows(root: Path, rule: RoundRule) -> tuple[Path | None, list[dict[str, str]]]:
    for candidate in (root / MANIFEST, root.parent / MANIFEST):
        if candidate.is_file():
            with candidate.open(newline="", encoding="utf-8") as fh:
                rows = [r for r in csv.DictReader(fh) if r.get("round") == rule.version]
            return candidate, rows
    return None, []


def _split(rule: RoundRule, rel_dir: PurePosixPath) -> tuple[str, str, str, str] | None:
    """(submitter, system key, system dir, description path) of a benchmark folder, or None if the
    folder is not at a results position of this round's layout."""
    parts = rel_dir.parts
    if rule.layout == "v0.5":
        # v0.5.0/<submitter>/<entry...>/results/<system>/<benchmark>
        if len(parts) < 5 or parts[-3] != "results":
            return None
        submitter, entry = parts[1], "/".join(parts[2:-3])
        system_dir = "/".join(parts[:-1])
        key = f"{entry}/{parts[-2]}" if entry else parts[-2]
        return submitter, key, system_dir, f"{system_dir}/entry.json"
    # <Submitter>/results/<system>/<benchmark>
    if len(parts) != 4 or parts[1] != "results":
        return None
    return parts[0], parts[2], "/".join(parts[:3]), f"{parts[0]}/systems/{parts[2]}.json"


def _benchmark_dirs(root: Path, rule: RoundRule) -> set[PurePosixPath]:
    if rule.layout == "v0.5":
        found = {p.parent for p in root.glob("v0.5.0/*/**/results/*/*/*") if p.is_file()}
    else:
        found = {p.parent for p in root.glob("*/results/*/*/*") if p.is_file()}
        found |= {p for p in root.glob("*/results/*/*") if p.is_dir()}
    return {PurePosixPath(p.relative_to(root).as_posix()) for p in found}


def scan_round(root: Path, rule: RoundRule) -> RoundTree:
    """The benchmark folders of one round's results tree with their logs and other files, including the files
    the snapshot's manifest lists as missing."""
    manifest, rows = _manifest_rows(root, rule)
    missing: dict[PurePosixPath, list[str]] = defaultdict(list)
    for row in rows:
        if row.get("status") == MISSING:
            missing[PurePosixPath(row["path"]).parent].append(row["path"])
    folders = []
    for rel_dir in sorted(_benchmark_dirs(root, rule) | set(missing)):
        where = _split(rule, rel_dir)
        if where is None:
            continue
        submitter, system, system_dir, system_file = where
        # The v0.6 Alibaba entry keeps a v0.5-style entry.json in its results folder.
        if rule.layout == "systems" and not (root / system_file).is_file():
            alt = f"{system_dir}/entry.json"
            if (root / alt).is_file():
                system_file = alt
        bf = BenchmarkFolder(
            rel=rel_dir.as_posix(),
            submitter=submitter,
            system=system,
            system_dir=system_dir,
            system_file=system_file,
            benchmark_dir=rel_dir.name,
        )
        d = root / rel_dir
        if d.is_dir():
            for f in sorted(p for p in d.iterdir() if p.is_file() and p.name not in SCORER_FILES):
                rel = f"{bf.rel}/{f.name}"
                (bf.logs if fnmatch.fnmatch(f.name, RESULT_GLOB) else bf.other_files).append(rel)
        for path in sorted(missing.get(rel_dir, [])):
            name = PurePosixPath(path).name
            (bf.missing_logs if fnmatch.fnmatch(name, RESULT_GLOB) else bf.missing_other).append(path)
        folders.append(bf)
    return RoundTree(rule, root, folders, manifest)


def find_rounds(roots: list[Path]) -> list[RoundTree]:
    """Every round folder under the given roots (a round folder itself, or a folder of them)."""
    trees: list[RoundTree] = []
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            raise OfficialTableError(f"{root}: not a folder")
        rule = rule_for_folder(root.name)
        if rule is not None:
            trees.append(scan_round(root, rule))
            continue
        found = False
        for child in sorted(p for p in root.iterdir() if p.is_dir()):
            rule = rule_for_folder(child.name)
            if rule is not None:
                trees.append(scan_round(child, rule))
                found = True
        if not found:
            raise OfficialTableError(
                f"{root}: no MLPerf Training results found; give a round folder named like its repository "
                f"(training_results_v0.7) or a folder that holds such folders"
            )
    seen: dict[str, Path] = {}
    for t in trees:
        if t.rule.round in seen:
            raise OfficialTableError(f"{t.rule.round} given twice: {seen[t.rule.round]} and {t.path}")
        seen[t.rule.round] = t.path
    return trees
