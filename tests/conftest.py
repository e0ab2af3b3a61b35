"""Fixtures shared by every test: the recorded real responses and a clock tests can move."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explorer.sandbox.server import ServerThread

ROOT = Path(__file__).resolve().parents[1]
REAL_RESPONSES = ROOT / "tests" / "fixtures" / "real-responses"


class FakeClock:
    """Wall-clock seconds that move only when a test says so. Starts 20 s into a minute."""

    def __init__(self, start: float = 1_794_999_980.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def own_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test has its own config, cache and data folders: none reads or writes the user's."""
    home = tmp_path_factory.mktemp("home")
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(variable, str(home / variable.lower()))
    return home


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def real_responses() -> list[Path]:
    files = sorted(REAL_RESPONSES.glob("*.http"))
    assert len(files) == 148, f"expected the 148 recorded responses in {REAL_RESPONSES}, found {len(files)}"
    return files


class Switchboard:
    """One uvicorn server for the whole session, serving whichever app the current test made."""

    def __init__(self) -> None:
        self.app: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


@pytest.fixture(scope="session")
def live_server() -> Iterator[tuple[ServerThread, Switchboard]]:
    switchboard = Switchboard()
    with ServerThread(switchboard) as server:
        yield server, switchboard
