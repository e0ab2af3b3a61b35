"""The field tree: an entity's fields in the Page pane, and how a JSON value reads there and in the table.

What a server sends can be large: an entity of 100,000 fields, a string of 50 MB. Textual's tree
measures every line it holds, so a node shows its children SHOWN_AT_ONCE at a time, with a last
line that shows the next when chosen; a string shows its first LONG_TEXT characters and how long it
is. The JSON pane has the whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from explorer.api.counts import counted
from explorer.api.values import as_bson_timestamp, as_date, local_time
from explorer.tui.safe_text import brief, text

SHOWN_AT_ONCE = 500  # children a node of the field tree shows before a "more" line
LONG_TEXT = 1000  # characters of a string a label shows


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def scalar(value: Any, local: bool = True) -> Text:
    """A JSON scalar for display; dates also in local time unless the room is short."""
    if value is None:
        return Text.assemble(("null", "json-muted"), style="italic")
    if isinstance(value, bool):
        return Text("true" if value else "false", style="json-literal")
    if isinstance(value, int | float):
        return Text(f"{value}", style="json-number")
    if len(value) > LONG_TEXT:
        shown = text(value[:LONG_TEXT], "json-string")
        return shown.append(f"… {len(value):,} characters in all (the JSON pane has them)", style="json-muted")
    moment = as_date(value) if local else None
    shown = text(value, "json-string")
    here = local_time(moment) if moment is not None else None
    if here is not None:
        shown.append(f"  (local {here})", style="json-muted")
    return shown


def describe(value: Any) -> Text:
    """What a node of the field tree says after its key."""
    stamp = as_bson_timestamp(value)
    if stamp is not None:
        return Text(str(stamp), style="json-string") + Text("  (BSON timestamp)", style="json-muted")
    if isinstance(value, dict):
        return Text(f"{{{len(value)}}}", style="json-muted")
    if isinstance(value, list):
        return Text(f"[{len(value)}]", style="json-muted")
    return scalar(value)


@dataclass(frozen=True)
class MoreChildren:
    """The data of a node's last line while it holds only some of its children: where the rest start."""

    value: dict[str, Any] | list[Any]
    start: int

    def label(self) -> Text:
        left = len(self.value) - self.start
        kind = "more field" if isinstance(self.value, dict) else "more item"
        count = min(left, SHOWN_AT_ONCE)
        return Text(f"… {counted(left, kind)}: Enter shows {'the' if count == left else 'the next'} {count:,}",
                    style="json-muted italic")  # fmt: skip


class FieldTree(Tree[Any]):
    """An entity's fields: scalars as key and value, nested values folded until opened."""

    DEFAULT_CSS = """
    FieldTree {
        height: 1fr;
        padding: 0 1;
        /* Guides at 3:1 or more, as in the link tree (see there) */
        & > .tree--guides, & > .tree--guides-hover, & > .tree--guides-selected {
            color: $tree-guides !important;
        }
        &:focus > .tree--guides-selected { color: $block-cursor-background !important; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("fields", id=id)
        self.show_root = False
        self.guide_depth = 3

    def show(self, document: Any) -> None:
        self.clear()
        self.add_children(self.root, document)
        self.root.expand()

    def add_children(self, node: TreeNode[Any], value: Any, start: int = 0) -> None:
        """The children of `value` from `start`, SHOWN_AT_ONCE of them, and a line for the rest."""
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in islice(pairs, start, start + SHOWN_AT_ONCE):
            label = Text(brief(key, LONG_TEXT) if isinstance(value, dict) else f"[{key}]", style="bold")
            label.append(": ")
            label.append_text(describe(child))
            nested = isinstance(child, dict | list) and child and as_bson_timestamp(child) is None
            if nested:
                node.add(label, data=child, allow_expand=True)
            else:
                node.add_leaf(label, data=child)
        if len(value) > start + SHOWN_AT_ONCE:
            more = MoreChildren(value, start + SHOWN_AT_ONCE)
            node.add_leaf(more.label(), data=more)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Any]) -> None:
        """Enter on a "more" line: it gives way to the next children."""
        more = event.node.data
        if isinstance(more, MoreChildren) and event.node.parent is not None:
            event.stop()
            parent = event.node.parent
            event.node.remove()
            self.add_children(parent, more.value, more.start)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Any]) -> None:
        event.stop()
        node = event.node
        if node is not self.root and not node.children:
            self.add_children(node, node.data)
