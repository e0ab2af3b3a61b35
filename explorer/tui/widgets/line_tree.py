"""A tree on Textual's line API whose lines cost nothing until they are drawn.

Textual's own `Tree` lays out the screen and clears every line it has drawn for each node added,
and makes each node's label as it is added: a page of 500 list items, turned, was 500 layouts
asked for and 500 labels made, of which the screen shows 30. Here a line is a small object; adding
lines marks the tree changed once, the rows are worked out when next drawn, and a line's label is
made (`label_of`) only when it is drawn or read.

It draws as Textual's `Tree` does (the same guides, icons, component classes and CSS, so themes
and screenshots are unchanged), and offers the part of its interface the explorer uses: `root`,
`cursor_node`, `cursor_line`, `move_cursor`, `get_node_at_line`, `last_line`, the same keys, and
the messages `NodeSelected`, `NodeExpanded`, `NodeCollapsed` and `NodeHighlighted`
(tests/tui/test_line_tree.py holds the drawing and the keys to Textual's, side by side).

Longer than most modules here, on purpose: the lines, the rows they are drawn on, the drawing and
the keys are one widget's; split, each part would read and change the others' state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, clamp
from textual.message import Message
from textual.reactive import reactive, var
from textual.scroll_view import ScrollView
from textual.strip import Strip

DataType = TypeVar("DataType")
EventDataType = TypeVar("EventDataType")  # a message's: Textual's Tree's messages are typed so too

TOGGLE_STYLE = Style.from_meta({"toggle": True})
GUIDES = {  # space, vertical, terminator, cross: Textual's Tree's LINES
    "default": ("  ", "│ ", "└─", "├─"),
    "bold": ("  ", "┃ ", "┗━", "┣━"),
    "double": ("  ", "║ ", "╚═", "╠═"),
}


class TreeLine(Generic[DataType]):
    """A node of the tree: its data, its children, whether it is unfolded; drawn on a line when every
    line above it is unfolded. Its label is made when first needed and kept until `relabel`."""

    def __init__(
        self,
        tree: LineTree[DataType],
        parent: TreeLine[DataType] | None,
        data: DataType | None,
        label: Text | None = None,
        expanded: bool = False,
        allow_expand: bool = True,
    ) -> None:
        self.tree = tree
        self.parent = parent
        self.data = data
        self.cached_label = label
        self.expanded = expanded
        self.expandable = allow_expand
        self.lines: list[TreeLine[DataType]] = []
        self.row = -1  # where it was drawn, in the tree's rows of `drawn_at`
        self.drawn_at = -1  # the tree's `shape` when `row` was worked out

    @property
    def children(self) -> Sequence[TreeLine[DataType]]:
        return self.lines

    @property
    def line(self) -> int:
        """The row it is drawn on, or -1 while a line above it is folded."""
        self.tree.rows()
        return self.row if self.drawn_at == self.tree.shape else -1

    @property
    def depth(self) -> int:
        """How many lines it is below the root: its guides are this many `guide_depth`s wide."""
        depth, parent = 0, self.parent
        while parent is not None:
            depth, parent = depth + 1, parent.parent
        return depth

    @property
    def is_expanded(self) -> bool:
        return self.expanded

    @property
    def is_last(self) -> bool:
        return self.parent is None or self.parent.lines[-1] is self

    @property
    def allow_expand(self) -> bool:
        return self.expandable

    @allow_expand.setter
    def allow_expand(self, allow: bool) -> None:
        self.expandable = allow
        self.tree.redraw_row(self)

    @property
    def label(self) -> Text:
        if self.cached_label is None:
            self.cached_label = self.tree.label_of(self)
        return self.cached_label

    def set_label(self, label: Text) -> None:
        self.cached_label = label
        self.tree.redraw_row(self)

    def relabel(self) -> None:
        """What the label says may have changed: a label made before is made again, and its row drawn
        again if it differs (a line never drawn makes its label when it is)."""
        if self.cached_label is None:
            return
        label, old = self.tree.label_of(self), self.cached_label
        # Rich's Text == compares the text and its spans, not the Text's own style: that is compared too.
        if label != old or label.style != old.style:
            self.set_label(label)

    def add(
        self,
        label: Text | None = None,
        data: DataType | None = None,
        *,
        before: int | None = None,
        expand: bool = False,
        allow_expand: bool = True,
    ) -> TreeLine[DataType]:
        """A new line below this one, last or before its `before`-th; its label, when None, is made
        by the tree's `label_of` when first drawn."""
        line = TreeLine(self.tree, self, data, label, expand, allow_expand)
        self.lines.insert(len(self.lines) if before is None else before, line)
        self.tree.reshape()
        return line

    def remove(self) -> None:
        if self.parent is not None:
            self.parent.lines.remove(self)
            self.tree.reshape()

    def remove_children(self) -> None:
        self.lines.clear()
        self.tree.reshape()

    def expand(self) -> TreeLine[DataType]:
        self.expanded = True
        self.tree.post_message(LineTree.NodeExpanded(self))
        self.tree.reshape()
        return self

    def collapse(self) -> TreeLine[DataType]:
        self.expanded = False
        self.tree.post_message(LineTree.NodeCollapsed(self))
        self.tree.reshape()
        return self

    def toggle(self) -> TreeLine[DataType]:
        return self.collapse() if self.expanded else self.expand()


class NodeMessage(Message, Generic[EventDataType]):
    """What happened to a line of a `LineTree`: `node` is the line, `control` the tree."""

    def __init__(self, node: TreeLine[EventDataType]) -> None:
        self.node = node
        super().__init__()

    @property
    def control(self) -> LineTree[EventDataType]:
        return self.node.tree


class LineTree(ScrollView, Generic[DataType], can_focus=True):
    """A tree drawn a line at a time (see the module): only the lines on screen are worked out."""

    ICON_NODE = "▶ "
    ICON_NODE_EXPANDED = "▼ "

    BINDINGS: ClassVar[list[BindingType]] = [  # Textual's Tree's
        Binding("shift+left", "cursor_parent", "Cursor to parent", show=False),
        Binding("shift+right", "cursor_parent_next_sibling", "Cursor to next ancestor", show=False),
        Binding("shift+up", "cursor_previous_sibling", "Cursor to previous sibling", show=False),
        Binding("shift+down", "cursor_next_sibling", "Cursor to next sibling", show=False),
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("space", "toggle_node", "Toggle", show=False),
        Binding("shift+space", "toggle_expand_all", "Expand or collapse all", show=False),
        Binding("up", "cursor_up", "Cursor Up", show=False),
        Binding("down", "cursor_down", "Cursor Down", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "tree--cursor",
        "tree--guides",
        "tree--guides-hover",
        "tree--guides-selected",
        "tree--highlight",
        "tree--highlight-line",
        "tree--label",
    }

    DEFAULT_CSS = """
    LineTree {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;  /* a line is cut at the tree's edge; its label is not measured to scroll to */

        & > .tree--label {}
        & > .tree--guides { color: $surface-lighten-2; }
        & > .tree--guides-hover { color: $surface-lighten-2; }
        & > .tree--guides-selected { color: $block-cursor-blurred-background; }
        & > .tree--cursor {
            text-style: $block-cursor-blurred-text-style;
            background: $block-cursor-blurred-background;
        }
        & > .tree--highlight {}
        & > .tree--highlight-line { background: $block-hover-background; }

        &:focus {
            background-tint: $foreground 5%;
            & > .tree--cursor {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
            & > .tree--guides { color: $surface-lighten-3; }
            & > .tree--guides-hover { color: $surface-lighten-3; }
            & > .tree--guides-selected { color: $block-cursor-background; }
        }

        &:light {
            & > .tree--guides { color: $surface-darken-1; }
            & > .tree--guides-hover { color: $block-cursor-background; }
            & > .tree--guides-selected { color: $block-cursor-background; }
        }
    }
    LineTree:ansi {
        color: ansi_default;
        & > .tree--guides { color: $ansi-background; }
        &:nocolor > .tree--cursor { text-style: reverse; }
    }
    """

    class NodeSelected(NodeMessage[EventDataType]):
        """A line was chosen: Enter, or a click on its label."""

    class NodeExpanded(NodeMessage[EventDataType]):
        """A line was unfolded."""

    class NodeCollapsed(NodeMessage[EventDataType]):
        """A line was folded."""

    class NodeHighlighted(NodeMessage[EventDataType]):
        """The cursor came to a line."""

    hover_line = var(-1)
    cursor_line = var(-1, always_update=True)
    guide_depth = reactive(4, init=False)
    auto_expand = var(True)

    def __init__(self, label: Text, data: DataType | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.root: TreeLine[DataType] = TreeLine(self, None, data, label)  # folded, as Textual's starts
        self.shape = 0  # counts changes of which lines are drawn where
        self.cached_rows: list[TreeLine[DataType]] | None = None  # the rows, when worked out for this shape
        self.cursor: TreeLine[DataType] | None = None
        self.strips: dict[int, tuple[tuple[object, ...], Strip]] = {}  # row -> (what it was drawn from, strip)

    def on_mount(self) -> None:
        self.cursor_line = 0  # on the root, as Textual's Tree starts

    def label_of(self, line: TreeLine[DataType]) -> Text:
        """A line's label, made when it is first drawn or read: a subclass says it from the data."""
        return Text()

    # The rows -----------------------------------------------------------------------------------

    def clear(self) -> None:
        """Take every line but the root away."""
        self.root.lines.clear()
        self.reshape()

    def reshape(self) -> None:
        """Lines were added, taken away, folded or unfolded: the rows are worked out when next needed."""
        if self.cached_rows is not None:  # the first change since they were: 500 lines added are one refresh
            self.shape += 1
            self.cached_rows = None
            self.strips.clear()
            self.refresh()

    def rows(self) -> list[TreeLine[DataType]]:
        """The lines drawn, top to bottom."""
        if self.cached_rows is None:
            shape, rows = self.shape, list[TreeLine[DataType]]()

            def walk(line: TreeLine[DataType]) -> None:
                line.row, line.drawn_at = len(rows), shape
                rows.append(line)
                if line.expanded:
                    for child in line.lines:
                        walk(child)

            walk(self.root)
            self.cached_rows = rows
            self.virtual_size = Size(0, len(rows))  # as wide as the tree: a line too long is cut
            if self.cursor is not None:  # the cursor follows its line; a line gone leaves it on its row
                at = self.cursor.row if self.cursor.drawn_at == shape else min(self.cursor_line, len(rows) - 1)
                self.set_reactive(LineTree.cursor_line, at)
                self.cursor = rows[at] if at >= 0 else None
        return self.cached_rows

    @property
    def last_line(self) -> int:
        return len(self.rows()) - 1

    @property
    def cursor_node(self) -> TreeLine[DataType] | None:
        return self.cursor

    def get_node_at_line(self, line_no: int) -> TreeLine[DataType] | None:
        rows = self.rows()
        return rows[line_no] if 0 <= line_no < len(rows) else None

    def get_label_width(self, line: TreeLine[DataType]) -> int:
        """A line's label and its fold icon, in cells."""
        icon = self.ICON_NODE_EXPANDED if line.expanded else self.ICON_NODE
        return line.label.cell_len + (len(icon) if line.expandable else 0)

    def redraw_row(self, line: TreeLine[DataType]) -> None:
        """Draw a line's own row again: its label or its icon changed."""
        if self.cached_rows is not None and line.drawn_at == self.shape:
            self.redraw_rows(line.row, line.row + 1)

    def redraw_line(self, line: TreeLine[DataType]) -> None:
        """Draw a line again (the cursor or the mouse came or went), and the lines on screen below
        it in the tree: their guides follow the cursor and the mouse."""
        if self.cached_rows is None or line.drawn_at != self.shape:
            return  # the rows are worked out and drawn anew anyway
        end, last = line.row + 1, min(len(self.cached_rows), self.scroll_offset.y + self.size.height)
        while end < last and self.within(self.cached_rows[end], line):
            end += 1
        self.redraw_rows(line.row, end)

    def redraw_rows(self, first: int, end: int) -> None:
        """Forget the drawing of rows `first` to `end` (not included), and draw them again."""
        for row in range(first, end):
            self.strips.pop(row, None)
        self.refresh(Region(0, first - self.scroll_offset.y, self.size.width, end - first))

    # Drawing ------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        row = y + self.scroll_offset.y
        rows = self.rows()
        if row >= len(rows):
            return Strip.blank(width, self.rich_style)
        line = rows[row]
        hover = self.get_node_at_line(self.hover_line)
        focus = self.has_focus
        key: tuple[object, ...] = (
            line,
            width,
            self.guide_depth,
            focus,
            row == self.cursor_line,
            row == self.hover_line,
        )
        key += (hover is not None and self.within(line, hover), focus and self.within(line, self.cursor))
        cached = self.strips.get(row)
        if cached is not None and cached[0] == key:
            return cached[1]
        strip = self.draw(row, line, hover, focus).crop(0, width)
        self.strips[row] = (key, strip)
        return strip

    @staticmethod
    def within(line: TreeLine[DataType], above: TreeLine[DataType] | None) -> bool:
        """Whether `line` is `above` or a line below it."""
        while line is not None and above is not None:
            if line is above:
                return True
            line = line.parent  # type: ignore[assignment]
        return False

    def draw(self, row: int, line: TreeLine[DataType], hover: TreeLine[DataType] | None, focus: bool) -> Strip:
        """A row as Textual's Tree draws it: guides in their styles (hovered, under the cursor), the
        fold icon, the label in its own."""
        base_hidden = self.get_component_styles("tree--guides").color.a == 0
        hover_hidden = self.get_component_styles("tree--guides-hover").color.a == 0
        selected_hidden = self.get_component_styles("tree--guides-selected").color.a == 0
        base_guide_style = self.get_component_rich_style("tree--guides", partial=True)
        guide_hover_style = base_guide_style + self.get_component_rich_style("tree--guides-hover", partial=True)
        guide_selected_style = base_guide_style + self.get_component_rich_style("tree--guides-selected", partial=True)
        path = [line]
        while path[-1].parent is not None:
            path.append(path[-1].parent)
        path.reverse()
        is_hover = hover is not None and hover in path
        line_style = self.get_component_rich_style("tree--highlight-line") if is_hover else self.rich_style
        line_style += Style(meta={"line": row})
        guides = Text(style=line_style)
        guide_style, hidden = base_guide_style, True
        hovered = path[0] is hover
        selected = path[0] is self.cursor and focus
        for node in path[1:]:
            hidden = base_hidden
            if hovered:
                guide_style, hidden = guide_hover_style, hover_hidden
            if selected:
                guide_style, hidden = guide_selected_style, selected_hidden
            if node is not line:
                space, vertical, _, _ = self.guides(guide_style, hidden)
                guides.append(space if node.is_last else vertical, style=guide_style)
            hovered = hovered or node is hover
            selected = (selected or node is self.cursor) and focus
        if len(path) > 1:
            _, _, terminator, cross = self.guides(guide_style, hidden)
            guides.append(terminator if line.is_last else cross, style=guide_style)
        label_style = self.get_component_rich_style("tree--label", partial=True)
        if self.hover_line == row:
            label_style += self.get_component_rich_style("tree--highlight", partial=True)
        if self.cursor_line == row:
            label_style += self.get_component_rich_style("tree--cursor", partial=False)
        label = line.label.copy()
        label.stylize(label_style)
        if line.expandable:
            icon = (self.ICON_NODE_EXPANDED if line.expanded else self.ICON_NODE, line_style + TOGGLE_STYLE)
        else:
            icon = ("", line_style)
        guides.append_text(Text.assemble(icon, label))
        segments = list(guides.render(self.app.console))
        pad = max(self.size.width - guides.cell_len, 0)
        return Strip(segments).extend_cell_length(guides.cell_len + pad, line_style)

    def guides(self, style: Style, hidden: bool) -> tuple[str, str, str, str]:
        """The space, vertical, terminator and cross guides, `guide_depth` wide, in `style`'s kind."""
        kind = "default"
        if hidden:
            blank = " " * self.guide_depth
            return blank, blank, blank, blank
        if style.bold:
            kind = "bold"
        elif style.underline2:
            kind = "double"
        depth = max(0, self.guide_depth - 2)
        space, vertical, terminator, cross = (f"{chars[0]}{chars[1] * depth} " for chars in GUIDES[kind])
        return space, vertical, terminator, cross

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.strips.clear()
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        """A shorter tree keeps its cursor's line in sight (Textual's left it below the edge). The
        rows kept drawn need no forgetting: each was kept with the width it was drawn at."""
        if self.cursor_line >= 0:
            self.call_after_refresh(self.scroll_to_line, self.cursor_line, False)

    def on_idle(self, event: events.Idle) -> None:
        """Work the rows out before the next frame asks for them: the virtual size they set is laid
        out, not found in the middle of drawing."""
        self.rows()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """Put the scrollbar's thumb where the tree is scrolled to as the bar appears: Textual moves
        the thumb only on a scroll made while the bar is shown, and a page turn can scroll the new
        lines into view before the layout has shown the bar (the thumb stayed at the top)."""
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    def validate_guide_depth(self, value: int) -> int:
        return clamp(value, 2, 10)

    def watch_guide_depth(self) -> None:
        self.refresh()  # each row kept drawn was kept with the guide depth it was drawn at

    # The cursor ---------------------------------------------------------------------------------

    def validate_cursor_line(self, value: int) -> int:
        return clamp(value, 0, len(self.rows()) - 1)

    def watch_cursor_line(self, previous: int, line: int) -> None:
        before, self.cursor = self.cursor, self.get_node_at_line(line)
        if previous == line and before is self.cursor:
            return
        for node in (before, self.cursor):
            if node is not None:
                self.redraw_line(node)
        if self.cursor is not None and self.cursor is not before:
            self.post_message(self.NodeHighlighted(self.cursor))

    def watch_hover_line(self, previous: int, line: int) -> None:
        for row in (previous, line):
            node = self.get_node_at_line(row)
            if node is not None:
                self.redraw_line(node)

    def move_cursor(self, node: TreeLine[DataType] | None, animate: bool = False) -> None:
        """Put the cursor on a line (None: nowhere), scrolling it into view."""
        previous = self.cursor_line
        self.cursor_line = -1 if node is None else node.line
        if node is not None and self.cursor is not None:
            self.scroll_to_line(self.cursor_line, animate=animate and abs(self.cursor_line - previous) > 1)

    def select_node(self, node: TreeLine[DataType] | None) -> None:
        self.move_cursor(node)
        if node is not None:
            self.post_message(self.NodeSelected(node))

    def scroll_to_line(self, line: int, animate: bool = True) -> None:
        node = self.get_node_at_line(line)
        if node is None:
            return
        indent = node.depth * self.guide_depth
        region = Region(indent, line, max(1, self.size.width - indent), 1)
        self.scroll_to_region(region, animate=animate, force=True, origin_visible=False, x_axis=False)

    def scroll_to_node(self, node: TreeLine[DataType], animate: bool = True) -> None:
        if node.line != -1:
            self.scroll_to_line(node.line, animate=animate)

    # Keys and the mouse -------------------------------------------------------------------------

    def on_line_tree_node_selected(self, event: LineTree.NodeSelected[DataType]) -> None:
        """A line chosen is unfolded or folded, as Textual's Tree does with `auto_expand`."""
        if self.auto_expand and event.node.tree is self:
            self.toggle(event.node)

    @staticmethod
    def toggle(node: TreeLine[DataType]) -> None:
        if node.expandable:
            node.toggle()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        meta = event.style.meta
        self.hover_line = meta["line"] if meta and "line" in meta else -1

    def on_leave(self, _: events.Leave) -> None:
        self.hover_line = -1

    async def on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        if "line" not in meta:
            return
        if meta.get("toggle", False):
            node = self.get_node_at_line(meta["line"])
            if node is not None:
                self.toggle(node)
        else:
            self.cursor_line = meta["line"]
            await self.run_action("select_cursor")

    def action_cursor_up(self) -> None:
        self.cursor_line = self.last_line if self.cursor_line == -1 else self.cursor_line - 1
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_cursor_down(self) -> None:
        self.cursor_line = 0 if self.cursor_line == -1 else self.cursor_line + 1
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_page_down(self) -> None:
        if self.cursor_line == -1:
            self.cursor_line = 0
        self.cursor_line += self.scrollable_content_region.height - 1
        self.scroll_to_line(self.cursor_line)

    def action_page_up(self) -> None:
        if self.cursor_line == -1:
            self.cursor_line = self.last_line
        self.cursor_line -= self.scrollable_content_region.height - 1
        self.scroll_to_line(self.cursor_line)

    def action_scroll_home(self) -> None:
        self.cursor_line = 0
        self.scroll_to_line(self.cursor_line)

    def action_scroll_end(self) -> None:
        self.cursor_line = self.last_line
        self.scroll_to_line(self.cursor_line)

    def action_toggle_node(self) -> None:
        node = self.get_node_at_line(self.cursor_line)
        if node is not None:
            self.toggle(node)

    def action_select_cursor(self) -> None:
        node = self.get_node_at_line(self.cursor_line) if self.cursor_line >= 0 else None
        if node is not None:
            self.post_message(self.NodeSelected(node))

    def action_cursor_parent(self) -> None:
        if self.cursor is not None and self.cursor.parent is not None:
            self.move_cursor(self.cursor.parent, animate=True)

    def action_cursor_parent_next_sibling(self) -> None:
        if self.cursor is not None and self.cursor.parent is not None:
            self.move_cursor(self.sibling(self.cursor.parent, 1), animate=True)

    def action_cursor_previous_sibling(self) -> None:
        if self.cursor is not None:
            self.move_cursor(self.sibling(self.cursor, -1) or self.cursor.parent, animate=True)

    def action_cursor_next_sibling(self) -> None:
        if self.cursor is None:
            return
        after = self.sibling(self.cursor, 1)
        if after is None and self.cursor.parent is not None:
            after = self.sibling(self.cursor.parent, 1)
        if after is not None:
            self.move_cursor(after, animate=True)

    def action_toggle_expand_all(self) -> None:
        """Unfold every sibling of the cursor's line if all are folded, else fold them all."""
        cursor = self.cursor
        if cursor is None or cursor.parent is None:
            return
        siblings = [line for line in cursor.parent.lines if line.expandable]
        unfold = all(not line.expanded for line in cursor.parent.lines)
        for line in siblings:
            if line.expanded != unfold:
                line.toggle()
        self.call_after_refresh(self.move_cursor, cursor, animate=False)

    @staticmethod
    def sibling(line: TreeLine[DataType], step: int) -> TreeLine[DataType] | None:
        """The line `step` places after `line` among its parent's (before, when negative), if any."""
        if line.parent is None:
            return None
        siblings = line.parent.lines
        at = siblings.index(line) + step
        return siblings[at] if 0 <= at < len(siblings) else None
