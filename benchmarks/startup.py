"""How long `newsclaims extract` makes a person wait (#18): cold (a new process, as typed at a shell) and
warm (another sentence in a process that has everything loaded), for a Chinese and an English sentence.

    .venv/bin/python benchmarks/startup.py [--repeat 5]

Cold is the median wall time of `newsclaims extract TEXT` in new processes, after one unmeasured run (so
the files are in the OS cache, as on a machine where newsclaims was used before); warm is the median time of
`check_text` on the same sentence in one process after a first call.  The import and load phases of one
cold process are shown beside them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

SENTENCES = {"zh": "谷歌用了4096块TPU v3芯片，训练BERT只用了23秒。",
             "en": "Google trained BERT on 4,096 TPU v3 chips in 23 seconds."}
CLI = [str(Path(sys.executable).with_name("newsclaims")), "extract"]

PHASES = """
import time, sys
t0 = time.perf_counter()
import pipeline.cli
t1 = time.perf_counter()
from pipeline.run.process import check_text
t2 = time.perf_counter()
check_text(sys.argv[1])
t3 = time.perf_counter()
check_text(sys.argv[1])
t4 = time.perf_counter()
print(round((t1 - t0) * 1000), round((t2 - t1) * 1000), round((t3 - t2) * 1000), round((t4 - t3) * 1000))
"""


def cold(text: str, repeat: int) -> float:
    subprocess.run([*CLI, text], capture_output=True, check=True)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([*CLI, text], capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    out = {}
    for lang, text in SENTENCES.items():
        phases = subprocess.run([sys.executable, "-c", PHASES, text], capture_output=True, text=True, check=True)
        cli_ms, import_ms, first_ms, warm_ms = (int(x) for x in phases.stdout.split())
        out[lang] = {"cold_s": round(cold(text, args.repeat), 2), "warm_ms": warm_ms,
                     "phases_ms": {"import cli": cli_ms, "import pipeline": import_ms, "first sentence": first_ms}}
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
