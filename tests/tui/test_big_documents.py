"""Big single documents in the Page pane: an entity of many fields shows them SHOWN_AT_ONCE at a
time, with a line that shows the next; a long string shows its start and its length. Textual's tree
measures every line it holds, so 100,000 fields froze the screen for seconds (issue 11)."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from explorer.tui.widgets.field_tree import LONG_TEXT, SHOWN_AT_ONCE, FieldTree
from explorer.tui.widgets.items_table import MAX_CELL, cell, cell_plain


class FieldsHost(App[None]):
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
