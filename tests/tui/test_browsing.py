"""Browsing from the root: the tree, lists and pages, the panes, back and forward, go-to."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static, TabbedContent

from explorer.tui.screens import main as main_screen
from explorer.tui.widgets.field_tree import FieldTree
from explorer.tui.widgets.items_table import ItemsTable
from explorer.tui.widgets.json_view import JsonView
from tests.tui.conftest import PATIENCE


def titles(node) -> list[str]:
    return [child.data.title for child in node.children]


def labels(node) -> list[str]:
    return [child.label.plain for child in node.children]


@pytest.mark.screen
async def test_the_screen_starts_at_the_root_with_its_relations(explorer):
    root = explorer.link_tree.root
    assert root.label.plain == "root  /"
    assert titles(root) == ["orgs", "groups", "ipinfo"]
    assert labels(root)[0] == "orgs  /orgs"  # the rel's short name, then the path (dimmed)
    # outside the API root: the path from the origin; a private path, which the description leaves out
    assert labels(root)[2] == "ipinfo  not in the description  /api/private/ipinfo"  # the mark first
    fields = [child.label.plain for child in explorer.q(FieldTree).root.children]
    assert "appName: Service Sandbox" in fields
    assert explorer.app.focused is explorer.link_tree


@pytest.mark.screen
async def test_a_relation_is_fetched_when_opened_and_only_once(explorer):
    before = explorer.requests("/groups")
    groups = await explorer.open("groups")
    assert explorer.requests("/groups") == before + 1
    assert titles(groups)[:5] == ["production", "staging", "analytics", "empty-sandbox", "training-lab"]
    await explorer.pilot.press("space", "space")  # folded and unfolded again
    await explorer.settle()
    assert groups.is_expanded
    await explorer.open("groups")
    assert explorer.requests("/groups") == before + 1  # shown again from what was fetched


@pytest.mark.screen
async def test_self_is_not_a_child_and_items_expand_into_their_relations(explorer):
    await explorer.open("groups")
    production = await explorer.open("groups", "production")
    assert "self" not in titles(production)
    assert titles(production) == [
        "org", "clusters", "databaseUsers", "processes", "events", "alerts", "alertConfigs", "accessList", "teams",
    ]  # fmt: skip
    assert labels(production)[:2] == [
        f"org  /orgs/{production.data.resource.json['orgId']}",  # elsewhere: the whole path
        "clusters  …/clusters",  # under the project: what it adds to the project's path
    ]


@pytest.mark.screen
async def test_a_url_open_elsewhere_is_marked_and_not_fetched_again(explorer):
    await explorer.open("orgs")
    org = explorer.node("orgs").children[0]
    await explorer.open("orgs", org.data.title)
    await explorer.open("groups")
    production = await explorer.open("groups", "production")
    before = explorer.requests()
    back_to_org = explorer.node("groups", "production", "org")
    assert back_to_org.label.plain.startswith("org  ↺ open elsewhere  ")  # the mark before the path
    assert not back_to_org.allow_expand  # a cycle ends here
    await explorer.open("groups", "production", "org")
    assert explorer.requests() == before
    assert explorer.link_tree.cursor_node is org  # the cursor goes to where it is open
    assert production.is_expanded


@pytest.mark.screen
async def test_a_list_shows_a_page_of_items_a_table_and_a_next_page_node(explorer):
    await explorer.open("groups")
    await explorer.open("groups", "production")
    events = await explorer.open("groups", "production", "events")
    children = titles(events)
    assert len(children) == 101 and children[-1] == "next page › (page 2 of 13)"
    table = explorer.q(ItemsTable)
    assert table.row_count == 100
    assert table.column_names[:2] == ["id", "eventTypeName"]  # an event's name is its type
    assert str(explorer.q("PageView #pagination", Static).render()) == ("page 1 of 13 · 1,234 items · 100 per page")


@pytest.mark.screen
async def test_pages_turn_with_the_keys_and_with_the_next_node(explorer):
    await explorer.open("groups")
    await explorer.open("groups", "production")
    await explorer.open("groups", "production", "events")
    await explorer.pilot.press("right_square_bracket")
    await explorer.settle()
    pagination = explorer.q("PageView #pagination", Static)
    assert str(pagination.render()) == "page 2 of 13 · 1,234 items · 100 per page"
    events = explorer.node("groups", "production", "events")
    assert titles(events)[0] == "‹ previous page"
    await explorer.open("groups", "production", "events", "next page › (page 3 of 13)")
    assert str(pagination.render()).startswith("page 3 of 13")
    await explorer.pilot.press("left_square_bracket")
    await explorer.settle()
    assert str(pagination.render()).startswith("page 2 of 13")


@pytest.mark.screen
async def test_a_page_turn_opens_no_line_already_open(explorer):
    """Textual's expand() lays the tree out anew and says so whether the line was open or not; the
    screen answered each with a step of its own: three for a page turn, each a frame of the whole tree."""
    await explorer.open("groups")
    await explorer.open("groups", "production")
    await explorer.open("groups", "production", "events")
    tree = explorer.app.screen.link_tree
    posted: list[str] = []
    post = tree.post_message

    def spy(message):
        posted.append(type(message).__name__)
        return post(message)

    tree.post_message = spy
    await explorer.pilot.press("right_square_bracket")
    await explorer.settle()
    assert str(explorer.q("PageView #pagination", Static).render()).startswith("page 2 of 13")
    assert "NodeExpanded" not in posted
    assert explorer.node("groups", "production", "events").is_expanded


@pytest.mark.screen
async def test_a_quick_page_turn_never_marks_its_list_as_loading_and_a_slow_one_does(open_explorer, monkeypatch):
    """The `…` mark and its taking away were each a frame of a page turn: only a fetch that goes on
    past PENDING_MARK_AFTER is marked. "Quick" and "slow" are the test's to say, not a loaded machine's: the
    quick turn has all the time it could need, the slow one is held until its mark is seen."""
    async with open_explorer(held=True) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        events = await explorer.open("groups", "production", "events")
        tree = explorer.app.screen.link_tree
        labels: list[str] = []
        label_of = tree.label_of

        def spy(line):  # a label is made when its line is drawn
            label = label_of(line)
            if line is events:
                labels.append(label.plain)
            return label

        tree.label_of = spy
        monkeypatch.setattr(main_screen, "PENDING_MARK_AFTER", PATIENCE)
        await explorer.pilot.press("right_square_bracket")
        await explorer.settle()
        assert str(explorer.q("PageView #pagination", Static).render()).startswith("page 2 of 13")
        assert labels and not [label for label in labels if label.startswith("events  …  ")]
        monkeypatch.undo()
        explorer.sandbox.open.clear()  # the next page is held until its mark is on the screen
        await explorer.pilot.press("right_square_bracket")
        await explorer.until(lambda: events.label.plain == "events  …  …/events")
        explorer.sandbox.open.set()
        await explorer.until(lambda: str(explorer.q("PageView #pagination", Static).render()).startswith("page 3"))
        assert events.label.plain == "events  …/events"


@pytest.mark.screen
async def test_a_page_turn_makes_labels_only_for_the_lines_on_screen(explorer):
    """Textual's Tree made a label for each line as it was added and laid the screen out for each:
    500 of both for a page turn at 500 per page. The link tree makes a label when its line is drawn."""
    await explorer.open("groups")
    await explorer.open("groups", "production")
    await explorer.open("groups", "production", "events")
    await explorer.pilot.press("plus", "plus", "plus", "plus", "plus")  # 500 per page
    await explorer.settle()
    pagination = explorer.q("PageView #pagination", Static)
    assert str(pagination.render()).startswith("page 1 of 3")
    tree = explorer.app.screen.link_tree
    made: list[object] = []
    label_of = tree.label_of

    def spy(line):
        made.append(line.data)
        return label_of(line)

    tree.label_of = spy
    await explorer.pilot.press("right_square_bracket")
    await explorer.settle()
    assert str(pagination.render()).startswith("page 2 of 3")
    items = [line.data for line in explorer.node("groups", "production", "events").children]
    assert len(items) > 500  # the page's 500, and the lines to the next and the previous page
    assert 0 < len(set(made) & set(items)) <= tree.size.height


@pytest.mark.screen
async def test_items_per_page_goes_up_to_500(explorer):
    await explorer.open("groups")
    await explorer.open("groups", "production")
    await explorer.open("groups", "production", "events")
    for _ in range(3):
        await explorer.pilot.press("plus")
        await explorer.settle()
    pagination = explorer.q("PageView #pagination", Static)
    assert str(pagination.render()) == "page 1 of 3 · 1,234 items · 500 per page"
    assert explorer.q(ItemsTable).row_count == 500
    await explorer.pilot.press("minus")
    await explorer.settle()
    assert str(pagination.render()).endswith("200 per page")


@pytest.mark.screen
async def test_enter_on_a_row_opens_that_item(explorer):
    await explorer.open("groups")
    await explorer.pilot.press("1", "down", "enter")  # the Page pane's table, its second row
    await explorer.settle()
    assert explorer.link_tree.cursor_node.data.title == "staging"
    fields = [child.label.plain for child in explorer.q(FieldTree).root.children]
    assert "name: staging" in fields


@pytest.mark.screen
async def test_every_pane_shows_the_resource(explorer):
    await explorer.open("orgs")
    await explorer.pilot.press("2")
    await explorer.until(lambda: explorer.q(JsonView).has_focus)
    view = explorer.q(JsonView)
    assert [view.render_line(y).text.rstrip() for y in range(2)] == ["{", '  "links": [']
    await explorer.pilot.press("3")
    await explorer.until(lambda: explorer.q(TabbedContent).active == "headers")
    headers = str(explorer.q("HeadersView #headers", Static).render())
    assert "authorization: Bearer ***" in headers
    assert "content-type: application/vnd.service.2023-01-01+json;charset=utf-8" in headers
    assert explorer.app.session.auth.token.value.reveal() not in headers
    await explorer.pilot.press("4")
    log = explorer.q("RequestLog", DataTable)
    await explorer.until(lambda: log.row_count == 4)
    paths = [log.get_row_at(i)[5].plain for i in range(log.row_count)]
    # the API description first (fetched without credentials); under the API root, from it (as in the tree)
    assert paths == ["/openapi.json", "/api/oauth/token", "/", "/orgs"]


@pytest.mark.screen
async def test_back_and_forward_move_through_what_was_shown(explorer):
    await explorer.open("orgs")
    await explorer.open("groups")
    await explorer.pilot.press("backspace")
    await explorer.settle()
    assert explorer.link_tree.cursor_node.data.title == "orgs"
    await explorer.pilot.press("alt+right")
    await explorer.settle()
    assert explorer.link_tree.cursor_node.data.title == "groups"


@pytest.mark.screen
async def test_go_to_a_path(explorer):
    node = await explorer.go_to("/orgs")  # the tree has it: that node, opened
    assert node is explorer.node("orgs") and node.data.resource.status == 200
    node = await explorer.go_to("/orgs?itemsPerPage=1")  # another page of it: in the same node
    assert node is explorer.node("orgs") and titles(node)[-1] == "next page › (page 2 of 2)"
    node = await explorer.go_to("/api/private/ipinfo")
    assert node is explorer.node("ipinfo")
    node = await explorer.go_to("/orgs/000000000000000000000000")  # not in the tree: a node of its own
    assert node.data.kind == "goto" and node.label.plain == "go to  ✗ 404  /orgs/000000000000000000000000"


async def log_after_pages(explorer, keys: str) -> DataTable:
    """The events list, these page keys pressed one by one, then the Log pane in view."""
    await explorer.go_to("/groups/687b4c139cc9af4ec9546b43/events")
    for key in keys:
        await explorer.pilot.press(key)
        await explorer.settle()
    await explorer.pilot.press("4")
    await explorer.until(lambda: explorer.q(TabbedContent).active == "log")
    return explorer.q("RequestLog", DataTable)


@pytest.mark.screen
async def test_the_log_keeps_the_page_of_each_request_in_its_room(open_explorer):
    """Pages of one list, a long path: the path before the resource gives way, not `pageNum=2`."""
    from tests.tui.screen_text import region_text

    async with open_explorer(size=(120, 40)) as explorer:
        log = await log_after_pages(explorer, "]]]+")
        await explorer.pilot.pause()
        drawn = region_text(explorer.app, log)
        rows = [line.rstrip(" ▁▂▃▄▅▆▇█▊▎▌│") for line in drawn.splitlines() if "ents" in line]
        pages = [row.split("?", 1)[1].split("&", 1)[1] if "?" in row else "" for row in rows]
        assert pages == [
            "",
            "pageNum=2&itemsPerPage=100",
            "pageNum=3&itemsPerPage=100",
            "pageNum=4&itemsPerPage=100",
            "pageNum=2&itemsPerPage=200",
        ], drawn


@pytest.mark.screen
async def test_the_log_cuts_a_path_so_the_names_at_its_end_show(open_explorer):
    from tests.tui.screen_text import region_text

    async with open_explorer(size=(120, 40)) as explorer:
        clusters = "/groups/687b4c139cc9af4ec9546b43/clusters"
        await explorer.go_to(f"{clusters}/orders-prod")
        await explorer.go_to(f"{clusters}/search-prod")
        await explorer.pilot.press("4")
        log = explorer.q("RequestLog", DataTable)
        await explorer.until(lambda: explorer.q(TabbedContent).active == "log")
        await explorer.pilot.pause()
        drawn = region_text(explorer.app, log)
        rows = [line.strip() for line in drawn.splitlines() if "687b…6b43" in line]
        assert [row.rsplit("/", 1)[1] for row in rows] == ["orders-prod", "search-prod"], drawn  # told apart
        await explorer.pilot.press("1")  # the Log pane hidden, the terminal made narrower, a request more
        await explorer.pilot.resize_terminal(80, 24)
        await explorer.go_to(f"{clusters}/catalog-prod")
        await explorer.pilot.press("4")
        await explorer.until(lambda: explorer.q(TabbedContent).active == "log")
        await explorer.pilot.pause()
        await explorer.pilot.pause()
        rows = [line.rstrip(" ▁▂▃▄▅▆▇█▊▎▌│") for line in region_text(explorer.app, log).splitlines()]
        ends = [row[-4:] for row in rows if "GET" in row or "POST" in row]
        assert ends[-3:] == ["prod", "prod", "prod"] and ends[0] == "json", rows  # each path's end, in its room


@pytest.mark.screen
async def test_the_log_keeps_the_page_number_of_each_request_at_80_and_60_columns(open_explorer):
    """Every page of a list ends in `itemsPerPage=100`: in a narrow pane the page's number stays in
    view, the bytes (then the time) giving way to it, rather than a tail that every row shares."""
    from tests.tui.screen_text import region_text

    async with open_explorer(size=(80, 24)) as explorer:
        log = await log_after_pages(explorer, "]]][")
        for width, header in ((80, "time      method  status  ms  path"), (60, "method  status  ms  path")):
            await explorer.pilot.resize_terminal(width, 24)
            await explorer.pilot.pause()
            await explorer.pilot.pause()
            rows = [line.rstrip(" ▁▂▃▄▅▆▇█▊▎▌│") for line in region_text(explorer.app, log).splitlines()]
            assert rows[0].strip() == header, rows
            pages = [row.rsplit("pageNum=", 1)[1] for row in rows if "pageNum=" in row]
            assert pages == ["2", "3", "4", "3"], rows
