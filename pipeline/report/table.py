"""claims.parquet: the claims as a typed table for pandas (`pd.read_parquet`), DuckDB or a spreadsheet's Parquet import.

JSON's value and official fields mix numbers and ISO dates; Parquet columns have one type, so each becomes a
float column plus a text column (`value_text`, `official_text`) that holds the non-numeric ones.  Entities
become one column per type; nested fields (compared_to, and any field a later version adds) are JSON text.

Rows reach Arrow column by column, each column's buffers (values, offsets, validity bits) built here and
handed to `Array.from_buffers`: building arrays from Python lists (`pa.array`) makes pyarrow import pandas
(0.7 s of a run's merge, for nothing else), and a round trip through JSON lines and pyarrow's JSON reader
cost the merge as much again as the rows themselves.
"""

from __future__ import annotations

import array
import contextlib
import importlib.util
import io
import itertools
import math
import os
from collections.abc import Iterable
from typing import IO, Any

from pipeline.fileio import json_text
from pipeline.report.fmt import ENTITY_KEYS, is_number

STRING = ("id", "doc", "lang", "sentence", "text", "kind", "unit", "counted", "bound", "ratio_reading",
          "reading_cue", "bound_cue", "metric", "verdict", "explanation", "distortion")
INTS = ("start", "end")
FLOATS = ("of_total", "low", "high")
SPLIT = ("value", "official")  # number or text
CONVERT_ROWS = 2_000
SKIP = {"entities", "evidence", "compared_to", "display", *STRING, *INTS, *FLOATS, *SPLIT}


def columns(extra: list[str]) -> list[tuple[str, str]]:
    """The table's columns in order, each with its type (string, int64, float64 or list: the evidence)."""
    cols = [(k, "string") for k in STRING[:7]] + [(k, "int64") for k in INTS]
    for k in SPLIT:
        cols += [(k, "float64"), (f"{k}_text", "string")]
    cols += [(k, "float64") for k in FLOATS] + [(k, "string") for k in STRING[7:]]
    cols += [(f"entity_{k}", "string") for k in ENTITY_KEYS]
    cols += [("evidence", "list"), ("compared_to", "string")] + [(k, "string") for k in extra]
    return cols


def _schema(extra: list[str]) -> Any:
    import pyarrow as pa

    types = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "list": pa.list_(pa.string())}
    return pa.schema([pa.field(name, types[kind]) for name, kind in columns(extra)])


def _text(x: Any) -> str | None:
    if x is None:
        return None
    return x if isinstance(x, str) else json_text(x, sort_keys=True)


def claim_row(c: dict[str, Any], extra: list[str]) -> dict[str, Any]:
    """One claim as a row of the table: number and text columns split, one column per entity type, `extra`
    fields as JSON text (each column's values as `_column` reads them)."""
    return {name: _column(name, [c])[0] for name, _ in columns(extra)}


def arrow_table(pa: Any, schema: Any, claims: list[dict[str, Any]]) -> Any:
    """Claims as an Arrow table of `schema` (claim_row's rows, made column by column: one pass per column
    instead of a dict per claim), each column built from its buffers.  As in JSON, a float that is not
    finite (NaN, infinity) is null."""
    n = len(claims)
    string, int64, float64 = pa.string(), pa.int64(), pa.float64()
    fields = by_field(claims)
    entities = [e or {} for e in fields["entities"]] if "entities" in fields else [c.get("entities") or {}
                                                                                  for c in claims]
    arrays = []
    for f in schema:
        name, kind = f.name, f.type  # (pyarrow makes each anew when asked)
        values = _column(name, claims, entities, fields)
        if kind == string:
            arrays.append(_strings(pa, values))
        elif kind == int64:
            arrays.append(_numbers(pa, int64, "q", values))
        elif kind == float64:  # _column gave finite floats and None only
            arrays.append(_numbers(pa, float64, "d", values))
        else:  # list<string>: the evidence, a list on every row
            items: list[str | None] = [item for v in values for item in v]
            offsets = array.array("i", [0])
            offsets.extend(itertools.accumulate(map(len, values)))
            arrays.append(pa.Array.from_buffers(kind, n, [None, pa.py_buffer(offsets)],
                                                children=[_strings(pa, items)]))
    return pa.Table.from_arrays(arrays, schema=schema)


def by_field(claims: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The claims' values field by field, when every claim has the same fields in the same order (a run's
    claims do: one transposition instead of a pass over the claims per column); {} when they differ."""
    if not claims:
        return {}
    keys = list(claims[0])
    if not all([list(c) == keys for c in claims]):
        return {}
    return dict(zip(keys, map(list, zip(*[c.values() for c in claims], strict=True)), strict=True))


def _column(name: str, claims: list[dict[str, Any]], entities: list[dict[str, Any]] | None = None,
            fields: dict[str, list[Any]] | None = None) -> list[Any]:
    """One column's values, read off the claims: the one place that says what a claim puts in each column.
    (Each is a list comprehension over the column with a check of its value types: most columns hold only
    what they show, and a call per cell was most of the merge's table.)  `fields`: by_field's transposition
    of the same claims, where it has one."""
    key = _TEXT_OF.get(name)
    field_values = fields.get(key or name) if fields else None
    if name in _INT_SET:
        ints = field_values if field_values is not None else [c.get(name) for c in claims]
        return [None if v is None else int(v) for v in ints]
    if name in _ENTITY_OF:
        if entities is None:
            entities = [c.get("entities") or {} for c in claims]
        values = [e.get(_ENTITY_OF[name]) for e in entities]
    elif field_values is not None:
        values = field_values  # (read, never changed: the split columns read the same field twice)
    else:
        values = [c.get(key or name) for c in claims]
    kinds = set(map(type, values))
    if name in _FLOAT_SET:  # a finite number (not a bool) as a float, else null
        if kinds <= _FLOATS_OR_NONE and math.isfinite(sum([v for v in values if v is not None])):
            return values
        return [float(v) if is_number(v) else None for v in values]
    if key is not None:  # the value where it is not a number (NaN and infinities are shown as text)
        if kinds <= _NUMBERS_OR_NONE and math.isfinite(sum([v for v in values if v is not None])):
            return [None] * len(values)
        return [None if v is None or is_number(v) else str(v) for v in values]
    if name == "evidence":  # a list of ids on every row
        lists = [v or [] for v in values]
        if kinds <= _LISTS_OR_NONE and set(map(type, itertools.chain.from_iterable(lists))) <= _TEXT:
            return [list(v) for v in lists]
        return [[str(e) for e in v or []] for v in values]
    if kinds <= _TEXT_OR_NONE:  # the text columns, compared_to and the extra fields
        return values
    return [_text(v) for v in values]


_INT_SET, _FLOAT_SET = frozenset(INTS), frozenset((*FLOATS, *SPLIT))
_TEXT_OF = {f"{k}_text": k for k in SPLIT}  # value_text: the value where it is not a number
_ENTITY_OF = {f"entity_{k}": k for k in ENTITY_KEYS}
# value types met in a column, by exact type: a subclass (bool of int) takes the per-cell path
_FLOATS_OR_NONE = frozenset((float, type(None)))
_NUMBERS_OR_NONE = frozenset((int, float, type(None)))
_TEXT_OR_NONE = frozenset((str, type(None)))
_LISTS_OR_NONE = frozenset((list, type(None)))
_TEXT = frozenset((str,))


def _validity(values: list[Any]) -> tuple[bytes | None, int]:
    """Arrow's validity bitmap of `values` (bit i set: values[i] is not None; None when none is), and the
    number of nulls."""
    nulls = values.count(None)
    if not nulls:
        return None, 0
    # the flags as a binary numeral, last value first, read as one integer: no Python step per bit
    flags = "".join(["0" if v is None else "1" for v in values[::-1]])
    return int(flags, 2).to_bytes((len(values) + 7) // 8, "little"), nulls


def _strings(pa: Any, values: list[str | None]) -> Any:
    texts = values if None not in values else ["" if v is None else v for v in values]
    joined = "".join(texts)  # type: ignore[arg-type]
    offsets = array.array("i", [0])
    if joined.isascii():  # a character is a byte: the offsets are the texts' lengths, one encoding for all
        offsets.extend(itertools.accumulate(map(len, texts)))  # type: ignore[arg-type]
        data = joined.encode("ascii")
    else:
        encoded = [t.encode("utf-8") for t in texts]  # type: ignore[union-attr]
        offsets.extend(itertools.accumulate(map(len, encoded)))
        data = b"".join(encoded)
    valid, nulls = _validity(values)
    return pa.Array.from_buffers(pa.string(), len(values),
                                 [None if valid is None else pa.py_buffer(valid), pa.py_buffer(offsets),
                                  pa.py_buffer(data)], null_count=nulls)


def _numbers(pa: Any, kind: Any, code: str, values: list[Any]) -> Any:
    valid, nulls = _validity(values)
    data = array.array(code, [0 if v is None else v for v in values])
    return pa.Array.from_buffers(kind, len(values), [None if valid is None else pa.py_buffer(valid),
                                                     pa.py_buffer(data)], null_count=nulls)


# Arrow's allocator for claims.parquet: the C library's.  With pyarrow's default (mimalloc) a process's first
# row group took 0.2 s of fresh memory pages in about half of the runs (0.04 s with malloc, every time), and
# a run's last row group is written while the other core waits.  Passing a pool to the writer, or making it
# pyarrow's default, did not help: Arrow's own C++ takes its default pool, which it sets from this variable
# when first asked.  A setting of the user's own is kept.
ALLOCATOR = ("ARROW_DEFAULT_MEMORY_POOL", "system")


def _pyarrow() -> tuple[Any, Any]:
    os.environ.setdefault(*ALLOCATOR)
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
    stream = ParquetStream(extra, batch)
    stream.open(fh)
    for c in rows:
        stream.add(c)
    stream.close()


class ParquetStream:
    """claims.parquet written as the claims come, in row groups of `batch`: open, add each claim, close.

    The columns are fixed when it opens (the typed ones and `extra`); a claim with a field beyond them
    (a later version's) cannot be written, so from then on `complete` is False and the writer that asked for
    the stream rebuilds the table from claims.jsonl with that field's column (write_parquet)."""

    def __init__(self, extra: list[str], batch: int = 20_000) -> None:
        if importlib.util.find_spec("pyarrow") is None:
            _pyarrow()  # the ImportError that says what to install, before anything is written
        self.extra, self.batch = extra, batch
        self.known = SKIP | set(extra)
        self.complete = True
        self._fh: IO[bytes] | None = None
        self._writer: Any = None
        # pyarrow and the table's schema, loaded when the first rows are converted
        self._arrow: Any = None
        self._schema: Any = None
        self._pending: list[dict[str, Any]] = []
        # claims become Arrow tables a few thousand at a time, so that no long pause comes at the end
        self._tables: list[Any] = []
        self._rows = 0  # rows in _tables

    def open(self, fh: IO[bytes]) -> None:
        """Start the table in `fh` (pyarrow is loaded with the first rows: a run's merge opens its table before
        the workers start, and the half second of pyarrow's import then ran while the second core waited)."""
        self._fh = fh

    def _start(self) -> None:
        pa, pq = _pyarrow()
        self._arrow = pa
        self._schema = _schema(self.extra)
        self._writer = pq.ParquetWriter(self._fh, self._schema, compression="zstd")

    def add(self, c: dict[str, Any]) -> None:
        """One claim as a row."""
        if not self.complete:
            return
        if not self.known.issuperset(c):
            self.complete = False  # a field with no column: the table is rebuilt with it
            return
        self._pending.append(c)
        if len(self._pending) >= CONVERT_ROWS:
            self._convert()

    def add_all(self, rows: Iterable[dict[str, Any]]) -> None:
        """Several claims."""
        for c in rows:
            self.add(c)

    def _convert(self) -> None:
        if self._writer is None:
            self._start()
        self._tables.append(arrow_table(self._arrow, self._schema, self._pending))
        self._rows += len(self._pending)
        self._pending = []
        if self._rows >= self.batch:
            self._flush()

    def _flush(self) -> None:
        if self._tables:
            self._writer.write_table(self._arrow.concat_tables(self._tables))
        self._tables, self._rows = [], 0

    def close(self) -> None:
        """Write the last row group and the file's footer."""
        if self._pending:
            self._convert()
        if self._writer is None:  # no rows: still a table, with its columns
            self._start()
        self._flush()
        self._writer.close()

    def abandon(self) -> None:
        """Close the writer of a table that will not be kept (its file is being removed)."""
        if self._writer is not None:
            with contextlib.suppress(Exception):  # whatever the writer says now, the file is discarded
                self._writer.close()
            self._writer = None


def claims_parquet(claims: list[dict[str, Any]]) -> bytes:
    """The claims as the bytes of a Parquet file."""
    buf = io.BytesIO()
    write_parquet(buf, claims, extra_columns(k for c in claims for k in c))
    return buf.getvalue()
