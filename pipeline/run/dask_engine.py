"""Batch runs on a Dask cluster: the same per-article function, spread over many processes or machines.

`map_articles` runs `process_path` (the unit of work every runner calls) for each job and yields
`(job index, result)` as results complete, in completion order.  It streams: at most a few tasks per
worker thread are in flight, and each result is handed over and released before the next job is
submitted, so memory stays flat however many articles there are (the caller writes each result out).

Heavy state (spaCy and jieba pipelines, language data, knowledge base, official tables) is loaded once
per worker process: a worker plugin warms the per-process cached Pipeline when a worker joins (and
again when the nanny restarts a dead one), so the first articles don't pay for it and no task reloads it.

dask is an optional extra, imported only here: pip install 'newsclaims[dask]'.  Without a scheduler
address a LocalCluster of `workers` processes (one thread each: the pipeline is CPU-bound, pure Python)
is started and torn down around the run; with one, the workers there must have newsclaims installed
and see the article paths.  LocalCluster spawns its workers, so a script that calls this needs the usual
`if __name__ == "__main__":` guard (the `newsclaims` command has it).

The per-article time limit (settings.article_timeout) holds here too: dask cannot stop a running task
short of restarting its worker, so each worker runs its articles in a child process of its own
(pipeline/run/isolated.py), started at warm-up and replaced when an article passes the limit.  A worker
that dies is retried by the scheduler, and a task that keeps killing workers comes back as a "crashed"
error result.
"""

from __future__ import annotations

import logging
import math
import queue
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.records import ArticleError, ArticleResult
from pipeline.run.isolated import IsolatedRunner
from pipeline.run.process import failure_result, process_path
from pipeline.run.worker import warm_up
from pipeline.settings import Settings

INSTALL_HINT = "the dask engine needs the 'dask' extra: pip install 'newsclaims[dask]'"
# Tasks in flight per worker thread: enough that a worker never waits for the client, few enough
# that results don't pile up in memory.
IN_FLIGHT_PER_THREAD = 4

log = logging.getLogger(__name__)

Job = tuple[str, str, Settings]


def _distributed() -> Any:
    try:
        from dask import distributed
    except ImportError as exc:
        raise ConfigError(INSTALL_HINT) from exc
    return distributed


# Per worker process: idle article processes (one per worker thread in use), see _run_job.
_RUNNERS: queue.SimpleQueue[IsolatedRunner] = queue.SimpleQueue()


def limited(settings: Settings) -> bool:
    """Whether the settings set a per-article time limit the dask workers must enforce."""
    return 0 < settings.article_timeout < math.inf


def _run_job(path: str, root: str, settings: Settings) -> ArticleResult:
    """The article, under settings.article_timeout: in a child process of this worker that is killed when
    the limit passes (a dask task cannot be stopped otherwise), so the worker stays healthy and the
    article is reported as "timeout", as the local pool does.  Without a limit, here in the worker."""
    if not limited(settings):
        return process_path(Path(path), Path(root), settings)
    try:
        runner = _RUNNERS.get_nowait()
    except queue.Empty:
        runner = IsolatedRunner([settings])
    try:
        result, failure, detail = runner.run((path, root, settings), settings.article_timeout)
    finally:
        _RUNNERS.put(runner)
    if result is not None:
        return result
    doc = _doc(path, root)
    return failure_result(doc, failure or "crashed", detail, Path(path))


def runner_starts() -> int:
    """Article processes started by this worker so far (for tests: a warm worker starts one)."""
    runners = []
    while True:
        try:
            runners.append(_RUNNERS.get_nowait())
        except queue.Empty:
            break
    for r in runners:
        _RUNNERS.put(r)
    return sum(r.starts for r in runners)


def _plugin(settings: list[Settings]) -> Any:
    """A WorkerPlugin (built here so that importing this module doesn't need dask)."""
    distributed = _distributed()

    class WarmUp(distributed.WorkerPlugin):  # type: ignore[misc,name-defined]
        def __init__(self, settings: list[Settings]) -> None:
            self.settings = settings

        async def setup(self, worker: Any) -> None:
            import asyncio

            # In a thread, not on the worker's event loop: loading takes seconds and the worker must
            # keep answering the scheduler meanwhile.
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(None, _warm, self.settings)
            except Exception:  # noqa: BLE001 - the articles will report the error themselves
                log.exception("newsclaims warm-up failed on %s", worker.address)

        def teardown(self, worker: Any) -> None:
            _stop_runners()  # a module-level function: cloudpickle sends it by name, not the queue it uses

    return WarmUp(settings)


def _stop_runners() -> None:
    while True:
        try:
            _RUNNERS.get_nowait().stop()
        except queue.Empty:
            return


def _warm(settings: list[Settings]) -> None:
    """Load what the first article needs: the article process (time-limited runs), or this process."""
    timed = [s for s in settings if limited(s)]
    if timed:
        runner = IsolatedRunner(timed)
        runner.start()
        _RUNNERS.put(runner)
    for s in settings:
        if not limited(s):
            warm_up(s)


def _doc(path: str, root: str) -> str:
    from pipeline.ingest.read import doc_id

    try:
        return doc_id(Path(path), Path(root))
    except Exception:  # noqa: BLE001 - a path outside root still needs a result
        return str(path)


def _lost(job: Job, exc: BaseException) -> ArticleResult:
    """The result for a task the cluster could not finish: its worker died (out of memory, a crash in C
    code) as often as the scheduler allows.  "crashed", as the local pool says, so a rerun retries it."""
    path, root, _ = job
    doc = _doc(path, root)
    detail = (f"the dask worker processing it died ({type(exc).__name__}: {exc}); other articles were not "
              "affected: please report it")
    return ArticleResult(doc=doc, sha256="", error=ArticleError(doc, "crashed", detail))


def map_articles(jobs: list[Job], scheduler: str | None = None,
                 workers: int = 2) -> Iterator[tuple[int, ArticleResult]]:
    """Run process_path for every (path, root, settings) job on a Dask cluster; yield (index, result)
    as each completes.  `scheduler`: address of a running scheduler (tcp://host:8786), or None for a
    LocalCluster of `workers` single-threaded processes."""
    distributed = _distributed()
    if not jobs:
        return
    cluster = None
    if scheduler is None:
        cluster = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.WARNING)
        client = distributed.Client(cluster)
    else:
        client = distributed.Client(scheduler)
    try:
        kinds = list(dict.fromkeys(job[2] for job in jobs))
        client.register_plugin(_plugin(kinds), name="newsclaims-warm-up")
        threads = sum(client.nthreads().values()) or max(1, workers)
        yield from _stream(client, jobs, IN_FLIGHT_PER_THREAD * threads, distributed.as_completed)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _stream(client: Any, jobs: list[Job], limit: int, as_completed: Any) -> Iterator[tuple[int, ArticleResult]]:
    pending = iter(enumerate(jobs))
    index: dict[str, int] = {}
    run = uuid.uuid4().hex[:10]  # keys unique on a shared scheduler

    def submit() -> Any | None:
        nxt = next(pending, None)
        if nxt is None:
            return None
        i, (path, root, settings) = nxt
        fut = client.submit(_run_job, path, root, settings, pure=False, key=f"newsclaims-{run}-{i}")
        index[fut.key] = i
        return fut

    first = [f for f in (submit() for _ in range(limit)) if f is not None]
    done = as_completed(first)
    for fut in done:
        i = index.pop(fut.key)
        try:
            result = fut.result()
        except Exception as exc:  # noqa: BLE001 - one lost task must not stop the batch
            result = _lost(jobs[i], exc)
        fut.release()
        nxt = submit()
        if nxt is not None:
            done.add(nxt)
        yield i, result
