"""Service-account authentication as an httpx.Auth: get a token, send it, renew it, revoke it.

The flow gets a token with Basic credentials on first use, renews it shortly before it expires,
and once more (then retries once) when a request is refused for an expired or revoked token.
Concurrent requests share one renewal: the lock is taken only when a token is needed, and the
need is checked again inside it.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from urllib.parse import urlencode

import httpx

from explorer.api import errors
from explorer.api.errors import ApiError
from explorer.api.ratelimit import RateLimits
from explorer.api.secret import Secret
from explorer.api.tokens import Token, TokenCache, TokenState

TOKEN_PATH = "/api/oauth/token"
REVOKE_PATH = "/api/oauth/revoke"
TOKEN_CODES = {"EXPIRED_ACCESS_TOKEN", "REVOKED_ACCESS_TOKEN", "INVALID_ACCESS_TOKEN"}
NEW_TOKEN_AGE = 10.0  # a token this young refused with an unexplained 401 is not the problem


class ServiceAccountAuth(httpx.Auth):
    requires_response_body = True

    def __init__(
        self,
        base_url: httpx.URL,
        client_id: str,
        secret: Secret,
        *,
        limits: RateLimits,
        clock: Callable[[], float] = time.time,
        hold: Callable[[httpx.URL], Awaitable[None]] | None = None,
        cache: TokenCache | None = None,
    ) -> None:
        """`hold` waits out the token endpoint's rate limit before a token request that it would
        refuse; a session passes its own, which shows the wait. Alone, it sleeps for it."""
        origin = base_url.copy_with(path="/", query=None, fragment=None)
        self.token_url = origin.join(TOKEN_PATH)
        self.revoke_url = origin.join(REVOKE_PATH)
        self.client_id = client_id
        self.secret = secret
        self.limits = limits
        self.clock = clock
        self.hold = hold if hold is not None else self.sleep_for_budget
        self.cache = cache
        self.lock = asyncio.Lock()
        self.state = TokenState()
        self.token: Token | None = cache.load(clock()) if cache else None
        if self.token:
            self.state.issued_at, self.state.expires_at = self.token.issued_at, self.token.expires_at

    def __repr__(self) -> str:
        return f"ServiceAccountAuth(client_id={self.client_id!r}, secret=***)"

    def basic(self) -> str:
        pair = f"{self.client_id}:{self.secret.reveal()}".encode()
        return "Basic " + base64.b64encode(pair).decode("ascii")

    def token_request(self, needed_by: httpx.Request) -> httpx.Request:
        """The token request, with the timeouts of the request that needs the token."""
        return httpx.Request(
            "POST",
            self.token_url,
            headers={
                "Authorization": self.basic(),
                "Accept": "application/json",
                "Cache-Control": "no-cache",
                "Content-Type": "application/x-www-form-urlencoded",
            },
            content=b"grant_type=client_credentials",
            extensions={"timeout": needed_by.extensions.get("timeout", {})},
        )

    def needs_token(self) -> bool:
        return self.token is None or not self.token.fresh(self.clock())

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        stale: Token | None = None  # the token a 401 just refused
        for _ in range(2):  # send; and once more with a new token if the first was refused for it
            if self.needs_token() or (stale is not None and self.token is stale):
                async with self.lock:
                    # Checked again inside: a concurrent request may have renewed it meanwhile.
                    if self.needs_token() or (stale is not None and self.token is stale):
                        await self.hold(self.token_url)
                        self.state.refreshing = True
                        try:
                            self.accept((yield self.token_request(request)))
                        finally:
                            self.state.refreshing = False
            used = self.token
            assert used is not None
            request.headers["Authorization"] = f"Bearer {used.value.reveal()}"
            response = yield request
            if response.status_code != 401 or not self.token_refused(response, used):
                return
            stale = used

    async def sleep_for_budget(self, url: httpx.URL) -> None:
        """Hold a token request that the token endpoint's limit is sure to refuse."""
        wait = self.limits.hold(url)
        if wait > 0:
            await asyncio.sleep(wait)

    def token_refused(self, response: httpx.Response, used: Token) -> bool:
        """Whether a 401 is about the token (renew and retry) rather than about permissions."""
        if 'error="invalid_token"' in response.headers.get("www-authenticate", ""):
            return True
        error = errors.from_response("GET", str(response.url), 401, response.headers, response.content, self.clock())
        if error.error_code in TOKEN_CODES:
            return True
        if error.error_code in errors.PERMISSION_CODES:
            return False
        return self.clock() - used.issued_at >= NEW_TOKEN_AGE

    def accept(self, response: httpx.Response) -> None:
        """Take the token from the token endpoint's answer, or raise its error."""
        now = self.clock()
        body = response.content
        error: ApiError | None = None
        if response.status_code != 200:
            error = errors.from_response("POST", str(self.token_url), response.status_code, response.headers, body, now)
        else:
            try:
                document = response.json()
                value, lifetime = document["access_token"], document["expires_in"]
                if not isinstance(value, str) or not isinstance(lifetime, int | float) or lifetime <= 0:
                    raise ValueError
            except (ValueError, KeyError, TypeError):
                error = ApiError(
                    "oauth",
                    "The token endpoint answered 200 without a usable token",
                    method="POST",
                    url=str(self.token_url),
                    status=200,
                    reason="OK",
                    body=body[:4096],
                )
        if error is not None:
            self.state.last_error = error
            raise error
        had_token = self.state.issued_at is not None
        self.token = Token(Secret(value), now, now + float(lifetime))
        self.state.issued_at, self.state.expires_at = now, self.token.expires_at
        self.state.refreshes += had_token
        self.state.revoked = False
        self.state.last_error = None
        if self.cache:
            self.cache.save(self.token)

    async def revoke(self, client: httpx.AsyncClient) -> None:
        """Revoke the token at the revoke endpoint; afterwards it is gone from memory and cache."""
        token, self.token = self.token, None
        if self.cache:
            self.cache.delete()
        if token is None:
            return
        response = await client.post(
            self.revoke_url,
            auth=httpx.Auth(),  # the Basic header below, not the client's Bearer flow
            headers={"Authorization": self.basic(), "Content-Type": "application/x-www-form-urlencoded"},
            content=urlencode({"token": token.value.reveal(), "token_type_hint": "access_token"}).encode(),
        )
        if response.status_code != 200:
            error = errors.from_response(
                "POST", str(self.revoke_url), response.status_code, response.headers, response.content, self.clock()
            )
            self.state.last_error = error
            raise error
        self.state.revoked = True
