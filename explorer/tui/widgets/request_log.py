"""The Log pane: every request of the session, token requests included."""

from __future__ import annotations

import time
from collections.abc import Reversible

from textual.widgets import DataTable

from explorer.api.exchanges import Exchange, since
from explorer.api.writes import WRITE_METHODS
from explorer.tui.palette import status_class
from explorer.tui.safe import text


class RequestLog(DataTable[object]):
    DEFAULT_CSS = """
    RequestLog {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.shown = 0  # the number of the last exchange shown

    def on_mount(self) -> None:
        # The path last: it is the long one, and what it pushes off the edge matters least.
        for name in ("time", "method", "status", "ms", "bytes", "path"):
            self.add_column(name, key=name)

    def show(self, log: Reversible[Exchange], api_root: str = "") -> None:
        """Add the exchanges not shown yet, oldest first.

        A path under `api_root` (`/api/service/v1.0`) is shown from it, as the tree shows it
        (`/groups/ID/events`); others whole (`/api/oauth/token`).
        """
        fresh = since(log, self.shown)
        for exchange in fresh:
            path = exchange.target
            if api_root and (path == api_root or path.startswith((api_root + "/", api_root + "?"))):
                path = path[len(api_root) :] or "/"
                path = path if path.startswith("/") else "/" + path
            self.add_row(
                text(time.strftime("%H:%M:%S", time.localtime(exchange.at))),
                text(f"✎ {exchange.method}", "bold") if is_write(exchange) else text(exchange.method),
                text(exchange.status, status_class(exchange.status)),
                text(f"{exchange.elapsed * 1000:.0f}"),
                text(f"{exchange.size:,}"),
                text(path),
            )
        if fresh:
            self.shown = fresh[-1].number
            self.move_cursor(row=self.row_count - 1)


def is_write(exchange: Exchange) -> bool:
    """A write the person sent (✎ in the log), not a token request (a POST the auth flow makes)."""
    return exchange.method in WRITE_METHODS and not exchange.target.startswith("/api/oauth/")
