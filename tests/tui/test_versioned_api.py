"""The screen on a versioned API (/api/<vendor>/v2): every request names a version, and an answer
from a deprecated version says so, in the status bar and the Headers pane."""

from __future__ import annotations

import re

import httpx
import pytest
from textual.widgets import Static

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.demo import demo_session
from explorer.tui.app import ExplorerApp
from tests.conftest import REAL_RESPONSES
from tests.tui.conftest import Explorer, started, wait_until
from tests.tui.screen_text import region_text
from tests.versioned_service import VersionedService


@pytest.mark.screen
async def test_the_screen_asks_for_a_version_and_shows_when_it_is_deprecated():
    stand_in = VersionedService(REAL_RESPONSES, deprecated={"2023-01-01": "Thu, 01 Jul 2027 00:00:00 GMT"})
    credentials = Credentials("https://h.example/api/atlas/v2", client_id="c", client_secret=Secret("s"))
    session = Session(credentials, transport=httpx.ASGITransport(app=stand_in))
    app = ExplorerApp(session, demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        explorer = Explorer(pilot, app, None, None, None)
        await explorer.go_to("/groups")
        assert explorer.current.resource.status == 200 and explorer.current.resource.page.total == 37
        assert set(stand_in.accepts) == {"application/vnd.atlas.2023-01-01+json"}  # the root's request too
        page = region_text(app, app.screen.query_one("PageView"))
        assert page.splitlines()[-1].strip() == "version 2023-01-01 is deprecated; sunset 2027-07-01", page
        bar = str(app.screen.query_one("StatusBar").render())
        assert "200 OK · " in bar and " · deprecated; sunset 2027-07-01" in bar, bar
        await pilot.press("3")
        await explorer.until(lambda: app.screen.query_one("HeadersView").display)
        headers = str(app.screen.query_one("HeadersView #headers", Static).render())
        assert "accept: application/vnd.atlas.2023-01-01+json" in headers
        assert " · version 2023-01-01\n" in headers
        assert "\nversion 2023-01-01 is deprecated; sunset 2027-07-01\n" in headers
        await pilot.resize_terminal(60, 24)  # narrow: the sunset date and the time give way, not the status
        await explorer.until(lambda: app.screen.query_one("StatusBar").outer_size.width == 60)
        await pilot.pause()
        bar = str(app.screen.query_one("StatusBar").render())
        assert re.fullmatch(r"read-only · token valid \d\d:\d\d │ 200 OK · deprecated", bar), bar  # a real clock
