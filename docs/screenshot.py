"""Regenerates docs/report.png, the README's picture of the report, from the founding articles.

    .venv/bin/python docs/screenshot.py [SEEDS_DIR] [OUT_PNG]

Needs what .ci/setup-browser installs (Debian's chromium and playwright for Python).  The page is shown
as a reader sees it after clicking the ambiguous "大三倍": highlighted article text and the claim's details.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from pipeline.report import write_reports
from pipeline.run.batch import run_batch
from pipeline.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def main(seeds: Path, png: Path) -> None:
    out = Path(tempfile.mkdtemp(prefix="newsclaims-shot-"))
    try:
        run_batch(seeds, out, Settings())
        write_reports(out, seeds)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            page.goto((out / "report.html").as_uri())
            mark = page.locator("mark.claim.v-ambiguous", has_text="大三倍").first
            mark.click()
            mark.evaluate("m => m.scrollIntoView({block: 'center'})")
            page.screenshot(path=str(png))
            browser.close()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"{png}: {png.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "seeds",
         Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "docs" / "report.png")
