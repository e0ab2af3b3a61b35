"""The explorer screen: the link tree on the left, the panes on the right, the status bar below.

A keypress runs an action here; the action starts a worker that awaits Session.fetch; the result
goes down to each widget through its `show` method. Widgets never fetch. One fetch runs at a time:
a new one cancels the one in flight, and Esc cancels it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Header, TabbedContent, TabPane, Tree
from textual.widgets.tree import TreeNode

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.tui.curl import as_curl
from explorer.tui.history import History
from explorer.tui.safe import visible
from explorer.tui.screens.dialogs import AskScreen, ErrorScreen
from explorer.tui.widgets.headers_view import HeadersView
from explorer.tui.widgets.json_view import JsonPane
from explorer.tui.widgets.link_tree import Entry, LinkTree, without_query
from explorer.tui.widgets.page_view import ItemsTable, PageView
from explorer.tui.widgets.request_log import RequestLog
from explorer.tui.widgets.status_bar import StatusBar

PAGE_SIZES = (10, 25, 50, 100, 200, 500)
SWITCHES = ("pretty", "envelope")  # query parameters p and e turn on and off


class MainScreen(Screen[None]):
    AUTO_FOCUS = "#tree"
    BINDINGS = [
        Binding("backspace,alt+left", "back", "Back", id="explorer.back"),
        Binding("alt+right", "forward", "Forward", show=False, id="explorer.forward"),
        Binding("g", "go_to", "Go to", id="explorer.go_to"),
        Binding("right_square_bracket", "page(1)", "Next page", id="explorer.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="explorer.previous_page"),
        Binding("r", "reload", "Reload", id="explorer.reload"),
        Binding("p", "switch('pretty')", "pretty=true", show=False, id="explorer.toggle_pretty"),
        Binding("e", "switch('envelope')", "envelope=true", show=False, id="explorer.toggle_envelope"),
        Binding("plus", "page_size(1)", "More a page", show=False, id="explorer.page_size_up"),
        Binding("minus", "page_size(-1)", "Fewer a page", show=False, id="explorer.page_size_down"),
        Binding("slash", "search", "Search", id="explorer.search"),
        Binding("y", "copy_url", "Copy URL", show=False, id="explorer.copy_url"),
        Binding("Y", "copy_curl", "Copy as curl", show=False, id="explorer.copy_curl"),
        Binding("s", "save", "Save body", show=False, id="explorer.save"),
        Binding("x", "show_error", "Last error", show=False, id="explorer.show_error"),
        Binding("escape", "cancel", "Cancel", show=False, id="explorer.cancel"),
        Binding("1", "tab('page')", "Page", show=False, id="explorer.tab_page"),
        Binding("2", "tab('json')", "JSON", show=False, id="explorer.tab_json"),
        Binding("3", "tab('headers')", "Headers", show=False, id="explorer.tab_headers"),
        Binding("4", "tab('log')", "Log", show=False, id="explorer.tab_log"),
        Binding("question_mark", "help", "Help", id="explorer.help"),
        Binding("q", "quit", "Quit", id="explorer.quit"),
    ]
    DEFAULT_CSS = """
    MainScreen > #body { height: 1fr; }
    MainScreen LinkTree { width: 38%; max-width: 70; }
    MainScreen TabbedContent { width: 1fr; }
    MainScreen TabPane { padding: 0; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.history = History()
        self.switched: set[str] = set()  # of pretty and envelope: the ones on (p and e)
        self.page_size: int | None = None
        self.current: TreeNode[Entry] | None = None
        self.last_error: ApiError | None = None
        self.busy: TreeNode[Entry] | None = None
        self.wanted: TreeNode[Entry] | None = None  # the node the user last asked to see

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield LinkTree(id="tree")
            with TabbedContent(id="panes"):
                with TabPane("Page", id="page"):
                    yield PageView()
                with TabPane("JSON", id="json"):
                    yield JsonPane()
                with TabPane("Headers", id="headers"):
                    yield HeadersView()
                with TabPane("Log", id="log"):
                    yield RequestLog()
        yield StatusBar()
        yield Footer()

    @property
    def links(self) -> LinkTree:
        return self.query_one(LinkTree)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.session)
        self.set_interval(1.0, self.refresh_log)
        root = self.links.start(str(self.session.base_url))
        self.links.focus()
        self.update_title()
        self.request(root)

    # Fetching -----------------------------------------------------------------------------

    def switches(self) -> dict[str, str]:
        """pretty and envelope, as toggled with p and e."""
        return {name: "true" for name in SWITCHES if name in self.switched}

    def params_for(self, entry: Entry) -> dict[str, str]:
        params = self.switches()
        if self.page_size and entry.resource is not None and entry.resource.page is not None:
            params["itemsPerPage"] = str(self.page_size)
            params["pageNum"] = "1"
        return params

    def request(self, node: TreeNode[Entry], url: str | None = None) -> None:
        """Fetch into `node` (its own URL, or `url`: another page of it), unless that is under way.

        One fetch runs at a time: starting one cancels the one in flight.
        """
        self.wanted = node
        if self.busy is node and url is None:
            return
        self.busy = node
        self.links.mark_loading(node, True)
        self.fetch_into(node, url)

    @work(exclusive=True, group="fetch")
    async def fetch_into(self, node: TreeNode[Entry], url: str | None) -> None:
        entry = node.data
        assert entry is not None
        target = url or entry.url
        assert target is not None
        # Another page keeps the paging its link says; either way the view's switches apply.
        params = self.switches() if url else self.params_for(entry)
        try:
            resource = await self.session.fetch(target, params=params)
        except ApiError as error:
            self.links.mark_failed(node, error)
            self.failed(error)
            return
        except asyncio.CancelledError:
            self.links.mark_loading(node, False)
            raise
        finally:
            if self.busy is node:
                self.busy = None
            self.refresh_log()
        self.links.fill(node, resource)
        if self.wanted is node:  # still what the user wants to see
            self.show(node)
        if resource.page is None and resource.error is None:
            node.expand()

    def failed(self, error: ApiError) -> None:
        self.last_error = error
        self.query_one(PageView).show_error(error)
        self.query_one(StatusBar).show_error(error)
        self.query_one(TabbedContent).active = "page"

    def show(self, node: TreeNode[Entry]) -> None:
        """Put a node's resource in every pane."""
        entry = node.data
        assert entry is not None
        self.current = node
        resource = entry.resource
        if resource is None:
            if entry.document is not None:
                self.query_one(PageView).show_document(entry.document)
            elif entry.error is not None:
                self.query_one(PageView).show_error(entry.error)
            return
        self.history.visit(resource.url)
        self.query_one(PageView).show(resource)
        self.query_one(JsonPane).show(resource)
        self.query_one(HeadersView).show(resource)
        status = self.query_one(StatusBar)
        status.show_response(resource)
        if resource.error is not None:
            self.last_error = resource.error
            status.show_error(resource.error)
        self.update_title()

    def refresh_log(self) -> None:
        self.query_one(RequestLog).show(self.session.log)

    def update_title(self) -> None:
        switches = [f"{name}={value}" for name, value in self.switches().items()]
        if self.page_size:
            switches.append(f"itemsPerPage={self.page_size}")
        resource = self.current_resource()
        where = visible(resource.url) if resource else str(self.session.base_url)
        self.title = "explorer"
        self.sub_title = " · ".join([where, *switches])

    # Opening nodes ------------------------------------------------------------------------

    def open(self, node: TreeNode[Entry], reload: bool = False) -> None:
        entry = node.data
        if entry is None:
            return
        if entry.kind in ("next", "previous"):
            self.turn_page(node)
            return
        if entry.seen and entry.url:
            original = self.links.open.get(without_query(entry.url))
            if original is not None:
                self.links.move_cursor(original)
                self.show(original)
                return
        if entry.url is None or (entry.resource is not None and not reload):
            self.wanted = node
            self.show(node)
            return
        if not entry.loading:
            self.request(node)

    def turn_page(self, node: TreeNode[Entry]) -> None:
        """A next/previous node: load that page into its list."""
        parent = node.parent
        if parent is None or node.data is None or node.data.url is None:
            return
        self.links.move_cursor(parent)
        self.request(parent, url=node.data.url)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Entry]) -> None:
        if event.control is self.links:
            self.open(event.node)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Entry]) -> None:
        if event.control is not self.links:
            return
        entry = event.node.data
        wanted = entry is not None and not (entry.filled or entry.loading or entry.seen)
        if wanted and entry and entry.url and entry.kind not in ("next", "previous"):
            self.request(event.node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Entry]) -> None:
        node = event.node
        if event.control is not self.links or node is self.current or node is self.busy:
            return  # already shown, or on its way
        if node.data is not None and node.data.resource is not None:
            self.wanted = node
            self.show(node)

    def on_items_table_open(self, event: ItemsTable.Open) -> None:
        """Enter on a row of the Page pane: open that item in the tree."""
        node = self.current
        if node is None:
            return
        items = [child for child in node.children if child.data and child.data.kind == "item"]
        if 0 <= event.index < len(items):
            node.expand()
            self.links.move_cursor(items[event.index])
            self.open(items[event.index])

    def on_status_bar_error_selected(self, event: StatusBar.ErrorSelected) -> None:
        self.action_show_error()

    # Actions -----------------------------------------------------------------------------

    def visit(self, url: str | None) -> None:
        if url is None:
            return
        node = self.links.open.get(without_query(url))
        if node is not None and node.data and node.data.resource and node.data.resource.url == url:
            self.links.move_cursor(node)
            self.show(node)
        else:
            self.goto(url)

    def goto(self, url: str) -> None:
        node = self.links.add_goto(url)
        self.call_after_refresh(self.links.move_cursor, node)  # a new node has its line after a refresh
        self.request(node)

    def action_back(self) -> None:
        self.visit(self.history.back())

    def action_forward(self) -> None:
        self.visit(self.history.forward())

    def action_go_to(self) -> None:
        def go(target: str | None) -> None:
            if target:
                try:
                    url = str(self.session.resolve(target))
                except ApiError as error:
                    self.failed(error)
                    return
                self.goto(url)

        self.app.push_screen(AskScreen("Go to a path under the API root, or a URL:", placeholder="/groups"), go)

    def list_node(self) -> TreeNode[Entry] | None:
        """The list the cursor is in: the current node if it is a list, else its parent."""
        node = self.current
        while node is not None:
            if node.data and node.data.resource and node.data.resource.page is not None:
                return node
            node = node.parent
        return None

    def action_page(self, step: int) -> None:
        node = self.list_node()
        page = node.data.resource.page if node and node.data and node.data.resource else None
        if node is None or page is None:
            self.notify("Not a list: [ and ] turn the pages of a list.")
            return
        href = page.next_href if step > 0 else page.previous_href
        if not href:
            self.notify("This is the last page." if step > 0 else "This is the first page.")
            return
        self.links.move_cursor(node)
        self.request(node, url=href)

    def action_reload(self) -> None:
        if self.current is not None:
            self.open(self.current, reload=True)

    def action_switch(self, name: str) -> None:
        """Turn pretty=true or envelope=true on or off, and ask again."""
        self.switched ^= {name}
        self.notify(f"{name}={'true' if name in self.switched else 'false'}")
        self.update_title()
        self.action_reload()

    def action_page_size(self, step: int) -> None:
        node = self.list_node()
        if node is None or node.data is None or node.data.resource is None or node.data.resource.page is None:
            self.notify("Not a list: + and - change the items on a list's page.")
            return
        size = self.page_size or node.data.resource.page.size
        index = min(range(len(PAGE_SIZES)), key=lambda i: abs(PAGE_SIZES[i] - size))
        self.page_size = PAGE_SIZES[max(0, min(len(PAGE_SIZES) - 1, index + step))]
        self.update_title()
        self.links.move_cursor(node)
        self.current = node
        self.request(node)

    def action_search(self) -> None:
        self.query_one(TabbedContent).active = "json"
        self.query_one(JsonPane).open_search()

    def current_resource(self) -> Resource | None:
        if self.current is None or self.current.data is None:
            return None
        return self.current.data.resource

    def action_copy_url(self) -> None:
        resource = self.current_resource()
        if resource:
            self.app.copy_to_clipboard(resource.url)
            self.notify(f"Copied {visible(resource.url)}", markup=False)

    def action_copy_curl(self) -> None:
        resource = self.current_resource()
        if resource:
            command = as_curl(resource, api_key=self.session.token_state is None)
            self.app.copy_to_clipboard(command)
            self.notify(f"Copied {visible(command)}", markup=False)

    def action_save(self) -> None:
        resource = self.current_resource()
        if resource is None:
            return
        name = Path(urlsplit(resource.url).path).name or "body"
        suggestion = f"{name}.json" if resource.json is not None else name

        def save(path: str | None) -> None:
            if not path:
                return
            target = Path(path).expanduser()
            try:
                with target.open("xb") as file:  # never over a file that is there: nothing is lost
                    file.write(resource.body)
            except FileExistsError:
                self.notify(
                    f"{visible(target)} exists already: save under another name", severity="error", markup=False
                )
                return
            except OSError as error:
                self.notify(f"Cannot save to {visible(target)}: {error.strerror}", severity="error", markup=False)
                return
            self.notify(f"Saved {resource.size:,} bytes to {visible(target)}", markup=False)

        self.app.push_screen(AskScreen("Save the body, as received, to:", value=suggestion), save)

    def action_show_error(self) -> None:
        if self.last_error is not None:
            self.app.push_screen(ErrorScreen(self.last_error))
        else:
            self.notify("No error so far.")

    def action_cancel(self) -> None:
        if self.busy is not None:
            self.workers.cancel_group(self, "fetch")
            self.notify("Cancelled.")

    def action_tab(self, name: str) -> None:
        self.query_one(TabbedContent).active = name

    def action_help(self) -> None:
        from explorer.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        await self.app.action_quit()
