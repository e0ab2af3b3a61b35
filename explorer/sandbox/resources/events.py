"""Events of a project and of an organization, newest first, filterable by type and date."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS, page
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import find, find_org, find_project, hrefs, reply
from explorer.sandbox.world import EventLog, Record

FILTERS = frozenset({"eventType", "minDate", "maxDate"})


def event_document(url_of: Hrefs, owner: tuple[str, str], event: Record, full: bool) -> dict[str, Any]:
    links = [url_of.link("self", *owner, "events", event["id"])]
    if full:
        links.append(url_of.link("org" if owner[0] == "orgs" else "group", *owner))
    return with_links(event, links)


def select(log: EventLog, query: Query) -> Sequence[Record]:
    types = set(query.many("eventType"))
    low, high = query.date("minDate"), query.date("maxDate")
    if not (types or low or high):
        return log.newest_first
    low_text = low.strftime("%Y-%m-%dT%H:%M:%SZ") if low else ""
    high_text = high.strftime("%Y-%m-%dT%H:%M:%SZ") if high else "~"
    return [
        e
        for e in log.newest_first
        if (not types or e["eventTypeName"] in types) and low_text <= e["created"] <= high_text
    ]


def event_list(request: Request, owner: tuple[str, str], log: EventLog) -> Response:
    query = Query(request, PAGE_PARAMS | FILTERS)
    url_of = hrefs(request)
    items = select(log, query)
    return reply(
        request,
        query,
        page(request, query, url_of(*owner, "events"), items, lambda e: event_document(url_of, owner, e, False)),
    )


def event_entity(request: Request, owner: tuple[str, str], log: EventLog) -> Response:
    event_id = request.path_params["eventId"]
    event = find(log.by_id, event_id, "EVENT_NOT_FOUND", f"No event with ID {event_id} exists.")
    return reply(request, Query(request), event_document(hrefs(request), owner, event, True))


@takes(PAGE_PARAMS | FILTERS)
async def project_events(request: Request) -> Response:
    """Return the events of a project, newest first; by type and date if asked."""
    project = find_project(request)
    return event_list(request, ("groups", project.id), project.events)


async def project_event(request: Request) -> Response:
    """Return one event of a project."""
    project = find_project(request)
    return event_entity(request, ("groups", project.id), project.events)


@takes(PAGE_PARAMS | FILTERS)
async def org_events(request: Request) -> Response:
    """Return the events of an organization, newest first; by type and date if asked."""
    org = find_org(request)
    return event_list(request, ("orgs", org.id), org.events)


async def org_event(request: Request) -> Response:
    """Return one event of an organization."""
    org = find_org(request)
    return event_entity(request, ("orgs", org.id), org.events)
