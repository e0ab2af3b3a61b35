"""Fixtures shared by every test: the recorded real responses and a clock tests can move."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from explorer.sandbox.server import ServerThread

ROOT = Path(__file__).resolve().parents[1]
REAL_RESPONSES = ROOT / "tests" / "fixtures" / "real-responses"

# The property tests' examples, by profile (HYPOTHESIS_PROFILE): `dev`, a quick look as you work;
# `ci`, what fits CI's budget (.ci/run sets it); `deep`, a long run by hand before a release or after
# a change to parsing (docs/tests.md). No deadline: a loaded machine is not a failure.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=1_000, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("deep", settings.get_profile("ci"), max_examples=50_000)  # ci's, with more examples
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


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
    # A program a test starts writes its threads' stacks to stderr on SIGABRT: `ended` asks one that
    # outlived its wait where it was.
    monkeypatch.setenv("PYTHONFAULTHANDLER", "1")
    return home


def ended(process: subprocess.Popen[Any], within: float = 60.0) -> int:
    """`process`'s status once it has ended, within `within` seconds (generous: a loaded machine).

    One still running then is asked where it is (SIGABRT: Python's faulthandler writes every thread's
    stack to its stderr), and the test fails with what it wrote, if the test reads its output by pipe.
    """
    try:
        return process.wait(within)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        try:
            out, err = process.communicate(timeout=30)
        except (subprocess.TimeoutExpired, ValueError):  # ValueError: its output was read by the test
            process.kill()
            out, err = b"", b""
        pytest.fail(f"{process.args} still ran {within:g} s later; its output then:\n{out!r}\n{err!r}")


@pytest.fixture(autouse=True)
def no_system_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test reads or writes the user's keyring: each starts with none (keyring's `fail` backend, as on a
    headless machine), the programs it starts too; a test that needs one sets its own, in memory."""
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    yield
    keyring.set_keyring(fail.Keyring())


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


SLOW_KINDS = ("browser", "subprocess", "sweep", "screen")


def pytest_configure(config: pytest.Config) -> None:
    """ctrl+c for every program a test starts, as for a terminal's foreground job, however the suite
    was started. A shell without job control ignores SIGINT in what it starts in the background
    (`pytest … &` in a script, as CI may), every program started from there inherits that, and a
    test's ctrl+c to one was lost: a sandbox or a watch ran on. A handler of Python's own is not
    inherited: a program started from here has the default, as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser, subprocess, sweep or screen test is slow too, so `-m "not slow"` leaves every one out."""
    for item in items:
        if any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker(pytest.mark.slow)
