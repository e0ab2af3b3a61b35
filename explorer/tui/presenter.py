"""--presenter: what the audience should see of each action — the key, what it does, what it sent.

The app tells the presenter each key (and click) and the session's new exchanges; the overlay on
each screen draws its actions. Keys typed into a secret field are shown as dots.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Reversible
from dataclasses import dataclass, field

from rich.cells import cell_len

from explorer.api.exchanges import Exchange, since
from explorer.tui.palette import status_class
from explorer.tui.safe_text import visible
from explorer.tui.url_layout import path_line

SHOWN = 10  # actions kept: as many as the strip's most lines, of which it shows the newest that fit
REQUESTS_EACH = 3  # requests listed under one action ("+ 2 more" after that)


@dataclass(frozen=True)
class RequestLine:
    """`GET /groups?pageNum=2  200 · 43 ms`, cut to a width in its path as the Log cuts one (the
    resource and the page stay): the status and the time stay whole (a line wrapped in a figure
    read `503 · 1`, then ` ms`)."""

    method: str
    target: str
    outcome: str  # `200 · 43 ms`

    def fit(self, cells: int) -> str:
        whole = f"{self.method} {self.target}  {self.outcome}"
        if cell_len(whole) <= cells:
            return whole
        room = cells - cell_len(f"{self.method}   {self.outcome}")
        return f"{self.method} {path_line(self.target, max(1, room))}  {self.outcome}"


@dataclass
class Action:
    key: str
    does: str
    requests: list[tuple[RequestLine, str]] = field(default_factory=list)  # (line, status variable)
    more: int = 0
    times: int = 1  # the same key again, with nothing sent between: "] Next page ×3"


class Presenter:
    def __init__(self) -> None:
        self.actions: deque[Action] = deque(maxlen=SHOWN)
        self.seen = 0  # the number of the last exchange shown
        self.version = 0  # goes up with every change, so overlays redraw only when needed

    def pressed(self, key: str, does: str) -> None:
        """A key and what it does. Characters typed into a field run on in one line (`/orgs  typing`):
        a line a letter pushed the key that opened the field out, and `g` typed read as `g Go to`."""
        last = self.actions[-1] if self.actions else None
        if last is not None and does == "typing" and last.does == "typing" and not last.requests:
            last.key += key
        elif last is not None and (last.key, last.does) == (key, does) and not last.requests:
            last.times += 1
        else:
            self.actions.append(Action(key, does))
        self.version += 1

    def sent(self, log: Reversible[Exchange], root: str = "") -> None:
        """Put the exchanges not shown yet under the last action (under "start" before any key)."""
        fresh = since(log, self.seen)
        if not fresh:
            return
        self.seen = fresh[-1].number
        if not self.actions:
            self.actions.append(Action("", "start"))
        action = self.actions[-1]
        for exchange in fresh:
            if len(action.requests) < REQUESTS_EACH:
                action.requests.append((request_line(exchange, root), status_class(exchange.status)))
            else:
                action.more += 1
        self.version += 1


def request_line(exchange: Exchange, root: str) -> RequestLine:
    """`GET /groups?pageNum=2  200 · 43 ms`: paths under the API root without it, as the tree has them."""
    target = exchange.target
    if root and (target == root or target.startswith((root + "/", root + "?"))):
        target = target[len(root) :] or "/"
        target = "/" + target if target.startswith("?") else target
    return RequestLine(
        visible(exchange.method), visible(target), visible(f"{exchange.status} · {exchange.elapsed * 1000:.0f} ms")
    )
