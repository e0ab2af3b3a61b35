"""The strip along the bottom of the screen that shows an audience each key pressed and the requests it sent.

It is docked, not floated: it takes its rows from the screen's layout (above the footer), so it
never covers the tree, the panes or the status bar. It keeps a quarter of the screen's height, and
shows the newest actions that fit there.
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from explorer.tui.presenter import Action, Presenter


class PresenterOverlay(Widget):
    DEFAULT_CSS = """
    PresenterOverlay {
        dock: bottom;
        height: 25%;
        min-height: 4;
        max-height: 10;
        margin-bottom: 1;  /* the footer's line */
        padding: 0 1;
        background: $panel;
        border-top: solid $primary;
        border-title-color: $primary;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="presenter")
        self.border_title = "keys and requests"
        self.version = -1
        self.actions: list[Action] = []  # oldest first

    def show(self, presenter: Presenter) -> None:
        """Redraw if the presenter has anything new."""
        if presenter.version == self.version:
            return
        self.version = presenter.version
        self.actions = list(presenter.actions)
        self.refresh()

    def render(self) -> Content:
        """The newest actions whole that fit the strip (the newest alone, cut, if even it does not)."""
        if not self.actions:
            return Content("Keys and requests show here.")
        width = self.content_size.width or self.app.size.width
        actions = [lines_of(action, width) for action in self.actions]
        room = self.content_size.height or sum(map(len, actions))
        shown: list[Content] = []
        for lines in reversed(actions):
            if shown and len(shown) + len(lines) > room:
                break
            shown = lines + shown
        return Content("\n").join(shown[:room])


def lines_of(action: Action, width: int) -> list[Content]:
    """` ] ` Next page ×3, then `→ GET /groups?pageNum=2  200 · 43 ms` for each request it sent,
    its path cut to `width` as the Log cuts one."""
    times = f" ×{action.times}" if action.times > 1 else ""
    lines = [Content.assemble((f" {action.key} ", "reverse bold"), " ", (action.does, "bold"), times)]
    lines += [Content.assemble("  → ", (line.fit(width - 4), f"${status}")) for line, status in action.requests]
    if action.more:
        lines.append(Content(f"  + {action.more} more"))
    return lines
