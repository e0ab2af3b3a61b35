"""The status bar moves: token countdown and renewal, rate limits, a held 429, errors explained."""

from __future__ import annotations

import asyncio
import re

import pytest

from explorer.tui.screens.dialogs import ErrorScreen
from explorer.tui.widgets.page_view import PageView
from tests.tui.conftest import wait_until
from tests.tui.screen_text import region_text, rows_of, screen_text


def bar(explorer) -> str:
    """The status bar as a person reads it."""
    return str(explorer.q("StatusBar").render())


async def bar_shows(explorer, text: str) -> str:
    """The status bar once it shows `text`: it reads the session (and the clock) once a second."""
    await explorer.until(lambda: text in bar(explorer))
    return bar(explorer)


@pytest.mark.screen
async def test_the_token_counts_down_and_shows_its_renewal(open_explorer):
    async with open_explorer(token_ttl=120) as explorer:  # renewed within 12 s of expiry
        assert bar(explorer).startswith("read-only · token valid 02:00 · 0 refreshes │ ")
        explorer.clock.advance(65)
        assert (await bar_shows(explorer, "00:55")).startswith("read-only · token valid 00:55 · 0 refreshes │ ")
        explorer.clock.advance(50)
        await explorer.open("orgs")
        assert bar(explorer).startswith("read-only · token valid 02:00 · 1 refresh │ ")
        assert explorer.requests("/api/oauth/token") == 2


@pytest.mark.screen
async def test_a_renewal_in_flight_shows_while_the_screen_keeps_working(open_explorer):
    async with open_explorer(token_ttl=120) as explorer:
        transport = explorer.app.session.client._transport.transport  # the ASGI transport inside the guard
        sandbox, renewed = transport.app, asyncio.Event()

        async def slow_token_endpoint(scope, receive, send):
            if scope["type"] == "http" and scope["path"] == "/api/oauth/token":
                await renewed.wait()
            await sandbox(scope, receive, send)

        transport.app = slow_token_endpoint
        explorer.clock.advance(115)
        await explorer.cursor_to(explorer.node("orgs"))
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "refreshing" in bar(explorer))
        assert bar(explorer).startswith("read-only · token refreshing 00:05 · 0 refreshes │ ")
        await explorer.pilot.press("down")
        assert explorer.link_tree.cursor_node is explorer.node("groups")  # not frozen
        renewed.set()
        await explorer.settle()
        assert bar(explorer).startswith("read-only · token valid 02:00 · 1 refresh │ ")


@pytest.mark.screen
async def test_the_project_rate_limit_count_moves(open_explorer):
    async with open_explorer(size=(200, 50)) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        assert "rate limit █████ 99 of 100 left" in bar(explorer)
        await explorer.open("groups", "production", "clusters")
        assert bar(explorer).endswith(" │ rate limit █████ 98 of 100 left  token endpoint ████░ 9 of 10 left")


@pytest.mark.screen
async def test_a_429_is_held_with_a_countdown_while_the_screen_keeps_working(open_explorer):
    async with open_explorer(gated=True, rate_limit=2) as explorer:
        explorer.app.session.client_side_throttling = False  # let the 429 happen, to watch Retry-After
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await explorer.open("groups", "production", "clusters")
        node = explorer.node("groups", "production", "events")
        await explorer.cursor_to(node)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: explorer.gate.waits)
        assert " │ rate limit ░░░░░ held 40s" in await bar_shows(explorer, "held")
        assert [e.status for e in explorer.app.session.log][-1] == 429
        await explorer.pilot.press("down")  # the screen is not frozen while it waits
        assert explorer.link_tree.cursor_node is not node
        explorer.gate.open.set()
        await explorer.settle()
        assert node.data.resource.status == 200
        await explorer.until(lambda: "held" not in bar(explorer))


@pytest.mark.screen
async def test_a_429_whose_held_request_is_cancelled_stays_the_last_error(open_explorer):
    async with open_explorer(gated=True, rate_limit=2) as explorer:
        explorer.app.session.client_side_throttling = False  # let the 429 happen, to watch Retry-After
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await explorer.open("groups", "production", "clusters")
        await explorer.cursor_to(explorer.node("groups", "production", "events"))
        await explorer.pilot.press("enter")
        await explorer.until(lambda: explorer.gate.waits)
        await bar_shows(explorer, "held")
        await explorer.pilot.press("escape")  # the held request cancelled: nothing was shown of it
        await explorer.until(lambda: "held" not in bar(explorer))
        assert "⚠ 429 Too Many Requests · RATE_LIMITED: " in bar(explorer), bar(explorer)
        await explorer.pilot.press("x")
        await explorer.until_screen(ErrorScreen)
        assert "RATE_LIMITED" in screen_text(explorer.app)


async def reload_until_a_429_is_held(explorer) -> None:
    """A project reloaded past the rate-limit scenario's 5 a minute: the sixth `r` is a 429, held
    until the minute is out (the gate shut on its wait)."""
    await explorer.go_to("/groups/687b4c139cc9af4ec9546b43")
    for _ in range(4):
        await explorer.pilot.press("r")
        await explorer.settle()
    await explorer.pilot.press("r")
    await explorer.until(lambda: explorer.gate.waits)


@pytest.mark.screen
async def test_a_reload_held_after_an_earlier_429_and_cancelled_keeps_that_429_the_last_error(open_explorer):
    """`r` again while a 429 is held: the new request waits out the same Retry-After before it is
    sent. Esc cancels it; the 429 it waited out is the last error, for the bar and for `x`."""
    async with open_explorer(size=(120, 40), gated=True, scenario="rate-limit") as explorer:
        await reload_until_a_429_is_held(explorer)
        explorer.clock.advance(2)  # a moment later (the gate holds the clock while it is shut)
        await explorer.pilot.press("r")  # again: held before it is sent, on the 429's Retry-After
        await explorer.until(lambda: len(explorer.gate.waits) == 2)
        await bar_shows(explorer, "held")
        await explorer.pilot.press("escape")
        await explorer.until(lambda: "Cancelled." in explorer.toasts())
        await explorer.until(lambda: "held" not in bar(explorer))
        assert "⚠ 429 Too Many Requests · RATE_LIMITED: " in bar(explorer), bar(explorer)
        await explorer.pilot.press("x")
        await explorer.until_screen(ErrorScreen)
        document = region_text(explorer.app, explorer.q("#fields"))
        assert "errorCode    RATE_LIMITED" in document, document
        assert "hint" in [line.split("  ")[0] for line in document.splitlines()], document


@pytest.mark.screen
async def test_a_404_is_a_document_in_the_page_pane_a_mark_in_the_tree_and_a_line_below(explorer):
    node = await explorer.go_to("/groups/111111111111111111111111")
    assert node.label.plain == "go to  ✗ 404  /groups/111111111111111111111111"
    shown = bar(explorer)
    # The status says 404 Not Found; the error beside it, of the same response, says what was not found.
    assert " │ 404 Not Found · " in shown
    assert " │ ⚠ GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists. │ " in shown
    page = region_text(explorer.app, explorer.q(PageView))
    assert re.search(r"errorCode +GROUP_NOT_FOUND\n", page), page
    assert re.search(r"detail +No group with ID 111111111111111111111111 exists\.\n", page), page
    await explorer.pilot.click("StatusBar", offset=(shown.index("⚠") + 3, 0))  # on the error (1 cell of padding)
    await explorer.until_screen(ErrorScreen)
    assert "No group with ID" in region_text(explorer.app, explorer.q("#fields"))
    assert "esc or q closes" in screen_text(explorer.app)
    await explorer.pilot.press("escape")
    await explorer.until(lambda: not isinstance(explorer.app.screen, ErrorScreen))
    await explorer.pilot.press("x")  # the same, from the keyboard
    await explorer.until_screen(ErrorScreen)
    await explorer.pilot.press("escape")
    await explorer.until(lambda: not isinstance(explorer.app.screen, ErrorScreen))
    await explorer.open("orgs")  # an answer that is fine: the error leaves the bar, x still shows it
    assert "│ 200 OK · " in bar(explorer) and "⚠" not in bar(explorer), bar(explorer)
    await explorer.pilot.press("x")
    await explorer.until_screen(ErrorScreen)
    assert "No group with ID" in region_text(explorer.app, explorer.q("#fields"))


@pytest.mark.screen
async def test_the_error_dialog_wraps_a_long_value_under_its_value_column(open_explorer):
    async with open_explorer(size=(120, 40), gated=True, scenario="rate-limit") as explorer:
        await reload_until_a_429_is_held(explorer)
        await explorer.pilot.press("x")
        await explorer.until_screen(ErrorScreen)
        document = region_text(explorer.app, explorer.q("#fields"))
        names = [line.split("  ")[0] for line in document.splitlines() if not line.startswith(" ")]
        assert names == ["error", "request", "status", "errorCode", "detail", "parameters", "retry after", "hint"]
        detail = "Resource https://sandbox.invalid/api/service/v1.0/groups/687b4c139cc9af4ec9546b43 is limited to 5"
        assert f"detail       {detail} requests every minute." in rows_of(document), document


@pytest.mark.screen
async def test_a_request_that_gets_no_answer_is_shown_too(explorer):
    explorer.app.session.auth.secret = type(explorer.app.session.auth.secret)("wrong")
    explorer.clock.advance(3600)  # the token expires; its renewal is refused
    await explorer.open("orgs")
    assert "invalid_client" in bar(explorer)
    assert explorer.node("orgs").label.plain == "orgs  ✗ 401  /orgs"
    assert "Check the client ID and secret" in region_text(explorer.app, explorer.q(PageView))
    assert bar(explorer).startswith("read-only · token failed · 0 refreshes │ ")


@pytest.mark.screen
async def test_escape_cancels_the_request_in_flight(open_explorer):
    async with open_explorer() as explorer:
        explorer.slow_down(60_000)  # cancelled long before it could come, however loaded the machine
        node = explorer.node("orgs")
        await explorer.cursor_to(node)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: node.label.plain == "orgs  …  /orgs")
        await explorer.pilot.press("escape")
        await explorer.until(lambda: node.label.plain != "orgs  …  /orgs")
        assert node.data.resource is None and node.label.plain == "orgs  /orgs"
        explorer.slow_down(0)  # for the revocation at the end


@pytest.mark.screen
async def test_a_new_navigation_cancels_the_one_in_flight(open_explorer):
    async with open_explorer(held=True) as explorer:
        orgs, groups = explorer.node("orgs"), explorer.node("groups")
        await explorer.cursor_to(orgs)
        explorer.sandbox.open.clear()  # /orgs is held: in flight for as long as the test needs (a 3 s latency
        await explorer.pilot.press("enter")  # ran out under load, and `down` then went into its children)
        await explorer.until(lambda: orgs.label.plain == "orgs  …  /orgs")
        await explorer.pilot.press("down", "enter")
        fetching = lambda: explorer.screen.navigation.fetching  # noqa: E731
        await explorer.until(lambda: fetching() is not None and fetching().node is groups.data)  # the new one
        explorer.sandbox.open.set()
        await explorer.until(lambda: groups.data.resource is not None)
        assert orgs.data.resource is None and orgs.label.plain == "orgs  /orgs"


@pytest.mark.screen
async def test_quitting_revokes_the_token(explorer):
    sandbox = explorer.sandbox.state.sandbox
    live = lambda: [t for t in sandbox.tokens.tokens.values() if not t.revoked]  # noqa: E731
    assert len(live()) == 1
    await explorer.pilot.press("q")
    await wait_until(lambda: live() == [])
