"""One article at a time in a child process of its own, with a time limit: what the local pool guarantees,
for runners that cannot fork (a dask worker is multi-threaded, and usually a daemon process, which
multiprocessing refuses to give children).

The child is a plain `python -m pipeline.run.isolated` started with pipes: the parent sends pickled
(path, root, settings) jobs on its stdin and reads pickled results from its stdout, each framed by its
length.  A job past its time limit has the child killed (SIGKILL: a stuck regular expression holds the
GIL and ignores gentler signals) and a fresh child started for the next job; a child that dies costs only
its job.  The child loads the pipeline once, when it starts, and dies with its parent.
"""

from __future__ import annotations

import math
import os
import pickle
import select
import struct
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from pipeline.errors import WorkerStartError
from pipeline.records import ArticleResult
from pipeline.settings import Settings

_HEADER = struct.Struct("!Q")
# Loading the pipeline takes seconds; a child not ready after this long is stuck, not slow.
STARTUP_TIMEOUT = 600.0


def _send(fh: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    fh.write(_HEADER.pack(len(data)) + data)
    fh.flush()


def _recv(fh: IO[bytes]) -> Any:
    head = fh.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("the child process closed its pipe")
    (size,) = _HEADER.unpack(head)
    data = fh.read(size)
    if len(data) < size:
        raise EOFError("the child process closed its pipe mid-message")
    return pickle.loads(data)  # noqa: S301 - our own child process, over a private pipe


class IsolatedRunner:
    """A long-lived child process that runs one job at a time.  Not thread-safe: one per thread."""

    def __init__(self, warm: list[Settings] | None = None) -> None:
        self.warm = list(warm or [])
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        """Start the child (if it is not running) and wait until its pipeline is loaded."""
        if self.proc is not None and self.proc.poll() is None:
            return
        self.proc = subprocess.Popen([sys.executable, "-m", "pipeline.run.isolated", str(os.getpid())],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.starts += 1
        assert self.proc.stdin is not None and self.proc.stdout is not None
        _send(self.proc.stdin, ("warm", self.warm))
        if not self._readable(STARTUP_TIMEOUT):
            self.stop()
            raise WorkerStartError(f"the article process did not start within {STARTUP_TIMEOUT:g} s")
        try:
            kind, detail = _recv(self.proc.stdout)
        except EOFError as exc:
            code = self.proc.wait(5)
            self.proc = None
            raise WorkerStartError(f"the article process died while starting (exit status {code})") from exc
        if kind != "ready":
            self.stop()
            raise WorkerStartError(f"the article process could not load the pipeline: {detail}")

    def _readable(self, timeout: float) -> bool:
        assert self.proc is not None and self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], None if math.isinf(timeout) else max(0.0, timeout))
        return bool(ready)

    def run(self, job: tuple[str, str, Settings], timeout: float) -> tuple[ArticleResult | None, str | None, str]:
        """(result, None, "") or (None, "timeout" | "crashed", detail)."""
        self.start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        try:
            _send(self.proc.stdin, ("job", job))
        except (BrokenPipeError, OSError):
            return None, "crashed", self._died()
        if not self._readable(timeout):
            self.stop()
            return None, "timeout", f"{timeout:g}"
        try:
            kind, payload = _recv(self.proc.stdout)
        except (EOFError, OSError):
            return None, "crashed", self._died()
        if kind == "error":
            return None, "crashed", str(payload)
        return payload, None, ""

    def _died(self) -> str:
        from pipeline.run.pool import _exit_reason

        assert self.proc is not None
        try:
            code = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.stop()
            code = None
        self.proc = None
        return _exit_reason(code)

    def stop(self) -> None:
        """Stop the child process, if one runs."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for fh in (self.proc.stdin, self.proc.stdout):
            if fh is not None:
                fh.close()
        self.proc = None


def _child(parent: int) -> None:
    from pipeline.run.pool import _die_with_parent
    from pipeline.run.process import process_path
    from pipeline.run.worker import warm_up

    _die_with_parent()
    if os.getppid() != parent:
        return
    # stdout is the result pipe: anything a library prints goes to stderr instead
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    kind, warm = _recv(inp)
    try:
        for settings in warm:
            warm_up(settings)
    except Exception as exc:  # noqa: BLE001 - the parent reports it
        _send(out, ("failed", f"{type(exc).__name__}: {exc}"))
        return
    _send(out, ("ready", None))
    while True:
        try:
            kind, job = _recv(inp)
        except EOFError:
            return
        path, root, settings = job
        try:
            _send(out, ("done", process_path(Path(path), Path(root), settings)))
        except Exception as exc:  # noqa: BLE001 - process_path should not raise; a lost job is worse
            _send(out, ("error", f"{type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    _child(int(sys.argv[1]))
