"""A sandbox per test, reached in process (ASGITransport) and over a real socket (uvicorn).

Most tests take `sandbox`, which runs them once each way: a convention that holds only in
process, or only on the network, fails one of the two.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
import pytest

from explorer.sandbox import Settings, create_app
from explorer.sandbox.settings import parse_network
from tests.conftest import FakeClock

API = "/api/service/v1.0"
# The socket's clients speak plain HTTP: one TLS context for all of them, not one each (about 25 ms to
# load certifi's authorities, which none of them uses).
PLAIN = httpx.create_ssl_context()


@dataclass
class Harness:
    """One sandbox and an HTTP client pointed at it."""

    app: Any
    settings: Settings
    client: httpx.AsyncClient
    clock: FakeClock
    transport: str
    _token: str | None = None
    _token_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def world(self):
        return self.app.state.sandbox.world

    def basic(self, client_id: str | None = None, secret: str | None = None) -> dict[str, str]:
        pair = f"{client_id or self.settings.client_id}:{secret or self.settings.client_secret}"
        return {"Authorization": "Basic " + base64.b64encode(pair.encode()).decode()}

    async def request_token(self, **kwargs: Any) -> httpx.Response:
        kwargs.setdefault("headers", self.basic())
        kwargs.setdefault("data", {"grant_type": "client_credentials"})
        return await self.client.post("/api/oauth/token", **kwargs)

    async def token(self) -> str:
        async with self._token_lock:
            if self._token is None:
                response = await self.request_token()
                assert response.status_code == 200, response.text
                self._token = response.json()["access_token"]
        return self._token

    async def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """An authenticated request (Bearer) to a path under the API root, or an absolute URL."""
        headers = {"Authorization": f"Bearer {await self.token()}", **kwargs.pop("headers", {})}
        url = path if path.startswith(("http:", "https:", "/api/", "/_")) else API + path
        return await self.client.request(method, url, headers=headers, **kwargs)

    async def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return await self.call("GET", path, **kwargs)

    def project_id(self, name: str) -> str:
        return self.world.project_named(name).id


@pytest.fixture(params=["in-process", "socket"])
def transport(request: pytest.FixtureRequest) -> str:
    return request.param


Opener = Callable[..., Any]


def opener(transport: str, clock: FakeClock, request: pytest.FixtureRequest) -> Opener:
    @asynccontextmanager
    async def open_(client: tuple[str, int] | None = None, **overrides: Any) -> AsyncIterator[Harness]:
        if "access_list" in overrides:
            overrides["access_list"] = tuple(parse_network(n) for n in overrides["access_list"])
        settings = replace(Settings(clock=clock), **overrides)
        app = create_app(settings)
        if transport == "in-process":
            asgi = httpx.ASGITransport(app=app, client=client or ("127.0.0.1", 50000))
            async with httpx.AsyncClient(transport=asgi, base_url="http://sandbox.test") as http:
                yield Harness(app, settings, http, clock, transport)
        else:
            assert client is None, "a socket test cannot choose its client address"
            server, switchboard = request.getfixturevalue("live_server")
            switchboard.app = app
            async with httpx.AsyncClient(base_url=server.url, verify=PLAIN) as http:
                yield Harness(app, settings, http, clock, transport)

    return open_


@pytest.fixture
def open_sandbox(transport: str, clock: FakeClock, request: pytest.FixtureRequest) -> Opener:
    """open_sandbox(rate_limit=5, ...) -> async context of a Harness, once per transport."""
    return opener(transport, clock, request)


@pytest.fixture
def open_in_process(clock: FakeClock, request: pytest.FixtureRequest) -> Opener:
    """Like open_sandbox, in process only, where a test may choose the client's address."""
    return opener("in-process", clock, request)


@pytest.fixture
async def sandbox(open_sandbox: Opener) -> AsyncIterator[Harness]:
    async with open_sandbox() as harness:
        yield harness
