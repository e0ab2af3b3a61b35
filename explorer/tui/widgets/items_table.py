"""The items table: a page of a list in the Page pane, one item a row; its columns chosen and
ordered, its rows sorted by a column and filtered as typed (the rules: table_columns.py)."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from explorer.tui.cursor_keys import moving
from explorer.tui.safe_text import visible
from explorer.tui.table_cells import MAX_CELL, cell, cell_plain, column_cell, column_plain
from explorer.tui.table_columns import COUNTED, arranged, choose_columns, matching, row_text, sorted_rows
from explorer.tui.url_layout import middle
from explorer.tui.widgets.field_tree import is_scalar
from explorer.tui.widgets.line_cursor import LineCursorView

__all__ = ["MAX_CELL", "ItemsTable", "cell", "cell_plain", "choose_columns"]

ID_LEAST = 11  # cells of an id cut in its middle that still tell rows apart (`6ae6f…e173e`)
SAMPLE = 1000  # the rows the columns are chosen and sized from: a page of 167,000 items costs these
KEPT = 2  # the columns drawn however narrow the pane, the last cut at its edge: the id and the name
CUT_LEAST = 16  # cells for a further column cut at the edge: fewer read as nothing
ARROWS = {False: " ▲", True: " ▼"}  # beside the name of the column the rows are sorted by: up, down


class ItemsTable(LineCursorView):
    """A page of items, one a row, in the columns their scalar fields share.

    Drawn with the Line API: a page of 500 items costs the rows on screen, not 4,000 cells laid out.
    The header stays on the first line, every other row is striped; Enter or a click on a row opens
    its item. The columns that do not fit are left out from the end, the header saying how many
    (`+12 more`). `left` and `right` move the column cursor (its name lit in the header); `o`
    sorts by that column (again: the other way; a third time: as the service sent them); `f`
    filters the rows as typed, in any cell, a line above the header counting them (`12 of 100
    rows`), Esc clearing it; `t` asks the screen to let the reader choose and order the columns
    (ColumnsAsked). The sort and the columns are kept for the kind of list (its path's last
    segment) for the session; the filter while that kind of list is shown.
    """

    class Open(Message):
        """Enter or a click on a row: open that item."""

        def __init__(self, item: Any, index: int) -> None:
            super().__init__()
            self.item = item  # the item's document, as the list gave it
            self.index = index  # its place on the page, whatever the rows' order on screen

    class ColumnsAsked(Message):
        """`t`: the columns to choose and order; the answer goes to the table's `use_columns`."""

        def __init__(self, table: ItemsTable, columns: list[tuple[str, bool]], default: list[str]) -> None:
            super().__init__()
            self.table = table
            self.columns = columns  # (column, shown) in the order drawn
            self.default = default  # the columns in the order they come in unasked

    BINDINGS = [
        *moving("table"),
        Binding("enter", "open", "Open", id="table.open"),
        Binding("left", "column(-1)", "Column left", show=False, id="table.column_left"),
        Binding("right", "column(1)", "Column right", show=False, id="table.column_right"),
        Binding("f", "filter", "Filter", id="table.filter"),
        Binding("o", "sort", "Sort", id="table.sort"),
        Binding("t", "columns", "Columns", id="table.columns"),
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
        self.page: list[Any] = []  # the items as the service sent them
        self.items: list[Any] = []  # the rows as drawn: filtered, sorted
        self.rows: list[int] = []  # each row's item's place on the page
        self.kind = ""  # the kind of list (table_columns.kind_of)
        self.partial = False  # whether the list has other pages than this one
        self.fields: list[str] = []  # every column the page has, in the order they come in unasked
        self.column_names: list[str] = []  # the columns chosen, in order: those past the edge too
        self.headers: list[str] = []  # the same, or `item` for a list of plain values
        self.layouts: dict[str, list[tuple[str, bool]]] = {}  # a kind of list: its columns as chosen
        self.sorts: dict[str, tuple[str, bool]] = {}  # a kind of list: the column sorted by, and downwards
        self.typed = ""  # the filter
        self.typing = False  # the keys go into the filter
        self.texts: list[str] | None = None  # each item's cells as the filter reads them, once needed
        self.asked: dict[str, int] = {}  # each column's width, as its cells ask (at most MAX_CELL)
        self.widths: list[int] = []  # the columns drawn: their widths as asked, the header's included
        self.drawn: list[int] = []  # the same as drawn: the id's given way to the name (fitted)
        self.at = 0  # the column the column cursor was put on (a narrower view draws it on the last drawn)

    @property
    def row_count(self) -> int:
        return len(self.items)

    @property
    def line_count(self) -> int:
        return len(self.items)

    @property
    def header_lines(self) -> int:
        return self.HEADER_LINES + (self.line_above_header() is not None)

    @property
    def sorting(self) -> tuple[str, bool] | None:
        """The column the rows are sorted by, and whether downwards; None for the service's order."""
        sort = self.sorts.get(self.kind)
        return sort if sort is not None and sort[0] in self.headers else None

    @property
    def column_at(self) -> int:
        """The column under the column cursor, among those drawn."""
        return max(0, min(self.at, len(self.drawn) - 1))

    def show(self, items: list[Any], kind: str = "", partial: bool = False) -> None:
        """A new page: its columns chosen and sized from its first SAMPLE rows, the cursor on its first row.

        Args:
            items: The page's items.
            kind: The kind of list (table_columns.kind_of its URL): its columns and sort are kept by it.
            partial: Whether the list has other pages: a sort orders this one's rows only, and says so.
        """
        if kind != self.kind:
            self.typed, self.typing, self.at = "", False, 0
        self.page, self.kind, self.partial = items, kind, partial
        sample = items[:SAMPLE]
        self.fields = choose_columns(sample, kind)
        plain = {c: [column_plain(i, c) if isinstance(i, dict) else "" for i in sample] for c in self.fields}
        if not self.fields:
            plain = {"item": [cell_plain(item) for item in sample]}
        self.asked = {column: min(MAX_CELL, max(map(cell_len, texts), default=0)) for column, texts in plain.items()}
        self.lay_out()
        self.cursor = 0
        self.scroll_to(0, 0, animate=False)

    def lay_out(self) -> None:
        """The columns as chosen for this kind of list, then the rows."""
        self.column_names = [column for column, shown in arranged(self.fields, self.layouts.get(self.kind)) if shown]
        self.headers = self.column_names or ["item"]
        self.texts = None
        self.order_rows()

    def order_rows(self) -> None:
        """The rows that match the filter, sorted; the cursor kept on its item where it still shows."""
        under = self.rows[self.cursor] if self.cursor < len(self.rows) else None
        rows = list(range(len(self.page)))
        if self.typed:
            if self.texts is None:
                self.texts = [row_text(self.cells_plain(item)) for item in self.page]
            rows = matching(self.texts, self.typed)
        sort = self.sorting
        if sort is not None:
            column, downwards = sort
            order = sorted_rows([self.sort_value(self.page[row], column) for row in rows], downwards)
            rows = [rows[at] for at in order]
        self.rows, self.items = rows, [self.page[row] for row in rows]
        self.fit()
        self.move(rows.index(under) if under in rows else 0)
        self.refresh()

    def on_resize(self) -> None:
        if self.page:
            self.fit()

    def fit(self) -> None:
        """The columns that fit the view's width: the id gives way first (fitted), then the columns
        after the name are left out from the end, the name cut at the edge if need be."""
        room = self.scrollable_content_region.width or self.size.width
        labels = self.labels()
        widths = [
            max(self.asked.get(header, 0), cell_len(label)) for header, label in zip(self.headers, labels, strict=True)
        ]
        drawn = fitted(self.headers, widths, room)
        count = fitting(drawn, room)
        if count < len(drawn):  # room for the mark that says how many are left out
            count = fitting(drawn, room - cell_len(hidden_mark(len(drawn) - count)))
        self.widths, self.drawn = widths[:count], drawn[:count]
        self.cache.clear()
        width = min(room, sum(self.drawn) + 2 * count)
        self.virtual_size = Size(width, len(self.items) + self.header_lines)

    def labels(self) -> list[str]:
        """The columns' names, the one sorted by with its arrow."""
        sort = self.sorting
        return [header + (ARROWS[sort[1]] if sort and sort[0] == header else "") for header in self.headers]

    def cells_plain(self, item: Any) -> list[str]:
        """An item's cells as text, every column chosen (those past the edge too): what the filter reads."""
        if not self.column_names:
            return [cell_plain(item)]
        return [column_plain(item, column) if isinstance(item, dict) else "" for column in self.column_names]

    def sort_value(self, item: Any, column: str) -> Any:
        """An item's value in a column, to sort by: the field's own, or the text a column of counts shows."""
        if not self.column_names:
            return item if is_scalar(item) else cell_plain(item)
        if not isinstance(item, dict):
            return None
        if column in item or COUNTED not in column:
            value = item.get(column)
            return value if is_scalar(value) else cell_plain(value)
        return column_plain(item, column)

    def row_texts(self, index: int, count: int | None = None) -> list[Text]:
        """The cells of a row as drawn: the first `count` columns' (all of them if None)."""
        item = self.items[index]
        if self.column_names and isinstance(item, dict):
            return [column_cell(item, column) for column in self.column_names[:count]]
        return [cell(item)]

    def line_of(self, cells: list[Text]) -> Text:
        line = Text(no_wrap=True, end="")
        for shown, width, asked in zip(cells, self.drawn, self.widths, strict=False):
            if width < asked and cell_len(shown.plain) > width:  # the id, cut in its middle: both ends tell it apart
                shown = Text(middle(shown.plain, width), style=shown.style)
            shown.truncate(width, overflow="ellipsis", pad=True)
            line.append_text(shown)
            line.append("  ")
        return line

    def line_above_header(self) -> Text | None:
        """The line above the header: the filter and the rows it leaves (`12 of 100 rows`), and a
        sort that orders only this page of a list of several; None when there is neither."""
        parts = []
        if self.typing or self.typed:
            typed = Text.assemble(("filter ", "json-muted"), visible(self.typed), (" " if self.typing else ""))
            if self.typing:
                typed.stylize("reverse", len(typed) - 1)  # the cursor
            parts += [typed, Text(f"{len(self.items):,} of {len(self.page):,} rows")]
            if self.typing:
                parts.append(Text("Enter keeps it, Esc clears it", style="json-muted"))
        sort = self.sorting
        if sort is not None and self.partial:
            note = f"{sort[0]}{ARROWS[sort[1]]} sorts this page's rows, not the whole list"
            parts.append(Text(note, style="json-muted"))
        return Text(" · ").join(parts) if parts else None

    def render_header_line(self, y: int) -> Strip:
        if not self.page:
            return Strip([])
        above = self.line_above_header()
        if above is not None and y == 0:
            return Strip(above.render(self.app.console))
        styles = [
            "bold reverse" if self.has_focus and at == self.column_at else "bold" for at in range(len(self.drawn))
        ]
        line = self.line_of(
            [Text(visible(label), style=style) for label, style in zip(self.labels(), styles, strict=False)]
        )
        hidden = len(self.headers) - len(self.drawn)
        if hidden:  # at the right edge, in the room fit left for it (the kept columns may take it)
            mark = Text(hidden_mark(hidden), style="json-muted")
            line.rstrip()
            line.truncate(max(0, self.scrollable_content_region.width - mark.cell_len), overflow="ellipsis", pad=True)
            line.append_text(mark)
        return Strip(line.render(self.app.console))

    def render_body_line(self, line: int) -> Strip:
        return Strip(self.line_of(self.row_texts(line, len(self.drawn))).render(self.app.console))

    def move_to_item(self, index: int) -> None:
        """Put the cursor on the row of the page's item at `index`, where that row shows."""
        if index in self.rows:
            self.move(self.rows.index(index))

    def action_open(self) -> None:
        if self.items:
            self.post_message(self.Open(self.items[self.cursor], self.rows[self.cursor]))

    def line_clicked(self, line: int) -> None:
        """A click on a row opens it, as Enter does."""
        self.move(line)
        self.action_open()

    def action_column(self, step: int) -> None:
        """`left`, `right`: the column cursor to the next column drawn."""
        self.at = max(0, min(len(self.drawn) - 1, self.column_at + step))
        self.refresh()

    def action_sort(self) -> None:
        """`o`: the rows sorted by the column under the column cursor, smallest first; again, largest
        first; a third time, in the order the service sent them."""
        if not self.page:
            return
        column, sort = self.headers[self.column_at], self.sorting
        if sort is None or sort[0] != column:
            self.sorts[self.kind] = (column, False)
        elif not sort[1]:
            self.sorts[self.kind] = (column, True)
        else:
            del self.sorts[self.kind]
        self.order_rows()

    def action_filter(self) -> None:
        """`f`: what is typed next filters the rows, until Enter (kept) or Esc (cleared)."""
        if self.page:
            self.typing = True
            self.fit()
            self.refresh()

    def filter_with(self, typed: str, typing: bool) -> None:
        self.typed, self.typing = typed, typing
        self.order_rows()

    def on_key(self, event: events.Key) -> None:
        """While the filter is typed, the keys are its own (`q` is a letter, not Quit); Esc clears a
        filter kept. The cursor keys still move in the rows."""
        key = event.key
        if not self.typing:
            if key == "escape" and self.typed:
                event.prevent_default()
                event.stop()
                self.filter_with("", False)
            return
        if key == "escape":
            self.filter_with("", False)
        elif key == "enter":
            self.filter_with(self.typed, False)
        elif key == "backspace":
            self.filter_with(self.typed[:-1], True)
        elif key == "ctrl+u":
            self.filter_with("", True)
        elif event.is_printable and event.character and not key.startswith("alt+"):
            self.filter_with(self.typed + event.character, True)
        else:
            return
        event.prevent_default()
        event.stop()

    def on_paste(self, event: events.Paste) -> None:
        """A paste while the filter is typed: its first line goes in."""
        if self.typing:
            event.stop()
            self.filter_with(self.typed + (event.text.splitlines() or [""])[0], True)

    def on_blur(self) -> None:
        if self.typing:
            self.filter_with(self.typed, False)

    def action_columns(self) -> None:
        """`t`: the columns of the page, to choose and order (the screen asks; `use_columns` takes the answer)."""
        if self.fields:
            columns = arranged(self.fields, self.layouts.get(self.kind))
            self.post_message(self.ColumnsAsked(self, columns, list(self.fields)))

    def use_columns(self, columns: list[tuple[str, bool]] | None) -> None:
        """The columns in this order, those shown: kept for this kind of list, for the session.

        Args:
            columns: (column, shown) for each column; None leaves them as they are (the dialog cancelled).
        """
        if columns is not None and any(shown for _, shown in columns):
            self.layouts[self.kind] = columns
            self.lay_out()


def fitted(headers: list[str], widths: list[int], room: int) -> list[int]:
    """The columns' widths in `room` cells: where the id and the column after it (the name) do not
    both fit, the id gives way, cut in its middle down to ID_LEAST cells; the name is what tells
    rows apart to a reader (`CLUSTER_UPDATED`, where 24 cells of id left `CLUSTER_U`). The other
    columns keep their widths. Where that is enough, the id gives way to the third column too, the
    first of those that matter (a cluster's `stateName` at 80 columns), the header's mark beside it."""
    drawn = list(widths)
    if len(widths) > 1 and headers[0] == "id" and widths[0] > ID_LEAST:
        over = widths[0] + 2 + widths[1] - room  # 2: the gap between them
        drawn[0] = max(ID_LEAST, widths[0] - max(0, over))
        if len(widths) > 2:
            mark = cell_len(hidden_mark(len(widths) - 3)) if len(widths) > 3 else 0
            over = drawn[0] + 2 + widths[1] + 2 + widths[2] + mark - room
            drawn[0] -= over if 0 < over <= drawn[0] - ID_LEAST else 0
    return drawn


def hidden_mark(hidden: int) -> str:
    """The header's last words where columns are left out: ` +12 more` (`t` shows them)."""
    return f" +{hidden} more"


def fitting(drawn: list[int], room: int) -> int:
    """How many columns are drawn in `room` cells: all that fit whole, two at least (the second cut
    at the edge), then one cut at the edge where CUT_LEAST cells are left for it (a wide column, a
    bucket's counts, still read in part), the others left out from the end."""
    used = 0
    for count, width in enumerate(drawn):
        if count >= KEPT and used + width > room:
            return count + 1 if room - used >= CUT_LEAST else count
        used += width + 2  # 2: the gap after it
    return len(drawn)
