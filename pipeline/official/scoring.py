"""Scoring one benchmark folder: the mlperf-logging package where it scores the round correctly, the
round's own rule (implemented here) where it does not.

The rule (all rounds): a run's time is run_start -> run_stop; of the required runs the fastest and the
slowest are dropped (v1.0 UNet3D: 4 and 4 of 40) and the rest averaged.  A run that failed (did not
converge, or was rejected by the compliance checker) counts as one of the dropped slowest, so a folder
may have at most `drop` failures; with more, or with any required log missing, there is no score.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import yaml

from pipeline.official.canon import RoundRule
from pipeline.official.logs import RunLog

PACKAGE = "mlperf-logging"
ROUND_RULE = "round-rule (olympic mean)"


def package_scorer_name() -> str:
    """The package scorer's name with its installed version ("mlperf-logging <version>"), else the bare name."""
    try:
        return f"{PACKAGE} {version(PACKAGE)}"
    except PackageNotFoundError:
        return PACKAGE


@dataclass(frozen=True)
class Score:
    minutes: float | None
    scorer: str
    valid: tuple[str, ...] = ()  # files whose time counts (before dropping)
    counted: tuple[str, ...] = ()  # files averaged
    failed: dict[str, str] = field(default_factory=dict)  # file -> why it does not count
    problem: str = ""  # why there is no score
    note: str = ""  # something the reader of the score should know


def olympic(times: list[float], failed: int, drop: int) -> tuple[list[int], float | None]:
    """Indices (into `times`) of the averaged runs and their mean, as the package computes it: each
    failed run stands for one of the `drop` slowest.  None when more than `drop` runs failed."""
    if failed > drop:
        return [], None
    order = sorted(range(len(times)), key=lambda i: times[i])
    kept = order[drop : len(order) - (drop - failed)]
    if not kept:
        return [], None
    return kept, sum(times[i] for i in kept) / len(kept)


SCALING_FILE = "scaling.json"


def scaling_factor(folder: Path) -> float:
    """The review committee's score factor of a benchmark folder (its scaling.json, v1.1 on), else 1.0; read as
    the package's result_summarizer reads it (`{"scaling_factor": x}`)."""
    path = Path(folder) / SCALING_FILE
    if not path.is_file():
        return 1.0
    return float(json.loads(path.read_text(encoding="utf-8"))["scaling_factor"])


def scaling_note(factor: float | None) -> str:
    """The note a scaled score carries (empty for none or 1.0), worded as for the package's scores."""
    return f"scaling factor {factor} applied (scaling.json)" if factor not in (None, 1.0) else ""


def round_rule_score(runs: list[RunLog], rule: RoundRule, benchmark: str, factor: float = 1.0) -> Score:
    """Score logs with the round's rule (v0.5, v0.6; the fallback and the cross-check for later rounds); the
    olympic mean is multiplied by `factor` (the folder's scaling.json)."""
    drop = rule.drop_count(benchmark)
    failed = {r.file: (r.detail or r.status) for r in runs if not r.valid}
    valid = [r for r in runs if r.valid]
    first = rule.first_converged.get(benchmark)
    if first is not None:
        # v0.5 NCF: the first N converged runs by start time; failures outside them do not count.
        valid = sorted(valid, key=lambda r: r.start or 0.0)
        if len(valid) < first:
            return Score(
                None,
                ROUND_RULE,
                failed=failed,
                problem=f"{len(valid)} converged runs, the rule needs the first {first}",
            )
        note = (
            f"the first {first} converged runs by start time count; {len(failed)} of {len(runs)} "
            f"did not converge and do not count"
        )
        valid, failed = valid[:first], {}
    else:
        note = ""
    times = [r.seconds or 0.0 for r in valid]
    kept, mean = olympic(times, len(failed), drop)
    if mean is None:
        return Score(
            None,
            ROUND_RULE,
            tuple(r.file for r in valid),
            failed=failed,
            problem=f"{len(failed)} failed runs, the rule drops at most {drop}",
        )
    counted = tuple(valid[i].file for i in kept)
    note = "; ".join(filter(None, [note, scaling_note(factor)]))
    return Score(mean * factor / 60.0, ROUND_RULE, tuple(r.file for r in valid), counted, failed, note=note)


class _CachedYaml:
    """Stands in for the `yaml` module inside the package's compliance checker while we score.

    The checker re-reads and re-parses its rule files (pure-Python YAML, all strings) for every log,
    which is ~90% of the scoring time.  This gives it the same parse (libyaml's CBaseLoader builds the
    same all-string tree as BaseLoader), once per file, as a fresh copy each time since the checker may
    mutate it.  The checks themselves are untouched."""

    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(yaml, name)

    def load(self, stream: Any, Loader: Any = None) -> Any:  # noqa: N803 - yaml's own signature
        """yaml.load for the checker: a BaseLoader read of a named file is parsed once (with libyaml if present)
        and handed out as a fresh copy; any other load passes through."""
        name = getattr(stream, "name", None)
        if Loader is not yaml.BaseLoader or not isinstance(name, str):
            return yaml.load(stream, Loader=Loader)  # noqa: S506 - passes the caller's loader through
        if name not in self._cache:
            fast = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
            self._cache[name] = yaml.load(stream, Loader=fast)  # noqa: S506 - BaseLoader: strings only
        return copy.deepcopy(self._cache[name])


_YAML_SHIM = _CachedYaml()


@contextlib.contextmanager
def _checker_speedup() -> Iterator[None]:
    from mlperf_logging.compliance_checker import mlp_compliance

    saved = mlp_compliance.yaml
    mlp_compliance.yaml = _YAML_SHIM
    try:
        yield
    finally:
        mlp_compliance.yaml = saved


_MAX_REASONS = 3
# "'block_stop' or 'epoch_stop'": the checker prints the alternatives in set order.
_ALTERNATIVES = re.compile(r"'[^']+'(?: or '[^']+')+")


def _sorted_alternatives(m: re.Match[str]) -> str:
    return " or ".join(sorted(re.findall(r"'[^']+'", m.group(0))))


_FILE_MSG = re.compile(r"^(.*) in (\S.*\.txt)$")


def _attribute(output: str, files: list[str]) -> dict[str, str]:
    """The checker prints why a log failed, then '<error> in <file>'; the message lines before each
    file's verdict are its reason.  The checker's own order varies between runs (it iterates sets), so
    the lines are sorted, and its dumps of JSON context are left out."""
    reasons: dict[str, str] = {}
    pending: list[str] = []
    for line in output.splitlines():
        line = _ALTERNATIVES.sub(_sorted_alternatives, line.replace("WARNING:root:", "").strip())
        m = _FILE_MSG.match(line)
        if m and m.group(2) in files:
            detail = sorted(set(pending))
            if len(detail) > _MAX_REASONS:
                detail = [*detail[:_MAX_REASONS], f"+{len(detail) - _MAX_REASONS} more"]
            reasons[m.group(2)] = "; ".join([m.group(1), *detail])
            pending = []
        elif (
            sum(ch.isalnum() for ch in line) >= 8
            and line[0] not in '"{}[]-:'
            and not line.startswith(("NOTICE", "CRITICAL", "** CRITICAL", "current context"))
        ):
            pending.append(line)
    return reasons


def package_score(
    folder: Path, log_files: list[Path], rule: RoundRule, benchmark: str
) -> tuple[Score, dict[str, float]]:
    """Score with the package's result_summarizer (`_compute_strong_score_standalone`, the function its
    CLI uses per benchmark folder).  Returns the score (files as given, absolute) and per-file minutes."""
    from mlperf_logging.result_summarizer import result_summarizer as rs

    buf = io.StringIO()
    root_logger = logging.getLogger()
    saved = root_logger.handlers[:]
    capture = logging.StreamHandler(buf)
    capture.setFormatter(logging.Formatter("%(message)s"))
    root_logger.handlers = [capture]  # the checker logs through root; keep it out of our stderr
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf), _checker_speedup():
            per_file, _power, minutes, _pscore, scaling = rs._compute_strong_score_standalone(
                benchmark, folder.name, False, str(folder), "training", rule.ruleset, return_full_scores=True
            )
    finally:
        root_logger.handlers = saved
    names = [str(p) for p in log_files]
    reasons = _attribute(buf.getvalue(), names)
    failed = {f: reasons.get(f, "rejected by the compliance checker") for f in names if f not in per_file}
    valid = [f for f in names if f in per_file]
    times = [per_file[f] for f in valid]
    kept, _mean = olympic(times, len(failed), rule.drop_count(benchmark))
    problem = f"{len(failed)} of {len(names)} runs rejected by the compliance checker" if minutes is None else ""
    note = scaling_note(scaling)
    score = Score(minutes, package_scorer_name(), tuple(valid), tuple(valid[i] for i in kept), failed, problem, note)
    return score, {f: float(v) for f, v in per_file.items()}
