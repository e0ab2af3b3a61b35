"""The docs' picture of a class in the browser: `python -m tests.classroom.shoot`.

Serves a class (the rate-limit drill), opens one tab in headless Chromium at 1280×800, opens the
projects and their clusters, and writes screenshots/classroom.png. A browser's drawing is not the
same byte for byte from one machine to the next, so this picture is remade by hand, not compared.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.classroom.browser import Tab, browser_path, serving

OUT = Path(__file__).resolve().parents[2] / "screenshots" / "classroom.png"


def main() -> int:
    path = browser_path()
    if path is None:
        print("NO BROWSER: install Chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, serving("--scenario", "rate-limit") as served:
        browser = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        tab = Tab(browser.new_page(viewport={"width": 1280, "height": 800}))
        tab.page.goto(served.url)
        tab.until(lambda text: "groups" in text)
        tab.go_to("/groups")
        tab.until(lambda text: "production" in text)
        match = re.search(r"production\s+([0-9a-f]{24})", tab.text)
        assert match, tab.text
        tab.go_to(f"/groups/{match.group(1)}/clusters")
        tab.until(lambda text: "orders-prod" in text)
        tab.page.wait_for_timeout(500)
        tab.page.screenshot(path=str(OUT))
        browser.close()
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
