"""Help: every key of the screen and of the JSON pane, as remapped by the config file."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from explorer.tui.keys import key_table
from explorer.tui.screens.dialogs import DIALOG_CSS


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = DIALOG_CSS.format(name="HelpScreen")
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, id="help.close_again"),
    ]

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="json-key", no_wrap=True)
        table.add_column()
        table.add_column(style="dim")
        for keys, description, binding_id in key_table(getattr(self.app, "keymap", {})):
            table.add_row(Text(keys), Text(description), Text(binding_id))
        with Vertical():
            yield Static(Text("Keys (remap any by its id under [keys] in the config file)", style="bold"))
            with VerticalScroll():
                yield Static(table)
            yield Static(Text("Mouse: click nodes, tabs, rows and the error in the status bar.", style="dim"))
