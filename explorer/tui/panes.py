"""The explorer screen's panes, one entry each in PANES: the screen composes a tab for each, gives
each its key (help and the [keys] remapping read that binding), and hands the page in view to those
that show it. A new pane is a widget module and a line here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from textual.binding import Binding
from textual.widget import Widget

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.tui.widgets.headers_view import HeadersView
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.page_view import PageView
from explorer.tui.widgets.request_log import RequestLog
from explorer.tui.widgets.watch_view import WatchView


@runtime_checkable
class ShowsPage(Protocol):
    """A pane that shows the page in view: every answer goes to `show` (a write's too), and a
    failure with no answer to `show_failure`, so the pane never keeps an earlier answer beside it."""

    def show(self, resource: Resource) -> None: ...

    def show_failure(self, error: ApiError) -> None: ...


@dataclass(frozen=True)
class Pane:
    """One tabbed pane of the explorer screen.

    title: the tab's label; the key's description in help is `<title> pane`.
    id: the TabPane's id, the name `action_tab` takes, and the end of the binding id (`explorer.tab_<id>`).
    key: the key that shows the pane and gives it the keys.
    widget: what the tab holds, made with no arguments.
    shows_page: whether the pane shows the page in view (it is then a ShowsPage): every answer and
        failure goes to it, and keys typed to it while the next page is on its way wait for that page.
    """

    title: str
    id: str
    key: str
    widget: type[Widget]
    shows_page: bool = False

    def __post_init__(self) -> None:
        if self.shows_page and not issubclass(self.widget, ShowsPage):
            raise TypeError(f"{self.widget.__name__} shows the page: it needs show(resource) and show_failure(error)")

    @property
    def binding(self) -> Binding:
        return Binding(self.key, f"tab('{self.id}')", f"{self.title} pane", show=False, id=f"explorer.tab_{self.id}")


PANES = (
    Pane("Page", "page", "1", PageView, shows_page=True),
    Pane("JSON", "json", "2", JsonPane, shows_page=True),
    Pane("Headers", "headers", "3", HeadersView, shows_page=True),
    Pane("Log", "log", "4", RequestLog),
    Pane("Watch", "watch", "5", WatchView),
)


def showing_page(widget: Widget) -> ShowsPage:
    """A mounted pane that shows the page, as one (Pane checked its class)."""
    if not isinstance(widget, ShowsPage):
        raise TypeError(f"{widget!r} does not show a page")
    return widget
