"""Every failure as one value: what went wrong, shown in a line or in full, with a hint.

The service answers failures in two shapes: the five-field document of most endpoints and the
token endpoints' `{error, error_description}`; proxies in between answer with HTML. Below HTTP,
a request can time out, be refused, fail TLS or DNS. All of them become an ApiError.

Its length is the hints: an ApiError works out its hint as it is made, from its own fields, so
the hints live beside it (a module of them would import this one and be imported by it).
"""

from __future__ import annotations

import json
import re
import socket
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from explorer.api.tls_failures import tls_failure
from explorer.api.values import MAX_DEPTH, TooDeep, json_within, parse_count
from explorer.api.versions import vendor_of

# The settings a failure's hint may ask to change: the caller words how (a flag, a form's field), as
# `ApiError.hint_in` says. The library names none of its callers' flags or variables.
Setting = Literal[
    "writes",  # the session's write policy
    "client",  # a service account's client ID and secret
    "api_key",  # an API key's public and private key
    "credentials",  # whichever credentials the session has
    "tokens",  # the service account's live tokens (revoking them)
    "api_version",  # the version asked for (the Accept's date)
    "openapi",  # the version asked for, or the API description that names one
    "accept",  # the request's own Accept
    "timeout",  # Bounds.timeout: each step of a request
    "deadline",  # Bounds.deadline: a whole request
    "max_body",  # Bounds.max_body: an answer's size
    "max_depth",  # Bounds.max_depth: a body's nesting
    "ca_bundle",  # the authority trusted for the service's certificate
    "base_url",  # where the session goes, and with what credentials
    "api_root",  # the base URL itself, where nothing answers as an API root does
    "service",  # which service to explore, when nothing says
    "profile",  # which profile of the config file
    "profiles",  # the config file's profiles: one to add there
    "account",  # the credentials themselves, when none were found: a service account's or an API key's
    "secret",  # a profile's secret, which its own place could not give
    "description",  # the API description
]

# A hint, and the setting that would help (for its caller to word), or None for either
Advice = tuple[str | None, Setting | None]

Kind = Literal[
    "http",  # an error document of the API (five fields, some may be missing)
    "oauth",  # an error document of the token endpoints
    "not-json",  # an error status whose body is not an error document (an HTML page from a proxy)
    "timeout",
    "connect",  # refused, reset, unreachable
    "tls",  # a certificate no authority this computer trusts signed
    "tls-certificate",  # a certificate wrong for the host itself: for other names, out of date
    "dns",
    "origin",  # a URL on another origin, which is never sent the credentials
    "insecure",  # plain http:// to a host that is not loopback
    "config",  # no or bad credentials, profile, CA bundle
    "too-large",  # an answer past Bounds.max_body, or a compression bomb: dropped, not read
    "token",  # a token endpoint's answer that cannot be used (reported without its content)
    "limit",  # one of the explorer's own limits reached (pages followed, a page seen twice)
    "description",  # an API description that cannot be used
    "href",  # a link whose href is not a URL: shown, never requested
    "digest",  # a Digest challenge that cannot be answered
    "read-only",  # a write by a session that may not write: not sent
    "once",  # a write sent a second time for one yes, or with none (once.py): not sent
    "journal",  # a write that the journal of writes could not note: not sent
]

# Whether a write was done, when its failure says: "no" (not sent, or refused and not sent again),
# "maybe" (it went, and no answer came to say).
Written = Literal["no", "maybe"]

IP_ADDRESS = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b|\b[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}\b")
PERMISSION_CODES = {"USER_UNAUTHORIZED", "NOT_ORG_GROUP_CREATOR", "NOT_IN_GROUP", "ORG_NOT_IN_GROUP"}
FORBIDDEN_HINT = "The service refuses this request for these credentials."
# An errorCode that says the request was understood and refused for the resource as it is (its state,
# a setting, its kind): `CANNOT_TERMINATE_CLUSTER_WHEN_TERMINATION_PROTECTION_ENABLED`, `…_NOT_ALLOWED`,
# `…_IN_PROGRESS`, `CLUSTER_ALREADY_REQUESTED_DELETION`; not a malformed request.
REFUSED_WORDS = {"CANNOT", "ALREADY", "MUST"}
REFUSED_PHRASES = ("NOT_ALLOWED", "IN_PROGRESS")
ROLES_HINT = "The credentials work but are not allowed here: check the roles of the account for this project."


@dataclass(eq=False)
class ApiError(Exception):
    """A failure, worded for a person: what happened, why, and what to do.

    What happened is `line()`, why and what to do is `hint`, and the error document's fields are
    kept when the service sent one. Every failure the library reports is one.

    A Resource whose status is 400 or more carries one as `resource.error`; a request that got no
    answer at all raises one. `str(error)` is `error.line()`. The library makes them; a script
    reads their fields, each kept as the attribute of its name.

    Args:
        kind: What sort of failure it is: "http" (the service's error document), "oauth" (a token
            endpoint's), "not-json" (an error status whose body is no error document, such as a
            proxy's HTML page), or one that had no answer or was never sent: "timeout", "connect",
            "tls", "tls-certificate", "dns", "origin", "insecure", "config", "too-large", "token",
            "limit", "description", "href", "digest", "read-only", "once", "journal".
        summary: What happened, in a few words: what `line()` says when there is no error
            document (after the status, when an answer came that is not one).
        method: The request's method, when there was a request.
        url: The request's URL, when there was a request.
        status: The answer's HTTP status, when an answer came.
        reason: The status's reason phrase (404 Not Found).
        error_code: The error document's `errorCode` (such as `RATE_LIMITED`), or the
            X-Error-Code header's.
        detail: The error document's `detail`: what the service says went wrong.
        parameters: The error document's `parameters`: the values the detail names.
        oauth_error: A token endpoint's `error` (such as `invalid_client`).
        oauth_description: A token endpoint's `error_description`.
        body: The answer's body (its first 4,096 bytes when made from an answer).
        retry_after: Seconds to wait before asking again, from the answer's Retry-After.
        rate_limit: The service's RateLimit-Limit for this request, when it said one.
        address: The client address an access-list failure names, when it names one.
        after_refresh: Whether this is a 401 that a renewed token got too.
        at_root: Whether the request was for the API root itself (the base URL): a 404 there
            says the base URL is wrong, not an ID in a path.
        credentials: What the request carried: "service account", "API key", or None.
        roles: The roles the API description requires for this operation.
        versions: The versions the API description documents for this operation.
        accept: The Accept the request sent.
        vendor: The name this API's versioned media types carry (`atlas`), when known.
        hint: Why it happened and what to do next. None works one out from the other fields, for
            the failures people meet most; it may stay None.
        sent: The request's headers as it went out (credentials as `***`), when it was sent and no
            answer came (refused, timed out); None when nothing was sent (another origin, no
            token): the Headers pane says which.
        setting: The setting that would change the outcome, when one would (a longer `deadline`,
            a CA bundle): the caller says how to change it in its own words (`hint_in`), since
            the library knows none of its callers' flags. Worked out with the hint when that is
            None.
        written: For a write, whether it was done, when that is known from its failure: "no" (not
            sent, or refused and not sent again), "maybe" (it went, and no answer came to say:
            look before sending it again); None for a read, or when the answer says.
    """

    kind: Kind
    summary: str
    method: str | None = None
    url: str | None = None
    status: int | None = None
    reason: str | None = None
    error_code: str | None = None
    detail: str | None = None
    parameters: list[Any] = field(default_factory=list)
    oauth_error: str | None = None
    oauth_description: str | None = None
    body: bytes = b""
    retry_after: float | None = None
    rate_limit: int | None = None  # the service's RateLimit-Limit for this request, when it said one
    address: str | None = None
    after_refresh: bool = False  # a 401 that a renewed token got too
    at_root: bool = False  # a request for the API root itself (the base URL)
    credentials: str | None = None  # what the request carried: "service account", "API key", or None
    roles: tuple[str, ...] = ()  # the roles the API description requires for this operation
    versions: tuple[str, ...] = ()  # the versions the API description documents for this operation
    accept: str | None = None  # the Accept the request sent
    vendor: str | None = None  # the name this API's versioned media types carry (`atlas`), when known
    hint: str | None = None
    # The request's headers as it went out (credentials as ***), when it was sent and no answer came
    # (refused, timed out); None when nothing was sent (another origin, no token): the Headers pane says which.
    sent: tuple[tuple[str, str], ...] | None = None
    setting: Setting | None = None
    written: Written | None = None  # for a write: "no" (not done), "maybe" (it went, no answer came)

    def __post_init__(self) -> None:
        super().__init__(self.summary)
        if self.hint is None:
            self.hint, setting = hint_for(self)
            self.setting = self.setting or setting
            if self.roles and self.hint in (ROLES_HINT, FORBIDDEN_HINT):
                self.hint += f" The API description requires {' or '.join(self.roles)} for {self.method} here."

    def __str__(self) -> str:
        return self.line()

    def hint_in(self, words: Mapping[str, str]) -> str | None:
        """Return the hint, then how to change its `setting` in the caller's own words.

        The library states what went wrong and what would help (a longer deadline); a command
        names its flag for that (the deadline's), a form its field.

        Args:
            words: For each setting the caller can change, how: one sentence.

        Returns:
            The hint and the caller's sentence for its setting, the hint alone when the caller
                has none for it, or None when there is neither.
        """
        return hint_with(self.hint, self.setting, words)

    def line(self) -> str:
        """Return the failure in one line (a status bar's, stderr's): status, code and detail, or what failed.

        Returns:
            For an answer's error, its status, then the error document's code and detail
                (`429 Too Many Requests · RATE_LIMITED: Too many requests`) or what the body is
                (`502 Bad Gateway · HTML page, not JSON`); for any other kind, the summary.
        """
        head = f"{self.status} {self.reason}" if self.status else ""
        if self.kind == "http":
            parts = [part for part in (self.error_code, self.detail) if part]
            text = ": ".join(parts) or "error"
            return f"{head} · {text}" if head and parts else head or text
        if self.kind == "oauth":
            text = f"{self.oauth_error}: {self.oauth_description}" if self.oauth_description else str(self.oauth_error)
            return f"{head} · {text}" if head else text
        if self.kind == "not-json":
            return f"{head} · {self.summary}" if head else self.summary
        return self.summary

    def full(self, words: Mapping[str, str] | None = None) -> str:
        """Return every field the failure has, one a line, then the hint.

        Args:
            words: How the caller says to change a hint's setting (`hint_in`); None for the
                library's hint alone.

        Returns:
            The rows of `fields()`, names padded to line up the values, one row a line.
        """
        rows = self.fields(words)
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)

    def fields(self, words: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
        """Return every field the failure has, named, then the hint: for a screen that lays them out.

        These are the rows of `full`, such as (`errorCode`, `RATE_LIMITED`).

        Args:
            words: How the caller says to change a hint's setting (`hint_in`); None for the
                library's hint alone.

        Returns:
            (name, value) pairs: the error's line first, then the request, status, error document's
                fields, Retry-After and address seen, each when it has one, and the hint last.
        """
        rows = [("error", self.line())]
        if self.method and self.url:
            rows.append(("request", f"{self.method} {self.url}"))
        for name, value in (
            ("status", f"{self.status} {self.reason}" if self.status else None),
            ("errorCode", self.error_code),
            ("detail", self.detail),
            ("parameters", json.dumps(self.parameters) if self.parameters else None),
            ("error (OAuth)", self.oauth_error),
            ("description", self.oauth_description),
            ("retry after", f"{self.retry_after:g} s" if self.retry_after is not None else None),
            ("address seen", self.address),
        ):
            if value is not None:
                rows.append((name, value))
        if hint := self.hint_in(words or {}):
            rows.append(("hint", hint))
        return rows


def reason_of(status: int) -> str:
    """Return a status's reason phrase (404 -> Not Found); 'Unknown Status' for one HTTP has not named."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown Status"


def retry_after(value: str | None, now: float) -> float | None:
    """Return the seconds to wait from a Retry-After header: a number of seconds, or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():  # `²` and 4,000 digits are digits too: parse_count() takes only a usable count
        seconds = parse_count(value)
        return None if seconds is None else float(seconds)
    try:
        moment = parsedate_to_datetime(value)
        return max(0.0, moment.timestamp() - now)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def unwrap(document: Any) -> Any:
    """Return the error document inside an envelope ({status, content}), or the document as it is."""
    if isinstance(document, dict) and set(document) == {"status", "content"} and isinstance(document["content"], dict):
        return document["content"]
    return document


def from_response(
    method: str,
    url: str,
    status: int,
    headers: httpx.Headers,
    body: bytes,
    now: float,
    *,
    after_refresh: bool = False,
    at_root: bool = False,
    credentials: str | None = None,
    roles: tuple[str, ...] = (),
    versions: tuple[str, ...] = (),
    accept: str | None = None,
    vendor: str | None = None,
    max_depth: int = MAX_DEPTH,
) -> ApiError:
    """Return the error a failed response carries, whatever its shape.

    `roles` and `versions` are what the API description says of the operation, `accept` what the
    request sent and `vendor` the name of the API's media types, for the hint. A body nested past
    `max_depth` is no document: the error names the limit, with the status's own hint and how to
    read deeper. `at_root` says the request was for the API root itself (the base URL).
    """
    common: dict[str, Any] = {
        "method": method,
        "url": url,
        "status": status,
        "reason": reason_of(status),
        "body": body[:4096],
        "retry_after": retry_after(headers.get("retry-after"), now),
        "rate_limit": parse_count(headers.get("ratelimit-limit")),
        "after_refresh": after_refresh,
        "at_root": at_root,
        "credentials": credentials,
        "roles": roles,
        "versions": versions,
        "accept": accept,
        "vendor": vendor,
    }
    try:
        document = unwrap(json_within(body, max_depth)) if body.strip() else None
    except TooDeep as deep:
        status_hint = ApiError("http", str(deep), **common).hint  # what the status alone says to do
        hint = f"{status_hint} {deep.hint}" if status_hint else deep.hint
        return ApiError("not-json", str(deep), hint=hint, setting=deep.setting, **common)
    except ValueError:  # UnicodeDecodeError is one
        document = None
    if isinstance(document, dict) and isinstance(document.get("error"), str):
        description = document.get("error_description")
        return ApiError(
            "oauth",
            f"{status} {document['error']}",
            oauth_error=document["error"],
            oauth_description=description if isinstance(description, str) else None,
            **common,
        )
    if isinstance(document, dict) and ({"errorCode", "detail", "reason"} & document.keys()):
        parameters = document.get("parameters")
        detail = document.get("detail")
        code = document.get("errorCode") or headers.get("x-error-code")
        return ApiError(
            "http",
            f"{status} {code or reason_of(status)}",
            error_code=code if isinstance(code, str) else None,
            detail=detail if isinstance(detail, str) else None,
            parameters=parameters if isinstance(parameters, list) else [],
            address=seen_address(code, detail, parameters),
            **common,
        )
    return ApiError("not-json", describe_body(headers, body), error_code=headers.get("x-error-code"), **common)


def describe_body(headers: httpx.Headers, body: bytes) -> str:
    """Return what a body that is not an error document is, in a few words."""
    media = headers.get("content-type", "").split(";")[0].strip() or "no content type"
    head = body.lstrip()[:200].lower()
    if media == "text/html" or head.startswith((b"<!doctype html", b"<html")):
        return "HTML page, not JSON"
    if not body:
        return "empty body"
    if media.endswith("json") or head.startswith((b"{", b"[")):
        return "JSON, but not an error document"
    return f"{media} body, not JSON"


def seen_address(code: Any, detail: Any, parameters: Any) -> str | None:
    """Return the client address an access-list failure names, when it names one."""
    if code != "IP_ADDRESS_NOT_ON_ACCESS_LIST":
        return None
    for candidate in [*(parameters or []), detail]:
        if isinstance(candidate, str):
            match = IP_ADDRESS.search(candidate)
            if match:
                return match.group(0)
    return None


def from_exception(error: Exception, method: str, url: str, timeout: float | None = None) -> ApiError:
    """Return a failure below HTTP, classified by what the operating system and TLS reported."""
    common: dict[str, Any] = {"method": method, "url": url}
    host = httpx.URL(url).host
    if isinstance(error, httpx.TimeoutException):
        after = f" after {timeout:g} s" if timeout else ""
        return ApiError("timeout", f"No answer{after}: {method} {url}", **common)
    chain = causes(error)
    handshake = next((e for e in chain if isinstance(e, ssl.SSLError)), None)
    if handshake is not None:
        failure = tls_failure(handshake, host)
        return ApiError(failure.kind, failure.summary, hint=failure.hint, **common)
    if any(isinstance(e, socket.gaierror) for e in chain) or "Name or service not known" in str(error):
        return ApiError("dns", f"The host name {host} does not resolve", **common)
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or "refused" in str(error).lower():
        return ApiError("connect", f"Connection refused by {host}:{httpx.URL(url).port or 443}", **common)
    plain = httpx.URL(url).scheme == "http"
    if plain and any(isinstance(e, httpx.RemoteProtocolError | httpx.ReadError) for e in chain):
        # A TLS server takes plain HTTP for a broken handshake, and hangs up without an answer.
        https = str(httpx.URL(url).copy_with(scheme="https", path="/", query=None)).rstrip("/")
        return ApiError(
            "connect",
            f"{host} hung up on plain HTTP without an answer: it seems to speak HTTPS",
            hint=f"Try {https} in the base URL (the explorer's sandbox serves HTTPS unless told not to).",
            **common,
        )
    return ApiError("connect", f"Network error with {host}: {short(str(error)) or type(error).__name__}", **common)


def causes(error: BaseException) -> list[BaseException]:
    """Return an exception and what caused it, outermost first, each once (a cycle of causes ends)."""
    chain, seen = [], set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def short(text: str) -> str:
    """Return text on one line, cut at 160 characters: for a body quoted in a message."""
    text = " ".join(text.split())
    return text if len(text) <= 160 else text[:157] + "..."


def hint_with(hint: str | None, setting: str | None, words: Mapping[str, str]) -> str | None:
    """Return a hint, then the caller's sentence for its setting, when the caller has one.

    As `ApiError.hint_in` and `Resource.json_hint_in` word it.
    """
    how = words.get(setting) if setting else None
    if how is None:
        return hint
    return f"{hint} {how}" if hint else how


def version_hint(error: ApiError) -> Advice:
    """Return the advice for a 406: a version (one the description documents), or another Accept.

    On a versioned API a version is wanted; elsewhere, another Accept is.
    """
    try:
        vendor = vendor_of(urlsplit(error.url or "").path) or error.vendor
    except ValueError:  # a URL the service wrote that is not one
        vendor = error.vendor
    if vendor or error.error_code == "INVALID_VERSION_DATE":
        media = f"application/vnd.{vendor or '<vendor>'}.DATE+json"
        documented = f"API description documents {', '.join(error.versions)} for this resource"
        if error.accept is not None and "+json" not in error.accept.lower().partition("vnd.")[2]:
            example = media.replace("DATE", error.versions[-1]) if error.versions else media
            its = f", and its {documented}" if error.versions else ""
            return (
                f"The Accept sent ({error.accept}) names no version: this API wants {media}{its}. For example: "
                f"Accept: {example}.",
                "api_version",
            )
        if error.versions:
            return f"This API wants a version in the Accept header ({media}); the {documented}.", "api_version"
        return (
            f"This API wants a version in the Accept header ({media}): name one, or give the service's API "
            "description (each request then names the newest version it documents).",
            "openapi",
        )
    return (
        "The service has no version of this resource for the Accept sent (application/json): ask for a version "
        "the detail names, in an Accept of your own.",
        "accept",
    )


def describe_limits(error: ApiError) -> str:
    """Return what the service stated of the limit a 429 hit: its token bucket, its RateLimit-Limit."""
    if error.error_code == "RATE_LIMITED_TOKEN_BUCKET" and len(error.parameters) >= 5:
        capacity, refill, every = (parse_count(str(value)) for value in error.parameters[2:5])
        if capacity and refill and every:
            return f"These endpoints take a burst of {capacity} requests, refilled at {refill} every {every} s."
    if error.rate_limit is not None:
        return f"The service allows {error.rate_limit} requests here (its RateLimit-Limit)."
    return "Limits count per project and at the token endpoints (10 a minute)."


def refuses_as_it_is(code: str | None) -> bool:
    """Return whether an errorCode refuses a request for the resource as it is, not as malformed.

    Such codes are `CANNOT_…`, `…_NOT_ALLOWED`, `…_IN_PROGRESS`, `…_ALREADY_…`.
    """
    if not code:
        return False
    return bool(REFUSED_WORDS & set(code.upper().split("_"))) or any(
        phrase in code.upper() for phrase in REFUSED_PHRASES
    )


def root_hint(url: str | None) -> str:
    """Return the hint for a 404 of the API root itself: the base URL is likely wrong, and a root's shape."""
    root = str(httpx.URL(url).copy_with(query=None, fragment=None)).rstrip("/") if url else "the base URL"
    return (
        f"Nothing is at {root}, the API root itself: the base URL is likely wrong. An API root is the address "
        "where the API starts, such as https://HOST/api/atlas/v2, or the sandbox's https://HOST/api/service/v1.0."
    )


def hint_for(error: ApiError) -> Advice:
    """Return what to try next, for the failures people meet most, and the setting that would help."""
    code, status = error.error_code, error.status
    if error.kind == "read-only":
        return "Nothing was sent.", "writes"
    if code == "NOT_IN_RECORDING":
        return "This is a replay: only what was recorded answers. Ask for a path (and query) the recording holds.", None
    if error.oauth_error == "invalid_client":
        return "Check the client ID and secret.", "client"
    if error.oauth_error == "access_denied" and "token limit" in (error.oauth_description or "").lower():
        return (
            "This service account holds as many live tokens as it may (100 on the real service): revoke the ones "
            "not in use, or wait for some to expire (an hour).",
            "tokens",
        )
    if error.oauth_error == "access_denied" or code == "IP_ADDRESS_NOT_ON_ACCESS_LIST":
        # Not "GET /api/private/ipinfo shows it": that needs these credentials, which are what is refused.
        where = (
            f"the address {error.address}; add it,"
            if error.address
            else "your address (as the service sees it: your network's public address); add it to the list,"
        )
        hint = f"The access list of these credentials does not allow {where} or connect from an allowed one."
        if code == "IP_ADDRESS_NOT_ON_ACCESS_LIST" and error.credentials == "service account":
            hint += " The token was issued all the same: the list is checked when a token is used."
        return hint, None
    if error.oauth_error in ("invalid_request", "unsupported_grant_type"):
        return "The token request was malformed; this is a client bug worth reporting.", None
    if status == 429:
        wait = f"retry in {error.retry_after:g} s" if error.retry_after is not None else "wait a minute and retry"
        return f"Rate limited: {wait}. {describe_limits(error)}", None
    if status == 503 or error.oauth_error == "server_error":
        wait = f"retry in {error.retry_after:g} s" if error.retry_after is not None else "retry later"
        return f"The service is unavailable: {wait}.", None
    if status == 401 and code in PERMISSION_CODES:
        return ROLES_HINT, None
    if status == 401 and error.credentials == "API key":  # the Digest challenge was answered, and refused
        return (
            "The API key was refused: check the public and private key; if the key works elsewhere, it has no role "
            "for this resource.",
            "api_key",
        )
    if status == 401 and error.after_refresh:
        return ROLES_HINT, None
    if status == 401:
        return "Authentication failed: check the credentials, then retry.", "credentials"
    if status == 403:
        return FORBIDDEN_HINT, None
    if status == 404 and error.at_root:
        return root_hint(error.url), "api_root"
    if status == 404:
        return "Nothing is there: check the IDs in the path, or reach it by following links from the root.", None
    if status == 400 and refuses_as_it_is(code):
        return (
            "The request is well formed, but the resource as it is now does not allow it: the detail says what "
            "stands in the way (a setting to turn off first, an operation still going on, another API for this "
            "kind of resource).",
            None,
        )
    if status == 400:
        return "The service refused the request as malformed: the detail and parameters name what to change.", None
    if status == 406:
        return version_hint(error)
    if status == 410 and code == "VERSION_GONE":
        return "This version of the resource is past its sunset: ask for a newer one.", "api_version"
    if error.kind == "not-json" and status and status >= 500:
        return "Something between you and the service answered instead of it (a proxy or gateway): retry later.", None
    if error.kind == "timeout":
        return "Check the network and the base URL; the service may also be slow right now.", "timeout"
    if error.kind == "connect":
        return "Is the base URL right, and is the service (or explorer sandbox) running there?", None
    if error.kind == "dns":
        return "Check the host name in the base URL.", None
    if error.kind == "tls":
        return "The certificate is not trusted: name its authority (for the sandbox, its sandbox-ca.pem).", "ca_bundle"
    return None, None


class ConfigError(ApiError):
    """Credentials, a profile or a URL that cannot be used, and why.

    An ApiError of kind "config" (so `except ApiError` catches it too), raised before a request is
    sent: by `Credentials.resolve` (a profile, the config file, a secret, a CA bundle), and by
    `Session` (no credentials, a CA bundle or proxy it cannot use).

    Args:
        summary: What cannot be used, and why, in one line.
        hint: What to do about it (where to set what), or None.
        setting: The setting that would help, for the caller to word (`ApiError.setting`).
    """

    def __init__(self, summary: str, hint: str | None = None, setting: Setting | None = None) -> None:
        super().__init__("config", summary, hint=hint, setting=setting)
