"""A server whose answers never end or never stop growing: the request fails with the limit named,
memory stays bounded, nothing hangs. In process and over a real socket, and through `explorer get`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from explorer.api import guard
from explorer.api.config import Credentials
from explorer.api.errors import ApiError
from explorer.api.options import Bounds
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.commands.hint_words import command_line_hint
from explorer.sandbox.server import ServerThread
from tests.conftest import ROOT
from tests.hostile_service import BOMB, ROOT_PATH, HostileService, answer

MB = 2**20


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    service = HostileService("http://unused.invalid")
    with ServerThread(service) as server:
        service.origin = server.url
        yield server.url


@pytest.fixture(params=["in-process", "socket"])
def origin(request, served) -> str | None:
    return None if request.param == "in-process" else served


@asynccontextmanager
async def session_on(origin: str | None, **options: Any) -> AsyncIterator[Session]:
    base = (origin or "https://hostile.test") + ROOT_PATH
    credentials = Credentials(base, client_id="good", client_secret=Secret("s"))
    transport = None if origin else httpx.ASGITransport(app=HostileService("https://hostile.test"))
    async with Session(credentials, transport=transport, **options) as session:
        yield session


async def test_a_compression_bomb_is_dropped_early_with_memory_bounded(origin):
    tracemalloc.start()
    try:
        async with session_on(origin) as session:
            with pytest.raises(ApiError) as raised:
                await session.fetch("/cases/bomb")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    error = raised.value
    assert error.kind == "too-large"
    assert "decodes to more than 200 times its compressed size" in error.line()
    assert "a compression bomb" in error.line()
    assert peak < 32 * MB, f"{peak / MB:.0f} MB at the peak"  # 64 MB if it were decoded


async def test_an_answer_past_max_body_is_named_with_its_flag(origin):
    async with session_on(origin, bounds=Bounds(max_body=2 * MB)) as session:
        with pytest.raises(ApiError) as raised:
            await session.fetch("/cases/big-string")
        assert (await session.fetch("/cases/small-gzip")).json == {"ok": True}  # what fits is read as ever
    assert raised.value.line().endswith("/big-string: the answer is larger than 2 MB (the body limit)"), (
        raised.value.line()
    )
    assert raised.value.hint == "The answer was dropped, not read. A smaller page (itemsPerPage) makes it smaller."
    assert raised.value.setting == "max_body"  # the library names no flag: the command line does
    assert command_line_hint(raised.value) == (
        "The answer was dropped, not read. A smaller page (itemsPerPage) makes it smaller. If it is a real answer, "
        "--max-body MB allows more."
    )


@pytest.mark.slow
async def test_a_body_that_trickles_forever_ends_at_the_deadline(origin):
    async with session_on(origin, bounds=Bounds(deadline=0.5)) as session:
        started = time.monotonic()
        with pytest.raises(ApiError) as raised:
            await session.fetch("/cases/trickle")
    assert time.monotonic() - started < 5
    assert raised.value.kind == "timeout"
    assert raised.value.line() == (
        f"No whole answer within 0.5 s (the deadline of a request): GET {session.base_url}/cases/trickle"
    )


@pytest.mark.subprocess
def test_explorer_get_names_the_limit_in_one_line_with_a_hint(served, tmp_path):
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "EXPLORER_BASE_URL": served + ROOT_PATH,
        "EXPLORER_CLIENT_ID": "good",
        "EXPLORER_CLIENT_SECRET": "s",
    }
    command = [sys.executable, "-m", "explorer", "get", "--no-token-cache"]
    options: dict[str, Any] = {"capture_output": True, "text": True, "env": environ, "cwd": ROOT, "timeout": 60}
    bombed = subprocess.run([*command, "/cases/bomb"], **options)
    assert (bombed.returncode, bombed.stdout) == (1, "")
    first, hint = bombed.stderr.splitlines()
    assert first.startswith(f"explorer get: GET {served}{ROOT_PATH}/cases/bomb: the answer decodes to more than 200")
    assert hint.startswith("hint: The answer was dropped, not read.")
    slow = [*command, "--deadline", "0.5", "/cases/trickle"]
    trickled = subprocess.run(slow, **options)
    assert trickled.returncode == 1
    assert trickled.stderr.startswith("explorer get: No whole answer within 0.5 s (the deadline of a request)")
    bad = subprocess.run([*command, "--max-body", "lots", "/cases/big-string"], **options)
    assert bad.returncode == 2
    assert "argument --max-body: 'lots' is not a whole number of megabytes from 1 to 1048576" in bad.stderr


async def bomb_for_everything(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A proxy that answers a token when asked for one, and a gzip bomb for anything else."""
    if scope["type"] != "http":
        return
    if scope["path"].endswith("/api/oauth/token"):
        token = {"access_token": "t0ken", "token_type": "Bearer", "expires_in": 3600}
        return await answer(send, 200, {"content-type": "application/json"}, json.dumps(token).encode())
    await answer(send, 200, {"content-type": "application/json", "content-encoding": "gzip"}, BOMB)


async def test_an_answer_through_the_environments_proxy_is_guarded_too(monkeypatch):
    with ServerThread(bomb_for_everything) as proxy:
        for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("http_proxy", proxy.url)
        # Nothing listens at the base URL: an answer can only have come through the proxy. A service on this
        # machine is never reached through one (tests/safety/test_origins.py); this test is about the guard on
        # what a proxy answers, so here the base URL's host does not count as this machine's.
        monkeypatch.setattr(guard, "is_loopback", lambda host: False)
        credentials = Credentials("http://127.0.0.1:9" + ROOT_PATH, client_id="c", client_secret=Secret("s"))
        async with Session(credentials) as session:
            with pytest.raises(ApiError) as raised:
                await session.fetch("/anything")
    assert raised.value.kind == "too-large"
    assert "a compression bomb" in raised.value.line()


@pytest.mark.parametrize(("levels", "read"), [(100, True), (101, False)])
async def test_json_nested_past_max_depth_is_not_read_as_json_and_says_the_limit(levels, read):
    service = HostileService("https://hostile.test")
    service.answers["nested"] = (200, {"content-type": "application/json"}, ("[" * levels + "]" * levels).encode())
    credentials = Credentials("https://hostile.test" + ROOT_PATH, client_id="good", client_secret=Secret("s"))
    async with Session(credentials, transport=httpx.ASGITransport(app=service)) as session:
        resource = await session.fetch("/cases/nested")
    assert (resource.json is not None) is read
    if not read:
        assert resource.json_error == "JSON nested deeper than 100 levels (the depth limit)"


@pytest.mark.slow
async def test_max_depth_is_the_sessions_to_set():
    service = HostileService("https://hostile.test")
    credentials = Credentials("https://hostile.test" + ROOT_PATH, client_id="good", client_secret=Secret("s"))
    async with Session(credentials, transport=httpx.ASGITransport(app=service), bounds=Bounds(max_depth=2)) as session:
        resource = await session.fetch("/cases/big-entity")  # {"field000000": {"n": 0, …}, …}: 2 levels
        too_deep = await session.fetch("/cases/deep-json")
    assert resource.json is not None
    assert too_deep.json_error == "JSON nested deeper than 2 levels (the depth limit)"


@pytest.mark.subprocess
@pytest.mark.parametrize("given", ["0", "501", "ten", "²"])
def test_max_depth_flag_takes_levels_from_1_to_500(given):
    run = subprocess.run(
        [sys.executable, "-m", "explorer", "--max-depth", given, "get", "/"], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 2
    assert f"argument --max-depth: {given!r} is not a whole number of levels from 1 to 500" in run.stderr
