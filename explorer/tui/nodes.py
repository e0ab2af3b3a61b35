"""The link tree's places, as the navigation model keeps them: nodes, and the steps it asks of the screen.

No Textual here. A `Node` is a relation, a list item, a page link or a URL typed in (or, off the
tree, a typed URL's refusal); a `Fetch` is a request to make into one; a `Step` is what the screen
does after a call on the model. Beside them,
the small rules they are made by: URLs with and without their query, a page's key, what a list
item is called and where its own URL comes from.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from explorer.api.description import VARIABLE
from explorer.api.errors import ApiError
from explorer.api.resource import Link, Resource, links_of
from explorer.tui.safe_text import visible

# "refused": not in the tree: a URL typed into g that was refused, shown without taking over the node it names
Kind = Literal["root", "relation", "documented", "item", "next", "previous", "goto", "more", "refused"]
SWITCHES = ("pretty", "envelope")  # query parameters turned on and off for every request (p and e)
ITEMS_AT_ONCE = 500  # items of a page the tree lists before a "more" line (the table has them all)
# What names a list item: its name; an event or alert by its type (not by who or what it was about).
LABEL_FIELDS = ("name", "eventTypeName", "username", "displayName", "cidrBlock", "hostname", "teamId", "id")


def without_query(url: str) -> str:
    return url.split("?", 1)[0].split("#", 1)[0]


def with_query(url: str, drop: tuple[str, ...] = (), **values: str) -> str:
    """`url` with the parameters in `drop` taken out and `values` set; the rest as they were."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    remaining = [(name, value) for name, value in pairs if name not in drop and name not in values]
    if len(remaining) == len(pairs) and not values:
        return url  # nothing to change: the URL exactly as the service wrote it
    query = urlencode([*remaining, *values.items()])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def page_key(url: str) -> str:
    """Which page of a list a URL asks for, whatever the switches: the URL without them, sorted."""
    parts = urlsplit(url)
    pairs = sorted((n, v) for n, v in parse_qsl(parts.query, keep_blank_values=True) if n not in SWITCHES)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(pairs), ""))


def path_of(url: str) -> str:
    """A URL's path, as sent (percent-encoded); "" for one that is not a URL."""
    try:
        return urlsplit(url).path
    except ValueError:
        return ""


def self_href(document: Any) -> str | None:
    """An item's own URL, from its `self` link (if it is a URL)."""
    return next((link.href for link in links_of(document) if link.rel == "self" and not link.problem), None)


def relation(link: Link, parent: Node) -> Node:
    """A link's node; one whose href is not a URL is marked with why, and never fetched."""
    if link.problem is None:
        return Node("relation", link.href, link.name, parent)
    node = Node("relation", None, link.name, parent)
    node.error = ApiError("href", f"The link {visible(link.name)} is not a URL: {visible(link.href)} ({link.problem})")
    return node


def place_of(items: list[Any], href: str | None) -> int | None:
    """Where on a page the item with this self URL is, if it is there."""
    if href is None:
        return None
    return next((at for at, item in enumerate(items) if self_href(item) == href), None)


def item_href(item: Any, list_url: str, template: str) -> str | None:
    """The URL of a list item without a `self` link, from the description's path for one item
    (`…/clusters/{clusterName}`): the item's field of that name, else its `name` for a `…Name`, its
    `id` for an `…Id`. None when the item has no such value."""
    found = VARIABLE.match(template.rsplit("/", 1)[-1])
    if not isinstance(item, dict) or found is None:
        return None
    variable = found.group(1)
    fallback = "name" if variable.endswith("Name") else "id" if variable.endswith("Id") else None
    value = item.get(variable, item.get(fallback) if fallback else None)
    if not isinstance(value, str | int) or isinstance(value, bool) or value == "":
        return None
    parts = urlsplit(list_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/" + quote(str(value), safe=":@"), "", ""))


def item_title(item: Any, index: int) -> tuple[str, str]:
    """What to call a list item, and its id to show beside it."""
    if not isinstance(item, dict):
        return visible(item), ""
    ident = item.get("id")
    for name in LABEL_FIELDS:
        value = item.get(name)
        if isinstance(value, str | int) and not isinstance(value, bool) and value != "":
            return str(value), (str(ident) if ident is not None and name != "id" else "")
    return f"item {index + 1}", ""


@dataclass(eq=False)
class Node:
    """A place in the tree: a relation, a list item, a page link, a URL typed in."""

    kind: Kind
    url: str | None  # what opening it fetches; None for an item listed without a self link
    title: str
    parent: Node | None = None
    document: Any = None  # the item as listed
    ident: str = ""  # an item's id, shown beside a title that is not the id
    page: str | None = None  # the page of its parent list it is listed on (a page key)
    resource: Resource | None = None  # the last answer; of a list, the page shown
    error: ApiError | None = None  # the last failure with no answer to show
    children: list[Node] = field(default_factory=list)
    pages: dict[str, Resource] = field(default_factory=dict)  # of a list: every page shown, by page key
    pool: dict[tuple[str, str], Node] = field(default_factory=dict)  # of a list: its items met so far
    listed_page_key: str | None = None  # of a list: the key of the page in `resource` and `children`
    page_size: int | None = None  # of a list: the items per page chosen with + and -
    items_listed: int = ITEMS_AT_ONCE  # of a list: how many of a page's items the tree lists
    asked: str | None = None  # the URL last fetched into it (with its query and switches)
    filled: bool = False  # children made from a resource
    undocumented: bool = False  # a link to a path the API description does not know
    stale: bool = False  # of a list: holds an item known to be deleted; fetched again when next visited

    @property
    def key(self) -> str | None:
        return without_query(self.url) if self.url else None

    @property
    def is_list(self) -> bool:
        return self.resource is not None and self.resource.page_or_array is not None

    @property
    def failed(self) -> bool:
        return self.error is not None or (self.resource is not None and self.resource.status >= 400)

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def __repr__(self) -> str:
        return f"<Node {self.kind} {self.title!r} {self.url}>"


@dataclass(frozen=True, eq=False)
class Fetch:
    """A request to make: into `node`, this URL (the node's own, or a page of it, with the switches)."""

    node: Node
    url: str
    cursor_on: str | None = None  # the item to keep the table's cursor on (its self URL), if it is still there
    typed: bool = False  # a URL typed into g (or met again in the history): refused, it leaves the node as it was
    turn: int = 0  # a page turn's step (`]` 1, `[` -1): the turns pressed while it is in flight follow it


@dataclass
class Step:
    """What the screen does after a call: start a fetch, show a node, move the cursor, say something."""

    fetch: Fetch | None = None
    show: Node | None = None
    select: Node | None = None
    cursor_on: str | None = None  # after showing a list: the item to put the table's cursor on
    note: str | None = None
