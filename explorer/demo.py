"""--demo: the sandbox in process with its default credentials. No network, nothing to set up."""

from __future__ import annotations

import httpx

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session

# .invalid never resolves (RFC 2606): nothing meant for the demo can reach a network.
DEMO_BASE_URL = "https://sandbox.invalid/api/service/v1.0"


def demo_session(settings: object | None = None, **session_options: object) -> Session:
    """A session on a fresh in-process sandbox; `settings` are the sandbox's (a scenario's)."""
    from explorer.sandbox import Settings, create_app

    settings = settings if isinstance(settings, Settings) else Settings()
    credentials = Credentials(
        base_url=DEMO_BASE_URL,
        client_id=settings.client_id,
        client_secret=Secret(settings.client_secret),
        rate_limit=settings.rate_limit,
        token_rate_limit=settings.token_rate_limit,
    )
    transport = httpx.ASGITransport(app=create_app(settings))
    return Session(credentials, transport=transport, clock=settings.clock, **session_options)  # type: ignore[arg-type]
