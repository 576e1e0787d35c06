"""The typed answers of the official-results queries; each names the records it rests on (`evidence`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.official.systems import FEWER_CHIPS
from pipeline.records import by_fields

PUBLISHED_DECIMALS = 2  # MLPerf tables publish minutes to two decimals


def partners(submitter: str) -> frozenset[str]:
    """The companies of a joint submission as its folder names them ("IBM+CoreWeave+NVIDIA",
    "NVIDIA_CoreWeave", "Azure+NVIDIA"): each one's result as much as the first-named's (the table's org)."""
    parts = re.split(r"[+_]", submitter.lower())
    return frozenset(p.strip() for p in parts) if len(parts) > 1 else frozenset()


@dataclass(frozen=True)
class OfficialResult:
    """One row of the official table."""

    record_id: str
    round: str
    division: str | None
    category: str | None
    submitter: str
    org: str
    system: str
    accelerator: str | None
    accelerator_count: int | None
    host_count: int | None
    framework: str | None
    benchmark: str
    minutes: float | None
    runs_used: int
    runs_total: int
    scorer: str
    status: str
    warning: str
    # the result's folder in its round's results repository (the table's `source` column)
    source: str | None = None
    system_name: str | None = None
    runs_required: int | None = None  # result logs the round's rules require for the benchmark

    # derived once, when the row is loaded: every time claim of an article asks them of every result of its
    # org and round, and round() of a float is dear
    seconds: float | None = field(init=False, repr=False, compare=False)  # the score in seconds (None: unscored)
    published_minutes: float | None = field(init=False, repr=False, compare=False)  # as MLPerf publishes it
    # seconds consistent with the published two-decimal minutes (0.39 min -> 23.1-23.7 s)
    published_interval_seconds: tuple[float, float] | None = field(init=False, repr=False, compare=False)
    # the names a `who` filter finds it by: its org id, its submitter folder (lowercased) and, for a joint
    # submission, each partner's (OfficialResults.select asks it of every result of a round)
    names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset((self.org, self.submitter.lower())) | partners(self.submitter))
        minutes = self.minutes
        published = None if minutes is None else round(minutes, PUBLISHED_DECIMALS)
        half = 0.5 * 10**-PUBLISHED_DECIMALS
        object.__setattr__(self, "seconds", None if minutes is None else minutes * 60.0)
        object.__setattr__(self, "published_minutes", published)
        object.__setattr__(self, "published_interval_seconds",
                           None if published is None else ((published - half) * 60.0, (published + half) * 60.0))

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def size_uncertain(self) -> bool:
        """Whether its chip count is the description's cluster, which the run may not all have used (v0.5)."""
        return FEWER_CHIPS in (self.warning or "")

    @property
    def scored(self) -> bool:
        """Whether the result has a score (one without lacks logs or failed)."""
        return self.minutes is not None

    @property
    def chip_minutes(self) -> float | None:
        """minutes x accelerators: the per-chip cost used to rank 'per chip' (lower is better)."""
        if self.minutes is None or not self.accelerator_count:
            return None
        return self.minutes * self.accelerator_count

    @property
    def frameworks(self) -> tuple[str, ...]:
        """The result's framework ids (the table joins several with ';')."""
        return tuple(self.framework.split(";")) if self.framework else ()

    @property
    def evidence(self) -> tuple[str, ...]:
        """The result's own record id."""
        return (self.record_id,)


@dataclass(frozen=True)
class SystemSize:
    accelerator: str
    round: str
    accelerator_count: int
    records: tuple[str, ...]  # every record of a system of that size
    scored_records: tuple[str, ...]  # those with a score (the rest lack logs or failed)
    orgs: tuple[str, ...]

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def evidence(self) -> tuple[str, ...]:
        """Every record of a system of that size."""
        return self.records


@dataclass(frozen=True)
class Speedup:
    """How many times faster set A is than set B, per benchmark both ran (time_b / time_a)."""

    per_benchmark: tuple[tuple[str, float], ...]
    arithmetic_mean: float | None
    geometric_mean: float | None
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    scale_a: tuple[int, ...]
    scale_b: tuple[int, ...]
    evidence: tuple[str, ...]

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def ratios(self) -> dict[str, float]:
        """The speed-up on each benchmark both sets ran, by benchmark."""
        return dict(self.per_benchmark)

    @property
    def same_scale(self) -> bool:
        """Whether both sets ran at one and the same accelerator count."""
        return len(set(self.scale_a) | set(self.scale_b)) == 1


@dataclass(frozen=True)
class Leads:
    org: str
    round: str
    count: int  # benchmarks where the org has the fastest scored result
    of_total: int  # benchmarks with any scored result under the same filters
    benchmarks: tuple[str, ...]
    leaders: tuple[tuple[str, str], ...]  # (benchmark, record id of the fastest), every benchmark
    uncertain: tuple[str, ...]  # benchmarks where an unscored record (missing logs) might be faster

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def evidence(self) -> tuple[str, ...]:
        """The fastest record of every benchmark, the leaders the count is taken from."""
        return tuple(rid for _, rid in self.leaders)

    @property
    def possible(self) -> tuple[int, int]:
        """The counts the missing logs leave possible: each uncertain benchmark it leads may be lost, each
        uncertain one it does not lead may be won."""
        lost = sum(b in self.benchmarks for b in self.uncertain)
        return self.count - lost, self.count + len(self.uncertain) - lost


@dataclass(frozen=True)
class CountUnder:
    org: str
    round: str
    seconds: float
    count: int  # benchmarks with at least one result under the bound
    benchmarks: tuple[str, ...]
    records: tuple[str, ...]  # every result under the bound
    uncertain: tuple[str, ...]  # the org's unscored records (could be under the bound)

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def evidence(self) -> tuple[str, ...]:
        """Every result under the bound."""
        return self.records
