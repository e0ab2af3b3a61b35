"""The floor the screen benchmarks measure the explorer against: a bare Textual app with the
explorer's widget tree, node for node, in Textual's own widgets, and as many footer keys. It fetches
nothing; its tree shows the line the benchmark waits for (FLOOR_SHOWN) as soon as it is mounted.

With a file, it is the editor's floor instead: Textual's own TextArea with that text, plain (as the
explorer's editor shows a body that long), the cursor where the benchmark types into the editor.

    python tests/benchmarks/floor_app.py [BODY_FILE]
"""

from __future__ import annotations

import sys
from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.scroll_view import ScrollView
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane, TextArea, Tree

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
    if len(sys.argv) > 1:
        EditorFloor(Path(sys.argv[1]).read_text()).run()
    else:
        Floor().run()
