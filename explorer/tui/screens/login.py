"""Login: the API root, client ID, secret and CA bundle when nothing is configured; or the demo sandbox.

The form connects before it is left: it opens the session and fetches the root, so that a wrong
secret or URL is answered on the form, where it can be corrected, and the explorer screen only
ever opens on a session that works.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Static
from textual.worker import Worker

from explorer.api.config import Credentials, check_ca_bundle
from explorer.api.errors import ApiError, ConfigError
from explorer.api.profiles import check_profile_name, save_profile
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.urls import check_base_url
from explorer.tui.safe import lines, visible

Result = Session | Literal["demo"]

# (id, label, placeholder) of each field, in the order they are filled
FIELDS = (
    ("base_url", "API root", "https://host/api/service/v1.0"),
    ("client_id", "Client ID", "the service account's client ID"),
    ("secret", "Secret", "the client secret"),
    ("ca_bundle", "CA bundle", "optional: PEM file to trust, e.g. sandbox-ca.pem"),
)


class LoginScreen(Screen[Result]):
    BINDINGS = [
        # priority: a field has focus from the start, and Input takes ctrl+d (delete right) for itself
        Binding("ctrl+d", "demo", "Demo sandbox", id="login.demo", priority=True),
        Binding("escape", "cancel", "Cancel", id="login.cancel"),
        Binding("escape", "quit", "Quit", id="login.quit"),
    ]
    DEFAULT_CSS = """
    LoginScreen { align: center middle; }
    LoginScreen > VerticalScroll {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        padding: 1 2;
    }
    LoginScreen #title { text-style: bold; margin-bottom: 1; }
    LoginScreen #problem { color: $text-error; margin-bottom: 1; }
    LoginScreen Grid {
        grid-size: 2;
        grid-columns: 10 1fr;
        grid-rows: 1;
        grid-gutter: 0 1;
        height: auto;
        margin-bottom: 1;
    }
    LoginScreen Input { background: $panel; }
    LoginScreen Input:focus { background-tint: $primary 30%; }
    LoginScreen #saving { height: 1; margin-bottom: 1; }
    LoginScreen Checkbox > .toggle--button { color: $panel; }  /* unticked: no X (ticked: Textual's) */
    LoginScreen #profile { width: 1fr; margin-left: 1; }
    LoginScreen #outcome { color: $text-muted; margin-top: 1; }
    LoginScreen #outcome.error { color: $text-error; }
    LoginScreen #buttons { height: 1; }
    LoginScreen Button { margin-right: 2; }
    """

    def __init__(
        self,
        problem: ApiError | None,
        config_path: Path,
        known: Mapping[str, str] | None = None,
        connect: Callable[[Credentials], Session] = Session,
    ) -> None:
        """`known`: what the flags, environment or profile say of the fields (never a secret).
        `connect` makes the session (tests pass one that reaches an in-process sandbox)."""
        super().__init__()
        self.problem = problem
        self.config_path = config_path
        self.known = dict(known or {})
        self.opener = connect
        self.connecting: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("Connect to an administration API", id="title", markup=False)
            if self.problem is not None:
                yield Static(self.message(self.problem), id="problem")
            with Grid():
                for name, label, placeholder in FIELDS:
                    yield Label(label)
                    yield Input(
                        value=self.known.get(name, ""),
                        placeholder=placeholder,
                        password=name == "secret",
                        compact=True,
                        id=name,
                    )
            with Horizontal(id="saving"):
                yield Checkbox("Save as a profile named", compact=True, id="save")
                yield Input(value="default", compact=True, id="profile")
            with Horizontal(id="buttons"):
                yield Button("Connect", variant="primary", compact=True, id="connect")
                yield Button("Demo sandbox", compact=True, id="demo")
            yield Static(id="outcome")
        yield Footer()

    def on_mount(self) -> None:
        empty = [name for name, *_ in FIELDS[:3] if not self.known.get(name)]
        if empty:
            self.query_one(f"#{empty[0]}", Input).focus()  # the first field there is to fill

    @staticmethod
    def message(error: ApiError) -> Text:
        return Text("\n".join(lines(error.line() + (f"\n{error.hint}" if error.hint else ""))))

    def say(self, what: ApiError | str) -> None:
        """The line under the form: how connecting goes, or what is wrong and the hint."""
        for problem in self.query("#problem"):  # why the form was shown at start: answered by now
            problem.display = False
        outcome = self.query_one("#outcome", Static)
        outcome.update(Text(visible(what)) if isinstance(what, str) else self.message(what))
        outcome.set_class(not isinstance(what, str), "error")
        outcome.scroll_visible()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "demo":
            self.action_demo()
        else:
            self.connect()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.connect()

    def action_demo(self) -> None:
        if self.connecting is not None:
            self.action_cancel()
        self.dismiss("demo")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc cancels while connecting, and quits otherwise."""
        if action == "cancel":
            return self.connecting is not None
        if action == "quit":
            return self.connecting is None
        return True

    def action_cancel(self) -> None:
        if self.connecting is not None:
            self.connecting.cancel()
            self.connected(None)
            self.say("Cancelled: not connected.")

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def connect(self) -> None:
        """Check the form, then open the session and fetch the root, in the background."""
        if self.connecting is not None:
            return  # one attempt at a time; Esc cancels it
        try:
            credentials = self.credentials()
        except ApiError as error:
            self.say(error)
            return
        self.say(f"Connecting to {credentials.host}…")
        self.connected(self.run_worker(self.attempt(credentials), group="login"))

    def connected(self, worker: Worker[None] | None) -> None:
        """An attempt began (a worker) or ended (None): Esc's meaning changes."""
        self.connecting = worker
        self.refresh_bindings()

    def credentials(self) -> Credentials:
        """What the form says, checked; and the profile name, if it is to be saved."""
        value = {name: self.query_one(f"#{name}", Input).value.strip() for name, *_ in FIELDS}
        if not (value["base_url"] and value["client_id"] and value["secret"]):
            raise ConfigError("Give the API root, the client ID and the secret; or try the demo sandbox")
        credentials = Credentials(
            str(check_base_url(value["base_url"])),
            client_id=value["client_id"],
            client_secret=Secret(value["secret"]),
            ca_bundle=check_ca_bundle(value["ca_bundle"]) if value["ca_bundle"] else None,
        )
        if self.query_one("#save", Checkbox).value:
            check_profile_name(self.config_path, self.profile_name())
        return credentials

    def profile_name(self) -> str:
        return self.query_one("#profile", Input).value.strip() or "default"

    async def attempt(self, credentials: Credentials) -> None:
        """Open the session and fetch the root: leave with the session, or stay with the error."""
        try:
            session = self.opener(credentials)
        except ApiError as error:
            self.connected(None)
            self.say(error)
            return
        try:
            resource = await session.fetch("")
            if resource.error is not None:
                raise resource.error
        except ApiError as error:
            self.connected(None)
            self.say(error)
            await session.aclose()
            return
        except asyncio.CancelledError:
            await session.aclose()
            raise
        self.connected(None)
        self.save(credentials)
        self.dismiss(session)

    def save(self, credentials: Credentials) -> None:
        if not self.query_one("#save", Checkbox).value:
            return
        try:
            saved = save_profile(self.config_path, self.profile_name(), credentials)
        except ConfigError as error:
            self.notify(error.line(), title="Profile not saved", severity="error", timeout=10, markup=False)
        else:
            self.notify(saved, title="Profile", timeout=10, markup=False)
