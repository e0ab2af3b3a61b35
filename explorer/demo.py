"""--demo: the sandbox in process with its default credentials. No network, nothing to set up."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import httpx

from explorer.api.config import Credentials
from explorer.api.options import Clocks
from explorer.api.secret import Secret
from explorer.api.session import Backend, Session

# .invalid never resolves (RFC 2606): nothing meant for the demo can reach a network.
DEMO_BASE_URL = "https://sandbox.invalid/api/service/v1.0"
DEMO_DESCRIPTION = "https://sandbox.invalid/openapi.json"  # the sandbox describes itself


def demo_session(
    settings: Any = None,
    app: Any = None,
    scenario: str | None = None,
    openapi: str | None = None,
    api_version: str | None = None,
    operation_seconds: int | None = None,
    clocks: Clocks | None = None,
    **options: Any,
) -> Session:
    """A session on an in-process sandbox: `app` if given, else a new one from `settings`.

    A scenario (scenarios.py) changes the sandbox's settings, and the demo explorer's own part.
    The API description is the sandbox's own (/openapi.json) unless `openapi` names another;
    `api_version` pins the version every request names, as --api-version does against a service;
    `operation_seconds`, how long its clusters' creates, changes and deletes go on (--operation-seconds).
    The session's wall clock is the sandbox's (`settings.clock`), whatever `clocks` says; its way to wait
    and its timer are those of `clocks`. The other `options` are the Session's own.
    """
    from explorer.sandbox import Settings, create_app
    from explorer.sandbox.scenarios import scenario_named

    settings = settings if isinstance(settings, Settings) else Settings()
    if operation_seconds is not None:
        settings = replace(settings, operation_seconds=operation_seconds)
    client: dict[str, Any] = {}
    if scenario:
        drill = scenario_named(scenario)
        settings = drill.settings(settings)
        client = dict(drill.client)
    credentials = Credentials(
        base_url=DEMO_BASE_URL,
        client_id=settings.client_id,
        client_secret=Secret(client.pop("client_secret", settings.client_secret)),
        rate_limit=settings.rate_limit,
        token_rate_limit=settings.token_rate_limit,
        openapi=openapi or DEMO_DESCRIPTION,
        api_version=api_version,
    )
    transport = httpx.ASGITransport(app=app or create_app(settings))
    clocks = replace(clocks or Clocks(), wall=settings.clock)
    session = Session(credentials, transport=transport, clocks=clocks, **{**client, **options})
    session.backend = Backend("demo", scenario)
    return session
