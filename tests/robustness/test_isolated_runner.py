"""The article process of the dask engine: results equal to the in-process function, a time limit that
kills and replaces it, and a process that dies costs only its article."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hostile import EN, SENTENCE

from pipeline.run.isolated import IsolatedRunner
from pipeline.run.process import process_path
from pipeline.settings import Settings


@pytest.fixture
def runner():
    r = IsolatedRunner([Settings()])
    yield r
    r.stop()


def test_a_job_gives_what_the_function_gives_in_process(runner: IsolatedRunner):
    job = (str(EN), str(EN.parent), Settings())
    result, failure, _ = runner.run(job, 120)
    assert failure is None and result == process_path(EN, EN.parent, Settings())
    assert runner.run(job, 120)[0] == result and runner.starts == 1  # one process for many jobs


def test_past_the_limit_the_process_is_killed_and_the_next_job_gets_a_new_one(runner: IsolatedRunner):
    job = (str(EN), str(EN.parent), Settings())
    result, failure, detail = runner.run(job, 0.001)
    assert result is None and failure == "timeout" and detail == "0.001"
    result, failure, _ = runner.run(job, 120)
    assert failure is None and result.claims and runner.starts == 2


def test_a_process_killed_mid_article_costs_that_article_only(runner: IsolatedRunner, tmp_path: Path):
    big = tmp_path / "big.txt"
    big.write_text(SENTENCE * 3000, encoding="utf-8")
    runner.start()
    threading.Timer(0.5, runner.proc.kill).start()
    result, failure, detail = runner.run((str(big), str(tmp_path), Settings()), 120)
    assert result is None and failure == "crashed" and "SIGKILL" in detail
    assert runner.run((str(EN), str(EN.parent), Settings()), 120)[0].claims


def test_an_idle_process_that_died_is_replaced(runner: IsolatedRunner):
    runner.start()
    runner.proc.kill()
    runner.proc.wait()
    result, failure, _ = runner.run((str(EN), str(EN.parent), Settings()), 120)
    assert failure is None and result.claims and runner.starts == 2
