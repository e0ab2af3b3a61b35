"""API keys (HTTP Digest): a read is sent twice at first, the challenge then the answer; a write's
challenge comes from a GET without a body or credentials, and the write goes once.

What the user sees of a response (its time, its hint) must be about the answered request, never
the challenge that came before it.
"""

from __future__ import annotations

import httpx

from explorer.api.config import Credentials
from explorer.api.options import Clocks
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from tests.api.conftest import IN_PROCESS_ORIGIN

SANDBOX = Settings()


class Stopwatch(httpx.AsyncBaseTransport):
    """The sandbox in process, each request taking the next of `durations` seconds of a fake timer."""

    def __init__(self, app: object, durations: list[float]) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.durations = durations
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        self.now += self.durations.pop(0)
        return response


def api_key_session(transport: httpx.AsyncBaseTransport, private_key: str = SANDBOX.private_key, **options) -> Session:
    credentials = Credentials(
        IN_PROCESS_ORIGIN + API_ROOT, public_key=SANDBOX.public_key, private_key=Secret(private_key)
    )
    return Session(credentials, transport=transport, **options)


async def test_the_time_shown_is_the_answered_requests_not_the_challenges(clock):
    stopwatch = Stopwatch(create_app(Settings(clock=clock)), durations=[2.0, 0.25])
    async with api_key_session(stopwatch, clocks=Clocks(wall=clock, timer=stopwatch)) as session:
        resource = await session.fetch("/groups")

    assert resource.status == 200
    assert resource.elapsed == 0.25
    assert [(e.status, e.elapsed) for e in session.log] == [(401, 2.0), (200, 0.25)]


async def test_a_request_sent_again_with_the_last_challenge_is_timed_once(clock):
    stopwatch = Stopwatch(create_app(Settings(clock=clock)), durations=[2.0, 0.25, 0.5])
    async with api_key_session(stopwatch, clocks=Clocks(wall=clock, timer=stopwatch)) as session:
        await session.fetch("/groups")
        again = await session.fetch("/orgs")  # answered at once: the challenge is known

    assert again.elapsed == 0.5
    assert [e.elapsed for e in session.log] == [2.0, 0.25, 0.5]


async def test_a_wrong_private_key_is_named_in_the_hint(clock):
    transport = httpx.ASGITransport(app=create_app(Settings(clock=clock)))
    async with api_key_session(transport, private_key="not-the-private-key", clocks=Clocks(wall=clock)) as session:
        first = await session.fetch("/groups")
        second = await session.fetch("/orgs")

    for resource in (first, second):
        assert resource.status == 401
        assert resource.error.line() == "401 Unauthorized · UNAUTHORIZED: You are not authorized for this resource."
        assert resource.error.hint == (
            "The API key was refused: check the public and private key; if the key works elsewhere, it has no role "
            "for this resource."
        )
        assert resource.error.setting == "api_key"  # where the keys come from: the caller's to say
        assert resource.credentials == "API key" and not resource.after_refresh


async def test_a_right_key_without_the_role_gets_the_roles_hint(clock):
    app = create_app(Settings(clock=clock))
    restricted = app.state.sandbox.world.project_named("restricted-finance").id
    async with api_key_session(httpx.ASGITransport(app=app), clocks=Clocks(wall=clock)) as session:
        resource = await session.fetch(f"/groups/{restricted}")

    assert resource.status == 401 and resource.error.error_code == "USER_UNAUTHORIZED"
    assert resource.error.hint == (
        "The credentials work but are not allowed here: check the roles of the account for this project."
    )


class Noting(httpx.AsyncBaseTransport):
    """The sandbox in process, each request noted as (method, path, carried credentials, body)."""

    def __init__(self, app: object) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.seen: list[tuple[str, str, bool, bytes]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        self.seen.append((request.method, request.url.path, "authorization" in request.headers, body))
        return await self.inner.handle_async_request(request)


async def test_a_write_answers_a_challenge_got_without_its_body_and_goes_once(clock):
    app = create_app(Settings(clock=clock))
    project = app.state.sandbox.world.project_named("production").id
    noting = Noting(app)
    async with api_key_session(noting, clocks=Clocks(wall=clock), writes=WritePolicy(True, "--writes")) as session:
        await session.fetch("/orgs")  # a challenge known already: a write still asks for a fresh one
        resource = await session.fetch(f"/groups/{project}", method="PATCH", json={"name": "renamed"})

    assert resource.status == 200
    path = f"{API_ROOT}/groups/{project}"
    assert [seen for seen in noting.seen if seen[1] == path] == [
        ("GET", path, False, b""),  # the challenge, asked without a body or credentials
        ("PATCH", path, True, b'{"name": "renamed"}'),  # the write, once, answering it
    ]
    assert app.state.sandbox.world.project_named("renamed").id == project
