"""Login: the base URL, client ID and secret when nothing is configured; or the demo sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Static

from explorer.api.config import ConfigError, Credentials, check_base_url, save_profile
from explorer.api.errors import ApiError
from explorer.api.secret import Secret
from explorer.tui.safe import lines

Result = Credentials | Literal["demo"]


class LoginScreen(Screen[Result]):
    BINDINGS = [
        Binding("ctrl+d", "demo", "Demo sandbox", id="login.demo"),
        Binding("escape", "app.quit", "Quit", id="login.quit"),
    ]
    DEFAULT_CSS = """
    LoginScreen { align: center middle; }
    LoginScreen > Vertical {
        width: 90%;
        max-width: 90;
        height: auto;
        border: thick $primary;
        padding: 1 2;
    }
    LoginScreen Input { margin-bottom: 1; }
    LoginScreen #problem { color: $text-error; margin-bottom: 1; }
    LoginScreen #outcome { color: $text-warning; }
    LoginScreen Horizontal { height: auto; }
    LoginScreen Button { margin-right: 2; }
    """

    def __init__(self, problem: ApiError | None, config_path: Path) -> None:
        super().__init__()
        self.problem = problem
        self.config_path = config_path

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Connect to an administration API", style="bold"))
            if self.problem is not None:
                message = self.problem.line() + (f"\n{self.problem.hint}" if self.problem.hint else "")
                yield Static(Text("\n".join(lines(message))), id="problem")
            yield Label("API root (https://, or http:// on loopback)")
            yield Input(placeholder="https://cloud.example.com/api/service/v1.0", id="base_url")
            yield Label("Service account client ID")
            yield Input(id="client_id")
            yield Label("Client secret")
            yield Input(password=True, id="secret")
            yield Checkbox("Save as a profile named", id="save")
            yield Input(value="default", id="profile")
            yield Static(id="outcome")
            with Horizontal():
                yield Button("Connect", variant="primary", id="connect")
                yield Button("Demo sandbox", id="demo")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "demo":
            self.action_demo()
        else:
            self.connect()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.connect()

    def action_demo(self) -> None:
        self.dismiss("demo")

    def connect(self) -> None:
        value = {name: self.query_one(f"#{name}", Input).value.strip() for name in ("base_url", "client_id", "secret")}
        outcome = self.query_one("#outcome", Static)
        try:
            if not all(value.values()):
                raise ConfigError("Give the API root, the client ID and the secret; or try the demo sandbox")
            credentials = Credentials(
                str(check_base_url(value["base_url"])),
                client_id=value["client_id"],
                client_secret=Secret(value["secret"]),
            )
            if self.query_one("#save", Checkbox).value:
                name = self.query_one("#profile", Input).value.strip() or "default"
                self.notify(save_profile(self.config_path, name, credentials), markup=False, timeout=10)
        except ApiError as error:
            outcome.update(Text("\n".join(lines(error.line() + (f"\n{error.hint}" if error.hint else "")))))
            return
        self.dismiss(credentials)
