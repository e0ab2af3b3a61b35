"""A server whose answers never end or never stop growing: the request fails with the limit named,
memory stays bounded, nothing hangs. In process and over a real socket, and through `explorer get`."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import subprocess
import sys
import time
import tracemalloc
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ApiError
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.sandbox.server import ServerThread
from tests.conftest import ROOT

ROOT_PATH = "/api/service/v1.0"
MB = 2**20


def bomb(decoded: int) -> bytes:
    """`decoded` zero bytes, gzipped: about a thousandth of the size."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = bytes(MB)
    return b"".join(packer.compress(block) for _ in range(decoded // MB)) + packer.flush()


BOMB = bomb(256 * MB)  # 256 MB of zeros in about 250 KB


class Hostile:
    """A token, then the answer each path names: a gzip bomb, a big plain body, a body that trickles."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        path = scope["path"]
        if path == "/api/oauth/token":
            body = json.dumps({"access_token": "t0ken", "token_type": "Bearer", "expires_in": 3600}).encode()
            return await whole(send, body, {"content-type": "application/json"})
        if path == ROOT_PATH + "/bomb":
            return await whole(send, BOMB, {"content-type": "application/json", "content-encoding": "gzip"})
        if path == ROOT_PATH + "/big":
            return await whole(send, b'"' + b"x" * (3 * MB) + b'"', {"content-type": "application/json"})
        if path == ROOT_PATH + "/small-gzip":
            return await whole(send, gzip.compress(b'{"ok": true}'), {"content-encoding": "gzip"})
        if path == ROOT_PATH + "/trickle":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
            while True:  # one byte every 50 ms, never the end
                await send({"type": "http.response.body", "body": b"x", "more_body": True})
                await asyncio.sleep(0.05)
        return await whole(send, b"{}", {"content-type": "application/json"})


async def whole(send: Any, body: bytes, headers: dict[str, str]) -> None:
    raw = [(k.encode(), v.encode()) for k, v in headers.items()] + [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": raw})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def served():
    with ServerThread(Hostile()) as server:
        yield server.url


@pytest.fixture(params=["in-process", "socket"])
def origin(request, served) -> str | None:
    return None if request.param == "in-process" else served


@asynccontextmanager
async def session_on(origin: str | None, **options: Any) -> AsyncIterator[Session]:
    base = (origin or "https://hostile.test") + ROOT_PATH
    credentials = Credentials(base, client_id="c", client_secret=Secret("s"))
    transport = None if origin else httpx.ASGITransport(app=Hostile())
    async with Session(credentials, transport=transport, **options) as session:
        yield session


async def test_a_compression_bomb_is_dropped_early_with_memory_bounded(origin):
    tracemalloc.start()
    try:
        async with session_on(origin) as session:
            with pytest.raises(ApiError) as raised:
                await session.fetch("/bomb")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    error = raised.value
    assert error.kind == "too-large"
    assert "decodes to more than 200 times its compressed size" in error.line()
    assert "a compression bomb" in error.line()
    assert peak < 32 * MB, f"{peak / MB:.0f} MB at the peak"  # 256 MB if it were decoded


async def test_an_answer_past_max_body_is_named_with_its_flag(origin):
    async with session_on(origin, max_body=2 * MB) as session:
        with pytest.raises(ApiError) as raised:
            await session.fetch("/big")
        assert (await session.fetch("/small-gzip")).json == {"ok": True}  # what fits is read as ever
    assert raised.value.line().endswith("/big: the answer is larger than 2 MB (the --max-body limit)"), (
        raised.value.line()
    )
    assert "--max-body MB allows more" in (raised.value.hint or "")


async def test_a_body_that_trickles_forever_ends_at_the_deadline(origin):
    async with session_on(origin, deadline=0.5) as session:
        started = time.monotonic()
        with pytest.raises(ApiError) as raised:
            await session.fetch("/trickle")
    assert time.monotonic() - started < 5
    assert raised.value.kind == "timeout"
    assert raised.value.line() == (
        f"No whole answer within 0.5 s (the --deadline of a request): GET {session.base_url}/trickle"
    )


def test_explorer_get_names_the_limit_in_one_line_with_a_hint(served, tmp_path):
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "EXPLORER_BASE_URL": served + ROOT_PATH,
        "EXPLORER_CLIENT_ID": "c",
        "EXPLORER_CLIENT_SECRET": "s",
    }
    command = [sys.executable, "-m", "explorer", "get", "--no-token-cache"]
    bombed = subprocess.run([*command, "/bomb"], capture_output=True, text=True, env=environ, cwd=ROOT, timeout=60)
    assert (bombed.returncode, bombed.stdout) == (1, "")
    first, hint = bombed.stderr.splitlines()
    assert first.startswith(f"explorer get: GET {served}{ROOT_PATH}/bomb: the answer decodes to more than 200 times")
    assert hint.startswith("hint: The answer was dropped, not read.")
    slow = [*command, "--deadline", "0.5", "/trickle"]
    trickled = subprocess.run(slow, capture_output=True, text=True, env=environ, cwd=ROOT, timeout=60)
    assert trickled.returncode == 1
    assert trickled.stderr.startswith("explorer get: No whole answer within 0.5 s (the --deadline of a request)")
    bad = subprocess.run([*command, "--max-body", "lots", "/big"], capture_output=True, text=True, env=environ)
    assert bad.returncode == 2
    assert "argument --max-body: 'lots' is not a whole number of megabytes above 0" in bad.stderr
