"""After a failure, the JSON and Headers panes say what is in view: never an earlier answer's body,
nor its `200 OK`, beside a request refused before it was sent or one that got no answer."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from textual.widgets import Static, TabbedContent

from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.tui.widgets.json_view import JsonView
from tests.tui.conftest import Explorer, explorer_on

EVENTS = "/groups/687b4c139cc9af4ec9546b43/events"


async def pane(explorer: Explorer, key: str, name: str) -> str:
    """Press `key` (2: JSON, 3: Headers) and read what the pane says."""
    await explorer.pilot.press(key)
    await explorer.until(lambda: explorer.q(TabbedContent).active == name)
    await explorer.pilot.pause()
    if name == "json":
        view = explorer.q(JsonView)
        lines = [view.render_line(y).text.strip() for y in range(view.size.height)]
        return "\n".join([str(explorer.q("JsonPane #where", Static).render()), *filter(None, lines)])
    return str(explorer.q("HeadersView #headers", Static).render())


@pytest.mark.screen
async def test_a_url_refused_before_it_was_sent_leaves_no_earlier_answer_in_the_panes(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.go_to(EVENTS)
        await explorer.go_to("https://evil.example/x")
        assert await pane(explorer, "2", "json") == "no JSON: nothing was sent"
        headers = await pane(explorer, "3", "headers")
        assert headers.startswith(
            "Nothing was sent: GET https://evil.example/x\n"
            "evil.example is not sandbox.invalid: the credentials go only to sandbox.invalid"
        ), headers
        assert "200 OK" not in headers and "events" not in headers, headers
        await explorer.pilot.press("y")  # the URL in view is the one refused, not the events page before it
        assert explorer.app.clipboard == "https://evil.example/x"
        await explorer.pilot.press("Y")
        assert "Nothing was sent: there is no request to copy (x says why)." in explorer.toasts()
        assert explorer.app.clipboard == "https://evil.example/x"  # nothing copied over it


@pytest.mark.screen
async def test_a_request_with_no_answer_shows_the_request_as_sent_and_why(clock):
    sandbox = create_app(Settings(clock=clock))
    down = False

    async def service(scope: Any, receive: Any, send: Any) -> None:
        """The sandbox, until it is stopped: then every connection to it is refused."""
        if down:
            raise httpx.ConnectError("[Errno 111] Connection refused")
        await sandbox(scope, receive, send)

    session = demo_session(Settings(clock=clock), app=service)
    async with explorer_on(session, clock, size=(80, 24)) as explorer:
        await explorer.open("orgs")
        down = True
        await explorer.pilot.press("r")
        await explorer.settle()
        assert await pane(explorer, "2", "json") == "no JSON: no answer came"
        headers = await pane(explorer, "3", "headers")
        assert headers.startswith("GET https://sandbox.invalid/api/service/v1.0/orgs"), headers
        assert "authorization: Bearer ***" in headers, headers
        assert headers.rstrip().endswith("no answer: Connection refused by sandbox.invalid:443"), headers
        assert "200 OK" not in headers, headers
        await explorer.pilot.press("Y")  # the request that got no answer: what to try again from a shell
        assert explorer.app.clipboard.startswith("curl ")
        assert explorer.app.clipboard.endswith(" https://sandbox.invalid/api/service/v1.0/orgs"), explorer.app.clipboard
    await session.aclose()
