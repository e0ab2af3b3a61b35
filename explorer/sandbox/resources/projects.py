"""Projects (formerly groups, spec 2.9): list, create, read, update, delete; and their teams."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.access import client_address
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import (
    done,
    find_project,
    hrefs,
    linked,
    list_reply,
    not_found,
    now_of,
    object_id,
    reply,
    world,
)
from explorer.sandbox.shapes import LINKS, TAGS, Boolean, Date, Identifier, Reported, Text
from explorer.sandbox.world import Project, World, iso
from explorer.sandbox.writes import Fields, read_fields, writes

RELATIONS = ("clusters", "databaseUsers", "processes", "events", "alerts", "alertConfigs", "accessList", "teams")
NAME = Text(1, 64)
REPORTED = {"id": Identifier(), "created": Date(), "clusterCount": Reported("integer"), "links": LINKS}
CREATE = Fields(
    "CreateProject",
    writable={"name": NAME, "orgId": Identifier(), "tags": TAGS, "withDefaultAlertsSettings": Boolean()},
    required=("name", "orgId"),
    read_only=REPORTED,
    example=lambda world: {
        "name": "payments",
        "orgId": next(iter(world.orgs)),
        "tags": [{"key": "env", "value": "dev"}],
    },
    description="A project to create in an organization; its name is unique there.",
)
UPDATE = Fields(
    "UpdateProject",
    writable={"name": NAME, "tags": TAGS},
    read_only={**REPORTED, "orgId": Identifier(), "withDefaultAlertsSettings": Boolean()},
    example={"name": "production-eu", "tags": [{"key": "env", "value": "prod"}, {"key": "region", "value": "eu"}]},
    description="The fields of a project to change; the others keep their values.",
)


def project_document(url_of: Hrefs, project: Project, full: bool) -> dict[str, Any]:
    links = [url_of.link("self", "groups", project.id)]
    if full:
        links.append(url_of.link("org", "orgs", project.org_id))
        links += [url_of.link(name, "groups", project.id, name) for name in RELATIONS]
    return with_links(project.document_fields(), links)


def check_name_free(world: World, org_id: str, name: str, project_id: str | None = None) -> None:
    for other in world.projects_of(org_id):
        if other.fields["name"] == name and other.id != project_id:
            raise ApiProblem(409, "GROUP_ALREADY_EXISTS", f'A group with name "{name}" already exists.', [name])


@takes(PAGE_PARAMS)
async def list_projects(request: Request) -> Response:
    """Return the projects the caller can see."""
    url_of = hrefs(request)
    return list_reply(
        request, world(request).visible_projects(), lambda p: project_document(url_of, p, False), url_of("groups")
    )


@writes(201, CREATE, refusals=(409,), description="Created: the project.")
async def create_project(request: Request) -> Response:
    """Create a project in an organization."""
    query = Query(request)
    fields = await read_fields(request)
    the_world = world(request)
    org_id = object_id(fields["orgId"], "organization", "INVALID_ORG_ID")
    if org_id not in the_world.orgs:
        raise not_found("ORG_NOT_FOUND", f"No organization with ID {org_id} exists.", org_id)
    check_name_free(the_world, org_id, fields["name"])
    now = now_of(request)
    project = Project(
        {
            "created": iso(now),
            "id": the_world.ids(now),
            "name": fields["name"],
            "orgId": org_id,
            "tags": fields.get("tags", []),
            "withDefaultAlertsSettings": fields.get("withDefaultAlertsSettings", True),
        }
    )
    the_world.projects[project.id] = project
    record_event(request, now, project, "GROUP_CREATED")
    return done(request, query, project_document(hrefs(request), project, True))


async def get_project(request: Request) -> Response:
    """Return one project."""
    project = find_project(request)
    return reply(request, Query(request), project_document(hrefs(request), project, True))


@writes(200, UPDATE, refusals=(409,), description="OK: the project as it now is.")
async def update_project(request: Request) -> Response:
    """Update one project."""
    project = find_project(request)
    query = Query(request)
    url_of = hrefs(request)
    # Read-only fields may repeat what the client was given, links included (sparse or not).
    changes = await read_fields(request, linked(request, project_document(url_of, project, True)))
    if "name" in changes:
        check_name_free(world(request), project.org_id, changes["name"], project.id)
    project.fields.update(changes)
    return done(request, query, project_document(url_of, project, True))


@writes(204, refusals=(409,), description="No Content: the project is gone.")
async def delete_project(request: Request) -> Response:
    """Remove one project."""
    project = find_project(request)
    query = Query(request)
    if project.clusters:
        raise ApiProblem(
            409,
            "CANNOT_CLOSE_GROUP_ACTIVE_ATLAS_CLUSTERS",
            "Cannot close group while it has active clusters. Please terminate all clusters first.",
            [project.id],
        )
    the_world = world(request)
    del the_world.projects[project.id]
    for user in the_world.users.values():
        user["groupRoles"].pop(project.id, None)
    record_event(request, now_of(request), project, "GROUP_DELETED")
    return done(request, query)


def record_event(request: Request, now: datetime, project: Project, event_type: str) -> None:
    """Writes leave a trace in the organization's events, as they do on the service."""
    the_world = world(request)
    event = {
        "created": iso(now),
        "eventTypeName": event_type,
        "groupId": project.id,
        "id": the_world.ids(now),
        "isGlobalAdmin": False,
        "orgId": project.org_id,
        "remoteAddress": client_address(request.scope),
    }
    the_world.orgs[project.org_id].events.add(event)


def team_assignment_document(url_of: Hrefs, project: Project, assignment: dict[str, Any], full: bool) -> dict[str, Any]:
    links = [url_of.link("self", "groups", project.id, "teams", assignment["teamId"])]
    if full:
        links.append(url_of.link("team", "orgs", project.org_id, "teams", assignment["teamId"]))
    return with_links(assignment, links)


@takes(PAGE_PARAMS)
async def project_teams(request: Request) -> Response:
    """Return the teams assigned to a project."""
    project = find_project(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        list(project.teams.values()),
        lambda a: team_assignment_document(url_of, project, a, False),
        url_of("groups", project.id, "teams"),
    )


async def get_project_team(request: Request) -> Response:
    """Return one team's assignment to a project."""
    project = find_project(request)
    team_id = request.path_params["teamId"]
    assignment = project.teams.get(team_id)
    if assignment is None:
        raise not_found("TEAM_NOT_FOUND", f"No team with ID {team_id} is assigned to group {project.id}.", team_id)
    return reply(request, Query(request), team_assignment_document(hrefs(request), project, assignment, True))
