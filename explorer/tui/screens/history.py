"""The history (`H`): the exchanges kept across sessions on this service, searched as you type.

Newest first, a line each. What is typed is searched as `explorer history --grep` searches (each
word matches the method, status or `4xx`, errorCode, URL or time), off the screen's thread. Enter
opens an entry as it was kept (HistoryEntryScreen): marked as history, never shown in the panes
where a fresh answer goes. From there `g` goes to it live and `=` compares it with now.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from explorer.api.history import History, HistoryEntry, local_time
from explorer.display.har_entries import kept_body, kept_headers
from explorer.tui.palette import status_class
from explorer.tui.safe_text import lines, text, visible
from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.widgets.key_footer import KeyFooter

SHOWN_BODY = 256 * 1024  # characters of a kept body drawn; `explorer history N` prints it whole
LISTED = 500  # entries a search lists, newest first
COMPARED = ("GET", "PUT", "PATCH")  # what answered with the resource at its URL, as a GET of it does now


Compare = Callable[[HistoryEntry], object]  # what `=` on an entry calls: the screen below's comparison


def entry_line(entry: HistoryEntry, root: str = "") -> Text:
    """One entry as the list shows it, on one line: when (the year left out), the method, the status
    and errorCode, the path from the API's root (`root`: its path), cut at the right edge."""
    style = status_class(entry.status)
    line = Text(f"{local_time(entry.started)[5:]}  ", style="dim", no_wrap=True, overflow="ellipsis")  # 11-27 14:03:12
    line.append_text(text(f"{entry.method:<6} ", "bold"))
    line.append_text(text(f"{entry.status} {entry.error_code}".rstrip(), style))
    line.append_text(text(f"  {from_root(entry.path, root)}"))
    return line


def from_root(path: str, root: str) -> str:
    """A path from the API's root (`/groups/…`; the root itself `/`), as the tree names it; one
    outside the API (the token endpoint) whole."""
    root = root.rstrip("/")
    if not root or not (path == root or path.startswith(root + "/")):
        return path
    return path[len(root) :] or "/"


def shown_origin(origin: str) -> str:
    """An origin as a person writes it: without its scheme's own port (`https://host`, not `:443`)."""
    for scheme, port in (("https://", ":443"), ("http://", ":80")):
        if origin.startswith(scheme) and origin.endswith(port):
            return origin.removesuffix(port)
    return origin


class HistoryScreen(ModalScreen[HistoryEntry | None]):
    """The entries of one origin, newest first, searched as typed; Esc closes, giving back the entry
    to go to live (`g` on one), if any.

    Args:
        history: The history.
        origin: The session's origin: the entries listed are those sent there, under any profile.
        root: The path of the API's root there: entries are listed from it, as the tree names them.
        compare: What `=` on an entry calls to compare it with now (on top of the entry's dialog).
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="HistoryScreen")
        + """
    HistoryScreen > Vertical { max-width: 160; width: 95%; height: 90%; max-height: 90%; }
    HistoryScreen OptionList { height: 1fr; border: none; padding: 0; text-wrap: nowrap; text-overflow: ellipsis; }
    HistoryScreen #count { color: $text-muted; height: 1; margin-top: 1; }
    """
    )
    BINDINGS = [
        Binding("enter", "open", "Open as it was", priority=True, id="history.open"),
        Binding("down", "move(1)", "Next entry", show=False, priority=True, id="history.down"),
        Binding("up", "move(-1)", "Previous entry", show=False, priority=True, id="history.up"),
        Binding("escape", "dismiss(None)", "Close the history", id="history.close"),
    ]

    def __init__(self, history: History, origin: str, root: str, compare: Compare) -> None:
        super().__init__()
        self.history = history
        self.origin = origin
        self.root = root
        self.compare = compare
        self.entries: list[HistoryEntry] = []

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            yield Label(text(f"History · {shown_origin(self.origin)}", "bold"))
            yield Input(placeholder="search: a path, 404 or 4xx, an errorCode, POST, 11-27, 14:03")
            yield OptionList()
            yield Static(id="count")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.search("")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.search(event.value)

    @work(group="history-search", exclusive=True)
    async def search(self, words: str) -> None:
        """The entries that match, looked for off the screen's thread, then listed."""
        try:
            found = await asyncio.to_thread(self.history.search, words, origin=self.origin, limit=LISTED)
        except OSError as error:
            self.query_one("#count", Static).update(text(f"The history cannot be read: {error}", "red"))
            return
        self.entries = found
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options([Option(entry_line(entry, self.root)) for entry in found])
        if found:
            listing.highlighted = 0
        self.query_one("#count", Static).update(Text(counted(len(found), bool(words.strip()))))

    def action_move(self, step: int) -> None:
        listing = self.query_one(OptionList)
        if listing.option_count:
            now = listing.highlighted if listing.highlighted is not None else -step
            listing.highlighted = max(0, min(listing.option_count - 1, now + step))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.open(event.option_index)

    def action_open(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None:
            self.open(highlighted)

    def open(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            entry = self.entries[index]
            self.app.push_screen(HistoryEntryScreen(entry, self.compare, self.root), self.chosen)

    def chosen(self, go_to: HistoryEntry | None) -> None:
        if go_to is not None:
            self.dismiss(go_to)


def counted(found: int, searched: bool) -> str:
    """The line under the list: how many entries it has, and where the search stops."""
    if not found:
        return "No entry matches." if searched else "No entries yet: each exchange is kept as it happens."
    more = f" (the newest {LISTED})" if found == LISTED else ""
    matching = " matching" if searched else ""
    entries = "entry" if found == 1 else "entries"
    return f"{found:,}{matching} {entries}{more} · Enter opens one as it was"


class HistoryEntryScreen(ModalScreen[HistoryEntry | None]):
    """One entry as it was kept: the request, the answer and its body, marked as history; Esc goes
    back to the list, `g` closes both, giving the entry back to go to live.

    Args:
        entry: The entry.
        compare: What `=` calls to compare it with now: its screen comes on top of this one.
        root: The path of the API's root: `g` goes only to what is under it.
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="HistoryEntryScreen")
        + """
    HistoryEntryScreen > Vertical { max-width: 160; width: 95%; height: 90%; max-height: 90%; }
    HistoryEntryScreen VerticalScroll { height: 1fr; }
    HistoryEntryScreen #kept { color: $warning; }
    """
    )
    BINDINGS = [
        Binding("g", "go", "Go to it live", id="history_entry.go"),
        Binding("equals_sign", "compare", "Compare with now", id="history_entry.compare"),
        Binding("escape", "dismiss(None)", "Back to the history", id="history_entry.close"),
    ]

    def __init__(self, entry: HistoryEntry, compare: Compare, root: str = "") -> None:
        super().__init__()
        self.entry = entry
        self.compare = compare
        self.root = root

    def compose(self) -> ComposeResult:
        entry = self.entry
        yield KeyFooter()
        with Vertical():
            yield Label(text(f"#{entry.number} · {entry.method} {entry.url}", "bold"))
            kept = f"From the history: as it was at {local_time(entry.started)}, not a fresh answer"
            yield Static(Text(f"{kept} ({entry.profile or 'no profile'}, {entry.elapsed * 1000:.0f} ms)"), id="kept")
            with VerticalScroll():
                yield Static(Text("Reading the entry…", style="dim"), id="exchange")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
        self.draw()

    @work(group="history-entry", exclusive=True)
    async def draw(self) -> None:
        """The exchange's text, made off the screen's thread: a kept body may be megabytes."""
        drawn = await asyncio.to_thread(exchange_text, self.entry.entry)
        self.query_one("#exchange", Static).update(drawn)

    def action_go(self) -> None:
        entry = self.entry
        if from_root(entry.path, self.root) == entry.path and self.root.rstrip("/"):
            self.notify(
                f"g goes to the API's resources; {entry.path} is not under its root (a token or revoke request)",
                markup=False,
            )
            return
        self.dismiss(entry)

    def action_compare(self) -> None:
        entry = self.entry
        if entry.method not in COMPARED:
            self.notify(
                f"= compares what a GET, PUT or PATCH answered with the resource now; a {entry.method}'s answer"
                " is not that resource",
                markup=False,
            )
            return
        self.compare(entry)


def exchange_text(entry: dict[str, Any]) -> Text:
    """A HAR entry as text, what it answered first: the status and body, then the request's headers
    and body, then the answer's headers; every character visible."""
    request, response = entry.get("request", {}), entry.get("response", {})
    out = Text(f"\n{response.get('status', '')} {visible(response.get('statusText', ''))}\n", style="bold")
    out.append_text(body_text(response.get("content", {})))
    for title, part, body in (("The request", request, "postData"), ("The answer's headers", response, None)):
        out.append(f"\n{title}\n", style="bold")
        for name, value in kept_headers(part):
            out.append(f"{visible(name)}: ", style="dim").append(f"{visible(value)}\n")
        if body is not None:
            out.append_text(body_text(part.get(body, {})))
    return out


def body_text(content: Any) -> Text:
    """A kept body: JSON indented, other text as it came, cut at SHOWN_BODY characters (said)."""
    kept = kept_body(content)
    if kept is None:
        return Text()
    if not kept.is_text:
        return Text(f"\n{kept.text}\n", style="dim")
    body = kept.text
    if len(body) <= 4 * SHOWN_BODY:  # indented only where most of it is drawn
        with contextlib.suppress(ValueError, RecursionError):
            body = json.dumps(json.loads(body), indent=2, ensure_ascii=False)
    cut = len(body) > SHOWN_BODY
    out = Text("\n" + "\n".join(lines(body[:SHOWN_BODY])) + "\n")
    if cut:
        out.append(f"… {len(body) - SHOWN_BODY:,} more characters: explorer history N prints it whole\n", style="dim")
    return out
