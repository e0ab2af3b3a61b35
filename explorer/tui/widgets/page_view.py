"""The Page pane: an entity as fields, a list as a table with its pagination, a failure as a document."""

from __future__ import annotations

import time
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.values import as_bson_timestamp, as_date
from explorer.tui.keys import moving
from explorer.tui.safe import lines, text, visible

FIRST_COLUMNS = ("id", "name")
MAX_COLUMNS = 8
MAX_CELL = 60


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def scalar(value: Any, local: bool = True) -> Text:
    """A JSON scalar for display; dates also in local time unless the room is short."""
    if value is None:
        return Text("null", style="dim italic")
    if isinstance(value, bool):
        return Text("true" if value else "false", style="json-literal")
    if isinstance(value, int | float):
        return Text(f"{value}", style="json-number")
    moment = as_date(value)
    shown = text(value, "json-string")
    if moment is not None and local:
        shown.append(f"  (local {moment.astimezone().strftime('%Y-%m-%d %H:%M:%S %Z')})", style="dim")
    return shown


def describe(value: Any) -> Text:
    """What a node of the field tree says after its key."""
    stamp = as_bson_timestamp(value)
    if stamp is not None:
        return Text(str(stamp), style="json-string") + Text("  (BSON timestamp)", style="dim")
    if isinstance(value, dict):
        return Text(f"{{{len(value)}}}", style="dim")
    if isinstance(value, list):
        return Text(f"[{len(value)}]", style="dim")
    return scalar(value)


class FieldTree(Tree[Any]):
    """An entity's fields: scalars as key and value, nested values folded until opened."""

    DEFAULT_CSS = """
    FieldTree {
        height: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("fields", id=id)
        self.show_root = False
        self.guide_depth = 3

    def show(self, document: Any) -> None:
        self.clear()
        self.add_children(self.root, document)
        self.root.expand()

    def add_children(self, node: TreeNode[Any], value: Any) -> None:
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in pairs:
            label = text(key if isinstance(value, dict) else f"[{key}]", "bold")
            label.append(": ")
            label.append_text(describe(child))
            nested = isinstance(child, dict | list) and child and as_bson_timestamp(child) is None
            if nested:
                node.add(label, data=child, allow_expand=True)
            else:
                node.add_leaf(label, data=child)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Any]) -> None:
        event.stop()
        node = event.node
        if node is not self.root and not node.children:
            self.add_children(node, node.data)


class ItemsTable(ScrollView, can_focus=True):
    """A page of items, one a row, in the columns their scalar fields share.

    Drawn with the Line API: a page of 500 items costs the rows on screen, not 4,000 cells laid out.
    The header stays on the first line; Enter (or a second click) on a row opens its item.
    """

    class Open(Message):
        """Enter (or a second click) on a row: open that item."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    BINDINGS = [
        *moving("table"),
        Binding("enter", "open", "Open", id="table.open"),
    ]
    DEFAULT_CSS = """
    ItemsTable {
        height: 1fr;
        overflow: auto;
        background: $surface;
    }
    ItemsTable:focus {
        background-tint: $foreground 4%;
    }
    """

    cursor = reactive(0, always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.column_names: list[str] = []
        self.items: list[Any] = []
        self.plain: list[list[str]] = []  # each cell as shown, controls made visible
        self.widths: list[int] = []
        self.cache: dict[int, Strip] = {}
        self.painted_at = 0.0  # when the first row of the page shown last was drawn (for the benchmark)

    @property
    def row_count(self) -> int:
        return len(self.items)

    def show(self, items: list[Any]) -> None:
        self.column_names = choose_columns(items)
        self.items = items
        if self.column_names:
            self.plain = [
                [cell_plain(item.get(c)) if isinstance(item, dict) else "" for c in self.column_names] for item in items
            ]
            headers = self.column_names
        else:
            self.plain = [[cell_plain(item)] for item in items]
            headers = ["item"]
        self.widths = [
            min(MAX_CELL, max([cell_len(header)] + [cell_len(row[i]) for row in self.plain]))
            for i, header in enumerate(headers)
        ]
        self.headers = headers
        self.painted_at = 0.0
        self.cache.clear()
        self.virtual_size = Size(sum(self.widths) + 2 * len(self.widths), len(items) + 1)
        self.cursor = 0
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def row_texts(self, index: int) -> list[Text]:
        """The cells of a row as drawn."""
        item = self.items[index]
        if self.column_names and isinstance(item, dict):
            return [cell(item.get(column)) for column in self.column_names]
        return [cell(item)]

    def line_of(self, cells: list[Text], style: str = "") -> Text:
        line = Text(no_wrap=True, end="", style=style)
        for shown, width in zip(cells, self.widths, strict=False):
            shown.truncate(width, overflow="ellipsis", pad=True)
            line.append_text(shown)
            line.append("  ")
        return line

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self.rich_style
        if y == 0:
            header = self.line_of([Text(visible(h), style="bold") for h in self.headers], "") if self.items else Text()
            strip = Strip(header.render(self.app.console))
            return strip.crop_extend(scroll_x, scroll_x + width, base).apply_style(base)
        index = scroll_y + y - 1
        if index >= len(self.items):
            return Strip.blank(width, base)
        cached = self.cache.get(index)
        if cached is None:
            self.painted_at = self.painted_at or time.perf_counter()
            line = self.line_of(self.row_texts(index), "on grey11" if index % 2 else "")
            cached = self.cache[index] = Strip(line.render(self.app.console))
        strip = cached
        strip = strip.crop_extend(scroll_x, scroll_x + width, base)
        if index == self.cursor:
            strip = strip.apply_style(Style(reverse=self.has_focus, bgcolor=None if self.has_focus else "grey30"))
        return strip.apply_style(base)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.cache.clear()  # a new theme: the rows drawn so far have the old colours

    def watch_cursor(self, old: int, new: int) -> None:
        top = self.scroll_offset.y
        rows = max(1, self.scrollable_content_region.height - 1)
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + rows:
            self.scroll_to(y=new - rows + 1, animate=False)
        self.refresh()

    def move(self, index: int) -> None:
        if self.items:
            self.cursor = max(0, min(len(self.items) - 1, index))

    def action_cursor(self, step: int) -> None:
        self.move(self.cursor + step)

    def action_page(self, direction: int) -> None:
        self.move(self.cursor + direction * max(1, self.scrollable_content_region.height - 2))

    def action_edge(self, direction: int) -> None:
        self.move(0 if direction < 0 else len(self.items) - 1)

    def action_open(self) -> None:
        if self.items:
            self.post_message(self.Open(self.cursor))

    def on_click(self, event: Any) -> None:
        index = self.scroll_offset.y + event.y - 1
        if 0 <= index < len(self.items):
            if index == self.cursor:
                self.action_open()
            self.cursor = index

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def cell(value: Any) -> Text:
    """A cell as drawn: a scalar in its colour, anything else dimmed and cut short."""
    if is_scalar(value):
        return scalar(value, local=False)
    return Text(visible(value)[:MAX_CELL], style="dim")


def cell_plain(value: Any) -> str:
    return "null" if value is None else ("true" if value is True else "false" if value is False else visible(value))


def choose_columns(items: list[Any]) -> list[str]:
    """The scalar fields the items share (id and name first), at most eight."""
    dicts = [item for item in items if isinstance(item, dict)]
    if not dicts:
        return []
    seen: dict[str, int] = {}
    for item in dicts:
        for key, value in item.items():
            if is_scalar(value):
                seen[key] = seen.get(key, 0) + 1
    shared = [key for key, count in seen.items() if count == len(dicts)]
    if not shared:  # items of different shapes: take what most of them have
        shared = [key for key, count in seen.items() if count * 2 >= len(dicts)]
    ordered = [key for key in FIRST_COLUMNS if key in shared] + [key for key in shared if key not in FIRST_COLUMNS]
    return ordered[:MAX_COLUMNS]


class PageView(Vertical):
    """Shows one resource as what it is: fields, a table and its page line, or a failure."""

    DEFAULT_CSS = """
    PageView > #pagination {
        height: 1;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    PageView > #message {
        height: auto;
        padding: 1 2;
    }
    PageView > #message.error {
        color: $text-error;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="message")
        yield FieldTree(id="fields")
        yield Static(id="pagination")
        yield ItemsTable(id="items")

    def on_mount(self) -> None:
        self.showing("message")
        self.query_one("#message", Static).update("Nothing fetched yet.")

    def showing(self, *names: str) -> None:
        for child in self.children:
            child.display = child.id in names

    def show(self, resource: Resource) -> None:
        if resource.error is not None:
            self.show_error(resource.error)
            return
        if resource.json_error:
            self.show_message(f"The body is {resource.json_error}", error=True)
            return
        if resource.json is None:
            self.show_message(f"{resource.status} {resource.reason}: no body.")
            return
        page = resource.page
        if page is not None:
            self.query_one("#items", ItemsTable).show(page.results)
            self.query_one("#pagination", Static).update(Text(page.line()))
            self.showing("items", "pagination")
            return
        self.show_document(resource.document)

    def show_document(self, document: Any) -> None:
        if isinstance(document, dict | list):
            self.query_one("#fields", FieldTree).show(document)
            self.showing("fields")
        else:
            self.show_message(visible(document))

    def show_error(self, error: ApiError) -> None:
        self.show_message("\n".join(lines(error.full())), error=True)

    def show_message(self, message: str, error: bool = False) -> None:
        widget = self.query_one("#message", Static)
        widget.update(Text(message))
        widget.set_class(error, "error")
        self.showing("message")

    def focus_content(self) -> None:
        for child in self.children:
            if child.display and child.focusable:
                child.focus()
                return
