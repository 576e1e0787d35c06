"""What a person waits for, end to end (#18): `newsclaims run` over a folder of one language, from typing the
command to the report written (start-up, every article, merge, reports), against the bare baseline of
that language over the same texts in a fresh process of its own (its start-up included too):

- Chinese: jieba.lcut over every article's text (jieba's dictionary loaded as jieba loads it);
- English: quantulum3's parser over every sentence of every article (its classifier loaded).

    .venv/bin/python benchmarks/end_to_end.py ZH_DIR EN_DIR [--workers 0] [--repeat 2]

--workers 0 (the default) runs `newsclaims run` as a person types it, with its default worker count (one
per core, as memory allows); --workers 1 measures one process.

Articles are read as newsclaims reads them (decoded, HTML to text) before the baseline's clock starts, so
the baseline is charged for nothing but its own work; newsclaims is charged for everything.  Each side
takes the fastest of `--repeat` runs (other jobs on the machine slow either); `--interleaved N` instead
alternates the two sides and reports each newsclaims run against the baseline runs either side of it.
Needs the bench extra (quantulum3 with its classifier: `pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

BASELINE = r"""
import sys, time, pickle
texts = pickle.load(open(sys.argv[2], "rb"))
t0 = time.perf_counter()
if sys.argv[1] == "zh":
    import jieba
    jieba.setLogLevel(60)
    for t in texts:
        jieba.lcut(t)
else:
    from quantulum3 import parser
    for t in texts:
        for s in t:
            parser.parse(s, classifier_path=sys.argv[3])
print(time.perf_counter() - t0)
"""


def _texts(folder: Path, lang: str) -> list:
    """The articles' texts (Chinese) or their sentences (English), read as newsclaims reads them."""
    from pipeline.ingest.read import find_articles, read_article
    from pipeline.records import Article
    from pipeline.segment.sentences import segment

    out = []
    for path in find_articles(folder):
        art = read_article(path, folder)
        if lang == "zh":
            out.append(art.text)
        else:
            out.append([s.text for s in segment(Article(doc=art.doc, text=art.text)).sentences])
    return out


def baseline(folder: Path, lang: str, repeat: int) -> float:
    import pickle

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "texts.pkl"
        data.write_bytes(pickle.dumps(_texts(folder, lang)))
        clf = ""
        if lang == "en":
            sys.path.insert(0, str(HERE))
            from run_bench import quantulum_classifier

            clf = str(quantulum_classifier())
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", BASELINE, lang, str(data), clf], check=True, capture_output=True)
            best = min(best, time.perf_counter() - start)
    return best


def newsclaims(folder: Path, workers: int, repeat: int) -> float:
    cli = str(Path(sys.executable).with_name("newsclaims"))
    best = float("inf")
    for _ in range(repeat):
        out = Path(tempfile.mkdtemp(prefix="newsclaims-e2e-"))
        try:
            start = time.perf_counter()
            subprocess.run([cli, "run", str(folder), "--out", str(out / "out"), "--workers", str(workers), "-q"],
                           check=True, capture_output=True)
            best = min(best, time.perf_counter() - start)
        finally:
            shutil.rmtree(out, ignore_errors=True)
    return best


def interleaved(folder: Path, lang: str, workers: int, runs: int) -> dict:
    """Baseline, newsclaims, baseline, newsclaims, ..., baseline: each newsclaims run against the mean of
    the baseline runs either side of it, so that a machine whose speed drifts from minute to minute (by a
    quarter here) moves both sides of each ratio alike.  One unmeasured run of each side comes first: the files
    are then in the OS cache and newsclaims' per-machine caches written (fileio.cache_dir), as on a machine
    where both were used before (startup.py measures the same way)."""
    newsclaims(folder, workers, 1)
    baseline(folder, lang, 1)
    base = [baseline(folder, lang, 1)]
    ratios, ours = [], []
    for _ in range(runs):
        ours.append(newsclaims(folder, workers, 1))
        base.append(baseline(folder, lang, 1))
        ratios.append(ours[-1] / ((base[-1] + base[-2]) / 2))
    return {"newsclaims_s": [round(x, 2) for x in ours], "baseline_s": [round(x, 2) for x in base],
            "ratios": [round(r, 2) for r in ratios], "median_ratio": round(statistics.median(ratios), 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("zh", type=Path)
    ap.add_argument("en", type=Path)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--interleaved", type=int, default=0, metavar="N",
                    help="N newsclaims runs per language, each between two baseline runs (see interleaved())")
    args = ap.parse_args()
    result = {}
    for lang, folder in (("zh", args.zh), ("en", args.en)):
        if args.interleaved:
            result[lang] = interleaved(folder, lang, args.workers, args.interleaved)
            continue
        ours, base = newsclaims(folder, args.workers, args.repeat), baseline(folder, lang, args.repeat)
        result[lang] = {"articles": sum(1 for _ in _texts(folder, "zh")), "newsclaims_s": round(ours, 1),
                        "baseline_s": round(base, 1), "newsclaims_over_baseline": round(ours / base, 2)}
    # which pipeline the runs used: the compiled stages when a build for these sources exists (pipeline/native.py;
    # NEWSCLAIMS_NATIVE=0 measures pure Python)
    from pipeline import native

    result["compiled"] = native.enabled() and native.complete(native.build_dir())
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
