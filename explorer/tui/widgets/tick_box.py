"""A tick box that looks ticked or empty, `[✓]` or `[ ]`, in every theme and on every terminal."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox


class TickBox(Checkbox):
    """A Checkbox whose tick is drawn only when it is ticked.

    Textual's Checkbox draws its `X` ticked or not and tells the two apart by colour alone (dark on
    dark when unticked), which reads as ticked; this one draws the empty box empty.
    """

    DEFAULT_CSS = """
    TickBox > .toggle--button, TickBox.-on > .toggle--button {
        color: $foreground;
        background: transparent;
        text-style: bold;
    }
    """

    def render(self) -> Content:
        box = Content.styled("[✓]" if self.value else "[ ]", self.get_visual_style("toggle--button"))
        label = self.label.pad(1, 1).stylize_before(self.get_visual_style("toggle--label"))
        return Content.assemble(box, label)
