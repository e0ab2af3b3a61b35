"""A client Session against a fresh sandbox, in process and over a real socket.

The sandbox and the session share one fake clock; waiting (Retry-After, pacing) moves that clock
instead of sleeping, so a 40-second hold costs nothing and is still observable.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.options import Caches, Clocks
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from tests.conftest import FakeClock

IN_PROCESS_ORIGIN = "https://sandbox.invalid"


@dataclass
class Sleeper:
    """An asyncio.sleep that moves the fake clock and remembers each wait."""

    clock: FakeClock
    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.clock.advance(seconds)
        await asyncio.sleep(0)


@dataclass
class Connected:
    session: Session
    app: Any
    settings: Settings
    clock: FakeClock
    sleeper: Sleeper
    origin: str

    @property
    def world(self):
        return self.app.state.sandbox.world

    def project_id(self, name: str) -> str:
        return self.world.project_named(name).id

    def token_requests(self) -> int:
        return sum(1 for e in self.session.log if e.url.endswith("/api/oauth/token"))

    def live_tokens(self) -> int:
        sandbox = self.app.state.sandbox
        return sum(1 for t in sandbox.tokens.tokens.values() if not t.revoked and t.expires_at > sandbox.clock())


@pytest.fixture(params=["in-process", "socket"])
def transport(request: pytest.FixtureRequest) -> str:
    return request.param


Connector = Callable[..., Any]


@pytest.fixture
def connect(transport: str, clock: FakeClock, request: pytest.FixtureRequest) -> Connector:
    """connect(sandbox={...Settings}, api_key=False, token_cache=None, **session options)."""

    @asynccontextmanager
    async def open_(
        sandbox: dict[str, Any] | None = None,
        api_key: bool = False,
        token_cache: Path | None = None,
        app: Any = None,
        **options: Any,
    ) -> AsyncIterator[Connected]:
        settings = replace(Settings(clock=clock), **(sandbox or {}))
        app = app or create_app(settings)
        if transport == "in-process":
            origin, asgi = IN_PROCESS_ORIGIN, httpx.ASGITransport(app=app)
        else:
            server, switchboard = request.getfixturevalue("live_server")
            switchboard.app = app
            origin, asgi = server.url, None
        if api_key:
            credentials = Credentials(
                origin + API_ROOT, public_key=settings.public_key, private_key=Secret(settings.private_key)
            )
        else:
            credentials = Credentials(
                origin + API_ROOT,
                client_id=settings.client_id,
                client_secret=Secret(settings.client_secret),
                rate_limit=settings.rate_limit,
                token_rate_limit=settings.token_rate_limit,
            )
        sleeper = Sleeper(clock)
        clocks = Clocks(wall=clock, sleep=sleeper)
        session = Session(credentials, transport=asgi, clocks=clocks, caches=Caches(token=token_cache), **options)
        async with session:
            yield Connected(session, app, settings, clock, sleeper, origin)

    return open_


@pytest.fixture
async def connected(connect: Connector) -> AsyncIterator[Connected]:
    async with connect() as c:
        yield c


@pytest.fixture
def served(live_server):
    """The sandbox with its default settings, over a real socket: the server, whose `url` a session is given."""
    server, switchboard = live_server
    switchboard.app = create_app(Settings())
    return server
