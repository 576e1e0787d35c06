"""Questions reconciliation asks of the official tables, answered with records that name their evidence.

`OfficialResults()` loads the tables shipped in corpora/official (no access to the raw logs needed);
`OfficialResults(path)` loads another folder of <round>.csv tables or a single CSV.  Every answer is a
frozen dataclass whose `evidence` lists the record ids (and statement URLs) it rests on.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.errors import OfficialTableError
from pipeline.native import PACKAGE  # a compiled module's __file__ is its build's
from pipeline.official.answers import CountUnder, Leads, OfficialResult, Speedup, SystemSize
from pipeline.official.statements import Statement, load_statements
from pipeline.official.validate import REQUIRED, read_rows

# Shipped with the repository, next to the package (corpora/official).
DEFAULT_DIR = PACKAGE.parent / "corpora" / "official"
TABLE_GLOB = "training-v*.csv"
# Sourced statements, in the order they are consulted: companies' and MLCommons' announcements, the facts
# of each round (result and submitter counts, quality targets), hardware specs.
STATEMENT_FILES = ("statements.csv", "vendor_statements.csv", "round_facts.csv", "specs.csv")


def _none(value: Any) -> Any:
    """A table cell as a value: an empty cell is None."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str) and not value.strip():
        return None
    return value


def _to_result(row: dict[str, Any]) -> OfficialResult:
    def opt_int(v: Any) -> int | None:
        v = _none(v)
        return None if v is None else int(float(v))

    def opt_float(v: Any) -> float | None:
        v = _none(v)
        return None if v is None else float(v)

    return OfficialResult(
        record_id=str(row["record_id"]),
        round=str(row["round"]),
        division=_none(row["division"]),
        category=_none(row["category"]),
        submitter=str(row["submitter"]),
        org=str(row["org"]),
        system=str(row["system"]),
        accelerator=_none(row["accelerator"]),
        accelerator_count=opt_int(row["accelerator_count"]),
        host_count=opt_int(row["host_count"]),
        framework=_none(row["framework"]),
        benchmark=str(row["benchmark"]),
        minutes=opt_float(row["minutes"]),
        runs_used=opt_int(row["runs_used"]) or 0,
        runs_total=opt_int(row["runs_total"]) or 0,
        scorer=str(row["scorer"]),
        status=str(row["status"]),
        warning=str(_none(row["warning"]) or ""),
        source=_none(row.get("source")),
        system_name=_none(row.get("system_name")),
        runs_required=opt_int(row.get("runs_required")),
    )


# One server as vendors count "single-node" results: one host with at most eight accelerators (with this,
# the v1.0 table gives Inspur 4, NVIDIA 2 and Nettrix 2 of the eight benchmarks, as Inspur's release says).
# A TPU slice reports one host for hundreds of chips, hence the accelerator bound.
SINGLE_NODE_ACCELERATORS = 8


def is_single_node(r: OfficialResult) -> bool:
    """Whether a result ran on one server as vendors count it: one host, at most SINGLE_NODE_ACCELERATORS chips."""
    return r.host_count == 1 and r.accelerator_count is not None and r.accelerator_count <= SINGLE_NODE_ACCELERATORS


def _fastest(results: Iterable[OfficialResult], per_chip: bool = False) -> OfficialResult | None:
    scored = [r for r in results if (r.chip_minutes if per_chip else r.minutes) is not None]
    if not scored:
        return None
    return min(scored, key=lambda r: (r.chip_minutes if per_chip else r.minutes, r.record_id))  # type: ignore[return-value]


class OfficialResults:
    """The official tables, loaded once, with the questions reconciliation asks of them."""

    def __init__(self, path: Path | str | None = None, *, _rows: tuple[OfficialResult, ...] | None = None,
                 _statements: tuple[Statement, ...] | None = None,
                 _families: dict[str, frozenset[str]] | None = None) -> None:
        self.path = Path(path) if path is not None else DEFAULT_DIR
        # a chip generation's id -> its chips ("blackwell-ultra": b300, gb300): asking for the generation
        # selects the results of any of them (set from the knowledge base by its user: `with_families`)
        self.families: dict[str, frozenset[str]] = dict(_families or {})
        # memos and indexes, filled on first use: the rows never change
        self._select_memo: dict[tuple, tuple[OfficialResult, ...]] = {}
        self._indexes: dict[str, dict[Any, list[OfficialResult]]] = {}
        self._by_id: dict[str, OfficialResult] | None = None
        self._by_metric: dict[str, list[Statement]] | None = None
        self._benchmarks_memo: dict[tuple[str, str | None], tuple[str, ...]] = {}
        self._leads_memo: dict[tuple, Leads] = {}
        self._views: dict[tuple[str | None, str | None], OfficialResults] = {}
        if _rows is not None:  # a view of tables already loaded (restricted, with_families)
            self.results: tuple[OfficialResult, ...] = _rows
            self.statements: tuple[Statement, ...] = _statements or ()
            return
        self.results = tuple(_to_result(r) for r in self._load(self.path))
        folder = self.path if self.path.is_dir() else self.path.parent
        loaded: list[Statement] = []
        for name in STATEMENT_FILES:
            if (folder / name).is_file():
                loaded.extend(load_statements(folder / name))
        seen: set[str] = set()
        for st in loaded:
            if st.id in seen:
                raise OfficialTableError(f"{folder}: statement id {st.id!r} given in two files")
            seen.add(st.id)
        self.statements = tuple(loaded)

    def with_families(self, families: dict[str, frozenset[str]]) -> OfficialResults:
        """These tables (shared, not copied), answering for a chip generation with the results of its chips
        (with memos of its own: their answers depend on the families)."""
        return OfficialResults(self.path, _rows=self.results, _statements=self.statements, _families=families)

    @staticmethod
    def shared(path: Path | str | None = None) -> OfficialResults:
        """The tables of `path`, loaded once per process: the pipeline and the report ask for the same ones, and
        processes forked after the first load share them."""
        return _shared(str(path) if path is not None else None, _stamp(Path(path) if path is not None else DEFAULT_DIR))

    @staticmethod
    def _load(path: Path) -> list[dict[str, str]]:
        if path.is_dir():
            files = sorted(path.glob(TABLE_GLOB))
            if not files:
                raise OfficialTableError(
                    f"{path}: no official tables ({TABLE_GLOB}); build them with `newsclaims official build`"
                )
        elif path.is_file():
            files = [path]
        else:
            raise OfficialTableError(f"{path}: no such official table or folder")
        rows = [row for f in files for row in read_rows(f, REQUIRED)]  # strict: file, line and column
        counts = Counter(r["record_id"].strip() for r in rows)
        dupes = sorted(rid for rid, n in counts.items() if n > 1)
        if dupes:
            raise OfficialTableError(f"{path}: record ids given twice: {dupes[:5]}")
        return rows

    def restricted(self, category: str | None = None, division: str | None = None) -> OfficialResults:
        """The same tables holding only the results of one category and/or division (the statements stay):
        what a claim "in the available category" or "in the closed division" is checked against."""
        if category is None and division is None:
            return self
        views = self._views
        if (category, division) not in views:
            rows = tuple(r for r in self.results if (category is None or r.category == category)
                         and (division is None or r.division == division))
            views[(category, division)] = OfficialResults(self.path, _rows=rows, _statements=self.statements,
                                                          _families=self.families)
        return views[(category, division)]

    # -- selection ---------------------------------------------------------------------------------
    def select(
        self,
        *,
        who: str | None = None,
        accelerator: str | None = None,
        chip_count: int | None = None,
        benchmark: str | None = None,
        round: str | None = None,
        framework: str | None = None,
        category: str | None = None,
        division: str | None = None,
    ) -> list[OfficialResult]:
        """Rows matching every filter given; `who` is an org id or a submitter folder name.  Answers are
        memoized: the rows never change, and reconciliation asks the same questions many times."""
        key = (who, accelerator, chip_count, benchmark, round, framework, category, division)
        memo = self._select_memo
        if key not in memo:
            memo[key] = tuple(self._select(*key))
        return list(memo[key])

    def _select(self, who: str | None, accelerator: str | None, chip_count: int | None, benchmark: str | None,
                round: str | None, framework: str | None, category: str | None, division: str | None
                ) -> list[OfficialResult]:
        out = []
        # scan the fewest rows an index gives (each index keeps the table's order, so the answer's is the same)
        rows: Sequence[OfficialResult] = self.results
        for attr, value in (("round", round), ("benchmark", benchmark), ("accelerator_count", chip_count)):
            if value is not None:
                indexed = self._index(attr).get(value, ())
                if len(indexed) < len(rows):
                    rows = indexed
        low = who.lower() if who is not None else None
        for r in rows:
            if low is not None and low not in r.names:
                continue
            if accelerator is not None and r.accelerator != accelerator and (
                    r.accelerator not in self.families.get(accelerator, ())):
                continue
            if chip_count is not None and r.accelerator_count != chip_count:
                continue
            if benchmark is not None and r.benchmark != benchmark:
                continue
            if round is not None and r.round != round:
                continue
            if framework is not None and framework not in r.frameworks:
                continue
            if category is not None and r.category != category:
                continue
            if division is not None and r.division != division:
                continue
            out.append(r)
        return out

    def _index(self, attr: str) -> dict[Any, list[OfficialResult]]:
        """The results by the value of one of their fields, built on first use."""
        index = self._indexes.get(attr)
        if index is None:
            index = self._indexes[attr] = {}
            for r in self.results:
                index.setdefault(getattr(r, attr), []).append(r)
        return index

    def record(self, record_id: str) -> OfficialResult:
        """The result with that record id (a KeyError if there is none), from an index built on first use."""
        index = self._by_id
        if index is None:
            index = self._by_id = {r.record_id: r for r in self.results}
        return index[record_id]

    # -- questions ---------------------------------------------------------------------------------
    def result(
        self,
        who: str,
        accelerator: str,
        chip_count: int,
        benchmark: str,
        round: str,
        framework: str | None = None,
        category: str | None = None,
    ) -> OfficialResult | None:
        """The result of that org's system of that size: the fastest scored match (TF and JAX entries
        of one system size are both candidates), else an unscored match so that the caller can say
        why there is no figure, else None."""
        matches = self.select(
            who=who,
            accelerator=accelerator,
            chip_count=chip_count,
            benchmark=benchmark,
            round=round,
            framework=framework,
            category=category,
        )
        return _fastest(matches) or (matches[0] if matches else None)

    def results_for(
        self,
        who: str,
        accelerator: str,
        chip_count: int,
        round: str,
        framework: str | None = None,
        category: str | None = None,
    ) -> list[OfficialResult]:
        """The fastest scored result per benchmark of one org's systems of one size: a 'result set'."""
        by_bench: dict[str, list[OfficialResult]] = {}
        for r in self.select(
            who=who,
            accelerator=accelerator,
            chip_count=chip_count,
            round=round,
            framework=framework,
            category=category,
        ):
            by_bench.setdefault(r.benchmark, []).append(r)
        best = [_fastest(rs) for rs in by_bench.values()]
        return sorted((b for b in best if b is not None), key=lambda r: r.benchmark)

    def largest_system(self, accelerator: str | None, round: str, who: str | None = None,
                       benchmark: str | None = None) -> SystemSize | None:
        """The largest system (most accelerators) of that kind (any kind, for None) in the round, on that
        benchmark if given, scored or not: a system whose logs are missing still existed, and
        `scored_records` says what can be checked."""
        rows = [r for r in self.select(who=who, accelerator=accelerator, round=round, benchmark=benchmark)
                if r.accelerator_count]
        if not rows:
            return None
        top = max(r.accelerator_count or 0 for r in rows)
        biggest = [r for r in rows if r.accelerator_count == top]
        return SystemSize(
            accelerator or "/".join(sorted({r.accelerator for r in biggest if r.accelerator})),
            round,
            top,
            tuple(r.record_id for r in biggest),
            tuple(r.record_id for r in biggest if r.scored),
            tuple(sorted({r.org for r in biggest})),
        )

    def benchmarks(self, round: str, division: str | None = None) -> tuple[str, ...]:
        """Benchmarks with at least one scored result in the round."""
        memo = self._benchmarks_memo
        if (round, division) not in memo:
            memo[(round, division)] = tuple(sorted({r.benchmark for r in self.select(round=round, division=division)
                                                    if r.scored}))
        return memo[(round, division)]

    def fastest(
        self,
        benchmark: str,
        round: str,
        category: str | None = None,
        per_chip: bool = False,
        division: str | None = "closed",
    ) -> OfficialResult | None:
        """The fastest scored result (closed division by default); per_chip ranks by chip-minutes."""
        return _fastest(
            self.select(benchmark=benchmark, round=round, category=category, division=division),
            per_chip=per_chip,
        )

    def speedup(self, set_a: Iterable[OfficialResult], set_b: Iterable[OfficialResult]) -> Speedup:
        """Per-benchmark time_b / time_a over the benchmarks both sets scored, with their arithmetic
        and geometric means.  Several results of one benchmark in a set: its fastest counts."""
        a = self._best_by_benchmark(list(set_a))
        b = self._best_by_benchmark(list(set_b))
        common = sorted(set(a) & set(b))
        ratios = tuple((k, (b[k].minutes or math.nan) / (a[k].minutes or math.nan)) for k in common)
        values = [v for _, v in ratios]
        arith = sum(values) / len(values) if values else None
        geo = math.exp(sum(math.log(v) for v in values) / len(values)) if values else None
        return Speedup(
            ratios,
            arith,
            geo,
            tuple(sorted(set(a) - set(b))),
            tuple(sorted(set(b) - set(a))),
            tuple(sorted({a[k].accelerator_count or 0 for k in common})),
            tuple(sorted({b[k].accelerator_count or 0 for k in common})),
            tuple(x for k in common for x in (a[k].record_id, b[k].record_id)),
        )

    @staticmethod
    def _best_by_benchmark(results: list[OfficialResult]) -> dict[str, OfficialResult]:
        out: dict[str, OfficialResult] = {}
        for bench in {r.benchmark for r in results}:
            best = _fastest(r for r in results if r.benchmark == bench)
            if best is not None:
                out[bench] = best
        return out

    def leads(self, who: str, round: str, category: str | None = None, division: str | None = "closed",
              per_chip: bool = False, single_node: bool = False) -> Leads:
        """In how many benchmarks of the round the org holds the fastest scored result (per_chip: the least
        chip-minutes, the way vendors count 'per accelerator' records; single_node: among results of one
        server, the way server makers count theirs).  Memoized like `select`."""
        key = (who, round, category, division, per_chip, single_node)
        memo = self._leads_memo
        if key not in memo:
            memo[key] = self._leads(who, round, category, division, per_chip, single_node)
        return memo[key]

    def _leads(self, who: str, round: str, category: str | None, division: str | None, per_chip: bool,
               single_node: bool = False) -> Leads:
        leaders: list[tuple[str, str]] = []
        led: list[str] = []
        uncertain: list[str] = []
        for bench in self.benchmarks(round, division):
            rows = self.select(benchmark=bench, round=round, category=category, division=division)
            if single_node:
                rows = [r for r in rows if is_single_node(r)]
            best = _fastest(rows, per_chip=per_chip)
            if best is None:
                continue
            unscored = [r for r in rows if not r.scored and r.accelerator_count]
            leader, leader_id = best.org, best.record_id
            if not per_chip and not single_node and unscored:
                # a time its submitter published stands in for missing logs (NVIDIA's 13.5-minute MiniGo)
                published = self._published_times(bench, round)
                for r in list(unscored):
                    t = published.get(r.org)
                    if t is not None:
                        unscored.remove(r)
                        if best.seconds is not None and t[0] < best.seconds:
                            leader, leader_id = r.org, t[1]
            leaders.append((bench, leader_id))
            mine = who.lower() == leader or (leader == best.org and who.lower() == best.submitter.lower())
            if mine:
                led.append(bench)
            # An unscored record (logs missing) could change the count only if it could overtake:
            # another org's when this org leads, this org's own when it does not.
            if any((who.lower() not in (r.org, r.submitter.lower())) == mine for r in unscored):
                uncertain.append(bench)
        return Leads(who.lower(), round, len(led), len(leaders), tuple(led), tuple(leaders), tuple(uncertain))

    def _published_times(self, bench: str, round: str) -> dict[str, tuple[float, str]]:
        """{org: (seconds, source)} of the train times orgs published for a benchmark of a round."""
        out: dict[str, tuple[float, str]] = {}
        for st in self.statements:
            if st.metric == "train_time" and bench in st.entity_values("benchmark") and round in st.entity_values(
                    "round") and isinstance(st.value, (int, float)):
                for org in st.entity_values("org"):
                    if org not in out or float(st.value) < out[org][0]:
                        out[org] = (float(st.value), st.source_url)
        return out

    def count_under(
        self, who: str | None, round: str, seconds: float, category: str | None = None, division: str | None = None
    ) -> CountUnder:
        """How many benchmarks the org (any submitter, for None) trained in under `seconds` in the round
        (any of its systems)."""
        rows = self.select(who=who, round=round, category=category, division=division)
        under = sorted(
            (r for r in rows if r.seconds is not None and r.seconds < seconds),
            key=lambda r: (r.benchmark, r.minutes or 0.0),
        )
        benches = tuple(sorted({r.benchmark for r in under}))
        return CountUnder(
            (who or "").lower(),
            round,
            seconds,
            len(benches),
            benches,
            tuple(r.record_id for r in under),
            tuple(r.record_id for r in rows if not r.scored),
        )

    def statements_of(self, metric: str) -> tuple[Statement, ...]:
        """The statements of one metric (indexed once)."""
        index = self._by_metric
        if index is None:
            index = self._by_metric = {}
            for st in self.statements:
                index.setdefault(st.metric, []).append(st)
        return tuple(index.get(metric, ()))

    def statements_about(self, metric: str | None = None, **entities: str) -> list[Statement]:
        """Primary-source statements with that metric whose entities include all those given."""
        return [
            s
            for s in self.statements
            if (metric is None or s.metric == metric) and all(v in s.entity_values(k) for k, v in entities.items())
        ]


@lru_cache(maxsize=4)
def _shared(path: str | None, stamp: tuple) -> OfficialResults:
    return OfficialResults(path)


def _stamp(path: Path) -> tuple:
    """What the tables' files are now (name, size, time changed): tables edited in place are loaded again."""
    if path.is_dir():
        files = sorted({*path.glob(TABLE_GLOB), *(path / n for n in STATEMENT_FILES)})
    else:
        files = [path, *(path.parent / n for n in STATEMENT_FILES)]
    out = []
    for f in files:
        try:
            st = f.stat()
        except OSError:
            continue
        out.append((f.name, st.st_size, st.st_mtime_ns))
    return tuple(out)

