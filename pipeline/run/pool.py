"""Worker processes with a per-job time limit: no article can hang a run or take it down.

concurrent.futures cannot stop one stuck task (a ProcessPoolExecutor only shuts down as a whole), so this
is a small pool of our own: each worker handles one job at a time over a pipe; a job past its deadline
has its worker killed (SIGKILL: a stuck regular expression or C extension ignores gentler signals) and
replaced; a worker that dies (out of memory, a crash in C code) costs only its current job.

Workers are forked where the platform allows, after the parent has loaded the pipeline, so a new worker
(including a replacement after a kill) starts in milliseconds instead of re-importing spaCy; elsewhere
they are spawned and warm up themselves before taking work (one that cannot stops the run, saying why).
A worker holds two jobs, the one it runs and the next, so that it never waits while the parent stores and
merges another worker's result.  A job's time limit starts when its worker starts it (as the parent learns
it: when the job before it comes back), so warm-up never counts against an article; a worker killed for
one job gives its next job back.
"""

from __future__ import annotations

import math
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from pipeline.errors import WorkerStartError
from pipeline.procs import context, uses_fork  # noqa: F401 - uses_fork is part of this module's API

MAX_FAILED_STARTS = 3
# Loading the pipeline takes seconds; a worker not ready after this long is stuck, not slow.
STARTUP_TIMEOUT = 600.0
# Jobs a worker holds at once: the one it runs and the next.  With one, a worker waited for its next job
# whenever the parent was busy with another's result (7% of a 2-worker run's worker time).
IN_FLIGHT = 2


@dataclass
class Outcome:
    """What became of one job: its result, or why there is none ("timeout" or "crashed")."""

    index: int
    result: Any = None
    failure: str | None = None
    detail: str = ""


@dataclass
class _Worker:
    proc: Any  # multiprocessing.Process of the context in use
    conn: Connection
    ready: bool = False
    jobs: deque[int] = field(default_factory=deque)  # sent and not done, in the order it runs them
    deadline: float = 0.0  # of the job it runs, or of the start-up while not ready
    told_to_stop: bool = False

    @property
    def job(self) -> int | None:
        """The job it runs (the first it holds)."""
        return self.jobs[0] if self.jobs else None

    def give_back(self) -> list[int]:
        """The jobs it holds but has not started (a worker being stopped)."""
        return list(self.jobs)[1:]


def _die_with_parent() -> None:
    """Linux: the kernel kills this worker when the parent dies (even by kill -9), so a stuck worker
    never outlives an interrupted run.  Elsewhere the closed pipe ends idle workers."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker_main(conn: Connection, parent: int, fn: Callable[[Any], Any], warm: Callable[[], None] | None) -> None:
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        _serve(conn, fn, warm)
    except OSError:  # the pipe broke: the run is gone (a traceback would only clutter the terminal)
        return


def _serve(conn: Connection, fn: Callable[[Any], Any], warm: Callable[[], None] | None) -> None:
    if warm is not None:
        try:
            warm()
        except Exception as exc:  # noqa: BLE001 - said to the run, which stops with it: every worker would fail
            conn.send(("failed", None, f"{type(exc).__name__}: {exc}"))
            return
    conn.send(("ready", None, None))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        index, job = msg
        try:
            reply = ("done", index, fn(job))
        except Exception as exc:  # noqa: BLE001 - fn should not raise, but a lost job is worse than a report
            reply = ("error", index, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except OSError:
            raise  # the pipe broke: the run is gone
        except Exception as exc:  # noqa: BLE001 - a result that cannot be sent is reported, not lost
            conn.send(("error", index, f"{type(exc).__name__}: {exc}"))


def run_jobs(jobs: Sequence[Any], fn: Callable[[Any], Any], workers: int, timeout: float,
             warm: Callable[[], None] | None = None) -> Iterator[Outcome]:
    """Run fn(job) for every job in `workers` processes, yielding an Outcome per job as it finishes (in
    completion order).  A job running longer than `timeout` seconds yields failure "timeout"; one whose
    worker died yields "crashed".  fn and warm must be module-level functions (picklable for spawn).  A
    worker whose `warm` raises stops the run with WorkerStartError, saying why (every worker would fail)."""
    if not jobs:
        return
    pool = _Pool(jobs, fn, warm, workers, timeout)
    try:
        for _ in range(min(workers, len(jobs))):
            pool.start()
        while pool.remaining:
            if not pool.workers:
                pool.start()
            ready = pool.wait()
            for w in list(pool.workers):
                yield from pool.handle(w, ready)
            yield from pool.expire()
    finally:
        pool.close()


class _Pool:
    """The workers of one run_jobs call and the jobs not yet done."""

    def __init__(self, jobs: Sequence[Any], fn: Callable[[Any], Any], warm: Callable[[], None] | None,
                 size: int, timeout: float) -> None:
        self.jobs, self.fn, self.warm, self.size, self.timeout = jobs, fn, warm, size, timeout
        self.ctx = context()
        self.pending = list(range(len(jobs)))[::-1]  # a stack: pop() gives jobs in order
        self.workers: list[_Worker] = []
        self.failed_starts = 0
        self.remaining = len(jobs)

    def start(self) -> None:
        """Start one worker process; it reports ready once it has loaded the pipeline."""
        parent_end, child_end = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main, args=(child_end, os.getpid(), self.fn, self.warm), daemon=True)
        proc.start()
        child_end.close()
        self.workers.append(_Worker(proc, parent_end, deadline=time.monotonic() + STARTUP_TIMEOUT))

    def stop(self, w: _Worker) -> None:
        """Remove a worker: kill it if it still runs and close its pipe."""
        self.workers.remove(w)
        if w.proc.is_alive():
            w.proc.kill()
        w.proc.join(5)
        w.conn.close()

    def assign(self, w: _Worker) -> None:
        """Give a worker jobs until it holds IN_FLIGHT, or tell it there are none left."""
        while len(w.jobs) < IN_FLIGHT and self.pending:
            job = self.pending.pop()
            try:
                w.conn.send((job, self.jobs[job]))
            except OSError:  # the worker died meanwhile: the job goes back, its sentinel reports the death
                self.pending.append(job)
                return
            if not w.jobs:
                w.deadline = time.monotonic() + self.timeout  # it starts this one now
            w.jobs.append(job)
        if not self.pending and not w.told_to_stop:
            w.told_to_stop = True
            try:
                w.conn.send(None)  # no more work: it exits after the jobs it holds
            except OSError:
                pass

    def requeue(self, jobs: list[int]) -> None:
        """Jobs a stopped worker held but never started: back to the front of the queue, in order."""
        self.pending.extend(reversed(jobs))

    def wait(self) -> list[Any]:
        """The pipes and process sentinels that have news, waiting at most until the nearest deadline."""
        now = time.monotonic()
        busy = [w.deadline for w in self.workers if w.job is not None or not w.ready]
        wait_for = max(0.0, min(busy) - now) if busy else None
        if wait_for is not None and math.isinf(wait_for):  # no time limit
            wait_for = None
        return wait([w.conn for w in self.workers] + [w.proc.sentinel for w in self.workers], timeout=wait_for)

    def handle(self, w: _Worker, ready: list[Any]) -> list[Outcome]:
        """What one worker's news means: it is ready, it finished a job, or it died."""
        dead = w.proc.sentinel in ready
        if w.conn in ready:
            try:
                kind, index, payload = w.conn.recv()
            except (EOFError, OSError):  # the worker is gone (its sentinel may lag behind)
                kind, index, payload, dead = "dead", None, None, True
            if kind == "ready":
                w.ready = True
                self.failed_starts = 0
                self.assign(w)
            elif kind == "failed":  # it could not load what every article needs: no worker will
                raise WorkerStartError(f"a worker process could not load the pipeline: {payload}")
            elif kind in ("done", "error"):
                if index in w.jobs:
                    w.jobs.remove(index)  # the first it holds: jobs come back in the order sent
                if w.jobs:
                    w.deadline = time.monotonic() + self.timeout  # it went on to the next one it holds
                self.remaining -= 1
                # the next job first: the worker holds it while the caller stores this result
                self.assign(w)
                return [Outcome(index, result=payload) if kind == "done"
                        else Outcome(index, failure="crashed", detail=payload)]
            if kind != "dead":
                return []
        if not dead:
            return []
        w.proc.join(1)
        code = w.proc.exitcode
        job, was_ready, held = w.job, w.ready, w.give_back()
        self.stop(w)
        self.requeue(held)
        out = []
        if job is not None:
            self.remaining -= 1
            out.append(Outcome(job, failure="crashed", detail=_exit_reason(code)))
        elif not was_ready:
            self._failed_start(f"worker processes die before they start ({_exit_reason(code)})")
        self._refill()
        return out

    def _failed_start(self, why: str) -> None:
        """A worker that died or hung before it was ready: too many in a row and the run stops."""
        self.failed_starts += 1
        if self.failed_starts >= MAX_FAILED_STARTS:
            raise WorkerStartError(why)

    def _refill(self) -> None:
        if self.pending and len(self.workers) < self.size:
            self.start()

    def expire(self) -> list[Outcome]:
        """Workers past their deadline are stopped: a job running too long is a timeout, a worker too slow
        to start a failed start."""
        out = []
        now = time.monotonic()
        for w in list(self.workers):
            if now < w.deadline or (w.ready and w.job is None):
                continue
            job, held = w.job, w.give_back()
            self.stop(w)
            self.requeue(held)
            if job is not None:
                self.remaining -= 1
                out.append(Outcome(job, failure="timeout", detail=f"{self.timeout:g}"))
            else:
                self._failed_start(f"worker processes take over {STARTUP_TIMEOUT:g} s to start")
            self._refill()
        return out

    def close(self) -> None:
        """Tell every worker to finish, then stop those that do not."""
        for w in list(self.workers):
            try:
                w.conn.send(None)
            except OSError:
                pass
        for w in list(self.workers):
            w.proc.join(0.5)
            self.stop(w)


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "the worker process did not exit"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (killed: often out of memory)" if -code == signal.SIGKILL else ""
        return f"the worker process died of {name}{hint}"
    return f"the worker process exited with status {code}"
