"""A worker process's life: everything loaded before the first article (so its time limit is not spent
loading), the garbage collector tuned for many short-lived records, and put back when the articles end."""

from __future__ import annotations

import gc

from pipeline import re_programs
from pipeline.procs import resume
from pipeline.records import Article
from pipeline.run.process import Pipeline, get_pipeline
from pipeline.settings import Settings

# Warm-up text: one Chinese and one English sentence with numbers, so that every lazily built part of
# the pipeline (spaCy pipelines, jieba dictionary, recognizers, cn2an and the half second its patterns
# take) is loaded before a worker takes work.
_WARM_TEXT = ("谷歌的 4096 块 TPU 将训练时间缩短到了 23 秒，比上一轮快了十三倍。"  # 十三: cn2an loads its patterns
              "Google trained BERT in 23 seconds on 4,096 chips.")


# gc thresholds of a worker (CPython's default: 700, 10, 10), and the process's own
WORKER_GC_THRESHOLDS = (20_000, 20, 20)
_GC_AT_START = gc.get_threshold()


# The pipeline warm_up loaded for the batch being run (forked workers inherit it), by its settings.  Every
# article of a run is checked against the tables its fingerprint was made of; get_pipeline would list and
# stat the table files again for each article, to notice a corrected table in a long-lived process.
_PINNED: dict[Settings, Pipeline] = {}


def run_pipeline(settings: Settings) -> Pipeline:
    """The pipeline warm_up pinned for these settings, or (none pinned) get_pipeline's."""
    pipe = _PINNED.get(settings)
    return pipe if pipe is not None else get_pipeline(settings)


def warm_up(settings: Settings) -> None:
    """Load everything an article needs, so that the first article's time limit is not spent loading.

    Then tune the garbage collector for a worker's life: freeze what is loaded (jieba's dictionary, spaCy's
    vocabulary, the knowledge base and the official tables live as long as the process, and every full
    collection walked all of them again), and collect the young generation less often (an article makes
    tens of thousands of short-lived records and tuples that reference counting frees anyway).  Each step
    took about a tenth off a Chinese article's time.  Forked workers also keep sharing the frozen pages.

    Nothing is collected before the freeze (Python's own recipe for a parent that forks: collection off
    while it loads, procs.loading(), then freeze): the one full collection walked 110,000 objects for 0.07 s
    of the start-up to free some 2,700, which now stay, frozen, with the rest."""
    pipe = get_pipeline(settings)
    pipe.process(Article(doc="<warm-up>", text=_WARM_TEXT))
    re_programs.save()  # what the next process's start-up need not compile (once per machine)
    _PINNED.clear()  # a run pins its own; the tables may have changed since the last one
    _PINNED[settings] = pipe
    gc.freeze()
    tune_worker()
    resume()  # everything is loaded: a pause of procs.loading() ends here


# A worker stores the patterns its first articles compiled (an HTML reader's, a language's rules met only
# in an article), once: the next run's processes find them ready
SAVE_AFTER_ARTICLES = 20
_articles_done = 0


def article_done() -> None:
    """Count an article a worker finished; the SAVE_AFTER_ARTICLES-th stores the patterns compiled so far."""
    global _articles_done
    _articles_done += 1
    if _articles_done == SAVE_AFTER_ARTICLES:
        re_programs.save()


def tune_worker() -> None:
    """A worker's gc thresholds: what a worker forked from a warmed-up parent sets for itself, so that the
    parent can go back to its own while it merges."""
    gc.set_threshold(*WORKER_GC_THRESHOLDS)


# gc thresholds of a parent while it merges what its workers send: the merge keeps the index of every claim
# for the report, and with CPython's default a young collection every 700 allocations walked the newest of
# those rows again and again (0.16-0.28 s of a 500-article merge's 1.4 s of CPU, while both cores were
# busy).  Its garbage has no cycles for a collector to find (about 80 objects in 500 articles: reference
# counting frees the rest), so rare collections cost no memory.
MERGE_GC_THRESHOLDS = (50_000, 20, 20)


def merging() -> None:
    """A parent's gc thresholds while its workers work and it merges; end_of_articles() puts them back."""
    gc.set_threshold(*MERGE_GC_THRESHOLDS)


def end_of_articles() -> None:
    """Back to the process's own gc thresholds once the articles are done: the report that follows, and a
    Python caller's own code after run_batch, collect as the process did before the run."""
    gc.set_threshold(*_GC_AT_START)
