"""--presenter in the app: each key or click described as the audience reads it, and the overlay on every screen.

The app hands each input here before its bindings see it (so what a key did is named by the
binding it will run), and the session's new requests are added under the last key five times a
second. `presenter.py` keeps what is shown; `widgets/presenter_overlay.py` draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App
from textual.screen import Screen
from textual.widgets import Input

from explorer.api.session import Session
from explorer.tui.key_line import takes_text
from explorer.tui.keys import display
from explorer.tui.presenter import Presenter
from explorer.tui.safe_text import visible
from explorer.tui.widgets.presenter_overlay import PresenterOverlay

TICK = 0.2  # seconds between looks at the session's log


class PresenterFeed:
    """The presenter of one app, fed from its inputs and from the session `session()` gives."""

    def __init__(self, app: App[Any], session: Callable[[], Session | None]) -> None:
        self.app = app
        self.session = session
        self.presenter = Presenter()

    def start(self) -> None:
        """Put the overlay on each screen as it is shown, and look for new requests from now on."""
        self.app.screen_change_signal.subscribe(self.app, self.on_screen)
        self.app.set_interval(TICK, self.present)

    def record_input(self, event: events.Key | events.MouseDown) -> None:
        """An input, the first time the app sees it: what the keys before sent stays under them."""
        self.present()
        self.presenter.pressed(*self.describe(event))
        self.present()

    def describe(self, event: events.Key | events.MouseDown) -> tuple[str, str]:
        """What the audience sees of an input: the key (or click) and what it does here."""
        if isinstance(event, events.MouseDown):
            return "click", ""
        focused = self.app.focused
        if isinstance(focused, Input) and focused.password and event.is_printable:
            return "•", "typing a secret"
        key = visible(event.character) if event.is_printable and event.character else display(event.key)
        active = self.app.screen.active_bindings.get(event.key)
        if active is not None:
            return key, active.binding.description or active.binding.action
        return key, "typing" if takes_text(focused) and event.is_printable else ""

    def on_screen(self, screen: Screen[Any]) -> None:
        if not screen.query(PresenterOverlay):
            screen.mount(PresenterOverlay())
        self.present()

    def present(self) -> None:
        """Show the session's new requests under the last key, on the overlay of this screen."""
        session = self.session()
        if session is not None:
            self.presenter.sent(session.log, session.base_url.path.rstrip("/"))
        for overlay in self.app.screen.query(PresenterOverlay):
            overlay.show(self.presenter)
