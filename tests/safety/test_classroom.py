"""The classroom keeps students apart: each tab's explorer has its own config, state and cache; a
download needs the class key; a write's copied command never carries a password (anywhere, not
only in class)."""

from __future__ import annotations

import asyncio
import gc
import json
import shlex
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from explorer.api.config_file import config_path, description_cache_dir, token_cache_dir
from explorer.api.writes import Outgoing
from explorer.classroom import student
from explorer.classroom.server import Classroom, student_command
from explorer.display.shell_forms import as_command, as_curl
from explorer.tui.screen_state import load_state, save_state, state_path
from tests.tui.conftest import open_explorer  # noqa: F401  (the screen test's fixture)
from tests.tui.test_writes import choose, set_body

KEY = "the-class-key"
PASSWORD = "correct-horse-battery"
NEW_USER = {
    "databaseName": "admin",
    "username": "analyst",
    "password": PASSWORD,
    "roles": [{"databaseName": "sales", "roleName": "read"}],
}
USERS_URL = "https://h.example/api/service/v1.0/groups/5e1/databaseUsers"


def a_class(home: Path, command: list[str] | None = None) -> Classroom:
    return Classroom(command or student_command("http://127.0.0.1:9"), key=KEY, max_sessions=5, home=home)


# Each student's config, state and cache -------------------------------------------------------


def tab_home(classroom: Classroom, tab: dict[str, str]) -> Path:
    """The folder the class gives one tab's explorer, read from the command line it starts it with."""
    words = classroom.command_for(tab)
    args = student.parser().parse_args(words[words.index("explorer.classroom.student") + 1 :])
    assert args.home is not None
    return Path(args.home)


def test_two_tabs_have_folders_of_their_own_private_in_the_class_s_folder(tmp_path):
    classroom = a_class(tmp_path)
    first, second = tab_home(classroom, {}), tab_home(classroom, {"theme": "projector"})
    assert first != second
    for home in (first, second):
        assert home.parent == tmp_path and home.is_dir()
        assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert set(student.folders_in(first).values()).isdisjoint(student.folders_in(second).values())


def test_one_student_s_kept_theme_is_not_the_next_tab_s_default(tmp_path, monkeypatch):
    """The folders a tab's explorer uses (config, screen state, token and description caches) are in
    its own folder; what one tab keeps (its theme, its tree's width), another never reads."""
    classroom = a_class(tmp_path)
    first, second = tab_home(classroom, {}), tab_home(classroom, {})

    def as_tab(home: Path) -> list[Path]:
        for variable, value in student.folders_in(home).items():
            monkeypatch.setenv(variable, value)
        return [config_path(), state_path(), token_cache_dir(), description_cache_dir()]

    for path in as_tab(first):
        assert path.is_relative_to(first), path
    assert save_state({"theme": "nord", "tree_width": 71})
    assert load_state() == {"theme": "nord", "tree_width": 71}
    for path in as_tab(second):
        assert path.is_relative_to(second), path
    assert load_state() == {}


# Downloads need the class key -----------------------------------------------------------------


class Delivering:
    """A tab's explorer as the download manager sees it: it sends its file when asked for a chunk."""

    app_service_id = "tab-1"

    def __init__(self, classroom: Classroom, key: str, content: bytes) -> None:
        self.classroom, self.key, self.left = classroom, key, [content, b""]
        self.asked = 0

    async def send_meta(self, meta: dict[str, Any]) -> bool:
        self.asked += 1
        await self.classroom.downloads.chunk_received(self.key, self.left.pop(0))
        return True


async def test_a_download_without_the_class_key_is_refused_and_with_it_is_delivered(tmp_path):
    classroom = a_class(tmp_path)
    body = b'{"appName": "Service Sandbox", "private": "what one student saved"}'
    tab = Delivering(classroom, "d0wnl0ad", body)
    await classroom.downloads.create_download(
        app_service=tab,  # type: ignore[arg-type]
        delivery_key="d0wnl0ad",
        file_name="v1.0.json",
        open_method="download",
        mime_type="application/json",
        encoding="utf-8",
    )
    async with TestClient(TestServer(classroom.application())) as client:
        for query in ("", "?instance=", "?instance=not-the-key", f"?key={KEY}"):
            refused = await client.get(f"/download/d0wnl0ad{query}")
            text = await refused.text()
            assert refused.status == 403, query
            assert "what one student saved" not in text and "This class needs its key" in text
        assert tab.asked == 0  # the tab was never asked for its file
        delivered = await client.get(f"/download/d0wnl0ad?instance={KEY}")  # as textual.js asks for it
        assert delivered.status == 200
        assert await delivered.read() == body


async def test_a_tab_s_page_is_given_the_key_its_downloads_bring(tmp_path):
    """textual.js adds its `instance` to a download's address: the websocket gives it the class key."""
    classroom = a_class(tmp_path, [sys.executable, "-c", "pass"])  # an explorer that ends at once
    async with TestClient(TestServer(classroom.application())) as client:
        socket = await client.ws_connect(f"/ws/{KEY}/-")
        first = await asyncio.wait_for(socket.receive(), 10)
        assert first.type == WSMsgType.TEXT and json.loads(first.data) == ["instance_id", KEY]
        await socket.close()
        async with asyncio.timeout(30):  # the session ends: its handler's `end` has run
            while classroom.sessions:
                await asyncio.sleep(0.01)
        # textual-serve's AppService never closes its process's transport; collected here, while the loop is
        # open, it closes quietly, not in a later test, where a closed loop makes its closing an error.
        gc.collect()


# A write's copied command never carries a password -------------------------------------------


def new_user(body: dict[str, Any] | str = NEW_USER) -> Outgoing:
    text = body if isinstance(body, str) else json.dumps(body)
    return Outgoing("POST", USERS_URL, (("Content-Type", "application/json"),), text.encode())


@pytest.mark.parametrize(
    "body",
    [
        NEW_USER,
        {"ldap": {"bindPassword": PASSWORD}},  # nested, any field the HAR redaction takes out
        {"users": [{"name": "a", "password": PASSWORD}]},  # in a list
        '{"pass\\u0077ord": "' + PASSWORD + '"}',  # spelled with a JSON escape
    ],
)
def test_a_copied_write_with_a_password_reads_its_body_from_stdin(body):
    base = "https://h.example/api/service/v1.0"
    command = as_command(new_user(body), base, ("--profile", "lab"))
    assert PASSWORD not in command
    assert shlex.split(command) == [
        "explorer", "post", "/groups/5e1/databaseUsers", "--profile", "lab", "--data", "@-", "--writes",
    ]  # fmt: skip
    curl = as_curl(new_user(body))
    assert PASSWORD not in curl
    assert shlex.split(curl)[-3:] == ["--data-binary", "@-", USERS_URL]


def test_the_notice_names_each_secret_field_once_and_a_body_too_deep_to_look_through_is_left_out():
    from explorer.display.shell_forms import left_out, secrets_in

    both = new_user({"password": PASSWORD, "users": [{"password": "x1"}, {"password": "x2"}], "k\x1bSecret": "y"})
    assert secrets_in(both) == ["/password", "/users/0/password", "/users/1/password", "/k\x1bSecret"]
    assert "Its body holds a secret (password, k␛Secret)" in left_out(secrets_in(both))
    deep = new_user('{"password": "' + PASSWORD + '", "a": ' + "[" * 600 + "]" * 600 + "}")
    assert PASSWORD not in as_command(deep, "https://h.example/api/service/v1.0")
    assert "(a field named like a secret)" in left_out(secrets_in(deep))
    assert left_out(secrets_in(new_user({"username": "analyst"}))) == ""


def test_a_copied_write_without_a_secret_keeps_its_body_in_the_command():
    body = {"username": "analyst", "roles": [{"databaseName": "sales", "roleName": "read"}]}
    command = as_command(new_user(body), "https://h.example/api/service/v1.0")
    assert shlex.split(command)[-3:] == ["--data", json.dumps(body), "--writes"]


@pytest.mark.screen
async def test_ctrl_g_on_a_database_user_s_post_copies_no_password_and_says_so(open_explorer):  # noqa: F811
    async with open_explorer(writes=True) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await explorer.open("groups", "production", "databaseUsers")
        await choose(explorer, "POST")
        set_body(explorer, json.dumps(NEW_USER, indent=2))
        for key, start in (("ctrl+g", "explorer post"), ("ctrl+o", "curl -X POST")):
            await explorer.pilot.press(key)
            await explorer.until(lambda start=start: explorer.app.clipboard.startswith(start))
            copied = explorer.app.clipboard
            assert copied.startswith(start) and PASSWORD not in copied
            assert "@-" in shlex.split(copied)
            await explorer.until(lambda: "Its body holds a secret (password)" in explorer.toasts())
            assert PASSWORD not in explorer.toasts()
            explorer.app.clear_notifications()
