"""The worker pool (pipeline/run/pool.py): a worker holds the job it runs and the next one; whatever one job
does (hang, kill its process), every other job still comes back exactly once, whether the workers are
forked or spawned; a held job's time limit starts when its worker starts it; a worker that cannot load
stops the run with its reason."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time

import pytest

from pipeline.errors import WorkerStartError
from pipeline.run import pool
from pipeline.run.pool import run_jobs


@pytest.fixture(params=["fork", "spawn"])
def start_method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Workers forked (Linux) or spawned (macOS, Windows)."""
    if request.param not in mp.get_all_start_methods():
        pytest.skip(f"no {request.param} here")
    monkeypatch.setattr(pool, "context", lambda: mp.get_context(request.param))
    return request.param


def _job(job: tuple[str, float]) -> float:
    kind, value = job
    if kind == "hang":
        time.sleep(3600)
    if kind == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "sleep":
        time.sleep(value)
    return value * 2


@pytest.mark.parametrize("workers", [1, 2])
def test_every_job_comes_back_once_whatever_the_jobs_beside_it_do(workers: int, start_method: str) -> None:
    jobs = [("ok", 1), ("hang", 2), ("ok", 3), ("crash", 4), ("ok", 5), ("crash", 6), ("ok", 7), ("hang", 8),
            ("ok", 9)]
    outcomes = list(run_jobs(jobs, _job, workers, timeout=1.0))
    assert sorted(o.index for o in outcomes) == list(range(len(jobs)))  # each once
    for o in outcomes:
        kind, value = jobs[o.index]
        expected = {"ok": (value * 2, None), "hang": (None, "timeout"), "crash": (None, "crashed")}[kind]
        assert (o.result, o.failure) == expected, jobs[o.index]


def test_a_held_jobs_time_limit_starts_when_its_worker_starts_it() -> None:
    # one worker holds both: the second waits 0.8 s behind the first, then runs 0.8 s of its 1.5 s
    outcomes = list(run_jobs([("sleep", 0.8), ("sleep", 0.8)], _job, 1, timeout=1.5))
    assert [(o.index, o.failure) for o in sorted(outcomes, key=lambda o: o.index)] == [(0, None), (1, None)]


def test_a_ready_worker_holds_the_next_job_too() -> None:
    p = pool._Pool([("ok", n) for n in range(5)], _job, None, 1, 60.0)
    p.start()
    try:
        w = p.workers[0]
        while not w.ready:
            for _ in p.handle(w, p.wait()):
                pass
        assert len(w.jobs) == pool.IN_FLIGHT == 2
    finally:
        p.close()


def _cannot_load() -> None:
    raise ValueError("lexicon zh.yaml: line 3 is not a mapping")


def test_a_worker_that_cannot_load_stops_the_run_with_its_reason(start_method: str) -> None:
    # at once, with the reason: not after three workers died "before they start"
    with pytest.raises(WorkerStartError, match="could not load the pipeline: ValueError: lexicon zh.yaml: line 3"):
        list(run_jobs([("ok", 1), ("ok", 2)], _job, 2, timeout=60.0, warm=_cannot_load))
