"""The token endpoints (spec 4.2, 4.3, 7.1, 7.3): client credentials in, Bearer tokens out.

Their failures have their own body, `{error, error_description}`, and their own headers,
listed exactly in spec 7.1; both are built here and nowhere else.
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.access import client_address
from explorer.sandbox.bodies import BodyTooLarge, media_type_of, read_body
from explorer.sandbox.credentials import same
from explorer.sandbox.documents import (
    BOOLEANS,
    DEFAULT_VERSION,
    HSTS_SHORT,
    SERVICE_VERSION,
    Format,
    common_headers,
    http_date,
    media_type,
)
from explorer.sandbox.faults import TOKEN_ERROR_STATUS
from explorer.sandbox.state import Sandbox

DESCRIPTIONS = {
    "invalid_request": "The provided credentials are not valid.",
    "unsupported_grant_type": "Invalid grant type.",
    "invalid_grant": "Invalid grant.",
    "invalid_client": "Invalid credentials provided.",
    "access_denied": "IP access list validation failed for the service account.",
    "rate_limited": "Resource {url} is limited to {limit} requests every minute.",  # the service: "every 1 minutes"
    "server_error": "Unexpected error.",
}
FORM = "application/x-www-form-urlencoded"


class OAuthProblem(Exception):
    def __init__(
        self, error: str, status: int | None = None, retry_after: int | None = None, url: str = "", limit: int = 0
    ):
        super().__init__(error)
        self.error = error
        self.status = status or TOKEN_ERROR_STATUS[error]
        self.retry_after = retry_after
        self.description = DESCRIPTIONS[error].format(url=url, limit=limit)


def oauth_error_response(request: Request, problem: OAuthProblem, sandbox: Sandbox) -> Response:
    """Exactly the headers spec 7.1 lists for each status of the token endpoints."""
    status = problem.status
    headers = {"Date": http_date(int(sandbox.clock()))}
    if status != 401:
        headers["X-Service-Version"] = SERVICE_VERSION
    if status == 400:
        headers["Strict-Transport-Security"] = "max-age=31536000"
    elif status in (403, 429, 500, 503):
        headers["Strict-Transport-Security"] = HSTS_SHORT
    if problem.retry_after is not None:
        headers["Retry-After"] = str(problem.retry_after)
    body = {"error": problem.error, "error_description": problem.description}
    return Response(
        Format.lenient(request).dump(body, status),
        status_code=status,
        headers=headers,
        media_type="application/json;charset=ISO-8859-1" if status == 401 else "application/json",
    )


def unavailable_response(request: Request, sandbox: Sandbox, retry_after: int) -> Response:
    return oauth_error_response(request, OAuthProblem("server_error", 503, retry_after), sandbox)


# The parameters each endpoint reads (RFC 6749 4.4.2, RFC 7009 2.1): each at most once; others are
# ignored, as RFC 6749 3.2 asks, however often they come.
TOKEN_PARAMETERS = frozenset({"grant_type", "scope"})
REVOKE_PARAMETERS = frozenset({"token", "token_type_hint"})


def basic_credentials(request: Request) -> tuple[str, str]:
    header = request.headers.get("authorization", "")
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic" or not encoded.strip():
        raise OAuthProblem("invalid_request")
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise OAuthProblem("invalid_request") from None
    client_id, colon, secret = decoded.partition(":")
    if not colon:
        raise OAuthProblem("invalid_request")
    return client_id, secret


async def read_form(request: Request, sandbox: Sandbox, read: frozenset[str]) -> dict[str, str]:
    if media_type_of(request) != FORM:
        raise OAuthProblem("invalid_request")
    try:
        body = await read_body(request, sandbox.settings.max_body_bytes)
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body), errors="strict")
    except (BodyTooLarge, UnicodeDecodeError, ValueError):
        raise OAuthProblem("invalid_request") from None
    names = [name for name, _ in pairs if name in read]
    if len(set(names)) != len(names):
        raise OAuthProblem("invalid_request")  # a parameter given twice (RFC 6749, 3.2)
    return {name: value for name, value in pairs if name in read}  # the others are ignored (3.2)


def check_query(request: Request) -> None:
    for name, value in request.query_params.multi_items():
        if name not in ("pretty", "envelope") or value.lower() not in BOOLEANS:
            raise OAuthProblem("invalid_request")


async def admit(request: Request, sandbox: Sandbox, read: frozenset[str]) -> dict[str, str]:
    """What both endpoints check, in order: faults, the limit, the request, the client, the address."""
    injected = sandbox.faults.take_token_error()
    if injected is not None:
        raise OAuthProblem(
            injected,
            url=endpoint_url(request),
            limit=sandbox.settings.token_rate_limit,
            retry_after=sandbox.settings.retry_after if injected == "rate_limited" else None,
        )
    verdict = sandbox.token_limits.hit(client_address(request.scope))
    request.state.token_limit = verdict
    if not verdict.allowed:
        raise OAuthProblem(
            "rate_limited", retry_after=verdict.retry_after, url=endpoint_url(request), limit=verdict.limit
        )
    check_query(request)
    client_id, secret = basic_credentials(request)
    form = await read_form(request, sandbox, read)
    settings = sandbox.settings
    if not (same(client_id, settings.client_id) & same(secret, settings.client_secret)):
        raise OAuthProblem("invalid_client")
    if not sandbox.access.allows(client_address(request.scope)):
        raise OAuthProblem("access_denied")
    return form


def endpoint_url(request: Request) -> str:
    return str(request.url.replace(query=""))


def success_headers(request: Request, sandbox: Sandbox) -> dict[str, str]:
    headers = common_headers(sandbox.clock())
    headers |= {"Cache-Control": "no-store", "Pragma": "no-cache"}
    headers |= request.state.token_limit.headers()
    return headers


async def token(request: Request) -> Response:
    """Issue a Bearer token to a service account, for its client ID and secret (client credentials)."""
    sandbox: Sandbox = request.app.state.sandbox
    try:
        form = await admit(request, sandbox, TOKEN_PARAMETERS)
        grant = form.get("grant_type")
        if not grant:
            raise OAuthProblem("invalid_request")
        if grant != "client_credentials":
            raise OAuthProblem("unsupported_grant_type")
    except OAuthProblem as problem:
        return oauth_error_response(request, problem, sandbox)
    value, issued = sandbox.tokens.issue(sandbox.settings.client_id)
    body = {"access_token": value, "expires_in": round(issued.expires_at - issued.issued_at), "token_type": "Bearer"}
    return Response(
        Format.lenient(request).dump(body, 200),
        headers=success_headers(request, sandbox),
        media_type=media_type(DEFAULT_VERSION),
    )


async def revoke(request: Request) -> Response:
    """Revoke a Bearer token of the service account (RFC 7009)."""
    sandbox: Sandbox = request.app.state.sandbox
    try:
        form = await admit(request, sandbox, REVOKE_PARAMETERS)
        if not form.get("token"):
            raise OAuthProblem("invalid_request")
    except OAuthProblem as problem:
        return oauth_error_response(request, problem, sandbox)
    sandbox.tokens.revoke(form["token"], sandbox.settings.client_id)
    return Response(b"", headers=success_headers(request, sandbox))
