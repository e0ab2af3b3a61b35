"""The history: every exchange kept across sessions, redacted as HAR is, searched, bounded, private,
safe with two writers, and a damaged file set aside, never a crash."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import stat
import time
from pathlib import Path

import httpx

from explorer.api.config import Credentials
from explorer.api.har import REDACTED
from explorer.api.history import History
from explorer.api.options import Har
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.sandbox import Settings
from explorer.sandbox.links import API_ROOT

DEFAULTS = Settings()


def session_on(url: str, history: History, **options) -> Session:
    credentials = Credentials(
        base_url=url + API_ROOT, client_id=DEFAULTS.client_id, client_secret=Secret(DEFAULTS.client_secret)
    )
    return Session(credentials, har=Har(history=history), **options)


def stored_bytes(path: Path) -> bytes:
    """The history file and SQLite's files beside it, as they are on the disk."""
    return b"".join(p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name))


async def test_every_exchange_over_a_socket_is_kept_across_sessions_with_no_secret(served, tmp_path):
    path = tmp_path / "state" / "history.sqlite3"
    session = session_on(served.url, History(path, profile="sandbox"))
    await session.fetch("")
    missing = await session.fetch("/groups/5f0000000000000000000000")
    token = session.auth.token.value.reveal()
    await session.aclose()
    assert missing.status == 404

    again = History(path)  # another session, later: what the first kept is there
    listed = again.search()
    assert [(e.method, e.path, e.status, e.error_code) for e in listed] == [
        ("POST", "/api/oauth/revoke", 200, ""),
        ("GET", f"{API_ROOT}/groups/5f0000000000000000000000", 404, "GROUP_NOT_FOUND"),
        ("GET", API_ROOT, 200, ""),
        ("POST", "/api/oauth/token", 200, ""),
    ]
    assert {(e.profile, e.origin) for e in listed} == {("sandbox", served.url)}  # http://127.0.0.1:PORT
    kept = again.get(listed[1].number)
    assert kept is not None and json.loads(kept.entry["response"]["content"]["text"])["errorCode"] == "GROUP_NOT_FOUND"
    token_entry = listed[3].entry
    assert json.loads(token_entry["response"]["content"]["text"])["access_token"] == REDACTED
    again.close()
    on_disk = stored_bytes(path)
    for secret in (token, DEFAULTS.client_secret):
        assert secret.encode() not in on_disk


async def test_a_write_is_kept_with_its_body_and_no_password(served, tmp_path):
    path = tmp_path / "history.sqlite3"
    history = History(path)
    session = session_on(served.url, history, writes=WritePolicy(True, "--writes"))
    groups = await session.fetch("/groups")
    project = next(p["id"] for p in groups.json["results"] if p["name"] == "production")
    user = {
        "databaseName": "admin",
        "username": "lesson",
        "password": "correct-horse-9f8e",
        "roles": [{"databaseName": "admin", "roleName": "readAnyDatabase"}],
    }
    users = f"/groups/{project}/databaseUsers"
    created = await session.send_write(await session.prepare_write("POST", users, json.dumps(user).encode()))
    await session.aclose()
    assert created.status == 201
    (posted,) = History(path).search("POST databaseUsers")
    assert json.loads(posted.entry["request"]["postData"]["text"]) == {**user, "password": REDACTED}
    assert b"correct-horse-9f8e" not in stored_bytes(path)


def kept(history: History, *exchanges: tuple[str, str, int, bytes]) -> None:
    """Add exchanges as a session would: (method, URL, status, body), a second apart from 1,800,000,000."""
    for at, (method, url, status, body) in enumerate(exchanges):
        response = httpx.Response(status, content=body, request=httpx.Request(method, url))
        history.record(response, 1_800_000_000 + at, 0.05)


def test_a_search_matches_each_word_against_method_status_error_code_path_and_time(tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    history = History(tmp_path / "history.sqlite3", profile="prod")
    missing = b'{"error": 404, "errorCode": "RESOURCE_NOT_FOUND", "detail": "No such cluster"}'
    kept(
        history,
        ("GET", "https://cloud.example.com/api/v1/groups", 200, b'{"results": []}'),
        ("GET", "https://cloud.example.com/api/v1/groups/abc/clusters/nope", 404, missing),
        ("PATCH", "https://cloud.example.com/api/v1/groups/abc/clusters/one", 409, b'{"errorCode": "CLUSTER_BUSY"}'),
        ("DELETE", "https://cloud.example.com/api/v1/groups/abc/clusters/two", 202, b""),
    )

    def found(words: str, **where) -> list[str]:
        return [f"{e.method} {e.status}" for e in history.search(words, **where)]

    assert found("") == ["DELETE 202", "PATCH 409", "GET 404", "GET 200"]  # newest first
    assert found("clusters 4xx") == ["PATCH 409", "GET 404"]
    assert found("not_found") == ["GET 404"]  # errorCode, any case; _ is itself, not LIKE's any
    assert found("patch") == ["PATCH 409"]
    assert found("404") == ["GET 404"]
    assert found("2027-01-15 08:00:02") == ["PATCH 409"]  # 1,800,000,002 s, in UTC here
    assert found("2027-01-15") == ["DELETE 202", "PATCH 409", "GET 404", "GET 200"]
    assert found("", since=1_800_000_002) == ["DELETE 202", "PATCH 409"]
    assert found("", profile="staging") == []
    assert found("", origin="https://cloud.example.com:443") == found("")
    assert found("", origin="https://cloud.example.com") == []  # an origin is said with its port
    assert found("%") == []  # a LIKE wildcard typed is a character looked for
    assert history.clear() == 4 and found("") == []


def test_the_oldest_go_past_the_bounds_of_entries_and_of_bytes(tmp_path):
    history = History(tmp_path / "history.sqlite3", max_entries=3)
    kept(history, *[("GET", f"https://h.example/n/{n}", 200, b"{}") for n in range(5)])
    assert [e.path for e in history.search()] == ["/n/4", "/n/3", "/n/2"]

    small = History(tmp_path / "small.sqlite3", max_bytes=5_000)
    kept(small, *[("GET", f"https://h.example/n/{n}", 200, b'{"pad": "' + b"x" * 1_000 + b'"}') for n in range(10)])
    # each entry is 1,624 bytes of HAR JSON: 3 fit in 5,000, a 4th would not
    assert [e.path for e in small.search()] == ["/n/9", "/n/8", "/n/7"]


def test_the_file_and_its_folder_are_private(tmp_path):
    path = tmp_path / "new" / "history.sqlite3"
    history = History(path)
    kept(history, ("GET", "https://h.example/", 200, b"{}"))
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    made = [p for p in path.parent.iterdir()]
    assert {p.name for p in made} >= {"history.sqlite3", "history.sqlite3-wal"}
    assert {stat.S_IMODE(p.stat().st_mode) for p in made} == {0o600}


def test_a_damaged_file_is_set_aside_and_a_new_one_begun(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"this was never a database, or it was overwritten" * 100)
    history = History(path)
    kept(history, ("GET", "https://h.example/", 200, b"{}"))
    assert history.set_aside is not None and history.set_aside.name.startswith("history.sqlite3.damaged-")
    assert history.set_aside.read_bytes().startswith(b"this was never")
    assert [e.path for e in history.search()] == ["/"]


async def test_a_session_says_a_damaged_file_once_and_keeps_its_history_in_a_new_one(served, tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"\x00" * 4096)
    session = session_on(served.url, History(path))
    await session.fetch("")
    await asyncio.gather(*session.keeping)  # added while the answer is shown
    problem = session.recording_problem
    assert problem is not None and problem.startswith(f"The file {path} could not be read: it was moved to")
    session.recording_problem = None
    await session.fetch("/groups")
    await asyncio.gather(*session.keeping)
    assert session.recording_problem is None and session.history is not None
    await session.aclose()
    assert len(History(path).search()) == 4  # the token, the root, groups, the revoke


async def test_a_history_that_cannot_be_written_stops_and_says_why_and_the_session_goes_on(served, tmp_path):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    session = session_on(served.url, History(blocked / "history.sqlite3"))
    resource = await session.fetch("")
    await asyncio.gather(*session.keeping)
    assert resource.status == 200 and session.history is None
    assert session.recording_problem is not None and session.recording_problem.startswith(
        f"Stopped writing {blocked / 'history.sqlite3'}: "
    )
    await session.aclose()


def add_many(path: str, tag: str, count: int) -> None:
    history = History(Path(path))
    kept(history, *[("GET", f"https://h.example/{tag}/{n}", 200, b"{}") for n in range(count)])
    history.close()


def test_two_processes_adding_at_once_lose_nothing(tmp_path):
    path = tmp_path / "history.sqlite3"
    History(path).search()  # the file begun, as the first explorer of the day does
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=add_many, args=(str(path), tag, 200)) for tag in ("one", "two")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
    assert [writer.exitcode for writer in writers] == [0, 0]
    paths = {e.path for e in History(path).search(limit=1_000)}
    assert paths == {f"/{tag}/{n}" for tag in ("one", "two") for n in range(200)}


def test_a_killed_writer_loses_at_most_the_entry_it_was_adding(tmp_path):
    path = tmp_path / "history.sqlite3"
    add_many(str(path), "before", 5)
    context = multiprocessing.get_context("spawn")
    writer = context.Process(target=add_many, args=(str(path), "during", 100_000))
    writer.start()
    history = History(path)
    deadline = time.monotonic() + 60  # generous: a loaded machine
    while len(history.search("during", limit=20)) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)  # it is writing: kill it in the middle
    os.kill(writer.pid, 9)  # type: ignore[arg-type]
    writer.join(60)
    after = History(path)
    assert len(after.search("before")) == 5
    during = [int(e.path.rsplit("/", 1)[1]) for e in after.search("during", limit=100_000)]
    assert sorted(during) == list(range(len(during))) and len(during) >= 20  # every entry whole, none torn
