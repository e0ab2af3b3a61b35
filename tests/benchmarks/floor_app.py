"""The floor the screen benchmarks measure the explorer against: a bare Textual app with the
explorer's widget tree, node for node, in Textual's own widgets, and as many footer keys. It fetches
nothing; its tree shows the line the benchmark waits for (FLOOR_SHOWN) as soon as it is mounted.

With `--pages`, a list of 1,234 events at 500 per page is open from the start: its items are the
tree's lines under `events` and a table's rows in the Page pane, with a page line, and `]` and `[`
turn its pages as the explorer does (the tree's 500 lines taken away and made anew, the table's
rows too, the page line said): what Textual's own widgets cost for a page turn.

With a file, it is the editor's floor instead: Textual's own TextArea with that text, plain (as the
explorer's editor shows a body that long), the cursor where the benchmark types into the editor.

    python tests/benchmarks/floor_app.py [--pages | BODY_FILE]
"""

from __future__ import annotations

import sys
from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.scroll_view import ScrollView
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane, TextArea, Tree

FLOOR_SHOWN = "groups  /groups"
EVENTS, PER_PAGE = 1234, 500
PAGES = -(-EVENTS // PER_PAGE)
COLUMNS = ("id", "created", "eventTypeName", "clusterName", "remoteAddress", "groupId")


class Floor(App[None]):
    BINDINGS = [(key, f"noop({key!r})", key) for key in ("backspace", "g", "]", "[", "r", "/", "?", "q")]
    CSS = """
    Horizontal { height: 1fr; }
    #tree { width: 45; }
    TabbedContent { width: 1fr; }
    #items { height: 1fr; }
    """

    def __init__(self, pages: bool = False) -> None:
        super().__init__()
        self.pages = pages
        self.page = 1

    def action_noop(self, key: str) -> None:
        if key == "q":
            self.exit()
        elif self.pages and key in "[]":
            self.page = max(1, min(self.page + (1 if key == "]" else -1), PAGES))
            self.turn()

    def on_mount(self) -> None:
        if self.pages:
            tree = self.query_one("#tree", Tree)
            self.listed = tree.root.add("events  /groups/…/events", expand=True)
            table = self.query_one("#items", DataTable)
            table.add_columns(*COLUMNS)
            self.turn()

    def turn(self) -> None:
        """The page's items as the tree's lines and the table's rows, and its page line."""
        first = (self.page - 1) * PER_PAGE
        event = ("2026-11-01T09:00:00Z", "CLUSTER_UPDATE_COMPLETED", "orders-prod", "203.0.113.9", "ab" * 12)
        items = [(f"{index:024x}", *event) for index in range(first, min(first + PER_PAGE, EVENTS))]
        self.listed.remove_children()
        for item in items:
            self.listed.add_leaf(f"{item[2]}  {item[1]}  …/events/{item[0]}")
        table = self.query_one("#items", DataTable)
        table.clear()
        table.add_rows(items)
        self.query_one("#pagination", Static).update(
            f"page {self.page} of {PAGES} · {EVENTS:,} items · {PER_PAGE} a page"
        )

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            tree: Tree[None] = Tree("root", id="tree")
            tree.root.add_leaf(FLOOR_SHOWN)
            tree.root.expand()
            yield tree
            with TabbedContent():
                with TabPane("Page"), Vertical():
                    yield Static("message")
                    if self.pages:
                        yield DataTable(id="items")
                    else:
                        yield Tree("fields")
                    yield Static("pagination", id="pagination")
                    yield ScrollView()
                with TabPane("JSON"), Vertical():
                    yield Static("where")
                    yield ScrollView()
                with TabPane("Headers"), VerticalScroll():
                    yield Static("headers")
                with TabPane("Log"):
                    yield DataTable()
        yield Static("status")
        yield Footer()


class EditorFloor(App[None]):
    """Textual's TextArea alone, with the text the explorer's editor is given."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield TextArea(self.text, language=None, show_line_numbers=True)

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor((1, len(area.document.get_line(1)) - 2))  # in the second line's value, as typed there


if __name__ == "__main__":
    if sys.argv[1:] == ["--pages"]:
        Floor(pages=True).run()
    elif len(sys.argv) > 1:
        EditorFloor(Path(sys.argv[1]).read_text()).run()
    else:
        Floor().run()
