"""The login form keeps the safety promise: a profile's secret stays with its origin, `writes = false` holds
through the form and through a profile saved from it, and a secret is never written in plain text unasked.

Each test runs `explorer` as its flags build it (launch.build) against recording servers (tests/safety):
what arrived at each is what counts. The command line's ways in are tests/safety/test_origins.py.
"""

from __future__ import annotations

import asyncio
import os
import tomllib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from explorer.cli import parser
from explorer.launch import build
from explorer.tui.app import ExplorerApp
from explorer.tui.screens.login import LoginScreen
from tests.commands.conftest import in_process, script_environment
from tests.safety.memory_keyring import use_memory_keyring
from tests.safety.recording_server import RecordingServer
from tests.tui.conftest import started, toasts_of, wait_until
from tests.tui.test_login import fill, shown, type_into

pytestmark = pytest.mark.screen

LAB_SECRET = "lab-secret-0f3a"
TYPED = "typed-secret-9c1d"


@pytest.fixture
def server() -> AsyncIterator[RecordingServer]:
    with RecordingServer() as recording:
        yield recording


@pytest.fixture
def other() -> AsyncIterator[RecordingServer]:
    with RecordingServer() as recording:
        yield recording


def config_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "explorer" / "config.toml"


def configured(text: str, monkeypatch: pytest.MonkeyPatch, **variables: str) -> None:
    """The config file holds `text` (0600); the environment has no EXPLORER_* but `variables`."""
    for name in list(os.environ):
        if name.startswith("EXPLORER_"):
            monkeypatch.delenv(name)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    config_file().parent.mkdir(parents=True, exist_ok=True)
    config_file().write_text(text)
    config_file().chmod(0o600)


@asynccontextmanager
async def form(*arguments: str) -> AsyncIterator[Pilot]:
    """`explorer ARGUMENTS` on the login form."""
    app = build(parser().parse_args(list(arguments)))
    app.animation_level = "none"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        yield pilot


def field(app: ExplorerApp, name: str) -> str:
    return app.screen.query_one(f"#{name}", Input).value


LAB = (
    'default_profile = "lab"\n\n[profiles.lab]\nbase_url = "{url}"\nclient_id = "lab-client"\n'
    "client_secret = {secret}\n"
)
PROD = '[profiles.prod]\nbase_url = "{url}"\nclient_id = "prod-client"\nclient_secret = {{ env = "PROD_SECRET" }}\n'


async def test_a_base_url_on_another_origin_asks_the_form_for_its_own_credentials(server, other, monkeypatch):
    """Lab (writes = true, its secret at hand) and EXPLORER_BASE_URL=<other>: no session on lab's secret, but
    the form, for the other origin, with nothing of lab's in it; what is typed there goes there, read-only."""
    text = LAB.format(url=server.url, secret=f'"{LAB_SECRET}"') + "writes = true\n"
    configured(text, monkeypatch, EXPLORER_BASE_URL=other.url)
    async with form() as pilot:
        app = pilot.app
        said = " ".join(shown(app, "#problem").split())
        assert said.startswith(f"The profile 'lab' is for {server.origin}, not {other.origin}")
        assert (field(app, "base_url"), field(app, "client_id"), field(app, "ca_bundle")) == (other.url, "", "")
        await fill(pilot, other.url, client_id="own-client", secret=TYPED)
        await pilot.press("enter")
        await wait_until(lambda: started(app), pilot=pilot)
        assert (app.session.writes_allowed, app.session.write_policy.because) == (False, "the default")
    assert other.secrets_seen() == {TYPED}
    assert server.arrivals == []


async def test_writes_asked_for_on_an_origin_a_profile_says_writes_false_of_are_refused_on_the_form(
    server, other, monkeypatch
):
    """The form typed with prod's origin, --writes given: refused there, before anything is sent."""
    text = LAB.format(url=other.url, secret='{ env = "LAB_SECRET" }') + "\n" + PROD.format(url=server.url)
    configured(text + "writes = false\n", monkeypatch)
    async with form("--writes") as pilot:
        await fill(pilot, server.url, client_id="admin", secret=TYPED)
        await pilot.press("enter")
        await wait_until(lambda: "Writes are off" in shown(pilot.app, "#outcome"), pilot=pilot)
        said = " ".join(shown(pilot.app, "#outcome").split())
        assert said.startswith(
            f"Writes are off for {server.origin}: the profile 'prod' names it with writes = false, so --writes is "
            "refused"
        )
        assert isinstance(pilot.app.screen, LoginScreen)
    assert server.arrivals == [] and other.arrivals == []


async def test_a_profile_saved_from_the_form_where_a_profile_says_writes_false_is_read_only(server, monkeypatch):
    """The issue's first, its end: the form saved a profile for prod's origin without writes = false, and
    that profile wrote. Now it says writes = false, and --writes with it is refused: no DELETE arrives."""
    configured(PROD.format(url=server.url) + "writes = false\n", monkeypatch)  # no profile chosen: the form
    async with form() as pilot:
        app = pilot.app
        await fill(pilot, server.url, client_id="mine-client", secret=TYPED)
        await pilot.click("#save")
        await type_into(pilot, "#profile", "mine")
        await pilot.click("#connect")
        await wait_until(lambda: started(app), pilot=pilot)
        assert app.session.write_policy.because == f"the profile 'prod' says writes = false for {server.origin}"
        await wait_until(lambda: "Saved profile 'mine'" in toasts_of(app), pilot=pilot)
        assert "Read-only (writes = false), as the profile 'prod' says of the same origin." in toasts_of(app)
    saved = tomllib.loads(config_file().read_text())["profiles"]["mine"]
    assert saved["writes"] is False
    environment = script_environment(
        {"XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"], "EXPLORER_CLIENT_SECRET": TYPED}
    )
    arguments = ["delete", "/groups/x", "--profile", "mine", "--writes", "--yes"]
    run = await asyncio.to_thread(in_process, arguments, environment)  # a loop of its own, as a shell's run has
    assert run.code == 2
    assert run.err.startswith("explorer delete: Writes are off for the profile 'mine' (writes = false)")
    assert server.arrivals_of("DELETE") == []


async def test_the_form_saves_nothing_unless_asked(server, monkeypatch):
    configured("", monkeypatch)
    async with form() as pilot:
        assert shown(pilot.app, "#save") == "[ ] Save as a profile "
        await fill(pilot, server.url, client_id="c", secret=TYPED)
        await pilot.click("#connect")
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        await wait_until(lambda: "Not saved as a profile" in toasts_of(pilot.app), pilot=pilot)
    assert config_file().read_text() == ""


@pytest.mark.parametrize("keyring", ["desktop", "headless"])
async def test_a_saved_secret_goes_to_the_keyring_or_nowhere_and_the_toast_says_which(server, monkeypatch, keyring):
    kept = use_memory_keyring() if keyring == "desktop" else None  # headless: keyring's fail backend
    configured("", monkeypatch)
    async with form() as pilot:
        await fill(pilot, server.url, client_id="c", secret=TYPED)
        await pilot.click("#save")
        await pilot.click("#connect")
        await wait_until(lambda: "Saved profile 'default'" in toasts_of(pilot.app), pilot=pilot)
        toast = " ".join(toasts_of(pilot.app).split())
    text = config_file().read_text()
    assert TYPED not in text
    entry = f"c@{server.origin}"
    if kept is not None:
        assert kept.entries == {("explorer", entry): TYPED}
        assert tomllib.loads(text)["profiles"]["default"]["client_secret"] == {"keyring": entry}
        assert f"Its secret is in the system keyring (service 'explorer', entry '{entry}'), not in the file." in toast
    else:
        assert tomllib.loads(text)["profiles"]["default"]["client_secret"] == {"env": "EXPLORER_CLIENT_SECRET"}
        assert "without its secret: there is no system keyring here to keep it in" in toast
        assert "Set EXPLORER_CLIENT_SECRET before the next start" in toast
