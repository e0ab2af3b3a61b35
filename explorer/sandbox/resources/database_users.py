"""Database users of a project: list, create, read, update, delete. Passwords go in, never out."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.access import client_address
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, parse_date, takes
from explorer.sandbox.resources.common import find, find_project, hrefs, list_reply, reply, world
from explorer.sandbox.resources.projects import now_of
from explorer.sandbox.world import Project, Record, iso
from explorer.sandbox.writes import TAGS, Check, Fields, identifier, list_of, obj, read_json, text

AUTH_TYPES = {"awsIAMType": "NONE", "ldapAuthType": "NONE", "oidcAuthType": "NONE", "x509Type": "NONE"}


def iso_date(value: Any) -> str | None:
    if not isinstance(value, str):
        return "an ISO 8601 date"
    try:
        parse_date("deleteAfterDate", value)
    except ApiProblem:
        return "an ISO 8601 date"
    return None


def database_name(value: Any) -> str | None:
    return None if value == "admin" else "admin (the authentication database of password users)"


ROLE: Check = obj(
    {"databaseName": text(1, 64), "roleName": text(1, 64), "collectionName": text(1, 255)},
    optional=("collectionName",),
)
SCOPE: Check = obj({"name": text(1, 64), "type": lambda v: None if v in ("CLUSTER", "DATA_LAKE") else "CLUSTER"})
WRITABLE: dict[str, Check] = {
    "password": text(8, 256),
    "roles": list_of(ROLE, "roles with databaseName and roleName", minimum=1),
    "scopes": list_of(SCOPE, "scopes with name and type"),
    "labels": TAGS,
    "deleteAfterDate": iso_date,
}
CREATE = Fields(
    writable={"databaseName": database_name, "username": text(1, 1024), "groupId": identifier, **WRITABLE},
    required=("databaseName", "username", "password", "roles"),
    read_only=frozenset({"links", *AUTH_TYPES}),
)
UPDATE = Fields(
    writable=WRITABLE,
    read_only=frozenset({"databaseName", "username", "groupId", "links", *AUTH_TYPES}),
)


def user_path(project: Project, user: Record) -> tuple[str, ...]:
    return ("groups", project.id, "databaseUsers", user["databaseName"], user["username"])


def database_user_document(h: Hrefs, project: Project, user: Record) -> dict[str, Any]:
    return with_links(user, [h.link("self", *user_path(project, user))])


def find_user(request: Request, project: Project) -> Record:
    key = (request.path_params["databaseName"], request.path_params["username"])
    return find(project.database_users, key, "USERNAME_NOT_FOUND", f"No user with username {key[1]} exists.", key[1])


def check_scopes(project: Project, fields: dict[str, Any]) -> None:
    for scope in fields.get("scopes", []):
        if scope["type"] == "CLUSTER" and scope["name"] not in project.clusters:
            raise ApiProblem(
                400,
                "INVALID_ATTRIBUTE",
                f"Invalid value for attribute scopes: no cluster named {scope['name']} exists in group {project.id}.",
                ["scopes"],
            )


def record_event(request: Request, project: Project, event_type: str, username: str) -> None:
    now = now_of(request)
    the_world = world(request)
    project.events.add(
        {
            "created": iso(now),
            "dbUserUsername": username,
            "eventTypeName": event_type,
            "groupId": project.id,
            "id": the_world.ids(now),
            "isGlobalAdmin": False,
            "remoteAddress": client_address(request.scope),
        }
    )


@takes(PAGE_PARAMS)
async def list_database_users(request: Request) -> Response:
    """Return the database users of a project."""
    project = find_project(request)
    h = hrefs(request)
    return list_reply(
        request,
        list(project.database_users.values()),
        lambda u: database_user_document(h, project, u),
        h("groups", project.id, "databaseUsers"),
    )


async def create_database_user(request: Request) -> Response:
    """Create a database user in a project."""
    project = find_project(request)
    query = Query(request)
    fields = CREATE.check(await read_json(request))
    if fields.get("groupId", project.id) != project.id:
        raise ApiProblem(
            400, "INVALID_ATTRIBUTE", "Invalid value for attribute groupId: it must match the path.", ["groupId"]
        )
    check_scopes(project, fields)
    key = (fields["databaseName"], fields["username"])
    if key in project.database_users:
        raise ApiProblem(
            409, "USER_ALREADY_EXISTS", "The specified database user already exists.", [fields["username"]]
        )
    user = {
        **AUTH_TYPES,
        "databaseName": fields["databaseName"],
        "groupId": project.id,
        "labels": fields.get("labels", []),
        "roles": fields["roles"],
        "scopes": fields.get("scopes", []),
        "username": fields["username"],
    }
    if "deleteAfterDate" in fields:
        user["deleteAfterDate"] = iso(parse_date("deleteAfterDate", fields["deleteAfterDate"]))
    project.database_users[key] = user
    record_event(request, project, "MONGODB_USER_ADDED", user["username"])
    return reply(request, query, database_user_document(hrefs(request), project, user), status=201)


async def get_database_user(request: Request) -> Response:
    """Return one database user of a project."""
    project = find_project(request)
    user = find_user(request, project)
    return reply(request, Query(request), database_user_document(hrefs(request), project, user))


async def update_database_user(request: Request) -> Response:
    """Update one database user of a project."""
    project = find_project(request)
    user = find_user(request, project)
    query = Query(request)
    h = hrefs(request)
    changes = UPDATE.check(await read_json(request), database_user_document(h, project, user))
    check_scopes(project, changes)
    changes.pop("password", None)
    if "deleteAfterDate" in changes:
        changes["deleteAfterDate"] = iso(parse_date("deleteAfterDate", changes["deleteAfterDate"]))
    user.update(changes)
    record_event(request, project, "MONGODB_USER_UPDATED", user["username"])
    return reply(request, query, database_user_document(h, project, user))


async def delete_database_user(request: Request) -> Response:
    """Remove one database user from a project."""
    project = find_project(request)
    user = find_user(request, project)
    query = Query(request)
    del project.database_users[(user["databaseName"], user["username"])]
    record_event(request, project, "MONGODB_USER_DELETED", user["username"])
    return reply(request, query, {})
