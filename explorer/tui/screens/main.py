"""The explorer screen: the link tree on the left, the panes on the right, the status bar below.

Where you are lives in one place, the navigation model (navigation.py). A key or a click becomes a
call on the model; the model answers with a Step (fetch this, show that, move the cursor there),
which `apply_step` carries out: the tree redraws what changed, a worker awaits Session.fetch, and
the response goes back into the model and down to each pane through its `show` method. Widgets
never fetch. One fetch runs at a time: a new one gives up the one in flight, and Esc cancels it.

Most of this module is key handling: each binding of the explorer has an action here, a few lines
that call the model or open a dialog; the real work is in the model and the widgets.
"""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Input, TabbedContent, TabPane
from textual.worker import get_current_worker

from explorer.api.changes import Compared, changes
from explorer.api.errors import ApiError
from explorer.api.filters import JqError, JqRunner, compiled
from explorer.api.history import HistoryEntry, local_time
from explorer.api.local_paths import cannot_write, is_file, write_new
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.urls import origin_text
from explorer.api.watching import EVERY, FASTEST, NOT_THERE, SLOWEST, Version, Watch, time_of_day
from explorer.api.writes import Outgoing, WriteChoice
from explorer.tui.hint_words import screen_hint
from explorer.tui.navigation import Navigation
from explorer.tui.nodes import Fetch, Node, Step, place_of, self_href
from explorer.tui.panes import PANES, ShowsPage, showing_page
from explorer.tui.safe_text import UNSAFE, visible
from explorer.tui.screen_state import load_state, save_state
from explorer.tui.screens.dialogs import AskScreen, ErrorScreen, GoToScreen, save_question
from explorer.tui.typeahead import TypedAhead
from explorer.tui.url_layout import title_url
from explorer.tui.watch_flow import Marked, WatchFlow, badge_of, made_by, name_of, same_resource, suggestion_for
from explorer.tui.widgets.items_table import ItemsTable
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.widgets.line_tree import LineTree
from explorer.tui.widgets.link_tree import LinkTree
from explorer.tui.widgets.page_view import PageView
from explorer.tui.widgets.previous_answer import PreviousAnswer
from explorer.tui.widgets.request_log import ID_SEGMENT, RequestLog, short_id
from explorer.tui.widgets.splitter import Splitter
from explorer.tui.widgets.status_bar import StatusBar, UnderWay
from explorer.tui.widgets.watch_view import WatchView

if TYPE_CHECKING:  # imported at the first write, not at launch
    from explorer.tui.write_flow import WriteFlow

TREE_STEP = 4  # columns a < or > makes the tree narrower or wider
HEADER_ICON_AND_CLOCK = 18  # the columns of Textual's header that are not its title
PENDING_MARK_AFTER = 0.15  # seconds a fetch goes on before its line says `…`: a quicker answer never flashes it
# The least width the panes keep beside the tree: what the Page pane's table needs for an item's id
# and name. The row of five tabs (panes.py) takes 33 of it, each title with a column either side; a
# sixth pane's tab would not fit, and would be cut off until selected.
MIN_PANES = 36


NAME_BYTES = 120  # the most bytes of a name `s` offers: file systems take 255, and a suffix goes after


def body_file_name(url: str, is_json: bool) -> str:
    """The name `s` offers for a body: the URL's last segment as a person reads it (`ö`, not
    `%C3%B6`), with nothing a file name cannot hold, cut to NAME_BYTES; `.json` after a JSON body."""
    segment = last_segment(url)
    name = UNSAFE.sub("_", "" if segment == "/" else segment).replace("/", "_")
    name = name.encode()[:NAME_BYTES].decode(errors="ignore").strip(". ") or "body"
    return f"{name}.json" if is_json else name


def free_name(name: str) -> str:
    """`name`, or `stem-2.json`, `stem-3.json`…: the first that names no file here (`s` never
    offers a name it would then refuse). A name the file system cannot check is offered as it is:
    saving says why it cannot be used."""
    path = Path(name)
    number = 1
    try:
        while path.exists():
            number += 1
            path = Path(f"{Path(name).stem}-{number}{Path(name).suffix}")
    except OSError:
        return name
    return str(path)


def last_segment(url: str) -> str:
    """What a URL names, short: its path's last segment (`clusters`, `reporting`)."""
    return unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2]) or "/"


def jq_problem(text: str) -> str | None:
    """What is wrong with a jq program as typed, said under the line; None when it compiles."""
    try:
        compiled(text)
    except JqError as error:
        return f"Not jq: {error}"
    return None


ANSWERS = {
    201: "the service made it",
    202: "the service goes on with it (w watches how far)",
    204: "done; the service sends no body",
    200: "done",
}
PAGING = ("page(", "page_size(")  # the actions that act on the page shown, turning or resizing it
# The widgets a step updates: the tree, every pane, the status bar
STEPPED: tuple[type[Widget], ...] = (LinkTree, *(pane.widget for pane in PANES), StatusBar)
SHOWING_PAGE = tuple(pane.widget for pane in PANES if pane.shows_page)  # a key to one waits for the page on its way


class MainScreen(Screen[None]):
    class FetchEnded(Message):
        """A fetch asked for has ended (shown, failed or given up): the keys held for its page go in."""

    class InputFocusChanged(Message):
        """An input field (the JSON pane's search) gained or lost focus: notifications move above
        it, or back down above the status bar."""

    AUTO_FOCUS = "#tree"
    BINDINGS = [
        Binding("backspace,alt+left", "back", "Back", id="explorer.back"),
        Binding("alt+right", "forward", "Forward", show=False, id="explorer.forward"),
        Binding("g", "go_to", "Go to", id="explorer.go_to"),
        Binding("right_square_bracket", "page(1)", "Next page", id="explorer.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="explorer.previous_page"),
        Binding("r", "reload", "Reload", id="explorer.reload"),
        Binding(
            "p",
            "toggle_param('pretty')",
            "Pretty JSON from the service (pretty=true)",
            show=False,
            id="explorer.toggle_pretty",
        ),
        Binding(
            "e",
            "toggle_param('envelope')",
            "The status in the body (envelope=true)",
            show=False,
            id="explorer.toggle_envelope",
        ),
        Binding("plus", "page_size(1)", "More per page (a watch: slower)", show=False, id="explorer.page_size_up"),
        Binding(
            "minus", "page_size(-1)", "Fewer per page (a watch: quicker)", show=False, id="explorer.page_size_down"
        ),
        Binding("slash", "search", "Search", id="explorer.search"),
        Binding("y", "copy_url", "Copy URL", show=False, id="explorer.copy_url"),
        Binding("Y", "copy_curl", "Copy as curl", show=False, id="explorer.copy_curl"),
        Binding("C", "copy_command", "Copy as explorer get", show=False, id="explorer.copy_command"),
        Binding("s", "save", "Save body", show=False, id="explorer.save"),
        Binding("x", "show_error", "Last error", show=False, id="explorer.show_error"),
        Binding("a", "act", "Act", id="explorer.act"),
        Binding("w", "watch", "Watch", id="explorer.watch"),
        Binding("m", "mark", "Mark to compare", show=False, id="explorer.mark"),
        Binding("equals_sign", "compare", "Compare", show=False, id="explorer.compare"),
        Binding("vertical_line", "filter", "jq filter", show=False, id="explorer.filter"),
        Binding("u", "undo", "Undo the last PATCH or PUT", show=False, id="explorer.undo"),
        Binding("H", "history", "History", show=False, id="explorer.history"),
        Binding("b", "baseline", "Save as a baseline", show=False, id="explorer.baseline"),
        Binding("escape", "cancel", "Cancel", show=False, id="explorer.cancel"),
        *(pane.binding for pane in PANES),  # 1, 2…: a pane shown, and the keys given to it (panes.py)
        # Textual's own Tab, named: after a pane's key the pane has the keys, and Tab is the way back to the tree
        Binding("tab", "app.focus_next", "Focus next: tree, tabs, pane", show=False, id="explorer.focus_next"),
        Binding(
            "shift+tab",
            "app.focus_previous",
            "Focus previous: pane, tabs, tree",
            show=False,
            id="explorer.focus_previous",
        ),
        Binding("less_than_sign", "tree_width(-1)", "Narrower tree", show=False, id="explorer.narrower_tree"),
        Binding("greater_than_sign", "tree_width(1)", "Wider tree", show=False, id="explorer.wider_tree"),
        Binding("question_mark", "app.help", "Help", id="explorer.help"),  # the app knows the keys as remapped
        Binding("q", "quit", "Quit", id="explorer.quit"),
    ]
    DEFAULT_CSS = """
    MainScreen > #body { height: 1fr; }
    MainScreen #right { width: 1fr; }
    MainScreen TabbedContent { height: 1fr; }
    MainScreen TabPane { padding: 0; }
    """

    def __init__(
        self, session: Session, ahead: TypedAhead, watch_every: float = EVERY, root: Resource | None = None
    ) -> None:
        """`ahead`: the app's, where keys wait for a write's screen on its way (typeahead.py); `root`:
        the root as the login form fetched it, shown as it came rather than asked for again."""
        super().__init__()
        self.session = session
        self.ahead = ahead
        self.fetched_root = root
        self.watch_every = watch_every  # a new watch's seconds between fetches (the config file's watch_every)
        self.navigation = Navigation(str(session.base_url))
        self.last_error: ApiError | None = None
        self.stepped_widgets: tuple[Widget, ...] = ()  # the widgets a step updates (STEPPED), found once mounted
        self.page_panes: tuple[ShowsPage, ...] = ()  # the panes that show the page in view, once mounted
        self.refused_target: str | None = None  # a go-to target refused before it was sent: the title names it
        self.failure: ApiError | None = None  # the failure the panes show (no answer to it), until an answer
        self.reported_problem: ApiError | None = None  # the description problem already reported
        self.jq = JqRunner()  # the jq filter's and the watches' conditions: a child process, started when first needed
        self.watching = WatchFlow(self, session, self.jq, self.apply_watch_result)
        self.marked: Marked | None = None  # what `m` marked, for `=`
        self.saved: str | None = None  # the last file `s` saved to: what `=` offers without a mark
        self.write_resource: Resource | None = None  # a write's response, while the panes show it

    @functools.cached_property
    def write_flow(self) -> WriteFlow:
        """`a` and `u`: the write screens and their drafts, made (and imported) at the first write, not
        at launch."""
        from explorer.tui.write_flow import WriteFlow

        return WriteFlow(self.app, self.session, self.ahead, self.apply_write_response)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield LinkTree(id="tree")
            yield Splitter(id="splitter")
            with Vertical(id="right"):
                yield PreviousAnswer()
                with TabbedContent(id="panes"):
                    for pane in PANES:
                        with TabPane(pane.title, id=pane.id):
                            yield pane.widget()
        yield StatusBar()
        yield KeyFooter()

    @property
    def link_tree(self) -> LinkTree:
        return self.query_one(LinkTree)

    def on_mount(self) -> None:
        self.stepped_widgets = tuple(self.query_one(kind) for kind in STEPPED)  # found once: a query costs 2 ms
        self.page_panes = tuple(showing_page(self.query_one(pane.widget)) for pane in PANES if pane.shows_page)
        self.query_one(StatusBar).follow(self.session)
        self.query_one(StatusBar).show_watches(self.watching.running)
        self.set_interval(1.0, self.refresh_log)
        width = load_state().get("tree_width")
        chosen = width if isinstance(width, int) and not isinstance(width, bool) else None
        self.link_tree.set_width(chosen, self.tree_room)
        self.link_tree.start(self.navigation)
        self.link_tree.focus()
        step = self.navigation.open(self.navigation.root)
        if self.fetched_root is not None and step.fetch is not None:
            self.apply_fetch_response(step.fetch, self.fetched_root)  # fetched by the login form: not asked for again
        else:
            self.apply_step(step)

    # Carrying out what the model says ------------------------------------------------------

    def apply_step(self, step: Step) -> None:
        """Redraw what changed, start the fetch, show the node, move the cursor, say the note."""
        self.refused_target = None
        self.link_tree.redraw()
        if step.fetch is not None:
            self.waiting(step.fetch)
            self.query_one(StatusBar).show_request(self.under_way(step.fetch))
            self.fetch(step.fetch)
            self.set_timer(PENDING_MARK_AFTER, partial(self.show_pending_mark, step.fetch))
        if step.show is not None:
            self.show(step.show, step.cursor_on)
        if step.select is not None:
            self.link_tree.reveal(step.select)
        if step.note:
            self.notify(step.note, markup=False)
        self.update_title()
        if step.show is not None:
            self.show_watches()
        self.call_after_refresh(self.say_cursor_label)  # once the tree has drawn its new lines

    def show_pending_mark(self, fetch: Fetch) -> None:
        """Mark a fetch still in flight after PENDING_MARK_AFTER: its tree line gets `…`, and when the
        panes show an earlier response, the line above them says so."""
        if self.still_attached and self.navigation.mark_pending(fetch):
            self.redraw_links()
            if self.navigation.current is not None:
                self.query_one(PreviousAnswer).show()

    def under_way(self, fetch: Fetch) -> UnderWay:
        """What the status bar says of a fetch on its way: its path from the API root (as the Log
        shows it, ids by their ends), from now."""
        parts, base = urlsplit(fetch.url), urlsplit(str(self.session.base_url))
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        root = base.path.rstrip("/")
        if parts.netloc == base.netloc and (path == root or path.startswith((root + "/", root + "?"))):
            path = path[len(root) :] or "/"
        return UnderWay("GET", ID_SEGMENT.sub(short_id, path), self.session.clocks.wall())  # a fetch is a GET

    def fetch_ended(self) -> None:
        """No fetch on its way any more (none started since): the bar and the panes say what they show."""
        if self.still_attached and self.navigation.fetching is None:
            self.query_one(StatusBar).show_request(None)
            self.query_one(PreviousAnswer).clear()

    def waiting(self, fetch: Fetch) -> None:
        """Before anything is shown, the Page pane says what it waits for."""
        if self.navigation.current is None:
            self.query_one(PageView).show_message(f"Fetching {visible(fetch.url)}…")

    @work(exclusive=True, group="fetch")
    async def fetch(self, fetch: Fetch) -> None:
        try:
            await self.fetch_and_show(fetch)
        finally:
            self.fetch_ended()
            self.post_message(self.FetchEnded())

    async def fetch_and_show(self, fetch: Fetch) -> None:
        try:
            resource = await self.session.fetch(fetch.url)
            await asyncio.to_thread(resource.prepare)  # a big body decoded off the screen's thread
        except ApiError as error:
            self.apply_fetch_step(fetch, self.navigation.failed(fetch, error))
        except asyncio.CancelledError:
            self.navigation.cancelled(fetch)
            if self.still_attached:  # not when q took the screen down with the fetch
                self.redraw_links()
                self.link_tree.collapse_if_empty(fetch.node)  # expanded by Enter, it got nothing to show
                self.update_title()
                self.refresh_log()
            raise
        else:
            self.apply_fetch_response(fetch, resource)

    def apply_fetch_response(self, fetch: Fetch, resource: Resource) -> None:
        """Apply the response to `fetch` to the model, then to the screen (also the root's, which
        the login form fetched before the screen opened)."""
        self.navigation.description = self.session.description  # loaded before the first response
        self.apply_fetch_step(fetch, self.navigation.arrived(fetch, resource))
        if fetch.node is self.navigation.root and resource.status < 400 and self.session.description is None:
            self.discover_description()
        if self.still_attached and self.watching.fetched(fetch.url, resource.status):
            self.refresh_watch_badge(fetch.url)  # deleting, then deleted (a 404); or made again

    @work(group="description")
    async def discover_description(self) -> None:
        """Look for the API description the service publishes on its own origin, when none was given:
        once per session, after the root has arrived, without a notice. When one is found, the tree
        gains the paths it documents, and `a` its writes, schemas and examples."""
        found = await self.session.discover_description()
        if found is not None and self.still_attached and self.navigation.description is not found:
            self.navigation.set_description(found)
            self.redraw_links()

    def apply_fetch_step(self, fetch: Fetch, step: Step) -> None:
        """Carry out the step the model made of `fetch`'s response or failure."""
        if not self.still_attached:  # the response came as q (or the end of a test) took the screen down
            return
        self.tell_description_problem()
        self.tell_recording_problem()
        self.refresh_log()
        self.apply_step(step)
        if step.show is fetch.node:
            self.link_tree.expand_node(fetch.node)  # what you opened shows what it holds: relations, or items
            self.link_tree.show_children(fetch.node)  # in view, as many as fit, the node's line kept

    @property
    def still_attached(self) -> bool:
        """Whether the screen and its panes are still there: a fetch can end while q (or a test's end)
        takes them down, the screen still attached and its panes going one by one: every pane a step
        touches must still be there."""
        widgets = self.stepped_widgets
        return self.is_attached and bool(widgets) and all(widget.is_attached for widget in widgets)

    def tell_description_problem(self) -> None:
        """Once: the API description given cannot be used, and why; the explorer goes on without it."""
        problem = self.session.description_problem
        if problem is not None and problem is not self.reported_problem:
            self.reported_problem = problem
            self.notify(
                f"{visible(problem.line())}\n{visible(screen_hint(problem) or '')}",
                severity="warning",
                timeout=15,
                markup=False,
            )

    def tell_recording_problem(self) -> None:
        """Once: --har, the history or the journal stopped writing (a full disk, say), or a damaged file
        of theirs was moved aside; the session goes on."""
        problem = self.session.recording_problem
        if problem is not None:
            self.session.recording_problem = None
            self.notify(visible(problem), title="Recording", severity="error", timeout=30, markup=False)

    def show_failure(self, error: ApiError) -> None:
        """An error with no answer to show (refused before sending, unreachable): every pane says it
        (none keeps an earlier answer's body or headers), the bar without that answer's status."""
        self.last_error = self.failure = error
        for pane in self.page_panes:
            pane.show_failure(error)
        self.query_one(StatusBar).show_failure(error)
        self.query_one(TabbedContent).active = "page"

    def show(self, node: Node, cursor_on: str | None = None) -> None:
        """Put a node's resource in every pane (an item listed without a link, or a failure, in the Page pane)."""
        resource = node.resource
        self.write_resource = None
        if node.error is not None:  # the last try failed: that is what there is to see
            self.show_failure(node.error)
            return
        if resource is None:
            if node.document is not None:
                self.query_one(PageView).show_document(node.document)
            return
        self.show_resource(resource)
        if cursor_on and resource.page_or_array is not None:
            at = place_of(resource.page_or_array.results, cursor_on)
            if at is not None:
                self.query_one(ItemsTable).move_to_item(at)

    def show_resource(self, resource: Resource) -> None:
        """An answer in every pane and on the status bar: a node's, or a write's."""
        self.failure = None
        for pane in self.page_panes:
            pane.show(resource)
        status = self.query_one(StatusBar)
        status.show_response(resource)
        status.show_error(resource.error)  # an answer that is fine takes an older error off the bar; x keeps it
        if resource.error is not None:
            self.last_error = resource.error

    def refresh_log(self) -> None:
        self.query_one(RequestLog).show(self.session.log, self.session.base_url.path.rstrip("/"))

    def update_title(self) -> None:
        """`explorer — URL`: where you are, the URL as it was sent (its query whole, a copy of it
        works; `y` copies it), cut in the middle to one line of the header (its icon and clock take 18
        columns). Where the place does not fit beside the app's name, the name gives way. A go-to
        target refused before it was sent is named as typed: it is what the panes show."""
        url = visible(self.url_in_view())
        room = (self.size.width or self.app.size.width) - HEADER_ICON_AND_CLOCK
        beside_name = title_url(url, room - len("explorer — "))
        if beside_name == url:
            self.title, self.sub_title = "explorer", url
        else:
            self.title, self.sub_title = title_url(url, room), ""

    def url_in_view(self) -> str:
        """The URL the title names (a go-to target refused before it was sent: as typed)."""
        return self.refused_target if self.refused_target is not None else self.navigation.title()

    def on_resize(self, event: events.Resize) -> None:
        self.link_tree.fit(self.tree_room)  # a narrower terminal: the tree gives way, the panes keep their room
        self.call_after_refresh(self.say_cursor_label)
        self.update_title()

    def awaits_page(self, event: events.Key) -> bool:
        """Whether `event` must wait for the page being fetched (the app's key line holds it until then).

        A page key waits (`]`, `+`: it acts on the page that comes), and so does a key to a pane that
        shows the page (Page, JSON, Headers: panes.py): `1`, `down`, `enter` typed right after the
        Enter that opens a list act in the list it opens. A key to the tree goes at once, since it
        moves somewhere else; except while the root is first being fetched, when the tree has nothing
        else (`down down enter` typed as the explorer starts opens the second relation). The screen's
        and the app's own keys (`q`, `?`, `g`) never wait for the root, so a service that never
        responds blocks none of them."""
        if self.navigation.fetching is None or event.key == "escape":
            return False
        active = self.active_bindings.get(event.key)
        if active is not None and active.node is self and active.binding.action.startswith(PAGING):
            return True
        root = self.navigation.root
        if root.resource is None and root.error is None and active is not None and active.node is self.link_tree:
            return True  # the tree's keys typed as the explorer starts: nothing to move to before the root
        focused = self.focused
        return (
            focused is not None
            and not isinstance(focused, Input)
            and any(isinstance(node, SHOWING_PAGE) for node in focused.ancestors_with_self)
        )

    def notification_margin(self) -> int | None:
        """How many lines at the bottom notifications keep clear (the app's lift_notices), on this
        screen and on the dialogs over it: from the status bar down, or from the input field down
        while one has focus here (the search box). None when the screen is going away, or is not laid
        out yet (the bar says when it is: StatusBar.Placed)."""
        if not self.still_attached:
            return None
        bar = self.query_one(StatusBar).region
        if not bar:
            return None
        top = bar.y
        typing = self.focused
        if isinstance(typing, Input) and typing.region and self.app.screen is self:
            top = min(top, typing.region.y)  # the field typed into (`/`'s search) is never under a notice
        return max(1, self.size.height - top)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, Input):  # once laid out: a search box just mounted has no place yet
            self.call_after_refresh(self.post_message, self.InputFocusChanged())

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, Input):
            self.call_after_refresh(self.post_message, self.InputFocusChanged())

    # What the widgets say --------------------------------------------------------------------

    def on_line_tree_node_selected(self, event: LineTree.NodeSelected[Node]) -> None:
        if event.control is self.link_tree and event.node.data is not None:
            step = self.navigation.open(event.node.data)
            self.apply_step(step)
            if step.fetch is None and step.show is event.node.data:  # opened again: what it holds is in view
                self.link_tree.show_children(event.node.data)

    def on_line_tree_node_expanded(self, event: LineTree.NodeExpanded[Node]) -> None:
        if event.control is self.link_tree and event.node.data is not None:
            self.apply_step(self.navigation.expanded(event.node.data))

    def on_line_tree_node_highlighted(self, event: LineTree.NodeHighlighted[Node]) -> None:
        if event.control is self.link_tree and event.node.data is not None:
            self.apply_step(self.navigation.highlighted(event.node.data))

    def redraw_links(self) -> None:
        """The tree's lines as the model now is, and the status bar's copy of the cursor's line with
        them: a watch stopped by `w` takes its `◉` off both at once."""
        self.link_tree.redraw()
        self.call_after_refresh(self.say_cursor_label)

    def say_cursor_label(self) -> None:
        """The status bar says the line under the tree's cursor whole when the tree cuts it."""
        if not self.still_attached:  # called after a refresh: q may have taken the screen down since
            return
        line = self.link_tree.cursor_node
        label = self.link_tree.cut_label(line) if line is not None else None
        self.query_one(StatusBar).show_label(label.plain if label is not None else None)

    def on_items_table_columns_asked(self, event: ItemsTable.ColumnsAsked) -> None:
        """`t` in the table: its columns to show and order, in a dialog; kept for that kind of list."""
        from explorer.tui.screens.columns import ColumnsScreen

        table = event.table
        self.app.push_screen(ColumnsScreen(event.columns, event.default, table.kind), table.use_columns)

    def on_items_table_open(self, event: ItemsTable.Open) -> None:
        """A row of the Page pane opened: open that item, as listed in the tree under its list."""
        current = self.navigation.current
        if current is None or not current.is_list:
            return
        node = self.navigation.item_at(current, event.index)
        if node is not None:
            step = self.navigation.open(node)
            step.select = step.select or node
            self.apply_step(step)

    def on_status_bar_error_selected(self, event: StatusBar.ErrorSelected) -> None:
        """The error on the bar clicked: its document (x shows the newest error, which may be another)."""
        self.app.push_screen(ErrorScreen(self.query_one(StatusBar).held_error or event.error))

    def on_splitter_dragged(self, event: Splitter.Dragged) -> None:
        self.set_tree_width(max(LinkTree.MIN_WIDTH, min(event.x - self.link_tree.region.x, self.tree_room)))

    def on_splitter_released(self, event: Splitter.Released) -> None:
        self.keep_tree_width()

    # Actions ---------------------------------------------------------------------------------

    def cursor_item(self) -> str | None:
        """The self URL of the item under the table's cursor, when the Page pane shows a list."""
        table = self.query_one(ItemsTable)
        current = self.navigation.current
        if current is None or not current.is_list or not table.items:
            return None
        return self_href(table.items[min(table.cursor, len(table.items) - 1)])

    def action_back(self) -> None:
        refused = self.refused_target is not None
        self.apply_step(self.navigation.back_from_refusal() if refused else self.navigation.back())

    def action_forward(self) -> None:
        self.apply_step(self.navigation.forward())

    def resolve_target(self, target: str) -> str:
        """A target typed into `g` as the URL the session would fetch; ApiError when it is not one."""
        return str(self.session.resolve(target))

    def action_go_to(self) -> None:
        def go(target: str | None) -> None:
            if target:
                try:
                    url = self.resolve_target(target)
                except ApiError as error:
                    self.show_failure(error)
                    self.refused_target = target
                    self.update_title()
                    return
                self.apply_step(self.navigation.goto(url))

        here = self.navigation.current.key if self.navigation.current else None
        self.app.push_screen(GoToScreen(self.session.description, self.resolve_target, here), go)

    def action_page(self, step: int) -> None:
        self.apply_step(self.navigation.turn_page(step))

    def action_reload(self) -> None:
        self.apply_step(self.navigation.reload(self.cursor_item()))

    def action_toggle_param(self, name: str) -> None:
        """Turn pretty=true or envelope=true on or off, and ask again for what is in view."""
        self.apply_step(self.navigation.switch(name, self.cursor_item()))

    def action_page_size(self, step: int) -> None:
        """`+` and `-`: the page size of a list; of a resource watched, the time between its fetches."""
        resource = self.current_resource()
        running = self.watching.watch_for(resource.url) if resource is not None else None
        before = running.every if running is not None else None
        watch = self.watching.step(resource.url, quicker=step < 0) if resource is not None else None
        if watch is not None:
            if watch.every != before:  # at either end a key changes nothing: said once, not stacked up
                edges = {FASTEST: " (the quickest)", SLOWEST: " (the slowest)"}
                edge = edges.get(watch.every, "")
                self.notify(f"Watching {visible(watch.title)} every {watch.every:g} s{edge}", markup=False)
            self.show_watches()
            return
        self.apply_step(self.navigation.resize_page(step, self.cursor_item()))

    async def action_search(self) -> None:
        self.query_one(TabbedContent).active = "json"
        await self.query_one(JsonPane).open_search()

    def current_resource(self) -> Resource | None:
        current = self.navigation.current
        return current.resource if current is not None else None

    def action_copy_url(self) -> None:
        """`y`: the URL the title names, whole: the answer's, a failed request's, the one on its way."""
        url = self.url_in_view()
        if url:
            self.app.copy_to_clipboard(url)
            self.notify(f"Copied {visible(url)}", markup=False)

    def request_in_view(self) -> Outgoing | None:
        """The request in view as it went: a failed one's (no answer came: what to debug), else the
        answer's; None, said, when the failure in view was refused before anything was sent."""
        from explorer.display.shell_forms import sent

        failure = self.failure
        if failure is None:
            resource = self.current_resource()
            return sent(resource) if resource is not None else None
        if failure.sent is None or not failure.url:
            self.notify("Nothing was sent: there is no request to copy (x says why).", markup=False)
            return None
        return Outgoing(failure.method or "GET", failure.url, failure.sent)

    def action_copy_curl(self) -> None:
        """`Y`: the request in view as curl, every header as it was sent (credentials as variables); the
        notice says how to set them (`TOKEN=$(explorer token --profile lab)`)."""
        from explorer.display.shell_forms import as_curl, credentials_note, in_variables, reached_by, withheld

        request = self.request_in_view()
        if request is not None:
            note = credentials_note(request, reached_by(self.session)) + in_variables(withheld(request))
            self.copy_and_notify(as_curl(request, self.session.credentials.ca_bundle), note=note)

    def action_copy_command(self) -> None:
        """`C`: the request in view as `explorer get`, with the headers explorer would not send by itself;
        the notice says which variable it reads the secret from when no profile names it."""
        from explorer.display.shell_forms import as_command, in_variables, reached_by, secret_variable, withheld

        request = self.request_in_view()
        if request is not None:
            flags = reached_by(self.session)
            command = as_command(request, str(self.session.base_url), flags)
            self.copy_and_notify(command, secret_variable(flags), in_variables(withheld(request)))

    def copy_and_notify(self, command: str, secret: str | None = None, note: str = "") -> None:
        """Copy `command`, the notice adding where it reads its secret (`secret`) and what else it says (`note`)."""
        from explorer.display.shell_forms import reads_secret

        self.app.copy_to_clipboard(command)
        self.notify(f"Copied {visible(command)}" + reads_secret(secret) + note, markup=False)

    def action_save(self) -> None:
        resource = self.current_resource()
        if resource is None:
            return
        suggestion = free_name(body_file_name(resource.url, resource.json is not None))
        if self.app.is_web:  # in a browser (explorer serve): to its downloads, never to the server's disk
            self.app.deliver_binary(io.BytesIO(resource.body), save_filename=suggestion)
            self.notify(f"Sent {resource.size:,} bytes to the browser as {visible(suggestion)}", markup=False)
            return

        question = save_question("the body")

        def save(path: str | None) -> None:
            if not path:
                return
            target = Path(path).expanduser()
            try:
                write_new(target, resource.body)  # never over a file that is there; the owner's alone
            except (OSError, ValueError) as error:  # asked again, as typed, with what was wrong
                problem = cannot_write(target, error) if isinstance(error, OSError) else "That is not a file name"
                self.app.push_screen(AskScreen(question, value=path, problem=visible(problem)), save)
                return
            self.saved = str(target)
            self.notify(f"Saved {resource.size:,} bytes to {visible(target)}", markup=False)

        self.app.push_screen(AskScreen(question, value=suggestion), save)

    def action_show_error(self) -> None:
        error = self.query_one(StatusBar).held_error or self.last_error  # a 429 being waited out, else the newest
        if error is not None:
            self.app.push_screen(ErrorScreen(error))
        else:
            self.notify("No error so far.")

    def action_cancel(self) -> None:
        """Esc: give up the fetch in flight. When it was held back by a 429 (or 503), its own or an
        earlier one whose Retry-After it was waiting out, that error stays the last error, on the bar
        and for `x`, since nothing else of it will be shown."""
        if self.navigation.fetching is not None:
            held = self.session.throttle.waiting_response  # read before the cancel: the wait forgets it as it ends
            self.workers.cancel_group(self, "fetch")
            if held is not None and held.error is not None:
                self.last_error = held.error
                self.query_one(StatusBar).show_error(held.error)
            self.notify("Cancelled.")

    def action_tab(self, name: str) -> None:
        """Show a pane, and give it the keys at once (v, c, n in the JSON pane; the table's in Page):
        the focus moves now, not after a refresh, so the key typed next is the pane's; and the JSON
        pane lays out what it holds now, not when it shows, so that key acts on what it will show."""
        self.query_one(TabbedContent).active = name
        if name == "json":
            self.query_one(JsonPane).lay_out()
        pane = self.query_one(f"TabPane#{name}", TabPane)
        for widget in self.focus_chain:
            if pane in widget.ancestors:
                self.set_focus(widget)
                return

    def action_tree_width(self, step: int) -> None:
        """`<` and `>`: four columns narrower or wider, from the width chosen (not the width drawn,
        which the terminal and the least width hold back). The width chosen is not held back, so the
        same number of each comes back to the start, from any start, beyond either bound included."""
        chosen = self.link_tree.chosen_width()
        start = chosen if chosen is not None else self.link_tree.outer_size.width
        self.set_tree_width(start + step * TREE_STEP)
        self.keep_tree_width()
        self.call_after_refresh(self.say_cursor_label)

    @property
    def tree_room(self) -> int:
        """The widest the tree may be: the panes keep MIN_PANES columns (and the bar between, one)."""
        return (self.size.width or self.app.size.width) - MIN_PANES - 1

    def set_tree_width(self, width: int) -> None:
        """The tree this many columns wide, as the person chose, leaving the panes room."""
        self.link_tree.choose_width(width, self.tree_room)

    def keep_tree_width(self) -> None:
        """Remember the tree's width for the next run."""
        width = self.link_tree.chosen_width()
        save_state({"tree_width": None if width is None else max(LinkTree.MIN_WIDTH, width)})

    # Writes (write_flow.py): a, u, and what a response changes ----------------------------------

    def action_act(self) -> None:
        resource = self.current_resource()
        if resource is None:
            self.notify("Nothing in view to act on yet.")
            return
        response = self.write_resource
        if response is not None and response.status == 201:  # a create's response in view: act on what it made
            resource = response
        is_root = self.navigation.current is self.navigation.root
        self.start_writing(partial(self.write_flow.act, resource, is_root))

    def action_undo(self) -> None:
        self.start_writing(self.write_flow.undo_last)

    def start_writing(self, flow: Callable[[], Awaitable[None]]) -> None:
        """`a`'s or `u`'s flow, in the one write worker: the keys typed in one breath with its key wait
        for its first screen (typeahead.py). Not while a write is on its way: a new flow would cancel
        it, its answer unsaid and no undo made of it."""
        if self.write_flow.sending:
            self.notify("A write is on its way: its answer comes first.", markup=False)
            return
        self.ahead.expect(self.writing(flow))

    @work(group="write", exclusive=True)
    async def writing(self, flow: Callable[[], Awaitable[None]]) -> None:
        try:
            await flow()
        finally:  # done, failed, or cancelled by the next flow: no screen of this one's is coming
            self.ahead.given_up(get_current_worker())

    def apply_write_response(self, resource: Resource, choice: WriteChoice) -> None:
        """Show a write's response like any page and say plainly what it did; fetch again what it changed."""
        self.refresh_log()
        self.show_resource(resource)
        self.write_resource = resource
        self.query_one(TabbedContent).active = "page"
        if resource.error is not None:
            message = f"{choice.method} · {resource.status} {visible(resource.reason)}: refused; the editor says why"
            self.notify(message, severity="error", markup=False)
        else:
            self.notify(
                f"{choice.method} · {resource.status} {visible(resource.reason)}: "
                + ANSWERS.get(resource.status, "done")
                + ("; u undoes it (previewed first)" if choice.method in ("PATCH", "PUT") else ""),
                markup=False,
            )
            if choice.method == "DELETE":
                self.watching.deleted(choice.url, resource.status)  # the tree says `✗ deleted` (or `deleting`)
            made = made_by(resource)
            if made is not None and self.watching.fetched(made, resource.status):
                self.refresh_watch_badge(made)  # made again where one was deleted
            if self.watching.written(choice.url) or choice.method == "DELETE":
                self.refresh_watch_badge(choice.url)
            self.fetch_again(choice.url)

    @work(group="after-write")
    async def fetch_again(self, url: str) -> None:
        """The entity written and the list it is in, fetched again into the tree (not into view: the
        panes keep the write's answer), unless the entity is gone from the list (deleted): then the
        list is shown, without it. An entity known to be deleted that the list still holds (DELETING
        after a 202) makes the list stale: it is fetched again when next visited."""
        node = self.navigation.find(url)
        nodes = [node] if node is not None else []
        listed = node.parent if node is not None and node.parent is not None and node.parent.is_list else None
        if listed is not None:
            nodes.append(listed)
        for each in nodes:
            again = each.resource.url if each.resource is not None else each.url
            if again is None:
                continue
            try:
                resource = await self.session.fetch(again)
            except ApiError as error:
                self.last_error = error  # x shows it: the newest error, whatever asked
                continue
            await asyncio.to_thread(resource.prepare)
            if not self.still_attached:
                return
            self.navigation.arrived(Fetch(each, again), resource)
            if self.watching.fetched(again, resource.status):
                self.refresh_watch_badge(again)
            self.redraw_links()
        if listed is not None and node in listed.children and self.watching.word(url) is not None:
            listed.stale = True
        self.refresh_log()
        if listed is not None and self.navigation.current is None:  # what was in view is gone from the tree
            self.apply_step(self.navigation.show_step(listed, select=True))

    # Watching and comparing (watch_flow.py, compare.py): w, m, =, | ---------------------------------

    def action_watch(self) -> None:
        """`w`: watch the resource in view (asking until what), or stop watching it."""
        resource = self.current_resource()
        if resource is None or resource.error is not None:
            self.notify("Nothing in view to watch: open a resource that answered.", markup=False)
            return
        title = self.title_in_view(resource)
        url = resource.url
        response, made = self.write_resource, self.made_in_view()
        if response is not None and made is not None:  # a create's 201 in view: what it made, not the list
            resource, url, title = response, made, name_of(response.document) or last_segment(made)
        if self.watching.stop(url) is not None:
            self.notify(f"Stopped watching {visible(title)}", markup=False)
            self.refresh_watch_badge(url)
            return

        def start(until: str | None) -> None:
            if until is None:
                return
            self.watching.start(url, title, until or None, self.watch_every)
            self.show_watches()  # the pane says the watch now, not after its first fetch
            self.action_tab("watch")  # "Watching … every 5 s" is said once its first fetch has not ended it

        question = (
            f"Watch {visible(title)} every {self.watch_every:g} s until (a jq condition; Enter alone: until w, "
            "or deleted):"
        )
        offered = suggestion_for(resource.document)
        hint = f"e.g. {offered} (. then →)" if offered else "a jq condition on the document"  # fits at 60 columns
        suggestions = [offered] if offered else []
        self.jq.start()  # jq's own process, ready by the time a condition is typed (it takes a moment)
        asking = AskScreen(question, placeholder=hint, suggestions=suggestions, empty_ok=True, check=jq_problem)
        self.app.push_screen(asking, start)

    def title_in_view(self, resource: Resource) -> str:
        """What the resource in view is called, short: an item's title, else its path's last segment
        (`orders-prod` reached by `g`, `clusters`); the full URL is beside it where there is room."""
        node = self.navigation.current
        if node is not None and node.kind == "item":
            return node.title
        return name_of(resource.document) or last_segment(resource.url)

    def apply_watch_result(self, watch: Watch, version: Version | None, resource: Resource | None) -> None:
        """A watch fetched: a new version goes into the tree (and the panes, when in view), its end is said."""
        if not self.still_attached:
            return
        node = self.navigation.find(watch.url)
        listed = node is not None and node.parent is not None and node.parent.is_list
        if watch.error is not None:
            self.last_error = watch.error  # x shows the newest error: a watch's too
        news = version is not None or watch.ended == NOT_THERE  # a first 404 is no version, and is news
        if news and resource is not None and not (resource.status == 404 and listed):
            if node is not None:  # its 404 too, shown as any failed request, unless its list is shown without it
                self.apply_step(self.navigation.arrived(Fetch(node, watch.url), resource))
            made = self.made_in_view()
            if made is not None and same_resource(made, watch.url):  # a create's 201 in view: what it made, as it is
                self.show_resource(resource)
        if watch.ended in ("deleted", NOT_THERE):
            ending = "deleted (404)" if watch.ended == "deleted" else "not there (404): nothing to watch"
            self.notify(f"{visible(watch.title)}: {ending}; the watch ended", severity="warning", markup=False)
            if listed:
                self.fetch_again(watch.url)  # its list, shown without it
        elif watch.ended == "the condition holds" and version is not None:
            self.app.bell()
            self.notify(f"✓ {visible(watch.title)}: {visible(watch.until)} holds", timeout=15, markup=False)
        elif watch.ended is not None and watch.ended.startswith("stopped by an error"):
            self.notify(f"{visible(watch.title)}: {visible(watch.ended)}", severity="error", markup=False)
        elif watch.ended is None and watch.fetches == 1:  # going on: said now, not beside a first "✓ holds"
            message = f"Watching {visible(watch.title)} every {watch.every:g} s: + and - change it, w stops"
            self.notify(message, markup=False)
        if version is not None or watch.ended is not None:
            self.refresh_watch_badge(watch.url)
        else:  # the same again: only the pane's counts and time moved (the Log pane has its own second)
            self.show_watches()

    def refresh_watch_badge(self, url: str) -> None:
        """The tree's badge of a URL, and the Watch pane, as the watch and the mark now are."""
        marked = self.marked is not None and same_resource(self.marked.url, url)
        self.navigation.badge(url, badge_of(self.watching.watch_for(url), marked, self.watching.word(url)))
        self.redraw_links()
        self.show_watches()

    def show_watches(self) -> None:
        """The Watch pane: the watch of the resource in view (what a create's 201 in view made), and the others."""
        resource = self.current_resource()
        url = self.made_in_view() or (resource.url if resource is not None else None)
        watch = self.watching.watch_for(url) if url is not None else None
        self.query_one(WatchView).show(watch, list(self.watching.watches.values()), self.session.clocks.wall)
        self.query_one(StatusBar).tick()

    def made_in_view(self) -> str | None:
        """What a create's 201 in view made (its Location, else its self link): what `w` watches there."""
        return made_by(self.write_resource) if self.write_resource is not None else None

    def document_in_view(self, otherwise: str) -> Resource | None:
        """The resource in view when it is a JSON document (what m and = work on); else `otherwise` is said."""
        resource = self.current_resource()
        if resource is None or resource.json is None:
            self.notify(otherwise, markup=False)
            return None
        return resource

    def action_mark(self) -> None:
        """`m`: mark the resource in view (as it is now) to compare with; `m` on it again unmarks it."""
        resource = self.document_in_view("Nothing in view to mark: m marks a JSON document.")
        if resource is None:
            return
        title = self.title_in_view(resource)
        before = self.marked
        same = before is not None and same_resource(before.url, resource.url)
        if before is not None and before.received_at == resource.received_at and same:
            self.marked = None
            self.notify(f"Unmarked {visible(title)}", markup=False)
        else:
            self.marked = Marked(
                resource.url,
                resource.received_at,
                Compared(f"{title} · as fetched {time_of_day(resource.received_at)}, marked", resource.document),
            )
            self.notify(f"Marked {visible(title)}: = compares it with what is in view", markup=False)
        if before is not None:
            self.refresh_watch_badge(before.url)
        self.refresh_watch_badge(resource.url)

    def action_compare(self) -> None:
        """`=`: the resource in view compared with the marked one, or, with none marked, a JSON file."""
        resource = self.document_in_view("Nothing in view to compare: = compares JSON documents.")
        if resource is None:
            return
        title = self.title_in_view(resource)
        now = Compared(f"{title} · as fetched {time_of_day(resource.received_at)}", resource.document)
        if self.marked is not None:
            self.compared(self.marked.compared, now)
            return
        self.ask_for_file(now)

    def action_history(self) -> None:
        """`H`: the exchanges kept across sessions on this service; an entry can be gone to, or compared with now."""
        from explorer.tui.screens.history import HistoryScreen

        history = self.session.history
        if history is None:
            self.notify(
                "No history is kept in this session (--no-history, [history] keep = false, or a replay)", markup=False
            )
            return

        def chosen(go_to: HistoryEntry | None) -> None:
            if go_to is not None:
                self.apply_step(self.navigation.goto(go_to.url))

        root = urlsplit(str(self.session.base_url)).path
        listing = HistoryScreen(history, origin_text(self.session.base_url), root, compare=self.compare_with_now)
        self.app.push_screen(listing, chosen)

    @work(group="comparing", exclusive=True)
    async def compare_with_now(self, entry: HistoryEntry) -> None:
        """A kept answer compared with the resource as the service has it now (fetched, not shown in the panes)."""
        kept = await asyncio.to_thread(entry.document, self.session.bounds.max_depth)
        if kept is None:
            self.notify(f"#{entry.number}'s answer was kept with no JSON document: nothing to compare", markup=False)
            return
        try:
            now = await self.session.fetch(entry.url)
        except ApiError as error:  # no answer: said over the history's dialog, which stays
            self.not_compared(error)
            return
        if now.error is not None:  # kept for x, said here: the panes keep what they show
            self.not_compared(now.error)
            return
        before = Compared(f"#{entry.number} from the history · as it was at {local_time(entry.started)}", kept)
        after = Compared(f"{entry.path} · as fetched now, {time_of_day(now.received_at)}", now.document)
        self.compared(before, after)

    def not_compared(self, error: ApiError) -> None:
        """Say why a comparison with now could not be made (kept for `x`); the panes keep what they show."""
        self.last_error = error
        hint = screen_hint(error)
        message = f"{visible(error.line())}\n{visible(hint)}" if hint else visible(error.line())
        self.notify(message, title="Not compared", severity="error", markup=False)

    @work(group="comparing", exclusive=True)  # not compare_with_file's group: that one calls it
    async def compared(self, before: Compared, after: Compared) -> None:
        """The comparison's screen, its differences worked out in a thread: two big lists take time."""
        from explorer.tui.screens.compare import CompareScreen

        found = await asyncio.to_thread(changes, before.document, after.document)
        await self.app.push_screen(CompareScreen(before, after, found))

    def ask_for_file(self, now: Compared, typed: str | None = None, problem: str | None = None) -> None:
        """The file to compare the resource in view with: asked again, as typed, when it cannot be read."""

        def with_file(path: str | None) -> None:
            if path:
                self.compare_with_file(path, now)

        question = "Nothing is marked (m marks what is in view). Compare it with a JSON file, or a baseline (@NAME):"
        value = typed if typed is not None else self.saved or ""
        placeholder = "a body saved with s, or @NAME: one saved with b (@PROFILE:NAME, another profile's)"
        asking = AskScreen(question, value=value, placeholder=placeholder, problem=problem)
        self.app.push_screen(asking, with_file)

    @work(group="compare", exclusive=True)
    async def compare_with_file(self, path: str, now: Compared) -> None:
        """The resource in view compared with a JSON file, or with a baseline (`@NAME`, where no file has that name)."""
        from explorer.api.baselines import read_baseline
        from explorer.api.json_files import read_document

        levels = self.session.bounds.max_depth
        try:
            if path.strip() == "@":
                self.ask_for_file(now, path, "@ and a baseline's name: @NAME (b saves what is in view as one)")
                return
            if path.startswith("@") and not is_file(Path(path[1:])):
                baseline = await asyncio.to_thread(read_baseline, path[1:], self.session.credentials.profile)
                if baseline is None:
                    self.ask_for_file(now, path, f"No baseline {visible(path[1:])}: b saves what is in view as one")
                    return
                self.compared(Compared(baseline.label, baseline.document(levels)), now)
                return
            document = await asyncio.to_thread(read_document, Path(path), levels)
        except (ValueError, OSError) as error:
            self.ask_for_file(now, path, visible(error))
            return
        self.compared(Compared(f"file {path}", document), now)

    def action_baseline(self) -> None:
        """`b`: save the resource in view, as it is now, as a baseline (named as asked) to compare with later."""
        resource = self.document_in_view("Nothing in view to save: b saves a JSON document as a baseline.")
        if resource is None:
            return

        def save(name: str | None) -> None:
            if name:
                self.save_baseline(name, resource)

        suggested = "".join(c if c.isalnum() or c in "._-" else "-" for c in self.title_in_view(resource))[:64]
        question = "Save what is in view as a baseline (= with @NAME compares with it, later or on another profile):"
        from explorer.api.baselines import name_problem

        asking = AskScreen(question, value=suggested.strip("-._"), placeholder="before-upgrade", check=name_problem)
        self.app.push_screen(asking, save)

    @work(group="baseline", exclusive=True)
    async def save_baseline(self, name: str, resource: Resource) -> None:
        from explorer.api.baselines import save_baseline

        session = self.session
        profile, url, now = session.credentials.profile, str(resource.url), session.clocks.wall()
        try:
            saved = await asyncio.to_thread(
                save_baseline, profile, name, url, resource.document, now, session.recent.secrets
            )
        except OSError as error:
            self.notify(visible(f"Not saved: {error}"), severity="error", markup=False)
            return
        owner = f"{saved.profile}:" if saved.profile else ""
        self.notify(f"Saved as the baseline {owner}{name}: = then @{name} compares with it", markup=False)

    def action_filter(self) -> None:
        """`|`: a jq filter for the JSON pane, kept for what it shows next; the field opens
        holding the filter on, so the way back to the whole document is to empty it (ctrl+u), then Enter."""
        pane = self.query_one(JsonPane)

        def use(program: str | None) -> None:
            if program is None:
                return
            pane.filter_with(program or None, self.jq.run)
            self.action_tab("json")

        self.jq.start()  # jq's own process, ready by the time the filter is typed
        question = "Filter the JSON pane with jq (ctrl+u then Enter: the whole document again):"
        asking = AskScreen(
            question, value=pane.program or "", placeholder=".stateName", empty_ok=True, check=jq_problem
        )
        self.app.push_screen(asking, use)

    def on_unmount(self) -> None:
        self.watching.close()
        self.jq.close()

    async def action_quit(self) -> None:
        await self.app.action_quit()
