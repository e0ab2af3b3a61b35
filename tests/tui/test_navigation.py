"""Where you are, on the screen: go-to, pages, back and forward, reload and switches, marks, the tree's width.

Each test drives the demo sandbox with keys, as a user would, and reads what the screen shows.
"""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.widgets import Input, Static

from explorer.tui.safe_text import visible
from explorer.tui.screen_state import load_state
from explorer.tui.screens.dialogs import GoToScreen
from explorer.tui.screens.main import MainScreen
from explorer.tui.widgets.field_tree import FieldTree
from explorer.tui.widgets.items_table import ItemsTable
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.json_view import JsonView
from explorer.tui.widgets.link_tree import LinkTree
from explorer.tui.widgets.page_view import PageView
from tests.tui.screen_text import screen_lines, screen_text

PRODUCTION = "687b4c139cc9af4ec9546b43"  # the demo's first project


def titles(line) -> list[str]:
    return [child.data.title for child in line.children]


def pagination(explorer) -> str:
    return str(explorer.q("PageView #pagination", Static).render())


def fields(explorer) -> list[str]:
    return [child.label.plain for child in explorer.q(FieldTree).root.children]


async def project_id(explorer, name: str = "production") -> str:
    """A project's ID, asked of the sandbox behind the screen's back: the tree does not see it."""
    groups = await explorer.app.session.fetch("/groups")
    return next(project["id"] for project in groups.page.results if project["name"] == name)


async def press(explorer, *keys: str) -> None:
    await explorer.pilot.press(*keys)
    await explorer.settle()


EVENTS = ("groups", "production", "events")


async def open_events(explorer) -> None:
    await explorer.open("groups")
    await explorer.open("groups", "production")
    await explorer.open("groups", "production", "events")


@pytest.mark.screen
async def test_enter_on_a_row_of_a_list_reached_by_go_to_opens_that_item(explorer):
    project = await project_id(explorer)
    await explorer.go_to(f"/groups/{project}/clusters")
    await press(explorer, "1", "down", "enter")  # the Page pane's table: the second row
    second = explorer.current
    assert second.kind == "item" and second.parent.kind == "goto"
    assert f"name: {second.title}" in fields(explorer)  # the cluster, not the root
    assert explorer.link_tree.cursor_node.data is second


@pytest.mark.screen
async def test_a_list_of_one_says_one_item_not_one_items(explorer):
    project = await project_id(explorer, "analytics")  # one cluster
    await explorer.go_to(f"/groups/{project}/clusters")
    assert pagination(explorer) == "page 1 of 1 · 1 item · 100 per page"


@pytest.mark.screen
async def test_back_after_a_page_turn_puts_page_one_back_and_adds_no_node(explorer):
    await open_events(explorer)
    events = explorer.node("groups", "production", "events")
    await press(explorer, "right_square_bracket")
    assert pagination(explorer).startswith("page 2 of 13") and titles(events)[0] == "‹ previous page"
    requests = explorer.requests()
    await press(explorer, "backspace")
    assert pagination(explorer).startswith("page 1 of 13")
    assert titles(events)[0] != "‹ previous page" and titles(events)[-1] == "next page › (page 2 of 13)"
    assert len(events.children) == 101
    for key, page in ("alt+right", 2), ("backspace", 1), ("alt+right", 2), ("backspace", 1):
        await press(explorer, key)
        assert pagination(explorer).startswith(f"page {page} of 13")
    assert titles(explorer.link_tree.root) == ["orgs", "groups", "ipinfo"]  # no `go to` node
    assert explorer.requests() == requests  # pages seen before come back as they were


@pytest.mark.screen
async def test_page_turns_pressed_while_one_is_in_flight_each_turn_a_page_in_turn(explorer):
    await open_events(explorer)
    explorer.slow_down(300)  # each page takes a while: the presses come while the first is on its way
    pages = lambda: [e.url for e in explorer.app.session.log if "/events" in e.url and "pageNum=" in e.url]  # noqa: E731
    before = len(pages())
    explorer.hold_key("right_square_bracket", 5)  # five in one breath, as tmux's send-keys sends them
    await explorer.until(lambda: pagination(explorer).startswith("page 6 of 13"))
    await explorer.settle()
    turned = pages()[before:]
    assert [url.split("pageNum=")[1].split("&")[0] for url in turned] == ["2", "3", "4", "5", "6"]  # each once
    explorer.hold_key("left_square_bracket", 2)
    await explorer.until(lambda: pagination(explorer).startswith("page 4 of 13"))
    explorer.slow_down(0)


@pytest.mark.screen
@pytest.mark.parametrize("gap", [0, 0.005, 0.02])  # Enter in the same write as `g/orgs`, or just after it
async def test_g_a_path_and_enter_typed_fast_go_there(explorer, gap):
    await explorer.open("groups")  # the field starts at /groups, selected: what is typed takes its place
    for key, character in [("g", "g"), ("slash", "/"), ("o", "o"), ("r", "r"), ("g", "g"), ("s", "s")]:
        explorer.app.post_message(events.Key(key, character))  # as tmux's send-keys -l sends them
    await asyncio.sleep(gap)
    explorer.app.post_message(events.Key("enter", "\r"))
    # the keys are the app's to take in its own time: until the go-to has come back (the main screen was
    # on top before `g` was taken too, so it alone says nothing)
    await explorer.until(lambda: on_main(explorer) and explorer.requests("/orgs") == 1)
    await explorer.settle()
    assert explorer.current.resource.url.endswith("/orgs")  # not /groups, the start the typing took the place of


@pytest.mark.screen
async def test_keys_sent_while_go_to_opens_come_after_the_ones_before_them(explorer):
    """tmux's send-keys wrote `g` and a path in two writes: the second half, read once the field was
    up, went straight to it, ahead of the first half still on its way up from the tree."""
    path = "/groups/abcdef0123456789/events?x=1"
    await explorer.until(lambda: explorer.idle())
    for character in "g" + path[:20]:
        explorer.app.post_message(events.Key("slash" if character == "/" else character, character))
    while isinstance(explorer.app.screen, MainScreen):  # the next write comes as the field opens
        await asyncio.sleep(0)
    for character in path[20:]:
        explorer.app.post_message(events.Key(character if character.isalnum() else "x", character))
    await explorer.until(lambda: explorer.app.screen.is_mounted and len(explorer.q(Input).value) >= len(path))
    assert explorer.q(Input).value == path


def on_main(explorer) -> bool:
    """The main screen is on top, a dialog the keys opened closed again."""
    return isinstance(explorer.app.screen, MainScreen) and explorer.app.screen.is_mounted


def type_at_once(explorer, keys: str | list[str]) -> None:
    """Keys as tmux's send-keys writes them, all before the app has taken the first."""
    names = {"/": "slash", "]": "right_square_bracket", "?": "question_mark", "=": "equals_sign", " ": "space"}
    for key in keys:
        character = {"enter": "\r", "down": None, "ctrl+p": "\x10", "backspace": "\x7f"}.get(key, key)
        explorer.app.post_message(events.Key(names.get(key, key), character))


@pytest.mark.screen
async def test_page_keys_typed_with_the_enter_that_opens_a_list_turn_its_pages(explorer):
    """`g…/events`, Enter and `]]]` in one breath: page 4; the first `]` came while the list was on
    its way, and was lost (the service 300 ms away)."""
    await explorer.until(lambda: explorer.idle())
    explorer.slow_down(300)
    type_at_once(explorer, ["g", *"/groups/687b4c139cc9af4ec9546b43/events", "enter", *"]]]"])
    await explorer.until(lambda: on_main(explorer) and pagination(explorer).startswith("page 4 of 13"))
    await explorer.settle()
    assert pagination(explorer).startswith("page 4 of 13")


@pytest.mark.screen
async def test_keys_to_the_page_pane_typed_with_the_enter_that_opens_a_list_act_in_that_list(explorer):
    """`g/groups`, Enter, `1`, down, down, Enter: the third group opens (analytics), not a line of
    the page shown before the list came (as from a service 300 ms away)."""
    await explorer.until(lambda: explorer.idle())
    explorer.slow_down(300)
    type_at_once(explorer, ["g", *"/groups", "enter", "1", "down", "down", "enter"])
    await explorer.until(
        lambda: on_main(explorer) and explorer.current.resource.url.endswith("/67a9acf3c560c2d01fe8ef03"), timeout=15
    )


@pytest.mark.screen
async def test_a_list_shown_in_place_of_a_document_has_the_focus_at_once(explorer):
    """The keys held for a page go in as it comes: the pane's focus must already be on what shows it.
    Textual moves it off a hidden view only once the screen is laid out; a `down` let in before that
    went to the document view the list replaced (1 run in 8 of the test above)."""
    groups = (await explorer.app.session.fetch(explorer.node("groups").data.url)).prepare()
    await press(explorer, "1")
    assert isinstance(explorer.app.focused, FieldTree)  # the root's document
    explorer.app.screen.query_one(PageView).show(groups)
    assert isinstance(explorer.app.focused, ItemsTable), "no pause: before any layout"


@pytest.mark.screen
async def test_enter_typed_in_the_command_palette_before_its_matches_runs_the_first_match(explorer):
    """`ctrl+p`, `Go to`, Enter, `/orgs`, Enter in one breath: the palette's first Enter came before
    its matches and only highlighted one; the path went into the palette. Now it goes to /orgs."""
    await explorer.until(lambda: explorer.idle())
    type_at_once(explorer, ["ctrl+p", *"zzz", "enter", *["backspace"] * 3])  # no match: Enter runs none
    type_at_once(explorer, [*"Go to", "enter", *"/orgs", "enter"])
    await explorer.until(lambda: on_main(explorer) and explorer.current.resource.url.endswith("/orgs"))


@pytest.mark.screen
async def test_keys_after_the_enter_of_a_dialog_slow_to_answer_wait_for_its_answer(explorer, monkeypatch):
    """On a machine so loaded that go-to takes half a second to answer its Enter (longer than a key
    whose way is lost is waited for), the keys typed after it still wait: they act in the list."""
    answer = GoToScreen.on_input_submitted

    async def slowly(screen: GoToScreen, event: Input.Submitted) -> None:
        await asyncio.sleep(0.5)
        answer(screen, event)

    monkeypatch.setattr(GoToScreen, "on_input_submitted", slowly)
    await explorer.until(lambda: explorer.idle())
    type_at_once(explorer, ["g", *"/groups", "enter", "1", "down", "down", "enter"])
    await explorer.until(
        lambda: on_main(explorer) and explorer.current.resource.url.endswith("/67a9acf3c560c2d01fe8ef03"), timeout=15
    )


@pytest.mark.screen
async def test_back_on_a_page_opens_again_what_was_open_there(explorer):
    await open_events(explorer)
    first = explorer.node(*EVENTS).children[0]
    await explorer.open(*EVENTS, first.data.title)
    first = explorer.node(*EVENTS).children[0]
    assert first.is_expanded and first.children, "an event with relations, unfolded"
    await explorer.cursor_to(explorer.node(*EVENTS))
    await press(explorer, "right_square_bracket")
    await press(explorer, "backspace")
    assert pagination(explorer).startswith("page 1 of 13")
    again = explorer.node(*EVENTS).children[0]
    assert again.data is first.data and again.is_expanded


@pytest.mark.screen
async def test_reload_switches_and_page_sizes_keep_the_page_and_the_item_under_the_cursor(explorer):
    await open_events(explorer)
    await press(explorer, "right_square_bracket", "right_square_bracket")
    await press(explorer, "1", *["down"] * 5)
    kept = explorer.screen.cursor_item()
    assert pagination(explorer) == "page 3 of 13 · 1,234 items · 100 per page"
    for key in "r", "p", "e", "p", "e":
        await press(explorer, key)
        assert pagination(explorer) == "page 3 of 13 · 1,234 items · 100 per page", key
        assert explorer.screen.cursor_item() == kept, key
    await press(explorer, "plus")  # the 206th event is on page 2 of 200 per page
    assert pagination(explorer) == "page 2 of 7 · 1,234 items · 200 per page"
    assert explorer.screen.cursor_item() == kept
    await press(explorer, "minus")
    assert pagination(explorer) == "page 3 of 13 · 1,234 items · 100 per page"
    assert explorer.screen.cursor_item() == kept


@pytest.mark.screen
async def test_a_page_size_typed_into_go_to_wins_over_one_chosen_with_plus_before(explorer):
    events = f"/groups/{await project_id(explorer)}/events"
    await explorer.go_to(events)
    await press(explorer, "plus")
    assert pagination(explorer) == "page 1 of 7 · 1,234 items · 200 per page"
    await explorer.go_to(f"{events}?itemsPerPage=5")
    assert pagination(explorer) == "page 1 of 247 · 1,234 items · 5 per page"
    assert explorer.app.session.log[-1].url.endswith("itemsPerPage=5")
    await press(explorer, "right_square_bracket")  # the size typed stays, page after page
    assert pagination(explorer) == "page 2 of 247 · 1,234 items · 5 per page"


@pytest.mark.screen
async def test_next_page_on_something_that_is_not_a_list_says_so_with_its_brackets(explorer):
    await explorer.pilot.press("right_square_bracket")
    await explorer.until(lambda: "Not a list" in explorer.toasts())
    assert "Not a list: [ and ] turn the pages of a list." in explorer.toasts()


@pytest.mark.screen
async def test_a_pane_takes_its_keys_as_soon_as_it_shows(explorer):
    await explorer.open("orgs")
    await explorer.pilot.press("2")
    await explorer.until(lambda: explorer.q(JsonView).has_focus)
    await explorer.pilot.press("v")
    await explorer.until(lambda: "as received" in str(explorer.q("JsonPane #where", Static).render()))
    await explorer.pilot.press("1", "down")
    await explorer.until(lambda: explorer.q(ItemsTable).has_focus)
    assert explorer.screen.cursor_item() == explorer.current.resource.page.results[1]["links"][0]["href"]


@pytest.mark.screen
async def test_a_refused_url_is_named_in_the_title_and_marked_failed_in_the_tree(explorer):
    await explorer.open("orgs")
    node = await explorer.go_to("https://elsewhere.example/api/service/v1.0/orgs")
    assert explorer.screen.sub_title == "https://elsewhere.example/api/service/v1.0/orgs"
    assert node.label.plain == "go to  ✗ origin  elsewhere.example/api/service/v1.0/orgs"
    assert not node.allow_expand
    assert "⚠ elsewhere.example is not sandbox.invalid" in str(explorer.q("StatusBar").render())


@pytest.mark.screen
@pytest.mark.parametrize("target", ["https://[::1/x", "https://sandbox.invalid:port/x", "https://exa\u2100mple.com/"])
async def test_go_to_a_url_that_cannot_be_parsed_says_so_and_keeps_the_screen(explorer, target):
    await explorer.open("orgs")
    before = explorer.current
    await explorer.go_to(target)
    assert explorer.app.is_running and explorer.current is before
    bar = str(explorer.q("StatusBar").render())
    assert "is not a valid URL" in bar, bar


@pytest.mark.screen
async def test_go_to_an_ipv6_address_whose_bracket_is_not_closed_says_so(explorer):
    await explorer.open("orgs")
    await explorer.go_to("https://[::1/x")
    bar = str(explorer.q("StatusBar").render())
    assert "'https://[::1/x' is not a valid URL: the [ of its IPv6 address is not closed" in bar, bar


@pytest.mark.screen
async def test_a_refusal_at_the_token_endpoint_keeps_the_url_asked_for_in_the_title(open_explorer):
    async with open_explorer(scenario="bad-credentials") as explorer:
        assert explorer.screen.sub_title == "https://sandbox.invalid/api/service/v1.0"
        assert explorer.link_tree.root.label.plain == "root  ✗ 401  /"


@pytest.mark.screen
async def test_a_node_made_before_its_url_opened_elsewhere_gets_its_mark(explorer):
    await explorer.open("groups")
    await explorer.open("groups", "production")
    org_of_production = explorer.node("groups", "production", "org")
    assert "↺" not in org_of_production.label.plain and org_of_production.allow_expand
    await explorer.open("orgs")
    acme = explorer.node("orgs").children[0]
    await explorer.open("orgs", acme.data.title)
    assert org_of_production.label.plain.startswith("org  ↺ open elsewhere  ") and not org_of_production.allow_expand
    requests = explorer.requests()
    await explorer.open("groups", "production", "org")
    assert explorer.link_tree.cursor_node is acme and explorer.requests() == requests


@pytest.mark.screen
async def test_go_to_a_url_the_tree_holds_selects_it_and_reveals_it(explorer):
    project = await project_id(explorer)
    await explorer.open("groups")
    await explorer.open("groups", "production")
    production = explorer.node("groups", "production")
    await explorer.cursor_to(explorer.node("groups"))
    await explorer.pilot.press("space")  # folded away
    await explorer.until(lambda: not explorer.node("groups").is_expanded)
    node = await explorer.go_to(f"/groups/{project}/clusters")
    assert node is explorer.node("groups", "production", "clusters")
    assert node.parent is production and production.is_expanded and explorer.node("groups").is_expanded
    assert titles(explorer.link_tree.root) == ["orgs", "groups", "ipinfo"]
    assert explorer.q(ItemsTable).row_count == 3  # shown: production's three clusters


@pytest.mark.screen
async def test_go_to_the_same_new_url_twice_adds_one_node_that_opens_like_any_other(explorer):
    project = await project_id(explorer, "staging")
    first = await explorer.go_to(f"/groups/{project}")
    second = await explorer.go_to(f"/groups/{project}")
    assert first is second and titles(explorer.link_tree.root) == ["orgs", "groups", "ipinfo", "go to"]
    assert first.is_expanded and "clusters" in titles(first)  # its relations show
    clusters = await explorer.open("go to", "clusters")
    assert clusters.data.resource.status == 200


@pytest.mark.screen
async def test_go_to_a_new_url_adds_its_node_and_folds_nothing_you_opened(explorer):
    staging = await project_id(explorer, "staging")
    await open_events(explorer)
    opened = ["groups"], ["groups", "production"], list(EVENTS)

    def unfolded() -> list[bool]:
        """Whether each line opened is unfolded, as the tree draws it now."""
        return [explorer.node(*titles).is_expanded for titles in opened]

    assert unfolded() == [True, True, True]
    lines = explorer.link_tree.last_line
    node = await explorer.go_to(f"/groups/{staging}/clusters")
    assert node.data.kind == "goto" and node.data.resource.status == 200
    assert unfolded() == [True, True, True]
    assert node.is_expanded and len(node.children) == explorer.q(ItemsTable).row_count == 2  # its items show
    assert explorer.link_tree.last_line == lines + 3  # the new node and its two items, nothing folded
    for target in ("https://elsewhere.example/x", "https://[::1/x"):  # refused, or not a URL at all
        await explorer.go_to(target)
        assert unfolded() == [True, True, True], target


@pytest.mark.screen
@pytest.mark.parametrize("refused", ["https://elsewhere.example/x", "/x\u200by", "https://[::1/x"])
async def test_back_from_a_refused_url_returns_to_the_page_you_were_on(explorer, refused):
    await explorer.open("groups")
    production = await explorer.open("groups", "production")
    await explorer.go_to(refused)  # refused on its way out, or before it was sent at all
    assert explorer.screen.sub_title == visible(refused)  # the title names what was refused
    await press(explorer, "backspace")
    assert explorer.current is production.data and explorer.link_tree.cursor_node is production
    assert explorer.screen.sub_title == production.data.resource.url
    assert "name: production" in fields(explorer)


@pytest.mark.screen
async def test_escape_puts_the_title_back_and_the_next_enter_opens_the_node(explorer):
    groups = explorer.node("groups")
    await explorer.cursor_to(groups)
    explorer.slow_down(60_000)  # given up long before it could come, however loaded the machine
    await explorer.pilot.press("enter")
    await explorer.until(lambda: explorer.screen.sub_title.endswith("/groups"))
    await press(explorer, "escape")
    assert explorer.screen.sub_title == "https://sandbox.invalid/api/service/v1.0"  # the root, still shown
    explorer.slow_down(0)
    await press(explorer, "enter")
    assert explorer.current is groups.data and groups.is_expanded and "production" in titles(groups)


@pytest.mark.screen
async def test_at_80_columns_the_title_keeps_the_end_of_the_url(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await open_events(explorer)
        header = screen_lines(explorer.app)[0]
        assert "https://sandbox.invalid…" in header and header.rstrip().endswith("/events"), header
        await explorer.pilot.resize_terminal(200, 24)
        await explorer.until(lambda: "/api/service/v1.0/groups/" in screen_lines(explorer.app)[0])


@pytest.mark.screen
async def test_a_fetch_given_up_folds_the_line_it_unfolded(explorer):
    groups = explorer.node("groups")
    await explorer.cursor_to(groups)
    explorer.slow_down(60_000)  # given up long before it could come, however loaded the machine
    await explorer.pilot.press("enter")
    await explorer.until(lambda: groups.is_expanded and explorer.screen.navigation.fetching is not None)
    await press(explorer, "escape")
    assert not groups.is_expanded and not groups.children
    explorer.slow_down(0)


@pytest.mark.screen
async def test_the_tree_width_changes_with_keys_and_a_drag_and_is_remembered(open_explorer):
    async with open_explorer(size=(120, 30)) as explorer:
        tree = explorer.q(LinkTree)
        start = tree.outer_size.width
        await explorer.pilot.press("greater_than_sign", "greater_than_sign")
        await explorer.until(lambda: tree.outer_size.width == start + 8)
        assert load_state()["tree_width"] == start + 8
        await explorer.pilot.press("less_than_sign")
        await explorer.until(lambda: tree.outer_size.width == start + 4)
        splitter = explorer.q("#splitter")
        to = (splitter.region.x - 10, splitter.region.y + 2)  # ten columns to the left, on the screen
        await explorer.pilot.mouse_down(splitter, offset=(0, 2))
        await explorer.pilot.hover(None, offset=to)
        await explorer.pilot.mouse_up(None, offset=to)
        await explorer.until(lambda: tree.outer_size.width == start - 6)
        assert load_state()["tree_width"] == start - 6
    async with open_explorer(size=(120, 30)) as again:
        assert again.q(LinkTree).outer_size.width == start - 6


@pytest.mark.screen
async def test_as_many_of_each_width_key_give_the_tree_its_share_again(open_explorer):
    async with open_explorer(size=(200, 50)) as explorer:
        tree = explorer.q(LinkTree)
        start = tree.outer_size.width
        assert start == LinkTree.SHARE_MOST  # 38% of 200, at most 70
        await explorer.pilot.press("less_than_sign", "greater_than_sign")
        await explorer.until(lambda: tree.outer_size.width == start)
        assert load_state()["tree_width"] is None  # the share, not a fixed 70
        await explorer.pilot.resize_terminal(80, 24)
        await explorer.until(lambda: tree.outer_size.width == 30)  # the share at 80 columns, as at a first start


@pytest.mark.screen
async def test_a_width_kept_from_a_past_run_taken_back_to_the_share_is_the_share_again(open_explorer):
    """`<<<<` in one run, `>>>>` in the next: the share again, which a wider terminal widens."""
    async with open_explorer(size=(120, 30)) as explorer:
        share = explorer.q(LinkTree).outer_size.width
        await press(explorer, *["less_than_sign"] * 4)
        assert load_state()["tree_width"] == share - 16
    async with open_explorer(size=(120, 30)) as explorer:
        tree = explorer.q(LinkTree)
        assert tree.outer_size.width == share - 16
        await press(explorer, *["greater_than_sign"] * 4)
        assert (tree.outer_size.width, load_state()["tree_width"]) == (share, None)
    async with open_explorer(size=(200, 50)) as explorer:
        assert explorer.q(LinkTree).outer_size.width == LinkTree.SHARE_MOST
    for width in (81, 121, 133):  # a share of 38% not a whole number of columns: as drawn
        async with open_explorer(size=(width, 30)) as explorer:
            await press(explorer, "less_than_sign", "greater_than_sign")
            assert load_state()["tree_width"] is None, width


@pytest.mark.screen
async def test_before_the_root_comes_the_page_pane_says_what_it_waits_for():
    from explorer.demo import demo_session
    from explorer.sandbox import Settings, create_app
    from explorer.tui.app import ExplorerApp
    from tests.tui.conftest import Held, started, wait_until

    sandbox = Held(create_app(Settings()))  # the root comes when the test lets it
    app = ExplorerApp(demo_session(app=sandbox), demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(lambda: "Fetching https://sandbox.invalid/api/service/v1.0" in screen_text(app), pilot=pilot)
        assert "Nothing fetched yet" not in screen_text(app)
        sandbox.open.set()
        await wait_until(lambda: started(app), pilot=pilot)


@pytest.mark.screen
async def test_keys_typed_as_the_explorer_starts_wait_for_the_root():
    """`down down enter` typed before the root came moved in an empty tree and opened nothing: the
    tree's keys now wait for the root, and the app's go at once (`?` is not held by a slow root)."""
    from explorer.demo import demo_session
    from explorer.sandbox import Settings, create_app
    from explorer.tui.app import ExplorerApp
    from explorer.tui.screens.help import HelpScreen
    from tests.tui.conftest import Held, started, wait_until

    sandbox = Held(create_app(Settings()))  # the root comes when the test lets it
    app = ExplorerApp(demo_session(app=sandbox), demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("down", "down", "enter")
        assert not started(app)  # typed before the root came
        sandbox.open.set()
        await wait_until(lambda: started(app), pilot=pilot)
        screen = app.screen
        second = screen.link_tree.root.children[1]
        await wait_until(lambda: screen.navigation.current is second.data, pilot=pilot)
        assert screen.link_tree.cursor_node is second
    app = ExplorerApp(demo_session(app=Held(create_app(Settings()))), demo=demo_session)  # the root never comes
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("question_mark")
        await wait_until(lambda: isinstance(app.screen, HelpScreen), pilot=pilot)
        (main,) = [screen for screen in app.screen_stack if isinstance(screen, MainScreen)]
        assert main.navigation.root.resource is None  # help came before the root


@pytest.mark.screen
@pytest.mark.parametrize("opened_first", [False, True])
async def test_a_bad_query_typed_into_go_to_leaves_the_link_it_names_as_it_was(explorer, opened_first):
    if opened_first:
        await explorer.open("groups")
    groups = explorer.node("groups")
    before = groups.label.plain
    await explorer.go_to("/groups?itemsPerPage=99999999999999999999")
    assert explorer.current.resource.status == 400  # the refusal is what you see
    assert "itemsPerPage=99999999999999999999" in explorer.screen.sub_title
    assert groups.label.plain == before and "✗" not in before and groups.allow_expand
    await press(explorer, "backspace")  # Back leaves the refusal for what was shown before it
    assert explorer.current is (groups.data if opened_first else explorer.link_tree.root.data)
    await press(explorer, "alt+right")  # and Forward asks again, the link still left as it was
    assert explorer.current.resource.status == 400 and groups.label.plain == before
    await explorer.cursor_to(groups)
    await press(explorer, "r")
    assert explorer.current is groups.data and explorer.current.resource.status == 200
    assert "itemsPerPage" not in explorer.current.resource.url
    await explorer.go_to("/groups?itemsPerPage=99999999999999999999")
    await explorer.cursor_to(groups)
    await press(explorer, "enter")
    assert explorer.current is groups.data and explorer.current.resource.status == 200
    assert explorer.screen.sub_title == "https://sandbox.invalid/api/service/v1.0/groups"
    assert explorer.q(ItemsTable).row_count == len(explorer.current.resource.page.results) == 5


@pytest.mark.screen
async def test_go_to_sends_letters_past_ascii_percent_encoded_and_refuses_a_bidi_override_plainly(explorer):
    node = await explorer.go_to("/gröups/日本語")
    assert node.data.kind == "goto" and explorer.current.resource.status == 404  # sent, and answered
    assert explorer.current.resource.url.endswith("/gr%C3%B6ups/%E6%97%A5%E6%9C%AC%E8%AA%9E")
    await explorer.go_to("/gröups/日本語/\u202eabc")
    said = screen_text(explorer.app)
    assert "'/gröups/日本語/<U+202E>abc' is not a valid URL: it holds <U+202E>, an invisible character" in said
    assert "codec" not in said and "\\u202e" not in said and "\u202e" not in said
    assert said.splitlines()[0].split("—", 1)[1].strip() == "/gröups/日本語/<U+202E>abc"  # the title names it too


@pytest.mark.screen
async def test_a_pasted_bidi_override_or_escape_shows_in_the_go_to_field(explorer):
    await explorer.pilot.press("g")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    field = explorer.app.focused
    pasted = "/groups/\u202eabc\x1b[2J\x07\x08z"  # Rich drops a bell and a backspace from a Text
    explorer.app.post_message(events.Paste(pasted))
    await explorer.until(lambda: field.value == pasted)  # kept as pasted: Enter refuses it in plain words
    await explorer.pilot.pause()
    line = next(line for line in screen_lines(explorer.app) if "/groups/" in line)
    assert "/groups/\ufffdabc\u241b[2J\u2407\u2408z" in line, line
    assert "\u202e" not in screen_text(explorer.app) and "\x1b" not in screen_text(explorer.app)


@pytest.mark.screen
async def test_an_invisible_character_typed_as_a_key_is_kept_and_refused_not_dropped(explorer):
    await explorer.pilot.press("g")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    field = explorer.app.focused
    typed = [("slash", "/"), ("o", "o"), ("r", "r"), ("right_to_left_override", "\u202e"), ("g", "g"), ("s", "s")]
    for key, character in typed:  # as tmux's send-keys, or a terminal without bracketed paste, types them
        explorer.app.post_message(events.Key(key, character))
    await explorer.until(lambda: field.value == "/or\u202egs")  # not /orgs
    await explorer.pilot.press("enter")
    await explorer.until(lambda: "is not a valid URL" in screen_text(explorer.app))
    assert "'/or<U+202E>gs' is not a valid URL: it holds <U+202E>" in screen_text(explorer.app)
    assert not [entry for entry in explorer.app.session.log if entry.url.endswith("/orgs")]


@pytest.mark.screen
async def test_a_paste_of_several_lines_into_go_to_says_only_the_first_was_put_in(explorer):
    await explorer.pilot.press("g")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    field = explorer.app.focused
    explorer.app.post_message(events.Paste("/orgs\n/groups\n"))
    await explorer.until(lambda: field.value == "/orgs")
    await explorer.until(lambda: "Only the first line of the paste was put in" in explorer.toasts())
    assert "this field takes one line (2 were pasted)" in explorer.toasts()


@pytest.mark.screen
async def test_keys_typed_in_one_breath_after_g_go_to_the_question_not_the_tree(explorer):
    """`g/groups` then Enter as a terminal sends a fast typist's keys: all of them before the dialog
    is drawn. Each key after `g` belongs to the question, in order; none is the tree's (`/` would
    search, `g` open go-to again, `r` reload, `p` switch pretty on)."""
    typed = [("g", "g"), ("slash", "/"), *((c, c) for c in "groups"), ("enter", "\r")]
    for key, character in typed:
        explorer.app.post_message(events.Key(key, character))

    def groups_shown() -> bool:  # the keys are taken in turn: wait for what they do, not for a quiet moment
        screen = explorer.app.screen
        shown = screen.navigation.current if isinstance(screen, MainScreen) else None
        return shown is not None and shown.resource is not None and shown.resource.url.endswith("/groups")

    await explorer.until(groups_shown)
    await explorer.settle()
    assert isinstance(explorer.app.screen, MainScreen)
    assert explorer.current.resource.url.endswith("/api/service/v1.0/groups")  # no ?pretty=true, no search
    assert explorer.current.resource.status == 200
    assert "production" in screen_text(explorer.app)


@pytest.mark.screen
@pytest.mark.parametrize("elsewhere", ["/orgs", "/gröups"])
async def test_a_bad_query_typed_for_a_list_shown_before_shows_the_refusal_from_another_node(explorer, elsewhere):
    """The list was open, then another node (or a failure) was in view: the refusal is still what
    you see, not the list's old page under the link's name."""
    await explorer.open("groups")
    await explorer.go_to(elsewhere)
    await explorer.go_to("/groups?itemsPerPage=99999999999999999999")
    await explorer.until(lambda: "INVALID_QUERY_PARAMETER" in screen_text(explorer.app))
    said = screen_text(explorer.app)
    assert "⚠ 400" in said and "200 OK" not in said
    assert "itemsPerPage=99999999999999999999" in explorer.screen.sub_title
    assert explorer.current.kind == "refused" and explorer.link_tree.cursor_node is explorer.node("groups")
    asked = explorer.requests("/groups")
    await press(explorer, "enter")  # on the link: its own URL, asked again
    assert explorer.requests("/groups") == asked + 1
    assert explorer.screen.sub_title == "https://sandbox.invalid/api/service/v1.0/groups"
    assert "200 OK" in screen_text(explorer.app) and "⚠" not in screen_text(explorer.app)


@pytest.mark.screen
async def test_keys_typed_in_one_breath_after_a_pane_key_go_to_that_pane(explorer):
    """`1` then `enter`, `2` then `v`, as tmux's send-keys or a fast typist sends them: the pane's
    key takes effect first, and the key after it is the new pane's, not the tree's."""
    await explorer.open("groups")
    second = explorer.node("groups").data.children[1]
    for key, character in (("1", "1"), ("down", None), ("enter", "\r")):
        explorer.app.post_message(events.Key(key, character))
    await explorer.until(lambda: explorer.current is second)  # what the keys do, not a quiet moment
    await explorer.settle()
    assert explorer.current.kind == "item" and explorer.current.parent is explorer.node("groups").data
    assert explorer.current is explorer.node("groups").data.children[1]  # the second row, opened
    view = explorer.q(JsonView)
    for key in ("2", "v"):  # a small body is shown pretty at once: v shows it as received
        explorer.app.post_message(events.Key(key, key))
    raw = explorer.current.resource.text.split("\n")
    await explorer.until(lambda: view.showing_pretty is False and view.lines == raw)
    await explorer.settle()
    assert explorer.app.focused is view and view.showing_pretty is False and view.lines == raw


@pytest.mark.screen
async def test_2v_in_one_breath_shows_a_resource_new_to_the_json_pane_as_received(explorer):
    """The JSON pane lays out what it was given only once it shows: `v` typed right after `2` must
    switch the new resource's view, not the old one's before the new one replaces it."""
    await explorer.open("groups")
    await explorer.pilot.press("2")  # the JSON pane has shown the list once
    await explorer.until(lambda: explorer.app.focused is explorer.q(JsonView))
    await explorer.pilot.press("1")
    await explorer.go_to(f"/groups/{PRODUCTION}/events")  # new to the JSON pane: laid out when it shows
    view = explorer.q(JsonView)
    for key in ("2", "v"):
        explorer.app.post_message(events.Key(key, key))
    await explorer.until(lambda: view.showing_pretty is False and "/events?" in view.lines[0])
    await explorer.settle()
    assert view.showing_pretty is False and "/events?" in view.lines[0] and len(view.lines) == 1  # as received


@pytest.mark.screen
async def test_the_first_letter_after_slash_is_the_search_s_on_a_machine_slow_to_pass_it_up(explorer, monkeypatch):
    """`2/` then `Sandbox`, on a machine so loaded that `/` takes half a second to pass up through the
    JSON pane (longer than a key whose way is lost is waited for): `S` waits for the search box it
    opens, and is not lost on the pane before it (4 of 8 tries in a walk-through at load 5)."""

    async def slowly(pane: JsonPane, event: events.Key) -> None:
        await asyncio.sleep(0.5)

    monkeypatch.setattr(JsonPane, "on_key", slowly, raising=False)
    await explorer.open("groups")
    type_at_once(explorer, ["1", "2", "/", *"Sandbox"])
    await explorer.until(lambda: getattr(explorer.app.focused, "value", None) == "Sandbox")
    assert explorer.q("#search", Input).value == "Sandbox"


@pytest.mark.screen
async def test_keys_typed_in_one_breath_after_slash_are_the_searchs(explorer):
    """`/staging` in one breath: every character is the search box's; `s` does not ask where to save."""
    await explorer.open("groups")
    for character in "/staging":
        explorer.app.post_message(events.Key("slash" if character == "/" else character, character))
    await explorer.until(lambda: getattr(explorer.app.focused, "value", None) == "staging")  # what the keys do
    assert isinstance(explorer.app.screen, MainScreen)
    assert explorer.q("#search", Input).value == "staging"
