"""The list a dialog offers to choose from, its Enter named in the footer (`⏎ Edit`)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import OptionList


class ChoiceList(OptionList):
    """An OptionList whose Enter the footer shows: Textual binds it but does not show it, and the
    footer shows the focused widget's binding of a key over the screen's."""

    BINDINGS = [Binding("enter", "select", "Edit", id="act.choose")]
