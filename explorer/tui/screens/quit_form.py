"""Quit, losing what is typed in the login form? The question Esc asks there once something is typed."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter


class QuitScreen(ModalScreen[bool]):
    """Enter quits; Esc goes back to the form as it was, so Esc pressed once too often never loses
    what is typed (a secret too)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="QuitScreen")
    BINDINGS = [
        Binding("enter", "dismiss(True)", "Quit", priority=True, id="dialog.quit"),
        Binding("escape", "dismiss(False)", "Back to the form", id="dialog.stay"),
    ]

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            yield Label(Text("Quit, and lose what is typed in the form?"))
