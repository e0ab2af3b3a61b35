"""GET …/rateLimits: the token buckets of a sandbox started with `rate_limits="bucket"`.

Each endpoint set with its scope, capacity and refill, and for the caller what is left in each
bucket it can spend from: one per project or organization it sees, or its own. Looking spends
nothing. In the default minute windows there are no buckets to show: 404, saying how to get them.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.buckets import EndpointSet
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.limits import TokenBuckets
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS, page
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import hrefs, not_found, reply, sandbox, world


def token_buckets(request: Request) -> TokenBuckets:
    limits = sandbox(request).limits
    if not isinstance(limits, TokenBuckets):
        rate = sandbox(request).settings.rate_limit
        raise ApiProblem(
            404,
            "RESOURCE_NOT_FOUND",
            f"This sandbox counts requests in fixed one-minute windows ({rate} a minute per project), not in "
            "token buckets: start it with --rate-limits bucket to inspect its buckets here.",
            [request.url.path],
        )
    return limits


def scopes(request: Request, spec: EndpointSet) -> list[tuple[str, str]]:
    """(ID, name) of each bucket of this set the caller can spend from."""
    if spec.scope == "PROJECT":
        return [(p.id, p.fields["name"]) for p in world(request).visible_projects()]
    if spec.scope == "ORGANIZATION":
        return [(o.id, o.fields["name"]) for o in world(request).orgs.values()]
    user = request.scope["explorer.user"]
    return [(user, user)]


def endpoint_set_document(request: Request, url_of: Hrefs, limits: TokenBuckets, spec: EndpointSet) -> dict[str, Any]:
    fields = {
        "buckets": [
            {"name": name, "remaining": limits.remaining(spec, key), "scopeId": key}
            for key, name in scopes(request, spec)
        ],
        "capacity": spec.capacity,
        "id": spec.id,
        "name": spec.name,
        "refillRate": spec.refill_rate,
        "refillSeconds": spec.refill_seconds,
        "requests": spec.requests,
        "scope": spec.scope,
    }
    return with_links(fields, [url_of.link("self", "rateLimits", spec.id)])


@takes(PAGE_PARAMS)
async def list_rate_limits(request: Request) -> Response:
    """Return the endpoint sets of the rate limits, and what is left in each bucket for the caller.

    Answers 404 unless the sandbox limits requests with token buckets (--rate-limits bucket)."""
    limits = token_buckets(request)
    query = Query(request, PAGE_PARAMS)
    url_of = hrefs(request)
    sets = list(limits.sets.values())
    # Rendered afresh each time (not through the list cache): what is left changes without writes.
    listed = page(
        request, query, url_of("rateLimits"), sets, lambda s: endpoint_set_document(request, url_of, limits, s)
    )
    return reply(request, query, listed.document())


async def get_rate_limit(request: Request) -> Response:
    """Return one endpoint set of the rate limits, and what is left in its buckets for the caller.

    Answers 404 unless the sandbox limits requests with token buckets (--rate-limits bucket)."""
    limits = token_buckets(request)
    set_id = request.path_params["endpointSetId"]
    spec = limits.sets.get(set_id)
    if spec is None:
        raise not_found(
            "RESOURCE_NOT_FOUND",
            f"No endpoint set with ID {set_id} exists; the sandbox has {', '.join(limits.sets)}.",
            set_id,
        )
    return reply(request, Query(request), endpoint_set_document(request, hrefs(request), limits, spec))
