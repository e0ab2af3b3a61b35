"""Lines with a cursor: what the items table and the JSON view share.

Both draw with Textual's Line API (only the lines on screen are made, each cached as a Strip) and
move one cursor through their lines with the same keys. The cursor and the stripes are drawn in
the theme's colours, through component classes, as Textual's own DataTable and OptionList do; the
cursor's colour is what says whether the view has the keys (the view is not tinted when focused,
which would make its stripes vanish):

    line-cursor--cursor          the cursor while the view has focus
    line-cursor--cursor-blurred  the cursor while it has not
    line-cursor--stripe          every other line, in a view that stripes its lines
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

NOT_DIM = Style(dim=False)  # the cursor's text is all in the cursor's colour, none of it faded


class LineCursorView(ScrollView, can_focus=True):
    """Lines drawn only when on screen, one of them under a cursor, every other one striped if asked.

    A subclass says how many lines there are (`line_count`) and draws one (`render_body_line`); it
    may keep lines above them that do not scroll away (`HEADER_LINES`, or `header_lines` where their
    number changes; `render_header_line`).
    Lines are cached as Strips until the subclass clears `cache` (new content, a new width) or the
    theme changes; the stripe and the cursor are laid on each time a line is drawn. The keys call
    `cursor(step)`, `page(direction)` and `edge(direction)` (explorer.tui.keys.moving).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "line-cursor--cursor",
        "line-cursor--cursor-blurred",
        "line-cursor--stripe",
    }
    DEFAULT_CSS = """
    LineCursorView {
        height: 1fr;
        background: $surface;
        color: $line-foreground;
        & > .line-cursor--stripe {
            background: $line-stripe;
        }
        & > .line-cursor--cursor {
            background: $block-cursor-background;
            color: $line-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .line-cursor--cursor-blurred {
            background: $block-cursor-blurred-background;
            color: $line-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:ansi > .line-cursor--cursor-blurred {
            text-style: underline;  /* the terminal's default colours there: the line would not show */
        }
    }
    """
    HEADER_LINES: ClassVar[int] = 0
    STRIPED: ClassVar[bool] = False

    cursor = reactive(0, always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cache: dict[int, Strip] = {}  # line number: the line as drawn, without stripe or cursor

    # What a subclass provides -------------------------------------------------------------------

    @property
    def line_count(self) -> int:
        """How many lines the cursor moves through."""
        raise NotImplementedError

    def render_body_line(self, line: int) -> Strip:
        """One line, whole (the view crops it to the scroll position)."""
        raise NotImplementedError

    def render_header_line(self, y: int) -> Strip:
        """One of the lines kept above the others."""
        return Strip([])

    @property
    def header_lines(self) -> int:
        """How many lines are kept above the others now: HEADER_LINES."""
        return self.HEADER_LINES

    def line_clicked(self, line: int) -> None:
        """A click on a line: the cursor goes there."""
        self.move(line)

    # Drawing -------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width or self.size.width
        base = self.rich_style
        if y < self.header_lines:
            return self.render_header_line(y).crop_extend(scroll_x, scroll_x + width, base).apply_style(base)
        line = scroll_y + y - self.header_lines
        if line >= self.line_count:
            return Strip.blank(width, base)
        strip = self.cache.get(line)
        if strip is None:
            strip = self.cache[line] = self.render_body_line(line)
        style = base
        if self.STRIPED and line % 2:
            style = base + self.get_component_rich_style("line-cursor--stripe")
        strip = strip.crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
        if line == self.cursor:
            cursor = self.get_component_rich_style(
                "line-cursor--cursor" if self.has_focus else "line-cursor--cursor-blurred"
            )
            strip = Strip(Segment.apply_style(strip, post_style=cursor + NOT_DIM), strip.cell_length)
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.cache.clear()  # a new theme: the lines made so far have the old colours

    def on_focus(self) -> None:
        self.refresh()  # the cursor's colours say whether the keys come here

    def on_blur(self) -> None:
        self.refresh()

    # Moving --------------------------------------------------------------------------------------

    @property
    def page_height(self) -> int:
        """How many of the lines fit on screen below the header."""
        return max(1, (self.scrollable_content_region.height or self.size.height) - self.header_lines)

    def move(self, line: int) -> None:
        """Put the cursor on this line, or the nearest there is."""
        if self.line_count:
            self.cursor = max(0, min(self.line_count - 1, line))

    def watch_cursor(self, old: int, new: int) -> None:
        top, rows = self.scroll_offset.y, self.page_height
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + rows:
            self.scroll_to(y=new - rows + 1, animate=False)
        self.refresh()

    def action_cursor(self, step: int) -> None:
        self.move(self.cursor + step)

    def action_page(self, direction: int) -> None:
        """A screenful on: the view scrolls a page and the cursor keeps its place on screen."""
        step = direction * self.page_height
        self.scroll_to(y=self.scroll_offset.y + step, animate=False)
        self.move(self.cursor + step)

    def action_edge(self, direction: int) -> None:
        self.move(0 if direction < 0 else self.line_count - 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < self.header_lines:
            return
        line = self.scroll_offset.y + offset.y - self.header_lines
        if 0 <= line < self.line_count:
            self.line_clicked(line)
