"""Login: the API root, client ID, secret and CA bundle when nothing is configured; or the demo sandbox.

The form connects before it is left: it opens the session and fetches the root, so that a wrong
secret or URL is answered on the form, where it can be corrected, and the explorer screen only
ever opens on a session that works.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Literal, NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Label, Static
from textual.worker import Worker

from explorer.api.config import Credentials, check_ca_bundle
from explorer.api.errors import ApiError, ConfigError
from explorer.api.profiles import check_profile_name, save_profile
from explorer.api.resource import Resource
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.urls import check_base_url
from explorer.display.saved_profile import saved_words
from explorer.display.variables import VARIABLES
from explorer.tui.form_hints import field_for, form_hint, in_form_words
from explorer.tui.safe_text import lines, visible
from explorer.tui.screens.quit_form import QuitScreen
from explorer.tui.widgets.form_field import FormField
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.widgets.tick_box import TickBox


class Connected(NamedTuple):
    """What Connect leaves the form with: the session, and its root as fetched (shown, not asked again)."""

    session: Session
    root: Resource


Result = Connected | Literal["demo"]

# (id, label, placeholder) of each field, in the order they are filled
FIELDS = (
    ("base_url", "API root", "https://host/api/service/v1.0"),
    ("client_id", "Client ID", "the service account's client ID"),
    ("secret", "Secret", "the client secret"),
    ("ca_bundle", "CA bundle", "optional: e.g. sandbox-ca.pem"),
)
PROFILE = "default"  # the name offered for the profile to save


class FieldError(Exception):
    """A failure that is about one field of the form: the cursor goes there, to correct it."""

    def __init__(self, field: str, error: ApiError) -> None:
        super().__init__(error.line())
        self.field = field
        self.error = error


@contextmanager
def about(field: str) -> Iterator[None]:
    """An ApiError raised inside is about this field (a FieldError)."""
    try:
        yield
    except ApiError as error:
        raise FieldError(field, error) from None


class LoginScreen(Screen[Result]):
    BINDINGS = [
        # priority: a field has focus from the start, and Input takes ctrl+d (delete right) for itself
        Binding("ctrl+d", "demo", "Demo sandbox", id="login.demo", priority=True),
        Binding("escape", "cancel", "Cancel", id="login.cancel"),
        Binding("escape", "quit", "Quit", id="login.quit"),
        # priority: Tab moves the cursor as it comes, so what is typed or pasted after it, before a
        # field's own queue has caught up, lands in the next field and not in this one
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
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
    LoginScreen .row { height: 1; border-left: blank; }
    LoginScreen .row:focus-within { border-left: outer $accent; }
    LoginScreen .row > Label { width: 11; }
    LoginScreen .row:focus-within > Label { text-style: bold; color: $accent; }
    LoginScreen #saving, LoginScreen #buttons { margin-top: 1; }
    LoginScreen #profile { width: 1fr; margin-left: 1; }
    LoginScreen #outcome { color: $text-muted; margin-top: 1; }
    LoginScreen #outcome.error { color: $text-error; }
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
        self.refused_in: FormField | None = None  # the field a paste was refused in, while the form says so
        self.started_with: dict[str, str] = {}  # each field as the form opened: what Esc would lose is the rest

    def compose(self) -> ComposeResult:
        with VerticalScroll(can_focus=False):
            yield Static("Connect to an administration API", id="title", markup=False)
            if self.problem is not None:
                yield Static(self.message(self.problem), id="problem")
            for name, label, placeholder in FIELDS:
                with Horizontal(classes="row"):
                    yield Label(label)
                    yield FormField(
                        self.known.get(name, ""), placeholder=placeholder, password=name == "secret", id=name
                    )
            with Horizontal(classes="row", id="saving"):
                # never ticked unasked: a profile is written only when the person says so
                yield TickBox(self.saving_label(False), value=False, compact=True, id="save")
                yield FormField(PROFILE if self.offered() else "", placeholder="a name for the profile", id="profile")
            with Horizontal(classes="row", id="buttons"):
                yield Button("Connect", variant="primary", compact=True, id="connect")
                demo = Button("Demo sandbox", compact=True, id="demo")
                demo.can_focus = False  # ctrl+d, or a click: Tab goes round the fields and Connect only
                yield demo
            yield Static(id="outcome")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#profile").display = self.query_one("#save", Checkbox).value
        self.started_with = self.typed()
        empty = [name for name, *_ in FIELDS[:3] if not self.known.get(name)]
        if empty:
            self.query_one(f"#{empty[0]}", FormField).focus()  # the first field there is to fill

    def offered(self) -> bool:
        """Whether the name "default" is offered for the profile, once the box is ticked: when it is free in
        the config file (a form started from a profile that lacks its secret is not saved over it)."""
        try:
            check_profile_name(self.config_path, PROFILE)
        except ApiError:
            return False
        return True

    @staticmethod
    def saving_label(ticked: bool) -> str:
        return "Save as a profile named" if ticked else "Save as a profile"

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """The name shows only when the profile is to be saved; ticked, the cursor goes to it if empty."""
        event.checkbox.label = self.saving_label(event.value)
        name = self.query_one("#profile", FormField)
        name.display = event.value
        if event.value and not name.value.strip():
            name.focus()

    def on_form_field_refused(self, event: FormField.Refused) -> None:
        self.say(
            f"Not pasted: that paste held {event.parts} values (separated by tabs or line breaks). "
            "Paste one value into each field."
        )
        self.refused_in = event.field

    def on_input_changed(self, event: FormField.Changed) -> None:
        """A refused paste is said until the field it was refused in changes (a paste that went in)."""
        if event.input is self.refused_in:
            self.say("")

    @staticmethod
    def message(error: ApiError) -> Text:
        """The error and its hint, worded for the form where the library's names a flag."""
        return Text("\n".join(lines(in_form_words(error.line()) + (f"\n{hint}" if (hint := form_hint(error)) else ""))))

    def fail(self, error: ApiError, field: str | None) -> None:
        """Say what went wrong, and put the cursor in the field it is about, to correct it there."""
        self.say(error)
        if field is not None:
            self.query_one(f"#{field}", FormField).focus()

    def say(self, what: ApiError | str) -> None:
        """The line under the form: how connecting goes, or what is wrong and the hint."""
        self.refused_in = None
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

    def on_input_submitted(self, event: FormField.Submitted) -> None:
        self.connect()

    def action_demo(self) -> None:
        if self.connecting is not None:
            self.action_cancel()
        self.dismiss("demo")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc cancels while connecting, and quits otherwise (asking first when something was typed)."""
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

    def typed(self) -> dict[str, str]:
        return {field.id or "": field.value for field in self.query(FormField)}

    async def action_quit(self) -> None:
        """Esc: quit at once when nothing was typed; else only once asked, since it is lost (the secret too)."""
        if self.typed() == self.started_with:
            await self.app.action_quit()
        else:
            self.app.push_screen(QuitScreen(), self.quit_if_sure)

    async def quit_if_sure(self, sure: bool | None) -> None:
        if sure:
            await self.app.action_quit()

    def connect(self) -> None:
        """Check the form, then open the session and fetch the root, in the background."""
        if self.connecting is not None:
            return  # one attempt at a time; Esc cancels it
        try:
            credentials = self.credentials()
        except FieldError as wrong:
            self.fail(wrong.error, wrong.field)
            return
        self.say(f"Connecting to {credentials.host_and_port}…")
        self.connected(self.run_worker(self.attempt(credentials), group="login"))

    def connected(self, worker: Worker[None] | None) -> None:
        """An attempt began (a worker) or ended (None): Esc's meaning changes."""
        self.connecting = worker
        self.refresh_bindings()

    def credentials(self) -> Credentials:
        """What the form says, checked, and the profile name if it is to be saved: FieldError names
        the field that is wrong."""
        value = {name: self.query_one(f"#{name}", FormField).value.strip() for name, *_ in FIELDS}
        for name, *_ in FIELDS[:3]:
            with about(name):
                if not value[name]:
                    raise ConfigError("Give the API root, the client ID and the secret; or try the demo sandbox")
        with about("base_url"):
            base_url = str(check_base_url(value["base_url"]))
        with about("ca_bundle"):
            ca_bundle = check_ca_bundle(value["ca_bundle"]) if value["ca_bundle"] else None
        if self.query_one("#save", Checkbox).value:
            with about("profile"):
                if not self.profile_name():
                    raise ConfigError("Name the profile to save, or untick “Save as a profile”")
                check_profile_name(self.config_path, self.profile_name())
        return Credentials(
            base_url, client_id=value["client_id"], client_secret=Secret(value["secret"]), ca_bundle=ca_bundle
        )

    def profile_name(self) -> str:
        return self.query_one("#profile", FormField).value.strip()

    async def attempt(self, credentials: Credentials) -> None:
        """Open the session and fetch the root: leave with the session, or stay with the error."""
        try:
            session = self.opener(credentials)
        except ApiError as error:
            self.connected(None)
            self.fail(error, field_for(error))
            return
        try:
            resource = await session.fetch("")
            if resource.error is not None:
                raise resource.error
            await asyncio.to_thread(resource.prepare)  # as the explorer screen does for what it fetches
        except ApiError as error:
            self.connected(None)
            self.fail(error, field_for(error))
            await session.aclose()
            return
        except asyncio.CancelledError:
            await session.aclose()
            raise
        self.connected(None)
        self.save(session.credentials)  # as the session has them: with a writes = false the origin holds
        self.dismiss(Connected(session, resource))

    def save(self, credentials: Credentials) -> None:
        """Save the profile if the box is ticked (its secret to the system keyring, or nowhere: never in
        the file); either way, say what became of the credentials and where."""
        if not self.query_one("#save", Checkbox).value:
            self.notify(
                "Not saved as a profile: the next start asks for these again (tick “Save as a profile” to keep them).",
                title="Profile",
                timeout=10,
                markup=False,
            )
            return
        try:
            saved = saved_words(save_profile(self.config_path, self.profile_name(), credentials, VARIABLES))
        except ConfigError as error:
            self.notify(error.line(), title="Profile not saved", severity="error", timeout=10, markup=False)
        else:
            self.notify(saved, title="Profile", timeout=20, markup=False)  # what to set, if anything: time to read it
