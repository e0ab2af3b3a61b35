"""Textual's command palette with the explorer's footer under it.

Without one, the footer under the palette was the screen's below it (`⌫ Back g Go to …`), and no
`esc`: under a dialog the footer names the dialog's own keys, and the palette is one.
"""

from __future__ import annotations

import time

from textual import events, on
from textual.app import ComposeResult
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from explorer.tui.widgets.key_footer import KeyFooter

CLOSING = 1.0  # seconds keys wait for a palette to close once a command is chosen, at most


class KeyedPalette(CommandPalette):
    """The command palette, its keys (`esc Exit the command palette`) in a footer of its own."""

    chosen_at: float | None = None  # when an Enter chose a command: the palette closes, and runs it, in a few steps

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield KeyFooter()

    @on(Input.Submitted)
    def chose(self) -> None:
        """Note when this Enter runs a command (Textual's own handler does that): one is highlighted,
        or the only match is."""
        commands = self.query_one(CommandList)
        at = commands.highlighted if commands.highlighted is not None or commands.option_count != 1 else 0
        if at is not None and not commands.get_option_at_index(at).disabled:  # not "No matches found"
            self.chosen_at = time.monotonic()

    def holds(self, event: events.Key | events.Paste) -> bool:
        """Whether a key typed now waits (the app's key line): any key once a command is chosen, until
        the palette has closed, up to CLOSING (`ctrl+p`, `Go to`, Enter, `/orgs` typed in one breath
        put the path into the palette); a key other than text while the matches to what was typed
        are being gathered (an Enter before them only highlights the first)."""
        if self.chosen_at is not None and time.monotonic() - self.chosen_at < CLOSING:
            return True
        typed = isinstance(event, events.Paste) or event.is_printable
        return not typed and any(worker.node is self and not worker.is_finished for worker in self.app.workers)
