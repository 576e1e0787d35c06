"""Which folders a run may write into.  A run writes only inside OUT_DIR, and only into a folder that is
new, empty, or a previous run's output: pointing --out at an annotations or articles folder by mistake
is refused before anything is written, instead of mixing outputs into it."""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.errors import OutputDirError

PARTS = ".parts"
# A folder holding any of these was written by a run (older runs wrote no lock file).
MARKERS = (PARTS, ".lock", "claims.jsonl")
# Files a run never reads or writes and that hold no data a run could be confused with: a log the user
# redirected into the output folder (`newsclaims run … --out out > out/run.log`) is fine.
HARMLESS_SUFFIXES = (".log", ".txt.log", ".out", ".err")


def check(out_dir: Path, input_dir: Path) -> None:
    """Raise OutputDirError when out_dir must not be written into."""
    out_dir, input_dir = Path(out_dir), Path(input_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputDirError(f"{out_dir}: --out must be a folder, and this is a file")
    if os.path.realpath(out_dir) == os.path.realpath(input_dir):
        raise OutputDirError(f"{out_dir}: --out is the input folder; choose a separate output folder")
    if not out_dir.exists():
        return
    try:
        names = sorted(os.listdir(out_dir))
    except OSError as exc:
        raise OutputDirError(f"{out_dir}: cannot list the output folder ({exc.strerror})") from exc
    if not names or any(m in names for m in MARKERS):
        return
    if all(n.endswith(HARMLESS_SUFFIXES) and (out_dir / n).is_file() for n in names):
        return
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    raise OutputDirError(f"{out_dir}: --out is a folder with other files in it ({shown}) and not the output "
                         "of an earlier run; choose a new or empty folder, so that nothing there is overwritten")
