"""The status bar moves: token countdown and renewal, rate limits, a held 429, errors explained."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from explorer.tui.screens.dialogs import ErrorScreen
from explorer.tui.widgets.page_view import PageView
from tests.tui.conftest import wait_until


def bar(explorer) -> str:
    """The status bar as a person reads it."""
    status = explorer.q("StatusBar")
    status.tick()
    return str(status.render())


async def test_the_token_counts_down_and_shows_its_renewal(open_explorer):
    async with open_explorer(token_ttl=120) as explorer:  # renewed within 12 s of expiry
        assert bar(explorer).startswith("token valid 02:00 · 0 refreshes  │  ")
        explorer.clock.advance(65)
        assert bar(explorer).startswith("token valid 00:55 · 0 refreshes  │  ")
        explorer.clock.advance(50)
        await explorer.open("orgs")
        assert bar(explorer).startswith("token valid 02:00 · 1 refresh  │  ")
        assert explorer.requests("/api/oauth/token") == 2


async def test_a_renewal_in_flight_shows_while_the_screen_keeps_working(open_explorer):
    async with open_explorer(token_ttl=120) as explorer:
        transport = explorer.app.session.client._transport
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
        assert bar(explorer).startswith("token refreshing 00:05 · 0 refreshes  │  ")
        await explorer.pilot.press("down")
        assert explorer.links.cursor_node is explorer.node("groups")  # not frozen
        renewed.set()
        await explorer.settle()
        assert bar(explorer).startswith("token valid 02:00 · 1 refresh  │  ")


async def test_the_project_rate_limit_count_moves(explorer):
    await explorer.open("groups")
    await explorer.open("groups", "production")
    assert "project █████ 99 of 100 left" in bar(explorer)
    await explorer.open("groups", "production", "clusters")
    assert "project █████ 98 of 100 left  token endpoint ████░ 9 of 10 left" in bar(explorer)


async def test_a_429_is_held_with_a_countdown_while_the_screen_keeps_working(open_explorer):
    async with open_explorer(gated=True, rate_limit=2) as explorer:
        explorer.app.session.pace = False  # let the 429 happen, to watch Retry-After
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await explorer.open("groups", "production", "clusters")
        node = explorer.node("groups", "production", "events")
        await explorer.cursor_to(node)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: explorer.gate.waits)
        assert "held 40s" in bar(explorer)
        assert [e.status for e in explorer.app.session.log][-1] == 429
        await explorer.pilot.press("down")  # the screen is not frozen while it waits
        assert explorer.links.cursor_node is not node
        explorer.gate.open.set()
        await explorer.settle()
        assert node.data.resource.status == 200
        assert "held" not in bar(explorer)


async def test_a_404_is_a_document_in_the_page_pane_a_mark_in_the_tree_and_a_line_below(explorer):
    node = await explorer.go_to("/groups/111111111111111111111111")
    assert node.label.plain.endswith("✗ 404")
    shown = bar(explorer)
    assert shown.endswith("│  ⚠ 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists.")
    assert "│  404 Not Found · " in shown
    message = str(explorer.q(PageView).query_one("#message", Static).render())
    assert "errorCode" in message and "GROUP_NOT_FOUND" in message
    await explorer.pilot.click("StatusBar", offset=(shown.index("⚠") + 3, 0))  # on the error (1 cell of padding)
    await explorer.pilot.pause()
    assert isinstance(explorer.app.screen, ErrorScreen)
    assert "No group with ID" in str(explorer.app.screen.query_one("#fields", Static).render())
    await explorer.pilot.press("escape")
    await explorer.pilot.press("x")  # the same, from the keyboard
    await explorer.pilot.pause()
    assert isinstance(explorer.app.screen, ErrorScreen)


async def test_a_request_that_gets_no_answer_is_shown_too(explorer):
    explorer.app.session.auth.secret = type(explorer.app.session.auth.secret)("wrong")
    explorer.clock.advance(3600)  # the token expires; its renewal is refused
    await explorer.open("orgs")
    assert "invalid_client" in bar(explorer)
    assert explorer.node("orgs").label.plain.endswith("✗ 401")
    assert "Check the client ID and secret" in str(explorer.q(PageView).query_one("#message", Static).render())
    assert bar(explorer).startswith("token failed · 0 refreshes  │  ")


async def test_escape_cancels_the_request_in_flight(open_explorer):
    async with open_explorer(latency_ms=2000) as explorer:
        node = explorer.node("orgs")
        await explorer.cursor_to(node)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: node.label.plain.endswith("…"))
        await explorer.pilot.press("escape")
        await explorer.until(lambda: not node.label.plain.endswith("…"))
        assert node.data.resource is None and node.label.plain == "orgs  /orgs"


async def test_a_new_navigation_cancels_the_one_in_flight(open_explorer):
    async with open_explorer(latency_ms=1500) as explorer:
        orgs, groups = explorer.node("orgs"), explorer.node("groups")
        await explorer.cursor_to(orgs)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: orgs.label.plain.endswith("…"))
        await explorer.pilot.press("down", "enter")
        await explorer.until(lambda: groups.data.resource is not None, timeout=10)
        assert orgs.data.resource is None and orgs.label.plain == "orgs  /orgs"


async def test_quitting_revokes_the_token(explorer):
    sandbox = explorer.sandbox.state.sandbox
    live = lambda: [t for t in sandbox.tokens.tokens.values() if not t.revoked]  # noqa: E731
    assert len(live()) == 1
    await explorer.pilot.press("q")
    await wait_until(lambda: live() == [])
