"""Server strings are data: never markup, never raw control characters on the terminal."""

from __future__ import annotations

import httpx
import pytest
from textual.widgets import Static, TabbedContent

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.tui.app import ExplorerApp
from explorer.tui.widgets.field_tree import scalar
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.json_view import JsonView
from tests.tui.conftest import JsonHost, json_resource, started, toasts_of, wait_until

HOSTILE = "[@click=app.quit]boom[/x] [b]bold \x1b[31mred\x07 \u202eevil\x9b"
BASE = "https://hostile.example/api/service/v1.0"


def serve(request: httpx.Request) -> httpx.Response:
    path = request.url.path
    if path == "/api/oauth/token":
        return httpx.Response(200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 3600})
    if path == "/api/service/v1.0":
        links = [{"rel": "self", "href": BASE}, {"rel": f"https://x.example/{HOSTILE}", "href": BASE + "/things"},
                 {"rel": "https://x.example/broken", "href": BASE + "/broken"},
                 {"rel": "https://x.example/raw", "href": BASE + "/raw?q=[@click=app.quit]x[/x]"}]  # fmt: skip
        evil = HOSTILE.encode("latin-1", "replace")
        return httpx.Response(200, json={"links": links, "name": HOSTILE}, headers=[(b"x-evil", evil)])
    if path == "/api/service/v1.0/things":
        items = [{"id": "1", "name": HOSTILE, "links": [{"rel": "self", "href": BASE + "/things/1"}]}]
        return httpx.Response(
            200, json={"links": [{"rel": "self", "href": str(request.url)}], "results": items, "totalCount": 1}
        )
    if path == "/api/service/v1.0/broken":
        document = {
            "detail": HOSTILE,
            "error": 404,
            "errorCode": "[red]NOT_FOUND[/red]",
            "parameters": [HOSTILE],
            "reason": "Not Found",
        }
        return httpx.Response(404, json=document)
    return httpx.Response(
        200, content=f"<html>{HOSTILE}\n\x1b]0;title\x07</html>".encode(), headers={"content-type": "text/html"}
    )


@pytest.mark.screen
async def test_hostile_strings_are_shown_as_text_everywhere():
    credentials = Credentials(BASE, client_id="c", client_secret=Secret("s"))
    session = Session(credentials, transport=httpx.MockTransport(serve))
    app = ExplorerApp(session, demo=lambda: session)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        screen = app.screen
        tree = screen.link_tree

        async def open_(node):
            tree.move_cursor(node)
            await pilot.press("enter")
            await wait_until(lambda: screen.navigation.fetching is None, pilot=pilot)
            await pilot.pause()

        things, broken, raw = tree.root.children
        await open_(things)
        labels = [tree.root.label.plain, things.label.plain, *(c.label.plain for c in things.children)]
        table = screen.query_one("ItemsTable")
        cells = [cell.plain for cell in table.row_texts(0)]
        await open_(broken)
        status = str(screen.query_one("StatusBar").render())
        await open_(raw)
        await pilot.press("y")  # a notification holding the URL
        await pilot.pause()
        notes = toasts_of(app)
        screen.query_one(TabbedContent).active = "json"
        await pilot.pause()
        view = screen.query_one(JsonView)
        rendered = [view.render_line(y).text for y in range(3)]
        screen.query_one(TabbedContent).active = "headers"
        await pilot.pause()
        await open_(tree.root)
        headers = str(screen.query_one("HeadersView #headers", Static).render())
        shown = app.export_screenshot()

        assert app.is_running  # [@click=app.quit] ran nothing
        everything = labels + cells + [status, headers, notes] + rendered
        assert "Copied https://hostile.example/api/service/v1.0/raw?q=[@click=app.quit]x[/x]" in notes
        assert not any(ch in text for text in everything for ch in "\x1b\x07\x9b\u202e"), everything
        assert any("[@click=app.quit]boom[/x]" in text for text in labels), labels
        assert "␛[31mred␇ <U+202E>evil" in cells[1]  # a long cell ends in …
        assert "[red]NOT_FOUND[/red]" in status and "␛" in status
        assert rendered[0].startswith("<html>[@click=app.quit]") and "␛]0;title␇" in rendered[1]
        assert "[@click=app.quit]" in shown and "\x1b" not in shown


async def test_a_hostile_key_is_shown_as_text_on_the_where_line_and_in_the_copy_toast():
    resource = json_resource(b'{"\\u202e[@click=app.quit]key\\u001b[31m": 1}')
    async with JsonHost().run_test(notifications=True) as pilot:
        pilot.app.query_one(JsonPane).show(resource)
        view = pilot.app.query_one(JsonView)
        view.focus()
        await pilot.press("down", "c")
        await pilot.pause()
        where = str(pilot.app.query_one("JsonPane #where", Static).render())
        notes = toasts_of(pilot.app)
        assert pilot.app.is_running
        assert pilot.app.clipboard == '.["\u202e[@click=app.quit]key\\u001b[31m"]'  # the clipboard gets the path itself
        for shown in (where, notes):
            assert '["<U+202E>[@click=app.quit]key\\u001b[31m"]' in shown, shown
            assert "\u202e" not in shown and "\x1b" not in shown


@pytest.mark.parametrize("value", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_date_past_pythons_years_in_local_time_shows_as_sent(value):
    assert scalar(value).plain == value
