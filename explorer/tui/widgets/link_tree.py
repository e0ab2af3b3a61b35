"""The link tree: draws the navigation model, the root resource and the relations opened from it.

The tree holds no state of its own beyond which lines are folded: each line's data is a
`nodes.Node`, and `redraw` brings the lines in step with what the model says changed. A line's
label is made from its node when it is drawn (`label_of`): a page of 500 items costs 30 labels.
"""

from __future__ import annotations

from weakref import WeakSet

from rich.text import Text
from textual import events
from textual.widget import Widget

from explorer.tui.navigation import Navigation
from explorer.tui.nodes import Node
from explorer.tui.palette import status_class
from explorer.tui.safe_text import text
from explorer.tui.widgets.line_tree import LineTree, TreeLine

SHARE = 38  # the tree's share of the screen's width, in percent, as its CSS says


class LinkTree(LineTree[Node]):
    DEFAULT_CSS = """
    LinkTree {
        width: 38%;  /* SHARE */
        min-width: 16;
        height: 1fr;
        padding: 0 1;
        overflow-x: hidden;  /* a line too long is cut (its path first) and the status bar says it whole */
        /* Guides at 3:1 or more on the tree, focused or not ($tree-guides, see palette.py). Important:
           LineTree's :focus, :light and :ansi rules are more specific. The guide to the cursor keeps
           the cursor's colour while the tree is focused. */
        & > .tree--guides, & > .tree--guides-hover, & > .tree--guides-selected {
            color: $tree-guides !important;
        }
        &:focus > .tree--guides-selected { color: $block-cursor-background !important; }
    }
    """
    MIN_WIDTH = 16
    NARROW = 32  # narrower than this (an 80-column terminal's tree), the guides are 2 columns a level, not
    # 4: deep lines keep more of their names
    SHARE_MOST = 70  # the share (38%) is at most this wide; a width chosen with < > or a drag may be wider

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("root"), id=id)
        self.navigation: Navigation | None = None
        self.drawn: dict[int, TreeLine[Node]] = {}  # id of a model node -> the line that draws it
        self.unfolded: WeakSet[Node] = WeakSet()  # nodes whose lines were unfolded when taken away
        self.chosen: int | None = None  # the width chosen with < > or a drag; None: the share
        self.showing: TreeLine[Node] | None = None  # an unfolded line to scroll into view, once laid out

    @property
    def model(self) -> Navigation:
        if self.navigation is None:
            raise RuntimeError("LinkTree.start() first")
        return self.navigation

    def start(self, navigation: Navigation) -> None:
        """Draw this model from its root."""
        self.clear()
        self.navigation = navigation
        self.root.data = navigation.root
        self.root.relabel()
        self.drawn = {id(navigation.root): self.root}
        self.redraw()

    def set_width(self, width: int | None, most: int) -> None:
        """Draw the tree `width` columns wide (None: its share, 38%), never wider than `most`, which
        leaves the panes their room; the width chosen is kept whole, so a wider terminal gets it back."""
        self.chosen = width
        self.fit(most)

    def choose_width(self, width: int, most: int) -> None:
        """A width the person chose (`<`, `>`, a drag). One at the share's width now (`<` then `>`,
        or `>` back from a width a past run kept) is the share again, which follows the terminal's
        width: it was kept as a fixed 70 columns, which an 80-column terminal got."""
        self.set_width(None if width == self.share(most) else width, most)

    def share(self, most: int) -> int:
        """The columns the share (the CSS's 38%) gives the tree in the screen as it is now."""
        whole = self.parent.size.width if isinstance(self.parent, Widget) else self.app.size.width
        return max(self.MIN_WIDTH, min(whole * SHARE // 100, self.SHARE_MOST, most))

    def fit(self, most: int) -> None:
        """The width chosen (or the share), no wider than `most` columns (the terminal's width changed)."""
        most = max(self.MIN_WIDTH, most)
        if self.chosen is not None:
            self.styles.width = max(self.MIN_WIDTH, min(self.chosen, most))
        else:
            self.styles.width = None  # the CSS's share again
        self.styles.max_width = most if self.chosen is not None else min(self.SHARE_MOST, most)

    def on_resize(self, event: events.Resize) -> None:
        """Guides of 4 columns a level ate a narrow tree: at 60 columns, a project's events showed
        only their guides and `▶`. A narrow tree draws them 2 columns a level."""
        self.guide_depth = 2 if event.size.width < self.NARROW else 4

    def chosen_width(self) -> int | None:
        """The width chosen with < and > or a drag, if any: to keep for the next run."""
        return self.chosen

    def expand_node(self, node: Node) -> None:
        """Expand a node's line, when it is drawn and has something to show."""
        line = self.line_of(node)
        if line is not None and line.children and not line.is_expanded:
            line.expand()

    def show_children(self, node: Node) -> None:
        """Scroll so an unfolded node's line and as many of the lines under it as fit are in view,
        the node's own line kept (as file trees do on opening a folder); once the tree has laid out
        the new lines, so the scroll is not held back by the old height."""
        line = self.line_of(node)
        if line is not None and line.is_expanded and line.children:
            self.showing = line
            self.call_after_refresh(self.scroll_to_show, line)

    def scroll_to_show(self, line: TreeLine[Node]) -> None:
        """Scroll (if need be) so `line` and the lines under it are in view, `line` first where they do not fit."""
        if self.showing is line:
            self.showing = None
        if not line.is_expanded or self.cursor is not line:  # the cursor has moved on since: it stays in view
            return
        _ = self.last_line  # the tree works out its lines here, so each has its number
        first = line.line
        if first < 0:
            return
        last = line
        while last.is_expanded and last.children:
            last = last.children[-1]
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if last.line >= top + height:
            top = last.line - height + 1
        top = min(top, first)
        if top != self.scroll_offset.y:
            self.scroll_to(y=top, animate=False, force=True)

    def collapse_if_empty(self, node: Node) -> None:
        """Collapse a node's line that was expanded for children that never came (a fetch given up)."""
        line = self.line_of(node)
        if line is not None and line.is_expanded and not line.children:
            line.collapse()

    def line_of(self, node: Node) -> TreeLine[Node] | None:
        """The tree's line for a model node, if it is drawn."""
        return self.drawn.get(id(node))

    # Drawing ------------------------------------------------------------------------------------

    def redraw(self) -> None:
        """Bring the lines in step with the model's changes since the last redraw."""
        regrow, relabel = self.model.changes()
        for node in regrow:
            line = self.line_of(node)
            if line is not None:
                self.grow(line)
        for node in relabel:
            line = self.line_of(node)
            if line is not None:
                self.draw_label(line)

    def grow(self, line: TreeLine[Node]) -> None:
        """Bring a line's children in step with its model node's children.

        A child still there keeps its line, and with it what is open below it (a `go to` node
        added to the root must not fold the branches you were in); the lines of children gone
        are removed, and new children get new lines in their place.
        """
        node = line.data
        if node is None:
            raise ValueError("a line without its node")
        old_lines = list(line.children)
        reusable = self.reusable_lines(node, old_lines)
        if reusable:
            for old in old_lines:
                if reusable.get(id(old.data)) is not old:
                    self.undraw(old)
                    old.remove()
        else:
            for old in old_lines:
                self.undraw(old)
            line.remove_children()
        for at, child in enumerate(node.children):
            if id(child) not in reusable:
                self.add_line(line, child, at if at < len(line.children) else None)
        self.draw_label(line)

    def reusable_lines(self, node: Node, old_lines: list[TreeLine[Node]]) -> dict[int, TreeLine[Node]]:
        """The lines that may stay among `old_lines`: those drawing a child `node` still has, when they
        are in the model's order (else none: all are drawn anew)."""
        wanted = {id(child) for child in node.children}
        reusable = {
            id(old.data): old
            for old in old_lines
            if old.data is not None and id(old.data) in wanted and self.line_of(old.data) is old
        }
        order = [id(child) for child in node.children if id(child) in reusable]
        return reusable if order == [id(old.data) for old in old_lines if reusable.get(id(old.data)) is old] else {}

    def add_line(self, parent: TreeLine[Node], node: Node, at: int | None = None) -> TreeLine[Node]:
        """A line for a node, with its own children; at the parent's `at`-th place, or last. Its label
        is made when it is drawn."""
        line = parent.add(
            data=node,
            allow_expand=self.model.expandable(node),
            expand=node in self.unfolded,  # back on a page: what you had open there is open again
            before=at,
        )
        self.drawn[id(node)] = line
        for child in node.children:
            self.add_line(line, child)
        return line

    def undraw(self, line: TreeLine[Node]) -> None:
        for child in line.children:
            self.undraw(child)
        if line.data is not None and self.drawn.get(id(line.data)) is line:
            del self.drawn[id(line.data)]
            if line.is_expanded:
                self.unfolded.add(line.data)
            else:
                self.unfolded.discard(line.data)

    def draw_label(self, line: TreeLine[Node]) -> None:
        node = line.data
        if node is None:
            raise ValueError("a line without its node")
        line.relabel()
        expandable = self.model.expandable(node)
        if expandable != line.allow_expand:
            line.allow_expand = expandable

    def label(self, node: Node, path: bool = True) -> Text:
        """What a line says: the title, what marks it (loading, failed, open elsewhere, not in the
        description), then its path or id, dimmed (unless `path` is False): a narrow tree cuts the
        path before the mark."""
        label = text(node.title, "bold" if node.kind in ("root", "relation", "goto") else "")
        if node.kind in ("next", "previous", "more"):
            label.stylize("italic")
        if node.kind == "documented":  # a path the API description has and the links left out
            label = Text("◇ ", style="dim").append_text(label)
        badge = self.model.badges.get(node.key or "") if node.kind != "root" else None
        if badge:  # beside the title, before the path or id: a narrow tree still shows it
            label.append_text(text(f" {badge}", "badge"))
        if self.model.is_marked(node):
            label.append("  …", style="bold")
        elif node.error is not None:
            reason = node.error.status or ("not a URL" if node.error.kind == "href" else node.error.kind)
            label.append_text(failure(node.error.status, reason))
        elif node.resource is not None and node.resource.status >= 400:
            label.append_text(failure(node.resource.status, node.resource.status))
        if self.model.elsewhere(node) is not None:
            label.append("  ↺ open elsewhere", style="dim italic")
        if node.undocumented:
            label.append("  not in the description", style="dim italic")
        if not path:
            return label
        if node.url and node.kind in ("root", "relation", "goto"):  # a documented path is its title
            label.append("  ")
            label.append_text(text(self.path_of(node), "dim"))
        elif node.kind == "item" and node.ident and not node.undocumented:
            label.append_text(text(f"  {node.ident}", "dim"))
        return label

    def label_of(self, line: TreeLine[Node]) -> Text:
        return self.label(line.data) if line.data is not None else Text()

    def cut_label(self, line: TreeLine[Node]) -> Text | None:
        """A line's label, when the tree is too narrow to show its title and marks (the status bar then
        shows it whole); a path or id cut alone is not said again (the title shows the URL opened)."""
        if line.data is None:
            return None
        label = self.label(line.data)
        needs = line.depth * self.guide_depth + self.get_label_width(line) - label.cell_len
        needs += self.label(line.data, path=False).cell_len
        return label if needs > self.scrollable_content_region.width else None

    def path_of(self, node: Node) -> str:
        """A node's URL as a short path: what it adds to its parent's, or relative to the API root."""
        if node.url is None:
            raise ValueError(f"{node.title} has no URL")
        api_root = self.model.root.key or ""
        bare = node.key or ""
        parent = node.parent.key if node.parent and node.parent.key else api_root
        if parent != api_root and bare.startswith(parent + "/"):
            return "…" + bare[len(parent) :]
        if bare.startswith(api_root):
            return (bare[len(api_root) :] or "/") + node.url[len(bare) :]
        origin = "/".join(api_root.split("/", 3)[:3])  # scheme://host:port
        if node.url.startswith(origin + "/"):
            return node.url[len(origin) :]  # on the same origin, outside the API root: /api/private/ipinfo
        return node.url.split("://", 1)[-1]

    # Moving -------------------------------------------------------------------------------------

    def reveal(self, node: Node) -> None:
        """Move the cursor to a node, unfolding the lines above it."""
        line = self.line_of(node)
        if line is None:
            return
        parent = line.parent
        while parent is not None:
            if not parent.is_expanded:  # expand() lays out the tree anew and says so, open or not
                parent.expand()
            parent = parent.parent
        _ = self.last_line  # the tree works out its lines here, so a new line has its number
        self.move_cursor(line)


def failure(status: int | None, reason: object) -> Text:
    """`  ✗ 404`, in the colour of its status class."""
    label = Text(f"  ✗ {reason}", style="bold")
    label.stylize(status_class(status))
    return label
