"""The floor the screen benchmarks measure the explorer against: a bare Textual app with the
explorer's widget tree, node for node, in Textual's own widgets, and as many footer keys. It fetches
nothing; its tree shows the line the benchmark waits for (FLOOR_SHOWN) as soon as it is mounted.

    python tests/benchmarks/floor_app.py
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.scroll_view import ScrollView
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane, Tree

FLOOR_SHOWN = "groups  /groups"


class Floor(App[None]):
    BINDINGS = [(key, f"noop({key!r})", key) for key in ("backspace", "g", "]", "r", "/", "?", "q")]
    CSS = """
    Horizontal { height: 1fr; }
    #tree { width: 45; }
    TabbedContent { width: 1fr; }
    """

    def action_noop(self, key: str) -> None:
        if key == "q":
            self.exit()

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
                    yield Tree("fields")
                    yield Static("pagination")
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


if __name__ == "__main__":
    Floor().run()
