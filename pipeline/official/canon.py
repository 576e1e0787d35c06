"""Canonical ids (org, accelerator, framework, category, ...) and round rules, read from this folder's YAML.

The algorithm never spells a vendor or a framework: everything it recognises is a pattern in
canon.yaml, and everything it knows about a round is in rounds.yaml.  Both files are validated
once, on first use, and any unknown key or broken pattern names the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.errors import DataFileError
from pipeline.lang.yamlio import read_yaml

HERE = Path(__file__).parent
CANON_FILE = HERE / "canon.yaml"
ROUNDS_FILE = HERE / "rounds.yaml"

_CANON_KEYS = {
    "orgs",
    "divisions",
    "categories",
    "benchmarks",
    "accelerators",
    "no_accelerator",
    "cpus",
    "frameworks",
    "submitters",
}
_ROUND_KEYS = {
    "folder",
    "layout",
    "time_unit",
    "scorer",
    "ruleset",
    "runs",
    "drop",
    "first_converged",
    "minigo_time",
    "repository",
    "commit",
    "benchmark_ids",
    "fallback",
    "mark_republished",
}


@dataclass(frozen=True)
class Pattern:
    id: str
    regex: re.Pattern[str]
    cores_per_chip: int = 1
    exclusive: bool = False
    # a framework that implements only these benchmarks (HugeCTR: the recommenders): () for any
    benchmarks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Canon:
    orgs: dict[str, str]
    divisions: dict[str, str]
    categories: dict[str, str]
    benchmarks: dict[str, str]
    accelerators: tuple[Pattern, ...]
    no_accelerator: frozenset[str]
    cpus: tuple[Pattern, ...]
    frameworks: tuple[Pattern, ...]
    joint: re.Pattern[str] = re.compile(r"\+")  # between the companies of a joint submitter
    joint_suffix: re.Pattern[str] = re.compile(r"[-_]")  # "RedHat-Supermicro": a weaker separator

    def org(self, submitter: str) -> str:
        """Org id for a submitter; an unknown submitter keeps its own name, lowercased, so that a new
        round still builds (the id is then as good as MLPerf's own spelling)."""
        key = submitter.strip().lower()
        return self.orgs.get(key, re.sub(r"[^a-z0-9]+", "", key))

    def org_of_submitter(self, printed: str, folder: str) -> str:
        """The org id of a system description's `submitter` as printed: a known name as a whole; else, for a
        joint submission ("NVIDIA+CoreWeave", "CoreWeave + IBM + NVIDIA", "Supermicro_MangoBoost"), the first
        company named, if known; else the submitter folder's org."""
        text = printed.strip()
        if not text:
            return self.org(folder)
        if text.lower() in self.orgs:
            return self.orgs[text.lower()]
        for separator in (self.joint, self.joint_suffix):
            first = separator.split(text, maxsplit=1)[0].strip().lower()
            if first != text.lower() and first in self.orgs:
                return self.orgs[first]
        return self.org(folder)

    def division(self, raw: str) -> str | None:
        """The division id of a table's division name (None: a spelling canon.yaml does not list)."""
        return self.divisions.get(str(raw).strip().lower())

    def category(self, raw: str) -> str | None:
        """The category id of a table's category name (None: a spelling canon.yaml does not list)."""
        return self.categories.get(str(raw).strip().lower())

    def benchmark(self, folder: str) -> str:
        """The benchmark id of a results folder's name; an unknown folder keeps its own name, lowercased."""
        key = folder.strip().lower()
        return self.benchmarks.get(key, key)

    def accelerator(self, text: str) -> Pattern | None:
        """The first accelerator pattern that matches a system's text (None: no known accelerator)."""
        for p in self.accelerators:
            if p.regex.search(text):
                return p
        return None

    def is_no_accelerator(self, raw: object) -> bool:
        """Whether an accelerator field is one of canon.yaml's spellings of none ("n/a", "0", empty)."""
        return str(raw if raw is not None else "").strip().lower() in self.no_accelerator

    def cpu(self, text: str) -> str | None:
        """The CPU id of the first pattern that matches a system's text, filled in from its named groups
        (None: no known CPU)."""
        for p in self.cpus:
            m = p.regex.search(text)
            if m:
                return p.id.format(**{k: v.lower() for k, v in m.groupdict().items() if v})
        return None

    def framework_for(self, framework: str | None, framework_raw: str, benchmark: str) -> str | None:
        """A record's framework(s): a system's, less one that implements no such benchmark (a description
        listing "Tensorflow, MxNet, pytorch, hugectr" ran BERT on one of the first three, not on HugeCTR)."""
        if not framework:
            return framework
        only = {p.id: p.benchmarks for p in self.frameworks if p.benchmarks}
        ids = framework.split(";")
        if not any(i in only and benchmark not in only[i] for i in ids):
            return framework

        def fits(i: str) -> bool:
            return not (i in only and benchmark not in only[i])

        kept = [i for i in ids if fits(i)] or [i for i in self.frameworks_of(framework_raw, every=True) if fits(i)]
        return ";".join(kept) or None

    def frameworks_of(self, text: str, every: bool = False) -> tuple[str, ...]:
        """The framework ids a text names, in canon.yaml's order; an exclusive pattern that matches is the only
        one (unless `every`: then all that match)."""
        found: list[str] = []
        for p in self.frameworks:
            if p.regex.search(text):
                if p.exclusive and not every:
                    return (p.id,)
                found.append(p.id)
        return tuple(found)


@dataclass(frozen=True)
class RoundRule:
    round: str  # training-v0.7
    folder: str
    layout: str
    time_unit: str
    scorer: str
    runs: dict[str, int]
    ruleset: str | None = None
    drop: dict[str, int] = field(default_factory=dict)
    first_converged: dict[str, int] = field(default_factory=dict)
    minigo_time: str | None = None
    repository: str | None = None  # github.com/<owner>/<name> the logs were taken from
    commit: str | None = None  # the snapshot's commit: links to it never move
    benchmark_ids: dict[str, str] = field(default_factory=dict)  # folder -> table id in this round
    fallback: str | None = None  # "round-rule": score by the rule where the checker rejects too many runs
    mark_republished: bool = False  # notes name folders whose runs are another folder's

    @property
    def version(self) -> str:
        """The round's version: "0.7" for training-v0.7."""
        return self.round.rsplit("-v", 1)[1]

    def drop_count(self, benchmark: str) -> int:
        """The runs dropped at each end before a benchmark's times are averaged (1 unless rounds.yaml says more)."""
        return int(self.drop.get(benchmark, 1))

    def benchmark_id(self, folder: str) -> str:
        """The table's benchmark id of a benchmark folder of this round (v3.0-v4.1 `ssd` is RetinaNet)."""
        return self.benchmark_ids.get(folder.strip().lower()) or canon().benchmark(folder)


def _compile(path: Path, key: str, items: Any) -> tuple[Pattern, ...]:
    if not isinstance(items, list):
        raise DataFileError(path, "expected a list of {id, pattern}", key)
    out = []
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(item, dict) or not {"id", "pattern"} <= set(item):
            raise DataFileError(path, "each entry needs id and pattern", where)
        unknown = set(item) - {"id", "pattern", "cores_per_chip", "exclusive", "benchmarks"}
        if unknown:
            raise DataFileError(path, f"unknown keys {sorted(unknown)}", where)
        try:
            regex = re.compile(item["pattern"], re.IGNORECASE)
        except re.error as exc:
            raise DataFileError(path, f"broken pattern: {exc}", where) from exc
        out.append(
            Pattern(str(item["id"]), regex, int(item.get("cores_per_chip", 1)), bool(item.get("exclusive", False)),
                    tuple(str(b) for b in item.get("benchmarks") or ()))
        )
    return tuple(out)


def _spellings(path: Path, key: str, table: Any) -> dict[str, str]:
    """{canonical: [spellings]} -> {spelling: canonical}, refusing a spelling claimed twice."""
    out: dict[str, str] = {}
    if not isinstance(table, dict):
        raise DataFileError(path, "expected a mapping", key)
    for canonical, spellings in table.items():
        for s in [canonical, *(spellings or [])]:
            s = str(s).lower()
            if s in out and out[s] != canonical:
                raise DataFileError(path, f"spelling {s!r} given for {out[s]!r} and {canonical!r}", key)
            out[s] = str(canonical)
    return out


@lru_cache(maxsize=1)
def canon() -> Canon:
    """The shipped canonical ids (read and validated once)."""
    return load_canon(CANON_FILE)


def load_canon(path: Path) -> Canon:
    """The canonical ids of a canon.yaml, validated: every key present and known, every pattern compiling."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataFileError(path, "expected a mapping at the top level")
    unknown = set(data) - _CANON_KEYS
    missing = _CANON_KEYS - set(data)
    if unknown or missing:
        raise DataFileError(path, f"unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
    return Canon(
        orgs={str(k).lower(): str(v) for k, v in data["orgs"].items()},
        divisions=_spellings(path, "divisions", data["divisions"]),
        categories=_spellings(path, "categories", data["categories"]),
        benchmarks={str(k).lower(): str(v) for k, v in data["benchmarks"].items()},
        accelerators=_compile(path, "accelerators", data["accelerators"]),
        no_accelerator=frozenset(str(s).lower() for s in data["no_accelerator"]),
        cpus=_compile(path, "cpus", data["cpus"]),
        frameworks=_compile(path, "frameworks", data["frameworks"]),
        **_submitter_separators(path, data["submitters"]),
    )


def _submitter_separators(path: Path, spec: Any) -> dict[str, re.Pattern[str]]:
    """canon.yaml's `submitters`: the separators between the companies of a joint submitter."""
    if not isinstance(spec, dict) or set(spec) != {"joint", "joint_suffix"}:
        raise DataFileError(path, "expected {joint, joint_suffix} (regular expressions)", "submitters")
    try:
        return {key: re.compile(str(spec[key])) for key in ("joint", "joint_suffix")}
    except re.error as exc:
        raise DataFileError(path, f"broken pattern: {exc}", "submitters") from exc


@lru_cache(maxsize=1)
def round_rules() -> dict[str, RoundRule]:
    """The shipped round rules (read and validated once)."""
    return load_round_rules(ROUNDS_FILE)


def load_round_rules(path: Path) -> dict[str, RoundRule]:
    """The round rules of a rounds.yaml by round id, validated (a DataFileError names the round and key)."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataFileError(path, "expected a mapping of rounds")
    rules: dict[str, RoundRule] = {}
    for name, spec in data.items():
        if not re.fullmatch(r"training-v\d+\.\d+", str(name)):
            raise DataFileError(path, "round ids look like training-v0.7", str(name))
        unknown = set(spec) - _ROUND_KEYS
        if unknown:
            raise DataFileError(path, f"unknown keys {sorted(unknown)}", str(name))
        missing = {"folder", "layout", "time_unit", "scorer", "runs"} - set(spec)
        if missing:
            raise DataFileError(path, f"missing keys {sorted(missing)}", str(name))
        if spec.get("scorer") not in ("mlperf-logging", "round-rule"):
            raise DataFileError(path, "scorer must be mlperf-logging or round-rule", f"{name}.scorer")
        if spec.get("layout") not in ("v0.5", "systems"):
            raise DataFileError(path, "layout must be v0.5 or systems", f"{name}.layout")
        if spec.get("time_unit") not in ("s", "ms"):
            raise DataFileError(path, "time_unit must be s or ms", f"{name}.time_unit")
        if spec.get("commit") is not None and not re.fullmatch(r"[0-9a-f]{40}", str(spec["commit"])):
            raise DataFileError(path, "commit is a 40-character git hash", f"{name}.commit")
        if spec.get("fallback") not in (None, "round-rule"):
            raise DataFileError(path, "fallback must be round-rule or absent", f"{name}.fallback")
        rules[str(name)] = RoundRule(round=str(name), **spec)
    return rules


def rule_for_folder(folder_name: str) -> RoundRule | None:
    """The round whose results repository has this folder name (training_results_v0.7, v0.5.0 ...)."""
    for rule in round_rules().values():
        if folder_name == rule.folder:
            return rule
    m = re.search(r"v(\d+\.\d+)", folder_name)
    if m:
        return round_rules().get(f"training-v{m.group(1)}")
    return None
