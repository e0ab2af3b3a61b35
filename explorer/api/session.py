"""A session with the service: one pooled client, its credentials, and what it has seen.

    async with Session(credentials) as session:
        root = await session.fetch("")          # the API root
        groups = await session.fetch("/groups")  # a path under it
        if groups.error: print(groups.error.line())

`fetch` returns a Resource for every HTTP answer, errors included (`resource.error`), and raises
ApiError when there is no answer to show: refused origin, timeout, TLS, DNS, a token it could not
get. Credentials go only to the base URL's origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import httpx

from explorer import __version__
from explorer.api import errors
from explorer.api.auth import DigestAuth, ServiceAccountAuth
from explorer.api.config import Credentials, trusting
from explorer.api.config_file import description_cache_dir
from explorer.api.description import Description, DescriptionError
from explorer.api.description import load as load_description
from explorer.api.errors import ApiError, ConfigError
from explorer.api.exchanges import Exchange
from explorer.api.guard import MAX_BODY, BodyTooLarge, GuardedTransport, environment_proxy
from explorer.api.ratelimit import RateLimits, bucket_of, key_of
from explorer.api.resource import MAX_DEPTH, Resource
from explorer.api.secret import redact_header
from explorer.api.token_cache import TokenCache
from explorer.api.tokens import TokenState
from explorer.api.urls import origin_of, origin_text, raw_path, refuse_plain_http
from explorer.api.versions import accept_for, vendor_of
from explorer.api.visible import visible

# The request this task sent last: when a send fails, this is the one that failed (it may be the
# token request made inside the auth flow, which httpx's exception does not name).
last_sent: ContextVar[httpx.Request | None] = ContextVar("last_sent", default=None)
READ_METHODS = ("GET", "HEAD")
MAX_RETRIES = 2
MAX_RETRY_WAIT = 60.0
REVOKE_TIMEOUT = 2.0
DEADLINE = 120.0  # seconds one request may take in all (--deadline), the per-read timeout aside
LOG_SIZE = 10_000
RESOLVED_SIZE = 4096


def elapsed(response: httpx.Response) -> float:
    """Seconds from sending the request to having the whole body, as the session's hooks timed it."""
    seconds: float = response.extensions["explorer.elapsed"]
    return seconds


class Session:
    """A connection to the API: credentials (a service account's token, or a Digest API key), the
    API version and description, rate-limit pacing, retries of 429 and 503, the exchange log.

    Use it as an async context manager (`async with Session(credentials) as session`); `fetch`
    returns a Resource whatever the status, and raises ApiError only when there is no answer."""

    def __init__(
        self,
        credentials: Credentials,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
        token_cache: Path | None = None,
        timeout: float = 30.0,
        pace: bool = True,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        timer: Callable[[], float] = time.perf_counter,
        headers: Mapping[str, str] | None = None,
        description_cache: Path | None = None,
        max_body: int = MAX_BODY,
        deadline: float = DEADLINE,
        max_depth: int = MAX_DEPTH,
    ) -> None:
        """`token_cache` is a folder: keep the token there between runs (one-shot commands).

        `clock` and `sleep` are the wall clock and the way to wait, `timer` what times a request:
        tests and screenshots pass their own. `headers` are sent with every request, after the
        explorer's own Accept (the versioned media type on a versioned API) and User-Agent.
        `description_cache` is where the API description's index is kept (the user cache directory).
        `max_body` bounds an answer's decoded size (guard.py), `deadline` the seconds one request may
        take in all, however slowly its body trickles in (`timeout` is per read), `max_depth` the
        levels of nesting a body may have to be read as JSON (resource.py).
        `pace` False holds a request only for a Retry-After the server gave, not on the client's own
        count of a limit that the server states no figures of.
        """
        self.credentials = credentials
        self.base_url = httpx.URL(credentials.base_url)
        self.origin = origin_of(self.base_url)
        self.clock = clock
        self.timeout = timeout
        self.max_body = max_body
        self.deadline = deadline
        self.max_depth = max_depth
        self.pace = pace
        self.sleep = sleep
        self.timer = timer
        self.rate_limits = RateLimits(credentials.rate_limit, credentials.token_rate_limit, clock)
        self.log: deque[Exchange] = deque(maxlen=LOG_SIZE)
        self.exchanges = 0
        self.held_until: float | None = None
        self.held_for: str | None = None  # the rate limit (a bucket_of) the held request waits on, if any
        self.held_after: Resource | None = None  # the refusal (429, 503) it waits out, while it does
        self.refusal: tuple[str | None, Resource] | None = None  # the last 429 or 503 with a wait, and its limit
        self.resolved: dict[str, httpx.URL] = {}  # targets seen before: a page is often fetched again
        self.description: Description | None = None  # the API description, once loaded
        self.description_problem: ApiError | None = None  # why the one given cannot be used
        self.description_cache = description_cache or description_cache_dir()
        self.describing: asyncio.Future[Description | None] | None = None
        self.own_accept = not any(name.lower() == "accept" for name in headers or {})
        auth: httpx.Auth
        if credentials.client_id and credentials.client_secret:
            cache = None
            if token_cache is not None:
                origin = str(self.base_url.copy_with(path="/", query=None))
                cache = TokenCache(token_cache, origin, credentials.client_id, credentials.client_secret)
            auth = ServiceAccountAuth(
                self.base_url,
                credentials.client_id,
                credentials.client_secret,
                limits=self.rate_limits,
                clock=clock,
                hold=self.wait_for_budget,
                cache=cache,
            )
        elif credentials.public_key and credentials.private_key:
            auth = DigestAuth(credentials.public_key, credentials.private_key.reveal())
        else:
            raise ConfigError(f"No credentials for {credentials.base_url}")
        self.auth = auth
        verify: ssl.SSLContext | bool = trusting(credentials.ca_bundle) if credentials.ca_bundle else True
        self.client = httpx.AsyncClient(
            auth=auth,
            transport=GuardedTransport(transport or own_transport(self.base_url, verify), max_body),
            trust_env=False,  # the environment's proxy is in own_transport, behind the guard
            verify=verify,
            timeout=timeout,
            follow_redirects=False,
            headers={
                "Accept": self.accept(self.base_url.path),
                "User-Agent": f"explorer/{__version__}",
                **(headers or {}),  # the user's own (explorer get -H), checked by headers.header_pair
            },
            event_hooks={"request": [self.sending], "response": [self.received]},
        )

    def __repr__(self) -> str:
        return f"<Session {self.base_url} as {self.credentials.who}>"

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def token_state(self) -> TokenState | None:
        """The service account's token state (the status bar's countdown), or None for an API key."""
        return self.auth.state if isinstance(self.auth, ServiceAccountAuth) else None

    # Where requests go -----------------------------------------------------------------------

    def resolve(self, target: str) -> httpx.URL:
        """A URL for `target`: absolute as given; /api/… from the origin; anything else under the base URL."""
        url = self.resolved.get(target)
        if url is None:
            if len(self.resolved) >= RESOLVED_SIZE:
                self.resolved.clear()
            url = self.resolved[target] = self.resolve_new(target)
        return url

    def resolve_new(self, target: str) -> httpx.URL:
        """A target (a path under the API root, or a URL) as a URL; ApiError (config) when it is not one."""
        target = target.strip()
        try:
            if "://" in target:
                url = httpx.URL(target)
            elif target.startswith("/api/") or target == "/api":
                url = self.base_url.copy_with(raw_path=target.encode())
            else:
                base = self.base_url.raw_path.decode().split("?")[0].rstrip("/")
                relative = target.lstrip("/")
                url = self.base_url.copy_with(raw_path=(f"{base}/{relative}" if relative else base).encode())
        except (httpx.InvalidURL, UnicodeError) as error:
            raise ApiError("config", f"{target!r} is not a valid URL: {error}") from None
        if url.port is not None and not 0 < url.port < 65536:
            raise ApiError("config", f"{target!r} is not a valid URL: port {url.port} is not between 1 and 65535")
        if url.scheme not in ("https", "http") or not url.host:
            raise ApiError("config", f"{target!r} is not a path or an http(s) URL")
        refuse_plain_http(url)
        return url

    def same_origin(self, url: httpx.URL) -> bool:
        """Whether `url` is on the base URL's origin: the only one credentials go to."""
        return origin_of(url) == self.origin

    # The API description and versions -------------------------------------------------------

    async def described(self) -> Description | None:
        """The API description, loaded on first need and off the event loop; None without one.

        A description that cannot be used leaves `description_problem` saying why, and the
        session goes on without it.
        """
        if self.credentials.openapi is None:
            return None
        if self.describing is None:
            self.describing = asyncio.ensure_future(self.read_description(self.credentials.openapi))
        return await asyncio.shield(self.describing)

    async def read_description(self, source: str) -> Description | None:
        """Load the API description from `source`; a problem is kept to be told, never raised."""
        try:
            self.description = await load_description(source, self.client, self.description_cache)
        except DescriptionError as problem:
            self.description_problem = problem
        except Exception as error:
            self.description_problem = DescriptionError(source, f"{type(error).__name__}: {error}")
        return self.description

    def accept(self, path: str, method: str = "GET") -> str:
        """The Accept for a request: the vendor's media type where the API is versioned (its root is
        /api/<vendor>/v2, or the description's media types name a vendor), else plain JSON.

        Only under the API root, or on a path the description documents in versions: the real
        service's v1.0 paths and its address lookup (/api/private/ipinfo) are not versioned.

        The version: --api-version (pinned) if given; else the newest the description documents for
        this operation; else the default.
        """
        description = self.description
        vendor = self.vendor
        operation = description.operation(path, method) if description is not None else None
        root = self.base_url.path.rstrip("/")
        if not (path == root or path.startswith(root + "/") or (operation and operation.versions)):
            vendor = None
        version = self.credentials.api_version
        if vendor and version is None and operation is not None:
            version = operation.newest_version
        return accept_for(vendor, version)

    # Fetching --------------------------------------------------------------------------------

    async def fetch(
        self,
        target: str,
        *,
        method: str = "GET",
        params: Mapping[str, str] | None = None,
        json: Any = None,
        anonymous: bool = False,
    ) -> Resource:
        """Send one request; a GET refused with 429 or 503 and Retry-After is retried (twice, 60 s at most).

        A URL on another origin is refused unless `anonymous`: then it is fetched without any
        credentials and the resource is marked `foreign`.
        """
        url = self.resolve(target)
        if params:
            url = url.copy_merge_params(dict(params))
        foreign = not self.same_origin(url)
        if foreign and not anonymous:
            there, here = url.host, self.base_url.host
            if there == here:  # another scheme or port on the same host: name the whole origins
                there, here = origin_text(url), origin_text(self.base_url)
            raise ApiError(
                "origin",
                f"{there} is not {here}: the credentials go only to {here}",
                method=method,
                url=str(url),
                hint=f"To explore {url.host}, start explorer with its base URL and its own credentials "
                "(--base-url URL, or --profile NAME); a public page opens in a browser or with curl.",
            )
        headers = None
        if not foreign:
            await self.described()  # for the version asked, and the operation a failure's hint names
            if self.own_accept:
                headers = {"Accept": self.accept(raw_path(url), method)}
        deadline = self.clock() + MAX_RETRY_WAIT
        retries = 0
        while True:
            if not foreign:
                await self.wait_for_budget(url, method, counted=self.pace)
            last_sent.set(None)
            try:
                async with asyncio.timeout(self.deadline):
                    response = await self.client.request(
                        method,
                        url,
                        json=json,
                        headers=headers,
                        auth=httpx.Auth() if foreign else httpx.USE_CLIENT_DEFAULT,
                    )
            except TimeoutError:
                raise ApiError(
                    "timeout",
                    f"No whole answer within {self.deadline:g} s (the --deadline of a request): {method} {url}",
                    method=method,
                    url=str(url),
                    hint="The answer came too slowly, or never ended. If the service is only slow, --deadline "
                    "SECONDS allows more.",
                ) from None
            except BodyTooLarge as error:
                raise ApiError(
                    "too-large",
                    f"{method} {url}: {error}",
                    method=method,
                    url=str(url),
                    hint="The answer was dropped, not read. If it is a real answer, --max-body MB allows more; "
                    "a smaller page (itemsPerPage) makes it smaller.",
                ) from None
            except httpx.HTTPError as error:
                failed = last_sent.get()
                where = (failed.method, str(failed.url)) if failed else (method, str(url))
                raise errors.from_exception(error, *where, self.timeout) from None
            resource = self.resource(response, foreign)
            wait = errors.retry_after(response.headers.get("retry-after"), self.clock())
            retry = method in READ_METHODS and response.status_code in (429, 503) and wait is not None
            if not retry or retries == MAX_RETRIES or self.clock() + (wait or 0) > deadline:
                return resource
            retries += 1
            limit = bucket_of(method, url) if response.status_code == 429 and not foreign else None
            self.refusal = (limit, resource)
            await self.hold(self.clock() + (wait or 0), limit, resource)

    def resource(self, response: httpx.Response, foreign: bool) -> Resource:
        """The Resource of an answer: the request as sent (credentials redacted) and what came back."""
        request = response.request
        carried = self.credentials.kind if "authorization" in request.headers else None
        return Resource(
            method=request.method,
            url=str(request.url),
            status=response.status_code,
            headers=response.headers,
            request_headers=[(k, redact_header(k, v)) for k, v in request.headers.items()],
            body=response.content,
            elapsed=elapsed(response),
            received_at=self.clock(),
            http_version=response.http_version,
            foreign=foreign,
            # A Digest answer always follows a 401 (the challenge); only a token is renewed after one.
            after_refresh=carried == "service account" and any(r.status_code == 401 for r in response.history),
            credentials=carried,
            operation=None
            if foreign or self.description is None
            else self.description.operation(raw_path(request.url), request.method),
            vendor=None if foreign else self.vendor,
            max_depth=self.max_depth,
        )

    @property
    def vendor(self) -> str | None:
        """The name this API's versioned media types carry: from its root (/api/<vendor>/v2), or its description."""
        description = self.description
        return vendor_of(self.base_url.path) or (description.vendor if description else None)

    async def wait_for_budget(self, url: httpx.URL, method: str = "GET", counted: bool = True) -> None:
        """Hold a request the rate limit is sure to refuse, until it would not be.

        Not `counted` (a resource, without `pace`: the drills that show a 429), only for what the
        server said, a Retry-After not yet passed: never on the client's own count, which would
        keep the 429 from happening. The token endpoint's requests are always counted.
        """
        wait = self.rate_limits.hold(url, method, counted=counted)
        if wait > 0:
            limit = bucket_of(method, url)
            refused = self.refusal[1] if self.refusal is not None and self.refusal[0] == limit else None
            await self.hold(self.clock() + wait, limit, refused)

    async def hold(self, until: float, limit: str | None, after: Resource | None = None) -> None:
        """Wait until `until`, cancellable, showing it: in `held_until`, the limit waited on in
        `held_for`, and in `held_after` the refusal that said to wait (the screen shows its error)."""
        self.held_until, self.held_for, self.held_after = until, limit, after
        try:
            await self.sleep(max(0.0, until - self.clock()))
        finally:
            self.held_until = self.held_for = self.held_after = None

    async def sending(self, request: httpx.Request) -> None:
        """The request hook: time it and count it against its rate-limit counter."""
        key = key_of(request.url) if self.same_origin(request.url) else None
        request.extensions["explorer.started"] = self.timer()
        request.extensions["explorer.limit"] = key
        last_sent.set(request)
        if key is not None:
            self.rate_limits.sent(key)

    async def received(self, response: httpx.Response) -> None:
        """The response hook: read the body, time it, log the exchange, take in the rate-limit headers."""
        await response.aread()
        request = response.request
        # Timed on the response: one request is sent again (a Digest challenge answered, a token
        # renewed), and each sending restarts its clock.
        response.extensions["explorer.elapsed"] = self.timer() - request.extensions["explorer.started"]
        key = request.extensions.get("explorer.limit")
        if self.same_origin(request.url):  # what it says of its limits, under a project or not
            self.rate_limits.received(key, response)
        self.exchanges += 1
        self.log.append(
            Exchange(
                number=self.exchanges,
                at=self.clock(),
                method=request.method,
                url=str(request.url),
                status=response.status_code,
                elapsed=elapsed(response),
                size=len(response.content),
                limited=key,
                target=request.url.raw_path.decode("ascii", "replace"),
            )
        )

    # Closing ---------------------------------------------------------------------------------

    async def revoke(self) -> None:
        """Revoke the service account's token now (and drop it from the cache)."""
        if isinstance(self.auth, ServiceAccountAuth):
            try:
                await self.auth.revoke(self.client)
            except httpx.HTTPError as error:
                raise errors.from_exception(error, "POST", str(self.auth.revoke_url), self.timeout) from None

    async def aclose(self) -> None:
        """Revoke a token kept only in memory (within 2 s, whatever happens), then close."""
        auth = self.auth
        if isinstance(auth, ServiceAccountAuth) and auth.cache is None and auth.token is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.revoke(), REVOKE_TIMEOUT)
        await self.client.aclose()


def own_transport(base_url: httpx.URL, verify: ssl.SSLContext | bool) -> httpx.AsyncHTTPTransport:
    """The transport to the service: through the proxy the environment names for it, if any.

    Raises ConfigError when that proxy cannot be used (a socks5:// one needs httpx[socks]); the error
    names the proxy's scheme only, since a proxy URL may carry a password.
    """
    proxy = environment_proxy(base_url)
    try:
        return httpx.AsyncHTTPTransport(verify=verify, proxy=proxy)
    except (ImportError, ValueError, httpx.InvalidURL):
        scheme = (proxy or "").partition(":")[0]
        raise ConfigError(
            f"The proxy the environment names for {base_url.host} cannot be used: "
            f"a {visible(scheme[:20])}: proxy is not one this explorer can use",
            hint="Set https_proxy to an http:// or https:// proxy, or add the host to no_proxy.",
        ) from None
