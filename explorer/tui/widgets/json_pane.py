"""The JSON pane: what its jq filter makes of the document (a line of its own, wrapped, while there
is one), a line saying where the view is (which view, line, path, match), the JSON view, and its
search box, made when asked for."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from explorer.api.errors import ApiError
from explorer.api.filters import JqError, Outcome
from explorer.api.resource import Resource
from explorer.tui.safe_text import visible
from explorer.tui.widgets.json_view import JsonView
from explorer.tui.widgets.ordered_input import OrderedInput

LEAST_PART = 8  # cells of a part cut beside the match counter that still say something


class JsonPane(Vertical):
    """The JSON view, a line saying where it is, and its search box."""

    DEFAULT_CSS = """
    JsonPane > #filtered {
        display: none;
        height: auto;
        max-height: 3;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    JsonPane > #where {
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    JsonPane > Input {
        dock: bottom;
    }
    """

    pending: Resource | None = None
    current: Resource | None = None  # the resource shown (or to be)
    program: str | None = None  # the jq filter `|` gave, kept for every resource shown until cleared
    run: Callable[[str, Any], Awaitable[Outcome]] | None = None
    filter_line = ""  # what the filter's line says now

    def compose(self) -> ComposeResult:
        yield Static(id="filtered")
        yield Static(id="where")
        yield JsonView(id="json")

    @property
    def view(self) -> JsonView:
        return self.query_one(JsonView)

    def show(self, resource: Resource) -> None:
        """Take the resource now; lay it out when the pane is on screen (most of the time it is not)."""
        self.pending = self.current = resource
        if self.is_on_screen:
            self.lay_out()

    def show_failure(self, error: ApiError) -> None:
        """No document: a request that got no answer, or was not sent. Said on the pane's line."""
        self.pending = self.current = None
        self.view.show_nothing("no JSON: " + ("nothing was sent" if error.sent is None else "no answer came"))

    def filter_with(self, program: str | None, run: Callable[[str, Any], Awaitable[Outcome]]) -> None:
        """Show what a jq program makes of each document from now on (None: the document again)."""
        self.program, self.run = program, run
        if self.current is not None:
            self.show(self.current)

    def lay_out(self) -> None:
        if self.pending is not None:
            resource, self.pending = self.pending, None
            self.view.show(resource)
            if self.program is not None and resource.json is not None:
                self.filtered(self.program, resource.json)
            elif self.program is not None:
                self.view.show_filter_line(f"| {visible(self.program)}: the body is not JSON; shown as it is")

    @work(exclusive=True, group="jq", description="the jq filter")
    async def filtered(self, program: str, document: Any) -> None:
        """The filter's results in the view, in place of the document (it runs in jq's own process)."""
        if self.run is None:  # jq is offered only where it runs
            return
        self.view.show_filter_line(f"| {visible(program)} …")
        try:
            outcome = await self.run(program, document)
        except JqError as error:
            self.view.show_filter_line(f"| {visible(program)}: {visible(error)} (the document as it is)")
            return
        count = len(outcome.results)
        summary = f"| {visible(program)} · {count:,}{'+' if outcome.cut else ''} result{'s' * (count != 1)}"
        value = outcome.results[0] if count == 1 else outcome.results
        self.view.show_value(value, summary + (" (as an array)" if count != 1 else ""))

    def on_show(self) -> None:
        self.lay_out()

    @property
    def is_on_screen(self) -> bool:
        return self.display and self.is_attached and self.region.area > 0

    def on_json_view_changed(self, event: JsonView.Changed) -> None:
        event.stop()
        self.show_where()

    def on_resize(self) -> None:
        self.show_where()

    def show_where(self) -> None:
        """The lines above the view. The filter's (`| .name: … (the document as it is)`) has its own,
        wrapped: an old search's counter never crowds out why a filter failed. Where the view's line is
        too long, what comes before the match counter gives way (cut with `…`), never the counter at its
        end (`“staging” 1/2`)."""
        text = visible(self.view.filtered or "")
        if text != self.filter_line:  # not on every cursor move: its update lays the pane out
            self.filter_line = text
            filtered = self.query_one("#filtered", Static)
            filtered.display = bool(text)
            filtered.update(Text(text))
        parts = [visible(part) for part in self.view.where_parts()]
        line = self.query_one("#where", Static)
        room = line.content_size.width or self.size.width - 2
        counter = parts[-1:] if self.view.term else []
        head = parts[: len(parts) - len(counter)]
        while len(head) > 1 and cell_len(" · ".join(head + counter)) > room > 0:
            head.pop(0)  # whole parts give way from the front (the view's name first): a number is never
            # cut in its middle, where `line 2 of 1…` read as one line of one
        where = " · ".join(head + counter)
        if counter and cell_len(where) > room > 0:  # the last part left is cut at its end, the counter never
            keep = max(0, room - cell_len(counter[0]) - 4)
            where = (set_cell_size(head[0], keep) + "… · " if keep >= LEAST_PART else "") + counter[0]
        line.update(Text(where, no_wrap=True, overflow="ellipsis"))

    async def open_search(self) -> None:
        """The search box, made when asked for: most visits never search. It has the focus when
        this returns, so the keys typed right after `/` are its own."""
        boxes = self.query("#search")
        box = boxes.first(Input) if boxes else OrderedInput(placeholder="search (Enter finds, Esc)", id="search")
        if not boxes:
            await self.mount(box)
        box.value = self.view.term
        self.screen.set_focus(box)  # now: focus() would wait for the next idle moment

    def close_search(self) -> None:
        self.query("#search").remove()
        self.view.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        count = self.view.search(event.value)
        self.close_search()
        if event.value and not count:  # the count of matches is on the line above: a notice would hide one
            self.notify("No matches", markup=False)

    def on_key(self, event: Any) -> None:
        if event.key == "escape" and self.query("#search"):
            event.stop()
            self.close_search()
