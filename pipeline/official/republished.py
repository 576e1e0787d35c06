"""Republished results: benchmark folders whose runs are the runs of another folder, not new measurements.

From v3.0 on, submitters sometimes publish a result again in a later round (NVIDIA's v4.0 11,616-GPU GPT-3
run appears again in v4.1), at times under a new system or benchmark folder name (v4.1 `ssd` -> v5.0
`retinanet`); within v4.0 and v4.1 a few folders list the same runs twice.  A folder is a republication
when every timed run in it has exactly the run_start/run_stop stamps of a run in one other folder.  The
table keeps such rows (they are published results) and says so in the note: on the later row which folder
measured the runs, on the first row where they were published again.

The stamps are read from every round folder beside the ones built (a quick scan of the run_start/run_stop
lines only), so a build of one round gives the same notes as a build of all of them.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from pipeline.official.canon import RoundRule, rule_for_folder
from pipeline.official.logs import parse_line
from pipeline.official.tree import BenchmarkFolder, RoundTree, scan_round

Stamp = tuple[int, int]  # run_start, run_stop in milliseconds since the epoch


def record_id(rule: RoundRule, bf: BenchmarkFolder) -> str:
    """The table's record id of a benchmark folder: `<round>/<submitter folder>/<system folder>/<benchmark>`."""
    return f"{rule.round}/{bf.submitter}/{bf.system}/{rule.benchmark_id(bf.benchmark_dir)}"


def run_stamps(path: Path) -> Stamp | None:
    """(run_start, run_stop) of one result log as the log reader takes them (the last run_start before the
    first run_stop), reading only those lines; None when either is missing."""
    start = stop = None
    try:
        text = path.read_text(encoding="latin-1")
    except OSError:
        return None
    for raw in text.splitlines():
        if "run_st" not in raw:
            continue
        line = parse_line(raw)
        if line is None:
            continue
        if line.key == "run_start" and stop is None:
            start = line.time
        elif line.key == "run_stop" and stop is None and start is not None:
            stop = line.time
    if start is None or stop is None:
        return None
    return round(start * 1000), round(stop * 1000)


def related_trees(trees: list[RoundTree]) -> list[RoundTree]:
    """The given round trees and every other round folder beside them (named exactly like its repository)."""
    out = list(trees)
    seen = {t.rule.round for t in trees}
    for parent in sorted({t.path.parent for t in trees}):
        for child in sorted(p for p in parent.iterdir() if p.is_dir()):
            rule = rule_for_folder(child.name)
            if rule is not None and rule.folder == child.name and rule.round not in seen:
                seen.add(rule.round)
                out.append(scan_round(child, rule))
    return out


def folder_stamps(trees: list[RoundTree]) -> dict[str, frozenset[Stamp]]:
    """record id -> the stamps of its timed runs, for every benchmark folder of the trees that has one."""
    out: dict[str, frozenset[Stamp]] = {}
    for tree in trees:
        for bf in tree.folders:
            stamps = {s for s in (run_stamps(tree.path / f) for f in bf.logs) if s is not None}
            if stamps:
                out[record_id(tree.rule, bf)] = frozenset(stamps)
    return out


def _version(record: str) -> tuple[int, ...]:
    """training-v4.1/... -> (4, 1), the order of rounds."""
    return tuple(int(x) for x in record.split("/", 1)[0].rsplit("-v", 1)[1].split("."))


def republished(stamps: dict[str, frozenset[Stamp]]) -> dict[str, list[str]]:
    """record id -> notes: for a folder whose runs all belong to a folder of an earlier round, that folder
    (the earliest, where the runs were measured); for that folder, where they were published again; for a
    folder whose runs all belong to another folder of its own round, that folder."""
    index: dict[Stamp, set[str]] = defaultdict(set)
    for rid, keys in stamps.items():
        for key in keys:
            index[key].add(rid)
    notes: dict[str, list[str]] = defaultdict(list)
    again: dict[str, list[str]] = defaultdict(list)
    for rid in sorted(stamps):
        holders = set.intersection(*(index[k] for k in stamps[rid])) - {rid}
        earlier = sorted((r for r in holders if _version(r) < _version(rid)), key=lambda r: (_version(r), r))
        same = sorted(r for r in holders if _version(r) == _version(rid))
        if earlier:
            notes[rid].append(f"republished: the runs (run_start/run_stop) of {earlier[0]}, not a new measurement")
            again[earlier[0]].append(rid)
        if same:
            notes[rid].append(f"the same runs as {', '.join(same)} (listed twice in this round)")
    for rid, later in again.items():
        notes[rid].append(f"runs published again in {', '.join(sorted(later, key=lambda r: (_version(r), r)))}")
    return dict(notes)
