"""Reads stay reads, and the user's headers stay with the API's origin.

A header that asks the service to take a request as another method (`X-HTTP-Method-Override:
DELETE` on a GET) is refused on every way a request is made: `explorer get` and its `--watch`, a
replay, the writes (whose method is their own), and the library the screen is built on. The headers
`-H` adds go to the API's origin only: not to an API description on another origin, nor to a link
read anonymously there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ConfigError
from explorer.api.secret import Secret
from explorer.api.session import Session
from tests.commands.conftest import in_process, script_environment
from tests.safety.conftest import account_environment
from tests.safety.recording_server import RecordingServer

OVERRIDES = [
    "X-HTTP-Method-Override",
    "x-http-method",
    "X-METHOD-override",
    "X_HTTP_Method_Override",
]  # odd cases; _ as -
TRACE = "trace-7f3a"  # the value of the user's own header: where it arrives is what counts


def carrying(server: RecordingServer, value: str) -> list[str]:
    """The paths of the arrivals that carried `value` in any header."""
    return [a.path for a in server.arrivals if any(value in v for v in a.headers.values())]


@pytest.mark.parametrize("name", OVERRIDES)
@pytest.mark.parametrize(
    "command",
    [
        ["get", "/groups/1"],
        ["get", "/groups/1", "--watch", "--every", "1", "--for", "3"],
        ["diff", "/groups/1", "/groups/2"],
        ["post", "/groups", "name=made", "--writes", "--yes"],
        ["patch", "/groups/1", "name=renamed", "--writes", "--yes"],
    ],
    ids=["get", "watch", "diff", "post", "patch"],
)
def test_a_method_override_is_refused_and_nothing_is_sent(
    server: RecordingServer, tmp_path: Path, command: list[str], name: str
) -> None:
    run = in_process([*command, "-H", f"{name}: DELETE"], account_environment(server, tmp_path))
    assert run.code == 2
    assert f"{name} cannot be set: it asks the service to take the request as another method" in run.err
    assert server.arrivals == []


def test_a_replay_refuses_a_method_override(server: RecordingServer, tmp_path: Path) -> None:
    recording = tmp_path / "session.har"
    made = in_process(["get", "/groups/1", "--har", str(recording)], account_environment(server, tmp_path))
    assert made.code == 0
    run = in_process(
        ["get", "/groups/1", "--replay", str(recording), "-H", "X-HTTP-Method-Override: DELETE"],
        script_environment({"XDG_STATE_HOME": str(tmp_path / "state")}),
    )
    assert run.code == 2
    assert "X-HTTP-Method-Override cannot be set" in run.err
    assert run.out == b""


@pytest.mark.parametrize("name", OVERRIDES)
async def test_a_session_refuses_a_method_override(server: RecordingServer, name: str) -> None:
    """The library the screen and every command use: headers given to a session are checked as -H is."""
    credentials = Credentials(server.url, client_id="reader", client_secret=Secret("reader-secret"))
    with pytest.raises(ConfigError, match=f"{name} cannot be set: it asks the service"):
        Session(credentials, headers={name: "DELETE"})
    assert server.arrivals == []


def test_headers_go_to_the_api_not_to_a_description_on_another_origin(
    server: RecordingServer, other: RecordingServer, tmp_path: Path
) -> None:
    run = in_process(
        ["get", "/groups/1", "-H", f"X-Trace: {TRACE}", "--openapi", other.origin + "/openapi.json"],
        account_environment(server, tmp_path),
    )
    assert run.code == 0
    assert [a.path for a in other.arrivals] == ["/openapi.json"]  # the description was asked for there
    assert carrying(other, TRACE) == []
    assert carrying(server, TRACE) == ["/api/service/v1.0/groups/1"]


def test_headers_go_to_a_description_on_the_apis_own_origin(server: RecordingServer, tmp_path: Path) -> None:
    run = in_process(
        ["get", "/groups/1", "-H", f"X-Trace: {TRACE}", "-H", "Accept: application/json", "--openapi",
         server.origin + "/openapi.json"],
        account_environment(server, tmp_path),
    )  # fmt: skip
    assert run.code == 0
    described = [a for a in server.arrivals if a.path == "/openapi.json"]
    assert [a.headers["x-trace"] for a in described] == [TRACE]
    assert described[0].headers["accept"] != "application/json"  # the description's own Accept, not the API's
    assert carrying(server, TRACE) == ["/openapi.json", "/api/service/v1.0/groups/1"]


async def test_headers_do_not_follow_a_link_read_anonymously(server: RecordingServer, other: RecordingServer) -> None:
    credentials = Credentials(server.url, client_id="reader", client_secret=Secret("reader-secret"))
    async with Session(credentials, headers={"X-Trace": TRACE}) as session:
        here = await session.fetch("/groups/1")
        there = await session.fetch(other.url + "/groups/1", anonymous=True)
    assert (here.status, there.status, there.foreign) == (200, 200, True)
    assert [a.path for a in other.arrivals] == ["/api/service/v1.0/groups/1"]
    assert carrying(other, TRACE) == []
    assert carrying(server, TRACE) == ["/api/service/v1.0/groups/1"]
