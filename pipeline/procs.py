"""How this platform starts worker processes: shared by the batch runner and the report's part writers,
so neither stage reaches into the other for it."""

from __future__ import annotations

import multiprocessing as mp
import sys
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
