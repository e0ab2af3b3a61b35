"""Help: every key of the screen and of the JSON pane, as remapped by the config file.

Each binding's id is what the [keys] table of the config file names, so it is always shown whole:
in a third column when the dialog is wide enough, else under the keys and what they do.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter


class KeyTable:
    """The keys, what they do and their ids: three columns if they fit whole, else two lines a key."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.columns()
        unbounded = options.update_width(10_000)  # the table's own width, not cut to the room there is
        if Measurement.get(console, unbounded, table).maximum <= options.max_width:
            yield table
        else:
            yield self.stacked()

    def columns(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="json-key", no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(style="dim", no_wrap=True)
        for keys, description, binding_id in self.rows:
            table.add_row(Text(keys), Text(description), Text(binding_id))
        return table

    def stacked(self) -> Text:
        """`keys  what they do`, and under it the id."""
        out = Text()
        for keys, description, binding_id in self.rows:
            out.append(keys, "json-key")
            out.append(f"  {description}\n")
            out.append(f"    {binding_id}\n", "dim")
        out.rstrip()
        return out


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = DIALOG_CSS.format(name="HelpScreen") + "HelpScreen > Vertical { width: 90%; }"
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, id="help.close_again"),
        Binding("q", "dismiss", "Close", show=False, id="help.close_q"),
    ]

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        """`rows`: (keys, what they do, id) of every binding, as remapped (keys.key_table)."""
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        rows = self.rows
        yield KeyFooter()
        with Vertical() as dialog:
            dialog.border_subtitle = "esc, q or ? closes"
            yield Static(Text("Keys (remap any by its id under [keys] in the config file)", style="bold"))
            with VerticalScroll():
                yield Static(KeyTable(rows))
            yield Static(Text(editor_keys(rows), style="dim"))
            yield Static(Text("Mouse: click nodes, tabs, rows and the error in the status bar.", style="dim"))


def editor_keys(rows: list[tuple[str, str, str]]) -> str:
    """What the request editor's keys are instead of Textual's: select all and $EDITOR, as remapped."""
    keys = {binding_id: shown for shown, _description, binding_id in rows}
    return (
        f"Request editor: {keys.get('editor.select_all', 'ctrl+a')} selects all, "
        f"{keys.get('editor.open_in_editor', 'ctrl+e')} opens $EDITOR (line start and end: home and end)."
    )
