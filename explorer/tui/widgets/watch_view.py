"""The Watch pane: a watched resource's timeline, each version with its time and what changed,
newest last, and what the watch is doing now (how often, until what, slowed, a failure).

It shows the watch of the resource in view, else every watch there is; it is told by the screen
(`show`) and redraws itself once a second while on screen, for its `3 s ago`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from explorer.api.counts import counted
from explorer.api.watching import DELETED, HELD, NOT_THERE, Version, Watch, time_of_day
from explorer.tui.differences import change_line
from explorer.tui.safe_text import visible

EMPTY = (
    "Nothing is watched. w watches the resource in view: fetched again every few seconds, each change shown "
    'here with its time, until it is deleted, a condition you give holds (jq: .stateName == "IDLE"), or w again.'
)


def ago(seconds: float) -> str:
    return "just now" if seconds < 1 else f"{seconds:.0f} s ago"


def version_lines(version: Version) -> list[Text]:
    """A version on the timeline: its time and number, then a line per change (the first: what it was)."""
    head = Text(f"{time_of_day(version.at)}  #{version.number}  ")
    if version.status == 404:
        head.append("deleted: 404 Not Found", style="status-5xx")
        return [head]
    if version.number == 1 or not version.changes:
        head.append(f"{version.status} · first seen" if version.number == 1 else f"{version.status} · the same")
        return [head]
    first, *rest = version.changes
    lines = [head.append_text(change_line(first))]
    pad = " " * len(f"{time_of_day(version.at)}  #{version.number}  ")
    lines += [Text(pad).append_text(change_line(change)) for change in rest]
    return lines


def heading(watch: Watch, now: float) -> list[Text]:
    """What the watch is: its resource, pace and condition; when it last fetched; why it slows or ended."""
    state = "◉ Watching" if watch.ended is None else "○ Watched"
    line = Text(f"{state} ", style="bold")
    line.append(visible(watch.title), style="bold")
    line.append(f" · every {watch.every:g} s (+ slower, - quicker)" if watch.ended is None else "")
    if watch.until:
        line.append(f" · until {visible(watch.until)}")
    lines = [line]
    fetched = f"last fetched {time_of_day(watch.last_fetched)}" if watch.last_fetched else ""
    if watch.last_fetched and watch.ended is None:  # a running watch's `3 s ago` moves each second
        fetched += f" ({ago(now - watch.last_fetched)})"
    counts = f"{counted(watch.fetches, 'fetch', 'fetches')} · {counted(watch.seen, 'version')}"
    lines.append(Text(" · ".join(filter(None, [visible(watch.url), counts, fetched])), style="dim"))
    if watch.slowed and watch.ended is None:
        lines.append(Text(f"⏳ {visible(watch.slowed)}", style="status-4xx"))
    if watch.problem:
        lines.append(Text(f"⚠ {visible(watch.problem)}", style="status-5xx"))
    return lines


def ending(watch: Watch) -> Text | None:
    if watch.ended is None:
        return None
    if watch.ended == HELD:
        return Text(f"✓ the condition holds: {visible(watch.until)}", style="status-2xx")
    if watch.ended == DELETED:
        return Text("✗ deleted: the watch ended", style="status-5xx")
    if watch.ended == NOT_THERE:
        return Text("✗ not there (404): nothing to watch; the watch ended", style="status-5xx")
    return Text(f"■ {visible(watch.ended)}", style="dim")


class WatchView(VerticalScroll):
    """The timeline of one watch (or a line for each of several)."""

    DEFAULT_CSS = """
    WatchView { padding: 0 1; }
    WatchView > Static { width: 1fr; }
    WatchView > #timeline { text-wrap: nowrap; text-overflow: ellipsis; }  /* a change a line, cut at the edge */
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.current_watch: Watch | None = None
        self.others: list[Watch] = []
        self.now: Callable[[], float] = time.time

    def compose(self) -> ComposeResult:
        yield Static(Text(EMPTY), id="heading")  # wraps: the URL and the condition are said whole
        yield Static(id="timeline")  # a line each, cut with … at the pane's edge

    def on_mount(self) -> None:
        self.set_interval(1.0, self.tick)

    def show(self, watch: Watch | None, others: list[Watch], now: Callable[[], float]) -> None:
        """The watch in view (None: none), the others, and the clock their times are read on."""
        self.current_watch, self.others, self.now = watch, others, now
        at_end = self.scroll_y >= self.max_scroll_y  # following the newest, as a log does
        self.draw()
        if at_end:
            self.call_after_refresh(self.scroll_end, animate=False)

    def tick(self) -> None:
        if self.current_watch is not None and self.current_watch.ended is None and self.region.area:
            self.draw()

    def draw(self) -> None:
        head, rest = self.parts()
        if not head:
            head = (
                [Text(EMPTY)] if not rest else [Text("The resource in view is not watched: w watches it.", style="dim")]
            )
        self.query_one("#heading", Static).update(Text("\n").join(head))
        self.query_one("#timeline", Static).update(Text("\n", no_wrap=True, overflow="ellipsis").join(rest))

    def text(self) -> Text:
        """Everything the pane says, as lines."""
        head, rest = self.parts()
        return Text("\n").join(head + rest) if head or rest else Text(EMPTY)

    def parts(self) -> tuple[list[Text], list[Text]]:
        """The heading (what is watched, how), and the lines under it (its timeline, the others)."""
        now = self.now()
        head: list[Text] = []
        lines: list[Text] = []
        watch = self.current_watch
        if watch is not None:
            head += heading(watch, now)
            lines.append(Text(""))
            if watch.versions and watch.versions[0].number != 1:
                lines.append(Text("(the first versions were let go: the most kept is 500)", style="dim"))
            for version in watch.versions:
                lines += version_lines(version)
            end = ending(watch)
            if end is not None:
                lines.append(end)
        others = [other for other in self.others if other is not watch]
        if others:
            lines.append(Text(""))
            lines.append(Text("Also watched" if watch is not None else "Watched", style="bold"))
            for other in others:
                state = "◉" if other.ended is None else "○"
                seen = f"{other.seen} version{'s' * (other.seen != 1)}"
                detail = other.ended or (f"last fetched {ago(now - other.last_fetched)}" if other.last_fetched else "")
                lines.append(Text(f"{state} {visible(other.title)} · {seen} · {visible(detail)}"))
        return head, lines
