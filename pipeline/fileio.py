"""Atomic writes: a crash mid-write leaves the previous file intact (temp file + fsync + rename).

A reader sees either the old file or the new one, never a half-written one.  Temporary files are named
`.<name>.<random>.tmp` beside their target, so a run that was killed mid-write leaves only such names,
which the next run removes (`remove_stale_temps`) while it holds the folder's lock (`locked_dir`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from pipeline.errors import WRITE_ERRNOS, CorruptFileError, OutputDirError, OutputWriteError

LOCK_NAME = ".lock"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write `data` to `path` through a temporary file, renamed over it: a reader sees the old file or the
    new one, never half of one.  `durable` also syncs the file and the rename to disk before returning;
    a file that checks itself when read (a run's parts carry their own length) can skip that wait."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, _MODE)  # mkstemp makes 0600 files; outputs are for sharing
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable:
        _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# `.<name>.<8 characters of mkstemp>.tmp`: only names of that shape are ours to remove, so a user's own
# `.notes.tmp` beside the outputs survives
_TEMP_NAME = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


@contextlib.contextmanager
def writing_to(folder: Path) -> Iterator[None]:
    """Inside: an OSError that says `folder` cannot take a write (read-only, full, no permission) becomes
    an OutputWriteError naming it.  One about another path (an input file) passes unchanged."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in WRITE_ERRNOS:
            raise
        where = Path(folder)
        if exc.filename is not None:
            inside = os.path.realpath(where)
            target = os.path.realpath(os.fsdecode(exc.filename))
            if target != inside and not target.startswith(inside + os.sep):
                raise
        raise OutputWriteError(where, exc) from exc


def remove_stale_temps(folder: Path) -> int:
    """Remove temporary files that a killed writer left in `folder` (not recursive); how many."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if _TEMP_NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError:
                pass
    return removed


@contextlib.contextmanager
def locked_dir(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` (POSIX advisory lock on folder/.lock): two runs writing into
    one output folder would interleave their parts; the second is refused with a clear message.  The
    lock dies with its process, so a run killed with -9 never leaves the folder locked."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; runs are not guarded against each other
        yield
        return
    fd = os.open(Path(folder) / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise OutputDirError(f"{folder}: another newsclaims run is writing to this folder; wait for it "
                                 "or choose another --out") from exc
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_writers(paths: Iterable[Path]) -> Iterator[dict[Path, IO[bytes]]]:
    """Binary handles to temporary files beside `paths`, for writing large outputs piece by piece.  When
    the block ends without an error they are synced and renamed over their targets one after the other
    (milliseconds), so a crash leaves the previous set rather than a mix; on an error, nothing changes."""
    staged: dict[Path, tuple[str, IO[bytes]]] = {}
    try:
        for path in paths:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            os.chmod(tmp, _MODE)  # mkstemp makes 0600 files; outputs are for sharing
            staged[path] = (tmp, os.fdopen(fd, "wb"))
        yield {path: fh for path, (_, fh) in staged.items()}
        for _, fh in staged.values():
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
        for path, (tmp, _) in staged.items():
            os.replace(tmp, path)
    finally:
        for tmp, fh in staged.values():
            fh.close()
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
    for folder in {path.parent for path in staged}:
        _fsync_dir(folder)


def atomic_write_files(files: dict[Path, bytes]) -> None:
    """Write several files so that a crash leaves as few of them mixed (old and new) as possible."""
    files = {Path(k): v for k, v in files.items()}
    with atomic_writers(files) as handles:
        for path, fh in handles.items():
            fh.write(files[path])


# Where the per-machine caches go when the system's temp folder is not the place (a test suite keeps its own,
# so that a run afterwards finds what runs stored, not what the tests' processes left)
CACHE_DIR_ENV = "NEWSCLAIMS_CACHE_DIR"


def chosen_cache_dir() -> Path | None:
    """$NEWSCLAIMS_CACHE_DIR, made private if it does not exist; None when it is not set.  A folder that
    cannot be made only means no cache."""
    own = os.environ.get(CACHE_DIR_ENV)
    if not own:
        return None
    path = Path(own).expanduser()
    with contextlib.suppress(OSError):
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    """The folder of what newsclaims builds once per machine and reuses (compiled patterns, jieba's dictionary
    trie, the HTML reader's stop-list, compiled report templates): the chosen one, else the temp folder."""
    return chosen_cache_dir() or Path(tempfile.gettempdir())


def own_cache_file(path: Path) -> bool:
    """Whether a cache file in a shared folder (the system's temp folder) may be read: a regular file of
    this user's that no one else may write, so another user cannot plant what this process loads."""
    try:
        st = Path(path).stat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return stat.S_ISREG(st.st_mode) and mine and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def write_cache_file(path: Path, data: bytes) -> bool:
    """Write a cache file in a shared folder atomically, readable by all and writable by this user only (so
    that own_cache_file accepts it whatever the umask); whether it was written.  A cache that cannot be
    written (a read-only temp folder) only means the next process builds the value again."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return False
    return True


def jsonl_bytes(rows: Iterable[dict[str, Any]]) -> bytes:
    """Rows as JSON lines (UTF-8, one object per line, compact; NaN and infinity as null)."""
    return b"".join(orjson.dumps(r, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE) for r in rows)


def json_text(value: Any, sort_keys: bool = False) -> str:
    """`value` as compact JSON text (as claims.csv and claims.parquet hold nested fields)."""
    option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    return orjson.dumps(value, option=option).decode("utf-8")


def json_loads(data: bytes | str) -> Any:
    """A JSON document (orjson: about three times as fast as the json module on our lines).  What orjson
    refuses is read by the json module, which also takes the NaN and Infinity that Python's own writer
    puts in files another tool made; ValueError when neither can read it."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` as UTF-8, atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write rows to `path` as JSON lines, atomically."""
    atomic_write_bytes(path, jsonl_bytes(rows))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file; a damaged line is a CorruptFileError naming file and line."""
    rows = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise CorruptFileError(f"{path}:{n}: not a JSON line ({exc.msg}); the file is damaged: "
                                           "write it again (rerun, or restore it)") from exc
    return rows
