"""What every resource handler needs: the sandbox, links, lookups that fail as documents, replies."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.documents import DEFAULT_VERSION, ApiProblem, json_response
from explorer.sandbox.links import Hrefs, origin, sparse
from explorer.sandbox.pages import PAGE_PARAMS, page
from explorer.sandbox.query import Query
from explorer.sandbox.state import Sandbox
from explorer.sandbox.world import OBJECT_ID, Org, Project, World

T = TypeVar("T")
VENDOR_TYPE = re.compile(r"application/vnd\.service\.([0-9]{4}-[0-9]{2}-[0-9]{2})\+json")
GENERIC_TYPES = {"", "*/*", "application/*", "application/json"}


def sandbox(request: Request) -> Sandbox:
    return request.app.state.sandbox


def world(request: Request) -> World:
    return request.app.state.sandbox.world


def hrefs(request: Request) -> Hrefs:
    return Hrefs(origin(request.scope))


def negotiate(request: Request, versions: Sequence[str]) -> str:
    """The resource version the Accept header selects; the first (oldest) by default (spec 9)."""
    asked, generic = [], False
    for part in request.headers.get("accept", "").split(","):
        media = part.split(";", 1)[0].strip().lower()
        match = VENDOR_TYPE.fullmatch(media)
        if match:
            asked.append(match.group(1))
        elif media in GENERIC_TYPES:
            generic = True
    for version in asked:
        if version in versions:
            return version
    if asked and not generic:
        raise ApiProblem(
            406,
            "UNSUPPORTED_API_VERSION",
            f"This resource has no version {', '.join(asked)}; it has {', '.join(versions)}.",
            asked,
        )
    return versions[0]


def linked(request: Request, document: Any) -> Any:
    """The document with the links this sandbox gives: every relation, or as few as the real
    service gives (settings.links). The one place that choice is made."""
    return sparse(document) if sandbox(request).settings.links == "sparse" else document


def reply(
    request: Request,
    query: Query,
    document: Any,
    *,
    status: int = 200,
    versions: Sequence[str] = (DEFAULT_VERSION,),
) -> Response:
    version = negotiate(request, versions)
    return json_response(request, linked(request, document), status=status, version=version, fmt=query.format)


def list_reply(
    request: Request,
    items: Sequence[T],
    render: Callable[[T], dict[str, Any]],
    href: str,
    versions: Sequence[str] = (DEFAULT_VERSION,),
) -> Response:
    """A page of `items`, rendering only those on it."""
    query = Query(request, PAGE_PARAMS)
    version = negotiate(request, versions)
    document = page(request, query, href, items, render, version)
    return json_response(request, document, version=version, fmt=query.format)


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
