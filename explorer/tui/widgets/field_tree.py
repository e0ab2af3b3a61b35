"""The field tree: an entity's fields in the Page pane, and how a JSON value reads there and in the table."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from explorer.api.values import as_bson_timestamp, as_date
from explorer.tui.safe import text


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
    moment = as_date(value)
    shown = text(value, "json-string")
    if moment is not None and local:
        shown.append(f"  (local {moment.astimezone().strftime('%Y-%m-%d %H:%M:%S %Z')})", style="json-muted")
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


class FieldTree(Tree[Any]):
    """An entity's fields: scalars as key and value, nested values folded until opened."""

    DEFAULT_CSS = """
    FieldTree {
        height: 1fr;
        padding: 0 1;
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

    def add_children(self, node: TreeNode[Any], value: Any) -> None:
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in pairs:
            label = text(key if isinstance(value, dict) else f"[{key}]", "bold")
            label.append(": ")
            label.append_text(describe(child))
            nested = isinstance(child, dict | list) and child and as_bson_timestamp(child) is None
            if nested:
                node.add(label, data=child, allow_expand=True)
            else:
                node.add_leaf(label, data=child)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Any]) -> None:
        event.stop()
        node = event.node
        if node is not self.root and not node.children:
            self.add_children(node, node.data)
