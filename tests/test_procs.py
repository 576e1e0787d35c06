"""How many workers `newsclaims run` starts by default (--workers 0): one per core the process may use, as
many as the free memory holds, never none."""

from __future__ import annotations

import pytest

from pipeline import procs


@pytest.mark.parametrize("cores, memory, expected", [
    (2, 24 * 2**30, 2),          # this machine: both cores
    (16, 2 * 2**30, 3),          # many cores, little memory: what the memory holds
    (4, 100 * 2**20, 1),         # less than one worker's worth: still one
    (8, None, 8),                # memory unknown (not Linux): the cores
])
def test_default_workers(monkeypatch: pytest.MonkeyPatch, cores: int, memory: int | None, expected: int):
    monkeypatch.setattr(procs, "cpu_cores", lambda: cores)
    monkeypatch.setattr(procs, "available_memory", lambda: memory)
    assert procs.auto_workers() == expected


def test_available_memory_is_read_where_the_system_says_it():
    memory = procs.available_memory()
    assert memory is None or memory > 0
