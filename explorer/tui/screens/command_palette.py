"""Textual's command palette with the explorer's footer under it.

Without one, the footer under the palette was the screen's below it (`⌫ Back g Go to …`), and no
`esc`: under a dialog the footer names the dialog's own keys, and the palette is one.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.command import CommandPalette

from explorer.tui.widgets.key_footer import KeyFooter


class KeyedPalette(CommandPalette):
    """The command palette, its keys (`esc Exit the command palette`) in a footer of its own."""

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield KeyFooter()
