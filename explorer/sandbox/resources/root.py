"""The root resource (spec 4.7), where browsing starts, and ipinfo: the address the service sees."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.access import client_address
from explorer.sandbox.documents import GIT_HASH
from explorer.sandbox.links import rel, with_links
from explorer.sandbox.query import Query
from explorer.sandbox.resources.common import hrefs, reply, sandbox

IPINFO_PATH = "/api/private/ipinfo"


async def root(request: Request) -> Response:
    """Return the root resource, where browsing starts."""
    query = Query(request)
    url_of = hrefs(request)
    links = [
        url_of.link("self"),
        url_of.link("orgs", "orgs"),
        url_of.link("groups", "groups"),
        {"href": url_of.origin + IPINFO_PATH, "rel": rel("ipinfo")},
    ]
    if sandbox(request).settings.rate_limits == "bucket":
        links.append(url_of.link("rateLimits", "rateLimits"))
    document = {"appName": "Service Sandbox", "build": GIT_HASH, "throttling": False}
    return reply(request, query, with_links(document, links))


async def ipinfo(request: Request) -> Response:
    """Return the address the service sees the caller at."""
    query = Query(request)
    address = client_address(request.scope) or ""
    field = "currentIpv6Address" if ":" in address else "currentIpv4Address"
    self_link = {"href": hrefs(request).origin + IPINFO_PATH, "rel": "self"}
    return reply(request, query, with_links({field: address}, [self_link]))
