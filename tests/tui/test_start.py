"""How the screen starts: --demo, the environment, a profile, or the login screen; and the keymap."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from explorer.api.errors import ConfigError
from explorer.cli import parser
from explorer.launch import build, prepare
from explorer.tui.keys import keymap_from
from tests.tui.conftest import toasts_of, wait_until


@pytest.fixture
def home(tmp_path, monkeypatch):
    for name in list(os.environ):
        if name.startswith("EXPLORER_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "explorer").mkdir()
    return tmp_path / "explorer"


def test_demo_needs_nothing(home):
    start = prepare(parser().parse_args(["--demo"]))
    session, problem = start.session, start.problem
    assert session is not None and problem is None
    assert str(session.base_url) == "https://sandbox.invalid/api/service/v1.0"


def test_the_environment_is_used(home, monkeypatch):
    monkeypatch.setenv("EXPLORER_BASE_URL", "https://api.example.com/api/service/v1.0")
    monkeypatch.setenv("EXPLORER_CLIENT_ID", "c")
    monkeypatch.setenv("EXPLORER_CLIENT_SECRET", "s")
    start = prepare(parser().parse_args([]))
    session, problem, _ = start.session, start.problem, start.keymap
    assert problem is None and session.credentials.client_id == "c"


def test_a_profile_and_its_keys_are_used(home):
    (home / "config.toml").write_text(
        '[profiles.lab]\nbase_url = "https://lab.example.com"\npublic_key = "p"\nprivate_key = { env = "HOME" }\n'
        '[keys]\n"explorer.reload" = "f5"\n"table.open" = "space"\n"json.copy_path" = "ctrl+c"\n'
    )
    start = prepare(parser().parse_args(["--profile", "lab"]))
    session, problem, keymap = start.session, start.problem, start.keymap
    assert problem is None and session.credentials.kind == "API key"
    assert keymap == {"explorer.reload": "f5", "table.open": "space", "json.copy_path": "ctrl+c"}


def test_without_credentials_the_login_screen_is_told_why(home):
    start = prepare(parser().parse_args([]))
    session, problem, _ = start.session, start.problem, start.keymap
    assert session is None
    assert problem.line() == "No base URL: nothing says which service to explore"


@pytest.mark.parametrize(
    "table, message",
    [
        ({"keys": {"explorer.fly": "f"}}, "not a key of the explorer"),
        ({"keys": {"explorer.reload": 5}}, "must be keys"),
        ({"keys": "f5"}, "must be a table"),
        ({"keys": {"explorer.reload": "q"}}, "gives 'q' to both 'explorer.reload' and 'explorer.quit'"),
        ({"keys": {"explorer.back": "h", "explorer.reload": "h"}}, "gives 'h' to both 'explorer.back' and"),
        ({"keys": {"explorer.reload": "notakey!!,,"}}, "names 'notakey!!', which is not a key"),
        ({"keys": {"explorer.reload": "f5,"}}, "names '', which is not a key"),
        ({"keys": {"explorer.reload": "cmd+r"}}, "names 'cmd\\+r', which is not a key"),
    ],
)
def test_a_bad_keymap_is_named(table, message):
    with pytest.raises(ConfigError, match=message):
        keymap_from(table, "config.toml")


def test_the_config_files_watch_every_is_how_often_a_new_watch_fetches(home):
    (home / "config.toml").write_text("watch_every = 30\n")
    start = prepare(parser().parse_args(["--demo"]))
    assert start.watch_every == 30.0
    (home / "config.toml").write_text('watch_every = "often"\n')
    with pytest.raises(ConfigError, match="watch_every must be a number of seconds from 1 to 300"):
        prepare(parser().parse_args(["--demo"]))


def test_keys_as_textual_names_them_are_taken():
    table = {"explorer.reload": "f5,ctrl+r", "explorer.back": "h,alt+left", "explorer.help": "question_mark"}
    assert keymap_from({"keys": table}, "config.toml") == table


@pytest.mark.screen
async def test_the_screen_only_reads(explorer):
    await explorer.open("groups")
    await explorer.open("groups", "production")
    await explorer.pilot.press("r", "p", "e", "right_square_bracket")
    await explorer.settle()
    methods = {(e.method, e.url.split("?")[0].endswith("/oauth/token")) for e in explorer.app.session.log}
    assert methods <= {("GET", False), ("POST", True)}  # GETs, and the token requests of the session


@pytest.mark.subprocess
@pytest.mark.parametrize(
    "text, line, hint",
    [
        (
            '[keys]\n"explorer.relaod" = "f5"\n',
            "In {path}, [keys] names 'explorer.relaod', which is not a key of the explorer",
            "Did you mean 'explorer.reload'? The ids are listed by ? in the explorer, and in docs/screen.md.",
        ),
        (
            '[keys]\n"explorer.bogus" = "q"\n',  # it shares only `explorer.` with any id: no near miss
            "In {path}, [keys] names 'explorer.bogus', which is not a key of the explorer",
            "The ids are listed by ? in the explorer, and in docs/screen.md.",
        ),
        (
            '[keys]\n"explorr.reload" = "f5"\n',
            "In {path}, [keys] names 'explorr.reload', which is not a key of the explorer",
            "Did you mean 'explorer.reload'? The ids are listed by ? in the explorer, and in docs/screen.md.",
        ),
        (
            '[keys]\n"explorer.reload" = 5\n',
            "In {path}, [keys] 'explorer.reload' must be keys such as \"ctrl+q\"",
            'Give its keys as a string, several separated by commas: "f5,ctrl+r".',
        ),
        (
            'keys = "f5"\n',
            "In {path}, [keys] must be a table of binding ids and keys",
            'Write them under a [keys] table, a line each: "explorer.reload" = "f5".',
        ),
        (
            "watch_every = 0.5\n",
            "In {path}, watch_every must be a number of seconds from 1 to 300",
            "It is how often a watch fetches the resource again; 5 when it is left out.",
        ),
        (
            "[keys\n",
            "The config file {path} is not valid TOML: Expected ']' at the end of a table declaration "
            "(at line 1, column 6)",
            "Mend it where the line and column say, or move it away to start without it.",
        ),
    ],
)
def test_a_bad_config_file_stops_the_explorer_before_any_screen(tmp_path, text, line, hint):
    path = tmp_path / "explorer" / "config.toml"
    path.parent.mkdir()
    path.write_text(text)
    environ = {name: value for name, value in os.environ.items() if not name.startswith("EXPLORER_")}
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "--demo"],
        env={**environ, "XDG_CONFIG_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    expected = f"explorer: {line.format(path=path)}\n" + (f"hint: {hint}\n" if hint else "")
    assert (done.returncode, done.stderr, done.stdout) == (1, expected, "")


@pytest.mark.screen
async def test_an_unknown_theme_falls_back_to_the_one_kept_in_the_config_file(home):
    (home / "config.toml").write_text('theme = "explorer-light"\n')
    app = build(parser().parse_args(["--demo", "--theme", "nope"]))
    assert app.theme == "explorer-light"
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await wait_until(lambda: "There is no theme 'nope': using explorer-light" in toasts_of(app), pilot=pilot)


@pytest.mark.screen
async def test_an_unknown_theme_and_an_unknown_kept_theme_fall_back_to_the_default(home):
    (home / "config.toml").write_text('theme = "gone"\n')
    app = build(parser().parse_args(["--demo", "--theme", "nope"]))
    assert app.theme == "explorer-dark"
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await wait_until(
            lambda: "There is no theme 'nope' nor 'gone': using explorer-dark" in toasts_of(app), pilot=pilot
        )
