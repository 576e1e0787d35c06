"""A lenient reader for MLPerf Training result logs of every round, one run per file.

It is the scorer for rounds the mlperf-logging package cannot score (v0.5, v0.6) and an independent
re-computation for the rounds it can.  Four line dialects occur:
  * v0.5   `:::MLPv0.5.0 <bench> <seconds> (<source>) <key>[: <json>]`
  * v0.6   `:::MLL <seconds> <key>: {"value": ..., "metadata": {...}}` (Intel MiniGo prints Python dicts)
  * v0.7+  `:::MLLOG {"time_ms": ..., "key": ..., "value": ..., "metadata": {...}}`
  * v0.6 Alibaba `MLPerf: <bench> [mm/dd/yy HH:MM:SS], <key>[: <value>]` (one-second stamps)
Anything may precede the marker on a line (`0:`, `[1,0]<stdout>:`, `INFO:mlperf_compliance:`).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_V05 = re.compile(r":::MLPv0\.5\.0 (\S+) ([\d.]+) \(([^)]*)\) (\w+)(?::\s*(.*))?$")
_V06 = re.compile(r":::MLL ([\d.]+) (\w+):\s*(.*)$")
_MLLOG = ":::MLLOG "
_ALT = re.compile(r"MLPerf: (\S+) \[(\d\d/\d\d/\d\d \d\d:\d\d:\d\d)\], ([A-Za-z_][\w ]*?)(?::\s*(.*))?$")
_PERCENT = re.compile(r"(-?\d+(?:\.\d+)?)%")

SUCCESS = "success"
ABORTED = "aborted"


@dataclass(frozen=True)
class LogLine:
    time: float  # seconds since the epoch, whatever the dialect's unit
    key: str
    value: Any
    meta: dict[str, Any]


@dataclass(frozen=True)
class RunLog:
    """One training run as the round's rule sees it."""

    file: str  # path relative to the round folder
    start: float | None  # run_start, seconds since the epoch
    stop: float | None  # run_stop (or, for v0.6 MiniGo, run_start + eval_result's timestamp)
    status: str  # success, aborted, unknown, no_run_start, no_run_stop, no_mlperf_lines
    converged: bool | None  # None: the log does not say
    accuracy: float | None = None
    target: float | None = None
    detail: str = ""

    @property
    def seconds(self) -> float | None:
        """The run's time, run_start to run_stop (None: the log lacks either)."""
        if self.start is None or self.stop is None:
            return None
        return self.stop - self.start

    @property
    def valid(self) -> bool:
        """Counts as a time under the round rule: timed and not known to have failed."""
        return self.seconds is not None and self.converged is not False


def _loads(text: str) -> Any:
    """JSON, else a Python literal (v0.6 Intel MiniGo prints dicts with single quotes and `null`)."""
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(
            re.sub(r"\bnull\b", "None", re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text)))
        )
    except (ValueError, SyntaxError):
        pass
    try:  # Alibaba's old format writes accuracies as `14.48800%`
        return json.loads(_PERCENT.sub(lambda m: repr(float(m.group(1)) / 100), text))
    except json.JSONDecodeError:
        return text


def parse_line(line: str) -> LogLine | None:
    """One log line in any of the four dialects (see the module docstring); None for any other line, or one
    whose payload cannot be read."""
    i = line.find(_MLLOG)
    if i >= 0:
        try:
            d = json.loads(line[i + len(_MLLOG) :])
            return LogLine(float(d["time_ms"]) / 1000.0, str(d["key"]), d.get("value"), d.get("metadata") or {})
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            return None
    i = line.find(":::MLL ")
    if i >= 0:
        m = _V06.match(line[i:].rstrip())
        if not m:
            return None
        payload = _loads(m.group(3))
        if isinstance(payload, dict) and ("value" in payload or "metadata" in payload):
            meta = payload.get("metadata") or {}
            return LogLine(float(m.group(1)), m.group(2), payload.get("value"), meta if isinstance(meta, dict) else {})
        return LogLine(float(m.group(1)), m.group(2), payload, {})
    i = line.find(":::MLPv0.5.0 ")
    if i >= 0:
        m = _V05.match(line[i:].rstrip())
        if not m:
            return None
        value = _loads(m.group(5) or "")
        return LogLine(float(m.group(2)), m.group(4), value, value if isinstance(value, dict) else {})
    i = line.find("MLPerf: ")
    if i >= 0:
        m = _ALT.match(line[i:].rstrip())
        if not m:
            return None
        stamp = datetime.strptime(m.group(2), "%m/%d/%y %H:%M:%S").replace(tzinfo=UTC)
        value = _loads(m.group(4) or "")
        return LogLine(stamp.timestamp(), m.group(3).strip(), value, value if isinstance(value, dict) else {})
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, dict):
        value = value.get("value")
    if isinstance(value, dict):  # Mask R-CNN: {"BBOX": .., "SEGM": ..}
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _status(line: LogLine) -> str:
    """run_stop's verdict: `status` (v0.6+) or `success` (v0.5), else unknown."""
    for holder in (line.meta, line.value if isinstance(line.value, dict) else {}):
        if "status" in holder:
            return SUCCESS if str(holder["status"]).lower() == SUCCESS else ABORTED
        if "success" in holder:
            return SUCCESS if str(holder["success"]).lower() == "true" else ABORTED
    return "unknown"


def read_run(path: Path, rel: str, minigo_eval_result: bool = False) -> RunLog:
    """Read one result log.  Start and stop are taken as the package's result_summarizer does: the
    last run_start seen before the first run_stop.  With `minigo_eval_result`, the run ends at
    eval_result's metadata.timestamp (seconds after run_start), the v0.6 MiniGo rule."""
    start = stop = None
    status = "unknown"
    accuracy = target = None
    eval_result: float | None = None
    seen = 0
    try:
        text = path.read_text(encoding="latin-1")
    except OSError as exc:
        return RunLog(rel, None, None, "unreadable", None, detail=str(exc.strerror or exc))
    for raw in text.splitlines():
        line = parse_line(raw)
        if line is None:
            continue
        seen += 1
        if line.key == "run_start" and stop is None:
            start = line.time
        elif line.key == "run_stop" and stop is None and start is not None:
            stop, status = line.time, _status(line)
        elif line.key == "eval_accuracy":
            accuracy = _number(line.value) if _number(line.value) is not None else accuracy
        elif line.key == "eval_target":
            target = _number(line.value)
        elif line.key == "eval_result" and eval_result is None:
            ts = line.meta.get("timestamp") if line.meta else None
            eval_result = float(ts) if ts is not None else None
    if seen == 0:
        return RunLog(rel, None, None, "no_mlperf_lines", None, detail="no MLPerf log lines")
    if accuracy is not None and target is not None and accuracy > 1.0 >= target:
        accuracy /= 100.0  # percent printed against a fractional target
    if minigo_eval_result:
        if start is None:
            return RunLog(rel, None, None, "no_run_start", None, accuracy, target, "no run_start")
        if eval_result is None:
            return RunLog(rel, start, None, ABORTED, False, accuracy, target, "no eval_result: no model passed")
        return RunLog(rel, start, start + eval_result, SUCCESS, True, accuracy, target)
    if start is None:
        return RunLog(rel, None, stop, "no_run_start", None, accuracy, target, "no run_start")
    if stop is None:
        return RunLog(rel, start, None, "no_run_stop", None, accuracy, target, "no run_stop")
    if status == SUCCESS:
        converged: bool | None = True
    elif status == ABORTED:
        converged = False
    elif accuracy is not None and target is not None:
        converged = accuracy >= target  # v0.5 logs that end with a bare run_stop
    else:
        converged = None
    detail = "" if converged is not None else "run_stop gives no status and no target to compare"
    return RunLog(rel, start, stop, status, converged, accuracy, target, detail)
