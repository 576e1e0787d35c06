"""System descriptions of MLPerf Training results, in all the shapes the public repositories use.

Three shapes occur and are read into one `SystemInfo`:
  * flat JSON (v0.6 Google, v0.7+): number_of_nodes x accelerators_per_node, accelerator_model_name ...
  * "nodes" JSON (v0.5 entry.json, v0.6 Fujitsu/Intel): nodes[].num_nodes x num_accelerators, where the
    TPU entries give the total TensorCore count, not a per-node chip count;
  * v0.6 NVIDIA: MLPerf-log-style `key: {"value": ...}` lines whose `entry` is a Python dict literal.
Published quirks are tolerated (trailing commas, `divison`, `number of nodes`, division `close`), and
whatever had to be guessed or could not be read becomes a warning on the record, never a silent value.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.official.canon import Canon, Pattern, canon

# TPU folder names count TensorCores: tpu-v3-8192, tpuv3-32, "TPU v3-1024", tpu-v5p-12288 (two cores per chip;
# v5e and Trillium names count chips, and their canon patterns say one core per chip, so no check applies).
_TPU_CORES = re.compile(r"tpu[ _-]?v\d[a-z]?[ ._-](\d+)", re.IGNORECASE)


class SystemFileError(ValueError):
    """A system description that cannot be read as any of the published shapes."""


@dataclass(frozen=True)
class SystemInfo:
    file: str | None  # the description's path relative to the round folder; None when there is none
    division: str | None
    category: str | None
    status_raw: str
    system_name: str
    accelerator: str | None
    accelerator_model: str
    accelerator_count: int | None  # chips/GPUs; processors (sockets) for CPU-only systems
    host_count: int | None
    framework: str | None  # canonical ids joined with ';'
    framework_raw: str
    warnings: tuple[str, ...] = ()  # things that make a figure of this system doubtful
    notes: tuple[str, ...] = ()  # published quirks that were read correctly anyway
    readable: bool = True  # False: no description, or none of the published shapes
    submitter_raw: str = ""  # the description's `submitter` as printed ("NVIDIA+CoreWeave")



# a warning that a (v0.5) description may give the whole cluster, not the run's size: answers.py reads it
FEWER_CHIPS = "may have used fewer than"

def _strip_trailing_commas(text: str) -> str:
    return re.sub(r",(\s*[}\]])", r"\1", text)


def _literal(text: str) -> Any:
    """A Python-dict literal as printed by the v0.6 NVIDIA loggers (str() of a dict)."""
    return ast.literal_eval(text)


def _log_style(text: str) -> dict[str, Any]:
    """v0.6 NVIDIA: `key: {"metadata": ..., "value": ...}` per line, the system in `entry`."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([A-Za-z_]+):\s*(\{.*\})\s*$", line)
        if not m:
            continue
        out[m.group(1)] = json.loads(m.group(2)).get("value")
    if "entry" not in out:
        raise SystemFileError("no `entry` line")
    entry = _literal(out["entry"]) if isinstance(out["entry"], str) else out["entry"]
    nodes = entry.get("nodes")
    if isinstance(nodes, str):
        nodes = _literal(nodes)
    entry["nodes"] = nodes if isinstance(nodes, list) else [nodes]
    entry.setdefault("division", out.get("division"))
    entry.setdefault("status", out.get("status"))
    entry.setdefault("submitter", out.get("org"))
    entry.setdefault("system_name", out.get("platform"))
    return dict(entry)


def load_description(path: Path) -> tuple[dict[str, Any], list[str]]:
    """Read one system description; returns the mapping and the quirks that had to be tolerated."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise SystemFileError(f"cannot read: {exc.strerror or exc}") from exc
    quirks: list[str] = []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as first:
        try:
            data = json.loads(_strip_trailing_commas(text))
            quirks.append("trailing commas")
        except json.JSONDecodeError:
            try:
                data = _log_style(text)
                quirks.append("MLPerf-log-style lines, not JSON")
            except (SystemFileError, ValueError, SyntaxError) as exc:
                raise SystemFileError(
                    f"not JSON ({first.msg} at line {first.lineno}) nor MLPerf-log-style lines ({exc})"
                ) from exc
    if not isinstance(data, dict):
        raise SystemFileError("top level is not an object")
    return data, quirks


def _int(value: Any) -> int | None:
    try:
        return int(float(str(value).strip()))
    except (TypeError, ValueError):
        return None


def _first(desc: dict[str, Any], *keys: str) -> Any:
    for k in keys:
        if k in desc and desc[k] not in (None, ""):
            return desc[k]
    return None


def _folder_cores(*names: str) -> int | None:
    for name in names:
        m = _TPU_CORES.search(name)
        if m:
            return int(m.group(1))
    return None


def _framework(c: Canon, framework_raw: str, folder: str) -> str | None:
    """The framework id(s), ';'-joined.  A description may list several (Dell: "NGC MXNet, NGC PyTorch");
    the folder name then usually says which one this entry used (also where one of them, HugeCTR, would
    otherwise stand for all: later NVIDIA descriptions list HugeCTR with NeMo, DGL and PyTorch)."""
    from_desc, from_folder = c.frameworks_of(framework_raw), c.frameworks_of(folder)
    every = c.frameworks_of(framework_raw, every=True)
    frameworks: tuple[str, ...]
    if len(every) > 1 and len(from_folder) == 1 and from_folder[0] in every:
        frameworks = from_folder
    else:
        frameworks = from_desc or from_folder
    return ";".join(frameworks) or None


def _accelerators(c: Canon, desc: dict[str, Any], folder: str, accel_model: str, system_name: str, cpu_model: str,
                  node0: dict[str, Any], host_count: int | None, per_node_total: bool, warnings: list[str]
                  ) -> tuple[Pattern | None, str | None, int | None]:
    """(the accelerator's canon pattern, its id, how many) of a description; what cannot be read is added
    to `warnings`."""
    accel_pattern = None
    if not c.is_no_accelerator(accel_model):
        accel_pattern = c.accelerator(f"{accel_model} {system_name} {folder}")
    accelerator: str | None
    count: int | None
    if accel_pattern is None and c.is_no_accelerator(accel_model):
        # CPU-only system: MLPerf counts its processors.
        accelerator = c.cpu(cpu_model) or c.cpu(str(desc.get("hardware", "")))
        if accelerator is None:
            warnings.append(f"CPU {cpu_model!r} not recognised")
        per = _int(_first(desc, "host_processors_per_node"))
        if per is None:
            m = re.search(r"(\d+)\s*x\s", f"{desc.get('hardware', '')} {cpu_model}")
            per = int(m.group(1)) if m else None
        count = host_count * per if host_count is not None and per is not None else None
    else:
        accelerator = accel_pattern.id if accel_pattern else None
        if accelerator is None:
            warnings.append(f"accelerator {accel_model!r} not recognised")
        if per_node_total and accel_pattern is not None and accel_pattern.cores_per_chip > 1:
            # v0.5 TPU entries: num_accelerators is the slice's total core count.
            cores = _int(node0.get("num_accelerators"))
            count = cores // accel_pattern.cores_per_chip if cores is not None else None
        else:
            per = _int(_first(desc, "accelerators_per_node")) if not per_node_total else None
            if per is None:
                per = _int(node0.get("num_accelerators"))
            count = host_count * per if host_count is not None and per is not None else None
        cores = _folder_cores(folder, system_name)
        if accel_pattern is not None and accel_pattern.cores_per_chip > 1 and cores is not None:
            if count != cores // accel_pattern.cores_per_chip:
                warnings.append(f"{count} chips in the description but the name counts {cores} cores")
    return accel_pattern, accelerator, count


def describe(
    desc: dict[str, Any],
    file: str | None,
    folder: str,
    quirks: list[str] | None = None,
    check_cluster: bool = False,
) -> SystemInfo:
    """Turn a description (any shape) into a SystemInfo; `folder` is the results folder (or v0.5 entry
    path) it describes, used to cross-check sizes.  `check_cluster` (v0.5): a multi-node description
    whose size the folder name does not confirm may describe the whole cluster rather than the run."""
    c = canon()
    warnings: list[str] = []
    notes = [f"system description read despite: {', '.join(quirks)}"] if quirks else []
    div_raw = _first(desc, "division", "divison")
    division = c.division(div_raw) if div_raw is not None else None
    if division is None:
        warnings.append(f"division {div_raw!r} not recognised")
    status_raw = str(_first(desc, "status") or "")
    category = c.category(status_raw)
    if category is None:
        warnings.append(f"status {status_raw!r} not recognised as a category")
    framework_raw = str(_first(desc, "framework") or "")
    framework = _framework(c, framework_raw, folder)

    nodes = desc.get("nodes") if isinstance(desc.get("nodes"), list) and desc.get("nodes") else None
    flat_nodes = _int(_first(desc, "number_of_nodes", "number of nodes"))
    node0: dict[str, Any] = nodes[0] if nodes else {}
    per_node_total = nodes is not None and flat_nodes is None  # the v0.5 "nodes" shape
    host_count = flat_nodes if flat_nodes is not None else _int(node0.get("num_nodes"))
    accel_model = str(_first(desc, "accelerator_model_name") or node0.get("accelerator") or "")
    system_name = str(_first(desc, "system_name", "hardware") or folder)
    cpu_model = str(_first(desc, "host_processor_model_name") or node0.get("cpu") or "")

    accel_pattern, accelerator, count = _accelerators(c, desc, folder, accel_model, system_name, cpu_model, node0,
                                                      host_count, per_node_total, warnings)
    if count is None:
        warnings.append("accelerator count not given")
    numbers = {int(n) for n in re.findall(r"\d+", folder)}
    if (
        check_cluster
        and host_count is not None
        and host_count > 1
        and not (accel_pattern and accel_pattern.cores_per_chip > 1)
        and host_count not in numbers
        and count not in numbers
    ):
        warnings.append(
            f"v0.5 description gives {host_count} nodes, which the folder name does not confirm; "
            f"the runs {FEWER_CHIPS} {count}"
        )
    return SystemInfo(
        file=file,
        division=division,
        category=category,
        status_raw=status_raw,
        system_name=system_name,
        accelerator=accelerator,
        accelerator_model=accel_model,
        accelerator_count=count,
        host_count=host_count,
        framework=framework,
        framework_raw=framework_raw,
        warnings=tuple(warnings),
        notes=tuple(notes),
        submitter_raw=str(_first(desc, "submitter") or ""),
    )


def _unreadable(rel: str | None, folder: str, warning: str) -> SystemInfo:
    return SystemInfo(
        file=rel,
        division=None,
        category=None,
        status_raw="",
        system_name=folder,
        accelerator=None,
        accelerator_model="",
        accelerator_count=None,
        host_count=None,
        framework=None,
        framework_raw="",
        warnings=(warning,),
        readable=False,
    )


def read_system(path: Path | None, rel: str | None, folder: str, check_cluster: bool = False) -> SystemInfo:
    """Read and describe one system; a missing or unreadable file gives an empty SystemInfo whose
    warning names the file, so the results still appear (without a score they cannot be trusted for)."""
    if path is None or not path.is_file():
        return _unreadable(rel, folder, f"no system description: {rel or folder}")
    try:
        desc, quirks = load_description(path)
    except SystemFileError as exc:
        return _unreadable(rel if path.is_file() else None, folder, f"unreadable system description {rel}: {exc}")
    return describe(desc, rel, folder, quirks, check_cluster)
