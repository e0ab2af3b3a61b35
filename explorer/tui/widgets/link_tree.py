"""The link tree: the root resource, its relations, and theirs, fetched as they are opened.

A node's children are made from its resource once it has been fetched: an entity's relations
(`self` left out), or a list's items on the current page and a node for the next page. A URL
already open elsewhere in the tree is marked and not fetched again, so cycles end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from explorer.api.errors import ApiError
from explorer.api.resource import Resource, links_of
from explorer.tui.palette import status_class
from explorer.tui.safe import text, visible

Kind = Literal["root", "relation", "item", "next", "previous", "goto"]
# What names a list item: its name; an event or alert by its type (not by who or what it was about).
LABEL_FIELDS = ("name", "eventTypeName", "username", "displayName", "cidrBlock", "hostname", "teamId", "id")


@dataclass(eq=False)
class Entry:
    """What a node stands for, and what is known of it so far."""

    kind: Kind
    url: str | None  # None: an item listed without a self link, shown from the list
    title: str
    document: Any = None  # the item as listed
    ident: str = ""  # an item's id, shown beside a title that is not the id
    resource: Resource | None = None
    error: ApiError | None = None
    loading: bool = False
    filled: bool = False
    seen: bool = False  # open elsewhere in the tree


def without_query(url: str) -> str:
    return url.split("?", 1)[0]


def item_title(item: Any, index: int) -> tuple[str, str]:
    """What to call a list item, and its id to show beside it."""
    if not isinstance(item, dict):
        return visible(item), ""
    ident = item.get("id")
    for field in LABEL_FIELDS:
        value = item.get(field)
        if isinstance(value, str | int) and not isinstance(value, bool) and value != "":
            return str(value), (str(ident) if ident is not None and field != "id" else "")
    return f"item {index + 1}", ""


class LinkTree(Tree[Entry]):
    DEFAULT_CSS = """
    LinkTree {
        width: 1fr;
        min-width: 24;
        height: 1fr;
        padding: 0 1;
        border-right: vkey $foreground 10%;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("root"), id=id)
        self.api_root = ""
        self.open: dict[str, TreeNode[Entry]] = {}  # URL (without query) -> the node where it is open

    def start(self, url: str) -> TreeNode[Entry]:
        """Begin again from the API root."""
        self.clear()
        self.open.clear()
        self.api_root = without_query(url)
        self.root.data = Entry("root", url, "root")
        self.relabel(self.root)
        return self.root

    def path_of(self, url: str, under: str | None = None) -> str:
        """A URL as a short path: what it adds to its parent's, or relative to the API root."""
        bare = without_query(url)
        parent = without_query(under or self.api_root)
        if parent != self.api_root and bare.startswith(parent + "/"):
            return "…" + bare[len(parent) :]
        if bare.startswith(self.api_root):
            return bare[len(self.api_root) :] or "/"
        return url.split("://", 1)[-1]

    def label(self, entry: Entry, parent: Entry | None = None) -> Text:
        """What a node says: its title, its path (dimmed), and its state."""
        label = text(entry.title, "bold" if entry.kind in ("root", "relation", "goto") else "")
        if entry.kind in ("next", "previous"):
            label.stylize("italic")
        if entry.url and entry.kind in ("root", "relation", "goto"):
            label.append("  ")
            label.append_text(text(self.path_of(entry.url, parent.url if parent else None), "dim"))
        elif entry.kind == "item" and entry.ident:
            label.append_text(text(f"  {entry.ident}", "dim"))
        if entry.seen:
            label.append("  ↺ open above", style="dim italic")
        if entry.loading:
            label.append("  …", style="bold")
        elif entry.error is not None:
            label.append_text(failure(entry.error.status, entry.error.status or entry.error.kind))
        elif entry.resource is not None and entry.resource.status >= 400:
            label.append_text(failure(entry.resource.status, entry.resource.status))
        return label

    def relabel(self, node: TreeNode[Entry]) -> None:
        assert node.data is not None
        node.set_label(self.label(node.data, node.parent.data if node.parent else None))

    def add_entry(self, node: TreeNode[Entry], entry: Entry, expandable: bool) -> TreeNode[Entry]:
        """A child made with its final label: setting a label later costs a refresh per node."""
        return node.add(self.label(entry, node.data), data=entry, allow_expand=expandable)

    def mark_loading(self, node: TreeNode[Entry], busy: bool) -> None:
        assert node.data is not None
        node.data.loading = busy
        self.relabel(node)

    def mark_failed(self, node: TreeNode[Entry], error: ApiError) -> None:
        assert node.data is not None
        node.data.error, node.data.loading = error, False
        self.relabel(node)

    def fill(self, node: TreeNode[Entry], resource: Resource) -> None:
        """The node's resource arrived: remember it and make its children."""
        entry = node.data
        assert entry is not None
        entry.resource, entry.error, entry.loading = resource, None, False
        self.open.setdefault(without_query(resource.url), node)
        node.remove_children()
        entry.filled = True
        page = resource.page
        if resource.error is not None:
            pass
        elif page is not None:
            self.add_page(node, resource)
        else:
            for link in resource.relations:
                self.add_link(node, "relation", link.name, link.href)
        self.relabel(node)
        node.allow_expand = bool(node.children)

    def add_link(self, node: TreeNode[Entry], kind: Kind, title: str, url: str) -> None:
        entry = Entry(kind, url, title)
        entry.seen = without_query(url) in self.open and kind == "relation"
        self.add_entry(node, entry, not entry.seen)

    def add_page(self, node: TreeNode[Entry], resource: Resource) -> None:
        page = resource.page
        assert page is not None
        if page.previous_href:
            self.add_link(node, "previous", "‹ previous page", page.previous_href)
        for index, item in enumerate(page.results):
            title, ident = item_title(item, index)
            self_links = [link.href for link in links_of(item) if link.rel == "self"]
            entry = Entry("item", self_links[0] if self_links else None, title, item, ident=ident)
            self.add_entry(node, entry, entry.url is not None)
        if page.next_href:
            pages = f" (page {page.number + 1} of {page.pages})" if page.pages else ""
            self.add_link(node, "next", f"next page ›{pages}", page.next_href)

    def add_goto(self, url: str) -> TreeNode[Entry]:
        """A node for a URL typed in: under the root, found again if it is there already."""
        for child in self.root.children:
            if child.data and child.data.kind == "goto" and child.data.url == url:
                return child
        return self.add_entry(self.root, Entry("goto", url, "go to"), True)


def failure(status: int | None, shown: object) -> Text:
    """`  ✗ 404`, in the colour of its status class."""
    label = Text(f"  ✗ {shown}", style="bold")
    label.stylize(status_class(status))
    return label
