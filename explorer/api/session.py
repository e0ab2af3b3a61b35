"""A session with the service: one pooled client, its credentials, and what it has seen.

    async with Session(credentials) as session:
        root = await session.fetch("")          # the API root
        groups = await session.fetch("/groups")  # a path under it
        if groups.error: print(groups.error.line())

`fetch` returns a Resource for every HTTP answer, errors included (`resource.error`), and raises
ApiError when there is no answer to show: refused origin, timeout, TLS, DNS, a token it could not
get. Credentials go only to the base URL's origin.

The rest lives in modules beside this one:
- throttle.py: waiting before a request a rate limit would refuse, and while a Retry-After runs;
- description_loader.py: the API description, and the Accept header of each request;
- urls.py: the URL a target resolves to;
- exchanges.py: the log of exchanges;
- guard.py: the transport, which caps the size of an answer's body;
- reconnect.py: a read sent again when the server had closed its keep-alive connection;
- once.py: the ledger that sends a write at most once for each `send_write`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from json import dumps
from typing import Any, Literal

import httpx

from explorer import __version__
from explorer.api import errors
from explorer.api.auth import DigestAuth, ServiceAccountAuth
from explorer.api.config import Credentials, default_trust, trusting
from explorer.api.config_file import description_cache_dir
from explorer.api.description import Description
from explorer.api.description_loader import DescriptionLoader
from explorer.api.errors import ApiError, ConfigError
from explorer.api.exchanges import Exchange
from explorer.api.guard import BodyTooLarge, GuardedTransport, service_transport
from explorer.api.har import HarRecorder, Recent
from explorer.api.headers import checked_headers
from explorer.api.history import History
from explorer.api.journal import Outcome, outcome_of
from explorer.api.once import (
    CONSENT,
    TOKEN_REFUSED,
    Ledger,
    Ticket,
    is_write,
    may_have_gone,
    redirected,
    token_refused,
)
from explorer.api.options import Bounds, Caches, Clocks, Har
from explorer.api.ratelimit import TOKEN_BUCKET, RateLimits, bucket_of, counter_key_of
from explorer.api.reconnect import Reconnecting
from explorer.api.resource import Resource
from explorer.api.secret import redact_header
from explorer.api.throttle import Throttle
from explorer.api.token_cache import TokenCache
from explorer.api.tokens import TokenState
from explorer.api.urls import origin_of, origin_text, raw_path, resolve
from explorer.api.writes import Outgoing, WritePolicy, is_write_method

# The request this task sent last: when a send fails, this is the one that failed (it may be the
# token request made inside the auth flow, which httpx's exception does not name).
last_sent: ContextVar[httpx.Request | None] = ContextVar("last_sent", default=None)
# The deadline of the request this task is sending: a token request made on its way waits only within it.
deadline: ContextVar[asyncio.Timeout | None] = ContextVar("deadline", default=None)
MAX_RETRIES = 2
# Nothing is sent without a token, so a refused token request is retried more times than a read.
MAX_TOKEN_RETRIES = 5
MAX_RETRY_WAIT = 60.0
REVOKE_TIMEOUT = 2.0
LOG_SIZE = 10_000
URL_CACHE_SIZE = 4096


def redacted_headers(request: httpx.Request | None) -> tuple[tuple[str, str], ...] | None:
    """Return a request's headers fit to show, credentials as ***.

    Args:
        request: The request as sent; None when it failed before one went out.

    Returns:
        The headers, credentials redacted; None for no request.
    """
    if request is None:
        return None
    return tuple((name, redact_header(name, value)) for name, value in request.headers.items())


def seconds_taken(response: httpx.Response) -> float:
    """Return the seconds from sending the request to having the whole body, as the session's hooks timed it.

    Args:
        response: An answer the session received.

    Returns:
        The seconds it took.
    """
    seconds: float = response.extensions["explorer.elapsed"]
    return seconds


@dataclass(frozen=True)
class Backend:
    """What answers a session in place of a service: the demo sandbox in process, or a recording.

    Args:
        kind: "demo" for the sandbox in process, "replay" for a recording.
        name: The demo's scenario, if one was set up; the recording's path.
    """

    kind: Literal["demo", "replay"]
    name: str | None = None


class Session:
    """A client for the API: an httpx.AsyncClient with its credentials, rate limits, retries and a log.

    The credentials are a service account's (which gets a token) or a Digest API key; the session
    waits before a request a rate limit is sure to refuse (client-side throttling), retries a read
    refused with 429 or 503, and its log keeps the last exchanges.

    Use it as an async context manager (`async with Session(credentials) as session`); `fetch`
    returns a Resource whatever the status, and raises ApiError only when there is no answer.

    Leaving the `async with` block closes it (`aclose`): a token kept only in memory is revoked.
    Credentials go only to the base URL's origin; a request for another is refused, or sent
    without them when asked to (`fetch(..., anonymous=True)`).
    """

    def __init__(
        self,
        credentials: Credentials,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        writes: WritePolicy | None = None,
        client_side_throttling: bool = True,
        bounds: Bounds | None = None,
        clocks: Clocks | None = None,
        caches: Caches | None = None,
        har: Har | None = None,
    ) -> None:
        """Open a session with these credentials; nothing is sent until the first request.

        What is not the credentials comes in a few option objects (options.py), each with the
        defaults a session has without it: `Session(credentials, bounds=Bounds(deadline=10.0))`.

        Args:
            credentials: Who to be, and where: a service account (client ID and secret, which gets
                a token) is used when there is one, else an API key (public and private key).
            transport: What sends the requests. None sends them over the network, through the
                proxy the environment names for the base URL, if any; a read that fails because the
                server closed its keep-alive connection is sent again (reconnect.py). Tests pass
                their own (an `httpx.MockTransport`). Either way, an answer's body is capped at
                `bounds.max_body`.
            headers: Sent with every request to the base URL's origin, after the explorer's own
                Accept (the versioned media type on a versioned API) and User-Agent, so one of the
                same name replaces it; never to another origin (an API description elsewhere, a
                link read anonymously). Checked as `headers.header_pair` checks `-H`: credentials,
                framing and method overrides (X-HTTP-Method-Override) are refused.
            writes: Says whether the session may write (writes.py): read-only unless it says so.
            client_side_throttling: Whether to wait before a request when the client's own count
                says a rate limit is spent (used where the server states no figures of that limit).
                False waits only for a Retry-After the server gave.
            bounds: What one request and its answer may take: the per-step timeout, the whole
                request's deadline, the body's bytes and JSON depth (`Bounds()` unless given).
            clocks: The wall clock, the way to wait and what times a request: tests and
                screenshots pass their own (`Clocks()`, the real ones, unless given).
            caches: Where the token (between runs) and the API description's index are kept
                (`Caches()`: the token in memory only, the index in the user cache directory).
            har: The HAR file every exchange is written to, what is kept to save as HAR
                later, and the recording a replay answers from (`Har()`: none, 64 MiB, none).

        Raises:
            ConfigError: When a header given cannot be sent (`headers`), the credentials hold
                neither a client ID and secret nor a public and private key, the CA bundle holds
                no certificate TLS can use, or the proxy the environment names cannot be used.
        """
        bounds = bounds or Bounds()
        clocks = clocks or Clocks()
        caches = caches or Caches()
        har = har or Har()
        self.credentials = credentials
        self.write_policy = writes or WritePolicy(False, "the default")
        self.base_url = httpx.URL(credentials.base_url)
        self.origin = origin_of(self.base_url)
        self.bounds = bounds
        self.clocks = clocks
        self.caches = caches
        self.har = har
        self.client_side_throttling = client_side_throttling
        clock = clocks.wall
        self.rate_limits = RateLimits(credentials.rate_limit, credentials.token_rate_limit, clock)
        self.log: deque[Exchange] = deque(maxlen=LOG_SIZE)
        self.ledger = Ledger()  # every write goes through it, once per consent (once.py)
        self.exchange_count = 0  # how many exchanges the session has had: the number of the next log entry
        self.throttle = Throttle(self.rate_limits, clock, clocks.sleep)
        # The HAR file being written to: `har.recorder` at first, or one given later (`recorder`); None
        # once writing it failed.
        self.recorder = har.recorder
        self.history = har.history  # the history kept across sessions, if any; None once adding to it failed
        self.keeping: set[asyncio.Task[None]] = set()  # exchanges being added to the history
        self.last_kept: asyncio.Task[None] | None = None  # the last of them, which the next one waits for
        self.journal = har.journal  # the journal of writes, if any: a write it cannot note is not sent
        self.last_noted: int | None = None  # the journal's number of the last write noted (for an undo to name)
        self.recording_problem: str | None = None  # why the recorder or the history stopped, if one did
        # What answers in place of the service the credentials name (the demo sandbox, a recording),
        # set by whoever made it so; None for the service itself.
        self.backend: Backend | None = None
        self.recent = Recent(max_bytes=har.keep_bytes)  # the last exchanges whole, to save as HAR
        # What HAR files mask wherever it appears: these, and every token the session sends (learnt).
        self.recent.secrets.add(credentials.client_secret, credentials.private_key)
        self.url_cache: dict[str, httpx.URL] = {}  # the URL each target resolved to: a page is often fetched again
        try:  # the user's own (explorer get -H): sent to this origin only (_headers_for)
            self.user_headers = checked_headers(headers or {})
        except ValueError as error:
            raise ConfigError(f"A header given cannot be sent: {error}") from None
        self.description_loader = DescriptionLoader(
            self.base_url,
            credentials.openapi,
            credentials.api_version,
            caches.description or description_cache_dir(),
            headers=self.user_headers,
        )
        self.sets_accept = not any(name.lower() == "accept" for name in self.user_headers)
        auth: httpx.Auth
        if credentials.client_id and credentials.client_secret:
            cache = None
            if caches.token is not None:
                origin = str(self.base_url.copy_with(path="/", query=None))
                cache = TokenCache(caches.token, origin, credentials.client_id, credentials.client_secret)
            auth = ServiceAccountAuth(
                self.base_url,
                credentials.client_id,
                credentials.client_secret,
                limits=self.rate_limits,
                clock=clock,
                hold=self.throttle.wait_for_rate_limit,
                cache=cache,
                max_depth=bounds.max_depth,
                again=self._wait_to_retry_token,
            )
        elif credentials.public_key and credentials.private_key:
            auth = DigestAuth(credentials.public_key, credentials.private_key.reveal())
        else:
            raise ConfigError(f"No credentials for {credentials.base_url}")
        self.auth = auth
        if transport is None:  # the network, where a read is sent again if the server closed its keep-alive connection
            # the authorities are loaded only for the network: the demo's sandbox in process needs none (25 ms)
            verify = trusting(credentials.ca_bundle) if credentials.ca_bundle else default_trust()
            transport = Reconnecting(service_transport(self.base_url, verify))
        self.client = httpx.AsyncClient(
            auth=auth,
            transport=GuardedTransport(transport, bounds.max_body),
            trust_env=False,  # the environment's proxy is in service_transport, behind the guard
            timeout=bounds.timeout,
            follow_redirects=False,
            headers={
                "Accept": self.description_loader.accept(self.base_url.path),
                "User-Agent": f"explorer/{__version__}",
            },
            event_hooks={"request": [self._sending], "response": [self._received]},
        )

    def __repr__(self) -> str:
        return f"<Session {self.base_url} as {self.credentials.who}>"

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def writes_allowed(self) -> bool:
        """Whether this session may send writes (POST, PUT, PATCH, DELETE).

        False unless the session's `write_policy` allows them.
        """
        return self.write_policy.on

    @property
    def token_state(self) -> TokenState | None:
        """The service account's token state (the status bar's countdown), or None for an API key.

        It says when the token was issued and expires, how often it was renewed, whether it is being renewed
        or was revoked, and the token endpoint's last error; never the token itself.
        """
        return self.auth.state if isinstance(self.auth, ServiceAccountAuth) else None

    # Where requests go -----------------------------------------------------------------------

    def resolve(self, target: str) -> httpx.URL:
        """Return the URL for `target`: absolute as given; /api/… from the origin; else under the base URL.

        Args:
            target: A path under the base URL (`/groups`, `groups`, or "" for the root), a path
                from the origin (`/api/…`), or a whole URL (a link's href).

        Returns:
            The URL the request goes to, letters past ASCII percent-encoded.

        Raises:
            ApiError: When `target` is not a URL, or holds a character nobody sees (kind
                "config"), or is plain http:// to a host that is not this machine (kind
                "insecure").
        """
        url = self.url_cache.get(target)
        if url is None:
            if len(self.url_cache) >= URL_CACHE_SIZE:
                self.url_cache.clear()
            url = self.url_cache[target] = resolve(self.base_url, target)
        return url

    def _same_origin(self, url: httpx.URL) -> bool:
        """Return whether `url` is on the base URL's origin: the only one credentials go to.

        Args:
            url: The URL a request would go to.

        Returns:
            True when its scheme, host and port (the scheme's default if none) are the base URL's.
        """
        return origin_of(url) == self.origin

    # The API description and versions -------------------------------------------------------

    @property
    def description(self) -> Description | None:
        """The API description, once loaded (`load_description`).

        None before it is loaded, without one, or when it cannot be used.
        """
        return self.description_loader.description

    @property
    def description_problem(self) -> ApiError | None:
        """Why the description given cannot be used, if it cannot: the session goes on without it.

        An ApiError (kind "description") to show, never raised; None when there is none, or the description
        is not loaded yet.
        """
        return self.description_loader.problem

    async def load_description(self) -> Description | None:
        """Load the API description on first need, off the event loop, and return it; None without one.

        Never raises: a description that cannot be used is kept in `description_problem`.

        Returns:
            The description, or None when the credentials name none (`openapi`) and none was found
                (`discover_description`), or it cannot be used.
        """
        return await self.description_loader.described(self.client)

    async def discover_description(self) -> Description | None:
        """Return the API description, looked for where the API's origin may publish one if none was given.

        Once a session: a GET of a well-known path on the base URL's origin only (the sandbox's
        /openapi.json), without credentials; nothing there, or not a description, is said by nobody
        (`description_problem` stays None). The screen asks once the root has come.

        Returns:
            The description: the one given, or the one found; None when there is none.
        """
        return await self.description_loader.discover(self.client)

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
        """Send one request and return its answer, whatever the status.

        A read refused with 429 or 503 and Retry-After is sent again (twice, 60 s at most); a write
        (POST, PUT, PATCH, DELETE, with `json` as its body) is sent once, as `send_write` does, and only
        by a session that may write.

        A URL on another origin is refused unless `anonymous`: then it is fetched without any
        credentials and the resource is marked `foreign`.

        Args:
            target: Where to send it: a path under the base URL (`/groups`, or "" for the root), a
                path from the origin (`/api/…`), or a whole URL, such as a link's href.
            method: The HTTP method, GET unless said.
            params: Query parameters to add to the target's own, for a read; a write is sent to
                `target` as it is.
            json: The body of a write, sent as JSON; None sends none. A read sends no body.
            anonymous: Whether a read on another origin may be fetched, without credentials.

        Returns:
            The answer, whatever its status: a failure's error document is in `resource.error`.
                After retries, the last answer.

        Raises:
            ApiError: When there is no answer to show, by its kind: the request timed out ("timeout") or its
                answer was too large ("too-large"), the connection was refused ("connect") or
                failed TLS or DNS ("tls", "tls-certificate", "dns"), the token could not be got
                ("oauth", "token"), or the Digest challenge could not be answered ("digest"). Also
                before sending: for another origin ("origin") unless `anonymous`, for a write by a
                session that may not write ("read-only"), and for a target that is not a URL
                (`resolve`).
        """
        if is_write_method(method):  # sent once, as `send_write` sends it (PURGE too: any method not a read)
            body = b"" if json is None else dumps(json).encode("utf-8")
            return await self.send_write(await self.prepare_write(method, target, body))
        url = self.resolve(target)
        if params:
            url = url.copy_merge_params(dict(params))
        foreign = self._check_origin(url, method, anonymous)
        headers = await self._headers_for(url, method, foreign)
        return await self._read_with_retries(method, url, headers, foreign)

    async def _read_with_retries(
        self, method: str, url: httpx.URL, headers: dict[str, str] | None, foreign: bool
    ) -> Resource:
        """Send a read, and again for as long as the retry rule says (`_retry_wait`).

        Used inside the session, by `fetch`: a write is never sent again.

        Args:
            method: The read's method (GET, HEAD).
            url: Where it goes, its origin checked.
            headers: Its own headers beside the client's (its Accept), or None.
            foreign: Whether it goes to another origin, without credentials.

        Returns:
            The last answer, whatever its status.

        Raises:
            ApiError: When there is no answer to show (`_exchange`).
        """
        give_up_at = self.clocks.wall() + MAX_RETRY_WAIT
        retries = 0
        while True:
            request = self.client.build_request(method, url, headers=headers)
            response = await self._exchange(request, foreign)
            resource = self._resource(response, foreign)
            wait = self._retry_wait(response, retries, give_up_at)
            if wait is None:
                return resource
            retries += 1
            await self._wait_for_retry(method, url, resource, wait, foreign)

    def _retry_wait(
        self, response: httpx.Response, retries: int, give_up_at: float, max_retries: int = MAX_RETRIES
    ) -> float | None:
        """Return how long to wait before sending a read again, by the retry rule; None not to.

        A read refused with 429 or 503 and a Retry-After is sent again after it, MAX_RETRIES times
        at most, and not past MAX_RETRY_WAIT seconds from the first sending.

        Args:
            response: The answer just come.
            retries: How many times this read was sent again already.
            give_up_at: When, by the session's wall clock, no retry may still be waiting.
            max_retries: How many times it may be sent again (a token request's: MAX_TOKEN_RETRIES).

        Returns:
            The seconds to wait before sending it again; None to give this answer as it is.
        """
        wait = errors.retry_after(response.headers.get("retry-after"), self.clocks.wall())
        if response.status_code not in (429, 503) or wait is None:
            return None
        if retries >= max_retries or self.clocks.wall() + wait > give_up_at:
            return None
        return wait

    async def _wait_to_retry_token(self, response: httpx.Response, retries: int, first_at: float) -> bool:
        """Wait before asking for a token again, by the retry rule of a token request (the auth's `again`).

        A 429 or 503 with a Retry-After is waited out and the token asked again, MAX_TOKEN_RETRIES
        times at most, not past MAX_RETRY_WAIT seconds from the first answer, nor past the deadline
        of the request that needs the token.

        It waits in the session's `throttle`, as a read waits for a retry, under the token endpoint's
        limit and with this response: the status bar and a command's stderr show it.

        Args:
            response: The token endpoint's answer, not a token.
            retries: How many times the token was asked again already.
            first_at: When, by the session's wall clock, the first answer came.

        Returns:
            True to ask again, the wait over; False (at once) to give this response as the token's failure.
        """
        wait = self._retry_wait(response, retries, first_at + MAX_RETRY_WAIT, MAX_TOKEN_RETRIES)
        if wait is None:
            return False
        within = deadline.get()
        ends = within.when() if within is not None else None
        if ends is not None and asyncio.get_running_loop().time() + wait >= ends:
            return False  # the deadline would end the request while it waited: said now, not as a timeout
        refused = self._resource(response, foreign=False)
        # A token request made meanwhile waits for this Retry-After too, and shows this response.
        self.throttle.last_retry_after = (TOKEN_BUCKET, refused)
        await self.throttle.wait_until(self.clocks.wall() + wait, TOKEN_BUCKET, refused)
        return True

    async def _wait_for_retry(self, method: str, url: httpx.URL, refused: Resource, wait: float, foreign: bool) -> None:
        """Wait out the Retry-After of a 429 or 503 before the read is sent again.

        Args:
            method: The read's method.
            url: Where it goes.
            refused: The answer that asked for the wait (429 or 503).
            wait: The seconds to wait (`_retry_wait`).
            foreign: Whether the read goes to another origin, which is under no bucket.
        """
        bucket = bucket_of(method, url) if refused.status == 429 and not foreign else None
        # Kept under the request's own bucket, a 503's too (which waits on no bucket): a request made
        # while its Retry-After runs waits for it there, and the status bar shows this response.
        self.throttle.last_retry_after = (None if foreign else bucket_of(method, url), refused)
        await self.throttle.wait_until(self.clocks.wall() + wait, bucket, refused)

    # Writing -----------------------------------------------------------------------------------

    def read_only(self, method: str, url: str) -> ApiError:
        """Return the refusal of a write by a session that may not write: reported, never silently dropped.

        Args:
            method: The write's method.
            url: The URL it would have gone to.

        Returns:
            The error (kind "read-only", with how to turn writes on), to raise or show.
        """
        return ApiError(
            "read-only",
            f"Not sent: {method} is a write, and this session is read-only ({self.write_policy.because})",
            method=method,
            url=url,
        )

    async def prepare_write(self, method: str, target: str, body: bytes = b"") -> Outgoing:
        """Prepare a write exactly as `send_write` will send it: method, URL, every header (credentials as ***), body.

        Prepared whether or not the session may write (a read-only session can still show it, copy it
        as curl); raises ApiError for another origin, where a write never goes.

        Args:
            method: The HTTP method, in any case: POST, PUT, PATCH or DELETE.
            target: Where it goes, as `fetch` takes it.
            body: The body, as bytes (JSON, when there is one); empty sends none.

        Returns:
            The write to show, copy or hand to `send_write`.

        Raises:
            ApiError: When `target` is on another origin (kind "origin") or is not a URL
                (`resolve`).
        """
        method = method.upper()
        url = self.resolve(target)
        self._check_origin(url, method, anonymous=False)
        request = self.client.build_request(
            method, url, content=body or None, headers=await self._write_headers(url, method, body)
        )
        masked_headers = [(name, redact_header(name, value)) for name, value in request.headers.items()]
        scheme = "Bearer" if isinstance(self.auth, ServiceAccountAuth) else "Digest"
        return Outgoing(method, str(url), (*masked_headers, ("authorization", f"{scheme} ***")), body)

    async def send_write(self, outgoing: Outgoing, *, before: Any = None, undoes: int | None = None) -> Resource:
        """Send a prepared write, at most once for this call (the ledger's rule, once.py).

        It never waits for a retry, and is never sent again by itself. A 429 or 503 comes back as it is,
        with its Retry-After, for the person to decide; a 3xx is not followed; a 401 about the token
        it carried comes back too, the token renewed after it (`resource.error` says so). When the
        session may not write, nothing is sent. With a `journal`, the write is noted there before it
        goes (not sent when it cannot be), and what became of it once that is known.

        Args:
            outgoing: The write, as `prepare_write` made it.
            before: The entity as the preview fetched it just before (a JSON document), for the
                journal; None when it was not fetched.
            undoes: The journal's number of the write this one undoes, if it is an undo.

        Returns:
            The answer, whatever its status: a failure's error document is in `resource.error`.

        Raises:
            ApiError: When the session may not write (kind "read-only"), the URL is on another
                origin (kind "origin"), the journal cannot note it (kind "journal"), or there is no
                answer to show, as for `fetch`: then, if the write went, the error says it may have
                been done (`written` "maybe").
        """
        method = outgoing.method.upper()  # as it goes: httpx sends "post" as POST
        url = httpx.URL(outgoing.url)
        number = self.last_noted = await self._note_attempt(
            httpx.Request(method, url, content=outgoing.body or None), before, undoes
        )
        try:
            if is_write_method(method) and not self.writes_allowed:
                raise self.read_only(method, outgoing.url)
            foreign = self._check_origin(url, method, anonymous=False)
        except ApiError as error:
            await self._note_outcome(number, "refused", why=error.line())
            raise
        headers = await self._write_headers(url, method, outgoing.body)
        request = self.client.build_request(method, url, content=outgoing.body or None, headers=headers)
        self.ledger.consent(request)
        try:
            response = await self._exchange(request, foreign)
        except ApiError as error:
            await self._note_outcome(
                number, "may-have-reached" if error.written == "maybe" else "failed", why=error.line()
            )
            raise
        resource = self._resource(response, foreign)
        if resource.error is not None and response.request.extensions.get(TOKEN_REFUSED):
            token_refused(resource.error, await self.renew_token(response.request))
        refusal = resource.error
        await self._note_outcome(
            number,
            outcome_of(response.status_code),
            status=response.status_code,
            error_code=(refusal.error_code or refusal.oauth_error or "") if refusal is not None else "",
            after=response.content,
            why=refusal.line() if refusal is not None else redirected(resource) or "",
        )
        return resource

    async def _note_attempt(self, request: httpx.Request, before: Any, undoes: int | None) -> int | None:
        """Note a write in the journal before it goes, off the event loop; its number, or None without one.

        Used inside the session, by `send_write`.

        Raises:
            ApiError: (kind "journal") When the journal cannot note it: the write does not go.
        """
        if self.journal is None:
            return None
        entity = None if before is None else dumps(before).encode("utf-8")
        journal = self.journal
        try:
            number = await asyncio.to_thread(
                journal.attempt,
                request,
                self.clocks.wall(),
                before=entity,
                undoes=undoes,
                known=self.recent.secrets,
            )
        except OSError as error:
            raise ApiError(
                "journal",
                f"Not sent: the journal of writes cannot note it ({error.strerror or error})",
                method=request.method,
                url=str(request.url),
                written="no",
                hint=f"Every write is noted in {journal.path} before it goes: make room on that disk,"
                " or make the file writable.",
            ) from None
        self.recording_problem = journal.news_of_set_aside() or self.recording_problem  # said once
        return number

    async def _note_outcome(self, number: int | None, outcome: Outcome, **what: Any) -> None:
        """Note what became of a write in the journal; a note that fails is said (`recording_problem`).

        Used inside the session, by `send_write`.
        """
        if self.journal is None or number is None:
            return
        try:
            await asyncio.to_thread(
                self.journal.outcome, number, outcome, self.clocks.wall(), known=self.recent.secrets, **what
            )
        except OSError as error:
            self.recording_problem = f"The journal {self.journal.path} could not note what became of a write: {error}"

    async def renew_token(self, refused: httpx.Request) -> ApiError | None:
        """Renew the token, within the session's deadline, without sending the request that needs it.

        Used by `send_write` after a write's 401, and by `explorer token` for a token curl can use a while.

        Args:
            refused: The request the token is for: the write the 401 answered, or one the token is
                asked for ahead of (a write's margin applies to it).

        Returns:
            None when a new token was got; otherwise why not, as an ApiError (not raised: the
                write's answer is what `send_write` returns).
        """
        auth = self.auth
        if not isinstance(auth, ServiceAccountAuth):
            return None
        try:
            async with asyncio.timeout(self.bounds.deadline) as within:
                deadline_reset = deadline.set(within)
                try:
                    await auth.renew(self.client, refused)
                finally:
                    deadline.reset(deadline_reset)
        except ApiError as error:
            return error
        except TimeoutError:
            return ApiError(
                "timeout", f"No answer from the token endpoint within {self.bounds.deadline:g} s", setting="deadline"
            )
        except httpx.HTTPError as error:
            return errors.from_exception(error, "POST", str(auth.token_url), self.bounds.timeout)
        return None

    async def _write_headers(self, url: httpx.URL, method: str, body: bytes) -> dict[str, str]:
        """Return a write's own headers: the Accept of its version, the user's own, and Content-Type.

        Content-Type is application/json on a body (spec 2.10: required on POST and PUT; the real
        service asks it of PATCH too), in place of any the user gave.

        Used inside the session, by `prepare_write` and `send_write`.

        Args:
            url: Where the write goes.
            method: The write's method.
            body: The write's body; empty for none.

        Returns:
            The headers to send beside the client's own; the Accept left out when the user gave
                their own.
        """
        headers = await self._headers_for(url, method, foreign=False) or {}
        if body:
            headers = {name: value for name, value in headers.items() if name.lower() != "content-type"}
            headers["Content-Type"] = "application/json"
        return headers

    # One exchange --------------------------------------------------------------------------------

    def _check_origin(self, url: httpx.URL, method: str, anonymous: bool) -> bool:
        """Whether `url` is foreign; raises ApiError when it is and the request may not go there.

        Used inside the session, before every request.

        Args:
            url: Where the request goes.
            method: Its method: a write never goes to another origin.
            anonymous: Whether a read may go to another origin, without credentials.

        Returns:
            True when `url` is on another origin (and may be fetched there, anonymously).

        Raises:
            ApiError: When `url` is on another origin and the request is a write, or not
                `anonymous` (kind "origin"), with how to explore that service instead.
        """
        foreign = not self._same_origin(url)
        if foreign and (not anonymous or is_write_method(method)):
            there, here = url.host, self.base_url.host
            if there == here:  # another scheme or port on the same host: name the whole origins
                there, here = origin_text(url), origin_text(self.base_url)
            raise ApiError(
                "origin",
                f"{there} is not {here}: the credentials go only to {here}",
                method=method,
                url=str(url),
                hint=f"To explore {url.host}, use its base URL and its own credentials; a public page opens in a "
                "browser or with curl.",
                setting="base_url",
            )
        return foreign

    async def _headers_for(self, url: httpx.URL, method: str, foreign: bool) -> dict[str, str] | None:
        """Return a request's own headers beside the client's: its Accept and the user's own.

        The Accept is `_accept_for`'s; the user's own are the session's `headers`. Both go to this
        origin only.

        Used inside the session, before every request.

        Args:
            url: Where the request goes.
            method: Its method.
            foreign: Whether `url` is on another origin, which is sent neither.

        Returns:
            The headers, or None for another origin.
        """
        if foreign:
            return None
        return {**self.user_headers, **(await self._accept_for(url, method, foreign) or {})}  # no Accept if theirs

    async def _accept_for(self, url: httpx.URL, method: str, foreign: bool) -> dict[str, str] | None:
        """Return the Accept of the version asked for this operation, unless the user gave their own.

        Used inside the session, before every request. Loads the API description first, if there
        is one and it is not loaded yet.

        Args:
            url: Where the request goes.
            method: Its method: the API description may document other versions for each.
            foreign: Whether `url` is on another origin, which is sent no Accept of this API's.

        Returns:
            An Accept header, or None for another origin or when the user gave their own.
        """
        if foreign:
            return None
        await self.load_description()  # for the version asked, and the operation a failure's hint names
        return {"Accept": self.description_loader.accept(raw_path(url), method)} if self.sets_accept else None

    async def _exchange(self, request: httpx.Request, foreign: bool) -> httpx.Response:
        """Send one request: wait first if a rate limit is sure to refuse it, then send it (`_send_no_retry`).

        Used inside the session, by `_read_with_retries` and `send_write`.

        Args:
            request: The request, built by the session's client.
            foreign: Whether it goes to another origin: then without credentials, and never throttled.

        Returns:
            The answer, its body read.

        Raises:
            ApiError: When no whole answer came within `bounds.deadline` (kind "timeout"), it was
                larger than `bounds.max_body` (kind "too-large"), or the request failed below HTTP
                (timeout, connect, tls, dns); also when the token could not be got or a Digest
                challenge not answered.
        """
        if not foreign:
            await self.throttle.wait_for_rate_limit(request.url, request.method, counted=self.client_side_throttling)
        return await self._send_no_retry(request, foreign)

    async def _send_no_retry(self, request: httpx.Request, foreign: bool) -> httpx.Response:
        """Send one request through the auth flow (or without credentials, to another origin), never retried here.

        Within the deadline; every failure without an answer is raised as an ApiError.

        Used inside the session, by `_exchange`.

        Args:
            request: The request, built by the session's client.
            foreign: Whether it goes to another origin: then without credentials.

        Returns:
            The answer, its body read.

        Raises:
            ApiError: As `_exchange` says.
        """
        method, url = request.method, request.url
        last_sent.set(None)
        try:
            async with asyncio.timeout(self.bounds.deadline) as within:
                deadline_reset = deadline.set(within)
                try:
                    return await self.client.send(request, auth=httpx.Auth() if foreign else httpx.USE_CLIENT_DEFAULT)
                finally:
                    deadline.reset(deadline_reset)
        except TimeoutError:
            raise self._as_write_failure(
                ApiError(
                    "timeout",
                    f"No whole answer within {self.bounds.deadline:g} s (the deadline of a request): {method} {url}",
                    method=method,
                    url=str(url),
                    hint="The answer came too slowly, or never ended.",
                    setting="deadline",
                    sent=redacted_headers(last_sent.get()),
                ),
                None,
            ) from None
        except BodyTooLarge as error:
            raise self._as_write_failure(
                ApiError(
                    "too-large",
                    f"{method} {url}: {error}",
                    method=method,
                    url=str(url),
                    hint="The answer was dropped, not read. A smaller page (itemsPerPage) makes it smaller.",
                    setting="max_body",
                    sent=redacted_headers(last_sent.get()),
                ),
                None,
            ) from None
        except httpx.HTTPError as error:
            failed = last_sent.get()
            where = (failed.method, str(failed.url)) if failed else (method, str(url))
            problem = errors.from_exception(error, *where, self.bounds.timeout)
            problem.sent = redacted_headers(failed)
            raise self._as_write_failure(problem, error) from None

    @staticmethod
    def _as_write_failure(error: ApiError, http_error: httpx.HTTPError | None) -> ApiError:
        """Return a failure without an answer as what it means for a write that went.

        Such a write may have been done (once.may_have_gone). Any other failure (a read's, a token
        request's) is returned as it is.

        Used inside the session, by `_send_no_retry`.

        Args:
            error: The failure, as said for any request.
            http_error: httpx's exception for what failed below HTTP; None for the deadline or a body too large.

        Returns:
            The error to raise.
        """
        failed = last_sent.get()
        ticket = failed.extensions.get(CONSENT) if failed is not None else None
        if isinstance(ticket, Ticket) and ticket.sent:
            return may_have_gone(error, http_error)
        return error

    def _resource(self, response: httpx.Response, foreign: bool) -> Resource:
        """Return the Resource of an answer: the request as sent (credentials redacted) and what came back.

        Used inside the session, by `_read_with_retries` and `send_write`.

        Args:
            response: The answer, its body read.
            foreign: Whether it came from another origin, fetched without credentials.

        Returns:
            The Resource, with what the API description says of its operation, when there is one.
        """
        request = response.request
        carried = self.credentials.kind if "authorization" in request.headers else None
        return Resource(
            method=request.method,
            url=str(request.url),
            status=response.status_code,
            headers=response.headers,
            request_headers=[(k, redact_header(k, v)) for k, v in request.headers.items()],
            body=response.content,
            elapsed=seconds_taken(response),
            received_at=self.clocks.wall(),
            http_version=response.http_version,
            foreign=foreign,
            # A Digest answer always follows a 401 (the challenge); only a token is renewed after one.
            after_refresh=carried == "service account" and any(r.status_code == 401 for r in response.history),
            at_root=not foreign and request.url.path.rstrip("/") == self.base_url.path.rstrip("/"),
            credentials=carried,
            operation=None
            if foreign or self.description is None
            else self.description.operation(raw_path(request.url), request.method),
            vendor=None if foreign else self.description_loader.vendor,
            max_depth=self.bounds.max_depth,
        )

    async def _sending(self, request: httpx.Request) -> None:
        """Check, record and time a request before it goes out: the client's request hook.

        Called by the session's client before each request goes out, the token requests included.
        It refuses a write when the session may not write (the last gate, whatever built the
        request), records a write in the ledger (once.py: at most once per consent), starts the
        request's timer, and counts it under its rate-limit counter.

        Args:
            request: The request about to be sent.
        """
        if is_write(request) and not self.writes_allowed:  # the last gate, at the wire: whatever built the request
            raise self.read_only(request.method, str(request.url))
        self.ledger.sending(request)  # a write goes once for each consent, or not at all
        counter_key = counter_key_of(request.url) if self._same_origin(request.url) else None
        request.extensions["explorer.started"] = self.clocks.timer()
        request.extensions["explorer.counter_key"] = counter_key
        last_sent.set(request)
        if counter_key is not None:
            self.rate_limits.sent(counter_key)

    async def _received(self, response: httpx.Response) -> None:
        """Read an answer's body, time it, log the exchange, take in its rate-limit headers: the response hook.

        Called by the session's client for each answer, the token endpoint's included; it also
        keeps the exchange for saving as HAR, and writes it to the `recorder`, if any. A recorder
        that fails (a full disk) is dropped, and `recording_problem` says why.

        Args:
            response: The answer, its body not read yet.
        """
        await response.aread()
        request = response.request
        # Timed on the response: one request is sent again (a Digest challenge answered, a token
        # renewed), and each sending restarts its clock.
        response.extensions["explorer.elapsed"] = self.clocks.timer() - request.extensions["explorer.started"]
        counter_key = request.extensions.get("explorer.counter_key")
        if self._same_origin(request.url):  # what it says of its limits, under a project or not
            self.rate_limits.received(counter_key, response)
        took = seconds_taken(response)
        ended = self.clocks.wall()  # read once: the Log and the HAR file agree, however slow the disk
        started = ended - took
        self.recent.keep(response, started)
        if self.recorder is not None:
            await self._record_har(self.recorder, response, started, took)
        if self.history is not None:  # after the answer is given back, not before: a person waits for that
            previous = self.last_kept  # added after it: the history keeps the exchanges' order
            kept = self.last_kept = asyncio.create_task(
                self._keep_in_history(self.history, response, started, took, previous)
            )
            self.keeping.add(kept)
            kept.add_done_callback(self.keeping.discard)
        self.exchange_count += 1
        self.log.append(
            Exchange(
                number=self.exchange_count,
                at=ended,
                method=request.method,
                url=str(request.url),
                status=response.status_code,
                elapsed=seconds_taken(response),
                size=len(response.content),
                counter_key=counter_key,
                target=request.url.raw_path.decode("ascii", "replace"),
            )
        )

    async def _keep_in_history(
        self,
        history: History,
        response: httpx.Response,
        started: float,
        took: float,
        previous: asyncio.Task[None] | None = None,
    ) -> None:
        """Add an exchange to the history, `history.after` seconds after its answer was given back.

        The entry is made (and redacted: 10 ms of Python for a 500-item page) on the event loop, once
        a screen has had the time to show the answer: in a thread it would hold the interpreter in
        turns with the screen's drawing, which took longer for it (about 25 ms a page turn). The file
        is written in a thread. Used inside the session, by `_received`; `aclose` waits for those
        still to be added. `previous`, the exchange before it, is added first: two answers that came
        together are written in their order, not in whichever thread finished first.
        """
        if history.after:
            await asyncio.sleep(history.after)
        if previous is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(previous)
        try:
            row = history.row_of(response, started, took, self.recent.secrets)
            await asyncio.to_thread(history.add, row)
        except OSError as error:
            self.recording_problem = f"Stopped writing {history.path}: {error.strerror or error}"
            history.close()
            if self.history is history:
                self.history = None
            return
        self.recording_problem = history.news_of_set_aside() or self.recording_problem  # said once

    async def _record_har(self, recorder: HarRecorder, response: httpx.Response, started: float, took: float) -> None:
        """Write an exchange to the HAR recorder, off the event loop.

        A recorder that fails (a full disk, say) is dropped: the session goes on without it, and
        `recording_problem` says why.
        """
        try:
            await asyncio.to_thread(recorder.record, response, started, took, self.recent.secrets)
        except OSError as error:
            self.recording_problem = f"Stopped writing {recorder.path}: {error.strerror or error}"
            recorder.abandon()
            self.recorder = None

    # Closing ---------------------------------------------------------------------------------

    async def revoke(self) -> None:
        """Revoke the service account's token now (and drop it from the cache).

        The token is dropped from memory and the cache first, whatever the revoke endpoint says.
        With an API key, or no token yet, nothing is sent.

        Raises:
            ApiError: When the revoke endpoint refuses (kind "oauth" or "http", its error document)
                or does not answer (kind "timeout", "connect", "tls" or "dns").
        """
        if isinstance(self.auth, ServiceAccountAuth):
            try:
                await self.auth.revoke(self.client)
            except httpx.HTTPError as error:
                raise errors.from_exception(error, "POST", str(self.auth.revoke_url), self.bounds.timeout) from None

    async def aclose(self) -> None:
        """Revoke a token kept only in memory (within 2 s, whatever happens), then close.

        A token kept in `caches.token` is left there for the next run. The HAR `recorder` and the
        `history`, if any, are closed too. A revoke that fails is not raised: the session closes all the same.
        """
        auth = self.auth
        if isinstance(auth, ServiceAccountAuth) and auth.cache is None and auth.token is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.revoke(), REVOKE_TIMEOUT)
        try:
            await asyncio.gather(*self.keeping)  # the history has every exchange before its file closes
            await self.client.aclose()
        finally:  # the files are closed whatever the connections do
            if self.recorder is not None:
                self.recorder.close()
            if self.history is not None:
                self.history.close()
            if self.journal is not None:
                self.journal.close()
