"""A list the service answers as a bare JSON array: a table in the Page pane, its items in the tree.

The real service answers some lists (invitations, private endpoint services, custom roles) as a
top-level array, not as `{results, totalCount, links}`. Its recorded answers are served by the
sandbox behind the screen, at a path of their own, and the screen is driven with keys.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from textual.widgets import Static

from explorer.demo import DEMO_BASE_URL
from explorer.tui.widgets.field_tree import FieldTree
from explorer.tui.widgets.page_view import PageView
from tests.conftest import REAL_RESPONSES
from tests.real_response import read_recorded
from tests.tui.screen_text import region_text

INVITES = "200_GET_api_atlas_v2_orgs_a0123456789abcdef012345a_invites_1.http"


def serve(explorer: Any, name: str, body: bytes, headers: dict[str, str] | None = None) -> str:
    """The sandbox answers `body` at …/recorded/NAME (after its own credentials check); its URL."""
    path = f"{DEMO_BASE_URL.split('sandbox.invalid', 1)[1]}/recorded/{name}"
    sent = headers or {"content-type": "application/json"}

    async def endpoint(request: Request) -> Response:
        return Response(body, headers=sent)

    explorer.sandbox.router.routes.insert(0, Route(path, endpoint))
    return f"{DEMO_BASE_URL}/recorded/{name}"


def serve_recorded(explorer: Any, file_name: str) -> tuple[str, list[Any]]:
    """A recorded response of the real service, served as it was recorded; its URL and its items."""
    recorded = read_recorded(REAL_RESPONSES / file_name)
    headers = {name: value for name, value in recorded.headers.items() if name != "content-length"}
    return serve(explorer, "invites", recorded.body, headers), json.loads(recorded.body)


def titles(node: Any) -> list[str]:
    return [child.data.title for child in node.children]


def pagination(explorer: Any) -> str:
    return str(explorer.q("PageView #pagination", Static).render())


async def press(explorer: Any, *keys: str) -> None:
    await explorer.pilot.press(*keys)
    await explorer.settle()


@pytest.mark.screen
async def test_a_recorded_bare_array_is_a_table_and_its_items_are_the_nodes_children(explorer):
    url, invites = serve_recorded(explorer, INVITES)
    node = await explorer.go_to(url)
    assert pagination(explorer) == f"{len(invites)} items · a bare array, not paged"
    page = region_text(explorer.app, explorer.q(PageView)).splitlines()
    header, first = page[1].split(), page[2]
    assert header[:3] == ["id", "username", "expiresAt"], page[1]
    assert first.split()[:3] == [invites[0]["id"], invites[0]["username"], invites[0]["expiresAt"]], first
    assert titles(node) == [invite["username"] for invite in invites]
    assert node.is_expanded


@pytest.mark.screen
async def test_enter_on_a_row_of_a_bare_array_opens_that_item(explorer):
    url, invites = serve_recorded(explorer, INVITES)
    await explorer.go_to(url)
    await press(explorer, "1", "down", "enter")  # the Page pane's table, its second row
    assert explorer.link_tree.cursor_node.data.title == invites[1]["username"]
    fields = [child.label.plain for child in explorer.q(FieldTree).root.children]
    assert f"username: {invites[1]['username']}" in fields, fields


@pytest.mark.screen
async def test_page_keys_on_a_bare_array_say_it_has_no_pages(explorer):
    url, invites = serve_recorded(explorer, INVITES)
    await explorer.go_to(url)
    asked = explorer.requests("/recorded/invites")
    said = {
        "right_square_bracket": "A bare array has no pages: all 3 items are on this one.",
        "left_square_bracket": "A bare array has no pages: all 3 items are on this one.",
        "plus": "A bare array has no pages to size: all 3 items are on this one.",
        "minus": "A bare array has no pages to size: all 3 items are on this one.",
    }
    for key, note in said.items():
        await press(explorer, key)
        await explorer.until(lambda note=note: note in explorer.toasts())
    assert len(invites) == 3
    assert explorer.requests("/recorded/invites") == asked  # nothing asked again
    assert pagination(explorer) == "3 items · a bare array, not paged"


@pytest.mark.screen
async def test_an_item_opened_from_a_bare_array_stays_open_when_the_list_is_fetched_again(explorer):
    orgs = await explorer.app.session.fetch("/orgs")  # the sandbox's orgs, with their self links
    url = serve(explorer, "orgs", json.dumps(orgs.page.results).encode())
    await explorer.go_to(url)
    await press(explorer, "1", "enter")  # the first org, fetched: its relations under it
    org = explorer.link_tree.cursor_node
    assert org.data.title == orgs.page.results[0]["name"] and org.children and org.is_expanded
    await explorer.cursor_to(org.parent)
    await press(explorer, "enter", "r")  # the list again, fetched anew
    assert explorer.requests("/recorded/orgs") == 2
    assert org.parent.children[0] is org and org.is_expanded and org.children


@pytest.mark.screen
async def test_reload_of_a_bare_array_keeps_the_table_cursor_on_its_item(explorer):
    orgs = await explorer.app.session.fetch("/orgs")
    many = orgs.page.results  # the sandbox's orgs, with self links
    url = serve(explorer, "orgs", json.dumps(many).encode())
    await explorer.go_to(url)
    await press(explorer, "1", "down")
    assert explorer.screen.cursor_item() == many[1]["links"][0]["href"]
    await press(explorer, "r")
    assert explorer.requests("/recorded/orgs") == 2
    assert explorer.screen.cursor_item() == many[1]["links"][0]["href"]
