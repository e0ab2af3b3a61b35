"""Service-account authentication as an httpx.Auth: get a token, send it, renew it, revoke it;
and an API key's Digest, whose writes go once.

The flow gets a token with Basic credentials on first use, renews it shortly before it expires,
and once more (then sends a read again, once) when a request is refused for an expired or revoked
token. A write is never sent again (once.py): its token is renewed before it when near its end
(`WRITE_MARGIN`), and a write refused for its token comes back refused, marked (`TOKEN_REFUSED`),
for the session to renew the token (`renew`) and say so. Concurrent requests share one renewal: the
lock is taken only when a token is needed, and the need is checked again inside it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
from urllib.parse import urlencode

import httpx

from explorer.api import errors
from explorer.api.errors import ApiError
from explorer.api.once import CREDENTIALS_REQUEST, TOKEN_REFUSED
from explorer.api.ratelimit import RateLimits
from explorer.api.secret import Secret
from explorer.api.token_cache import TokenCache
from explorer.api.tokens import Token, TokenState
from explorer.api.unsafe_characters import visible
from explorer.api.values import MAX_DEPTH, TooDeep, json_within
from explorer.api.writes import is_write_method

TOKEN_PATH = "/api/oauth/token"
REVOKE_PATH = "/api/oauth/revoke"
TOKEN_CODES = {"EXPIRED_ACCESS_TOKEN", "REVOKED_ACCESS_TOKEN", "INVALID_ACCESS_TOKEN"}
NEW_TOKEN_AGE = 10.0  # a token this young refused with an unexplained 401 is not the problem
WRITE_MARGIN = 300.0  # seconds a write's token must have left (at most half its life), else renewed first

# Waits as a refused token request's answer asks, and says whether to make it again:
# (the answer, times asked again already, when the first came).
AskAgain = Callable[[httpx.Response, int, float], Awaitable[bool]]


class ServiceAccountAuth(httpx.Auth):
    """A service account's OAuth 2.0 client credentials (spec 4.2) as an httpx auth flow.

    It asks the token endpoint for a token when it has none or it is about to expire (for a write,
    WRITE_MARGIN before), sends it as Bearer, and asks again once when a request is refused for the
    token (expired, revoked), not for permissions: a read is then sent again with the new token, a
    write never is (its 401 comes back marked TOKEN_REFUSED, and the session renews the token with
    `renew`). Token requests wait out the token endpoint's rate limit (`hold`), and a 503 or 429
    with a Retry-After is waited out and the token asked again, as `again` waits and says (a token
    request is no write: it may go again). It works with httpx.AsyncClient only: token requests are
    awaited under a lock shared by concurrent requests.
    """

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
        max_depth: int = MAX_DEPTH,
        again: AskAgain | None = None,
    ) -> None:
        """`hold` waits out the token endpoint's rate limit before a token request that it would
        refuse, a Retry-After it gave included; a session passes its own, which shows the wait.
        Alone, it sleeps for it. `max_depth` is the session's depth limit (Bounds.max_depth): the
        token endpoint's answers are read within it too. `again` waits out a token request's refusal
        (a 503 or 429 with a Retry-After) and says whether to make it again; None: never, the refusal
        is raised."""
        origin = base_url.copy_with(path="/", query=None, fragment=None)
        self.token_url = origin.join(TOKEN_PATH)
        self.revoke_url = origin.join(REVOKE_PATH)
        self.client_id = client_id
        self.secret = secret
        self.limits = limits
        self.clock = clock
        self.hold = hold if hold is not None else self.sleep_for_budget
        self.cache = cache
        self.max_depth = max_depth
        self.again = again
        self.lock = asyncio.Lock()
        self.stale: Token | None = None  # the token a 401 refused last: renewed before it is used again
        self.state = TokenState()
        self.token: Token | None = cache.load(clock()) if cache else None
        if self.token:
            self.state.issued_at, self.state.expires_at = self.token.issued_at, self.token.expires_at

    def __repr__(self) -> str:
        return f"ServiceAccountAuth(client_id={self.client_id!r}, secret=***)"

    def basic(self) -> str:
        """The token endpoint's Basic credentials: the client ID and secret (RFC 6749 2.3.1)."""
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
            extensions={"timeout": needed_by.extensions.get("timeout", {}), CREDENTIALS_REQUEST: True},
        )

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Refused: httpx's default would run no flow at all, and the request would go without credentials."""
        raise TypeError(
            "ServiceAccountAuth works with httpx.AsyncClient only: its token requests are awaited. "
            "Use explorer.api.Session, or an httpx.AsyncClient."
        )
        yield request  # a generator, as httpx calls it: never reached

    def needs_token(self, request: httpx.Request) -> bool:
        """Whether to ask for a token before this request: none yet, one a 401 refused, or one that
        could expire before the request's time limit ends (at `token valid 00:08`, a request that
        may take 30 s would carry a token that expires on the way). A write, which is never sent
        again, asks for one with WRITE_MARGIN left (or half its life, if it is shorter-lived)."""
        if self.token is None or self.token is self.stale:
            return True
        within = time_limit(request)
        if is_write_method(request.method):
            within = max(within, WRITE_MARGIN)
        return not self.token.fresh(self.clock(), within)

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        """Send with the token; renew it first when needed. A read refused with a 401 about the token
        is sent once more, with a new one; a write never is: its 401 comes back, marked TOKEN_REFUSED."""
        for _ in range(2):  # send; and a read once more with a new token if the first was refused for it
            if self.needs_token(request):
                async with self.lock:
                    # Checked again inside: a concurrent request may have renewed it meanwhile.
                    if self.needs_token(request):
                        await self.hold(self.token_url)
                        self.state.refreshing = True
                        try:
                            answer, asked, first = (yield self.token_request(request)), 0, self.clock()
                            while await self.asks_again(answer, asked, first):  # a 503's Retry-After, waited out
                                asked += 1
                                await self.hold(self.token_url)
                                answer = yield self.token_request(request)
                            self.accept(answer)
                        finally:
                            self.state.refreshing = False
            used = self.token
            if used is None:  # accept() keeps a token or raises: never, but said rather than assumed
                raise RuntimeError("no token after the token endpoint answered")
            request.headers["Authorization"] = f"Bearer {used.value.reveal()}"
            response = yield request
            if response.status_code != 401 or not self.token_refused(response, used):
                return
            self.stale = used
            if is_write_method(request.method):  # never sent again: the session renews the token and says so
                request.extensions[TOKEN_REFUSED] = True
                return

    async def renew(self, client: httpx.AsyncClient, needed_by: httpx.Request) -> None:
        """Renew a token that a write's 401 refused, now, without sending the write again.

        Nothing is asked when a concurrent request renewed it meanwhile.

        Args:
            client: The session's client, which sends the token request (its own credentials, not the flow).
            needed_by: The write that was refused: its time limits are the token request's.

        Raises:
            ApiError: When the token endpoint refuses, or answers with no token it can use.
            httpx.HTTPError: When the token request gets no answer.
        """
        async with self.lock:
            if not self.needs_token(needed_by):
                return
            await self.hold(self.token_url)
            self.state.refreshing = True
            try:
                answer = await client.send(self.token_request(needed_by), auth=httpx.Auth())
                asked, first = 0, self.clock()
                while await self.asks_again(answer, asked, first):
                    asked += 1
                    await self.hold(self.token_url)
                    answer = await client.send(self.token_request(needed_by), auth=httpx.Auth())
                self.accept(answer)
            finally:
                self.state.refreshing = False

    async def asks_again(self, answer: httpx.Response, asked: int, first: float) -> bool:
        """Whether to ask the token endpoint again after this answer, once `again` has waited what it asked.

        Args:
            answer: The token endpoint's answer just come.
            asked: How many times the token was asked again already, this time it was needed.
            first: When (by the clock) the first answer came, this time.

        Returns:
            True to ask again (after the `hold`, for the token endpoint's rate limit), the wait over.
        """
        return answer.status_code != 200 and self.again is not None and await self.again(answer, asked, first)

    async def sleep_for_budget(self, url: httpx.URL) -> None:
        """Hold a token request that the token endpoint's limit is sure to refuse."""
        wait = self.limits.seconds_to_wait(url)
        if wait > 0:
            await asyncio.sleep(wait)

    def token_refused(self, response: httpx.Response, used: Token) -> bool:
        """Whether a 401 is about the token (renew and retry) rather than about permissions."""
        if 'error="invalid_token"' in response.headers.get("www-authenticate", ""):
            return True
        error = errors.from_response(
            "GET", str(response.url), 401, response.headers, response.content, self.clock(), max_depth=self.max_depth
        )
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
            error = errors.from_response(
                "POST", str(self.token_url), response.status_code, response.headers, body, now, max_depth=self.max_depth
            )
        else:
            value, lifetime, why = token_of(body, self.max_depth)
            if why is not None:  # said without the answer's content: it may hold a token
                error = ApiError(
                    "token",
                    f"The token endpoint's answer cannot be used: {why}",
                    method="POST",
                    url=str(self.token_url),
                    status=200,
                    reason="OK",
                    hint="The service, or something in front of it, answered the token request with something "
                    "that is not an OAuth token; its content is not shown, as it may hold one.",
                )
        if error is not None:
            self.state.last_error = error
            raise error
        had_token = self.state.issued_at is not None
        self.token = Token(Secret(value), now, now + lifetime)
        self.state.issued_at, self.state.expires_at = now, self.token.expires_at
        self.state.refreshes += had_token
        self.state.revoked = False
        self.state.last_error = None
        self.stale = None
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
            extensions={CREDENTIALS_REQUEST: True},  # the credentials' own request, not a write (once.py)
        )
        if response.status_code != 200:
            error = errors.from_response(
                "POST", str(self.revoke_url), response.status_code, response.headers, response.content, self.clock(),
                max_depth=self.max_depth,
            )  # fmt: skip
            self.state.last_error = error
            raise error
        self.state.revoked = True


def time_limit(request: httpx.Request) -> float:
    """The longest a request may take in any of its phases (httpx's timeout: connect, write, read,
    pool), in seconds; 0 when it has none."""
    timeout = request.extensions.get("timeout")
    phases = timeout.values() if isinstance(timeout, dict) else ()
    limits = [value for value in phases if isinstance(value, int | float)]
    return float(max(limits, default=0))


MAX_LIFETIME = 366 * 24 * 3600  # seconds: a token said to live longer is not believed


def token_of(body: bytes, max_depth: int = MAX_DEPTH) -> tuple[str, int, str | None]:
    """(access_token, expires_in, None) from a token endpoint's answer, or ("", 0, why not).

    RFC 6749 5.1: a JSON object, `access_token` a non-empty string, `token_type` Bearer, and the
    lifetime a positive whole number of seconds, in UTF-8 (RFC 8259 8.1: JSON exchanged between
    systems is UTF-8; a byte order mark is ignored). The reason never quotes the content.
    """
    try:  # not json.loads(bytes), which reads UTF-16 and UTF-32 too: a token in those goes unrecognised
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "", 0, "it is not UTF-8 JSON"
    if "\0" in text:  # UTF-16 or UTF-32 (JSON's own characters are ASCII, a NUL between each), or not JSON
        return "", 0, "it is not UTF-8 JSON"
    try:
        document = json_within(text, max_depth)
    except TooDeep as deep:
        return "", 0, f"it is {deep}"
    except ValueError:
        return "", 0, "it is not JSON"
    if not isinstance(document, dict):
        return "", 0, "it is not a JSON object"
    value, kind, lifetime = document.get("access_token"), document.get("token_type"), document.get("expires_in")
    if not isinstance(value, str) or not value or not value.isascii() or not value.isprintable() or len(value) > 8192:
        return "", 0, "access_token is missing, empty or not printable text"
    if not isinstance(kind, str) or kind.lower() != "bearer":
        return "", 0, "token_type is not Bearer"
    if isinstance(lifetime, bool) or not isinstance(lifetime, int) or not 0 < lifetime <= MAX_LIFETIME:
        return "", 0, f"expires_in is not a whole number of seconds from 1 to {MAX_LIFETIME}"
    return value, lifetime, None


class DigestAuth(httpx.DigestAuth):
    """httpx's Digest auth, with a write sent once, and a challenge it cannot answer said.

    httpx answers a request's challenge by sending the request again, with credentials: for a write,
    its body twice. Here a write is preceded by a request without a body or credentials (a GET of
    its URL), whose challenge the write answers; the write then goes once, and its answer, whatever
    it is, comes back (a new challenge in it is kept for the next request). A challenge httpx cannot
    answer (an unknown algorithm, qop=auth-int only, a field without `=`) becomes an ApiError naming
    the challenge's problem.
    """

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """A read: httpx's Digest flow. A write: its challenge got first, then the write sent once.

        Raises:
            ApiError: (kind "digest") when the challenge cannot be answered, or a write would go
                without credentials: none came to ask for them.
        """
        try:
            if is_write_method(request.method):
                yield from self.write_once(request)
            else:
                yield from super().auth_flow(request)
        except (KeyError, LookupError, NotImplementedError, ValueError, TypeError) as error:
            why = f"algorithm {error} is not one it knows" if isinstance(error, KeyError) else str(error)
            raise ApiError(
                "digest",
                f"The service's Digest challenge cannot be answered: {visible(why)}",
                method=request.method,
                url=str(request.url),
                hint="The API key's challenge (WWW-Authenticate) is not one httpx can answer (MD5, SHA, SHA-256 "
                "or SHA-512 with qop=auth): check the base URL, or use a service account instead.",
                written="no",
            ) from None

    def write_once(self, write: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """A fresh challenge from a GET of the write's URL without credentials, then the write, once."""
        probe = bodiless(write)
        challenge = yield probe
        learning = super().auth_flow(bodiless(write))
        next(learning)
        with contextlib.suppress(StopIteration):
            learning.send(challenge)  # a Digest challenge in it is kept, to answer the write's
        learning.close()
        flow = super().auth_flow(write)
        sent = next(flow)
        if "authorization" not in sent.headers:
            flow.close()
            raise ApiError(
                "digest",
                f"Not sent: no Digest challenge came for the API key to answer (GET {write.url} without "
                f"credentials was answered {challenge.status_code})",
                method=write.method,
                url=str(write.url),
                hint="A write goes only with the API key's credentials, which answer the service's challenge: "
                "check the base URL.",
                written="no",
            )
        answer = yield sent
        # A new challenge in a refusal (a stale nonce) is kept for the next request; the write is not sent again.
        unanswerable = (KeyError, LookupError, NotImplementedError, ValueError, TypeError, httpx.ProtocolError)
        with contextlib.suppress(StopIteration, *unanswerable):
            flow.send(answer)
        flow.close()


def bodiless(write: httpx.Request) -> httpx.Request:
    """A GET of a write's URL, with its headers but no body and no credentials: what gets the challenge."""
    left_out = {"authorization", "content-type", "content-length", "transfer-encoding"}
    headers = [(name, value) for name, value in write.headers.multi_items() if name.lower() not in left_out]
    return httpx.Request("GET", write.url, headers=headers, extensions={"timeout": write.extensions.get("timeout", {})})
