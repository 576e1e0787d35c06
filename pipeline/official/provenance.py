"""README.md for a folder of official tables: where the logs came from, how they were scored, when."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.official.scoring import ROUND_RULE, package_scorer_name

if TYPE_CHECKING:
    from pipeline.official.table import OfficialBuild

# A row of the snapshot README's source table: | `training_results_v0.7/` | github.com/... | <sha> (date) |
_SOURCE_ROW = re.compile(r"\|\s*`(training_results_v[\d.]+)/?`\s*\|\s*(\S+)\s*\|\s*([0-9a-f]{40})\s*\(([^)]*)\)\s*\|")


def sources(dirs: list[Path]) -> dict[str, tuple[str, str, str]]:
    """{folder: (repository, commit, date)} from a README.md next to the trees, if there is one."""
    found: dict[str, tuple[str, str, str]] = {}
    for d in dirs:
        for readme in (d / "README.md", d.parent / "README.md"):
            if readme.is_file():
                for m in _SOURCE_ROW.finditer(readme.read_text(encoding="utf-8", errors="replace")):
                    found.setdefault(m.group(1), (m.group(2), m.group(3), m.group(4)))
    return found


def _source_lines(build: OfficialBuild, src: dict[str, tuple[str, str, str]]) -> list[str]:
    from pipeline.official.canon import round_rules

    rules = round_rules()
    lines = [
        "## Sources",
        "",
        "Result logs and system descriptions of the public MLCommons repositories (Apache License 2.0),",
        "read from a trimmed snapshot that keeps every MLPerf log line the scorer reads",
        "(shared/mlperf/README.md):",
        "",
        "| round | repository | commit (date) | scored with |",
        "|---|---|---|---|",
    ]
    for rnd in build.rounds:
        rule = rules[rnd]
        repo, commit, date = src.get(rule.folder, ("github.com/mlcommons/" + rule.folder, "unknown", "unknown"))
        scorer = package_scorer_name() if rule.scorer == "mlperf-logging" else ROUND_RULE
        lines.append(f"| {rnd} | {repo} | {commit} ({date}) | {scorer} |")
    return lines


_SCORING = [
    "## Scoring",
    "",
    "* v0.7 and later: the mlperf-logging package's own result_summarizer ({package}),",
    "  including its compliance checker, per benchmark folder, with the ruleset of the round.",
    "* v0.5 and v0.6: `{rule}`, the round's rule applied by `pipeline/official/scoring.py`",
    "  (the package has no v0.5 support, and scores v0.6 1000x too small because its logs are in",
    "  seconds): run time is run_start -> run_stop, the fastest and slowest runs are dropped and the",
    "  rest averaged; v0.5 NCF uses the first 50 converged runs by start time; v0.6 MiniGo ends at",
    "  eval_result's metadata.timestamp.",
    "* A failed run (not converged, or rejected by the checker) counts as one of the dropped slowest;",
    "  with more failures than the rule drops, with any required log missing from the snapshot, or",
    "  with no readable system description, `minutes` is empty, `status` is `no_score` and `warning`",
    "  names the files.  `minutes_recomputed` is this module's independent recomputation of the rule,",
    "  kept as a cross-check (it is not an official figure).",
    "* v1.1 and later: required runs per benchmark as the package counts them (gpt3 and llama31_405b 3,",
    "  so the score is the middle run; unet3d 40, 4 dropped at each end; resnet, retinanet/ssd, maskrcnn,",
    "  dlrm 5; the others 10), and the olympic mean is multiplied by the folder's `scaling.json` factor",
    "  where the review committee set one (the note gives it).  Where the current checker rejects more",
    "  runs than the rule drops (runs that were accepted at publication), the round's rule scores the",
    "  folder instead: `scorer` is `{rule}` and the note names the runs the checker rejects and why.",
    "* Republished results (v1.1 and later): a folder whose runs all have the run_start/run_stop stamps",
    "  of another folder's runs is not a new measurement; its note names the folder of the earlier round",
    "  that measured them (and that folder's note where they were published again), or the other folder",
    "  of its own round that lists them too.",
    "* Benchmarks: the package's keys, except that the v3.0-v4.1 `ssd` folders hold RetinaNet",
    "  (`retinanet`) and v4.x `gnn` is R-GAT (`rgat`, as from v5.0).  Joint submissions (\"NVIDIA+CoreWeave\",",
    "  \"CoreWeave + IBM + NVIDIA\") have the first company named as `org`; `submitter` is the folder.",
    "* Chips: `accelerator_count` = number_of_nodes x accelerators_per_node of the system",
    "  description; TPU folder names count TensorCores (tpu-v3-8192 = 4096 chips, cloud-tpu-v5p-12288 =",
    "  6144 chips; v5e and Trillium names count chips), v0.5 TPU entries give the slice's core count.",
    "  CPU-only systems count processors.",
    "* Energy: the power results (v4.0 Sustainable Metal Cloud, v4.1 Dell, v5.0 Lenovo) are not in the",
    "  snapshot (their per-node power readings were not copied), so the tables hold time-to-train only.",
]

_COLUMNS = [
    "## Columns",
    "",
    "record_id (`<round>/<submitter folder>/<system folder>/<benchmark>`; v0.5 system = entry path +",
    "results folder), round, division (closed/open), category (available/preview/research), submitter (as",
    "the folder spells it), org and accelerator and framework (canonical ids, CONTRACT.md), system_name,",
    "accelerator_model (as published), accelerator_count, host_count, benchmark, minutes (the score,",
    "unrounded; MLPerf publishes it to two decimals), seconds, runs_used (averaged), runs_valid,",
    "runs_failed, runs_missing, runs_total, runs_required, scorer, status, warning, note,",
    "minutes_recomputed, system_file, source (benchmark folder, relative to the repository).",
]


def _count_lines(build: OfficialBuild) -> list[str]:
    lines = [
        "## Counts",
        "",
        "| round | records | scored | without a score | scored by the round's rule | republished |",
        "|---|---|---|---|---|---|",
    ]
    table = build.table
    for rnd in build.rounds:
        part = table[table["round"] == rnd]
        scored = int((part["status"] == "scored").sum())
        ruled = int((part["scorer"] == ROUND_RULE).sum())
        again = int(part["note"].fillna("").str.contains("republished: ", regex=False).sum())
        lines.append(f"| {rnd} | {len(part)} | {scored} | {len(part) - scored} | {ruled} | {again} |")
    return lines


def _build_lines(build: OfficialBuild, sizes: dict[str, int]) -> list[str]:
    if not sizes:
        return []
    total = sum(sizes.values())
    lines = [
        "## Build",
        "",
        f"This build: {build.seconds:.0f} s ({build.workers} worker processes, {build.cpus} CPUs).  Files written",
        f"(bytes; {total:,} in all):",
        "",
        "| file | bytes |",
        "|---|---|",
    ]
    lines += [f"| {name} | {size:,} |" for name, size in sizes.items()]
    return [*lines, ""]


def render_readme(build: OfficialBuild, src: dict[str, tuple[str, str, str]], today: dt.date,
                  sizes: dict[str, int] | None = None) -> str:
    """The README.md text of a built folder of official tables: sources, scoring, columns, counts per round,
    and the build's time and the sizes of the files it wrote (`sizes`: file name -> bytes)."""
    lines = [
        "# Official MLPerf Training results (generated)",
        "",
        "Generated by `newsclaims official build` (`pipeline.official.official_build_command`);",
        "do not edit by hand, rebuild instead.  Each row is one system x benchmark of a round, scored",
        "from the published result logs; `runs/<round>.csv` has the per-run details behind each row.",
        "",
        f"Built: {today.isoformat()}.",
        "",
        *_source_lines(build, src),
        "",
        *(line.format(package=package_scorer_name(), rule=ROUND_RULE) for line in _SCORING),
        "",
        *_COLUMNS,
        "",
        *_count_lines(build),
        "",
        *_build_lines(build, sizes or {}),
        "Statements from primary sources are in `statements.csv` (company and MLCommons announcements),",
        "`vendor_statements.csv` (submitters' own pages and releases), `round_facts.csv` (each round's",
        "benchmarks, quality targets and participants) and `specs.csv` (hardware specifications);",
        "see `STATEMENTS.md`.",
        "",
    ]
    return "\n".join(lines)


def write_readme(out: Path, dirs: list[Path], build: OfficialBuild, today: dt.date | None = None,
                 written: list[Path] | None = None) -> Path:
    """Write the folder's README.md (through a temporary file, so a reader never sees half of it); its path.
    `written`: the tables just written, whose sizes it lists."""
    path = out / "README.md"
    sizes = {p.relative_to(out).as_posix(): p.stat().st_size for p in written or [] if p.is_file()}
    text = render_readme(build, sources(dirs), today or dt.date.today(), sizes)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
