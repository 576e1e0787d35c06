"""Two versions of newsclaims, run in interleaved pairs on the same folder (#18): on this machine a run's wall
time moves by a quarter from one hour to the next, more than most changes save, so a change is judged by
runs of the old and the new code side by side, each pair in the same minute.

    .venv/bin/python benchmarks/pairs.py FOLDER OLD_CHECKOUT [--pairs 3]

OLD_CHECKOUT is another checkout of the repository (`git worktree add ../old <commit>`), whose compiled
build, if any, is looked for under this environment's build folder (pipeline/native.py: a build is keyed by
its sources, so `python -m pipeline.nativebuild build` run with PYTHONPATH=OLD_CHECKOUT makes one).  Each run
is `newsclaims run FOLDER` with the default workers; for each, the wall time and every process's CPU time
(read from /proc while it runs: the parent, the article workers, the report's workers), and when each
process was first and last seen, so that start-up, the articles and the report can be told apart.  Linux only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def run(folder: Path, env: dict[str, str]) -> dict:
    """One `newsclaims run`: its wall time and each process's (cpu, first seen, last seen), in seconds."""
    out = Path(tempfile.mkdtemp(prefix="newsclaims-pairs-"))
    # each checkout's own command line (`python -m pipeline.cli` runs what its console script runs): the
    # environment's `newsclaims` script names the entry point of the version installed last
    cli = [sys.executable, "-m", "pipeline.cli"]
    seen: dict[int, tuple[float, float, float]] = {}
    start = time.perf_counter()
    try:
        proc = subprocess.Popen([*cli, "run", str(folder), "--out", str(out / "out"), "-q"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while proc.poll() is None:
            stack = [proc.pid]
            while stack:
                pid = stack.pop()
                stack += _children(pid)
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                now = time.perf_counter() - start
                cpu = (int(fields[11]) + int(fields[12])) / TICK
                first = seen.get(pid, (0.0, now, now))[1]
                seen[pid] = (cpu, first, now)
            time.sleep(0.05)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"newsclaims run failed ({proc.returncode}): {proc.stderr.read().decode()[-2000:]}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {"wall": wall, "processes": sorted(seen.values(), key=lambda p: p[1])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("old", type=Path, help="another checkout of the repository: the version to compare with")
    ap.add_argument("--pairs", type=int, default=3)
    args = ap.parse_args()
    from pipeline import native  # this checkout's build folder, where the old version's build is looked for too

    new_env = dict(os.environ)
    old_env = {**os.environ, "PYTHONPATH": str(args.old.resolve()), "NEWSCLAIMS_NATIVE_DIR": str(native.cache_root())}
    for name, env in (("old", old_env), ("new", new_env)):
        # which code and build each side runs (from a neutral folder: the current one would come first on sys.path)
        where = subprocess.run([sys.executable, "-c", "import pipeline; from pipeline import native; "
                                "print(pipeline.__file__, native.active() or 'pure Python')"],
                               env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, check=True)
        print(f"{name}: {where.stdout.strip()}")
    for n in range(1, args.pairs + 1):
        for name, env in (("old", old_env), ("new", new_env)):
            r = run(args.folder, env)
            procs = "  ".join(f"cpu {cpu:.2f} ({a:.2f}-{b:.2f})" for cpu, a, b in r["processes"])
            print(f"pair {n} {name}: wall {r['wall']:.2f} s | {procs}", flush=True)


if __name__ == "__main__":
    main()
