"""Where you are: the nodes of the link tree, what is being fetched, asked for and shown, history.

No Textual here. The link tree draws this model and the screen turns keys into calls on it; each
call answers with a `Step` (what to fetch, show and select) and leaves the nodes to redraw in
`changes()`. Nodes are known by URL: the first node a URL is fetched into is where it is *open*;
any other node with that URL says so (`elsewhere`) and opening it goes there, so cycles end.

A list keeps every page it has shown and every item node it has made, so back and forward put a
page back as it was, without a request, and an item met again is the same node, still open.

With an API description, a node's children are its links, then the documented paths below it that
its links leave out (`documented` nodes, their variables bound from its URL); a link the
description does not know is marked `undocumented`, and a list item without a `self` link gets
the URL the description's item path makes of its name or id.

Longer than most modules here, on purpose: `Navigation` is one state machine, and every call on it
(open, arrive, fail, turn a page, resize it, go back) reads and changes the same indexes together,
nodes by URL, the fetch in flight, each list's pages and history; split up, the rules that keep them
consistent would be spread over modules. The nodes and the small rules they are made by are in
`nodes.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from explorer.api.counts import counted
from explorer.api.description import Description
from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.tui.nodes import (
    ITEMS_AT_ONCE,
    SWITCHES,
    Fetch,
    Node,
    Step,
    item_href,
    item_title,
    page_key,
    path_of,
    place_of,
    relation,
    self_href,
    with_query,
    without_query,
)
from explorer.tui.visits import Visits

PAGE_SIZES = (10, 25, 50, 100, 200, 500)
GONE = (404, 410)  # an answer that says the resource is not there: what it held goes with it


class Navigation:
    """The model of the explorer screen: nodes by URL, one fetch at a time, switches and history."""

    def __init__(self, root_url: str) -> None:
        self.root = Node("root", root_url, "root")
        self.open_at: dict[str, Node] = {}  # URL without query -> the node it is open at
        self.by_key: dict[str, list[Node]] = {}  # URL without query -> every node with it
        self.fetching: Fetch | None = None
        self.marked: Fetch | None = None  # the fetch whose line says it is loading (`mark_pending`)
        self.requested: Node | None = None  # the node the user last asked to see
        self.current: Node | None = None  # the node in the panes
        self.switched: set[str] = set()  # of SWITCHES: the ones on
        self.history = Visits()
        self.relabel: set[Node] = set()  # nodes whose label changed
        self.regrow: set[Node] = set()  # nodes whose children changed
        self.description: Description | None = None  # the API description, once the session has it
        self.badges: dict[str, str] = {}  # URL without query -> what the tree says beside it (watched, marked)
        self.turns_ahead = 0  # `]` (+1) and `[` (-1) pressed while a page turn was in flight, each done in turn
        self.index(self.root)

    # What the tree reads --------------------------------------------------------------------

    def elsewhere(self, node: Node) -> Node | None:
        """The node this one's URL is open at, when that is another node."""
        if node.kind in ("next", "previous", "root") or node.key is None:
            return None
        other = self.open_at.get(node.key)
        return other if other is not None and other is not node else None

    def badge(self, url: str, text: str | None) -> None:
        """Say `text` beside every node of a URL in the tree (`◉ watched`), or nothing (None)."""
        key = without_query(url)
        if text is None:
            self.badges.pop(key, None)
        else:
            self.badges[key] = text
        self.relabel.update(self.by_key.get(key, ()))

    def is_fetching(self, node: Node) -> bool:
        return self.fetching is not None and self.fetching.node is node

    def is_marked(self, node: Node) -> bool:
        """Whether `node`'s line says `…`: its fetch is in flight, and has been for a while (`mark_pending`)."""
        return self.marked is not None and self.marked is self.fetching and self.is_fetching(node)

    def mark_pending(self, fetch: Fetch) -> bool:
        """`fetch` has gone on for a while: its line says so, if it is still the one in flight (then
        True: a line to draw again). A quick answer is not marked at all: the mark and its taking
        away were each a frame of a page turn."""
        if self.fetching is not fetch:
            return False
        self.marked = fetch
        self.relabel.add(fetch.node)
        return True

    def expandable(self, node: Node) -> bool:
        """Whether the tree offers to open it: it has children, or may have once fetched."""
        if node.children:
            return True
        if node.filled or node.failed or node.kind in ("next", "previous"):
            return False
        return node.url is not None and self.elsewhere(node) is None

    def changes(self) -> tuple[set[Node], set[Node]]:
        """The nodes to redraw since the last call: (whose children changed, whose label changed)."""
        regrow, relabel = self.regrow, self.relabel
        self.regrow, self.relabel = set(), set()
        return regrow, relabel - regrow

    def where(self) -> str:
        """The URL the user is looking at (or waiting for, or refused), for the title."""
        node = self.requested or self.root
        if self.fetching is not None and self.fetching.node is node:
            return self.fetching.url
        if node.error is not None:
            return node.asked or node.url or ""  # what was asked for, not the token URL a refusal names
        if node.resource is not None:
            return node.resource.url
        return node.url or self.root.url or ""

    def title(self) -> str:
        """The title: the URL looked at as it was sent, its query whole and in its order (the page,
        its size, `pretty=true`), so the title says what the panes show and a copy of it works."""
        return self.where()

    def list_in_view(self) -> Node | None:
        """The list being looked at: the node shown if it is one, else the list it is an item of."""
        node = self.current
        while node is not None and not node.is_list:
            node = node.parent if node.kind == "item" else None
        return node

    # Opening ------------------------------------------------------------------------------------

    def open(self, node: Node, reload: bool = False, cursor_on: str | None = None) -> Step:
        """The user opens a node (Enter, a click, expanding it): show it, fetching it if needed."""
        if node.kind in ("next", "previous"):
            parent = node.parent
            if parent is None or node.url is None:
                return Step()
            return self.request(parent, self.url_for(parent, node.url), select=True)
        if node.kind == "more":
            parent = node.parent
            first = parent.items_listed if parent is not None else 0
            return Step(select=self.item_at(parent, first)) if parent is not None else Step()
        reload = reload or self.refusal_of(node) or node.stale  # a stale list: fetched again, not shown as kept
        other = self.elsewhere(node)
        if other is not None and not reload:
            return self.go(other)
        if node.url is None or (node.resource is not None and not reload):
            return self.show_step(node, select=True)
        if self.is_fetching(node) and not reload:
            self.requested = node
            return Step()
        url = node.resource.url if reload and node.resource is not None else node.url
        return self.request(node, self.url_for(node, url), cursor_on=cursor_on)

    def expanded(self, node: Node) -> Step:
        """The user expanded a node (space, its arrow): fetch what it holds, if that is not known yet."""
        if node.filled or node.url is None or node.kind in ("next", "previous", "more") or self.elsewhere(node):
            return Step()
        return self.open(node)

    def request(
        self,
        node: Node,
        url: str,
        cursor_on: str | None = None,
        select: bool = False,
        typed: bool = False,
        turn: int = 0,
    ) -> Step:
        """Fetch `url` into `node`; the fetch in flight, if any, is given up, and the page turns that
        were to follow it (anything but a page turn is asked for: they are not wanted any more)."""
        if self.fetching is not None:
            self.relabel.add(self.fetching.node)
        if not turn:
            self.turns_ahead = 0
        self.fetching = Fetch(node, url, cursor_on, typed, turn)
        self.requested = node
        node.asked = url
        if not typed:  # a typed URL's refusal is not the node's: it keeps what it says until an answer
            node.error = None
        self.relabel.add(node)
        return Step(fetch=self.fetching, select=node if select else None)

    def url_for(self, node: Node, url: str) -> str:
        """`url` as the view asks for it: the switches on, and a list's chosen page size."""
        values = {name: "true" for name in SWITCHES if name in self.switched}
        if node.page_size:
            values["itemsPerPage"] = str(node.page_size)
        return with_query(url, tuple(name for name in SWITCHES if name not in self.switched), **values)

    def arrived(self, fetch: Fetch, resource: Resource) -> Step:
        """The answer to `fetch` came: keep it, make the node's children, show it if it is wanted."""
        if self.fetching is fetch:
            self.fetching = None
        node = fetch.node
        node.stale = False
        if self.stray(fetch) and (resource.error is not None or resource.status >= 400):
            return self.refused(fetch, resource=resource)
        if resource.error is None and resource.status < 400:
            self.open_at.setdefault(without_query(resource.url), node)
            self.relabel.update(self.by_key.get(without_query(resource.url), ()))
        if resource.page_or_array is not None and resource.error is None:
            self.show_page(node, resource)
        elif resource.status >= 400 and resource.status not in GONE and node.filled:
            node.resource, node.error = resource, None  # a 429 on `r`: shown, and what it held stays
        else:
            self.fill(node, resource)
        self.relabel.add(node)
        if self.requested is not node:
            return Step()
        step = self.show_step(node, cursor_on=fetch.cursor_on)
        turns, self.turns_ahead = self.turns_ahead, 0
        if fetch.turn and turns and resource.page_or_array is not None and resource.error is None:
            ahead = 1 if turns > 0 else -1
            then = self.turn_page(ahead)  # from the page that came: its own next or previous link
            step.fetch, step.note = then.fetch, then.note or step.note
            if then.fetch is not None:  # not past the first or the last page: the rest follow it
                self.turns_ahead = turns - ahead
        return step

    def failed(self, fetch: Fetch, error: ApiError) -> Step:
        """No answer to `fetch` (refused, unreachable, no token): the node says so, and the page turns
        pressed after it are not made."""
        if self.fetching is fetch:
            self.fetching = None
            self.turns_ahead = 0
        if self.stray(fetch):
            return self.refused(fetch, error=error)
        fetch.node.error = error
        self.relabel.add(fetch.node)
        if self.requested is not fetch.node:
            return Step()
        self.history.visit(page_key(fetch.url))  # the failure is what you look at now: Back leaves it
        return self.show_step(fetch.node, record=False)

    @staticmethod
    def stray(fetch: Fetch) -> bool:
        """Whether `fetch` is a URL typed for a node that is not the node's own (a query added to a
        link's URL, say): its refusal is shown, but is not the node's to keep."""
        return fetch.typed and page_key(fetch.url) != page_key(fetch.node.url or "")

    def refusal_of(self, node: Node) -> bool:
        """Whether what is in view is the refusal of a URL typed for `node` (`/groups?itemsPerPage=…`)."""
        current = self.current
        return current is not None and current.kind == "refused" and current.parent is node

    def refused(self, fetch: Fetch, resource: Resource | None = None, error: ApiError | None = None) -> Step:
        """A typed URL refused (`g /groups?itemsPerPage=99999999999999999999`): the refusal is shown,
        the node it names stays as it was, and r or Enter on that node asks for its own URL again."""
        node = fetch.node
        self.relabel.add(node)
        if self.requested is not node:
            return Step()
        self.history.visit(page_key(fetch.url))  # the refusal is what you look at now: Back leaves it
        refusal = Node("refused", fetch.url, node.title, node, resource=resource, error=error)
        refusal.asked = fetch.url
        self.requested = self.current = refusal
        return Step(show=refusal)

    def cancelled(self, fetch: Fetch) -> None:
        """Esc, or a fetch given up for another: you are back where you were."""
        if self.fetching is fetch:
            self.fetching = None
            self.turns_ahead = 0
            self.relabel.add(fetch.node)
        if self.requested is fetch.node:
            self.requested = self.current

    def show_step(self, node: Node, select: bool = False, cursor_on: str | None = None, record: bool = True) -> Step:
        """Put `node` in the panes (and the history)."""
        self.requested = self.current = node
        if record and node.resource is not None:
            self.history.visit(page_key(node.resource.url))
        return Step(show=node, select=node if select else None, cursor_on=cursor_on)

    def highlighted(self, node: Node) -> Step:
        """The cursor moved onto a node: show it if it has something to show (an answer or a failure)."""
        if node is self.current or self.is_fetching(node) or (node.resource is None and node.error is None):
            return Step()
        if node.stale:  # a list that holds an item known to be deleted: visited, it is fetched again
            return self.open(node, reload=True)
        if self.refusal_of(node):
            return Step()  # the cursor put on the node a typed URL named: its refusal stays in view
        return self.show_step(node)

    def go(self, node: Node) -> Step:
        """Move to a node that is already open (an `↺ open elsewhere` node leads here)."""
        self.attach(node)
        return self.show_step(node, select=True)

    # Children ---------------------------------------------------------------------------------

    def fill(self, node: Node, resource: Resource) -> None:
        """An entity (or a failure) arrived: its relations become its children."""
        for child in node.pool.values():
            if child not in node.children:
                self.forget(child)
        node.pool.clear()
        node.pages.clear()
        node.listed_page_key = None
        node.resource, node.error = resource, None
        made: list[Node] = []
        if resource.error is None:
            made = [relation(link, node) for link in resource.relations]
            made += self.documented(node, resource, made)
        typed = [child for child in node.children if child.kind == "goto"]  # `g` put them here, not a link
        old: dict[tuple[str, str | None, str], Node] = {
            (child.kind, child.url, child.title): child for child in node.children if child.kind != "goto"
        }
        children = [
            old.pop(key) if (key := (child.kind, child.url, child.title)) in old else self.index(child)
            for child in made
        ]
        for gone in old.values():
            self.forget(gone)
        self.set_children(node, children + typed)

    def set_description(self, description: Description) -> None:
        """The API description came after the root (found where the service publishes it): the root
        gains the documented paths its links leave out, as it would have had them from the start."""
        self.description = description
        root = self.root
        resource = root.resource
        if resource is not None and resource.error is None and resource.status < 400 and resource.page_or_array is None:
            self.fill(root, resource)
            self.relabel.add(root)

    def documented(self, node: Node, resource: Resource, linked: list[Node]) -> list[Node]:
        """The description's paths below `resource` that its links leave out; links it does not know marked."""
        description = self.description
        if description is None:
            return []
        for link in linked:
            link.undocumented = not description.knows(path_of(link.url or ""))
        covered = {path_of(link.url or "").rstrip("/") for link in linked}
        parts = urlsplit(resource.url)
        return [
            Node("documented", urlunsplit((parts.scheme, parts.netloc, child.path, "", "")), child.name, node)
            for child in description.children(parts.path)
            if child.path not in covered
        ]

    def show_page(self, node: Node, resource: Resource) -> None:
        """A page of a list: its items become the list's children, with links to the pages beside it.

        Item nodes are kept in the list's pool, so an item met again (on this page fetched anew,
        with another page size, or back on a page shown before) is the same node, still open.
        A bare array is a list of one page, with no links beside it.
        """
        page = resource.page_or_array
        if page is None:
            raise ValueError(f"{resource.url} is not a list")
        key = page_key(resource.url)
        if key != node.listed_page_key:  # another page: the tree lists its first items only
            node.items_listed = ITEMS_AT_ONCE
        if not node.pages:  # a list for the first time: whatever it held before goes
            for child in node.children:
                self.forget(child)
        was_here = [item for item in node.pool.values() if item.page == key]  # this page's items last time
        made: list[Node] = []
        if page.previous_href:
            made.append(Node("previous", page.previous_href, "‹ previous page", node, page=key))
        template = self.description.item_template(urlsplit(resource.url).path) if self.description else None
        by_url: dict[str, tuple[str, str]] | None = None  # the pool by URL alone, made at the first miss
        for index, item in enumerate(page.results[: node.items_listed]):
            title, ident = item_title(item, index)
            url = self_href(item) or (item_href(item, resource.url, template) if template else None)
            item_node = node.pool.get((url, title)) if url else None
            if item_node is None and url:  # the same item renamed (a PATCH of its name) is still the same node
                by_url = by_url if by_url is not None else {key[0]: key for key in node.pool}
                renamed = by_url.get(url)
                if renamed is not None and renamed in node.pool:
                    item_node = node.pool.pop(renamed)
                    item_node.title = title
                    node.pool[(url, title)] = item_node
                    self.relabel.add(item_node)
            if item_node is None:
                item_node = self.index(Node("item", url, title, node, document=item, ident=ident))
                if url:
                    node.pool[(url, title)] = item_node
            item_node.document, item_node.ident, item_node.page = item, ident, key
            made.append(item_node)
        rest = len(page.results) - node.items_listed
        if rest > 0:  # a page far larger than a service's 500: the tree lists it a part at a time
            count = min(rest, ITEMS_AT_ONCE)
            which = "the" if count == rest else "the next"
            title = f"… {counted(rest, 'more item')} on this page: Enter lists {which} {count:,}"
            made.append(Node("more", None, title, node, page=key))
        if page.next_href:
            pages = f" (page {page.number + 1} of {page.pages})" if page.pages else ""
            made.append(Node("next", page.next_href, f"next page ›{pages}", node, page=key))
        for gone in was_here:
            if gone.page == key and gone not in made:  # no longer on this page, nor on any seen since
                del node.pool[(gone.url or "", gone.title)]
                self.forget(gone)
        node.resource, node.error, node.listed_page_key = resource, None, key
        node.pages[key] = resource
        self.set_children(node, made)

    def item_at(self, node: Node, index: int) -> Node | None:
        """The tree's node for item `index` of the page a list shows, listing more of the page if needed."""
        resource = node.resource
        page = resource.page_or_array if resource is not None else None
        if resource is None or page is None or not 0 <= index < len(page.results):
            return None
        if index >= node.items_listed:
            node.items_listed = (index // ITEMS_AT_ONCE + 1) * ITEMS_AT_ONCE
            self.show_page(node, resource)
        item = page.results[index]
        return next((child for child in node.children if child.kind == "item" and child.document is item), None)

    def set_children(self, node: Node, children: list[Node]) -> None:
        node.children = children
        node.filled = True
        self.regrow.add(node)
        self.relabel.add(node)

    def index(self, node: Node) -> Node:
        if node.key is not None:
            self.by_key.setdefault(node.key, []).append(node)
        return node

    def forget(self, node: Node) -> None:
        """A node that is gone from the tree, with everything below it."""
        for child in {id(c): c for c in [*node.children, *node.pool.values()]}.values():
            self.forget(child)
        key = node.key
        if key is None:
            return
        same = self.by_key.get(key, [])
        if node in same:
            same.remove(node)
        if not same:
            self.by_key.pop(key, None)
        if self.open_at.get(key) is node:
            del self.open_at[key]
            self.relabel.update(same)  # no longer open elsewhere
        if self.fetching is not None and self.fetching.node is node:
            self.fetching = None
        for attribute in ("requested", "current"):
            if getattr(self, attribute) is node:
                setattr(self, attribute, None)

    def switch_page(self, node: Node, key: str) -> None:
        """Show a page of a list that was shown before, as it was, without asking again."""
        self.show_page(node, node.pages[key])

    def attach(self, node: Node) -> None:
        """Make `node` part of the tree shown: each list above it on the page it was listed on."""
        child = node
        for parent in node.ancestors():
            if child.page is not None and parent.listed_page_key != child.page and child.page in parent.pages:
                self.switch_page(parent, child.page)
            child = parent

    # Lists ------------------------------------------------------------------------------------

    def turn_page(self, step: int) -> Step:
        """`]` and `[`: the next or previous page of the list in view. Pressed while a page turn of
        that list is in flight, it follows that one, from the page it brings (`]]]` turns three
        pages: each page's `next` link is the only way to the one after it)."""
        node = self.list_in_view()
        if self.fetching is not None and self.fetching.turn and self.fetching.node is node:
            self.turns_ahead += step
            return Step()
        if node is None or node.resource is None or node.resource.page_or_array is None:
            return Step(note="Not a list: [ and ] turn the pages of a list.")
        page = node.resource.page_or_array
        if not page.paged:
            return Step(note=f"A bare array has no pages: all {counted(len(page.results), 'item')} are on this one.")
        href = page.next_href if step > 0 else page.previous_href
        if not href:
            return Step(note="This is the last page." if step > 0 else "This is the first page.")
        return self.request(node, self.url_for(node, href), select=True, turn=step)

    def resize_page(self, step: int, cursor_on: str | None = None) -> Step:
        """`+` and `-`: more or fewer items per page, on the page that holds the item under the cursor."""
        node = self.list_in_view()
        if node is None or node.resource is None or node.resource.page_or_array is None:
            return Step(note="Not a list: + and - change the items on a list's page.")
        page = node.resource.page_or_array
        if not page.paged:
            return Step(
                note=f"A bare array has no pages to size: all {counted(len(page.results), 'item')} are on this one."
            )
        size = node.page_size or page.size
        if step > 0:  # the next listed size from any size (2 per page: 10, not the one after the nearest)
            new = min((listed for listed in PAGE_SIZES if listed > size), default=size)
        else:
            new = max((listed for listed in PAGE_SIZES if listed < size), default=size)
        if new == size and size in PAGE_SIZES:
            return Step(note=f"{size} per page is the {'most' if step > 0 else 'fewest'} there can be.")
        if new == size:  # asked with a size beyond the list (`?itemsPerPage=3`)
            bound = f"higher than {PAGE_SIZES[-1]}" if step > 0 else f"lower than {PAGE_SIZES[0]}"
            return Step(note=f"{size} per page: {'+' if step > 0 else '-'} goes no {bound}.")
        at = place_of(page.results, cursor_on) or 0
        first = (max(1, page.number) - 1) * page.size + at  # the item's place in the whole list
        node.page_size = new
        url = with_query(node.resource.url, pageNum=str(first // new + 1), itemsPerPage=str(new))
        return self.request(node, self.url_for(node, url), cursor_on=cursor_on, select=True)

    # Switches, reload, go-to, history ---------------------------------------------------------

    def reload(self, cursor_on: str | None = None) -> Step:
        """`r`: the node in view again, on the page it is on."""
        node = self.current or self.requested
        if node is None:
            return Step()
        if node.kind == "refused" and node.parent is not None:  # a typed URL refused: the node it named
            return self.open(node.parent, reload=True, cursor_on=cursor_on)
        return self.open(node, reload=True, cursor_on=cursor_on)

    def switch(self, name: str, cursor_on: str | None = None) -> Step:
        """`p` and `e`: turn a switch on or off, and ask again for what is in view."""
        self.switched ^= {name}
        step = self.reload(cursor_on)
        step.note = f"{name}={'true' if name in self.switched else 'false'}"
        return step

    def find(self, url: str) -> Node | None:
        """The node for a URL: where it is open, else any node that links to it."""
        key = without_query(url)
        return self.open_at.get(key) or next(iter(self.by_key.get(key, ())), None)

    def goto(self, url: str) -> Step:
        """`g`: a URL typed in. Where the tree has it, go there; else a `go to` node under the root."""
        node = self.find(url)
        if node is None:
            node = Node("goto", url, "go to", self.root)
            self.index(node)
            self.root.children.append(node)
            self.regrow.add(self.root)
        self.attach(node)
        if any(name == "itemsPerPage" for name, _ in parse_qsl(urlsplit(url).query)):
            node.page_size = None  # the size typed wins over one chosen with + or - before
        wanted = page_key(url)
        if node.resource is not None and (page_key(node.resource.url) == wanted or wanted in node.pages):
            if wanted in node.pages and node.listed_page_key != wanted:
                self.switch_page(node, wanted)
            return self.show_step(node, select=True)
        return self.request(node, self.url_for(node, url), select=True, typed=True)

    def back(self) -> Step:
        return self.revisit(self.history.back, "Nothing to go back to.")

    def back_from_refusal(self) -> Step:
        """Back from a target refused before it was sent (`g` with a character nobody sees): the page
        you were on, which the history is still at, since nothing was visited."""
        here = [self.history.current]
        return self.revisit(lambda: here.pop() if here else self.history.back(), "Nothing to go back to.")

    def forward(self) -> Step:
        return self.revisit(self.history.forward, "Nothing to go forward to.")

    def revisit(self, move: Callable[[], str | None], nothing: str) -> Step:
        """Back or forward to a URL: its node as it was (a list on that page), fetched if it was lost.

        A URL whose node is gone from the tree (an item no longer listed) is passed over.
        """
        url = move()
        while url is not None and self.find(url) is None:
            url = move()
        if url is None:
            return Step(note=nothing)
        node = self.find(url)
        if node is None:  # the loop above stops only on a URL it finds
            raise LookupError(url)
        self.attach(node)
        stored = node.pages.get(url)
        if stored is not None and self.as_switched(stored):
            if node.listed_page_key != url:
                self.switch_page(node, url)
            return self.show_step(node, select=True, record=False)
        if node.resource is not None and page_key(node.resource.url) == url and self.as_switched(node.resource):
            return self.show_step(node, select=True, record=False)
        return self.request(node, self.url_for(node, url), select=True, typed=True)

    def as_switched(self, resource: Resource) -> bool:
        """Whether an answer was asked for with the switches as they are now (else it is asked again)."""
        query = parse_qsl(urlsplit(resource.url).query)
        return {name for name, value in query if name in SWITCHES and value == "true"} == self.switched
