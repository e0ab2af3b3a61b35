"""The safety suite's servers: each keeps every request it receives (recording_server.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.commands.conftest import script_environment
from tests.safety.recording_server import RecordingServer


def account_environment(server: RecordingServer, home: Path) -> dict[str, str]:
    """A script's environment for a service account on `server`, its folders in `home`."""
    return script_environment(
        {
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
            "EXPLORER_BASE_URL": server.url,
            "EXPLORER_CLIENT_ID": "writer",
            "EXPLORER_CLIENT_SECRET": "writer-secret",
        }
    )


@pytest.fixture
def server() -> Iterator[RecordingServer]:
    """A service account's service on a loopback port, keeping every request."""
    with RecordingServer() as recording:
        yield recording


@pytest.fixture
def other() -> Iterator[RecordingServer]:
    """A second service, on another origin: where a secret must never arrive."""
    with RecordingServer() as recording:
        yield recording


@pytest.fixture
def digest_server() -> Iterator[RecordingServer]:
    """An API key's service: a request without Digest credentials is answered with the challenge."""
    with RecordingServer(digest=True) as recording:
        yield recording
