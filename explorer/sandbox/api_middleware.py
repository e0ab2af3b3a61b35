"""The ASGI middleware every request under /api passes: faults, authentication, access list, rate limit, and
the operations the clock has ended since the last request (operations.py).

It wraps the router as ASGI middleware, so each resource handler can assume an authenticated,
admitted request, and every response leaves with the same rate-limit headers and HEAD handling.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from explorer.sandbox.access import client_address
from explorer.sandbox.documents import ApiProblem, problem_response
from explorer.sandbox.oauth import unavailable_response
from explorer.sandbox.state import Sandbox

log = logging.getLogger("explorer.sandbox")
OAUTH_PREFIX = "/api/oauth/"
SAFE_METHODS = frozenset({"GET", "HEAD"})


class ApiMiddleware:
    def __init__(self, app: ASGIApp, sandbox: Sandbox) -> None:
        self.app = app
        self.sandbox = sandbox

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.dispatch(scope, receive, tracked)
        except ClientDisconnect:
            return  # the client went away; nobody is left to answer
        except Exception as error:
            log.error(
                "unexpected error serving %s %s: %s: %s", scope["method"], scope["path"], type(error).__name__, error
            )
            log.debug("traceback", exc_info=error)
            if not started:
                problem = ApiProblem(500, "UNEXPECTED_ERROR", "Unexpected error.", [])
                await problem_response(Request(scope), problem)(scope, receive, send)

    async def dispatch(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if len(path) > 1 and path.endswith("/"):
            scope = dict(scope, path=path.rstrip("/") or "/")
        if scope["method"] == "HEAD":
            send = without_body(send)
        if not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return

        faults = self.sandbox.faults
        if faults.latency_ms:
            await asyncio.sleep(faults.latency_ms / 1000)
        request = Request(scope, receive)
        retry_after = faults.take_unavailable()
        if retry_after is not None:
            response = (
                unavailable_response(request, self.sandbox, retry_after)
                if scope["path"].startswith(OAUTH_PREFIX)
                else problem_response(request, outage(retry_after))
            )
            await response(scope, receive, send)
            return
        if scope["path"].startswith(OAUTH_PREFIX):
            await self.app(scope, receive, send)
            return
        retry_after = faults.in_outage()
        if retry_after is not None:
            await problem_response(request, outage(retry_after))(scope, receive, send)
            return

        extra: dict[str, str] = {}
        try:
            user = self.authenticate(request)
            scope["explorer.user"] = user  # whose buckets GET …/rateLimits shows
            address = client_address(scope)
            if not self.sandbox.access.allows(address):
                raise ApiProblem(
                    403,
                    "IP_ADDRESS_NOT_ON_ACCESS_LIST",
                    f"IP address {address} is not allowed to access this resource.",
                    [address],
                )
            extra = self.sandbox.limits.admit(request, user)
        except ApiProblem as problem:
            problem.headers = {**problem.headers, **extra}
            await problem_response(request, problem)(scope, receive, send)
            return
        if self.sandbox.operations.advance():
            self.sandbox.rendered.clear()  # a cluster moved on: lists render it, its project, its events anew
        if scope["method"] not in SAFE_METHODS:
            send = forgetting(send, self.sandbox.rendered)
        await self.app(scope, receive, with_headers(send, extra) if extra else send)

    def authenticate(self, request: Request) -> str:
        """Bearer tokens of service accounts, or Digest answers of API keys (spec 5); the caller:
        the client ID or the public key."""
        scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
        scheme = scheme.lower()
        if scheme == "bearer" and credentials.strip():
            return self.sandbox.tokens.check(credentials.strip()).client_id
        if scheme == "digest":
            scope = request.scope
            # The URI the client signed: the request target as sent, before any normalising.
            uri = (scope.get("raw_path") or scope["path"].encode("utf-8")).decode("latin-1")
            if scope.get("query_string"):
                uri += "?" + scope["query_string"].decode("latin-1")
            self.sandbox.digest.verify(credentials, scope["method"], uri)
            return self.sandbox.digest.public_key
        raise self.sandbox.digest.refuse("You are not authorized for this resource.")


def outage(retry_after: int) -> ApiProblem:
    return ApiProblem(
        503,
        "SERVICE_UNAVAILABLE",
        f"The service is temporarily unavailable. Retry after {retry_after} seconds.",
        [],
        {"Retry-After": str(retry_after)},
    )


def with_headers(send: Send, headers: dict[str, str]) -> Send:
    encoded = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *encoded]}
        await send(message)

    return wrapped


def forgetting(send: Send, rendered: dict[Any, Any]) -> Send:
    """A write: drop cached item JSON as its answer starts, after the handler changed the data
    and before any client can learn of the change."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            rendered.clear()
        await send(message)

    return wrapped


def without_body(send: Send) -> Send:
    """HEAD: the headers GET would send, Content-Length included, and no body."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return wrapped
