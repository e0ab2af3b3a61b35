"""The items table: a page of a list in the Page pane, one item a row."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from explorer.tui.cursor_keys import moving
from explorer.tui.place import middle
from explorer.tui.server_text import brief, visible
from explorer.tui.widgets.field_tree import is_scalar, scalar
from explorer.tui.widgets.line_cursor import LineCursorView

MAX_COLUMNS = 8
MAX_CELL = 60
ID_LEAST = 11  # cells of an id cut in its middle that still tell rows apart (`6ae6f…e173e`)
SAMPLE = 1000  # the rows the columns are chosen and sized from: a page of 167,000 items costs these


class ItemsTable(LineCursorView):
    """A page of items, one a row, in the columns their scalar fields share.

    Drawn with the Line API: a page of 500 items costs the rows on screen, not 4,000 cells laid out.
    The header stays on the first line, every other row is striped; Enter or a click on a row opens
    its item.
    """

    class Open(Message):
        """Enter or a click on a row: open that item."""

        def __init__(self, item: Any, index: int) -> None:
            super().__init__()
            self.item = item  # the item's document, as the list gave it
            self.index = index  # its row: its place on the page

    BINDINGS = [
        *moving("table"),
        Binding("enter", "open", "Open", id="table.open"),
    ]
    DEFAULT_CSS = """
    ItemsTable {
        overflow: auto;
    }
    """
    HEADER_LINES = 1
    STRIPED = True

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.column_names: list[str] = []
        self.headers: list[str] = []
        self.items: list[Any] = []
        self.widths: list[int] = []  # each column's width, as its cells ask (at most MAX_CELL)
        self.drawn: list[int] = []  # each column's width as drawn: the id's given way to the name (fitted)

    @property
    def row_count(self) -> int:
        return len(self.items)

    @property
    def line_count(self) -> int:
        return len(self.items)

    def show(self, items: list[Any]) -> None:
        """A new page: its columns chosen and sized from its first SAMPLE rows, the cursor on its first row."""
        sample = items[:SAMPLE]
        self.column_names = choose_columns(sample)
        self.items = items
        if self.column_names:
            columns = self.column_names
            plain = [[column_plain(item, c) if isinstance(item, dict) else "" for c in columns] for item in sample]
            self.headers = self.column_names
        else:
            plain = [[cell_plain(item)] for item in sample]
            self.headers = ["item"]
        self.widths = [
            min(MAX_CELL, max([cell_len(header)] + [cell_len(row[i]) for row in plain]))
            for i, header in enumerate(self.headers)
        ]
        self.fit()
        self.cursor = 0
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def on_resize(self) -> None:
        if self.items:
            self.fit()

    def fit(self) -> None:
        """The columns' widths for the view's width: the id column gives way first (fitted)."""
        room = self.scrollable_content_region.width or self.size.width
        self.drawn = fitted(self.headers, self.widths, room)
        self.cache.clear()
        self.virtual_size = Size(sum(self.drawn) + 2 * len(self.drawn), len(self.items) + self.HEADER_LINES)

    def row_texts(self, index: int) -> list[Text]:
        """The cells of a row as drawn."""
        item = self.items[index]
        if self.column_names and isinstance(item, dict):
            return [column_cell(item, column) for column in self.column_names]
        return [cell(item)]

    def line_of(self, cells: list[Text]) -> Strip:
        line = Text(no_wrap=True, end="")
        for shown, width, asked in zip(cells, self.drawn, self.widths, strict=False):
            if width < asked and cell_len(shown.plain) > width:  # the id, cut in its middle: both ends tell it apart
                shown = Text(middle(shown.plain, width), style=shown.style)
            shown.truncate(width, overflow="ellipsis", pad=True)
            line.append_text(shown)
            line.append("  ")
        return Strip(line.render(self.app.console))

    def render_header_line(self, y: int) -> Strip:
        return self.line_of([Text(visible(h), style="bold") for h in self.headers]) if self.items else Strip([])

    def render_body_line(self, line: int) -> Strip:
        return self.line_of(self.row_texts(line))

    def action_open(self) -> None:
        if self.items:
            self.post_message(self.Open(self.items[self.cursor], self.cursor))

    def line_clicked(self, line: int) -> None:
        """A click on a row opens it, as Enter does."""
        self.move(line)
        self.action_open()


def fitted(headers: list[str], widths: list[int], room: int) -> list[int]:
    """The columns' widths in `room` cells: where the id and the column after it (the name) do not
    both fit, the id gives way, cut in its middle down to ID_LEAST cells; the name is what tells
    rows apart to a reader (`CLUSTER_UPDATED`, where 24 cells of id left `CLUSTER_U`). The other
    columns keep their widths, scrolled to."""
    drawn = list(widths)
    if len(widths) > 1 and headers[0] == "id" and widths[0] > ID_LEAST:
        over = widths[0] + 2 + widths[1] - room  # 2: the gap between them
        drawn[0] = max(ID_LEAST, widths[0] - max(0, over))
    return drawn


def cell(value: Any) -> Text:
    """A cell as drawn: a scalar in its colour, anything else muted and cut short."""
    if is_scalar(value):
        return scalar(value, local=False)
    return Text(brief(value, MAX_CELL), style="json-muted")


def cell_plain(value: Any) -> str:
    """A cell's text, as long as it needs to be to size its column (which is at most MAX_CELL)."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true" if value else "false"
    return brief(value, MAX_CELL)


def choose_columns(items: list[Any]) -> list[str]:
    """The scalar fields the items share (id and name first), at most eight; after id and name, a
    field holding named counts, as `buckets[].remaining` (see named_count)."""
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
    first = [key for key in ("id", name_of(shared)) if key in shared]
    counts = [f"{key}{COUNTED}{count}" for key in dicts[0] if (count := named_count(dicts, key)) is not None]
    return [*first, *counts, *(key for key in shared if key not in first)][:MAX_COLUMNS]


def name_of(fields: list[str]) -> str:
    """The field that names an item: `name`, else what kind of thing it is (an event's
    `eventTypeName`, a `typeName`), which tells rows apart that otherwise show only an id and a
    date at 80 columns."""
    if "name" in fields:
        return "name"
    return next((key for key in fields if key == "typeName" or key.endswith("TypeName")), "name")


COUNTED = "[]."  # in a column's name: the field's list, the number of each of its objects (jq's path)


def named_count(items: list[dict[str, Any]], key: str) -> str | None:
    """The number each object under `key` holds, when the field holds named counts: in every item a
    list of objects, each with a string `name` and one number, under the same key in all (a rate
    limit's `buckets`, each with what is `remaining`). One column shows them all, where otherwise
    each item had to be opened and the list unfolded. None for any other field."""
    lists = [listed for item in items if isinstance(listed := item.get(key), list)]
    if len(lists) < len(items):
        return None
    objects = [entry for listed in lists for entry in listed]
    if not objects or not all(isinstance(entry, dict) and isinstance(entry.get("name"), str) for entry in objects):
        return None
    numbers = [{name for name, value in entry.items() if is_number(value)} for entry in objects]
    keys = set.union(*numbers)
    return keys.pop() if len(keys) == 1 and all(numbers) else None


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def column_cell(item: dict[str, Any], column: str) -> Text:
    """An item's cell in a column: a field's value, or the named counts of a `key[].number` column."""
    key, counted, number = column.partition(COUNTED)
    if column in item or not counted:
        return cell(item.get(column))
    return counts(item.get(key), number)


def column_plain(item: dict[str, Any], column: str) -> str:
    """A cell's text, to size its column."""
    if column in item or COUNTED not in column:
        return cell_plain(item.get(column))
    return column_cell(item, column).plain


def counts(listed: Any, number: str) -> Text:
    """Named counts, least first, as `production 3, staging 20, …`: the ones that run out show
    before the cell is cut."""
    entries = [entry for entry in listed if isinstance(entry, dict)] if isinstance(listed, list) else []
    entries = [entry for entry in entries if is_number(entry.get(number))]
    shown = Text(no_wrap=True, end="")
    for entry in sorted(entries, key=lambda e: e[number]):
        if len(shown) > MAX_CELL:  # a line's worth: the table cuts it with a `…`
            break
        if shown:
            shown.append(", ", style="json-muted")
        shown.append(brief(entry.get("name", ""), MAX_CELL) + " ")
        shown.append(f"{entry[number]}", style="json-number")
    return shown
