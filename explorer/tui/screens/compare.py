"""Two documents compared field by field (`=`): the resource marked with `m` (or a JSON file) and
the resource in view. Lists of entities are matched by `id` or `name`, not by position
(changes.py); what is seldom the point (links, timestamps) can be hidden with `n`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from explorer.api.changes import Change, Compared, noise
from explorer.tui.differences import change_line
from explorer.tui.safe_text import visible
from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter

MOST_SHOWN = 2000  # difference lines drawn; the rest are counted


class CompareScreen(ModalScreen[None]):
    """The differences from `before` to `after`; Esc closes."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="CompareScreen")
        + """
    CompareScreen > Vertical { max-width: 160; width: 95%; height: 90%; max-height: 90%; }
    CompareScreen VerticalScroll { height: 1fr; }
    CompareScreen #sides { color: $text-muted; }
    CompareScreen #beyond { color: $text-muted; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
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
        self.drawn: list[Content] = []  # the differences drawn, measured to tell which are out of view
        self.beyond_line = ""  # what the line under them says of those out of view

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            yield Label(Text("Compare", style="bold"))
            sides = Text(f"- {visible(self.before.label)}\n+ {visible(self.after.label)}")
            yield Static(sides, id="sides")
            yield Static(id="summary")
            with VerticalScroll():
                yield Static(id="differences")
            yield Static(id="beyond")  # n and Esc are in the footer: a hint line here said them twice

    def on_mount(self) -> None:
        self.draw()
        scroll = self.query_one(VerticalScroll)
        scroll.focus()
        self.watch(scroll, "scroll_y", self.say_beyond, init=False)
        # A new size, or a notice coming or going (which gives the differences fewer or more lines
        # with no resize): the counts are said again whenever the dialog is laid out anew.
        self.screen_layout_refresh_signal.subscribe(scroll, lambda _: self.say_beyond())

    def action_toggle_noise(self) -> None:
        self.hide_noise = not self.hide_noise
        self.draw()

    def listed_changes(self) -> tuple[list[Change], int]:
        """The differences drawn, and how many are hidden as noise."""
        if not self.hide_noise:
            return self.found, 0
        listed = [change for change in self.found if not noise(change)]
        return listed, len(self.found) - len(listed)

    def draw(self) -> None:
        listed, hidden = self.listed_changes()
        summary = "The same: no differences" if not listed else f"{len(listed):,} difference{'s' * (len(listed) != 1)}"
        if hidden:
            summary += f" ({hidden:,} in links and timestamps hidden: n shows them)"
        elif self.hide_noise is False and any(noise(change) for change in self.found):
            summary += " (n hides the ones in links and timestamps)"
        self.query_one("#summary", Static).update(Text(summary, style="bold"))
        lines = [change_line(change) for change in listed[:MOST_SHOWN]]
        self.drawn = [Content(line.plain) for line in lines]
        if len(listed) > MOST_SHOWN:
            lines.append(Text(f"… and {len(listed) - MOST_SHOWN:,} more", style="dim"))
        body = Text("\n").join(lines)
        body.no_wrap, body.overflow = False, "fold"  # a long change goes on over the next lines: old, → new
        self.query_one("#differences", Static).update(body)
        self.call_after_refresh(self.say_beyond)

    def say_beyond(self) -> None:
        """How many differences are out of view, above and below, and the key that shows them: the
        scrollbar alone, a thin bar at the edge, was missed, and with it what the dialog hid."""
        above, below = self.beyond()
        parts = [
            f"{count:,} more {where}"
            for count, where in ((below, "below (PageDown)"), (above, "above (PageUp)"))
            if count
        ]
        line = "… " + " · ".join(parts) if parts else ""
        if line != self.beyond_line:  # said only when it changes: saying it lays the dialog out again
            self.beyond_line = line
            self.query_one("#beyond", Static).update(Text(line))

    def beyond(self) -> tuple[int, int]:
        """How many differences begin above the view, and how many end below it. One long enough
        to begin above and end below is in view, and counted below only: the two never add up to
        more than there are."""
        scroll, differences = self.query_one(VerticalScroll), self.query_one("#differences", Static)
        width = differences.content_size.width
        if not width:
            return 0, 0
        rules = differences.styles.get_render_rules()  # how the Static wraps them: measured the same way
        heights = [line.get_height(rules, width) for line in self.drawn]
        ends = list(accumulate(heights))  # the row after each difference's last
        top = round(scroll.scroll_y)
        bottom = top + scroll.scrollable_content_region.height
        starts = [end - height for end, height in zip(ends, heights, strict=True)]
        above, below = bisect_left(starts, top), len(ends) - bisect_right(ends, bottom)
        return min(above, len(ends) - below), below
