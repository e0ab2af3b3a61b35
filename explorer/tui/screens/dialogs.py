"""Small modal screens: go to a path or URL, save a body, read a whole error document."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from explorer.api.errors import ApiError
from explorer.tui.safe import lines

DIALOG_CSS = """
{name} {{
    align: center middle;
    background: $background 60%;
}}
{name} > Vertical {{
    width: 80%;
    max-width: 110;
    height: auto;
    max-height: 80%;
    border: thick $primary;
    background: $surface;
    padding: 1 2;
}}
{name} Label {{
    margin-bottom: 1;
}}
"""


class AskScreen(ModalScreen[str | None]):
    """One line of input: Enter gives it back, Esc gives None."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AskScreen")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def __init__(self, question: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.question))
            yield Input(value=self.value, placeholder=self.placeholder)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)


class ErrorScreen(ModalScreen[None]):
    """The whole error document, its fields one a line, the hint, and the body as received."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ErrorScreen")
        + """
    ErrorScreen VerticalScroll { height: auto; max-height: 100%; }
    ErrorScreen #fields { color: $text-error; }
    ErrorScreen #body { color: $text-muted; margin-top: 1; }
    """
    )
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="dialog.close"),
        Binding("q", "dismiss", "Close", show=False, id="dialog.close_q"),
    ]

    def __init__(self, error: ApiError) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical() as dialog, VerticalScroll():
            dialog.border_subtitle = "esc or q closes"
            yield Static(Text("\n".join(lines(self.error.full()))), id="fields")
            if self.error.body:
                body = self.error.body.decode("utf-8", "replace")
                yield Static(Text("\n".join(lines(body))), id="body")
