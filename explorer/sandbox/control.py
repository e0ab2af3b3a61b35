"""The control endpoint, outside /api and off unless asked for: make a failure happen now.

    curl -X POST 'http://127.0.0.1:8080/_sandbox/unavailable?count=3&retryAfter=10'

Only loopback clients may use it, so a trainer's laptop can drive a class's failures while the
class itself cannot.
"""

from __future__ import annotations

import ipaddress

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from explorer.sandbox.access import client_address
from explorer.sandbox.documents import ApiProblem, Format, json_response
from explorer.sandbox.faults import TOKEN_ERROR_STATUS
from explorer.sandbox.query import Query, invalid
from explorer.sandbox.state import Sandbox

PREFIX = "/_sandbox"


def admit(request: Request) -> Sandbox:
    address = client_address(request.scope)
    try:
        loopback = address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ApiProblem(403, "CONTROL_LOOPBACK_ONLY", "The control endpoint answers only on loopback.", [address])
    found: Sandbox = request.app.state.sandbox
    return found


def state(request: Request, sandbox: Sandbox) -> Response:
    live = sum(1 for t in sandbox.tokens.tokens.values() if not t.revoked and t.expires_at > sandbox.clock())
    document = {**sandbox.faults.state(), "liveTokens": live}
    return json_response(request, document, fmt=Format(pretty=True))


async def show(request: Request) -> Response:
    Query(request)
    return state(request, admit(request))


async def expire_tokens(request: Request) -> Response:
    Query(request)
    sandbox = admit(request)
    sandbox.tokens.expire_all()
    return state(request, sandbox)


async def unavailable(request: Request) -> Response:
    query = Query(request, frozenset({"count", "retryAfter"}))
    sandbox = admit(request)
    sandbox.faults.unavailable = query.integer("count", 1, 0, 10_000)
    sandbox.faults.retry_after = query.integer("retryAfter", sandbox.faults.retry_after, 1, 3600)
    return state(request, sandbox)


async def token_error(request: Request) -> Response:
    query = Query(request, frozenset({"error", "count"}))
    sandbox = admit(request)
    error = query.one("error") or "server_error"
    if error not in TOKEN_ERROR_STATUS:
        raise invalid("error", error, "expected one of " + ", ".join(TOKEN_ERROR_STATUS))
    sandbox.faults.token_errors.extend([error] * query.integer("count", 1, 1, 1000))
    return state(request, sandbox)


async def latency(request: Request) -> Response:
    query = Query(request, frozenset({"ms"}))
    sandbox = admit(request)
    sandbox.faults.latency_ms = query.integer("ms", 0, 0, 60_000)
    return state(request, sandbox)


async def reset(request: Request) -> Response:
    Query(request)
    sandbox = admit(request)
    sandbox.faults.reset()
    return state(request, sandbox)


ROUTES = [
    Route(PREFIX, show, methods=["GET"]),
    Route(PREFIX + "/expire-tokens", expire_tokens, methods=["POST"]),
    Route(PREFIX + "/unavailable", unavailable, methods=["POST"]),
    Route(PREFIX + "/token-error", token_error, methods=["POST"]),
    Route(PREFIX + "/latency", latency, methods=["POST"]),
    Route(PREFIX + "/reset", reset, methods=["POST"]),
]
