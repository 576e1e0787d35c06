"""The report's size against claims.jsonl's, and how soon its pages answer a click in Chromium (#18).

    .venv/bin/python benchmarks/report_size.py OUT_DIR [--parts 3]

OUT_DIR is a finished run (`newsclaims run CORPUS --out OUT_DIR`).  Prints the bytes of claims.jsonl and of
every report file (report.html/.md, chart.svg, report-pages/), their ratio, and for the corpus page and the
first `--parts` parts: the time from navigation to the load event, and to the first claim's panel being
shown after a click (interactive), as the median of three loads in a fresh page each.  Needs what
.ci/setup-browser installs (Debian's chromium, playwright).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

REPORT_FILES = ("report.html", "report.md", "chart.svg")


def sizes(out: Path) -> dict[str, int]:
    got = {name: (out / name).stat().st_size for name in REPORT_FILES if (out / name).is_file()}
    pages = out / "report-pages"
    got["report-pages/"] = sum(p.stat().st_size for p in pages.iterdir()) if pages.is_dir() else 0
    return got


# After the load event, a click on the first claim, in the page: performance.now() counts from the start of
# navigation, so "ready" is the time from asking for the page to its first claim's panel being shown.
# (playwright's own click waits for scrolling and layout to settle, about a second on a page this long,
# which a reader's click does not.)
_CLICK = """() => {
  // the corpus page of a large run links its claims to their parts: there the page is ready when loaded
  const m = document.querySelector('mark.claim');
  if (m) m.click();
  const panel = document.getElementById('details');
  const load = performance.getEntriesByType('navigation')[0].loadEventEnd;
  return {ready: m ? performance.now() : load, shown: !m || (!!panel && !panel.hidden),
          load: load};
}"""


def interactive(browser: Any, path: Path) -> dict[str, float]:
    """Milliseconds from navigation to the load event and to the first claim's panel shown after a click."""
    loads, ready = [], []
    for _ in range(3):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(path.as_uri(), wait_until="load")
        got = page.evaluate(_CLICK)
        if not got["shown"]:
            raise SystemExit(f"{path}: a click on the first claim showed no panel")
        loads.append(got["load"])
        ready.append(got["ready"])
        page.close()
    return {"load_ms": round(statistics.median(loads)), "interactive_ms": round(statistics.median(ready))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--parts", type=int, default=3)
    args = ap.parse_args()
    claims = (args.out / "claims.jsonl").stat().st_size
    got = sizes(args.out)
    total = sum(got.values())
    result: dict[str, Any] = {"claims_jsonl": claims, "report": got, "report_total": total,
                              "ratio": round(total / claims, 2)}
    pages = [args.out / "report.html", *sorted((args.out / "report-pages").glob("part-*.html"))[:args.parts]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        result["pages"] = {str(page.relative_to(args.out)): interactive(browser, page) for page in pages}
        browser.close()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
