"""The status bar: the token's time left, the rate limits, the last response and the last error.

It reads the session once a second and never causes a request. Clicking the error (or the
screen's key for it) asks for the whole document. One widget, one line of Content: its parts are
styled spans, so the bar costs one node to lay out, and its colours follow the theme.
"""

from __future__ import annotations

import httpx
from textual.content import Content
from textual.message import Message
from textual.style import Style
from textual.widgets import Static

from explorer.api.errors import ApiError
from explorer.api.ratelimit import TOKEN, Window, key_of
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.tui.palette import status_class
from explorer.tui.safe import visible

SEPARATOR = ("  │  ", "$text-muted")
TOKEN_STYLES = {"valid": "$token-valid", "refreshing": "$token-refreshing", "none": "$text"}  # else expired
METER = 5  # cells of the rate-limit meter: ███░░


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        background: $panel;
        color: $text;
        padding: 0 1;
    }
    """

    class ErrorSelected(Message):
        """The error in the bar was clicked: show the whole document."""

        def __init__(self, error: ApiError) -> None:
            super().__init__()
            self.error = error

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: Session | None = None
        self.project: str | None = None
        self.last: tuple[str, str] | None = None  # text and style of the last response
        self.error: ApiError | None = None

    def follow(self, session: Session) -> None:
        """Follow this session: its token and rate limits, read once a second."""
        self.session = session
        self.tick()
        self.set_interval(1.0, self.tick)

    def show_response(self, resource: Resource) -> None:
        project = key_of(httpx.URL(resource.url))
        self.project = None if project == TOKEN else project
        line = f"{resource.status} {resource.reason} · {resource.elapsed * 1000:.0f} ms"
        self.last = (visible(line), f"${status_class(resource.status)}")
        self.tick()

    def show_error(self, error: ApiError | None) -> None:
        self.error = error
        self.tooltip = "Click the error for the whole document (or press x)" if error else None
        self.tick()

    def action_select_error(self) -> None:
        if self.error is not None:
            self.post_message(self.ErrorSelected(self.error))

    def parts(self) -> list[tuple[str, str | Style]]:
        """The bar's parts, each text with its style."""
        parts = self.session_parts() if self.session is not None else []
        if self.last is not None:
            parts += [SEPARATOR, self.last] if parts else [self.last]
        if self.error is not None:
            clickable = Style.parse("$text-error") + Style.from_meta({"@click": "select_error"})
            error = (f"⚠ {visible(self.error.line())}", clickable)
            parts += [SEPARATOR, error] if parts else [error]
        return parts

    def session_parts(self) -> list[tuple[str, str | Style]]:
        """The token and the rate limits, as the session has them now."""
        assert self.session is not None
        parts: list[tuple[str, str | Style]] = []
        now = self.session.clock()
        state = self.session.token_state
        if state is None:
            parts.append(("API key · Digest", "$token-valid"))
        else:
            status = state.status(now)
            shown = f"token {status}"
            if status in ("valid", "refreshing"):
                shown += f" {state.countdown(now)}"
            shown += f" · {state.refreshes} refresh" + ("" if state.refreshes == 1 else "es")
            parts.append((shown, TOKEN_STYLES.get(status, "$token-expired")))
        limits = self.session.rate_limits
        held = self.session.held_until or 0.0
        waiting = held > now
        parts.append(SEPARATOR)
        if self.project:
            parts += [*meter("project", limits.window(self.project), now, waiting), ("  ", "")]
        parts += meter("token endpoint", limits.window(TOKEN), now, False)
        if waiting:
            parts.append((f" · held {held - now:.0f}s", "$meter-held"))
        return parts

    def tick(self) -> None:
        self.update(Content.assemble(*self.parts()))


def meter(name: str, window: Window, now: float, held: bool) -> list[tuple[str, str | Style]]:
    """`project ████░ 98 of 100 left`: the meter says how much of the minute's allowance is left."""
    limit = window.server_limit or window.limit
    left = window.remaining()
    share = left / limit if limit else 0.0
    cells = min(METER, max(0, round(share * METER)))
    if held or left == 0 or (window.retry_at or 0) > now:
        style = "$meter-held"
    elif share <= 0.2:
        style = "$meter-low"
    else:
        style = "$meter-ok"
    return [(f"{name} ", ""), ("█" * cells + "░" * (METER - cells), style), (f" {window.line(now)}", "")]
