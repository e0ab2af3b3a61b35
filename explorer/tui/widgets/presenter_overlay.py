"""The corner of the screen that shows an audience each key pressed and the requests it sent."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from explorer.tui.presenter import Presenter


class PresenterOverlay(Static):
    DEFAULT_CSS = """
    PresenterOverlay {
        dock: right;
        layer: presenter;
        width: 56;
        max-width: 60%;
        height: auto;
        margin: 3 1 0 0;
        padding: 0 1;
        background: $panel;
        border: round $primary;
        border-title-color: $primary;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="presenter")
        self.border_title = "keys and requests"
        self.version = -1

    def show(self, presenter: Presenter) -> None:
        """Redraw if the presenter has anything new."""
        if presenter.version == self.version:
            return
        self.version = presenter.version
        lines: list[Content] = []
        for action in presenter.actions:
            times = f" ×{action.times}" if action.times > 1 else ""
            lines.append(Content.assemble((f" {action.key} ", "reverse bold"), " ", (action.does, "bold"), times))
            for line, status in action.requests:
                lines.append(Content.assemble("  → ", (line, f"${status}")))
            if action.more:
                lines.append(Content(f"  + {action.more} more"))
        self.update(Content("\n").join(lines) if lines else Content("Keys and requests show here."))
