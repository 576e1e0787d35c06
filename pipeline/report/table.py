"""claims.parquet: the claims as a typed table for pandas (`pd.read_parquet`), DuckDB or a spreadsheet's Parquet import.

JSON's value and official fields mix numbers and ISO dates; Parquet columns have one type, so each becomes a
float column plus a text column (`value_text`, `official_text`) that holds the non-numeric ones.  Entities
become one column per type; nested fields (compared_to, and any field a later version adds) are JSON text.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import IO, Any

from pipeline.report.fmt import ENTITY_KEYS, is_number

STRING = ("id", "doc", "lang", "sentence", "text", "kind", "unit", "counted", "bound", "ratio_reading",
          "reading_cue", "bound_cue", "metric", "verdict", "explanation", "distortion")
INTS = ("start", "end")
FLOATS = ("of_total", "low", "high")
SPLIT = ("value", "official")  # number or text
SKIP = {"entities", "evidence", "compared_to", "display", *STRING, *INTS, *FLOATS, *SPLIT}


def _schema(extra: list[str]) -> Any:
    import pyarrow as pa

    fields = [pa.field(k, pa.string()) for k in STRING[:7]]
    fields += [pa.field(k, pa.int64()) for k in INTS]
    for k in SPLIT:
        fields += [pa.field(k, pa.float64()), pa.field(f"{k}_text", pa.string())]
    fields += [pa.field(k, pa.float64()) for k in FLOATS]
    fields += [pa.field(k, pa.string()) for k in STRING[7:]]
    fields += [pa.field(f"entity_{k}", pa.string()) for k in ENTITY_KEYS]
    fields += [pa.field("evidence", pa.list_(pa.string())), pa.field("compared_to", pa.string())]
    fields += [pa.field(k, pa.string()) for k in extra]
    return pa.schema(fields)


# one encoder for every cell: json.dumps with options builds a new one per call
_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


def _text(x: Any) -> str | None:
    if x is None:
        return None
    return x if isinstance(x, str) else _ENCODE(x)


def claim_row(c: dict[str, Any], extra: list[str]) -> dict[str, Any]:
    """One claim as a row of the Parquet schema: number and text columns split, one column per entity type,
    `extra` fields as JSON text."""
    row: dict[str, Any] = {k: _text(c.get(k)) for k in STRING}
    row.update({k: int(c[k]) if c.get(k) is not None else None for k in INTS})
    row.update({k: float(c[k]) if is_number(c.get(k)) else None for k in FLOATS})
    for k in SPLIT:
        v = c.get(k)
        if is_number(v):
            row[k], row[f"{k}_text"] = float(v), None
        else:
            row[k], row[f"{k}_text"] = None, None if v is None else str(v)
    ents = c.get("entities") or {}
    row.update({f"entity_{k}": _text(ents.get(k)) for k in ENTITY_KEYS})
    row["evidence"] = [str(e) for e in c.get("evidence") or []]
    row["compared_to"] = _text(c.get("compared_to"))
    row.update({k: _text(c.get(k)) for k in extra})
    return row


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:  # a dependency in pyproject; the hint is for hand-made environments
        raise ImportError("claims.parquet needs pyarrow: pip install 'pyarrow>=15,<27'") from exc
    return pa, pq


def extra_columns(keys: Iterable[str]) -> list[str]:
    """Fields a later version added to the claims, beyond the typed columns: kept as JSON text."""
    return sorted(set(keys) - SKIP)


def write_parquet(fh: IO[bytes], rows: Iterable[dict[str, Any]], extra: list[str], batch: int = 20_000) -> None:
    """Write the claims to `fh` in row groups of `batch`, so a corpus of any size is never held whole.
    `extra` must name every field of `rows` that extra_columns() keeps (found by a pass before)."""
    pa, pq = _pyarrow()
    schema = _schema(extra)
    # From Python columns with an explicit schema: typed columns even when there are no claims at all.
    names = schema.names
    with pq.ParquetWriter(fh, schema, compression="zstd") as writer:
        columns: dict[str, list[Any]] = {k: [] for k in names}
        n = 0
        for c in rows:
            row = claim_row(c, extra)
            for k in names:
                columns[k].append(row[k])
            n += 1
            if n >= batch:
                writer.write_table(pa.Table.from_pydict(columns, schema=schema))
                columns, n = {k: [] for k in names}, 0
        if n:
            writer.write_table(pa.Table.from_pydict(columns, schema=schema))


def claims_parquet(claims: list[dict[str, Any]]) -> bytes:
    """The claims as the bytes of a Parquet file."""
    buf = io.BytesIO()
    write_parquet(buf, claims, extra_columns(k for c in claims for k in c))
    return buf.getvalue()
