"""Big single documents in the Page pane: an entity of many fields shows them SHOWN_AT_ONCE at a
time, with a line that shows the next; a long string shows its start and its length. Textual's tree
measures every line it holds, so 100,000 fields froze the screen for seconds (issue 11)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual import events
from textual.app import ComposeResult
from textual.widgets import Input

from explorer.api.resource import Resource
from explorer.tui.palette import PaletteApp
from explorer.tui.screens.help import HelpScreen
from explorer.tui.screens.main import MainScreen
from explorer.tui.widgets.field_tree import LONG_TEXT, SHOWN_AT_ONCE, FieldTree
from explorer.tui.widgets.items_table import MAX_CELL, ItemsTable, cell, cell_plain
from tests.tui.conftest import on_hostile_service


class FieldsHost(PaletteApp):
    """The field tree alone, showing one document."""

    def __init__(self, document: Any) -> None:
        super().__init__()
        self.document = document

    def compose(self) -> ComposeResult:
        yield FieldTree()

    def on_mount(self) -> None:
        tree = self.query_one(FieldTree)
        tree.show(self.document)
        tree.focus()


def labels(tree: FieldTree, node: Any = None) -> list[str]:
    return [child.label.plain for child in (node or tree.root).children]


async def choose_last(app: FieldsHost, pilot: Any, node: Any = None) -> None:
    """Put the cursor on the last line under `node` (the root by default) and press Enter."""
    tree = app.query_one(FieldTree)
    tree.move_cursor((node or tree.root).children[-1])
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.screen
async def test_an_entity_of_many_fields_shows_them_a_batch_at_a_time():
    assert SHOWN_AT_ONCE == 500
    app = FieldsHost({f"field{n:04d}": n for n in range(1234)})
    async with app.run_test(size=(100, 30)) as pilot:
        tree = app.query_one(FieldTree)
        shown = labels(tree)
        assert len(shown) == 501
        assert shown[:2] == ["field0000: 0", "field0001: 1"]
        assert shown[-1] == "… 734 more fields: Enter shows the next 500"
        await choose_last(app, pilot)
        shown = labels(tree)
        assert len(shown) == 1001
        assert shown[500] == "field0500: 500"  # the "more" line gave way to the next fields, in order
        assert shown[-1] == "… 234 more fields: Enter shows the 234"
        await choose_last(app, pilot)
        shown = labels(tree)
        assert len(shown) == 1234 and shown[-1] == "field1233: 1233"  # all there, no "more" line left


async def test_a_long_list_inside_an_entity_opens_a_batch_at_a_time():
    app = FieldsHost({"tags": list(range(600))})
    async with app.run_test(size=(100, 30)) as pilot:
        tree = app.query_one(FieldTree)
        assert labels(tree) == ["tags: [600]"]
        tags = tree.root.children[0]
        tags.expand()
        await pilot.pause()
        assert labels(tree, tags)[:2] == ["[0]: 0", "[1]: 1"]
        assert labels(tree, tags)[-1] == "… 100 more items: Enter shows the 100"
        await choose_last(app, pilot, tags)
        assert labels(tree, tags)[-1] == "[599]: 599"


async def test_a_long_string_shows_its_start_and_its_length():
    app = FieldsHost({"s": "x" * (5 * 2**20), "k" * 5000: 1})
    async with app.run_test(size=(100, 30)):
        shown = labels(app.query_one(FieldTree))
        assert shown[0] == "s: " + "x" * LONG_TEXT + "… 5,242,880 characters in all (the JSON pane has them)"
        assert shown[1] == "k" * LONG_TEXT + "…: 1"  # a key too


def test_a_table_cell_holds_a_line_whatever_the_value():
    huge = "y" * (5 * 2**20)
    nested: Any = {"a": huge}
    for _ in range(50):
        nested = {"n": nested, "b": list(range(1000))}
    for value in (huge, nested):
        assert len(cell_plain(value)) <= MAX_CELL + 1
        assert len(cell(value).plain) <= LONG_TEXT + 60  # a scalar's start, or a muted summary
    assert cell_plain(nested).startswith('{"n": {"n": {"n": ')  # JSON, in the order sent


@pytest.mark.screen
async def test_a_page_far_larger_than_500_is_listed_in_the_tree_a_part_at_a_time_and_whole_in_the_table():
    async with on_hostile_service() as explorer:
        pilot = explorer.pilot
        listed = await explorer.go_to("/cases/long-page")
        items = [line.data.title for line in listed.children]
        assert len(items) == 501 and items[:2] == ["item-0", "item-1"]
        assert items[-1] == "… 734 more items on this page: Enter lists the next 500"
        assert explorer.q(ItemsTable).row_count == 1234  # the table has the whole page
        explorer.link_tree.move_cursor(listed.children[-1])
        await pilot.press("enter")
        await explorer.settle()
        items = [line.data.title for line in listed.children]
        assert len(items) == 1001 and items[500] == "item-500"
        assert items[-1] == "… 234 more items on this page: Enter lists the 234"
        assert explorer.link_tree.cursor_node.data.title == "item-500"  # where the "more" line was
        table = explorer.q(ItemsTable)
        table.focus()
        table.move(1200)
        await pilot.press("enter")  # a row the tree did not list yet opens all the same
        await explorer.settle()
        assert explorer.current.title == "item-1200"
        assert explorer.link_tree.cursor_node.data.title == "item-1200"
        assert [line.data.title for line in listed.children][-1] == "item-1233"  # no "more" line left


@pytest.mark.screen
async def test_a_key_is_handled_while_a_big_list_is_still_being_prepared(monkeypatch):
    """The body is decoded, and its page and links worked out, in a thread: held there by the test,
    the screen still answers `?` with its help, and shows the list once the work is done."""
    preparing, release = threading.Event(), threading.Event()
    prepare = Resource.prepare

    def held(resource: Resource) -> Resource:
        if resource.url.endswith("/long-page"):
            preparing.set()
            assert release.wait(10)
        return prepare(resource)

    monkeypatch.setattr(Resource, "prepare", held)
    async with on_hostile_service() as explorer:
        app, pilot = explorer.app, explorer.pilot
        await pilot.press("g")
        await explorer.until(lambda: isinstance(app.focused, Input))
        app.post_message(events.Paste("/cases/long-page"))
        await pilot.press("enter")
        await explorer.until(preparing.is_set)
        await pilot.press("question_mark")
        await explorer.until(lambda: isinstance(app.screen, HelpScreen))  # answered while the work is held
        main = app.screen_stack[-2]
        assert isinstance(main, MainScreen) and main.navigation.fetching is not None  # the list not yet shown
        assert main.query_one(ItemsTable).row_count == 0
        await pilot.press("escape")
        release.set()
        await explorer.settle()
        assert explorer.q(ItemsTable).row_count == 1234
