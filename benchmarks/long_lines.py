"""Time against length for one long line without punctuation (issue #17, point 10): a Chinese (or
English) line of N characters holding a claim every few words goes through the whole pipeline; the time
per thousand characters should stay flat as N grows (linear), not climb.

usage: python benchmarks/long_lines.py [--lang zh|en] [N ...]     (default: 10000 20000 40000 80000)
A run to a million characters takes minutes: pass 1000000 to measure it.
"""

from __future__ import annotations

import argparse
import time

from pipeline.records import Article
from pipeline.run.process import get_pipeline
from pipeline.settings import Settings

UNITS = {"zh": "谷歌用了4096块芯片训练模型用时23秒英伟达的系统规模更大",
         "en": "Google used 4096 chips and trained the model in 23 seconds while NVIDIA used more "}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=int, default=[10_000, 20_000, 40_000, 80_000])
    ap.add_argument("--lang", choices=sorted(UNITS), default="zh")
    args = ap.parse_args()
    pipe = get_pipeline(Settings())
    unit = UNITS[args.lang]
    pipe.process(Article(doc="warm.txt", text=unit * 20, meta={}))  # load everything before timing
    print("| characters | seconds | claims | ms per 1,000 characters |")
    print("|---:|---:|---:|---:|")
    for n in args.sizes:
        text = (unit * (n // len(unit) + 1))[:n]
        t = time.perf_counter()
        result = pipe.process(Article(doc="long.txt", text=text, meta={}))
        dt = time.perf_counter() - t
        print(f"| {n:,} | {dt:.2f} | {len(result.claims):,} | {dt * 1e6 / n:.1f} |")


if __name__ == "__main__":
    main()
