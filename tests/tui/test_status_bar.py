"""The status bar's line: what it says at each width, and beside what it draws a held request."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx
from textual.app import ComposeResult
from textual.pilot import Pilot

from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.demo import demo_session
from explorer.sandbox import Settings
from explorer.tui.palette import PaletteApp
from explorer.tui.screens.dialogs import ErrorScreen
from explorer.tui.widgets.status_bar import StatusBar
from tests.conftest import FakeClock
from tests.tui.conftest import Gate, wait_until

PRODUCTION = "687b4c139cc9af4ec9546b43"  # the demo's first project
NO_SUCH_GROUP = "/groups/111111111111111111111111"


class BarHost(PaletteApp):
    """The status bar alone, following a session, as the explorer screen shows it."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield StatusBar()

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.session)


@dataclass
class Bar:
    pilot: Pilot
    widget: StatusBar
    session: Session
    gate: Gate

    def text(self) -> str:
        """The bar as a person reads it."""
        return str(self.widget.render())

    async def until_shows(self, needle: str) -> str:
        """The bar's text once it shows `needle` (it reads the session once a second)."""
        await wait_until(lambda: needle in self.text(), 3.0, self.pilot)
        return self.text()

    async def at_width(self, width: int) -> str:
        await self.pilot.resize_terminal(width, 3)
        await wait_until(lambda: self.widget.outer_size.width == width, 3.0, self.pilot)
        await self.pilot.pause()
        return self.text()

    async def shown(self, resource: Resource) -> None:
        """The bar told of a response, as the explorer screen tells it."""
        self.widget.show_response(resource)
        self.widget.show_error(resource.error)
        await self.pilot.pause()


@asynccontextmanager
async def status_bar(clock: FakeClock, width: int = 200, **settings: Any) -> AsyncIterator[Bar]:
    """A bar on a demo session whose requests each take 2 ms, and whose waits the test opens."""
    gate = Gate(clock)
    session = demo_session(
        Settings(clock=clock, **settings), pace=False, sleep=gate, timer=partial(next, itertools.count(0, 0.002))
    )
    app = BarHost(session)
    async with app.run_test(size=(width, 3)) as pilot:
        yield Bar(pilot, app.query_one(StatusBar), session, gate)
    await session.aclose()


async def hold_a_project_request(bar: Bar) -> asyncio.Task[Resource]:
    """Spend what is left of the project's 5 requests a minute; the next is refused with a 429, held for Retry-After."""
    while bar.session.rate_limits.window(PRODUCTION).remaining():
        await bar.session.fetch(f"/groups/{PRODUCTION}")
    held = asyncio.create_task(bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
    await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
    return held


async def test_a_held_project_request_is_drawn_beside_the_project_meter(clock):
    async with status_bar(clock, rate_limit=5) as bar:
        await bar.shown(await bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
        held = await hold_a_project_request(bar)
        shown = await bar.until_shows("held")
        assert shown.endswith("  │  project ░░░░░ held 40s  token endpoint ████░ 9 of 10 left"), shown
        bar.gate.open.set()
        await held
        await wait_until(lambda: "held" not in bar.text(), 3.0, bar.pilot)
        assert bar.text().endswith("  │  project ████░ 4 of 5 left  token endpoint █████ 0/10 used"), bar.text()


async def test_a_held_request_under_no_limit_is_drawn_on_its_own(clock):
    async with status_bar(clock, outage=(60, 15)) as bar:
        clock.advance(50)  # into the outage's burst of 503s
        held = asyncio.create_task(bar.session.fetch("/orgs"))  # not under a project
        await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
        shown = await bar.until_shows("held")
        assert shown.endswith("  │  request held 10s  token endpoint ████░ 9 of 10 left"), shown
        bar.gate.open.set()
        await held


async def test_a_held_token_request_is_drawn_beside_the_token_endpoint_meter(clock):
    async with status_bar(clock, token_rate_limit=2, token_ttl=15) as bar:
        for _ in range(2):  # a token, and one renewal: the token endpoint's 2 a minute are spent
            await bar.session.fetch("/orgs")
            clock.advance(14)  # within a tenth of its life of its end: the token is renewed
        held = asyncio.create_task(bar.session.fetch("/orgs"))
        await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
        shown = await bar.until_shows("held")
        assert shown.endswith("  │  token endpoint ░░░░░ held 12s"), shown
        assert "request held" not in shown and "project" not in shown, shown
        bar.gate.open.set()
        assert (await held).status == 200


async def test_the_bar_keeps_what_matters_at_every_width(clock):
    """Token state, then the error, then the last response, then the meters, which shrink first."""
    async with status_bar(clock, rate_limit=5) as bar:
        await bar.shown(await bar.session.fetch(NO_SUCH_GROUP))
        held = await hold_a_project_request(bar)
        await bar.until_shows("held")
        assert await bar.at_width(200) == (
            "token valid 60:00 · 0 refreshes  │  404 Not Found · 2 ms  │  "
            "⚠ GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists.  │  "
            "project ░░░░░ held 40s  token endpoint ████░ 9 of 10 left"
        )
        assert await bar.at_width(140) == (
            "token valid 60:00 │ 404 Not Found · 2 ms │ "
            "⚠ GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists. │ project held 40s"
        )
        assert await bar.at_width(80) == "token valid 60:00 │ ⚠ 404 Not Found · GROUP_NOT_FOUND: No… │ project held 40s"
        assert await bar.at_width(60) == "token valid 60:00 │ ⚠ 404 Not Found… │ project held 40s"
        bar.gate.open.set()
        await held


async def test_browsing_at_80_columns_keeps_the_last_response_and_the_project_meter(clock):
    async with status_bar(clock, width=80) as bar:
        await bar.shown(await bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
        shown = await bar.until_shows("project")
        assert shown == "token valid 60:00 · 0 refreshes │ 200 OK · 2 ms │ project █████ 99 of 100 left"


async def test_an_error_that_is_not_the_last_response_is_shown_whole(clock):
    async with status_bar(clock, width=200) as bar:
        await bar.shown(await bar.session.fetch(NO_SUCH_GROUP))
        bar.widget.show_response(await bar.session.fetch("/orgs"))  # a later answer, the error still the last
        shown = await bar.until_shows("200 OK")
        error = "⚠ 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists."
        assert f"  │  200 OK · 2 ms  │  {error}  │  " in shown


async def test_a_shortened_error_still_opens_whole(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.go_to(NO_SUCH_GROUP)
        bar = explorer.q(StatusBar)
        shown = str(bar.render())
        assert "⚠ 404 Not Found · GROUP_NOT_FOUND: " in shown and shown.endswith("…"), shown
        await explorer.pilot.click(StatusBar, offset=(shown.index("⚠") + 3, 0))  # on the error (1 cell of padding)
        await explorer.until(lambda: isinstance(explorer.app.screen, ErrorScreen))
        document = str(explorer.app.screen.query_one("#fields").render())
        assert "No group with ID 111111111111111111111111 exists." in document


async def test_an_api_key_session_shows_no_token_endpoint_meter(clock):
    from explorer.api.config import Credentials
    from explorer.api.secret import Secret
    from explorer.sandbox import create_app
    from tests.api.test_api_keys import API_ROOT, IN_PROCESS_ORIGIN, SANDBOX

    credentials = Credentials(
        IN_PROCESS_ORIGIN + API_ROOT, public_key=SANDBOX.public_key, private_key=Secret(SANDBOX.private_key)
    )
    settings = Settings(clock=clock)
    session = Session(credentials, transport=httpx.ASGITransport(app=create_app(settings)), clock=clock)
    app = BarHost(session)
    async with app.run_test(size=(200, 3)) as pilot:
        bar = Bar(pilot, app.query_one(StatusBar), session, Gate(clock))
        await bar.shown(await session.fetch(f"/groups/{PRODUCTION}"))
        shown = await bar.until_shows("200 OK")
        assert shown.startswith("API key · Digest  │  200 OK") and "project █████" in shown, shown
        assert "token endpoint" not in shown, shown
    await session.aclose()
