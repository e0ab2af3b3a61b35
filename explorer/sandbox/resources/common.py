"""What every resource handler needs: the sandbox, links, lookups that fail as documents, replies."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.access import client_address
from explorer.sandbox.documents import ApiProblem, common_headers, json_response
from explorer.sandbox.links import Hrefs, origin, sparse
from explorer.sandbox.pages import PAGE_PARAMS, page
from explorer.sandbox.query import Query
from explorer.sandbox.state import Sandbox
from explorer.sandbox.versions import FIRST, SCOPE_KEY
from explorer.sandbox.world import OBJECT_ID, Org, Project, World, new_event
from explorer.sandbox.writes import write_status

T = TypeVar("T")


def sandbox(request: Request) -> Sandbox:
    found: Sandbox = request.app.state.sandbox
    return found


def world(request: Request) -> World:
    return sandbox(request).world


def hrefs(request: Request) -> Hrefs:
    return Hrefs(origin(request.scope))


def version(request: Request) -> str:
    """The version this request is answered in, chosen by its Accept header before its handler ran
    (resources/__init__.py); the first version where no resource of the route table chose one."""
    chosen = request.scope.get(SCOPE_KEY)
    return chosen.date if chosen else FIRST.date


def linked(request: Request, document: Any) -> Any:
    """The document with the links this sandbox gives: every relation, or as few as the real
    service gives (settings.links). The one place that choice is made."""
    return sparse(document) if sandbox(request).settings.links == "sparse" else document


def reply(request: Request, query: Query, document: Any, *, status: int = 200) -> Response:
    return json_response(request, linked(request, document), status=status, version=version(request), fmt=query.format)


def list_reply(
    request: Request, items: Sequence[T], render: Callable[[T], dict[str, Any]], href: str, *, status: int = 200
) -> Response:
    """A page of `items`, rendering only those on it."""
    query = Query(request, PAGE_PARAMS)
    served = version(request)
    document = page(request, query, href, items, render, served)
    return json_response(request, document, status=status, version=served, fmt=query.format)


def done(request: Request, query: Query, document: Any = None) -> Response:
    """A write's answer, in the status its handler was declared with (writes.py): the entity it
    made or changed (201, 200), or no body at all (204 No Content, 202 Accepted), envelope or not."""
    status = write_status(request)
    if document is None:
        return Response(status_code=status, headers=common_headers(sandbox(request).clock()))
    return reply(request, query, document, status=status)


def now_of(request: Request) -> datetime:
    return datetime.fromtimestamp(sandbox(request).clock(), UTC).replace(microsecond=0)


def project_event(request: Request, project: Project, event_type: str, **details: Any) -> None:
    """Writes leave a trace in the project's events, as they do on the service, with the address
    they came from (what the service does on its own afterwards has none: operations.py)."""
    event = new_event(
        world(request).ids, project, now_of(request), event_type, remoteAddress=client_address(request.scope), **details
    )
    project.events.add(event)


def object_id(value: str, what: str, code: str) -> str:
    if not OBJECT_ID.fullmatch(value):
        raise ApiProblem(400, code, f"An invalid {what} ID {value} was specified.", [value])
    return value


def find_project(request: Request) -> Project:
    project_id = object_id(request.path_params["groupId"], "group", "INVALID_GROUP_ID")
    project = world(request).projects.get(project_id)
    if project is None:
        raise ApiProblem(404, "GROUP_NOT_FOUND", f"No group with ID {project_id} exists.", [project_id])
    if not project.authorized:
        raise ApiProblem(401, "USER_UNAUTHORIZED", "Current user is not authorized to perform this action.", [])
    return project


def find_org(request: Request) -> Org:
    org_id = object_id(request.path_params["orgId"], "organization", "INVALID_ORG_ID")
    org = world(request).orgs.get(org_id)
    if org is None:
        raise ApiProblem(404, "ORG_NOT_FOUND", f"No organization with ID {org_id} exists.", [org_id])
    return org


def not_found(code: str, detail: str, *parameters: Any) -> ApiProblem:
    return ApiProblem(404, code, detail, parameters)


def find(table: dict[Any, T], key: Any, code: str, detail: str, *parameters: Any) -> T:
    try:
        return table[key]
    except KeyError:
        raise not_found(code, detail, *(parameters or [key])) from None
