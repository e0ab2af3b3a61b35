"""The columns dialog (`t` in a table): which columns a kind of list shows, and in what order."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList

from explorer.tui.safe_text import visible
from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter

Columns = list[tuple[str, bool]]  # (column, shown), in order


class ColumnsScreen(ModalScreen[Columns | None]):
    """The columns, one a line, ticked where shown: `space` (or a click) ticks one, shift+up and
    shift+down move it, `d` puts back the order they came in, Enter keeps it, Esc changes nothing."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ColumnsScreen")
        + """
    ColumnsScreen > Vertical { height: 80%; }
    ColumnsScreen OptionList { height: 1fr; }
    ColumnsScreen #how { color: $text-muted; }
    """
    )
    BINDINGS = [
        Binding("enter", "keep", "OK", priority=True, id="columns.keep"),
        Binding("space", "tick", "Show/hide", id="columns.tick"),
        Binding("shift+up", "move(-1)", "Move up", id="columns.up"),
        Binding("shift+down", "move(1)", "Move down", id="columns.down"),
        Binding("d", "default", "Default order", show=False, id="columns.default"),
        Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel"),
    ]

    def __init__(self, columns: Columns, default: list[str], kind: str) -> None:
        """`columns`: as drawn now; `default`: the order they come in unasked; `kind`: the kind of list."""
        super().__init__()
        self.columns = list(columns)
        self.default = default
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            whose = f"{visible(self.kind)} lists" if self.kind else "this list"
            yield Label(Text(f"The columns of {whose}, in order (kept until the explorer ends):"))
            how = "space shows or hides a column · shift+↑ shift+↓ move it · d: the default order · Enter keeps"
            yield Label(Text(how), id="how")
            yield OptionList(*(prompt(column, shown) for column, shown in self.columns))

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    @property
    def at(self) -> int:
        return self.query_one(OptionList).highlighted or 0

    def redraw(self, highlighted: int) -> None:
        listed = self.query_one(OptionList)
        for index, (column, shown) in enumerate(self.columns):
            listed.replace_option_prompt_at_index(index, prompt(column, shown))
        listed.highlighted = highlighted

    def action_tick(self) -> None:
        column, shown = self.columns[self.at]
        if shown and sum(on for _, on in self.columns) == 1:
            self.notify("One column at least stays shown.", severity="warning", markup=False)
            return
        self.columns[self.at] = (column, not shown)
        self.redraw(self.at)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on a column ticks it (Enter is the dialog's: keep)."""
        self.action_tick()

    def action_move(self, step: int) -> None:
        at, to = self.at, self.at + step
        if 0 <= to < len(self.columns):
            self.columns[at], self.columns[to] = self.columns[to], self.columns[at]
            self.redraw(to)

    def action_default(self) -> None:
        self.columns = [(column, True) for column in self.default]
        self.redraw(0)

    def action_keep(self) -> None:
        self.dismiss(self.columns)


def prompt(column: str, shown: bool) -> Text:
    """A column's line: `[✓] stateName`, or `[ ] groupId` where it is hidden."""
    return Text.assemble("[✓] " if shown else "[ ] ", visible(column))
