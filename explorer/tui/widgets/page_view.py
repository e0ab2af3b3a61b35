"""The Page pane: an entity as fields, a list (a page, or a bare array) as a table with its page line,
a failure as a document; above it what the API description says of the operation, below it what
the service says of the version served."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from explorer.api.description import Operation
from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.versions import deprecation
from explorer.display.pages import page_summary
from explorer.tui.hint_words import SCREEN_WORDS
from explorer.tui.safe_text import lines, visible
from explorer.tui.table_columns import kind_of
from explorer.tui.widgets.field_tree import FieldTree
from explorer.tui.widgets.items_table import ItemsTable


class PageView(Vertical):
    """Shows one resource as what it is: fields, a table and its page line, or a failure."""

    DEFAULT_CSS = """
    PageView > #pagination {
        height: auto;
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
    PageView > #operation {
        dock: top;
        height: auto;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    PageView > #notice {
        dock: bottom;
        height: auto;
        padding: 0 1;
        background: $boost;
        color: $text-warning;
    }
    """
    docked: frozenset[str] = frozenset()  # the lines `showing` keeps: only while `show` draws a resource
    page_line = ""  # `page 2 of 13 · 1,234 items · 100 per page`, laid out for the pane's width

    def on_resize(self) -> None:
        self.show_page_line()

    def show_page_line(self) -> None:
        """The page line whole: where the pane is too narrow for it, on two lines, broken between its parts."""
        room = max(1, self.size.width - 2)  # its padding
        self.query_one("#pagination", Static).update(Text(packed(self.page_line.split(" · "), room)))

    def compose(self) -> ComposeResult:
        yield Static(id="operation")  # what the API description says of the request: summary, versions, roles
        yield Static(id="message")
        yield FieldTree(id="fields")
        yield Static(id="pagination")
        yield ItemsTable(id="items")
        yield Static(id="notice")  # what the service says of the version served: deprecated, and its sunset

    def on_mount(self) -> None:
        self.showing("message")
        self.query_one("#message", Static).update("Nothing fetched yet.")

    def showing(self, *names: str) -> None:
        """Show these children only. When the one with the focus goes, it is blurred now (the focus goes
        to a sibling shown), as Textual does only once the screen is laid out (on Hide): a `down` typed
        with the Enter that opens a list, let in as the list came, went to the document view it
        replaced, and was lost."""
        focused = self.screen.focused
        for child in self.children:
            child.display = child.id in names or child.id in self.docked
        if focused is not None and focused.parent is self and not focused.display:
            focused.blur()

    def show(self, resource: Resource) -> None:
        notice = deprecation(resource.headers)
        self.query_one("#notice", Static).update(Text(visible(notice or "")))
        operation = resource.operation
        text = "\n".join(lines(described(operation))) if operation else ""
        self.query_one("#operation", Static).update(Text(text))  # each of its lines cut to one (its CSS)
        self.docked = frozenset(
            name for name, shown in (("notice", notice), ("operation", operation)) if shown is not None
        )
        try:
            self.show_resource(resource)
        finally:
            self.docked = frozenset()

    def show_resource(self, resource: Resource) -> None:
        if resource.error is not None:
            self.show_error(resource.error)
            return
        if resource.json_error:
            hint = f" {json_hint}" if (json_hint := resource.json_hint_in(SCREEN_WORDS)) else ""
            self.show_message(visible(f"The body is {resource.json_error}: the JSON pane shows it as received.{hint}"),
                              error=True)  # fmt: skip
            return
        if resource.json is None:
            self.show_message(f"{resource.status} {resource.reason}: no body.")
            return
        page = resource.page_or_array  # a page of `{results}`, or a bare array of objects
        if page is not None:
            partial = page.next_href is not None or page.previous_href is not None
            self.query_one("#items", ItemsTable).show(page.results, kind_of(resource.url), partial)
            self.page_line = page_summary(page)
            self.show_page_line()
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
        self.show_message(error_document(error), error=True)

    def show_failure(self, error: ApiError) -> None:
        """A request that got no answer, or was not sent: its error, drawn as an error answer's."""
        self.show_error(error)

    def show_message(self, message: str | ErrorDocument, error: bool = False) -> None:
        widget = self.query_one("#message", Static)
        widget.update(Text(message) if isinstance(message, str) else message)
        widget.set_class(error, "error")
        self.showing("message")


def error_document(error: ApiError) -> ErrorDocument:
    """A failure's fields, one a row, as the Page pane and the `x` dialog draw them (ErrorDocument)."""
    return ErrorDocument(error.fields(SCREEN_WORDS))


class ErrorDocument:
    """A failure's fields, one a row: its name, then its value, which wraps under itself (a hanging
    indent), so the names stay a column to read down:

    errorCode    RATE_LIMITED
    detail       Resource https://…/groups/687b… is limited to 5
                 requests every minute.

    Where that leaves the values too narrow a column for their words (at 60 columns 18 cells cut
    `(EXPLORER_CLIENT_I` / `D and`), each value goes under its name instead, indented, the width of
    the pane: then only a word longer than that (a URL) is cut, and it goes on under itself.
    """

    def __init__(self, fields: list[tuple[str, str]]) -> None:
        self.rows = [(Text(visible(name)), Text("\n".join(lines(value)))) for name, value in fields]  # Text: no markup
        words = [word for _, value in self.rows for word in value.plain.split() if "://" not in word]
        self.longest_word = min(WORD_ROOM, max(map(cell_len, words), default=0))
        self.names = max((name.cell_len for name, _ in self.rows), default=0) + NAME_GAP

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width - self.names >= self.longest_word:
            yield self.beside()
        else:
            yield self.under()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.beside())

    def beside(self) -> Table:
        """Each value beside its name."""
        document = Table.grid(padding=(0, NAME_GAP, 0, 0))
        document.add_column(no_wrap=True)
        document.add_column(overflow="fold")  # a URL longer than the column goes on under itself too
        for name, value in self.rows:
            document.add_row(name, value)
        return document

    def under(self) -> Group:
        """Each value under its name, indented."""
        return Group(*(part for name, value in self.rows for part in (name, Padding(value, (0, 0, 0, NAME_GAP)))))


NAME_GAP = 2  # cells between a name and its value, and a value's indent under its name
WORD_ROOM = 30  # a word longer than this (a token, a blob) is cut wherever its value goes


def packed(parts: list[str], room: int) -> str:
    """Parts joined by ` · `, a new line begun where the next part would not fit `room` cells."""
    rows: list[str] = []
    for part in parts:
        if rows and cell_len(f"{rows[-1]} · {part}") <= room:
            rows[-1] += f" · {part}"
        else:
            rows.append(part)
    return "\n".join(rows)


def described(operation: Operation) -> str:
    """What the description says of an operation, in two lines: what it is, then its versions and roles.

    Return All Clusters in One Project · listClusters
    versions 2023-01-01†, 2024-08-05 († sunset 2026-11-30) · roles: Project Read Only
    """
    head = " · ".join(part for part in (operation.summary, operation.operation_id) if part) or operation.template
    if operation.deprecated:
        head += " · deprecated" + (f"; sunset {operation.sunset}" if operation.sunset else "")
    details = []
    if operation.versions:
        marked = ", ".join(version + ("†" if version in operation.sunsets else "") for version in operation.versions)
        sunsets = sorted(set(operation.sunsets.values()))
        legend = f" († sunset {', '.join(sunsets)})" if sunsets else ""
        details.append(("version " if len(operation.versions) == 1 else "versions ") + marked + legend)
    if operation.roles:
        details.append("roles: " + ", ".join(operation.roles))
    return "\n".join([head, " · ".join(details)] if details else [head])
