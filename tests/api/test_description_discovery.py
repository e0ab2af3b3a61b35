"""The API description found where the service publishes it, when none is given (`discover_description`).

Against the sandbox in process, behind a witness that keeps what reached it and can answer its
/openapi.json otherwise: a 404, a page, JSON that is not a description.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.responses import Response

from explorer.api.config import Credentials
from explorer.api.options import Caches
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from tests.conftest import ROOT

ORIGIN = "https://sandbox.invalid"
FIXTURE = ROOT / "tests" / "fixtures" / "openapi" / "real-shape.json"


class Witness:
    """The sandbox, keeping each request that reached it (method, path, headers); `answer`, if given,
    is what its /openapi.json says instead of its description."""

    def __init__(self, answer: Response | None = None) -> None:
        self.app = create_app(Settings())
        self.answer = answer
        self.arrived: list[tuple[str, str, dict[str, str]]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
            self.arrived.append((scope["method"], scope["path"], headers))
            if scope["path"] == "/openapi.json" and self.answer is not None:
                await self.answer(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def asked_for_description(self) -> list[dict[str, str]]:
        """The headers of each request for /openapi.json."""
        return [headers for _, path, headers in self.arrived if path == "/openapi.json"]


def accepts(witness: Witness, path: str) -> list[str]:
    """The Accept of each request for `path` under the API root."""
    return [headers["accept"] for _, at, headers in witness.arrived if at == API_ROOT + path]


def session_on(witness: Witness, cache: Path, openapi: str | None = None) -> Session:
    defaults = Settings()
    credentials = Credentials(
        ORIGIN + API_ROOT, client_id=defaults.client_id, client_secret=Secret(defaults.client_secret), openapi=openapi
    )
    return Session(credentials, transport=httpx.ASGITransport(app=witness), caches=Caches(description=cache))


async def test_none_given_the_description_the_sandbox_publishes_is_found_once_without_credentials(tmp_path):
    witness = Witness()
    async with session_on(witness, tmp_path) as session:
        await session.fetch("")  # the root first, as the screen does
        assert session.description is None  # nothing looked for until asked
        found = await session.discover_description()
        assert found is not None and found is session.description
        assert [w.method for w in found.writes(API_ROOT + "/groups/1/clusters")] == ["post"]
        assert await session.discover_description() is found  # once a session
        assert await session.load_description() is found  # what `a` asks for
        assert session.description_problem is None
        projects = await session.fetch("/groups")
    [asked] = witness.asked_for_description()
    assert "authorization" not in asked  # no credentials, not even to the API's own origin
    assert asked["host"] == "sandbox.invalid"
    assert projects.status == 200
    assert accepts(witness, "/groups") == ["application/vnd.service.2023-01-01+json"]  # the version it documents


@pytest.mark.parametrize(
    "answer",
    [
        Response('{"error": 404, "errorCode": "NOT_FOUND"}', 404, media_type="application/json"),
        Response("<html><body>Welcome</body></html>", 200, media_type="text/html"),
        Response('{"id": "entity", "links": []}', 200, media_type="application/json"),  # JSON, not a description
        Response("openapi: [", 200, media_type="application/yaml"),  # not JSON: not even read as YAML
    ],
    ids=["404", "a page", "JSON not OpenAPI", "not JSON"],
)
async def test_where_the_service_publishes_none_there_is_none_and_nothing_is_said(tmp_path, answer):
    witness = Witness(answer)
    async with session_on(witness, tmp_path) as session:
        await session.fetch("")
        assert await session.discover_description() is None
        assert await session.discover_description() is None
        assert await session.load_description() is None
        assert session.description_problem is None  # nothing to tell: the screen says nothing
        projects = await session.fetch("/groups")
    assert len(witness.asked_for_description()) == 1  # looked for once, not on every call
    assert projects.status == 200 and accepts(witness, "/groups") == ["application/json"]


async def test_a_description_given_is_the_one_used_and_none_is_looked_for(tmp_path):
    witness = Witness()
    async with session_on(witness, tmp_path, openapi=str(FIXTURE)) as session:
        await session.fetch("")
        found = await session.discover_description()
    assert found is not None and found.source == str(FIXTURE)
    assert witness.asked_for_description() == []
