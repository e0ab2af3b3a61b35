"""Help: every key of the screen and of the JSON pane, as remapped by the config file.

Each binding's id is what the [keys] table of the config file names, so it is always shown whole:
in a third column when the dialog is wide enough, else under the keys and what they do.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter

GAP = 2  # cells between the columns


class KeyTable:
    """The keys, what they do and their ids: three columns if they fit whole, else two lines a key.

    Both are made once, as text: a Rich Table measured every cell of its 80 rows each time the dialog
    was measured or drawn, a third of what `?` took to show (docs/performance.md)."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.rows = rows
        self.widths = [max((cell_len(row[column]) for row in rows), default=0) for column in range(3)]
        self.width = sum(self.widths) + 2 * GAP
        self.in_columns = self.columns()
        self.in_lines = self.stacked()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.in_columns if self.width <= options.max_width else self.in_lines

    def columns(self) -> Text:
        """A line a key: its keys, what they do and its id, each column as wide as its widest."""
        out = Text(no_wrap=True)
        for keys, description, binding_id in self.rows:
            out.append(padded(keys, self.widths[0]), "json-key")
            out.append(padded(description, self.widths[1]))
            out.append(f"{binding_id}\n", "dim")
        out.rstrip()
        return out

    def stacked(self) -> Text:
        """`keys  what they do`, and under it the id."""
        out = Text()
        for keys, description, binding_id in self.rows:
            out.append(keys, "json-key")
            out.append(f"  {description}\n")
            out.append(f"    {binding_id}\n", "dim")
        out.rstrip()
        return out


def padded(text: str, width: int) -> str:
    """`text` and spaces to `width` cells, then the gap between columns."""
    return text + " " * (width - cell_len(text) + GAP)


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
