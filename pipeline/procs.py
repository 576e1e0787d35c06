"""How this platform starts worker processes: shared by the batch runner and the report's part writers,
so neither stage reaches into the other for it; and a process's garbage collector while it loads."""

from __future__ import annotations

import gc
import multiprocessing as mp
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def context() -> Any:  # a multiprocessing context (its typing lacks Process)
    """The multiprocessing context workers start in: fork on Linux, spawn elsewhere."""
    # fork only on Linux: macOS system libraries are not fork-safe (Python itself defaults to spawn there).
    # If a torch-based stage (the optional NER) ever runs in the parent before forking, prefer spawn too:
    # torch's thread pool does not survive fork.
    return mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def uses_fork() -> bool:
    """Whether workers are forked (and so share what the parent loaded)."""
    return context().get_start_method() == "fork"


# what one worker holds at most while it checks articles (benchmarks/README.md: 350-520 MB peak RSS)
WORKER_MEMORY = 600 * 1024 * 1024


def cpu_cores() -> int:
    """The cores this process may run on (a container or taskset may allow fewer than the machine has)."""
    import os

    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory the system can give without swapping (Linux's MemAvailable), None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def auto_workers() -> int:
    """Workers for `--workers 0`, the default: one per core, as many as the free memory holds."""
    cores = cpu_cores()
    memory = available_memory()
    return max(1, min(cores, memory // WORKER_MEMORY)) if memory is not None else cores


# Whether loading() paused the garbage collector (and resume() has not ended the pause yet)
_PAUSED = False


@contextmanager
def loading() -> Iterator[None]:
    """No automatic garbage collection while the process loads what the articles need (its imports, the
    tables, the warm-up): the collector walked the growing heap hundreds of times, 0.17 s of a run's start-up
    while the other core waited, and loading makes next to no garbage.  The warm-up freezes what it loaded
    and calls resume(); a run that never warms up resumes when the block ends.  Nothing changes where
    collection was already off, or inside another such block."""
    global _PAUSED
    if _PAUSED or not gc.isenabled():
        yield
        return
    gc.disable()
    _PAUSED = True
    try:
        yield
    finally:
        resume()


def resume() -> None:
    """End loading()'s pause, when there is one (collection switched back on)."""
    global _PAUSED
    if _PAUSED:
        _PAUSED = False
        gc.enable()
