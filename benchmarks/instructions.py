"""Instructions an article worker executes per article (#18), counted by valgrind's callgrind: a measure of
the per-article work that does not move with the machine's load, where wall and CPU times here move by a
quarter from one hour to the next.

    .venv/bin/python benchmarks/instructions.py FOLDER [--articles 20] [--after 0] [--out cg.out]

The worker warms up as a run's workers do (plus one English paragraph, so that spaCy's English pipeline is
built before counting), reads three articles unmeasured, and then counts only while it reads the first
`--articles` articles of FOLDER (instrumentation switched on and off around them with callgrind_control).
Compare two versions of the code on the same articles (each with its own compiled build, see
pipeline/native.py); `callgrind_annotate --inclusive=yes OUT` shows where the instructions go.  An
instruction count is not a time (cache misses and branch mispredictions differ), but a change that removes
a tenth of the instructions of the same code path takes about a tenth off its time.  Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = """
import os, subprocess, sys
from pathlib import Path
from pipeline.ingest.read import find_articles
from pipeline.records import Article
from pipeline.run import batch
from pipeline.run.process import get_pipeline
from pipeline.run.worker import warm_up
from pipeline.settings import Settings

folder, n = Path(sys.argv[1]), int(sys.argv[2])
settings = Settings()
warm_up(settings)
english = "谷歌的 TPU。\\n\\nGoogle trained BERT in 23 seconds on 4,096 chips.\\n"  # a paragraph of its own
get_pipeline(settings).process(Article(doc="w", text=english))
after = int(sys.argv[3])
paths = list(find_articles(folder))[:after + n]
jobs = [(str(p), str(folder), settings, "x", "v") for p in paths]
# a fresh worker reads three articles unmeasured; --after N reads N and counts the ones after them
for job in jobs[:after or 3]:
    batch._work(job)
jobs = jobs[after:]
subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True, timeout=120)
for job in jobs:
    batch._work(job)
subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], capture_output=True, timeout=120)
print("articles", len(jobs))
"""


def count(folder: Path, articles: int, out: Path, after: int = 0) -> tuple[int, int]:
    """(instructions counted, articles read)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "worker.py"
        script.write_text(WORKER)
        env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict and set orders on every run
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                               sys.executable, str(script), str(folder), str(articles), str(after)],
                              capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"valgrind failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    refs = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    read = re.search(r"articles (\d+)", proc.stdout)
    if not refs or not read:
        raise SystemExit(f"no count in valgrind's output:\n{proc.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(read.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--articles", type=int, default=20)
    ap.add_argument("--out", type=Path, default=Path("callgrind.out"),
                    help="where callgrind's profile goes (for callgrind_annotate)")
    ap.add_argument("--after", type=int, default=0,
                    help="count the articles after the first N, read unmeasured: a worker in the middle of a run, "
                         "whose memos (official answers, sentences met before) have filled")
    args = ap.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("needs valgrind (apt install valgrind)")
    total, n = count(args.folder, args.articles, args.out, args.after)
    print(f"{total:,} instructions over {n} articles: {total / max(1, n) / 1e6:.1f} M per article ({args.out})")


if __name__ == "__main__":
    main()
