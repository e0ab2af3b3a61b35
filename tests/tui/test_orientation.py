"""Orientation on the screen: the tree shows what was opened, a request on its way is said, notices
never cover a field typed into and go when what they said no longer holds."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static, TabbedContent, TextArea

from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.tui.app import ExplorerApp
from explorer.tui.screens.editor import EditorScreen
from explorer.tui.widgets.previous_answer import PreviousAnswer
from explorer.tui.widgets.status_bar import StatusBar
from tests.tui.conftest import Explorer, Held, started, wait_until
from tests.tui.screen_text import region_text
from tests.tui.test_writes import choose, open_production, set_body


@pytest.mark.screen
async def test_a_notice_never_covers_the_search_field(open_explorer):
    """`e` then `/` in one breath at 120×30: the `envelope=true` notice stands above the search box."""
    async with open_explorer(size=(120, 30)) as explorer:
        await explorer.open("orgs")
        await explorer.pilot.press("e", "slash")
        await explorer.until(lambda: "envelope=true" in explorer.toasts() and isinstance(explorer.app.focused, Input))
        field = explorer.app.focused
        await explorer.until(lambda: field.region.height > 0)
        await explorer.pilot.pause()
        await explorer.pilot.pause()
        toast = explorer.app.screen.query_one("Toast").region
        assert toast.bottom <= field.region.y, (toast, field.region)
        await explorer.pilot.press("escape")  # the search closed: notices stand on the status bar again
        await explorer.until(lambda: not explorer.app.screen.query("#search"))
        bar = explorer.app.screen.query_one("StatusBar").region
        await explorer.until(lambda: explorer.app.screen.query_one("Toast").region.bottom == bar.y)


@pytest.mark.screen
async def test_the_notice_that_the_body_is_not_json_goes_once_it_is(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, '{"name": "production"')
        problems = explorer.app.screen.query_one("#problems", Static)
        await explorer.until(lambda: str(problems.render()).startswith("line 1: not JSON"))
        await explorer.pilot.press("ctrl+s")
        said = "The body is not JSON: nothing can be sent until it is."
        await explorer.until(lambda: said in explorer.toasts())
        assert isinstance(explorer.app.screen, EditorScreen)
        explorer.app.screen.query_one(TextArea).insert("}", (0, len('{"name": "production"')))
        await explorer.until(lambda: str(problems.render()).startswith("✓ JSON"))
        await explorer.until(lambda: said not in explorer.toasts())


def rows_in_view(explorer) -> range:
    """The tree's rows drawn on the screen now."""
    tree = explorer.link_tree
    top = tree.scroll_offset.y
    return range(top, top + tree.scrollable_content_region.height)


@pytest.mark.screen
async def test_opening_a_node_at_the_bottom_scrolls_its_children_into_view(open_explorer):
    """At 120×40 after an org's 75 events, the next org on the last row: opened, it and its
    relations come into view, the org's own line kept."""
    async with open_explorer(size=(120, 40)) as explorer:
        await explorer.open("orgs")
        org, other = (line.data.title for line in explorer.node("orgs").children[:2])
        await explorer.open("orgs", org)
        await explorer.open("orgs", org, "events")
        opened = explorer.node("orgs", other)
        await explorer.cursor_to(opened)
        assert opened.line == rows_in_view(explorer)[-1]  # the cursor went down to it: on the last row
        await explorer.pilot.press("enter")
        await explorer.settle()
        await explorer.until(lambda: len(opened.children) == 4 and opened.children[-1].line in rows_in_view(explorer))
        assert opened.line in rows_in_view(explorer) and explorer.link_tree.cursor_node is opened
        lines = region_text(explorer.app, explorer.link_tree).splitlines()
        assert [line.split("── ")[1].split()[1] for line in lines[-4:]] == ["groups", "teams", "users", "events"]


@pytest.mark.screen
async def test_going_to_a_node_with_g_shows_its_children(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        await explorer.open("orgs")
        org, other = explorer.node("orgs").children[:2]
        await explorer.open("orgs", org.data.title)
        await explorer.open("orgs", org.data.title, "events")
        await explorer.cursor_to(org)  # at the top: the other org is out of view, below the events
        assert other.line not in rows_in_view(explorer)
        opened = await explorer.go_to(other.data.url)
        assert opened is other
        await explorer.until(lambda: len(opened.children) == 4 and opened.children[-1].line in rows_in_view(explorer))
        assert opened.line in rows_in_view(explorer)


@pytest.mark.screen
async def test_a_request_on_its_way_is_said_at_once_and_the_panes_say_they_show_the_previous_answer(clock):
    """A slow service: the bar says the request, its seconds and Esc (not the previous `200 OK`), and a
    line above the panes that they show the previous answer; both go when the answer comes, or on Esc."""
    sandbox = Held(create_app(Settings(clock=clock)))
    sandbox.open.set()
    app = ExplorerApp(demo_session(Settings(clock=clock), app=sandbox), demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        explorer = Explorer(pilot, app, sandbox, clock, None)
        await explorer.open("orgs")
        bar = explorer.screen.query_one(StatusBar)
        previous = explorer.screen.query_one(PreviousAnswer)
        assert "│ 200 OK · " in str(bar.render()) and not previous.display
        sandbox.open.clear()  # the next request is held until the test lets it go
        await explorer.cursor_to(explorer.node("groups"))
        await pilot.press("enter")
        await explorer.until(lambda: "│ waiting for GET /groups · 0s · Esc cancels │" in str(bar.render()))
        assert "200 OK" not in str(bar.render())
        await explorer.until(lambda: previous.display)
        said = "Previous answer: the new one is on its way"
        assert str(previous.render()) == said and previous.region.y == explorer.q(TabbedContent).region.y - 1
        clock.advance(4)
        await explorer.until(lambda: "│ waiting for GET /groups · 4s · Esc cancels │" in str(bar.render()))
        sandbox.open.set()
        await explorer.until(lambda: explorer.current is explorer.node("groups").data)
        await explorer.until(lambda: "│ 200 OK · " in str(bar.render()) and not previous.display)
        assert "waiting" not in str(bar.render())
        sandbox.open.clear()
        await explorer.cursor_to(explorer.node("orgs"))
        await pilot.press("r")  # again, held; then Esc
        await explorer.until(lambda: "waiting for GET /orgs" in str(bar.render()) and previous.display)
        await pilot.press("escape")
        await explorer.until(lambda: "waiting" not in str(bar.render()) and not previous.display)
        assert "Cancelled." in explorer.toasts()
        sandbox.open.set()
