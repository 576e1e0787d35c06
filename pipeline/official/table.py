"""The official table: one row per system x benchmark, scored from the result logs.

`build_official_table(roots)` is the whole build; `official_build_command(dirs, out)` is what the
`newsclaims official build` command does (build, write atomically, say what was written).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

from pipeline.official.canon import RoundRule, canon, round_rules
from pipeline.official.logs import RunLog, read_run
from pipeline.official.republished import folder_stamps, related_trees, republished
from pipeline.official.republished import record_id as folder_record_id
from pipeline.official.scoring import (
    ROUND_RULE,
    Score,
    package_score,
    package_scorer_name,
    round_rule_score,
    scaling_factor,
)
from pipeline.official.systems import SystemInfo, read_system
from pipeline.official.tree import BenchmarkFolder, RoundTree, find_rounds
from pipeline.official.validate import COLUMNS, INT_COLUMNS

RUN_COLUMNS = [
    "record_id",
    "file",
    "start",
    "stop",
    "seconds",
    "status",
    "converged",
    "valid",
    "counted",
    "minutes_scorer",
    "note",
]
SCORED, NO_SCORE = "scored", "no_score"


@dataclass(frozen=True)
class OfficialBuild:
    table: pd.DataFrame
    runs: pd.DataFrame
    rounds: tuple[str, ...]
    seconds: float
    workers: int = 1  # processes that scored the folders
    cpus: int = 1  # CPUs of the machine that built it


def _names(files: Iterable[str]) -> str:
    return ", ".join(PurePosixPath(f).name for f in files)


def _score(
    root: Path, rule: RoundRule, bf: BenchmarkFolder, system: SystemInfo, benchmark: str, runs: list[RunLog]
) -> tuple[Score, dict[str, float]]:
    """The official score of one folder, or a Score without minutes that says why there is none."""
    scorer = package_scorer_name() if rule.scorer == "mlperf-logging" else ROUND_RULE
    required = rule.runs.get(benchmark)
    total = len(bf.logs) + len(bf.missing_logs)
    if bf.missing_logs:
        return Score(
            None,
            scorer,
            problem=f"{len(bf.missing_logs)} of {total} result logs are missing from "
            f"the snapshot: {_names(bf.missing_logs)}",
        ), {}
    if not bf.logs:
        why = "no result logs"
        if bf.other_files:
            why += f"; logs not named result_*.txt, which the official summarizer skips: {_names(bf.other_files)}"
        return Score(None, scorer, problem=why), {}
    if not system.readable:
        # Without the description the figure cannot be attributed (chips, division, category).
        return Score(None, scorer, problem=f"no readable system description ({bf.system_file})"), {}
    if required is None:
        return Score(None, scorer, problem=f"benchmark {benchmark!r} is not one of {rule.round}'s"), {}
    if total < required:
        return Score(None, scorer, problem=f"only {total} of the {required} result logs the rules require"), {}
    factor = scaling_factor(root / bf.rel)
    if rule.scorer == "mlperf-logging":
        absolute = [root / f for f in bf.logs]
        score, per_file = package_score(root / bf.rel, absolute, rule, benchmark)
        back = {str(root / f): f for f in bf.logs}  # the package speaks absolute paths; we store relative
        score = Score(
            score.minutes,
            score.scorer,
            tuple(back[f] for f in score.valid),
            tuple(back[f] for f in score.counted),
            {back[f]: r for f, r in score.failed.items()},
            score.problem,
            score.note,
        )
        if score.minutes is None and score.failed and rule.fallback == "round-rule":
            score = _fallback(score, runs, rule, benchmark, factor)
        return score, {back[f]: m for f, m in per_file.items() if f in back}
    return round_rule_score(runs, rule, benchmark, factor), {}


def _fallback(checked: Score, runs: list[RunLog], rule: RoundRule, benchmark: str, factor: float) -> Score:
    """The round rule's score where the package's checker rejects more runs than the rule drops (runs that were
    accepted at publication): the note says which runs the checker rejects and why.  No score if the rule
    finds too many failures itself."""
    ruled = round_rule_score(runs, rule, benchmark, factor)
    if ruled.minutes is None:
        return checked
    by_reason: dict[str, list[str]] = {}
    for f, reason in sorted(checked.failed.items()):
        by_reason.setdefault(reason, []).append(PurePosixPath(f).name)
    reasons = "; ".join(f"{', '.join(files)}: {reason}" for reason, files in by_reason.items())
    note = (
        f"{checked.scorer} gives no score: its compliance checker rejects {len(checked.failed)} of {len(runs)} runs, "
        f"more than the rule drops ({reasons}); scored with the round's rule instead"
    )
    return Score(ruled.minutes, ruled.scorer, ruled.valid, ruled.counted, ruled.failed,
                 note="; ".join(filter(None, [note, ruled.note])))


def score_folder(
    root: Path, rule: RoundRule, bf: BenchmarkFolder, system: SystemInfo
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One table row and its per-run rows.  Top-level so that a process pool can run it."""
    benchmark = rule.benchmark_id(bf.benchmark_dir)
    minigo_rule = rule.minigo_time == "eval_result" and benchmark == "minigo"
    runs = [read_run(root / f, f, minigo_rule) for f in bf.logs]
    score, per_file = _score(root, rule, bf, system, benchmark, runs)
    recomputed = round_rule_score(runs, rule, benchmark, scaling_factor(root / bf.rel)) if runs else None
    rec_minutes = recomputed.minutes if recomputed and score.minutes is not None else None
    warnings, notes = _remarks(bf, system, score, runs, rec_minutes)
    if system.submitter_raw and canon().joint.search(system.submitter_raw) and (
        system.submitter_raw.strip().lower() not in canon().orgs
    ):
        notes.insert(0, f"joint submission {system.submitter_raw!r}: org is the first company named")
    record_id = folder_record_id(rule, bf)
    row = {
        "record_id": record_id,
        "round": rule.round,
        "division": system.division,
        "category": system.category,
        "submitter": bf.submitter,
        "org": canon().org_of_submitter(system.submitter_raw, bf.submitter),
        "system": bf.system,
        "system_name": system.system_name,
        "accelerator": system.accelerator,
        "accelerator_model": system.accelerator_model,
        "accelerator_count": system.accelerator_count,
        "host_count": system.host_count,
        "framework": canon().framework_for(system.framework, system.framework_raw, benchmark),
        "framework_raw": system.framework_raw,
        "benchmark": benchmark,
        "minutes": score.minutes,
        "seconds": score.minutes * 60.0 if score.minutes is not None else None,
        "runs_used": len(score.counted),
        "runs_valid": len(score.valid),
        "runs_failed": len(score.failed),
        "runs_missing": len(bf.missing_logs),
        "runs_total": len(bf.logs) + len(bf.missing_logs),
        "runs_required": rule.runs.get(benchmark),
        "scorer": score.scorer,
        "status": SCORED if score.minutes is not None else NO_SCORE,
        "warning": " | ".join(warnings),
        "note": " | ".join(notes),
        "minutes_recomputed": rec_minutes,
        "system_file": system.file,
        "source": bf.rel,
    }
    return row, _run_rows(record_id, bf, score, runs, per_file)


def _remarks(bf: BenchmarkFolder, system: SystemInfo, score: Score, runs: list[RunLog], rec_minutes: float | None
             ) -> tuple[list[str], list[str]]:
    """The row's warnings (why it has no score, runs dropped as failed) and notes (files not scored,
    convergence not recorded, the round rule's recomputation where it differs)."""
    warnings = list(system.warnings)
    notes = list(system.notes)
    if score.minutes is None:
        warnings.insert(0, f"no score: {score.problem}")
    if score.failed:
        reasons = "; ".join(f"{PurePosixPath(f).name} ({r})" for f, r in sorted(score.failed.items()))
        label = "dropped as failed runs" if score.minutes is not None else "failed runs"
        warnings.append(f"{label}: {reasons}")
    if bf.other_files and bf.logs:
        notes.append(f"other files, not scored: {_names(bf.other_files)}")
    if bf.missing_other:
        notes.append(f"side logs absent from the snapshot, not used by the scorer: {_names(bf.missing_other)}")
    unknown = [r.file for r in runs if r.converged is None and r.seconds is not None]
    if unknown:
        notes.append(f"convergence not recorded, counted as converged: {_names(unknown)}")
    if score.note:
        notes.append(score.note)
    # The recomputation is a cross-check of an official score, never a stand-in for a missing one.
    minutes = score.minutes
    if minutes is not None and rec_minutes is not None and abs(rec_minutes - minutes) > 1e-6 * minutes:
        notes.append(f"round-rule recomputation gives {rec_minutes:.4f} min")
    return warnings, notes


def _run_rows(record_id: str, bf: BenchmarkFolder, score: Score, runs: list[RunLog], per_file: dict[str, float]
              ) -> list[dict[str, Any]]:
    """One row per result log of the record (and one per log missing from the snapshot)."""
    counted, valid = set(score.counted), set(score.valid)
    run_rows = [
        {
            "record_id": record_id,
            "file": r.file,
            "start": r.start,
            "stop": r.stop,
            "seconds": r.seconds,
            "status": r.status,
            "converged": r.converged,
            "valid": r.file in valid,
            "counted": r.file in counted,
            "minutes_scorer": per_file.get(r.file),
            "note": score.failed.get(r.file, r.detail),
        }
        for r in runs
    ]
    run_rows += [
        {"record_id": record_id, "file": f, "status": "missing_in_snapshot", "valid": False, "counted": False}
        for f in bf.missing_logs
    ]
    return run_rows


def _jobs(
    trees: list[RoundTree], select: Callable[[BenchmarkFolder], bool] | None
) -> list[tuple[Path, RoundRule, BenchmarkFolder, SystemInfo]]:
    jobs = []
    for tree in trees:
        systems: dict[str, SystemInfo] = {}
        for bf in tree.folders:
            if select is not None and not select(bf):
                continue
            if bf.system_dir not in systems:
                path = tree.path / bf.system_file if bf.system_file else None
                systems[bf.system_dir] = read_system(
                    path, bf.system_file, bf.system, check_cluster=tree.rule.layout == "v0.5"
                )
            jobs.append((tree.path, tree.rule, bf, systems[bf.system_dir]))
    return jobs


def _run(
    job: tuple[Path, RoundRule, BenchmarkFolder, SystemInfo],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return score_folder(*job)


def build_official(
    roots: list[Path], workers: int | None = None, select: Callable[[BenchmarkFolder], bool] | None = None
) -> OfficialBuild:
    """Build the table and the per-run details.  `workers` > 1 scores folders in a process pool (the
    compliance checker is the slow part); None picks 4 to 8 by CPU count.  `select` keeps only the
    benchmark folders it accepts (a quick partial rebuild, e.g. one submitter)."""
    t0 = time.perf_counter()
    trees = find_rounds([Path(r) for r in roots])
    jobs = _jobs(trees, select)
    if workers is None:
        # Measured on 2 CPUs: 4 workers beat 2 (the checker waits on file reads), so never fewer than 4.
        workers = min(8, max(4, os.cpu_count() or 1))
    if workers > 1 and len(jobs) > 20:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_run, jobs, chunksize=4))
    else:
        workers, results = 1, [_run(j) for j in jobs]
    rows = [r for r, _ in results]
    _note_republished(rows, republished(folder_stamps(related_trees(trees))))
    run_rows = [rr for _, runs in results for rr in runs]
    table = finish_table(pd.DataFrame(rows, columns=COLUMNS))
    dupes = table["record_id"][table["record_id"].duplicated()]
    if len(dupes):
        from pipeline.errors import OfficialTableError

        raise OfficialTableError(f"record ids not unique: {sorted(set(dupes))[:5]}")
    runs = pd.DataFrame(run_rows, columns=RUN_COLUMNS).sort_values(["record_id", "file"], kind="stable")
    return OfficialBuild(
        table, runs.reset_index(drop=True), tuple(t.rule.round for t in trees), time.perf_counter() - t0,
        workers, os.cpu_count() or 1,
    )


def _note_republished(rows: list[dict[str, Any]], notes: dict[str, list[str]]) -> None:
    """Add to each row's note what `republished` says of its runs (in place), in rounds that mark them."""
    rules = round_rules()
    for row in rows:
        extra = notes.get(row["record_id"])
        if extra and rules[row["round"]].mark_republished:
            row["note"] = " | ".join(filter(None, [row["note"], *extra]))


def finish_table(df: pd.DataFrame) -> pd.DataFrame:
    """Column order, integer columns and a stable row order (round, submitter, system, benchmark)."""
    df = df.reindex(columns=COLUMNS)
    for col in INT_COLUMNS:
        df[col] = pd.to_numeric(df[col], errors="coerce").astype("Int64")
    for col in ("minutes", "seconds", "minutes_recomputed"):
        df[col] = pd.to_numeric(df[col], errors="coerce").astype("float64")
    return df.sort_values(["round", "submitter", "system", "benchmark"], kind="stable").reset_index(drop=True)


def build_official_table(roots: list[Path]) -> pd.DataFrame:
    """The official table for the MLPerf Training results trees under `roots`."""
    return build_official(roots).table


def write_table(df: pd.DataFrame, path: Path) -> None:
    """Write a CSV atomically: a temporary file in the same folder, then a rename, so a reader never
    sees half a table and a failed build leaves the old one in place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file 0600; keep the old file's mode, or give a new one the usual 0644.
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            df.to_csv(fh, index=False, lineterminator="\n")
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def official_build_command(dirs: list[Path], out: Path) -> str:
    """`newsclaims official build DIR... --out OUT`: OUT ending in .csv gets one table of every round;
    otherwise OUT is a folder that gets one <round>.csv per round, runs/<round>.csv with the per-run
    details, and a README.md saying where the tables came from."""
    from pipeline.official.provenance import write_readme

    build = build_official([Path(d) for d in dirs])
    out = Path(out)
    table = build.table
    written: list[Path] = []
    if out.suffix.lower() == ".csv":
        write_table(table, out)
        written.append(out)
    else:
        runs_written = []
        for rnd in build.rounds:
            write_table(table[table["round"] == rnd], out / f"{rnd}.csv")
            write_table(build.runs[build.runs["record_id"].str.startswith(f"{rnd}/")], out / "runs" / f"{rnd}.csv")
            written.append(out / f"{rnd}.csv")
            runs_written.append(out / "runs" / f"{rnd}.csv")
        written.append(write_readme(out, [Path(d) for d in dirs], build, written=written + runs_written))
    scored = int((table["status"] == SCORED).sum())
    lines = [
        f"Built {len(table)} official records ({scored} scored, {len(table) - scored} without a score) "
        f"for {', '.join(build.rounds)} in {build.seconds:.1f} s."
    ]
    for rnd in build.rounds:
        part = table[table["round"] == rnd]
        scorers = ", ".join(f"{name} ({n})" for name, n in part["scorer"].value_counts().items()) or "-"
        lines.append(f"  {rnd}: {len(part)} records, {int((part['status'] == SCORED).sum())} scored; scorer {scorers}")
    lines += [f"Wrote {p}" for p in written]
    return "\n".join(lines)
