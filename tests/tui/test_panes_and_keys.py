"""The JSON pane, the view switches, copying and saving, help, the palette, remapped keys, login, mouse."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys

import httpx
import pytest
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.widgets import Input, Static, TabbedContent

from explorer import __version__
from explorer.api.config import Credentials
from explorer.api.profiles import save_profile
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from explorer.sandbox.scenarios import scenario_named
from explorer.tui.app import ExplorerApp
from explorer.tui.screens.help import HelpScreen
from explorer.tui.screens.login import LoginScreen
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.json_view import JsonView, Pretty
from tests.tui.conftest import JsonHost, explorer_on, json_resource, problem_said, started, toasts_of, wait_until
from tests.tui.screen_text import screen_text


async def show_json(explorer, *titles: str) -> JsonView:
    """Open a node and press 2, as a user would: the JSON pane shows, and has the keys."""
    await explorer.open(*titles)
    await explorer.pilot.press("2")
    view = explorer.q(JsonView)
    await explorer.until(lambda: view.has_focus)
    return view


def drawn(widget) -> list[str]:
    """The lines the widget draws, as text (its scrollbar left out)."""
    width = widget.scrollable_content_region.width
    return [strip.crop(0, width).text for strip in widget.render_lines(Region(0, 0, width, widget.size.height))]


def where(app) -> str:
    """The line above the JSON view: which view, line, path and match."""
    return str(app.screen.query_one("JsonPane #where", Static).render())


def test_pretty_lines_know_the_path_of_every_line():
    pretty = Pretty({"results": [{"name": "a b", "weird key": 1}], "n": None})
    assert pretty.lines == [
        "{", '  "results": [', "    {", '      "name": "a b",', '      "weird key": 1', "    }", "  ],",
        '  "n": null', "}",
    ]  # fmt: skip
    assert [pretty.path(line) for line in range(len(pretty.lines))] == [
        ".", ".results", ".results[0]", ".results[0].name", '.results[0]["weird key"]', ".results[0]", ".results",
        ".n", ".",
    ]  # fmt: skip
    assert Pretty([[1, [2]]]).path(4) == ".[0][1][0]"  # jq reads `[0]` alone as an array


async def test_a_body_deeper_than_the_depth_limit_is_shown_as_received_and_says_why():
    body = ("[" * 101 + "]" * 101).encode()  # one level past --max-depth's default, 100
    resource = json_resource(body)
    assert resource.json is None
    async with JsonHost().run_test(notifications=True) as pilot:
        pilot.app.query_one(JsonPane).show(resource)
        await pilot.pause()
        view = pilot.app.query_one(JsonView)
        assert drawn(view)[0].startswith("[[[[")
        assert where(pilot.app) == (  # at 80 columns the view's name gives way whole, the reason stays
            "JSON nested deeper than 100 levels (the depth limit) · line 1 of 1"
        )
        await pilot.click(JsonView)  # the keys to the view
        await pilot.press("v")
        await pilot.pause()
        assert "No pretty view: the body is JSON nested deeper than 100 levels" in toasts_of(pilot.app)


def colours(view: JsonView, y: int) -> list[tuple[str, str]]:
    """Each character of a drawn line of the view, with its colour."""
    return [(char, str(seg.style.color)) for seg in view.render_line(y) for char in seg.text]


async def test_a_string_that_wraps_keeps_the_string_colour_on_every_line_it_takes():
    """Read alone, a continuation (`ec9546b43"`) was plain and its digits number-coloured."""
    href = "https://sandbox.invalid/api/service/v1.0/groups/687b4c139cc9af4ec9546b43"
    body = json.dumps({"href": href, "n": 12, "note": "words " * 12}).encode()
    async with JsonHost().run_test(size=(40, 12)) as pilot:
        pilot.app.query_one(JsonPane).show(json_resource(body))
        await pilot.pause()
        view = pilot.app.query_one(JsonView)
        for pretty in (True, False):
            if not pretty:  # as received: one line, wrapped, the cursor on its last (drawn in its own colours)
                view.use(pretty=False)
                view.cursor = view.total - 1
                await pilot.pause()
            lines = [colours(view, y) for y in range(view.total) if y != view.cursor]
            drawn = [char for line in lines for char in line]
            text = "".join(char for char, _ in drawn)
            start = text.index(f'"{href}"')
            string = drawn[start : start + len(href) + 2]
            assert "".join(char for char, _ in string) == f'"{href}"'
            assert len({colour for _, colour in string}) == 1, string
            number = drawn[text.index("12") : text.index("12") + 2]
            assert {colour for _, colour in number} != {colour for _, colour in string}  # numbers keep theirs


@pytest.mark.screen
async def test_the_json_pane_shows_pretty_and_as_received(explorer):
    view = await show_json(explorer, "orgs")
    body = explorer.current.resource.body.decode()
    assert where(explorer.app).startswith("pretty · line 1 of ")
    assert drawn(view)[1].startswith('  "links": [')
    await explorer.pilot.press("v")
    await explorer.pilot.pause()
    assert where(explorer.app) == "as received · line 1 of 1"  # compact, as received: one line,
    assert "".join(drawn(view)).rstrip() == body  # wrapped at the pane's width


@pytest.mark.screen
async def test_a_path_copied_under_a_jq_filter_is_one_jq_reads(explorer):
    view = await show_json(explorer, "groups")
    await explorer.pilot.press("vertical_line")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    explorer.app.focused.value = ".results[]"
    await explorer.pilot.press("enter")
    await explorer.until(lambda: (view.filtered or "").startswith("| .results[] "))
    await explorer.pilot.press("2", "down", "down", "c")  # the first result's first field
    await explorer.until(lambda: explorer.app.clipboard != "")
    assert explorer.app.clipboard == ".[0].clusterCount"  # not `[0].clusterCount`: jq reads that as an array
    assert where(explorer.app).endswith(" · .[0].clusterCount")


@pytest.mark.screen
async def test_search_jumps_between_matches_and_paths_are_copied(explorer):
    await show_json(explorer, "groups")  # the demo's groups name "staging" twice: a group and a tag
    await explorer.pilot.press("slash")
    await explorer.pilot.press(*"staging", "enter")
    await explorer.pilot.pause()
    assert where(explorer.app).endswith(" · .results[1].name · “staging” 1/2")
    assert explorer.toasts() == ""  # the line says how many: a notice would cover a match at 60×24
    await explorer.pilot.press("c")
    assert explorer.app.clipboard == ".results[1].name"
    await explorer.pilot.press("n")
    assert where(explorer.app).endswith(" · “staging” 2/2")
    await explorer.pilot.press("N")
    assert where(explorer.app).endswith(" · .results[1].name · “staging” 1/2")
    await explorer.pilot.press("slash", "ctrl+u", *"zzz", "enter")
    await explorer.until(lambda: "No matches" in explorer.toasts())
    assert where(explorer.app).endswith(" · “zzz” 0/0")


@pytest.mark.screen
async def test_p_and_e_ask_the_service_for_pretty_and_envelope(explorer):
    await explorer.open("orgs")
    await explorer.pilot.press("p")
    await explorer.settle()
    resource = explorer.current.resource
    assert "pretty=true" in resource.url and resource.body.startswith(b'{\n  "links" : [')
    await explorer.pilot.press("e")
    await explorer.settle()
    resource = explorer.current.resource
    assert "envelope=true" in resource.url and resource.json["status"] == 200
    assert resource.page.total == 2  # the envelope is taken off for the page
    assert explorer.screen.sub_title == "https://sandbox.invalid/api/service/v1.0/orgs?pretty=true&envelope=true"


@pytest.mark.screen
async def test_copy_the_url_and_the_request_as_curl_with_every_header_sent(explorer):
    await explorer.open("orgs")
    await explorer.pilot.press("y")
    assert explorer.app.clipboard == "https://sandbox.invalid/api/service/v1.0/orgs"
    await explorer.pilot.press("Y")
    assert explorer.app.clipboard == (
        f"curl -H \"Authorization: Bearer $TOKEN\" -H 'User-Agent: explorer/{__version__}' "
        "-H 'Accept: application/vnd.service.2023-01-01+json' https://sandbox.invalid/api/service/v1.0/orgs"
    )
    assert explorer.app.session.auth.token.value.reveal() not in explorer.app.clipboard
    await explorer.pilot.press("C")
    assert explorer.app.clipboard == "explorer get /orgs --demo -H 'Accept: application/vnd.service.2023-01-01+json'"


@pytest.mark.subprocess
async def test_c_under_the_demo_copies_a_command_a_shell_runs_as_it_is(open_explorer, tmp_path):
    async with open_explorer(scenario="strict-versions") as explorer:
        await explorer.open("orgs")
        await explorer.pilot.press("C")
        command = explorer.app.clipboard
    assert command == (
        "explorer get /orgs --demo --scenario strict-versions -H 'Accept: application/vnd.service.2023-01-01+json'"
    )
    environment = {name: value for name, value in os.environ.items() if not name.startswith("EXPLORER_")}
    environment |= {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    arguments = [sys.executable, "-m", *shlex.split(command), "-i"]
    done = await asyncio.to_thread(subprocess.run, arguments, capture_output=True, env=environment, timeout=60)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.startswith(b"HTTP/1.1 200 OK")


@pytest.mark.subprocess
async def test_what_y_and_c_copy_is_what_was_sent_and_the_sandbox_takes_it_under_strict_versions(
    live_server, clock, tmp_path
):
    """Over a socket: the curl's headers sent as curl sends them, and the explorer get run, are
    answered 200 by a sandbox that refuses (406) a request naming no version."""
    server, switchboard = live_server
    defaults = Settings()
    switchboard.app = create_app(scenario_named("strict-versions").settings(defaults))
    base_url = server.url + API_ROOT
    secret = Secret(defaults.client_secret)
    credentials = Credentials(
        base_url, client_id=defaults.client_id, client_secret=secret, openapi=server.url + "/openapi.json"
    )
    async with explorer_on(Session(credentials), clock) as explorer:
        await explorer.open("orgs")
        assert explorer.current.resource.status == 200
        await explorer.pilot.press("Y")
        curl = explorer.app.clipboard
        await explorer.pilot.press("C")
        command = explorer.app.clipboard
        token = explorer.app.session.auth.token.value.reveal()
        words = shlex.split(curl)
        headers = [tuple(words[at + 1].split(": ", 1)) for at, word in enumerate(words) if word == "-H"]
        assert words[0] == "curl" and words[-1] == base_url + "/orgs" and len(words) == 2 + 2 * len(headers)
        assert ("Accept", "application/vnd.service.2023-01-01+json") in headers
        async with httpx.AsyncClient() as client:
            sent = [(name, value.replace("$TOKEN", token)) for name, value in headers]
            assert (await client.get(words[-1], headers=sent)).status_code == 200
            unversioned = [(name, value) for name, value in sent if name != "Accept"]
            assert (await client.get(words[-1], headers=unversioned)).status_code == 406  # what Y copied before
    assert token not in curl and token not in command and '"Authorization: Bearer $TOKEN"' in curl
    assert command == (
        f"explorer get /orgs --base-url {base_url} --client-id {defaults.client_id} "
        "-H 'Accept: application/vnd.service.2023-01-01+json'"
    )
    environment = {  # only the secret, which the notice said the command reads from there
        **{name: value for name, value in os.environ.items() if not name.startswith("EXPLORER_")},
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "EXPLORER_CLIENT_SECRET": defaults.client_secret,
    }
    arguments = [sys.executable, "-m", *shlex.split(command), "-i"]
    done = await asyncio.to_thread(subprocess.run, arguments, capture_output=True, env=environment, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.startswith(b"HTTP/1.1 200 OK")


@pytest.mark.screen
async def test_save_writes_the_body_as_received(explorer, tmp_path):
    await explorer.open("orgs")
    await explorer.pilot.press("s")
    await explorer.pilot.pause()
    box = explorer.app.screen.query_one(Input)
    box.value = str(tmp_path / "orgs.json")
    await explorer.pilot.press("enter")
    await explorer.pilot.pause()
    orgs = explorer.current.resource.body
    assert (tmp_path / "orgs.json").read_bytes() == orgs
    await explorer.open("groups")
    groups = explorer.current.resource.body
    await explorer.pilot.press("s")
    await explorer.pilot.pause()
    explorer.app.screen.query_one(Input).value = str(tmp_path / "orgs.json")
    await explorer.pilot.press("enter")
    said = f"{tmp_path / 'orgs.json'} exists already: save under another name"
    await explorer.until(lambda: said in problem_said(explorer.app))  # asked again, in the dialog
    assert (tmp_path / "orgs.json").read_bytes() == orgs  # not overwritten
    box = explorer.app.screen.query_one(Input)
    assert box.value == str(tmp_path / "orgs.json")  # what was typed, kept to mend
    box.value = str(tmp_path / "no-such-folder" / "groups.json")
    await explorer.pilot.press("enter")
    said = f"There is no folder {tmp_path / 'no-such-folder'}: make it first, or save somewhere else"
    await explorer.until(lambda: said in problem_said(explorer.app))
    assert "Errno" not in screen_text(explorer.app)
    assert explorer.app.screen.query_one(Input).value == str(tmp_path / "no-such-folder" / "groups.json")
    explorer.app.screen.query_one(Input).value = str(tmp_path / "groups.json")
    await explorer.pilot.press("enter")
    await explorer.until(lambda: (tmp_path / "groups.json").exists())
    assert (tmp_path / "groups.json").read_bytes() == groups


@pytest.mark.screen
@pytest.mark.parametrize("segment, offered", [("a" * 300, "a" * 120 + ".json"), ("ö" * 45, "ö" * 45 + ".json")])
async def test_save_offers_a_name_a_file_system_takes_for_a_long_last_segment(explorer, segment, offered):
    await explorer.go_to(f"/groups/{segment}")  # answered 400 or 404: a body all the same
    await explorer.pilot.press("s")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    assert explorer.app.focused.value == offered  # the path's last segment as a person reads it, cut to fit


@pytest.mark.screen
async def test_help_lists_every_key_with_its_id(explorer):
    await explorer.pilot.press("question_mark")
    await explorer.pilot.pause()
    assert isinstance(explorer.app.screen, HelpScreen)
    shown = explorer.app.export_screenshot()  # what is on the screen, as SVG text
    for binding_id in ("explorer.back", "explorer.next_page", "explorer.copy_curl", "explorer.watch"):
        assert binding_id in shown, binding_id
    explorer.app.screen.query_one(VerticalScroll).scroll_end(animate=False)
    await explorer.pilot.pause()
    further = explorer.app.export_screenshot()
    assert "table.open" in further and "json.copy_path" in further  # further down


@pytest.mark.screen
async def test_every_screen_action_is_in_the_command_palette(explorer):
    commands = [command.title for command in explorer.app.get_system_commands(explorer.screen)]
    for title in (
        "Go to",
        "Next page",
        "Reload",
        "Pretty JSON from the service (pretty=true)",
        "The status in the body (envelope=true)",
        "Copy as curl",
        "Copy as explorer get",
        "Save body",
        "Help",
    ):
        assert title in commands, title
    assert "Keys" not in commands  # Textual's key panel: it squeezed the panes, and `?` is Help


@pytest.mark.screen
async def test_no_two_palette_commands_have_one_name_and_the_panes_are_named_as_panes(explorer):
    titles = [command.title for command in explorer.app.get_system_commands(explorer.screen)]
    assert [title for title in titles if titles.count(title) > 1] == []  # w's Watch and 5's were both `Watch`
    for pane in ("Page", "JSON", "Headers", "Log", "Watch"):
        assert f"{pane} pane" in titles, pane


@pytest.mark.screen
async def test_keys_can_be_remapped_by_id(tmp_path):
    session = demo_session()
    app = ExplorerApp(session, demo=demo_session, keymap={"explorer.reload": "f5", "explorer.quit": "ctrl+q"})
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        before = sum(1 for e in session.log if e.url.endswith("/v1.0"))
        await pilot.press("f5")
        await wait_until(lambda: sum(1 for e in session.log if e.url.endswith("/v1.0")) == before + 1, pilot=pilot)
        await pilot.press("q")  # no longer bound: still running
        assert app.is_running


@pytest.mark.screen
async def test_without_credentials_the_login_screen_offers_the_demo(tmp_path):
    app = ExplorerApp(None, demo=demo_session, settings_path=tmp_path / "config.toml")
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LoginScreen)
        await pilot.click("#demo")
        await wait_until(lambda: started(app), pilot=pilot)
        assert app.screen.navigation.root.resource.status == 200


@pytest.mark.screen
async def test_the_login_screen_refuses_plain_http_to_a_remote_host(tmp_path):
    app = ExplorerApp(None, demo=demo_session, settings_path=tmp_path / "config.toml")
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#base_url", Input).value = "http://api.example.com"
        app.screen.query_one("#client_id", Input).value = "c"
        app.screen.query_one("#secret", Input).value = "s"
        await pilot.click("#connect")
        await pilot.pause()
        assert isinstance(app.screen, LoginScreen)
        assert "Refusing plain http://" in str(app.screen.query_one("#outcome", Static).render())


def test_a_saved_profile_never_keeps_its_secret_in_the_file_private_or_not(tmp_path):
    from explorer.api.config import Credentials
    from explorer.api.secret import Secret

    credentials = Credentials("https://h.example/api/service/v1.0", client_id="c", client_secret=Secret("s3"))
    private = tmp_path / "new.toml"
    saved = save_profile(private, "lab", credentials)
    assert saved.secret and saved.entry is None  # no keyring here (tests/conftest.py): kept nowhere
    assert oct(private.stat().st_mode & 0o777) == "0o600" and "s3" not in private.read_text()
    shared = tmp_path / "shared.toml"
    shared.write_text("# mine\n")
    shared.chmod(0o644)
    assert save_profile(shared, "lab", credentials).entry is None
    assert "s3" not in shared.read_text() and shared.read_text().startswith('# mine\ndefault_profile = "lab"\n')


@pytest.mark.screen
async def test_the_mouse_opens_nodes_tabs_and_rows(explorer):
    await explorer.pilot.click("LinkTree", offset=(8, 2))  # the groups line
    await explorer.settle()
    assert explorer.current.title == "groups"
    await explorer.pilot.click("#--content-tab-json")
    await explorer.pilot.pause()
    assert explorer.q(TabbedContent).active == "json"
    await explorer.pilot.click("#--content-tab-page")
    await explorer.pilot.click("ItemsTable", offset=(4, 2))  # the second row, clicked once: opened
    await explorer.settle()
    assert explorer.current.title == "staging"
    assert json.loads(explorer.current.resource.body)["name"] == "staging"


@pytest.mark.screen
async def test_save_twice_offers_a_name_that_is_free(explorer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    await explorer.open("orgs")
    for offered in ("orgs.json", "orgs-2.json"):
        await explorer.pilot.press("s")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        assert explorer.app.focused.value == offered
        await explorer.pilot.press("enter")
        await explorer.until(lambda offered=offered: (tmp_path / offered).exists())
    assert (tmp_path / "orgs-2.json").read_bytes() == (tmp_path / "orgs.json").read_bytes()


@pytest.mark.screen
async def test_go_to_with_only_spaces_says_so_and_stays(explorer):
    await explorer.pilot.press("g")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    explorer.app.focused.value = "   "
    await explorer.pilot.press("enter")
    await explorer.until(lambda: "Nothing to go to: type a path such as /groups" in explorer.toasts())
    assert type(explorer.app.screen).__name__ == "GoToScreen"


@pytest.mark.screen
async def test_the_save_question_names_the_folder_a_name_alone_goes_to(open_explorer, tmp_path, monkeypatch):
    folder = tmp_path / "a-class-folder-with-a-long-name" / "work"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.open("groups")
        await explorer.pilot.press("s")
        await explorer.until(lambda: type(explorer.app.screen).__name__ == "AskScreen")
        question = f"Save the body to (a path, from …{str(folder)[-24:]}):"  # the end of the folder kept
        assert len(question) == 58
        assert f"█  {question}  █" in screen_text(explorer.app)  # on one line of the dialog, whole
        assert explorer.app.screen.query_one(Input).value == "groups.json"
        await explorer.pilot.press("enter")
        await explorer.until(lambda: (folder / "groups.json").exists())  # where the question said


def test_a_short_folder_is_said_whole():
    from explorer.tui.screens.dialogs import save_question

    assert save_question("the body", "/home/me/work") == "Save the body to (a path, from /home/me/work):"
    assert save_question("the session as HAR", "/home/me/work") == (
        "Save the session as HAR to (a path, from /home/me/work):"
    )
