"""A class in a real browser: headless Chromium (the system's), driven by Playwright, on `explorer serve`.

Without a browser, or without Playwright (the `browser` extra), these tests are skipped, and say so
in the run's summary (NO BROWSER, NO PLAYWRIGHT); `.ci/run` installs both first, and says loudly
when it cannot have the browser.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from explorer.api.har import REDACTED
from tests.classroom.browser import Tab, browser_path, serving, student_homes, student_processes, until_no_student

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = browser_path()
    if path is None:
        pytest.skip("NO BROWSER: install Chromium (apt-get install chromium) for the class-in-a-browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("NO PLAYWRIGHT: pip install -e '.[browser]' for the class-in-a-browser tests")

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


def new_tab(browser: Any) -> Tab:
    return Tab(browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True).new_page())


def students(printed: list[str]) -> int:
    return sum("A session started" in line for line in printed)


def minute() -> int:
    """The clock minute now: the sandbox's rate-limit window (limits.MinuteWindows)."""
    return int(time.time() // 60)


def test_a_student_explores_the_class_sandbox_and_meets_the_drill(browser):
    with serving("--scenario", "rate-limit") as served:
        tab = new_tab(browser)
        requests: list[str] = []
        tab.page.on("request", lambda request: requests.append(request.url))
        tab.page.goto(served.url)
        tab.until(lambda text: "orgs" in text and "groups" in text)  # the root's relations
        assert {urlsplit(url).netloc for url in requests} == {urlsplit(served.address).netloc}  # nothing else

        with tab.page.expect_download() as saving:  # s: the body to the browser, never the server's disk
            tab.press("s")
        saved = json.loads(Path(saving.value.path()).read_text())
        assert saved["appName"] == "Service Sandbox" and saving.value.suggested_filename == "v1.0.json"

        tab.press("Control+p")  # the palette's "Save the session as HAR": a download too, redacted
        tab.until(lambda text: "Search for commands" in text)
        tab.page.keyboard.type("Save the session")
        tab.until(lambda text: "Save the session as HAR" in text)
        with tab.page.expect_download() as saving:
            tab.page.keyboard.press("Enter")
        har = json.loads(Path(saving.value.path()).read_text())
        token = next(e for e in har["log"]["entries"] if e["request"]["url"].endswith("/api/oauth/token"))
        assert json.loads(token["response"]["content"]["text"])["access_token"] == REDACTED
        assert saving.value.suggested_filename == "explorer-session.har"

        tab.go_to("/groups")  # a list: the projects
        listed = re.compile(r"production\s+([0-9a-f]{24})")  # the tree's line for it, which can come a frame
        tab.until(lambda text: listed.search(text) is not None and "training-lab" in text)  # after the table's
        project = listed.search(tab.text).group(1)
        asked = minute()  # the sandbox counts in clock minutes: the one the request that shows the meter went in
        tab.go_to(f"/groups/{project}/clusters")
        tab.until(lambda text: "orders-prod" in text)
        left = re.compile(r"(\d) of 5 left")  # the status bar's meter: what the project has left this minute

        def meter(text: str) -> str | None:
            found = left.search(text)
            return found.group(1) if found else None

        refused = "429 Too Many Requests"  # whole: "1429 of 1430 left", the token meter, holds "429" too
        for _ in range(20):  # r: again and again, 5 a minute for a project (more if the minute turns meanwhile)
            if refused in tab.text:
                break
            # each answered before the next (an r while one is on its way replaces it): the meter moves,
            # unless the minute turned since the request that showed it, which can leave it where it was
            before, since, asked = meter(tab.text), asked, minute()
            tab.press("r")
            tab.until(lambda text, b=before, since=since: refused in text or meter(text) != b or minute() > since)
        waiting = re.compile(r"held (\d+)s")  # its countdown, on the meter
        tab.until(lambda text: refused in text and waiting.search(text) is not None)
        first = int(waiting.search(tab.text).group(1))

        def counted_down(text: str) -> bool:
            """Fewer seconds held than first seen; or none left, the request sent once its minute turned
            (a loaded machine drew the last second's frame after the hold was over)."""
            now = waiting.search(text)
            return int(now.group(1)) < first if now is not None else refused not in text

        tab.until(counted_down)  # it counts down
        tab.page.context.close()
    assert students(served.printed) == 1
    assert "Traceback" not in "".join(served.printed)


def test_keys_reach_the_explorer_as_the_page_comes_without_a_click(browser):
    with serving() as served:
        tab = new_tab(browser)
        tab.page.goto(served.url)
        tab.until(lambda text: "groups" in text)  # the explorer's first screen: a student starts typing
        tab.page.keyboard.press("g")  # into whatever has the focus: no click, no focus given by the test
        tab.until(lambda text: "Go to a path under the API root" in text)
        tab.page.context.close()
    assert "Traceback" not in "".join(served.printed)


def test_without_the_key_nothing_starts(browser):
    with serving() as served:
        tab = new_tab(browser)
        for url in (f"{served.address}/", f"{served.address}/?key=not-{served.key}"):
            response = tab.page.goto(url)
            assert response.status == 403
            assert "This class needs its key" in tab.page.inner_text("#refused")
        assert tab.sockets == []
        tab.page.context.close()
    assert students(served.printed) == 0


def test_a_full_class_says_so_and_a_closed_tab_makes_room(browser):
    with serving("--max-sessions", "1") as served:
        first = new_tab(browser)
        first.page.goto(served.url + "&presenter=1")
        first.until(lambda text: "groups" in text and "keys and requests" in text)  # the projector's tab
        second = new_tab(browser)
        response = second.page.goto(served.url)
        assert response.status == 503 and "The class is full" in second.page.inner_text("#refused")
        assert len(student_processes(served)) == 1
        [first_home] = student_homes(served)  # the tab's own folder for its config, state and cache

        first.page.context.close()  # the tab closes: its session ends, its process with it
        served.read_lines(lambda line: "A session ended: 0 open" in line)
        until_no_student(served)
        second.page.goto(served.url)
        second.until(lambda text: "groups" in text)
        assert len(student_processes(served)) == 1
        [second_home] = student_homes(served)
        assert second_home != first_home and Path(second_home).parent == Path(first_home).parent
    assert student_processes(served) == []  # none outlives the server
    assert "Traceback" not in "".join(served.printed)
