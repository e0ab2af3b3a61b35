"""Sessions recorded as HAR 1.2: valid after every exchange, redacted, continued, read back by
another program's reader, and replayed offline."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from haralyzer import HarEntry, HarParser

from explorer.api.config import Credentials
from explorer.api.errors import ConfigError
from explorer.api.har import REDACTED, HarRecorder
from explorer.api.options import Clocks
from explorer.api.recording import read_recording
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.connection import replaying
from explorer.sandbox import Settings
from explorer.sandbox.links import API_ROOT
from tests.conftest import REAL_RESPONSES

DEFAULTS = Settings()
SECRETS = {  # what the service may answer, each a field the redaction must find
    "password": "hunter2-password-value",
    "privateKey": "0c0ffee0-private-key-value",
    "apiToken": "api-token-value-9f8e",
    "webhookSecret": "webhook-secret-value-77",
    "bindPassword": "bind-password-value-12",
    "nested": {"clientSecret": "client-secret-value-34", "list": [{"secret": "list-secret-value-56"}]},
}


def secret_values(value: object) -> list[str]:
    if isinstance(value, dict):
        return [found for item in value.values() for found in secret_values(item)]
    if isinstance(value, list):
        return [found for item in value for found in secret_values(item)]
    return [str(value)]


def session_on(url: str, har: Path, **options) -> Session:
    credentials = Credentials(
        base_url=url + API_ROOT, client_id=DEFAULTS.client_id, client_secret=Secret(DEFAULTS.client_secret)
    )
    session = Session(credentials, **options)
    session.recorder = HarRecorder(har, str(session.base_url))
    return session


async def test_a_session_over_a_socket_is_recorded_whole_and_carries_no_secret(served, tmp_path):
    har = tmp_path / "session.har"
    session = session_on(served.url, har)
    await session.fetch("")
    await session.fetch("/groups")
    token = session.auth.token.value.reveal()
    await session.aclose()  # revokes the token: the revoke form is recorded too
    text = har.read_text()
    basic = base64.b64encode(f"{DEFAULTS.client_id}:{DEFAULTS.client_secret}".encode()).decode()
    for secret in (token, DEFAULTS.client_secret, basic):
        assert secret not in text
    entries = json.loads(text)["log"]["entries"]
    assert [(e["request"]["method"], e["request"]["url"].removeprefix(served.url)) for e in entries] == [
        ("POST", "/api/oauth/token"),
        ("GET", API_ROOT),
        ("GET", f"{API_ROOT}/groups"),
        ("POST", "/api/oauth/revoke"),
    ]
    assert entries[0]["_redacted"] == ["request/headers/authorization", "response/content/access_token"]
    assert json.loads(entries[0]["response"]["content"]["text"])["access_token"] == REDACTED
    assert entries[3]["_redacted"] == ["request/headers/authorization", "request/postData/token"]
    assert entries[2]["response"]["status"] == 200 and '"results"' in entries[2]["response"]["content"]["text"]


async def test_every_field_that_holds_a_secret_is_redacted_however_deep(tmp_path):
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/oauth/token":
            return httpx.Response(200, json={"access_token": "t0ken-value", "token_type": "Bearer", "expires_in": 3600})
        return httpx.Response(200, json={"id": "a1", **SECRETS}, headers={"Set-Cookie": "session=cookie-value-90"})

    har = tmp_path / "secrets.har"
    session = session_on("https://service.example", har, transport=httpx.MockTransport(answer))
    await session.fetch("/things/a1?apiKey=query-key-value-11")
    text = har.read_text()
    for secret in [*secret_values(SECRETS), "t0ken-value", "cookie-value-90", "query-key-value-11"]:
        assert secret not in text, secret
    entry = json.loads(text)["log"]["entries"][-1]
    assert sorted(entry["_redacted"]) == sorted(
        [
            "request/headers/authorization",
            "request/query/apiKey",
            "response/headers/set-cookie",
            *(f"response/content/{name}" for name in ("password", "privateKey", "apiToken", "webhookSecret")),
            "response/content/bindPassword",
            "response/content/nested/clientSecret",
            "response/content/nested/list/0/secret",
        ]
    )
    assert json.loads(entry["response"]["content"]["text"])["id"] == "a1"  # the rest as it was


async def test_the_real_services_private_keys_are_redacted_from_a_replay_recorded_again(tmp_path):
    session = replaying(REAL_RESPONSES)
    session.recorder = HarRecorder(tmp_path / "again.har", str(session.base_url))
    resource = await session.fetch("/orgs/a0123456789abcdef012345a/apiKeys")
    assert resource.status == 200 and "********-****-****-9c7006b880e3" in resource.body.decode()
    text = (tmp_path / "again.har").read_text()
    assert "9c7006b880e3" not in text and '"privateKey": "[redacted by explorer]"' in text.replace('\\"', '"')


async def test_the_file_is_valid_after_every_exchange_and_a_cut_one_still_loads(served, tmp_path):
    har = tmp_path / "kept.har"
    session = session_on(served.url, har)
    for target in ("", "/groups", "/orgs"):
        await session.fetch(target)
        assert json.loads(har.read_text())["log"]["entries"]  # valid JSON, as a killed program leaves it
    whole = har.read_text()
    cut = tmp_path / "cut.har"
    cut.write_text(whole[: whole.rindex('"response"')])  # killed in the middle of the last entry
    recording = read_recording(cut)
    assert recording.cut and len(recording.entries) == 3 and recording.base_url == str(session.base_url)
    replay = replaying(cut)
    assert (await replay.fetch("/groups")).status == 200
    assert (await replay.fetch("/orgs")).error.error_code == "NOT_IN_RECORDING"


async def test_a_file_of_ours_is_continued_and_another_is_left_alone(served, tmp_path):
    har = tmp_path / "twice.har"
    first = session_on(served.url, har)
    await first.fetch("")
    second = session_on(served.url, har)  # a second run with the same file
    await second.fetch("/groups")
    entries = json.loads(har.read_text())["log"]["entries"]
    assert [e["request"]["url"].removeprefix(served.url) for e in entries] == [
        "/api/oauth/token", API_ROOT, "/api/oauth/token", f"{API_ROOT}/groups"
    ]  # fmt: skip
    browsers = tmp_path / "browser.har"
    browsers.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "Firefox"}, "entries": []}}))
    with pytest.raises(ConfigError, match="explorer did not write"):
        HarRecorder(browsers, "https://x")
    assert "Firefox" in browsers.read_text()


async def test_another_programs_har_reader_reads_it(served, tmp_path):
    har = tmp_path / "read.har"
    session = session_on(served.url, har)
    await session.fetch("/groups")
    parser = HarParser(json.loads(har.read_text()))
    assert parser.creator["name"] == "explorer" and parser.har_data["version"] == "1.2"
    entries = [HarEntry(entry) for entry in parser.har_data["entries"]]
    assert [(e.request.method, e.response.status) for e in entries] == [("POST", 200), ("GET", 200)]
    assert entries[1].request.url == f"{served.url}{API_ROOT}/groups"
    assert entries[1].response.mimeType == "application/vnd.service.2023-01-01+json;charset=utf-8"
    assert json.loads(entries[1].response.text)["totalCount"] == 5


async def test_a_replay_answers_what_was_recorded_and_names_what_was_not(served, tmp_path):
    har = tmp_path / "replayed.har"
    live = session_on(served.url, har)
    groups = await live.fetch("/groups")
    missing = await live.fetch("/groups/000000000000000000000000")
    replay = replaying(har)
    assert replay.har.replay == "replayed.har"
    again = await replay.fetch("/groups")
    assert (again.status, again.body) == (groups.status, groups.body)
    gone = await replay.fetch("/groups/000000000000000000000000")
    assert (gone.status, gone.error.error_code) == (missing.status, missing.error.error_code)
    other = await replay.fetch("/groups?pageNum=2")
    assert other.status == 404 and other.error.detail == (
        f"GET {API_ROOT}/groups?pageNum=2 is not in the recording replayed.har."
    )


@pytest.mark.subprocess
def test_unredacted_is_asked_for_and_warned_of(tmp_path):
    har = tmp_path / "open.har"
    run = subprocess.run(
        [sys.executable, "-m", "explorer", "get", "--demo", "--har", str(har), "--har-unredacted", "/groups"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert f"explorer: warning: {har} gets tokens, secrets and passwords as they were" in run.stderr
    token_entry = json.loads(har.read_text())["log"]["entries"][1]
    assert token_entry["_redacted"] == [] and REDACTED not in json.dumps(token_entry)
    replayed = subprocess.run(
        [sys.executable, "-m", "explorer", "get", "--replay", str(har), "/groups/nothing"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replayed.returncode == 4 and "NOT_IN_RECORDING" in replayed.stderr and "Traceback" not in replayed.stderr


async def test_a_recording_that_cannot_be_written_stops_and_says_why_and_the_session_goes_on(served, tmp_path):
    session = session_on(served.url, tmp_path / "full.har")
    await session.fetch("")
    session.recorder.file.close()
    full = session.recorder.file = open("/dev/full", "r+b")  # noqa: SIM115  (a disk with no room left)
    resource = await session.fetch("/groups")
    assert resource.status == 200 and session.recorder is None and full.closed
    assert session.recording_problem == f"Stopped writing {tmp_path / 'full.har'}: No space left on device"


async def test_the_recording_is_closed_even_when_the_connections_will_not_close(served, tmp_path):
    session = session_on(served.url, tmp_path / "closing.har")
    await session.fetch("")
    recorder = session.recorder

    async def refusing() -> None:
        raise OSError("the connection pool would not close")

    session.client.aclose = refusing  # type: ignore[method-assign]
    with pytest.raises(OSError, match="would not close"):
        await session.aclose()
    assert recorder.file.closed
    assert json.loads((tmp_path / "closing.har").read_text())["log"]["entries"]  # whole, as closed


async def test_an_exchange_is_logged_at_the_moment_the_har_says_it_ended(served, tmp_path):
    """One reading of the wall clock for both: a slow disk between two readings made the Log and
    the HAR file disagree about when an answer came."""
    ticks = iter(range(1_700_000_000, 1_700_001_000))
    session = session_on(served.url, tmp_path / "times.har", clocks=Clocks(wall=lambda: float(next(ticks))))
    await session.fetch("")
    await session.aclose()
    entry = json.loads((tmp_path / "times.har").read_text())["log"]["entries"][-1]
    started = datetime.fromisoformat(entry["startedDateTime"].replace("Z", "+00:00")).timestamp()
    assert session.log[-1].at == pytest.approx(started + entry["time"] / 1000, abs=0.002)


async def test_a_recording_without_its_root_lists_what_it_holds_there():
    session = replaying(REAL_RESPONSES)
    root = await session.fetch("")
    recorded = {link.href.removeprefix(str(session.base_url) + "/") for link in root.links}
    assert root.status == 200 and len(recorded) == 128 == root.json["linked"]
    assert root.json["answers"] == 148  # as the docs count them: every answer, not only the GETs' URLs
    assert "orgs/a0123456789abcdef012345a/apiKeys" in recorded
    missing = await session.fetch("/nowhere")
    assert (
        missing.error.hint
        == "This is a replay: only what was recorded answers. Ask for a path (and query) the recording holds."
    )


def test_har_names_a_file_not_a_folder(tmp_path):
    with pytest.raises(ConfigError, match="is a folder: a HAR recording is written to a file"):
        HarRecorder(tmp_path, "https://x")


async def test_requests_in_flight_together_are_each_recorded_whole(served, tmp_path):
    import asyncio

    har = tmp_path / "together.har"
    session = session_on(served.url, har)
    await session.fetch("")
    await asyncio.gather(*(session.fetch(f"/groups?pageNum={n}") for n in range(1, 21)))
    entries = json.loads(har.read_text())["log"]["entries"]
    assert sorted(e["request"]["url"].rsplit("=", 1)[1] for e in entries[2:]) == sorted(map(str, range(1, 21)))


async def test_writes_are_recorded_with_their_bodies_and_no_password(served, tmp_path):
    har = tmp_path / "writes.har"
    session = session_on(served.url, har, writes=WritePolicy(True, "--writes"))
    groups = await session.fetch("/groups")
    project = next(p["id"] for p in groups.json["results"] if p["name"] == "production")
    users = f"/groups/{project}/databaseUsers"
    roles = [{"databaseName": "admin", "roleName": "readAnyDatabase"}]
    user = {"databaseName": "admin", "username": "lesson", "password": "correct-horse-9f8e", "roles": roles}
    body = json.dumps(user).encode()
    created = await session.send_write(await session.prepare_write("POST", users, body))
    again = await session.send_write(await session.prepare_write("POST", users, body))
    gone = await session.send_write(await session.prepare_write("DELETE", f"{users}/admin/lesson", b""))
    await session.aclose()
    assert (created.status, again.status, gone.status) == (201, 409, 204)
    text = har.read_text()
    assert "correct-horse-9f8e" not in text
    entries = [e for e in json.loads(text)["log"]["entries"] if "/databaseUsers" in e["request"]["url"]]
    assert [(e["request"]["method"], e["response"]["status"]) for e in entries] == [
        ("POST", 201),
        ("POST", 409),
        ("DELETE", 204),
    ]
    posted = entries[0]["request"]["postData"]
    assert posted["mimeType"] == "application/json"
    assert json.loads(posted["text"]) == {**user, "password": REDACTED}
    assert "request/postData/password" in entries[0]["_redacted"]
    assert json.loads(entries[1]["response"]["content"]["text"])["errorCode"] == "USER_ALREADY_EXISTS"
    assert "postData" not in entries[2]["request"] and entries[2]["response"]["content"]["size"] == 0


async def test_a_body_that_holds_no_secret_is_written_as_it_came_whatever_its_label(tmp_path):
    """Not parsed and written again: its spacing, its order and its escapes are the service's."""
    page = '{ "results" :[ {"name":"caf\\u00e9\\n", "id": 1} ],"totalCount":1 }'

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/oauth/token":
            return httpx.Response(200, json={"access_token": "t0ken-value", "token_type": "Bearer", "expires_in": 3600})
        return httpx.Response(200, content=page.encode(), headers={"Content-Type": "text/plain"})

    har = tmp_path / "plain.har"
    session = session_on("https://service.example", har, transport=httpx.MockTransport(answer))
    await session.fetch("/things")
    entry = json.loads(har.read_text())["log"]["entries"][-1]
    assert entry["response"]["content"]["text"] == page
    assert entry["_redacted"] == ["request/headers/authorization"]
