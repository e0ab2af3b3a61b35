"""The JSON pane: a line saying where the view is (which view, line, path, match), the JSON view,
and its search box, made when asked for."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from explorer.api.resource import Resource
from explorer.tui.safe import visible
from explorer.tui.widgets.json_view import JsonView


class JsonPane(Vertical):
    """The JSON view, a line saying where it is, and its search box."""

    DEFAULT_CSS = """
    JsonPane > #where {
        height: 1;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    JsonPane > Input {
        dock: bottom;
    }
    """

    pending: Resource | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="where")
        yield JsonView(id="json")

    @property
    def view(self) -> JsonView:
        return self.query_one(JsonView)

    def show(self, resource: Resource) -> None:
        """Take the resource now; lay it out when the pane is on screen (most of the time it is not)."""
        self.pending = resource
        if self.is_on_screen:
            self.lay_out()

    def lay_out(self) -> None:
        if self.pending is not None:
            resource, self.pending = self.pending, None
            self.view.show(resource)

    def on_show(self) -> None:
        self.lay_out()

    @property
    def is_on_screen(self) -> bool:
        return self.display and self.is_attached and self.region.area > 0

    def on_json_view_changed(self, event: JsonView.Changed) -> None:
        event.stop()
        self.query_one("#where", Static).update(Text(visible(self.view.where()), no_wrap=True, overflow="ellipsis"))

    def open_search(self) -> None:
        """The search box, made when asked for: most visits never search."""
        boxes = self.query("#search")
        box = boxes.first(Input) if boxes else Input(placeholder="search (Enter finds, Esc closes)", id="search")
        if not boxes:
            self.mount(box)
        box.value = self.view.term
        self.call_after_refresh(box.focus)

    def close_search(self) -> None:
        self.query("#search").remove()
        self.view.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        count = self.view.search(event.value)
        self.close_search()
        if event.value:
            self.notify(f"{count:,} matches" if count else "No matches", markup=False)

    def on_key(self, event: Any) -> None:
        if event.key == "escape" and self.query("#search"):
            event.stop()
            self.close_search()
