"""The Log pane: every request of the session, token requests included."""

from __future__ import annotations

import re
import time
from collections.abc import Reversible

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from explorer.api.exchanges import Exchange, since
from explorer.api.writes import WRITE_METHODS
from explorer.tui.palette import status_class
from explorer.tui.safe_text import text
from explorer.tui.url_layout import path_line

LEAST_PATH = 12  # cells of a path cut that still tell it apart (`…?pageNum=12`, `…orders-prod`)
COLUMNS: tuple[str, ...] = ("time", "method", "status", "ms", "bytes", "path")
GIVE_WAY = ("bytes", "time", "ms")  # in this order, the columns that leave a narrow pane to the path


class RequestLog(DataTable[object]):
    DEFAULT_CSS = """
    RequestLog {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.last_number = 0  # the number of the last exchange listed
        self.paths: list[tuple[RowKey, str]] = []  # each row's path whole, to cut anew to a new width
        self.cells: list[dict[str, Text]] = []  # each row's other cells, to lay the rows out anew
        self.widest = {name: cell_len(name) for name in COLUMNS}  # each column's widest cell
        self.path_room = 0  # the cells the path column was last cut to (0: not cut)
        self.shown_columns = COLUMNS

    def on_mount(self) -> None:
        # The path last: it is the long one. Cut to the room the pane leaves it, so what tells two
        # requests apart (`…/clusters/orders-prod`, `…&pageNum=2`) is never past the edge.
        for name in self.shown_columns:
            self.add_column(name, key=name)

    def on_resize(self) -> None:
        self.fit_paths()

    def on_show(self) -> None:
        """Rows added while the pane was hidden were cut to no width: now it has one."""
        self.call_after_refresh(self.fit_paths)

    def room_for_paths(self, columns: tuple[str, ...]) -> int:
        """The cells the pane leaves the path column beside `columns` (0 while it is not laid out)."""
        width = self.scrollable_content_region.width
        if not width:
            return 0
        others = sum(self.widest[name] + 2 * self.cell_padding for name in columns if name != "path")
        return width - others - 2 * self.cell_padding

    def columns_for_room(self) -> tuple[str, ...]:
        """Every column where the path has LEAST_PATH cells beside them; else the fewest of GIVE_WAY
        left out that give it that (bytes first, then the time, then ms), so that a narrow pane (80
        columns, 60) still shows what tells two requests apart rather than push it past its edge."""
        columns = COLUMNS
        for name in GIVE_WAY:
            if self.room_for_paths(columns) >= LEAST_PATH:
                break
            columns = tuple(column for column in columns if column != name)
        return columns

    def lay_out_columns(self, columns: tuple[str, ...]) -> None:
        """The table anew with `columns`, every row in it, the cursor where it was."""
        at = self.cursor_row
        self.shown_columns = columns
        self.clear(columns=True)
        for name in columns:
            self.add_column(name, key=name)
        paths, self.paths = self.paths, []
        for cells, (_, path) in zip(self.cells, paths, strict=True):
            row = self.add_row(*(cells[name] for name in columns if name != "path"), text(self.fitted(path)))
            self.paths.append((row, path))
        if self.row_count:
            self.move_cursor(row=min(at, self.row_count - 1))

    def fit_paths(self) -> None:
        """Each path cut to the room there is now; whole where it fits."""
        if not self.scrollable_content_region.width:  # not laid out (a hidden pane): cut when it shows
            return
        columns = self.columns_for_room()
        if columns != self.shown_columns:
            self.lay_out_columns(columns)
        room = max(LEAST_PATH, self.room_for_paths(columns))
        if room == self.path_room:
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
        fresh = since(log, self.last_number)
        for exchange in fresh:
            path = exchange.target
            if api_root and (path == api_root or path.startswith((api_root + "/", api_root + "?"))):
                path = path[len(api_root) :] or "/"
                path = path if path.startswith("/") else "/" + path
            path = ID_SEGMENT.sub(short_id, path)
            cells = {
                "time": text(time.strftime("%H:%M:%S", time.localtime(exchange.at))),
                "method": text(f"✎ {exchange.method}", "bold") if is_write(exchange) else text(exchange.method),
                "status": text(exchange.status, status_class(exchange.status)),
                "ms": text(f"{exchange.elapsed * 1000:.0f}"),
                "bytes": text(f"{exchange.size:,}"),
            }
            for name, cell in cells.items():
                self.widest[name] = max(self.widest[name], cell.cell_len)
            other_cells = (cells[name] for name in self.shown_columns if name != "path")
            row = self.add_row(*other_cells, text(self.fitted(path)))
            self.paths.append((row, path))
            self.cells.append(cells)
        if fresh:
            self.last_number = fresh[-1].number
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
