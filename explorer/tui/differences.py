"""A difference between two documents as a line on the screen: the Watch pane's and the comparison's."""

from __future__ import annotations

from rich.text import Text

from explorer.api.changes import Change
from explorer.tui.safe_text import visible

SHOWN_ON_SCREEN = 400  # characters of a value: the line is cut at the pane's edge anyway
KIND_STYLES = {"added": "status-2xx", "removed": "status-5xx", "changed": "status-4xx"}


def change_line(change: Change) -> Text:
    """`~ .stateName: "CREATING" → "IDLE"`, its sign coloured by its kind, every character visible."""
    line = Text(visible(change.line(SHOWN_ON_SCREEN)), no_wrap=True, overflow="ellipsis")
    line.stylize(KIND_STYLES[change.kind], 0, 1)
    return line
