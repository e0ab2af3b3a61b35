"""The Log pane: every request of the session, token requests included."""

from __future__ import annotations

import re
import time
from collections.abc import Reversible

from rich.cells import cell_len
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from explorer.api.exchanges import Exchange, since
from explorer.api.writes import WRITE_METHODS
from explorer.tui.palette import status_class
from explorer.tui.place import path_line
from explorer.tui.safe import text

LEAST_PATH = 8  # cells of a path cut that still name where it went (`…rs-prod`)


class RequestLog(DataTable[object]):
    DEFAULT_CSS = """
    RequestLog {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.shown = 0  # the number of the last exchange shown
        self.paths: list[tuple[RowKey, str]] = []  # each row's path whole, to cut anew to a new width
        self.path_room = 0  # the cells the path column was last cut to (0: not cut)

    def on_mount(self) -> None:
        # The path last: it is the long one. Cut to the room the pane leaves it, so what tells two
        # requests apart (`…/clusters/orders-prod`, `…&pageNum=2`) is never past the edge.
        for name in ("time", "method", "status", "ms", "bytes", "path"):
            self.add_column(name, key=name)

    def on_resize(self) -> None:
        self.fit_paths()

    def on_show(self) -> None:
        """Rows added while the pane was hidden were cut to no width: now it has one."""
        self.call_after_refresh(self.fit_paths)

    def room_for_paths(self) -> int:
        """The cells the pane leaves the path column (0 while it is not laid out)."""
        width = self.scrollable_content_region.width
        if not width:
            return 0
        others = sum(column.get_render_width(self) for key, column in self.columns.items() if key != "path")
        return max(LEAST_PATH, width - others - 2 * self.cell_padding)

    def fit_paths(self) -> None:
        """Each path cut to the room there is now; whole where it fits."""
        room = self.room_for_paths()
        if room == self.path_room or not room:  # not laid out (a hidden pane): cut when it shows
            return
        self.path_room = room
        for row, path in self.paths:
            self.update_cell(row, "path", text(self.fitted(path)))
        self.columns[ColumnKey("path")].content_width = max(
            (cell_len(self.fitted(path)) for _, path in self.paths), default=4
        )
        self.refresh()

    def show(self, log: Reversible[Exchange], api_root: str = "") -> None:
        """Add the exchanges not shown yet, oldest first.

        A path under `api_root` (`/api/service/v1.0`) is shown from it, as the tree shows it
        (`/groups/ID/events`); others whole (`/api/oauth/token`). An id of 24 hex digits is shown by
        its ends (`687b…6b43`): whole, it pushed what tells two requests apart (the cluster's name)
        past the pane's edge, where two rows read the same.
        """
        fresh = since(log, self.shown)
        for exchange in fresh:
            path = exchange.target
            if api_root and (path == api_root or path.startswith((api_root + "/", api_root + "?"))):
                path = path[len(api_root) :] or "/"
                path = path if path.startswith("/") else "/" + path
            path = ID_SEGMENT.sub(short_id, path)
            row = self.add_row(
                text(time.strftime("%H:%M:%S", time.localtime(exchange.at))),
                text(f"✎ {exchange.method}", "bold") if is_write(exchange) else text(exchange.method),
                text(exchange.status, status_class(exchange.status)),
                text(f"{exchange.elapsed * 1000:.0f}"),
                text(f"{exchange.size:,}"),
                text(self.fitted(path)),
            )
            self.paths.append((row, path))
        if fresh:
            self.shown = fresh[-1].number
            self.move_cursor(row=self.row_count - 1)
            self.call_after_refresh(self.fit_paths)  # the other columns may have grown: cut again

    def fitted(self, path: str) -> str:
        """`path` in the path column's room, cut as the title cuts its URL (`…/events?…&pageNum=2`)."""
        return path_line(path, self.path_room) if self.path_room else path


ID_SEGMENT = re.compile(r"(?<=/)[0-9a-f]{24}(?=/|\?|$)")


def short_id(match: re.Match[str]) -> str:
    """An id by its ends: `687b4c139cc9af4ec9546b43` as `687b…6b43`."""
    return f"{match.group(0)[:4]}…{match.group(0)[-4:]}"


def is_write(exchange: Exchange) -> bool:
    """A write the person sent (✎ in the log), not a token request (a POST the auth flow makes)."""
    return exchange.method in WRITE_METHODS and not exchange.target.startswith("/api/oauth/")
