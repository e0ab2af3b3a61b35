"""The bar between the tree and the panes: drag it to make the tree wider or narrower."""

from __future__ import annotations

from rich.segment import Segment
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget


class Splitter(Widget):
    """A one-column bar that reports where it is dragged to; the screen decides what moves."""

    DEFAULT_CSS = """
    Splitter {
        width: 1;
        height: 1fr;
        color: $foreground 55%;  /* 3:1 or more on the background (WCAG 1.4.11), in each shipped theme */
    }
    Splitter:hover, Splitter.-dragging {
        color: $primary;
    }
    """

    class Dragged(Message):
        """The bar was dragged to screen column `x`."""

        def __init__(self, x: int) -> None:
            super().__init__()
            self.x = x

    class Released(Message):
        """The drag ended: a good time to remember the width."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tooltip = "Drag to resize the tree (or press < and >)"

    def render_line(self, y: int) -> Strip:
        return Strip([Segment("│", self.rich_style)], 1)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        event.stop()
        self.capture_mouse()
        self.add_class("-dragging")

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self.has_class("-dragging"):
            event.stop()
            self.post_message(self.Dragged(event.screen_x))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self.has_class("-dragging"):
            event.stop()
            self.capture_mouse(False)
            self.remove_class("-dragging")
            self.post_message(self.Released())
