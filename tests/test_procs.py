"""How many workers `newsclaims run` starts by default (--workers 0): one per core the process may use, as
many as the free memory holds, never none; and no garbage collection while a process loads (procs.loading),
until the warm-up has frozen what it loaded or the loading ends, whatever ends it."""

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


@pytest.fixture()
def collecting():
    """Collection on at the start of a test and after it, whatever the test did."""
    import gc

    gc.enable()
    yield
    procs.resume()
    gc.enable()


def _steps(*names: str) -> list[bool]:
    """Whether collection is on after each step (steps run inside one loading() block where named)."""
    import gc

    seen = []
    with procs.loading():
        for name in names:
            if name == "resume":
                procs.resume()
            elif name == "nested":
                with procs.loading():
                    seen.append(gc.isenabled())
            seen.append(gc.isenabled())
    seen.append(gc.isenabled())
    return seen


@pytest.mark.parametrize("names, expected", [
    ((), [True]),                                      # back on when the block ends
    (("look",), [False, True]),                        # off inside
    (("nested", "look"), [False, False, False, True]),  # an inner block does not end the outer's pause
    (("resume", "look"), [True, True, True]),          # resumed early (the warm-up): stays on
])
def test_collection_is_off_while_loading_and_on_after(collecting, names, expected):
    assert _steps(*names) == expected


def test_collection_off_before_loading_stays_off(collecting):
    import gc

    gc.disable()
    with procs.loading():
        pass
    procs.resume()
    assert not gc.isenabled()


def test_collection_comes_back_when_loading_fails(collecting):
    import gc

    with pytest.raises(RuntimeError), procs.loading():
        raise RuntimeError("a broken table")
    assert gc.isenabled()


def test_the_warm_up_ends_the_pause_with_what_it_loaded_frozen(collecting):
    import gc

    from pipeline.run.worker import warm_up
    from pipeline.settings import Settings

    with procs.loading():
        warm_up(Settings())
        assert gc.isenabled() and gc.get_freeze_count() > 0


@pytest.mark.parametrize("rerun", [False, True])  # articles to do (a warm-up), then none (no warm-up)
def test_a_batch_leaves_collection_on(collecting, tmp_path, rerun):
    import gc

    from pipeline.run.batch import run_batch
    from pipeline.settings import Settings

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Google trained BERT in 23 seconds on 4,096 chips.\n", encoding="utf-8")
    run_batch(tmp_path / "in", tmp_path / "out", Settings(), workers=2)
    if rerun:
        assert run_batch(tmp_path / "in", tmp_path / "out", Settings(), workers=2).unchanged
    assert gc.isenabled()


def test_the_parent_merges_with_rare_collections_and_gets_its_own_back(collecting, tmp_path):
    # the merge's garbage has no cycles: a young collection every 700 allocations only walked the index again
    import gc

    from pipeline.run.batch import run_batch
    from pipeline.run.worker import MERGE_GC_THRESHOLDS
    from pipeline.settings import Settings

    (tmp_path / "in").mkdir()
    for name in ("a", "b"):
        (tmp_path / "in" / f"{name}.txt").write_text("谷歌用 4096 块 TPU 在 23 秒内训练完 BERT。\n", encoding="utf-8")
    before = gc.get_threshold()
    during: list[tuple[int, int, int]] = []
    run_batch(tmp_path / "in", tmp_path / "out", Settings(), workers=2,
              progress=lambda done, total, what: during.append(gc.get_threshold()) if what.endswith(".txt") else None)
    assert during and set(during) == {MERGE_GC_THRESHOLDS}
    assert gc.get_threshold() == before
