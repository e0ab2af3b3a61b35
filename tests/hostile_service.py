"""A hostile or broken server: one ASGI app that answers each case of issue 11 at a path of its own.

Under the API root (`/api/service/v1.0`), `GET /cases/NAME` answers case NAME (see CASES). The
root links every case, and a link to `other` (a second origin, given at construction) to check
that credentials never go there. The token endpoint answers by client ID: a TOKEN_CASES name gets that
answer, any other a usable token. A request without credentials (an API key's first try) gets a
Digest challenge: at `/cases/digest-NAME`, that of DIGEST_CASES[NAME]. `seen` keeps every
request's path and Authorization, in order.

Nothing here is sent to the terminal by the tests except through the explorer.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
from collections.abc import Awaitable, Callable
from functools import cached_property
from typing import Any

ROOT_PATH = "/api/service/v1.0"
ESC = "\x1b"
ATTACK = f"{ESC}]0;owned{ESC}\\{ESC}[2J{ESC}]52;c;{base64.b64encode(b'rm -rf ~').decode()}\x07\u202egnp.exe"
TOKEN = "hostile-token-value-42"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def nested_fields(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def document(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


def links(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"rel": rel, "href": href} for rel, href in pairs]


Answer = tuple[int, dict[str, str], bytes]
BOMB = gzip.compress(bytes(64 * 2**20), 9)  # 64 MB of zeros in about 64 KB: made once
BIG_ENTITY = document(**{f"field{n:06d}": {"n": n, "text": "x" * 20} for n in range(100_000)})  # 4.6 MB


def cases(origin: str, other: str) -> dict[str, Answer]:
    """NAME -> (status, headers, body) for the answers that are one plain response."""
    base = origin + ROOT_PATH
    json_type = {"content-type": "application/json"}
    bad_hrefs = {
        "ipv6": "http://[::1/x",
        "port": "http://127.0.0.1:port/x",
        "escape": base + "/x\x1b[2J",
        "nfkc": "https://ｅｘａｍｐｌｅ.com/x",
    }
    return {
        "escapes-in-error": (
            400,
            json_type,
            document(error=400, reason="Bad Request", errorCode=f"BAD{ATTACK}", detail=f"detail {ATTACK}"),
        ),
        "html-error-page": (502, {"content-type": "text/html"}, f"<html><title>{ATTACK}</title></html>".encode()),
        "escapes-in-headers": (200, {**json_type, "x-evil": ATTACK.encode("utf-8").decode("latin-1")}, b"{}"),
        **{
            f"href-{name}": (200, json_type, document(links=links(("self", base), ("broken", href))))
            for name, href in bad_hrefs.items()
        },
        "next-not-a-url": (
            200,
            json_type,
            document(
                results=[{"id": 1}],
                totalCount=2,
                links=links(("self", base + "/cases/next-not-a-url"), ("next", "http://[::1/x")),
            ),
        ),
        "deep-json": (200, json_type, nested(400).encode()),
        "deeper-json": (200, json_type, nested(100_000).encode()),
        "deep-fields": (200, json_type, nested_fields(400).encode()),
        "deep-error": (400, json_type, nested(400).encode()),
        "deeper-error": (404, json_type, nested(100_000).encode()),
        "deep-error-fields": (500, json_type, nested_fields(950).encode()),
        "deeper-429": (429, {**json_type, "retry-after": "1"}, nested(100_000).encode()),
        "deep-error-document": (
            400,
            json_type,
            b'{"error": 400, "errorCode": "DEEP", "detail": "d", "parameters": ' + nested(400).encode() + b"}",
        ),
        "retry-after-superscript": (429, {**json_type, "retry-after": "²", "ratelimit-limit": "²"}, b"{}"),
        "retry-after-huge": (429, {**json_type, "retry-after": "9" * 4400, "ratelimit-remaining": "9" * 4400}, b"{}"),
        "unknown-charset": (200, {"content-type": "application/json; charset=x-unknown"}, b""),
        "blank-unknown-charset": (200, {"content-type": "application/json; charset=x-unknown"}, b" \n"),
        "undefined-charset": (200, {"content-type": "application/json; charset=undefined"}, b'{"a": 1}'),
        "error-unknown-charset": (503, {"content-type": "application/json; charset=x-unknown"}, b"{}"),
        "date-past-9999": (200, json_type, document(created="9999-12-31T23:59:59-14:00", links=links(("self", base)))),
        "date-before-1": (200, json_type, document(created="0001-01-01T00:00:00+14:00", links=links(("self", base)))),
        "bson-past-9999": (200, json_type, document(at={"date": "9999-12-31T23:59:59-14:00", "increment": 1})),
        "year-99999": (200, json_type, document(created="99999-01-01T00:00:00Z", links=links(("self", base)))),
        "huge-total": (200, json_type, document(results=[], totalCount=10**400, links=links(("self", base)))),
        "lone-surrogate": (200, json_type, b'{"name": "\\ud800\\ud800\\ud800 label", "links": []}'),
        "big-string": (200, json_type, json.dumps({"s": "x" * (5 * 2**20)}).encode()),
        "big-entity": (200, json_type, BIG_ENTITY),
        "long-page": (
            200,
            json_type,
            document(results=[{"id": n, "name": f"item-{n}"} for n in range(1234)], totalCount=1234),
        ),
        "small-gzip": (200, {**json_type, "content-encoding": "gzip"}, gzip.compress(b'{"ok": true}')),
        "bomb": (200, {**json_type, "content-encoding": "gzip"}, BOMB),
        "other-origin": (200, json_type, document(links=links(("self", base), ("elsewhere", other + ROOT_PATH)))),
    }


TOKEN_CASES: dict[str, dict[str, Any] | bytes | tuple[int, bytes]] = {
    "good": {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600},
    "expires-negative": {"access_token": TOKEN, "token_type": "Bearer", "expires_in": -5},
    "expires-zero": {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 0},
    "expires-string": {"access_token": TOKEN, "token_type": "Bearer", "expires_in": "soon"},
    "expires-huge": {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 10**400},
    "no-token": {"token_type": "Bearer", "expires_in": 3600},
    "not-bearer": {"access_token": TOKEN, "token_type": "MAC", "expires_in": 3600},
    "deep-token": nested(400).encode(),
    "deep-token-401": (401, nested(400).encode()),
    "deeper-token-401": (401, nested(100_000).encode()),
    "escapes-oauth": {"error": f"invalid_client{ATTACK}", "error_description": f"no {ATTACK}"},
}
DIGEST_CASES = {
    "unknown-algorithm": 'Digest realm="r", nonce="n", algorithm=ROT13, qop="auth"',
    "auth-int": 'Digest realm="r", nonce="n", qop="auth-int"',
    "no-equals": 'Digest realm="r", nonce, qop="auth"',
}


class HostileService:
    """The app (see the module). `origin` is the origin it is reached at (its links use it)."""

    def __init__(self, origin: str, other: str = "https://elsewhere.example") -> None:
        self.origin = origin  # may be set once the server is up, before its first request
        self.other = other
        self.seen: list[tuple[str, str | None]] = []

    @cached_property
    def answers(self) -> dict[str, Answer]:
        return cases(self.origin, self.other)

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]], send: Any) -> None:
        if scope["type"] != "http":
            return
        headers = {name.decode().lower(): value.decode("latin-1") for name, value in scope["headers"]}
        path = scope["path"]
        self.seen.append((path, headers.get("authorization")))
        if path == "/api/oauth/token":
            return await self.token(headers, send)
        if path == "/api/oauth/revoke":
            return await answer(send, 200, {}, b"")
        name = path.removeprefix(ROOT_PATH + "/cases/")
        if not headers.get("authorization"):  # an API key's first try: the challenge (a case's, or a usable one)
            challenge = DIGEST_CASES.get(name.removeprefix("digest-"), 'Digest realm="r", nonce="n", qop="auth"')
            return await answer(send, 401, {"www-authenticate": challenge, "content-type": "application/json"}, b"{}")
        if path == ROOT_PATH:
            base = self.origin + ROOT_PATH
            body = document(
                links=[{"rel": "self", "href": base}] + links(*((n, f"{base}/cases/{n}") for n in self.answers))
            )
            return await answer(send, 200, {"content-type": "application/json"}, body)
        if name == "trickle":
            await send(
                {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]}
            )
            while True:
                await send({"type": "http.response.body", "body": b" ", "more_body": True})
                await asyncio.sleep(0.05)
        if name in ("loop", "ping", "pong"):  # --all: a page whose next is itself, two pages that point at each other
            target = {"loop": "loop", "ping": "pong", "pong": "ping"}[name]
            base = self.origin + ROOT_PATH + "/cases/"
            body = document(
                results=[{"id": name}], totalCount=99, links=links(("self", base + name), ("next", base + target))
            )
            return await answer(send, 200, {"content-type": "application/json"}, body)
        if name in self.answers:
            return await answer(send, *self.answers[name])
        return await answer(
            send, 404, {"content-type": "application/json"}, document(error=404, errorCode="NOT_A_CASE")
        )

    async def token(self, headers: dict[str, str], send: Any) -> None:
        basic = headers.get("authorization", "").removeprefix("Basic ")
        client = base64.b64decode(basic).decode(errors="replace").partition(":")[0] if basic else ""
        case = TOKEN_CASES.get(client, TOKEN_CASES["good"])
        if isinstance(case, tuple):
            status, body = case
        else:
            body = case if isinstance(case, bytes) else json.dumps(case).encode()
            status = 401 if isinstance(case, dict) and "error" in case else 200
        await answer(send, status, {"content-type": "application/json"}, body)


async def answer(send: Any, status: int, headers: dict[str, str], body: bytes) -> None:
    raw = [(name.encode(), value.encode("latin-1")) for name, value in headers.items()]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
