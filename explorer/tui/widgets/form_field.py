"""A one-line field of a form (the login form's): typing adds to its text, and a paste of several
values is refused whole, so a secret meant for another field never shows in this one."""

from __future__ import annotations

import re

from textual import events
from textual.message import Message

from explorer.tui.widgets.ordered_input import OrderedInput


class FormField(OrderedInput):
    """An Input for a form a person fills field by field.

    Its keys are done in the order they come (OrderedInput): ctrl+u then a quick paste empties the
    field, then puts the paste in.

    Focus leaves the text as it is (no select-all on Tab, after which the first key typed would
    replace the whole value). A paste holding a tab or a line break (`id<TAB>secret`, two lines of a
    terminal) is several values: nothing of it is put in, since one of them may be a secret and this
    field may show what it holds; `Refused` tells the form, which says so in plain words. A paste
    of one value is trimmed: the line break a copied line ends with is not part of it.
    """

    DEFAULT_CSS = """
    FormField { background: $panel; }
    FormField:focus { background-tint: $primary 30%; }
    """

    class Refused(Message):
        """A paste of `parts` values was refused: the form says so (never what they were)."""

        def __init__(self, field: FormField, parts: int) -> None:
            super().__init__()
            self.field = field
            self.parts = parts

    def __init__(
        self, value: str = "", *, placeholder: str = "", password: bool = False, id: str | None = None
    ) -> None:
        super().__init__(value, placeholder=placeholder, password=password, compact=True, select_on_focus=False, id=id)

    def on_paste(self, event: events.Paste) -> None:
        """Take a paste of one value; refuse several."""
        event.prevent_default()  # Input's own paste keeps a tab, and the first line of several
        event.stop()
        values = [value.strip() for value in re.split(r"[\t\r\n]", event.text) if value.strip()]
        if len(values) > 1:
            self.post_message(self.Refused(self, len(values)))
        elif values:
            self.replace(values[0], *self.selection)
