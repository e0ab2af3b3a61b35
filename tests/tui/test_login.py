"""The login screen: its fields as the flags, environment and profile fill them, connecting (and
failing to) before the explorer screen opens, saving a profile for the next start, the demo key."""

from __future__ import annotations

import asyncio
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from explorer.api.config import Credentials
from explorer.api.errors import ApiError, ConfigError
from explorer.api.session import Session
from explorer.cli import parser
from explorer.demo import demo_session
from explorer.launch import build
from explorer.sandbox import Settings, create_app
from explorer.sandbox.server import ServerThread
from explorer.sandbox.tls import names_for, server_files
from explorer.tui.app import ExplorerApp
from explorer.tui.screens.login import FIELDS, LoginScreen
from explorer.tui.screens.quit_form import QuitScreen
from tests.safety.memory_keyring import use_memory_keyring
from tests.tui.conftest import started, toasts_of, wait_until
from tests.tui.screen_text import screen_lines, screen_text

SECRET = Settings().client_secret
CLIENT_ID = Settings().client_id


def config_file() -> Path:
    """The config file the explorer reads in this test (its own XDG_CONFIG_HOME)."""
    return Path(os.environ["XDG_CONFIG_HOME"]) / "explorer" / "config.toml"


def shown(app: ExplorerApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def type_into(pilot: Pilot, selector: str, text: str) -> None:
    """Click a field, empty it (end, ctrl+u) and paste the text, as the terminal sends a paste."""
    await pilot.click(selector)
    await pilot.press("end", "ctrl+u")
    pilot.app.post_message(events.Paste(text))
    await wait_until(lambda: pilot.app.screen.query_one(selector, Input).value == text, pilot=pilot)


async def fill(pilot: Pilot, base_url: str, client_id: str = CLIENT_ID, secret: str = SECRET) -> None:
    await type_into(pilot, "#base_url", base_url)
    await type_into(pilot, "#client_id", client_id)
    await type_into(pilot, "#secret", secret)


def through(app: Any) -> Callable[[Credentials], Session]:
    """Sessions that reach this in-process sandbox, whatever base URL the form was given."""
    return lambda credentials: Session(credentials, transport=httpx.ASGITransport(app=app))


@asynccontextmanager
async def login(
    connect: Callable[[Credentials], Session], size: tuple[int, int] = (120, 40), problem: ApiError | None = None
) -> AsyncIterator[Pilot]:
    app = ExplorerApp(None, demo=demo_session, settings_path=config_file(), connect=connect, problem=problem)
    app.animation_level = "none"
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        yield pilot


@pytest.mark.screen
async def test_ctrl_d_opens_the_demo_from_the_field_that_has_focus_at_start():
    async with login(Session) as pilot:
        assert isinstance(pilot.app.focused, Input)  # the state at start
        await pilot.press("ctrl+d")
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        assert pilot.app.screen.navigation.root.resource.status == 200


@pytest.mark.screen
async def test_the_root_the_form_fetched_is_the_one_shown_and_is_not_asked_for_again():
    """Connect fetches the root before the form is left: the explorer screen shows that answer (a
    second GET kept the screen saying "Fetching …" for as long again, on a slow service)."""
    async with login(through(create_app(Settings()))) as pilot:
        await fill(pilot, "https://sandbox.invalid/api/service/v1.0")
        await pilot.press("enter")
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        assert pilot.app.screen.navigation.root.resource.status == 200
        await pilot.press("4")
        log = pilot.app.screen.query_one("RequestLog", DataTable)
        await wait_until(lambda: log.row_count >= 3, pilot=pilot)
        await pilot.pause()
        rows = [(log.get_row_at(i)[1].plain, log.get_row_at(i)[5].plain) for i in range(log.row_count)]
        # The root once; then, none given, the API description where the sandbox publishes it.
        assert rows == [("POST", "/api/oauth/token"), ("GET", "/"), ("GET", "/openapi.json")]


@pytest.mark.screen
@pytest.mark.parametrize(
    "base_url, secret, line, hint",
    [
        ("https://sandbox.invalid", "wrong", "401 Unauthorized · invalid_client", "Check the Client ID and the Secret"),
        ("https://sandbox.invalid/api/nope", SECRET, "404 Not Found", "Check the API root"),
    ],
)
async def test_a_failed_login_stays_on_the_form_with_the_error_and_its_hint(base_url, secret, line, hint):
    opened: list[Session] = []

    def connect(credentials: Credentials) -> Session:
        opened.append(through(create_app(Settings()))(credentials))
        return opened[-1]

    async with login(connect, problem=ConfigError("No base URL: nothing says which service to explore")) as pilot:
        assert pilot.app.screen.query_one("#problem").display
        await fill(pilot, base_url, secret=secret)
        await pilot.press("enter")
        await wait_until(lambda: line in shown(pilot.app, "#outcome"), pilot=pilot)
        assert not pilot.app.screen.query_one("#problem").display  # answered: only what happened now shows
        assert hint in shown(pilot.app, "#outcome")
        assert isinstance(pilot.app.screen, LoginScreen)
        await wait_until(lambda: opened[-1].client.is_closed, pilot=pilot)  # the failed session is closed
        await type_into(pilot, "#base_url", "https://sandbox.invalid")
        await type_into(pilot, "#secret", SECRET)
        await pilot.click("#connect")
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        assert pilot.app.screen.navigation.root.resource.status == 200
        assert pilot.app.session is opened[-1]  # the session the form opened is the one explored


@pytest.mark.screen
async def test_a_refused_connection_s_hint_names_the_form_s_field_not_the_command_line_s():
    with socket.socket() as probe:  # a port nothing listens on: bound, then let go
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with login(Session) as pilot:
        await fill(pilot, f"https://127.0.0.1:{port}")
        await pilot.press("enter")
        await wait_until(lambda: "Connection refused" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert shown(pilot.app, "#outcome").splitlines()[-1] == (
            "Is the API root right, and is the service (or explorer sandbox) running there?"
        )


@pytest.mark.screen
async def test_nothing_at_the_api_root_is_met_with_the_field_not_with_ids_and_links():
    """The library's 404 hint is about a path's IDs and the root's links; on the form, the API root is wrong."""
    async with login(through(create_app(Settings()))) as pilot:
        await fill(pilot, "https://sandbox.invalid/api/wrong")
        await pilot.press("enter")
        await wait_until(lambda: "404 Not Found" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert shown(pilot.app, "#outcome").splitlines()[-1] == (
            "Check the API root: it is the address where the API starts, such as https://host/api/service/v1.0."
        )


@pytest.mark.screen
async def test_an_error_about_the_api_root_names_the_form_s_field_in_its_line_too():
    """The library's line says "base URL", as the command line's flag does; the form's field is the API root."""
    async with login(Session, problem=ConfigError("No base URL: nothing says which service to explore")) as pilot:
        assert shown(pilot.app, "#problem").startswith("No API root: nothing says which service to explore")
        await fill(pilot, "https://127.0.0.1:99999")
        await pilot.press("enter")
        await wait_until(lambda: "is not a valid URL" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert shown(pilot.app, "#outcome").startswith("The API root 'https://127.0.0.1:99999' is not a valid URL")
        assert "base URL" not in shown(pilot.app, "#outcome")


@pytest.mark.screen
async def test_connecting_says_so_with_the_port_and_esc_cancels_it_without_leaving_the_form():
    sandbox = create_app(Settings())
    release = asyncio.Event()

    async def slow_tokens(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/oauth/token":
            await release.wait()
        await sandbox(scope, receive, send)

    async with login(through(slow_tokens)) as pilot:
        await fill(pilot, "https://127.0.0.1:8443")
        await pilot.press("enter")
        await wait_until(lambda: "Connecting to 127.0.0.1:8443…" in shown(pilot.app, "#outcome"), pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: "Cancelled" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert isinstance(pilot.app.screen, LoginScreen) and pilot.app.is_running
        release.set()
        await pilot.press("enter")  # and again, now that the service answers
        await wait_until(lambda: started(pilot.app), pilot=pilot)


@pytest.mark.screen
async def test_esc_on_a_form_with_something_typed_asks_before_it_quits_and_loses_it():
    async with login(through(create_app(Settings()))) as pilot:
        await fill(pilot, "https://sandbox.invalid/api/wrong")
        await pilot.press("enter")
        await wait_until(lambda: "404 Not Found" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert "esc Quit" in screen_lines(pilot.app)[-1]
        await pilot.press("escape")
        await wait_until(lambda: isinstance(pilot.app.screen, QuitScreen), pilot=pilot)
        assert "Quit, and lose what is typed in the form?" in screen_text(pilot.app)
        assert "⏎ Quit" in screen_lines(pilot.app)[-1] and "esc Back to the form" in screen_lines(pilot.app)[-1]
        await pilot.press("escape")  # once too often: the form is still there, as it was
        await wait_until(lambda: isinstance(pilot.app.screen, LoginScreen), pilot=pilot)
        assert pilot.app.is_running
        assert [pilot.app.screen.query_one(f"#{name}", Input).value for name in ("base_url", "secret")] == [
            "https://sandbox.invalid/api/wrong",
            SECRET,
        ]
        await pilot.press("escape")
        await wait_until(lambda: isinstance(pilot.app.screen, QuitScreen), pilot=pilot)
        await pilot.press("enter")
        await wait_until(lambda: not pilot.app.is_running, pilot=pilot)


async def test_esc_on_a_form_as_it_opened_quits_at_once():
    app = ExplorerApp(None, demo=demo_session, settings_path=config_file(), login={"base_url": "https://lab.example"})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: not app.is_running, pilot=pilot)


@pytest.mark.screen
async def test_a_profile_saved_from_the_form_is_the_one_used_next_time():
    kept = use_memory_keyring()  # a desktop's keyring, where the secret goes
    async with login(through(create_app(Settings()))) as pilot:
        await fill(pilot, "https://sandbox.invalid")
        assert shown(pilot.app, "#save") == "[ ] Save as a profile "  # offered, never ticked unasked
        await pilot.click("#save")
        assert shown(pilot.app, "#save") == "[✓] Save as a profile named "
        assert pilot.app.screen.query_one("#profile", Input).value == "default"  # the name offered, free
        await type_into(pilot, "#profile", "lab")
        await pilot.click("#connect")
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        await wait_until(lambda: "Saved profile 'lab'" in toasts_of(pilot.app), pilot=pilot)
    found = Credentials.resolve(environ={})
    assert (found.profile, found.base_url, found.client_id) == (
        "lab",
        "https://sandbox.invalid/api/service/v1.0",
        CLIENT_ID,
    )
    assert found.client_secret.reveal() == SECRET
    assert config_file().read_text().startswith('default_profile = "lab"\n')
    assert SECRET not in config_file().read_text() and list(kept.entries.values()) == [SECRET]


@pytest.fixture
def https_sandbox(tmp_path) -> Any:
    files = server_files(tmp_path / "tls", names_for("127.0.0.1"))
    with ServerThread(create_app(Settings()), tls=files) as server:
        yield server.url, str(files.ca)


def without_connection_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("EXPLORER_"):
            monkeypatch.delenv(name)


@pytest.mark.screen
async def test_the_ca_bundle_flag_reaches_the_form_and_the_https_sandbox_is_reached(https_sandbox, monkeypatch):
    url, ca = https_sandbox
    without_connection_variables(monkeypatch)
    app = build(parser().parse_args(["--ca-bundle", ca]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        assert app.screen.query_one("#ca_bundle", Input).value == ca
        await fill(pilot, url)
        await pilot.press("enter")
        await wait_until(lambda: started(app), pilot=pilot)
        assert app.screen.navigation.root.resource.status == 200
        assert app.session.credentials.ca_bundle == ca


@pytest.mark.subprocess
async def test_y_and_c_after_an_unsaved_https_login_copy_commands_a_shell_runs_as_they_are(
    https_sandbox, monkeypatch, tmp_path
):
    """Y's curl trusts the sandbox's authority (--cacert); C's `explorer get` names the client ID and
    the authority, never the secret, which the notice says it reads from EXPLORER_CLIENT_SECRET."""
    url, ca = https_sandbox
    without_connection_variables(monkeypatch)
    async with login(Session) as pilot:
        await fill(pilot, url)
        await type_into(pilot, "#ca_bundle", ca)
        await pilot.click("#connect")  # not saved (the box unticked): no profile names this service
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        await pilot.press("Y")
        curl = pilot.app.clipboard
        await pilot.press("C")
        command = pilot.app.clipboard
        await wait_until(lambda: "reads the secret" in toasts_of(pilot.app), pilot=pilot)
        notice = toasts_of(pilot.app)
        base_url = str(pilot.app.session.base_url)  # the API root the form found at the sandbox's address
    assert shlex.split(curl)[:3] == ["curl", "--cacert", ca] and shlex.split(curl)[-1] == base_url
    flags = f"--base-url {base_url} --client-id {CLIENT_ID} --ca-bundle {shlex.quote(ca)}"
    assert command == f"explorer get / {flags} -H 'Accept: application/json'"
    assert SECRET not in curl + command
    assert "It reads the secret from EXPLORER_CLIENT_SECRET." in notice
    environment = {name: value for name, value in os.environ.items() if not name.startswith("EXPLORER_")}
    environment |= {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    no_token = shlex.split(curl.replace("$TOKEN", "none"))  # no token: a 401, where untrusted was curl's (60)
    asked = [*no_token, "-s", "-o", os.devnull, "-w", "%{http_code}"]
    curled = await asyncio.to_thread(subprocess.run, asked, capture_output=True, env=environment, timeout=60)
    assert (curled.returncode, curled.stdout) == (0, b"401")  # reached, its certificate trusted
    environment["EXPLORER_CLIENT_SECRET"] = SECRET
    arguments = [sys.executable, "-m", *shlex.split(command), "-i"]
    done = await asyncio.to_thread(subprocess.run, arguments, capture_output=True, env=environment, timeout=60)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.startswith(b"HTTP/1.1 200 OK")


@pytest.mark.screen
async def test_an_untrusted_certificate_is_met_with_the_forms_own_field_not_a_flag(https_sandbox, monkeypatch):
    url, _ = https_sandbox
    without_connection_variables(monkeypatch)
    app = build(parser().parse_args([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        await fill(pilot, url)
        await pilot.press("enter")
        await wait_until(lambda: "not trusted" in shown(app, "#outcome"), pilot=pilot)
        said = " ".join(shown(app, "#outcome").split())
        assert "name its authority (for the sandbox, its sandbox-ca.pem). Put it in the CA bundle field." in said, said
        assert "--" not in said and app.focused is app.screen.query_one("#ca_bundle", Input)


@pytest.mark.screen
async def test_the_api_version_and_description_flags_reach_the_session_the_form_opens(https_sandbox, monkeypatch):
    url, ca = https_sandbox
    without_connection_variables(monkeypatch)
    monkeypatch.setenv("EXPLORER_OPENAPI", "~/api.yaml")
    app = build(parser().parse_args(["--ca-bundle", ca, "--api-version", "2024-08-05"]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        await fill(pilot, url)
        await pilot.press("enter")
        await wait_until(lambda: started(app), pilot=pilot)
        assert app.session.credentials.api_version == "2024-08-05"
        assert app.session.credentials.openapi == os.path.expanduser("~/api.yaml")


@pytest.mark.screen
@pytest.mark.parametrize("source", ["environment", "profile"])
async def test_the_form_starts_from_the_environment_or_the_profile(source, tmp_path, monkeypatch):
    without_connection_variables(monkeypatch)
    ca = tmp_path / "ca.pem"
    ca.write_text("")
    if source == "environment":
        monkeypatch.setenv("EXPLORER_CA_BUNDLE", str(ca))
        monkeypatch.setenv("EXPLORER_BASE_URL", "https://lab.example")
    else:
        config_file().parent.mkdir(parents=True)
        config_file().write_text(
            f'[profiles.default]\nbase_url = "https://lab.example"\nclient_id = "lab"\nca_bundle = "{ca}"\n'
        )
    app = build(parser().parse_args([]))  # no secret anywhere: the login screen
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        assert app.screen.query_one("#ca_bundle", Input).value == str(ca)
        assert app.screen.query_one("#base_url", Input).value == "https://lab.example"
        assert "No credentials for https://lab.example/api/service/v1.0" in shown(app, "#problem")


@pytest.mark.screen
async def test_a_ca_bundle_that_is_not_there_is_named_on_the_form(tmp_path):
    async with login(Session) as pilot:
        await fill(pilot, "https://sandbox.invalid")
        await type_into(pilot, "#ca_bundle", str(tmp_path / "nope.pem"))
        await pilot.press("enter")
        await wait_until(lambda: "does not exist" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert f"The CA bundle {tmp_path / 'nope.pem'} does not exist" in shown(pilot.app, "#outcome")


@pytest.mark.screen
async def test_har_records_the_session_the_form_opens_and_the_demo_it_offers(https_sandbox, monkeypatch, tmp_path):
    import json

    url, ca = https_sandbox
    without_connection_variables(monkeypatch)
    har = tmp_path / "from-the-form.har"
    app = build(parser().parse_args(["--ca-bundle", ca, "--har", str(har)]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        await fill(pilot, url)
        await pilot.click("#connect")  # not saved (the box unticked): the next start shows the form again
        await wait_until(lambda: started(app), pilot=pilot)
        assert shown(app, "StatusBar").startswith("● rec · read-only · token valid")
    urls = [entry["request"]["url"] for entry in json.loads(har.read_text())["log"]["entries"]]
    assert urls[:2] == [f"{url}/api/oauth/token", f"{url}/api/service/v1.0"]

    demo_har = tmp_path / "demo.har"
    app = build(parser().parse_args(["--har", str(demo_har)]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        await pilot.press("ctrl+d")
        await wait_until(lambda: started(app), pilot=pilot)
        assert shown(app, "StatusBar").startswith("● rec · read-only · token valid")
    urls = [entry["request"]["url"] for entry in json.loads(demo_har.read_text())["log"]["entries"]]
    assert "https://sandbox.invalid/api/service/v1.0" in urls


def test_a_har_file_that_cannot_be_recorded_into_is_said_before_any_login_form(monkeypatch, tmp_path, capsys):
    from explorer.launch import run

    without_connection_variables(monkeypatch)
    assert run(parser().parse_args(["--har", str(tmp_path)])) == 1
    assert capsys.readouterr().err == f"explorer: {tmp_path} is a folder: a HAR recording is written to a file\n"


@pytest.mark.screen
async def test_the_save_box_reads_ticked_or_empty_and_connecting_unticked_says_nothing_was_saved():
    async with login(through(create_app(Settings()))) as pilot:
        await fill(pilot, "https://sandbox.invalid")
        await pilot.click("#save")
        assert shown(pilot.app, "#save") == "[✓] Save as a profile named "
        await pilot.click("#save")
        assert shown(pilot.app, "#save") == "[ ] Save as a profile "  # no X drawn in the empty box
        assert not pilot.app.screen.query_one("#profile").display  # no name when nothing is saved
        await pilot.click("#connect")
        await wait_until(lambda: started(pilot.app), pilot=pilot)
        await wait_until(lambda: "Not saved as a profile" in toasts_of(pilot.app), pilot=pilot)
    assert not config_file().exists()


@pytest.mark.screen
async def test_a_form_started_from_a_profile_does_not_offer_to_save_over_it():
    config_file().parent.mkdir(parents=True)
    config_file().write_text('[profiles.default]\nbase_url = "https://lab.example"\nclient_id = "lab"\n')
    async with login(Session) as pilot:
        assert shown(pilot.app, "#save") == "[ ] Save as a profile "
        await pilot.click("#save")  # ticked, the name is asked for
        assert pilot.app.focused is pilot.app.screen.query_one("#profile")
        await fill(pilot, "https://sandbox.invalid")
        await pilot.click("#connect")
        await wait_until(lambda: "Name the profile to save" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert pilot.app.focused is pilot.app.screen.query_one("#profile")


def focus_marked(app: ExplorerApp) -> list[str]:
    """The lines of the form that carry the focus mark (a bar before the row)."""
    return [line.strip("█ ") for line in screen_lines(app) if line.lstrip("█ ").startswith("▌")]


@pytest.mark.screen
async def test_tab_goes_round_the_fields_and_connect_and_the_focused_row_is_marked():
    async with login(Session) as pilot:
        went = []
        for _ in range(6):
            went.append(pilot.app.focused.id)
            assert len(focus_marked(pilot.app)) == 1  # one row marked, the focused one
            await pilot.press("tab")
        assert went == ["base_url", "client_id", "secret", "ca_bundle", "save", "connect"]  # no name: not saving
        assert pilot.app.focused.id == "base_url"  # round again
        assert focus_marked(pilot.app)[0].startswith("▌API root")


@pytest.mark.screen
async def test_what_comes_after_a_tab_lands_in_the_next_field_however_fast_it_comes():
    """A paste, Tab, paste (or typed keys) arriving together: each paste goes where the cursor is
    when it arrives, never all into the first field."""
    async with login(Session) as pilot:
        app = pilot.app
        for event in (
            events.Paste("https://sandbox.invalid"),
            events.Key("tab", None),
            events.Paste(CLIENT_ID),
            events.Key("tab", None),
            events.Paste(SECRET),
        ):
            app.post_message(event)  # all queued at once, as a terminal delivers them
        await wait_until(lambda: app.screen.query_one("#secret", Input).value, pilot=pilot)
        assert [app.screen.query_one(f"#{name}", Input).value for name in ("base_url", "client_id", "secret")] == [
            "https://sandbox.invalid",
            CLIENT_ID,
            SECRET,
        ]


@pytest.mark.screen
@pytest.mark.parametrize("paste", [f"{CLIENT_ID}\t{SECRET}", f"{CLIENT_ID}\n{SECRET}\n", f"{CLIENT_ID}\r\n{SECRET}"])
async def test_a_paste_of_several_values_is_refused_and_never_shown(paste):
    async with login(Session) as pilot:
        await type_into(pilot, "#base_url", "https://sandbox.invalid")
        pilot.app.post_message(events.Paste(paste))
        await wait_until(lambda: "Not pasted" in shown(pilot.app, "#outcome"), pilot=pilot)
        assert "held 2 values" in shown(pilot.app, "#outcome")
        assert pilot.app.screen.query_one("#base_url", Input).value == "https://sandbox.invalid"
        assert SECRET not in screen_text(pilot.app)


@pytest.mark.screen
async def test_a_refused_paste_is_no_longer_said_once_a_paste_goes_into_that_field():
    async with login(Session) as pilot:
        await type_into(pilot, "#base_url", "https://sandbox.invalid")
        await pilot.click("#client_id")
        pilot.app.post_message(events.Paste(f"{CLIENT_ID}\t{SECRET}"))
        await wait_until(lambda: "Not pasted" in shown(pilot.app, "#outcome"), pilot=pilot)
        await type_into(pilot, "#client_id", CLIENT_ID)
        await type_into(pilot, "#secret", SECRET)
        await pilot.pause()
        assert "Not pasted" not in screen_text(pilot.app)


async def test_a_paste_of_a_copied_line_leaves_its_line_break_out():
    async with login(Session) as pilot:
        pilot.app.post_message(events.Paste("  https://sandbox.invalid\n"))
        await wait_until(lambda: pilot.app.screen.query_one("#base_url", Input).value, pilot=pilot)
        assert pilot.app.screen.query_one("#base_url", Input).value == "https://sandbox.invalid"


@pytest.mark.screen
async def test_typing_in_a_filled_field_reached_by_tab_adds_to_it():
    """Tab into a filled field, type: the text grows (select-all on focus replaced it with a key)."""
    app = ExplorerApp(
        None,
        demo=demo_session,
        settings_path=config_file(),
        connect=Session,
        login={"base_url": "https://lab.example", "client_id": "lab"},
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        assert app.focused.id == "secret"  # the first field to fill
        await pilot.press("shift+tab", "shift+tab")
        assert app.focused.id == "base_url"
        await pilot.press(*"/api")
        assert app.screen.query_one("#base_url", Input).value == "https://lab.example/api"


@pytest.mark.screen
@pytest.mark.parametrize(
    "keys, value",
    [
        (["ctrl+u", "https://sandbox.invalid"], "https://sandbox.invalid"),  # emptied, then a paste
        (["/", "a", "p", "x", "backspace", "i"], "https://lab.example/api"),
        (["home", "ctrl+k", "https://sandbox.invalid/x", "backspace"], "https://sandbox.invalid/"),
    ],
)
async def test_editing_keys_and_what_follows_them_at_once_are_done_in_order(keys, value):
    """ctrl+u then a paste, as fast as a terminal sends them: the paste stays (it went in first, and
    ctrl+u emptied the field after it, when Input's bindings ran once the key reached the app)."""
    app = ExplorerApp(None, demo=demo_session, settings_path=config_file(), login={"base_url": "https://lab.example"})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: isinstance(app.screen, LoginScreen), pilot=pilot)
        await pilot.click("#base_url")
        await pilot.press("end")
        for key in keys:  # all queued at once; a long one is a paste
            app.post_message(events.Paste(key) if len(key) > 12 else events.Key(key, key if len(key) == 1 else None))
        await wait_until(lambda: app.screen.query_one("#base_url", Input).value == value, pilot=pilot)


@pytest.mark.screen
@pytest.mark.parametrize(
    "base_url, secret, line, field",
    [
        ("https://sandbox.invalid", "wrong", "401 Unauthorized · invalid_client", "secret"),
        ("https://sandbox.invalid/api/nope", SECRET, "404 Not Found", "base_url"),
    ],
)
async def test_after_a_failed_connect_the_cursor_is_in_the_field_the_error_is_about(base_url, secret, line, field):
    async with login(through(create_app(Settings()))) as pilot:
        await fill(pilot, base_url, secret=secret)
        await pilot.click("#connect")
        await wait_until(lambda: line in shown(pilot.app, "#outcome"), pilot=pilot)
        assert pilot.app.focused.id == field
        assert focus_marked(pilot.app)[0].startswith(f"▌{dict((name, label) for name, label, _ in FIELDS)[field]}")
