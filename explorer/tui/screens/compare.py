"""Two documents compared field by field (`=`): the resource marked with `m` (or a JSON file) and
the resource in view. Lists of entities are matched by `id` or `name`, not by position
(changes.py); what is seldom the point (links, timestamps) can be hidden with `n`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from explorer.api.changes import Change, noise
from explorer.tui.differences import change_line
from explorer.tui.safe import visible
from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter

MOST_SHOWN = 2000  # difference lines drawn; the rest are counted


@dataclass(frozen=True)
class Compared:
    """One side: what it is (`reporting · marked 12:00:05`, `file a.json`) and its document."""

    said: str
    document: Any


class CompareScreen(ModalScreen[None]):
    """The differences from `before` to `after`; Esc closes."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="CompareScreen")
        + """
    CompareScreen > Vertical { max-width: 160; width: 95%; height: 90%; max-height: 90%; }
    CompareScreen VerticalScroll { height: 1fr; }
    CompareScreen #sides { color: $text-muted; }
    """
    )
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close the comparison", id="compare.close"),
        Binding("n", "toggle_noise", "Compare: hide/show links, times", id="compare.noise"),
    ]

    def __init__(self, before: Compared, after: Compared, found: list[Change]) -> None:
        """`found`: changes(before, after), worked out off the screen's thread (two big lists take time)."""
        super().__init__()
        self.before = before
        self.after = after
        self.found = found
        self.hide_noise = False

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            yield Label(Text("Compare", style="bold"))
            sides = Text(f"- {visible(self.before.said)}\n+ {visible(self.after.said)}")
            yield Static(sides, id="sides")
            yield Static(id="summary")
            with VerticalScroll():
                yield Static(id="differences")
            yield Label(Text("n hides or shows differences in links and timestamps · Esc closes", style="dim"))

    def on_mount(self) -> None:
        self.draw()
        self.query_one(VerticalScroll).focus()

    def action_toggle_noise(self) -> None:
        self.hide_noise = not self.hide_noise
        self.draw()

    def shown(self) -> tuple[list[Change], int]:
        """The differences drawn, and how many are hidden as noise."""
        if not self.hide_noise:
            return self.found, 0
        kept = [change for change in self.found if not noise(change)]
        return kept, len(self.found) - len(kept)

    def draw(self) -> None:
        kept, hidden = self.shown()
        said = "The same: no differences" if not kept else f"{len(kept):,} difference{'s' * (len(kept) != 1)}"
        if hidden:
            said += f" ({hidden:,} in links and timestamps hidden: n shows them)"
        elif self.hide_noise is False and any(noise(change) for change in self.found):
            said += " (n hides the ones in links and timestamps)"
        self.query_one("#summary", Static).update(Text(said, style="bold"))
        lines = [change_line(change) for change in kept[:MOST_SHOWN]]
        if len(kept) > MOST_SHOWN:
            lines.append(Text(f"… and {len(kept) - MOST_SHOWN:,} more", style="dim"))
        shown = Text("\n").join(lines)
        shown.no_wrap, shown.overflow = False, "fold"  # a long change goes on over the next lines: old, → new
        self.query_one("#differences", Static).update(shown)
