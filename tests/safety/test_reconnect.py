"""A read survives a keep-alive connection the server closed; a write is never sent again (issue 38: 1).

The recording server answers one request on a connection and closes it when the next comes, without
answering and without having said `Connection: close` (`answers_per_connection=1`): what a client
meets when a server's idle timeout (uvicorn's 5 s, a proxy's minute) ends just as it sends on that
connection. What arrived, and on which connection, is what counts.
"""

from __future__ import annotations

import re

import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ApiError
from explorer.api.options import Bounds
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from tests.commands.conftest import in_process
from tests.safety.conftest import account_environment
from tests.safety.recording_server import RecordingServer

CLIENT, SECRET = "client-id", "client-secret-value"


@pytest.fixture
def closing() -> RecordingServer:
    """A service that answers one request on each connection, and closes it unanswered on the next."""
    with RecordingServer(answers_per_connection=1) as recording:
        yield recording


def account(server: RecordingServer, writes: bool = False) -> Session:
    credentials = Credentials(server.url, client_id=CLIENT, client_secret=Secret(SECRET))
    return Session(credentials, writes=WritePolicy(writes, "--writes"), bounds=Bounds(deadline=10.0))


async def test_a_get_on_a_connection_the_server_closed_goes_again_on_a_new_one(closing):
    async with account(closing) as session:
        resource = await session.fetch("/groups/1")  # after the token request, on the token's connection
        again = await session.fetch("/groups/1")  # on the connection the first fetch's answer came on
    assert (resource.status, again.status) == (200, 200)
    token, *reads = [(a.method, a.connection) for a in closing.arrivals][:5]  # then the revoke, on closing
    # Each GET came first on the connection before it, closed unanswered, then on a new one, answered.
    assert (token, reads) == (("POST", 1), [("GET", 1), ("GET", 2), ("GET", 2), ("GET", 3)])
    assert [e.status for e in session.log][:3] == [200, 200, 200]  # the token, the two reads: no failed try shown


async def test_the_token_request_on_a_connection_the_server_closed_goes_again(closing):
    async with account(closing) as session:
        await session.fetch("/groups/1")
        session.auth.token = None  # as when it expires: the next read asks for another on the pooled connection
        resource = await session.fetch("/groups/2")
    assert resource.status == 200
    tokens = [a.connection for a in closing.arrivals_of("POST", "/api/oauth/token")]
    assert tokens == [1, 2, 3]  # the second asked on the closed connection (2), then on a new one (3)


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
async def test_a_write_on_a_connection_the_server_closed_is_not_sent_again(closing, method):
    async with account(closing, writes=True) as session:
        await session.fetch("/groups/1")  # leaves a pooled connection for the write
        with pytest.raises(ApiError) as failed:
            await session.send_write(
                await session.prepare_write(method, "/groups/1", b"" if method == "DELETE" else b"{}")
            )
    assert len(closing.arrivals_of(method, "/groups/1")) == 1
    assert failed.value.written == "maybe"
    assert failed.value.summary == (
        f"{method} {closing.url}/groups/1 went, and the connection ended before its answer: "
        "the write may have been done"
    )


@pytest.mark.slow  # a second between fetches
def test_explorer_get_watch_goes_on_past_connections_the_server_closed(closing, tmp_path):
    run = in_process(
        ["get", "/groups/1", "--watch", "--every", "1", "--for", "3.5"], account_environment(closing, tmp_path)
    )
    said = re.fullmatch(
        r"explorer get: --for 3.5 s ran out before the resource was deleted \(1 version seen in (\d+) fetches\)\n",
        run.err,
    )
    assert run.code == 1 and said is not None  # not "the watch stopped: … Server disconnected …", exit 4
    fetches = int(said.group(1))
    assert fetches >= 3
    # Each fetch met the connection the server had closed, unanswered, and came again on a new one.
    connections = [a.connection for a in closing.arrivals_of("GET", "/groups/1")]
    assert len(connections) == 2 * fetches and len(set(connections)) == fetches + 1
    assert len(run.out.splitlines()) == 1  # the same document each time: printed once, as a watch does
