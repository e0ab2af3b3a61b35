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
import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot

from explorer.api.config import Credentials
from explorer.api.options import Clocks
from explorer.api.resource import Resource
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.demo import demo_session
from explorer.sandbox import Settings
from explorer.tui.app import ExplorerApp
from explorer.tui.palette import PaletteApp
from explorer.tui.screens.dialogs import ErrorScreen
from explorer.tui.widgets.status_bar import StatusBar
from tests.conftest import REAL_RESPONSES, FakeClock
from tests.real_response import read_recorded
from tests.tui.conftest import Explorer, Gate, started, wait_until
from tests.tui.screen_text import region_text, rows_of
from tests.versioned_service import VersionedService

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
        Settings(clock=clock, **settings),
        client_side_throttling=False,
        clocks=Clocks(sleep=gate, timer=partial(next, itertools.count(0, 0.002))),
    )
    app = BarHost(session)
    async with app.run_test(size=(width, 3)) as pilot:
        yield Bar(pilot, app.query_one(StatusBar), session, gate)
    await session.aclose()


async def hold_a_project_request(bar: Bar) -> asyncio.Task[Resource]:
    """Spend what is left of the project's 5 requests a minute; the next is refused with a 429, held for Retry-After."""
    while (await bar.session.fetch(f"/groups/{PRODUCTION}")).headers["ratelimit-remaining"] != "0":
        pass
    held = asyncio.create_task(bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
    await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
    return held


@pytest.mark.screen
async def test_a_held_project_request_is_drawn_beside_the_project_meter(clock):
    async with status_bar(clock, rate_limit=5) as bar:
        await bar.shown(await bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
        held = await hold_a_project_request(bar)
        shown = await bar.until_shows("held")
        assert shown.endswith(" │ rate limit ░░░░░ held 40s  token endpoint ████░ 9 of 10 left"), shown
        bar.gate.open.set()
        await held
        await wait_until(lambda: "held" not in bar.text(), 3.0, bar.pilot)
        assert bar.text().endswith(" │ rate limit ████░ 4 of 5 left  token endpoint █████ 0/10 sent")


@pytest.mark.screen
async def test_a_held_429_keeps_its_code_beside_its_countdown_at_80_columns(clock):
    """The status's time gives way before the status: what refused the request stays in view."""
    async with status_bar(clock, width=80, rate_limit=5) as bar:
        await bar.shown(await bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
        held = await hold_a_project_request(bar)
        shown = await bar.until_shows("held")
        assert shown.endswith(" │ 429 Too Many Requests │ rate limit held 40s"), shown
        bar.gate.open.set()
        await held


@pytest.mark.screen
async def test_a_held_request_under_no_limit_is_drawn_on_its_own(clock):
    async with status_bar(clock, outage=(60, 15)) as bar:
        clock.advance(50)  # into the outage's burst of 503s
        held = asyncio.create_task(bar.session.fetch("/orgs"))  # not under a project
        await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
        shown = await bar.until_shows("held")
        assert shown.endswith(" │ request held 10s  token endpoint ████░ 9 of 10 left"), shown
        bar.gate.open.set()
        await held


@pytest.mark.screen
async def test_a_held_token_request_is_drawn_beside_the_token_endpoint_meter(clock):
    async with status_bar(clock, token_rate_limit=2, token_ttl=15) as bar:
        for _ in range(2):  # a token, and one renewal: the token endpoint's 2 a minute are spent
            await bar.session.fetch("/orgs")
            clock.advance(14)  # within a tenth of its life of its end: the token is renewed
        held = asyncio.create_task(bar.session.fetch("/orgs"))
        await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
        shown = await bar.until_shows("held")
        assert shown.endswith(" │ token endpoint ░░░░░ held 12s"), shown
        assert "request held" not in shown and "project" not in shown, shown
        bar.gate.open.set()
        assert (await held).status == 200


@pytest.mark.screen
async def test_the_bar_keeps_what_matters_at_every_width(clock):
    """Token state, then the error, then the last response, then the meters, which shrink first."""
    async with status_bar(clock, rate_limit=5) as bar:
        await bar.shown(await bar.session.fetch(NO_SUCH_GROUP))
        held = await hold_a_project_request(bar)
        await bar.until_shows("held")
        # The status is the 429 being waited out; the error, the 404 on screen (no longer beside its status).
        assert await bar.at_width(200) == (
            "read-only · token valid 60:00 · 0 refreshes │ 429 Too Many Requests · 2 ms │ "
            "⚠ 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists. │ "
            "rate limit ░░░░░ held 40s"
        )
        assert await bar.at_width(140) == (
            "read-only · token valid 60:00 │ "
            "⚠ 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists. │ rate limit held 40s"
        )
        assert await bar.at_width(80) == (
            "read-only · token valid 60:00 │ ⚠ 404 Not Found… │ rate limit held 40s"
        )  # the error is cut, read-only stays from 80 columns on
        assert (
            await bar.at_width(60) == "token valid 60:00 │ ⚠ 404 Not Found… │ rate limit held 40s"
        )  # read-only gives way at 60 (writes on never does)
        bar.gate.open.set()
        await held


async def test_read_only_gives_way_to_an_error_only_at_60_columns(clock):
    """A long error is cut before `read-only` goes: at 120 and 80 columns the bar still says it."""
    async with status_bar(clock) as bar:
        await bar.shown(await bar.session.fetch("/groups?itemsPerPage=99999999999999999999"))
        assert (await bar.at_width(120)).startswith("read-only · token valid 60:00 │ ⚠ 400 Bad Request · INVALID_")
        assert (await bar.at_width(80)).startswith("read-only · token valid 60:00 │ ⚠ 400 Bad Request")
        assert (await bar.at_width(60)).startswith("token valid 60:00 │ ⚠ 400 Bad Request")


async def test_browsing_at_80_columns_keeps_the_last_response_and_the_resource_meter(clock):
    async with status_bar(clock, width=80) as bar:
        await bar.shown(await bar.session.fetch(f"/groups/{PRODUCTION}/clusters"))
        shown = await bar.until_shows("rate limit")
        assert shown == "read-only · token valid 60:00 │ 200 OK · 2 ms │ rate limit █████"


async def test_an_error_that_is_not_the_last_response_is_shown_whole(clock):
    async with status_bar(clock, width=200) as bar:
        await bar.shown(await bar.session.fetch(NO_SUCH_GROUP))
        bar.widget.show_response(await bar.session.fetch("/orgs"))  # a later answer, the error still the last
        shown = await bar.until_shows("200 OK")
        error = "⚠ 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists."
        assert f" │ 200 OK · 2 ms │ {error} │ " in shown


async def test_no_part_of_the_bar_is_only_an_ellipsis(clock):
    """The cursor's cut tree line gives way whole to an error rather than be drawn as `…`; the error
    keeps a few words at the narrowest."""
    async with status_bar(clock, width=60) as bar:
        bar.widget.show_label("ipinfo  not in the description  /api/private/ipinfo")
        await bar.shown(await bar.session.fetch(NO_SUCH_GROUP))
        for width in (80, 60, 40, 30):
            parts = (await bar.at_width(width)).split(" │ ")
            assert all(len(part.strip(" …")) >= 5 for part in parts), (width, parts)
        assert parts == ["token valid 60:00", "⚠ 404…"], parts  # 30 columns: read-only gave way first


async def test_the_cursors_cut_line_gives_way_before_the_status_and_read_only(clock):
    async with status_bar(clock, width=60) as bar:
        bar.widget.show_label("production ◉ watched  /groups/687b4c139cc9af4ec9546b43")
        bar.widget.show_response(await bar.session.fetch("/orgs"))
        shown = await bar.until_shows("200 OK")
        assert shown == "read-only · token valid 60:00 │ production ◉… │ 200 OK", shown  # cut at a word
        shown = await bar.at_width(44)  # too little left for the line to be read: it goes whole
        assert shown == "read-only · token valid 60:00 │ 200 OK", shown


async def test_a_cursor_line_whose_first_word_is_long_is_cut_in_it_not_drawn_as_a_lone_ellipsis(clock):
    async with status_bar(clock, width=60) as bar:
        bar.widget.show_label("MONGODB_USER_DELETED  6a4876920445d656de3a5db5")  # an event, as the tree draws it
        bar.widget.show_response(await bar.session.fetch("/orgs"))
        shown = await bar.until_shows("200 OK")
        label = shown.split(" │ ")[1]
        assert label.startswith("MONGODB_USER_") and label.endswith("…"), shown
        assert len(label) >= 8, shown


@pytest.mark.screen
async def test_a_shortened_error_still_opens_whole(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.go_to(NO_SUCH_GROUP)
        bar = explorer.q(StatusBar)
        shown = str(bar.render())
        assert "⚠ 404 Not Found · GROUP_NOT_FOUND: " in shown and shown.endswith("…"), shown
        await explorer.pilot.click(StatusBar, offset=(shown.index("⚠") + 3, 0))  # on the error (1 cell of padding)
        await explorer.until_screen(ErrorScreen)
        document = rows_of(region_text(explorer.app, explorer.q("#fields")))
        assert "detail      No group with ID 111111111111111111111111 exists." in document


async def test_an_api_key_session_shows_no_token_endpoint_meter(clock):
    from explorer.api.config import Credentials
    from explorer.api.secret import Secret
    from explorer.sandbox import create_app
    from tests.api.test_api_keys import API_ROOT, IN_PROCESS_ORIGIN, SANDBOX

    credentials = Credentials(
        IN_PROCESS_ORIGIN + API_ROOT, public_key=SANDBOX.public_key, private_key=Secret(SANDBOX.private_key)
    )
    settings = Settings(clock=clock)
    session = Session(credentials, transport=httpx.ASGITransport(app=create_app(settings)), clocks=Clocks(wall=clock))
    app = BarHost(session)
    async with app.run_test(size=(200, 3)) as pilot:
        bar = Bar(pilot, app.query_one(StatusBar), session, Gate(clock))
        await bar.shown(await session.fetch(f"/groups/{PRODUCTION}"))
        shown = await bar.until_shows("200 OK")
        assert shown.startswith("read-only · API key · Digest │ 200 OK") and "rate limit █████" in shown, shown
        assert "token endpoint" not in shown, shown
    await session.aclose()


# The meter of the resource on screen, as the server states it ---------------------------------


class StatingService:
    """The recorded real responses behind the versioned-Accept rule, each recorded 200 of a GET
    with the RateLimit-Limit and RateLimit-Remaining it was recorded with, and no others."""

    def __init__(self) -> None:
        self.service = VersionedService(REAL_RESPONSES)
        self.recorded = {
            "/" + file.stem.split("_", 2)[2].rsplit("_", 1)[0].replace("_", "/"): file
            for file in sorted(REAL_RESPONSES.glob("200_GET_*.http"))
        }

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        file = self.recorded.get(scope.get("path", ""))
        headers = read_recorded(file).headers if file else {}
        stated = [(name.encode(), headers[name].encode()) for name in RATE_LIMIT_HEADERS if name in headers]

        async def stating(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message["headers"] if k.decode().lower() not in RATE_LIMIT_HEADERS]
                message = {**message, "headers": [*kept, *(stated if message["status"] == 200 else [])]}
            await send(message)

        await self.service(scope, receive, stating)


RATE_LIMIT_HEADERS = ("ratelimit-limit", "ratelimit-remaining")


@asynccontextmanager
async def explorer_on(
    session: Session, clock: FakeClock, width: int, gate: Gate | None = None
) -> AsyncIterator[Explorer]:
    """The whole explorer screen on `session`, driven by keys."""
    app = ExplorerApp(session, demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(width, 24)) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        yield Explorer(pilot, app, None, clock, gate)


def real_service(clock: FakeClock) -> Session:
    """A session on the stand-in for the real service, its requests timed at 2 ms each."""
    credentials = Credentials("https://h.example/api/atlas/v2", client_id="c", client_secret=Secret("s"))
    return Session(
        credentials,
        transport=httpx.ASGITransport(app=StatingService()),
        clocks=Clocks(wall=clock, timer=partial(next, itertools.count(0, 0.001))),
    )


def bar_of(explorer: Explorer) -> str:
    return str(explorer.q(StatusBar).render())


@pytest.mark.screen
async def test_a_resource_outside_a_project_shows_the_limit_the_server_stated(clock):
    """GET /groups (the list of projects) was answered with RateLimit-Limit 1200, RateLimit-Remaining 1198."""
    for width, expected in (
        (200, "read-only · token valid 60:00 · 0 refreshes │ 200 OK · 1 ms │ "
              "rate limit █████ 1198 of 1200 left  token endpoint ████░ 1/10 sent"),
        (80, "read-only · token valid 60:00 │ 200 OK · 1 ms │ rate limit █████"),
    ):  # fmt: skip
        async with explorer_on(real_service(clock), clock, width) as explorer:
            await explorer.go_to("/groups")
            assert bar_of(explorer) == expected


@pytest.mark.screen
async def test_each_resource_shows_the_figures_stated_for_it(clock):
    """The service does not name its buckets: the meter shows what it said with each resource."""
    async with explorer_on(real_service(clock), clock, 200) as explorer:
        await explorer.go_to("/groups")
        assert " │ rate limit █████ 1198 of 1200 left  token endpoint " in bar_of(explorer)
        await explorer.go_to("/orgs")  # recorded with RateLimit-Limit 300, RateLimit-Remaining 299
        assert " │ rate limit █████ 299 of 300 left  token endpoint " in bar_of(explorer)
        await explorer.go_to("/users/5e4bc367c6b0f41bb9bbb178")  # 2500, 2498
        assert " │ rate limit █████ 2498 of 2500 left  token endpoint " in bar_of(explorer)
        await explorer.pilot.press("backspace")
        await explorer.until(lambda: explorer.current.resource.url.endswith("/orgs"))
        assert " │ rate limit █████ 299 of 300 left  token endpoint " in bar_of(explorer)


@pytest.mark.screen
async def test_the_rate_limit_drill_served_to_a_class_says_its_5_never_100(clock):
    """A student's explorer (configured for the spec's 100 a minute, pacing itself) against
    `explorer sandbox --scenario rate-limit` (5 a minute per project)."""
    from explorer.sandbox import create_app
    from explorer.sandbox.scenarios import scenario_named
    from tests.api.test_api_keys import API_ROOT, IN_PROCESS_ORIGIN

    settings = scenario_named("rate-limit").settings(Settings(clock=clock))
    credentials = Credentials(
        IN_PROCESS_ORIGIN + API_ROOT, client_id=settings.client_id, client_secret=Secret(settings.client_secret)
    )
    assert credentials.rate_limit == 100
    gate = Gate(clock)
    session = Session(
        credentials,
        transport=httpx.ASGITransport(app=create_app(settings)),
        clocks=Clocks(wall=clock, sleep=gate, timer=partial(next, itertools.count(0, 0.001))),
    )
    async with explorer_on(session, clock, 200, gate) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}")
        meter = " │ rate limit ████░ 4 of 5 left  token endpoint ████░ 9 of 10 left"
        assert bar_of(explorer) == f"read-only · token valid 60:00 · 0 refreshes │ 200 OK · 1 ms{meter}"
        for left in ("███░░ 3", "██░░░ 2", "█░░░░ 1", "░░░░░ 0"):
            await explorer.pilot.press("r")
            await explorer.settle()
            assert f" │ rate limit {left} of 5 left  token endpoint " in bar_of(explorer)
        await explorer.pilot.press("r")  # sent: its 429 says when to come back
        await explorer.until(lambda: gate.waits)
        assert [e.status for e in session.log][-1] == 429
        await explorer.until(lambda: "held" in bar_of(explorer))
        assert bar_of(explorer).endswith(" │ rate limit ░░░░░ held 40s  token endpoint ████░ 9 of 10 left")
        gate.open.set()
        await explorer.settle()
        await explorer.until(lambda: "held" not in bar_of(explorer))
        assert bar_of(explorer) == (
            "read-only · token valid 59:20 · 0 refreshes │ 200 OK · 1 ms │ "
            "rate limit ████░ 4 of 5 left  token endpoint █████ 0/10 sent"
        )
        clock.advance(60)  # a minute later, no request since: the meter says what the server said last
        await explorer.until(lambda: "58:20" in bar_of(explorer))
        assert bar_of(explorer) == (
            "read-only · token valid 58:20 · 0 refreshes │ 200 OK · 1 ms │ "
            "rate limit ████░ 4 of 5 left  token endpoint █████ 0/10 sent"
        )


@pytest.mark.screen
async def test_where_the_service_states_no_figures_the_meter_is_the_explorers_own_count(clock):
    """The spec's service: no RateLimit-* headers. The explorer counts what it sent this minute."""
    from explorer.sandbox import create_app
    from tests.api.test_api_keys import API_ROOT, IN_PROCESS_ORIGIN
    from tests.api.test_rate_limits import Unstated

    settings = Settings(clock=clock)
    credentials = Credentials(
        IN_PROCESS_ORIGIN + API_ROOT, client_id=settings.client_id, client_secret=Secret(settings.client_secret)
    )
    transport = httpx.ASGITransport(app=Unstated(create_app(settings)))
    session = Session(
        credentials, transport=transport, clocks=Clocks(wall=clock, timer=partial(next, itertools.count(0, 0.001)))
    )
    async with explorer_on(session, clock, 200) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}")
        assert bar_of(explorer) == (
            "read-only · token valid 60:00 · 0 refreshes │ 200 OK · 1 ms │ "
            "project █████ 1/100 sent  token endpoint ████░ 1/10 sent"
        )
        await explorer.go_to("/orgs")  # under no project: nothing counted, nothing stated
        assert (
            bar_of(explorer)
            == "read-only · token valid 60:00 · 0 refreshes │ 200 OK · 1 ms │ token endpoint ████░ 1/10 sent"
        )


@pytest.mark.screen
async def test_a_request_held_for_what_was_said_of_it_alone_is_drawn_on_its_own(clock):
    """A write refused with 503 and Retry-After (never retried): the next one to the same path waits."""
    gate = Gate(clock)
    session = demo_session(
        Settings(clock=clock, outage=(60, 15)), clocks=Clocks(sleep=gate), writes=WritePolicy(True, "--writes")
    )
    app = BarHost(session)
    async with app.run_test(size=(200, 3)) as pilot:
        bar = Bar(pilot, app.query_one(StatusBar), session, gate)
        clock.advance(50)  # into the outage's burst of 503s
        assert (await session.fetch("/orgs", method="POST", json={})).status == 503
        held = asyncio.create_task(session.fetch("/orgs", method="POST", json={}))
        await wait_until(lambda: gate.waits, 3.0, pilot)
        shown = await bar.until_shows("held")
        assert shown.endswith(" │ request held 10s  token endpoint ████░ 9 of 10 left"), shown
        gate.open.set()
        await held
    await session.aclose()


@pytest.mark.screen
async def test_a_meter_is_empty_only_when_nothing_is_left(open_explorer):
    """The token-bucket drill: an organization's reads burst to 10. 1 of 10 left is one cell, not none."""
    async with open_explorer(size=(200, 24), scenario="token-bucket") as explorer:
        org = next(iter(explorer.sandbox.state.sandbox.world.orgs))
        await explorer.go_to(f"/orgs/{org}")
        for _ in range(8):
            await explorer.pilot.press("r")
            await explorer.settle()
        assert " │ rate limit █░░░░ 1 of 10 left  token endpoint " in bar_of(explorer)


async def test_the_parts_stay_where_they_are_as_figures_change(clock):
    """A time in ms that loses a digit, a count that gets shorter: the parts after it do not move left;
    the separator is the same at every width."""
    async with status_bar(clock, width=200) as bar:
        slow = await bar.session.fetch("/orgs")
        slow.elapsed = 0.012
        await bar.shown(slow)
        first = await bar.until_shows("12 ms")
        quick = await bar.session.fetch("/orgs")
        quick.elapsed = 0.002
        await bar.shown(quick)
        second = await bar.until_shows(" 2 ms")
        assert first.rindex(" │ ") == second.rindex(" │ "), (first, second)  # where the meters start
        assert " │ " in second and "  │  " not in second


@pytest.mark.screen
async def test_a_url_refused_before_it_is_sent_is_not_shown_beside_the_last_answers_status(open_explorer):
    async with open_explorer(size=(200, 50)) as explorer:
        await explorer.go_to("/groups?itemsPerPage=99999999999999999999")
        assert bar_of(explorer).startswith("read-only · token valid 60:00 │ 400 Bad Request · ")
        await explorer.go_to("/groups/c\u200bd")
        shown = bar_of(explorer)
        assert "⚠ '/groups/c<U+200B>d' is not a valid URL" in shown
        assert "400 Bad Request" not in shown and " ms │" not in shown, shown


@pytest.mark.screen
async def test_a_503_held_again_after_a_cancel_keeps_its_status_beside_the_countdown(clock):
    """`r` twice in an outage: the first request is held for the 503's Retry-After and given up for the
    second, which waits out the same Retry-After before it is sent. The bar says the 503 it waits for,
    not the answer shown before the outage (`200 OK · 2 ms` beside `request held 10s`)."""
    async with status_bar(clock, width=80, outage=(60, 15)) as bar:
        await bar.shown(await bar.session.fetch("/groups"))
        clock.advance(50)  # into the outage's burst of 503s
        first = asyncio.create_task(bar.session.fetch("/groups"))
        await wait_until(lambda: bar.gate.waits, 3.0, bar.pilot)
        assert "│ 503 Service Unavailable │ request held 10s" in await bar.until_shows("held")
        first.cancel()  # `r` again gives the first request up
        await wait_until(lambda: "held" not in bar.text(), 3.0, bar.pilot)
        second = asyncio.create_task(bar.session.fetch("/groups"))
        await wait_until(lambda: len(bar.gate.waits) == 2, 3.0, bar.pilot)
        shown = await bar.until_shows("held")
        assert shown.endswith(" │ 503 Service Unavailable │ request held 10s"), shown
        bar.gate.open.set()
        await second


@pytest.mark.screen
async def test_the_bars_last_move_handled_as_the_app_closes_is_no_crash(open_explorer):
    """Under load the bar's Placed can be handled after the app's screens are gone (seen with two
    workers on two cores): lifting the notices then has nothing to lift, and raises nothing."""
    async with open_explorer(size=(80, 24)) as explorer:
        app = explorer.app
    assert app.screen_stack == []
    app.lift_notices()
