"""What one response means: the request, the body as received, its JSON, links, page, versions.

Everything past the raw response is worked out on first use, so fetching stays cheap and a
body that is not JSON costs nothing until something asks.

Link and Page are here beside Resource because they are only ever made from one, by its lazy
properties; each is a few lines.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from explorer.api import errors
from explorer.api.description import Operation
from explorer.api.errors import ApiError
from explorer.api.json_errors import why_not_json
from explorer.api.ratelimit import bucket_of
from explorer.api.values import MAX_DEPTH, TooDeep, json_within

VENDOR_MEDIA = re.compile(r"application/vnd\.([A-Za-z0-9_-]+)\.([^+;\s]+)\+json", re.IGNORECASE)
PLAIN_RELS = ("self", "next", "previous")
TRUE = ("true", "1")
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
MAX_COUNT = 10**15  # a totalCount above this is no count a service keeps: shown as not counted


@dataclass(frozen=True)
class Link:
    """A relation of an entity: `rel` as sent (often an absolute URI) and its target.

    `problem` says why `href` cannot be followed (it is not a URL): such a link is shown, marked,
    and never requested. It is worked out when first asked (a page of 500 items has a link or
    more each, and most are never looked at).

    A Resource makes them from its document's `links` (spec 2.7); a script reads them.

    Args:
        rel: The relation, as the service sent it: a plain one (`self`, `next`) or a vendor's
            absolute URI (`https://cloud.example.com/clusters`).
        href: Where it leads, as the service sent it: usually a URL, which `Session.fetch`
            accepts as it is.
    """

    rel: str
    href: str

    @cached_property
    def problem(self) -> str | None:
        """Why `href` cannot be followed (it is not a URL), or None.

        The reason is a few words, such as `it has a control character`.
        """
        return href_problem(self.href)

    @property
    def name(self) -> str:
        """The rel without the vendor prefix: https://cloud.example.com/clusters -> clusters.

        An absolute rel's path, without its slashes at either end; a plain rel, one that is not a URL, or
        one with no path, as it is.
        """
        if "://" not in self.rel:
            return self.rel
        try:
            path = urlsplit(self.rel).path.strip("/")
        except ValueError:  # a rel the server wrote that is not a URL: its text is its name
            return self.rel
        return path or self.rel

    @property
    def extension(self) -> bool:
        """Whether the rel is a vendor's extension (an absolute URI), not a plain one (self, next).

        That is, when it holds `://`.
        """
        return "://" in self.rel


def links_of(document: Any) -> list[Link]:
    """Return the `links` of a document, skipping entries that are not {rel, href} strings."""
    if not isinstance(document, dict) or not isinstance(document.get("links"), list):
        return []
    found = []
    for entry in document["links"]:
        if isinstance(entry, dict) and isinstance(entry.get("href"), str) and isinstance(entry.get("rel"), str):
            found.append(Link(entry["rel"], entry["href"]))
    return found


@lru_cache(maxsize=4096)  # the same hrefs come back with every page turned back and forth
def href_problem(href: str) -> str | None:
    """Return why `href` cannot be requested, or None: parsed here, once, so nothing past this raises on it."""
    if CONTROL.search(href):
        return "it has a control character"
    try:
        parts = urlsplit(href)
        parts.port  # noqa: B018 - a port that is not a number raises only when read
        httpx.URL(href)
    except (ValueError, httpx.InvalidURL) as error:
        return str(error) or "it is not a URL"
    return None


@dataclass(frozen=True)
class Page:
    """One page of a list (spec 2.5): its items, the count, and where the next and previous are.

    A list answered as a bare JSON array is one page that is the whole list, not `paged`.

    A Resource makes it (`resource.page`, `resource.page_or_array`); a script reads it.

    Args:
        results: The items on this page, as the document has them.
        total: How many items the whole list has (`totalCount`); None when it was not counted
            (`includeCount=false`) or the count is not one a list can have.
        number: Which page this is, from 1: the `pageNum` of the self link, else of the request;
            1 when neither says.
        size: How many items each page holds: the `itemsPerPage` of the self link, else of the
            request; 100 when neither says.
        self_href: The link to this page, if the document gives one that can be requested.
        next_href: The link to the next page; None on the last one.
        previous_href: The link to the previous page; None on the first one.
        paged: False for a bare array: the whole list, on one page.
    """

    results: list[Any]
    total: int | None
    number: int
    size: int
    self_href: str | None
    next_href: str | None
    previous_href: str | None
    paged: bool = True

    @classmethod
    def from_array(cls, items: list[Any]) -> Page:
        """Return a bare array as a page: page 1 of 1, every item on it, nothing before or after.

        Args:
            items: The array's items.

        Returns:
            A Page that is not `paged`, whose total and size are the number of items.
        """
        return cls(items, len(items), 1, len(items), None, None, None, paged=False)

    @property
    def pages(self) -> int | None:
        """How many pages the list has, when its total is known.

        The total divided by the page size, rounded up, and at least 1; None when the total is not known (or
        the size is 0).
        """
        if self.total is None:
            return None
        return max(1, math.ceil(self.total / self.size)) if self.size > 0 else None


@dataclass(kw_only=True, eq=False)  # two answers are two, even with the same bytes: compared as themselves
class Resource:
    """One response of the API, as received, and what it means.

    `Session.fetch` and `Session.send_write` make one for every answer, errors included; a script reads
    it. Each field is given by name and kept as the attribute of that name (`resource.status`,
    `resource.body`), beside `reason`, the status's reason phrase (Not Found). What the body means
    (its JSON, links, page, error) is worked out when first asked, and kept.

    Attributes:
        method: The request's method (`GET`).
        url: The request's URL, as sent.
        status: The answer's HTTP status.
        headers: The answer's headers.
        request_headers: The request's headers as sent, credentials already shown as `***`.
        body: The answer's body, as received (decompressed).
        elapsed: Seconds from sending the request to having the whole body.
        received_at: When the answer came, in seconds since the epoch by the session's clock.
        http_version: The HTTP version the answer came in (`HTTP/1.1`, `HTTP/2`).
        foreign: Whether it was fetched from another origin, without credentials.
        after_refresh: Whether the request was refused (401) and sent again with a renewed
            token: a 401 then is about permissions, not the token.
        at_root: Whether the request was for the API root itself (the session's base URL): a
            404 there says the base URL is wrong.
        credentials: What the request carried: "service account", "API key", or None.
        operation: What the API description says of this request, when there is one: the
            roles and versions an error's hint names.
        vendor: The name the API's versioned media types carry (`atlas`), when it has them.
        max_depth: How many levels of nesting the body may have to be read as JSON: the views
            that walk a document (the pretty view, the field tree) stay within it.
        reason: The status's reason phrase (`Not Found`), worked out from `status`: not given.
    """

    method: str
    url: str
    status: int
    headers: httpx.Headers
    request_headers: list[tuple[str, str]]  # credentials already shown as ***
    body: bytes
    elapsed: float
    received_at: float
    http_version: str = "HTTP/1.1"
    foreign: bool = False  # fetched from another origin, without credentials
    after_refresh: bool = False  # refused, then refused again with a renewed token
    at_root: bool = False  # a request for the API root itself (the session's base URL)
    credentials: str | None = None  # what the request carried: "service account", "API key", or None
    operation: Operation | None = None  # what the API description says of this request, when there is one
    vendor: str | None = None  # the name the API's versioned media types carry, when it has them
    max_depth: int = MAX_DEPTH
    reason: str = field(init=False)  # the status's reason phrase, from `status`

    def __post_init__(self) -> None:
        self.reason = errors.reason_of(self.status)

    def __repr__(self) -> str:
        return f"<Resource {self.method} {self.url} {self.status}>"

    @property
    def size(self) -> int:
        """The body's size in bytes, as received."""
        return len(self.body)

    @cached_property
    def limit(self) -> str | None:
        """The rate limit the request counts against (ratelimit.bucket_of), or None for another origin's.

        `token` at the token endpoints, else the request's method and path (`GET /api/…`, HEAD read as GET).
        """
        return None if self.foreign else bucket_of(self.method, httpx.URL(self.url))

    @cached_property
    def query(self) -> list[tuple[str, str]]:
        """The request's query parameters, in order, blanks kept.

        As (name, value) pairs, decoded.
        """
        return parse_qsl(urlsplit(self.url).query, keep_blank_values=True)

    @cached_property
    def path(self) -> str:
        """The request's path.

        As sent, still percent-encoded, without its query.
        """
        return urlsplit(self.url).path

    def asked(self, name: str) -> str | None:
        """Return the value of a query parameter the request had, or None.

        Args:
            name: The parameter's name, such as `pageNum`.

        Returns:
            Its first value (blank if it was given blank), or None when the request had none.
        """
        return next((v for k, v in self.query if k == name), None)

    # The body ------------------------------------------------------------------------------

    @cached_property
    def media_type(self) -> str:
        """The Content-Type without its parameters, lower case.

        Such as `application/json`; an empty string when the answer has no Content-Type.
        """
        return str(self.headers.get("content-type", "")).split(";")[0].strip().lower()

    @cached_property
    def charset(self) -> str:
        """The Content-Type's charset; utf-8 when it names none.

        As the header names it, without quotes (`iso-8859-1`).
        """
        for part in self.headers.get("content-type", "").split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset" and value.strip():
                return str(value).strip().strip('"')
        return "utf-8"

    @cached_property
    def version(self) -> str | None:
        """The resource version of a vendor media type: application/vnd.x.2023-01-01+json -> 2023-01-01.

        None when the Content-Type is no vendor's versioned type.
        """
        match = VENDOR_MEDIA.search(self.headers.get("content-type", ""))
        return match.group(2) if match else None

    @cached_property
    def service_version(self) -> dict[str, str]:
        """X-…-Service-Version: gitHash=…; versionString=… as a dict.

        Each `name=value` part of the first header whose name starts with `X-` and ends with
        `Service-Version`; empty when there is none.
        """
        for name, value in self.headers.items():
            if name.lower().startswith("x-") and name.lower().endswith("service-version"):
                parts = (part.partition("=") for part in value.split(";"))
                return {k.strip(): v.strip() for k, _, v in parts if k.strip()}
        return {}

    @cached_property
    def parsed(self) -> tuple[Any, str | None, TooDeep | None]:
        """The body read as JSON: (JSON, None, None), or (None, why not, the nesting past `max_depth`).

        The nesting is there when it is why the body is not read. What `json`, `json_error`,
        `json_hint` and `json_setting` give; (None, None, None) for an empty body, or one of blanks
        only.
        """
        if not self.body.strip():
            return None, None, None
        try:
            text = self.body.decode(self.charset)
        except (LookupError, ValueError) as error:  # a charset with no text codec; bytes not in it
            return None, f"not {self.charset} text: {error}", None
        try:
            return json_within(text, self.max_depth), None, None
        except TooDeep as error:
            return None, str(error), error
        except ValueError as error:
            return None, f"not JSON: {why_not_json(error)}", None

    @cached_property
    def text(self) -> str:
        """The body as text to read: in its charset when its JSON was read in it, else as UTF-8.

        A byte that does not decode shows as U+FFFD. Never an error: the charset is the server's word.
        """
        charset = self.charset if self.json_error is None else "utf-8"
        try:
            return self.body.decode(charset, "replace")
        except (LookupError, ValueError):  # a blank body in a charset no codec reads (`x-unknown`, `undefined`)
            return self.body.decode("utf-8", "replace")

    def prepare(self) -> Resource:
        """Work out now what the screen will ask of the body: its JSON, its links, its page, its error.

        For a thread: a big body is decoded a piece at a time, so the screen answers keys meanwhile.

        Returns:
            This resource, each of those now kept.
        """
        self.links  # noqa: B018 - each is worked out once and kept
        self.page_or_array  # noqa: B018
        self.error  # noqa: B018
        return self

    @property
    def json(self) -> Any:
        """The body's JSON, or None (see json_error for why).

        An object is a dict, an array a list. None also for an empty body, a body nested past `max_depth`,
        and the JSON `null`.
        """
        return self.parsed[0]

    @property
    def json_error(self) -> str | None:
        """Why the body is not read as JSON, or None.

        Such as `not JSON: …` or `not utf-8 text: …`, or the nesting past `max_depth`; None when the body is
        JSON, or empty.
        """
        return self.parsed[1]

    @property
    def json_hint(self) -> str | None:
        """What to do about json_error, when something can be done (a higher depth limit that reads it)."""
        deep = self.parsed[2]
        return deep.hint if deep is not None else None

    @property
    def json_setting(self) -> str | None:
        """The setting that would read the body as JSON ("max_depth"), when one would.

        The caller words how to change it, as for `ApiError.hint_in`.
        """
        deep = self.parsed[2]
        return deep.setting if deep is not None else None

    def json_hint_in(self, words: Mapping[str, str]) -> str | None:
        """Return what to do about json_error, then how to change its setting in the caller's words.

        As `ApiError.hint_in` says it.

        Args:
            words: For each setting the caller can change, how: one sentence.

        Returns:
            The hint, and the caller's sentence for its setting when it has one; None without a hint.
        """
        return errors.hint_with(self.json_hint, self.json_setting, words)

    @cached_property
    def enveloped(self) -> bool:
        """Whether the client asked for envelope=true and got one.

        True when the query says `envelope=true` (or `1`) and the JSON is an object with a whole-number
        `status`.
        """
        return (
            (self.asked("envelope") or "").lower() in TRUE
            and isinstance(self.json, dict)
            and isinstance(self.json.get("status"), int)
        )

    @cached_property
    def document(self) -> Any:
        """The JSON with the envelope of spec 2.6 taken off when one was asked for.

        The envelope's `content`, or, without one, its other fields than `status`; the JSON as it is when
        there is no envelope.
        """
        if not self.enveloped:
            return self.json
        if "content" in self.json:
            return self.json["content"]
        return {k: v for k, v in self.json.items() if k != "status"}

    # Links and pages ----------------------------------------------------------------------

    @cached_property
    def links(self) -> list[Link]:
        """The document's links (spec 2.7), each {rel, href} entry; others skipped.

        In the document's order, those whose href is not a URL included (each says its `problem`); empty
        when the document has no `links` list.
        """
        return links_of(self.document)

    def link(self, rel: str) -> Link | None:
        """Return the first link with this rel (as sent, or its short name), or None.

        Args:
            rel: The rel as sent (`https://cloud.example.com/clusters`) or its short name
                (`clusters`).

        Returns:
            The first such link, even one whose href cannot be requested (`usable_link` skips
                those); None when there is none.
        """
        return next((link for link in self.links if link.rel == rel or link.name == rel), None)

    def usable_link(self, rel: str) -> Link | None:
        """Return the link with this rel if its href is a URL that can be requested, else None.

        Args:
            rel: The rel as sent, or its short name, as `link` takes it.

        Returns:
            The first link with this rel, unless its href cannot be requested; else None.
        """
        link = self.link(rel)
        return link if link is not None and link.problem is None else None

    @cached_property
    def relations(self) -> list[Link]:
        """The links to follow: all but self, next and previous.

        In the document's order.
        """
        return [link for link in self.links if link.rel not in PLAIN_RELS]

    @cached_property
    def page(self) -> Page | None:
        """A page of a paged list (spec 2.5): results, total, number, size and the pages beside.

        None when the document is not an object with a `results` array: a bare JSON array is no
        page here (`page_or_array` takes it too).
        """
        document = self.document
        if not isinstance(document, dict) or not isinstance(document.get("results"), list):
            return None
        self_link, next_link, previous = (self.usable_link(rel) for rel in ("self", "next", "previous"))
        asked = dict(self.query)
        if self_link:
            asked |= dict(parse_qsl(self_link.href.partition("?")[2].partition("#")[0]))
        total = document.get("totalCount")
        # The real service sends totalCount 0 when asked not to count; that 0 means "not counted".
        # A count no list can have (negative, or more than fits a float) is not a count either.
        if (
            not isinstance(total, int)
            or isinstance(total, bool)
            or not 0 <= total <= MAX_COUNT
            or asked.get("includeCount", "").lower() == "false"
        ):
            total = None
        return Page(
            results=document["results"],
            total=total,
            number=positive(asked.get("pageNum"), 1),
            size=positive(asked.get("itemsPerPage"), 100),
            self_href=self_link.href if self_link else None,
            next_href=next_link.href if next_link else None,
            previous_href=previous.href if previous else None,
        )

    @cached_property
    def page_or_array(self) -> Page | None:
        """The items of a list, whatever its shape: `page`, else a bare JSON array of objects as a page.

        A page of `{results}`, or a bare JSON array of objects (the real service answers some
        lists so) as one page that is the whole list (`Page.from_array`); what shows lists (the
        table, the tree) reads this. An array of names or numbers is no list: it has no fields to
        make columns of. `page` stays the spec's paged lists only.

        None for anything else.
        """
        document = self.document
        if self.page is not None or not isinstance(document, list):
            return self.page
        return Page.from_array(document) if all(isinstance(item, dict) for item in document) else None

    # Failure ---------------------------------------------------------------------------------

    @cached_property
    def error(self) -> ApiError | None:
        """The failure this answer is (status 400 and up), as an ApiError; None for a success.

        It is given, never raised: a script raises it when it wants to (`raise resource.error`).

        It has the error document's fields when the body is one, and a hint when there is one to give.
        """
        if self.status < 400:
            return None
        return errors.from_response(
            self.method,
            self.url,
            self.status,
            self.headers,
            self.body,
            self.received_at,
            after_refresh=self.after_refresh,
            at_root=self.at_root,
            credentials=self.credentials,
            roles=self.operation.roles if self.operation else (),
            versions=self.operation.versions if self.operation else (),
            accept=next((value for name, value in self.request_headers if name.lower() == "accept"), None),
            vendor=self.vendor,
            max_depth=self.max_depth,
        )


def positive(value: str | None, default: int) -> int:
    """Return a page number or size from a query: a whole number from 1 to 10^9, else `default`."""
    try:
        number = int(value) if value is not None else default
    except ValueError:
        return default
    return number if 0 < number <= 10**9 else default
