"""The dask engine gives the same results as the local per-article function, and warms each worker once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.records import ArticleResult
from pipeline.run.process import process_path
from pipeline.settings import Settings

distributed = pytest.importorskip(
    "dask.distributed", reason="the dask engine needs the 'dask' extra: pip install 'newsclaims[dask]'")

from pipeline.run.dask_engine import map_articles  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ARTICLES = REPO / "corpora" / "articles" / "training-v0.7"
SAMPLE = ["en/2020-07-29_google-tpu-supercomputer-wire.txt", "en/2020-07-31_ai-chip-scoreboard-blog.html",
          "zh/2020-07-30_mlperf-v07-three-camps.txt", "zh/2020-07-31_mlperf-v07-tw-zh-Hant.txt"]


def _canon(result: ArticleResult) -> str:
    return json.dumps({"doc": result.doc, "lang": result.lang,
                       "claims": [c.to_contract() for c in result.claims],
                       "error": result.error.to_contract() if result.error else None},
                      ensure_ascii=False, sort_keys=True)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few real articles (both languages, txt and html, Traditional) and a binary file."""
    root = tmp_path_factory.mktemp("corpus")
    for rel in SAMPLE:
        for src in (ARTICLES / rel, ARTICLES / (rel + ".meta.yaml")):
            dst = root / src.relative_to(ARTICLES)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(src.read_bytes())
    (root / "en" / "broken.txt").write_bytes(b"\x00\x01\x02\xff\xfe" * 200)
    return root


@pytest.fixture(scope="module")
def jobs(corpus: Path) -> list[tuple[str, str, Settings]]:
    paths = sorted(p for p in corpus.rglob("*") if p.is_file() and not p.name.endswith(".meta.yaml"))
    return [(str(p), str(corpus), Settings()) for p in paths]


@pytest.mark.parametrize("workers", [2])
def test_dask_results_equal_local(jobs: list[tuple[str, str, Settings]], workers: int) -> None:
    local = sorted(_canon(process_path(Path(p), Path(r), s)) for p, r, s in jobs)
    got = list(map_articles(jobs, workers=workers))
    assert sorted(i for i, _ in got) == list(range(len(jobs)))
    assert sorted(_canon(res) for _, res in got) == local
    errors = [res.error.error for _, res in got if res.error]
    assert errors == ["binary"], errors


def _count_pipeline_builds() -> None:
    """On a worker: count Pipeline constructions from now on (in pipeline.run.process.BUILDS)."""
    import pipeline.run.process as process

    if not hasattr(process, "BUILDS"):
        init = process.Pipeline.__init__

        def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            process.BUILDS += 1  # type: ignore[attr-defined]
            init(self, *args, **kwargs)

        process.Pipeline.__init__ = counted  # type: ignore[method-assign]
    process.BUILDS = 0  # type: ignore[attr-defined]


def _pipeline_builds() -> int:
    import pipeline.run.process as process

    return process.BUILDS  # type: ignore[attr-defined]


def test_dask_scheduler_address_warms_each_worker_once(jobs: list[tuple[str, str, Settings]]) -> None:
    """With a scheduler address the engine uses that cluster, and each worker starts its article process
    (which loads the language data, KB and tables) once, at warm-up: with one article, the worker that gets
    no task has started it too, and the one that does has not started another."""
    from pipeline.run.dask_engine import runner_starts

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = dict(map_articles(jobs[:1], scheduler=cluster.scheduler_address))
        assert list(got) == [0] and got[0].claims
        assert list(client.run(runner_starts).values()) == [1, 1]


def test_without_a_time_limit_each_worker_builds_its_pipeline_once(jobs: list[tuple[str, str, Settings]]) -> None:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.run(_count_pipeline_builds)
        unlimited = [(p, r, Settings(article_timeout=0)) for p, r, _ in jobs[:1]]
        got = dict(map_articles(unlimited, scheduler=cluster.scheduler_address))
        assert got[0].claims
        assert list(client.run(_pipeline_builds).values()) == [1, 1]


def test_an_article_past_the_time_limit_is_reported_and_the_workers_go_on(jobs) -> None:
    """A task cannot be stopped on a dask worker: the article's own process is, and the next article
    gets a fresh one."""
    tight = [(p, r, Settings(article_timeout=0.001)) for p, r, _ in jobs if not p.endswith("broken.txt")]
    got = [res for _, res in map_articles(tight, workers=1)]
    assert {res.error.error for res in got if res.error} == {"timeout"}
    assert all("article_timeout" in res.error.detail for res in got if res.error)
    assert len(got) == len(tight)
