"""Primary-source statements (company and MLCommons announcements) as typed records.

corpora/official/statements.csv has one statement per row: id, metric, value, unit, entities, text,
source_url, source_date, note.  `entities` is `key=value` pairs separated by ';' (a key may list several
values separated by ','), keys as in CONTRACT.md.  A malformed row stops loading with its line number:
a wrong primary source would mislead every verdict that cites it.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pipeline.errors import OfficialTableError
from pipeline.records import ENTITY_TYPES, by_fields

# hosts that serve drafts or mirrors, never the public page of a source
NOT_PUBLIC_HOSTS = ("staging", "netlify.app", "preview", "localhost", "127.0.0.1", "vercel.app")
COLUMNS = ("id", "metric", "value", "unit", "entities", "text", "source_url", "source_date", "note")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Statement:
    id: str
    metric: str
    value: float | str | None  # a number, or ISO text for unit "date"
    unit: str
    entities: tuple[tuple[str, tuple[str, ...]], ...]
    text: str
    source_url: str
    source_date: str | None
    note: str

    def __reduce__(self) -> tuple:
        return by_fields(self)

    @property
    def number(self) -> float:
        """The value as a number; a ValueError for a date or a statement without a figure."""
        if isinstance(self.value, (int, float)):
            return float(self.value)
        raise ValueError(f"statement {self.id} states no number ({self.value!r})")

    def entity_values(self, key: str) -> tuple[str, ...]:
        """The ids the statement gives for an entity type (`org`, `round`...); empty when it names none."""
        for k, values in reversed(self.entities):  # a few pairs: a scan (the last given wins, as in a dict)
            if k == key:
                return values
        return ()

    @property
    def evidence(self) -> tuple[str, ...]:
        """The statement's source URL, what a verdict cites."""
        return (self.source_url,)


def _entities(raw: str, where: str, known: dict[str, frozenset[str]] | None = None
              ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out = []
    for part in filter(None, (p.strip() for p in raw.split(";"))):
        key, sep, values = part.partition("=")
        if not sep or key not in ENTITY_TYPES:
            raise OfficialTableError(f"{where}: entity {part!r} must be key=value with key in {ENTITY_TYPES}")
        ids = tuple(v.strip() for v in values.split(",") if v.strip())
        # A round or benchmark the knowledge base does not know would never match a claim.
        unknown = [v for v in ids if known and known.get(key) and v not in known[key]]
        if unknown:
            raise OfficialTableError(f"{where}: unknown {key} id {unknown[0]!r} (known: "
                                     f"{', '.join(sorted(known[key])[:6])}, ...)")  # type: ignore[index]
        out.append((key, ids))
    return tuple(out)


def load_statements(path: Path) -> list[Statement]:
    """Statements of a CSV file; any problem (not UTF-8, malformed CSV, a bad row) is an
    OfficialTableError naming the file and line."""
    try:
        return _load_statements(Path(path))
    except UnicodeDecodeError as exc:
        raise OfficialTableError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    except csv.Error as exc:
        raise OfficialTableError(f"{path}: malformed CSV ({exc})") from exc
    except OSError as exc:
        raise OfficialTableError(f"{path}: cannot read the statements ({exc.strerror})") from exc


def _load_statements(path: Path) -> list[Statement]:
    from pipeline.official.validate import known_ids

    known = known_ids()
    with Path(path).open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise OfficialTableError(f"{path}: columns must be {', '.join(COLUMNS)}")
        out: list[Statement] = []
        seen: set[str] = set()
        for row in reader:
            where = f"{path}, line {reader.line_num}"
            if None in row or None in row.values():
                raise OfficialTableError(f"{where}: {len(COLUMNS)} fields expected; a comma inside a value "
                                         "must be quoted")
            sid = row["id"].strip()
            if not sid or sid in seen:
                raise OfficialTableError(f"{where}: id {sid!r} empty or given twice")
            seen.add(sid)
            unit, raw = row["unit"].strip(), row["value"].strip()
            value: float | str | None
            if not raw:
                value = None
            elif unit == "date":
                if not _DATE.match(raw):
                    raise OfficialTableError(f"{where}: a date value is YYYY-MM-DD, not {raw!r}")
                value = raw
            else:
                try:
                    value = float(raw)
                except ValueError as exc:
                    raise OfficialTableError(f"{where}: value {raw!r} is not a number") from exc
            url = row["source_url"].strip()
            if not url.startswith(("http://", "https://")):
                raise OfficialTableError(f"{where}: source_url must be a web address")
            host = urlsplit(url).hostname or ""
            if any(marker in host for marker in NOT_PUBLIC_HOSTS):
                # a reader following the evidence must land on the page the public can see, not a mirror
                # that may change or vanish
                raise OfficialTableError(f"{where}: source_url {url} is a staging or preview host; give the "
                                         "public page")
            date = row["source_date"].strip() or None
            if date is not None and not _DATE.match(date):
                raise OfficialTableError(f"{where}: source_date is YYYY-MM-DD or empty, not {date!r}")
            if not row["text"].strip():
                raise OfficialTableError(f"{where}: text is empty")
            out.append(
                Statement(
                    sid,
                    row["metric"].strip(),
                    value,
                    unit,
                    _entities(row["entities"], where, known),
                    row["text"].strip(),
                    url,
                    date,
                    row["note"].strip(),
                )
            )
    return out
