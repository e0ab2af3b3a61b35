"""The line above the panes while a request is on its way: what they show is the previous answer.

Shown once the request has gone on for a moment (the screen's PENDING_MARK_AFTER, as the tree's `…`), so a
quick answer never flashes it; gone when the answer (or the failure, or Esc) comes.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class PreviousAnswer(Static):
    DEFAULT_CSS = """
    PreviousAnswer {
        display: none;
        height: 1;
        padding: 0 1;
        background: $warning-muted;
        color: $text-warning;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def show(self) -> None:
        """Say that the panes show the previous answer: the new one is on its way (the status bar says which)."""
        self.update(Text("Previous answer: the new one is on its way"))  # Esc cancels: the bar says so
        self.display = True

    def clear(self) -> None:
        """The answer came (or the request ended): the panes show what they say."""
        self.display = False
