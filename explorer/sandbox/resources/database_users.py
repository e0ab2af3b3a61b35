"""Database users of a project: list, create, read, update, delete. Passwords go in, never out."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, parse_date, takes
from explorer.sandbox.resources.common import done, find, find_project, hrefs, list_reply, project_event, reply
from explorer.sandbox.shapes import LINKS, TAGS, Choice, Date, Identifier, ListOf, Object, Shape, Text
from explorer.sandbox.world import Project, Record, iso
from explorer.sandbox.writes import Fields, read_fields, writes

AUTH_TYPES = {"awsIAMType": "NONE", "ldapAuthType": "NONE", "oidcAuthType": "NONE", "x509Type": "NONE"}
ROLE = Object(
    {"databaseName": Text(1, 64), "roleName": Text(1, 64), "collectionName": Text(1, 255)},
    optional=frozenset({"collectionName"}),
)
SCOPE = Object({"name": Text(1, 64), "type": Choice(("CLUSTER", "DATA_LAKE"))})
WRITABLE: dict[str, Shape] = {
    "password": Text(8, 256),
    "roles": ListOf(ROLE, "roles with databaseName and roleName", minimum=1),
    "scopes": ListOf(SCOPE, "scopes with name and type"),
    "labels": TAGS,
    "deleteAfterDate": Date(),
}
AUTH = {name: Choice(("NONE",)) for name in AUTH_TYPES}  # password users only: what they report
CREATE = Fields(
    "CreateDatabaseUser",
    writable={
        "databaseName": Choice(("admin",), expected="admin (the authentication database of password users)"),
        "username": Text(1, 1024),
        "groupId": Identifier(),
        **WRITABLE,
    },
    required=("databaseName", "username", "password", "roles"),
    read_only={"links": LINKS, **AUTH},
    example={
        "databaseName": "admin",
        "username": "analyst",
        "password": "correct-horse-battery",
        "roles": [{"databaseName": "sales", "roleName": "read"}],
        "labels": [{"key": "owner", "value": "data-eng"}],
    },
    description="A password user to create; scopes name clusters of the project (none: all of them).",
)
UPDATE = Fields(
    "UpdateDatabaseUser",
    writable=WRITABLE,
    read_only={"databaseName": Text(1, 64), "username": Text(1, 1024), "groupId": Identifier(), "links": LINKS, **AUTH},
    example={"roles": [{"databaseName": "admin", "roleName": "readAnyDatabase"}]},
    description="The fields of a database user to change; a password sent is set, and never shown.",
)


def user_path(project: Project, user: Record) -> tuple[str, ...]:
    return ("groups", project.id, "databaseUsers", user["databaseName"], user["username"])


def database_user_document(url_of: Hrefs, project: Project, user: Record) -> dict[str, Any]:
    return with_links(user, [url_of.link("self", *user_path(project, user))])


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


@takes(PAGE_PARAMS)
async def list_database_users(request: Request) -> Response:
    """Return the database users of a project."""
    project = find_project(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        list(project.database_users.values()),
        lambda u: database_user_document(url_of, project, u),
        url_of("groups", project.id, "databaseUsers"),
    )


@writes(201, CREATE, refusals=(409,), description="Created: the database user, without its password.")
async def create_database_user(request: Request) -> Response:
    """Create a database user in a project."""
    project = find_project(request)
    query = Query(request)
    fields = await read_fields(request)
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
    project_event(request, project, "MONGODB_USER_ADDED", dbUserUsername=user["username"])
    return done(request, query, database_user_document(hrefs(request), project, user))


async def get_database_user(request: Request) -> Response:
    """Return one database user of a project."""
    project = find_project(request)
    user = find_user(request, project)
    return reply(request, Query(request), database_user_document(hrefs(request), project, user))


@writes(200, UPDATE, description="OK: the database user as it now is, without its password.")
async def update_database_user(request: Request) -> Response:
    """Update one database user of a project."""
    project = find_project(request)
    user = find_user(request, project)
    query = Query(request)
    url_of = hrefs(request)
    changes = await read_fields(request, database_user_document(url_of, project, user))
    check_scopes(project, changes)
    changes.pop("password", None)
    if "deleteAfterDate" in changes:
        changes["deleteAfterDate"] = iso(parse_date("deleteAfterDate", changes["deleteAfterDate"]))
    user.update(changes)
    project_event(request, project, "MONGODB_USER_UPDATED", dbUserUsername=user["username"])
    return done(request, query, database_user_document(url_of, project, user))


@writes(204, description="No Content: the database user is gone.")
async def delete_database_user(request: Request) -> Response:
    """Remove one database user from a project."""
    project = find_project(request)
    user = find_user(request, project)
    query = Query(request)
    del project.database_users[(user["databaseName"], user["username"])]
    project_event(request, project, "MONGODB_USER_DELETED", dbUserUsername=user["username"])
    return done(request, query)
